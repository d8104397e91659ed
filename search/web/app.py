"""The HTTP service: FastAPI over one `LegalSearch` client.

Endpoints (docs/service.md)
    POST /v1/search             SearchResponse, exactly what `legalsearch search --json` prints
    POST /v1/context            ContextResponse (`legalsearch context --json`)
    POST /v1/explain            the explanation (`legalsearch explain --json`)
    GET  /v1/documents/{doc_id} DocumentView: one version's text with its passages' offsets
                                (?version=, ?chunk_id= to open at a passage, ?index=, ?group=)
    GET  /v1/indices            the indices (names only for a caller restricted to its groups)
    POST /v1/token              a bearer token for the caller's user (HTTP basic in, at most 300 s)
    GET  /healthz, /readyz      the process answers; the node answers
    GET  /openapi.json, /docs   the OpenAPI document (FastAPI's)
    GET  /                      the web page (static/: plain HTML + JavaScript over the endpoints above)

A search body is one JSON object: `query`, optional `profile`, optional `set` (options by flat
name, the CLI's `--set`) and any request option by its flat or grouped name (`as_of`,
`routing_docs`, `"routing": {"docs": 5}`). It is validated by `SearchRequest` through
`LegalSearch.request`, the one definition every surface uses: there is no second request model,
and a bad option is the CLI's one-line message.

Who asks: HTTP basic credentials of a user of the node, or a bearer token the node issued to one
(`POST /v1/token`: the security plugin's on-behalf-of token), verified by the security plugin on
every request (`LegalSearch.as_user` / `as_bearer`, as `--user` does): the user's groups decide
every sub-query, a `groups` option only narrows them.

Limits: a bounded body (413), a per-request timeout (504; the engine call it abandons still
finishes in its worker and holds the caller's slot until then), a per-user limit of requests in
flight (429). Every error is an RFC 9457 problem (`application/problem+json`: type, title, status,
detail) whose detail is the message the CLI prints. One JSON access-log line per request on the
`legalsearch.web.access` logger: method, path, status, milliseconds, user name; never a
credential, a query string or a body. A 401 to a request with `X-Requested-With` (the page's
`fetch`) has no `WWW-Authenticate`, so the browser shows the page's login, not its own dialog.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import json
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from legalsearch import __version__
from legalsearch.client import LegalSearch
from legalsearch.errors import (
    AuthenticationError,
    ConfigError,
    LegalSearchError,
    NodeError,
    NotFoundError,
    PermissionDeniedError,
    QueryError,
    SecurityError,
    StoreError,
)
from legalsearch.query.context import DEFAULT_BUDGET, ContextResponse
from legalsearch.query.models import CONTRACT_FIELDS, GROUPS, SearchRequest, SearchResponse, option_fields
from legalsearch.query.profiles import SETTABLE
from legalsearch.query.view import DocumentView
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger(__name__)
access_log = logging.getLogger("legalsearch.web.access")

PROBLEM = "application/problem+json"
REALM = 'Basic realm="legalsearch", charset="UTF-8"'


@dataclass(frozen=True)
class Limits:
    """The service's bounds (`legalsearch serve` options)."""

    max_body_bytes: int = 64 * 1024
    timeout_s: float = 60.0
    per_user: int = 4
    workers: int = 16
    cached_users: int = 256


class Problem(Exception):
    """An error answered as an RFC 9457 problem document."""

    def __init__(self, status: int, slug: str, title: str, detail: str, headers: dict[str, str] | None = None):
        super().__init__(detail)
        self.status, self.slug, self.title, self.detail, self.headers = status, slug, title, detail, headers or {}

    def response(self) -> JSONResponse:
        body = {"type": f"urn:legalsearch:problem:{self.slug}", "title": self.title, "status": self.status,
                "detail": self.detail}
        return JSONResponse(body, status_code=self.status, media_type=PROBLEM, headers=self.headers)


def problem_of(error: Exception) -> Problem:
    """The problem a library error is answered with; its detail is the error's own message."""
    message = str(error)
    for kind, status, slug, title in (
        (AuthenticationError, 401, "unauthenticated", "Bad credentials"),
        (PermissionDeniedError, 403, "forbidden", "No access"),
        (SecurityError, 403, "forbidden", "No access"),
        (NotFoundError, 404, "not-found", "Not found"),
        (QueryError, 422, "invalid-request", "Invalid request"),
        (ConfigError, 422, "invalid-request", "Invalid request"),
        (NodeError, 503, "engine-unavailable", "OpenSearch unavailable"),
        (StoreError, 502, "engine-error", "OpenSearch error"),
        (LegalSearchError, 500, "error", "Request failed"),
    ):
        if isinstance(error, kind):
            return Problem(status, slug, title, message, {"WWW-Authenticate": REALM} if status == 401 else None)
    return Problem(500, "internal-error", "Internal error", "the service failed; its log says why")


@dataclass(frozen=True)
class Caller:
    """Who a request says it is: a user and password (HTTP basic) or a bearer token the node
    issued; `name` is the user name it claims (a token's `sub`, read unverified: only for the
    per-user limit and the access log; the node verifies the token before any search)."""

    name: str
    password: str | None = None
    token: str | None = None


def _claimed_user(token: str) -> str:
    try:
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return str(claims.get("sub") or "bearer")
    except (IndexError, ValueError, UnicodeDecodeError, AttributeError):
        return "bearer"


def credentials(header: str | None) -> Caller:
    """The caller of an `Authorization: Basic` or `Authorization: Bearer` header.

    Raises:
        Problem: 401 for a missing or malformed header.
    """
    if not header:
        raise Problem(401, "unauthenticated", "Login required",
                      "log in: send the user name and password of a user of the node (HTTP basic), or a bearer token "
                      "the node issued (POST /v1/token)", {"WWW-Authenticate": REALM})
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() == "bearer":
        token = value.strip()
        if not token or token.count(".") != 2:
            raise Problem(401, "unauthenticated", "Login required", "malformed bearer token: expected the JWT the "
                          "node issued (POST /v1/token)", {"WWW-Authenticate": REALM})
        return Caller(_claimed_user(token), token=token)
    try:
        if scheme.lower() != "basic":
            raise ValueError(scheme)
        user, sep, password = base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise Problem(401, "unauthenticated", "Login required", "malformed Authorization header: expected "
                      "'Basic base64(user:password)' or 'Bearer TOKEN'", {"WWW-Authenticate": REALM}) from None
    if not sep or not user:
        raise Problem(401, "unauthenticated", "Login required", "malformed Authorization header: expected "
                      "'Basic base64(user:password)' or 'Bearer TOKEN'", {"WWW-Authenticate": REALM})
    return Caller(user, password=password)


class Clients:
    """One `LegalSearch` per verified user (shared models and service connection), kept for the
    next request; the password is still verified by the node on every request (the key holds
    only its digest, so a changed password is a new client)."""

    def __init__(self, base: LegalSearch, size: int):
        self.base = base
        self.size = size
        self._lock = threading.Lock()
        self._clients: OrderedDict[tuple[str, str], LegalSearch] = OrderedDict()
        self._service_store = base.search_store if base.search_store is not base.store else None

    def get(self, caller: Caller) -> LegalSearch:
        secret = caller.token if caller.token is not None else caller.password or ""
        key = ("bearer" if caller.token is not None else caller.name, hashlib.sha256(secret.encode("utf-8")).hexdigest())
        with self._lock:
            found = self._clients.get(key)
            if found is not None:
                self._clients.move_to_end(key)
                return found
            client = self.base.as_bearer(caller.token) if caller.token is not None else \
                self.base.as_user(caller.name, caller.password or "")
            if self._service_store is None:
                self._service_store = client.search_store
            client.search_store = self._service_store  # one connection pool for every user's searches
            self._clients[key] = client
            while len(self._clients) > self.size:
                self._clients.popitem(last=False)
            return client


class Slots:
    """Requests in flight per user: a slot is taken before the work starts and given back when
    the work ends (even after its caller timed out)."""

    def __init__(self, per_user: int):
        self.per_user = per_user
        self._lock = threading.Lock()
        self._busy: dict[str, int] = {}

    def take(self, user: str) -> None:
        with self._lock:
            if self._busy.get(user, 0) >= self.per_user:
                raise Problem(429, "too-many-requests", "Too many requests",
                              f"user {user!r} already has {self.per_user} requests in flight; retry when one ends",
                              {"Retry-After": "1"})
            self._busy[user] = self._busy.get(user, 0) + 1

    def give(self, user: str) -> None:
        with self._lock:
            left = self._busy.get(user, 1) - 1
            if left:
                self._busy[user] = left
            else:
                self._busy.pop(user, None)


async def read_json(request: Request, limit: int) -> dict:
    """The request body as a JSON object, refusing more than `limit` bytes (413) and anything
    that is not one JSON object (400)."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise Problem(413, "too-large", "Request too large", f"the request body is over {limit} bytes")
    data = bytearray()
    async for piece in request.stream():
        data += piece
        if len(data) > limit:
            raise Problem(413, "too-large", "Request too large", f"the request body is over {limit} bytes")
    try:
        body = json.loads(bytes(data) or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise Problem(400, "bad-json", "Malformed JSON", f"the request body is not JSON: {e}") from None
    if not isinstance(body, dict):
        raise Problem(400, "bad-json", "Malformed JSON", "the request body must be one JSON object with a 'query'")
    return body


def build_request(client: LegalSearch, body: dict, extras: tuple[str, ...] = ()) -> tuple[SearchRequest, dict]:
    """(the SearchRequest of a body, the endpoint's own keys): `query`, `profile`, `set` and the
    options, validated by `LegalSearch.request` as the CLI's are.

    Raises:
        QueryError: a missing query, an unknown `set` key or a bad option, in one line.
    """
    options = dict(body)
    own = {key: options.pop(key) for key in extras if key in options}
    query = options.pop("query", None)
    if not isinstance(query, str):
        raise QueryError("bad search request: query: a question (a JSON string) is required")
    profile = options.pop("profile", None)
    overrides = options.pop("set", None) or {}
    if not isinstance(overrides, dict):
        raise QueryError("set expects a JSON object of options by flat name, e.g. {\"rerank_depth\": 32}")
    for key in overrides:
        if key not in SETTABLE:
            raise QueryError(f"set {key}: no such option; options are {', '.join(SETTABLE)}")
    if profile is not None and not isinstance(profile, str):
        raise QueryError("profile expects the name of a profile (default, rescore, fast, bm25)")
    return client.request(query, profile=profile, overrides=overrides, **options), own


def _json(data: Any) -> Response:
    """A dict as the CLI's `--json` writes it (json.dumps, str for dates)."""
    return Response(json.dumps(data, ensure_ascii=False, default=str), media_type="application/json")


STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8"}
"""The page's files (package data beside this module), with their types."""
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


def _static(name: str) -> Response:
    if name not in STATIC:
        raise Problem(404, "not-found", "Not found", f"no file {name!r}")
    text = resources.files("legalsearch.web").joinpath("static", name).read_bytes()
    return Response(text, media_type=STATIC[name], headers={
        "Content-Security-Policy": PAGE_POLICY, "X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"})


def _body_schema() -> tuple[dict, dict]:
    """(the OpenAPI schema of a search body, the component schemas it refers to), generated from
    SearchRequest: its grouped form plus every option by flat name, `profile` and `set`."""
    schema = SearchRequest.model_json_schema(ref_template="#/components/schemas/{model}")
    defs = schema.pop("$defs", {})
    properties = dict(schema["properties"])
    for flat, group, field, info in option_fields():
        if group is None or flat in properties:
            continue
        model = GROUPS[group].__name__
        prop = dict(defs.get(model, {}).get("properties", {}).get(field, {}))
        prop["description"] = f"{info.description} (flat name of {group}.{field})"
        properties[flat] = prop
    properties["profile"] = {"type": "string", "description": "Named preset of the tuning options: default, "
                             "rescore, fast, bm25.", "default": "default"}
    properties["set"] = {"type": "object", "description": "More options by flat name, applied over the profile "
                         "(the CLI's --set)."}
    body = {"title": "SearchBody", "type": "object", "required": ["query"], "properties": properties,
            "additionalProperties": False,
            "description": "A search: `query`, optional `profile` and `set`, and any request option by flat or "
                           "grouped name; validated by SearchRequest (legalsearch.query.models)."}
    return body, defs


def loop_run(pool: ThreadPoolExecutor, work: Callable[[], Any]) -> Any:
    """`work()` in the pool, awaitable."""
    return asyncio.get_running_loop().run_in_executor(pool, work)


def create_app(client: LegalSearch, limits: Limits | None = None) -> FastAPI:
    """The service over `client` (its settings choose the node: OPENSEARCH_URL, or the local one)."""
    limits = limits or Limits()
    clients = Clients(client, limits.cached_users)
    slots = Slots(limits.per_user)
    pool = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="legalsearch-web")
    app = FastAPI(title="legalsearch", version=__version__,
                  description="Legal retrieval on OpenSearch: the full ranking of the Python API over HTTP. Log in "
                              "with HTTP basic as a user of the node; errors are RFC 9457 problem details.")
    app.state.client, app.state.limits = client, limits

    async def run(request: Request, work: Callable[[LegalSearch], Any]) -> Any:
        """`work(client for the verified caller)` in a worker thread, under the caller's slot and
        the per-request timeout."""
        caller = credentials(request.headers.get("authorization"))
        user = caller.name
        request.state.user = user
        slots.take(user)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(pool, lambda: work(clients.get(caller)))
        except BaseException:
            slots.give(user)
            raise
        future.add_done_callback(lambda _f: slots.give(user))
        try:
            return await asyncio.wait_for(asyncio.shield(future), limits.timeout_s)
        except TimeoutError:
            raise Problem(504, "timeout", "Request timed out",
                          f"the request took longer than {limits.timeout_s:g} s; narrow it (filters, k) or try again "
                          "later") from None
        except LegalSearchError as e:
            raise problem_of(e) from e

    @app.middleware("http")
    async def access(request: Request, call_next):
        started = time.perf_counter()
        request_id = request.headers.get("x-request-id") or uuid.uuid4().hex[:16]
        status = 500
        try:
            response = await call_next(request)
            status = response.status_code
            if status == 401 and request.headers.get("x-requested-with"):
                # a page's own login form: no browser password dialog over it
                del response.headers["www-authenticate"]
            response.headers["X-Request-ID"] = request_id
            return response
        finally:
            access_log.info(json.dumps({
                "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "request_id": request_id,
                "method": request.method, "path": request.url.path, "status": status,
                "ms": round((time.perf_counter() - started) * 1000, 1),
                "user": getattr(request.state, "user", None),
                "client": request.client.host if request.client else None}))

    @app.exception_handler(Problem)
    async def _problem(_request: Request, exc: Problem):
        return exc.response()

    @app.exception_handler(LegalSearchError)
    async def _library(_request: Request, exc: LegalSearchError):
        return problem_of(exc).response()

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError):
        parts = [f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return Problem(422, "invalid-request", "Invalid request", "bad request: " + "; ".join(parts)).response()

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException):
        title = {404: "Not found", 405: "Method not allowed"}.get(exc.status_code, "HTTP error")
        detail = "no such endpoint; GET /openapi.json lists them" if exc.status_code == 404 else str(exc.detail)
        return Problem(exc.status_code, "http", title, detail, dict(exc.headers or {})).response()

    @app.exception_handler(Exception)
    async def _crash(_request: Request, exc: Exception):
        log.exception("request failed", exc_info=exc)
        return problem_of(exc).response()

    body_schema, body_defs = _body_schema()
    body_doc = {"requestBody": {"required": True, "content": {"application/json": {"schema": body_schema}}}}

    def _with(extra: dict) -> dict:
        schema = {**body_schema, "properties": {**body_schema["properties"], **extra}}
        return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}

    problem_doc = {"description": "An RFC 9457 problem (type, title, status, detail)",
                   "content": {PROBLEM: {"schema": {"type": "object", "properties": {
                       "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"},
                       "detail": {"type": "string"}}}}}}
    errors = {code: problem_doc for code in (400, 401, 403, 404, 413, 422, 429, 502, 503, 504)}

    @app.post("/v1/search", openapi_extra=body_doc, tags=["search"],
              responses={200: {"model": SearchResponse, "description": "What `legalsearch search --json` prints"},
                         **errors})
    async def search(request: Request) -> Response:
        """Hybrid BM25 + k-NN search with routing, priors, expansion and citations: the full ranking."""
        body = await read_json(request, limits.max_body_bytes)

        def work(c: LegalSearch) -> str:
            req, _ = build_request(c, body)
            return c.search(req).model_dump_json(include=CONTRACT_FIELDS)

        return Response(await run(request, work), media_type="application/json")

    @app.post("/v1/context", tags=["search"], responses={200: {"model": ContextResponse}, **errors},
              openapi_extra=_with({"budget": {"type": "integer", "minimum": 1, "default": DEFAULT_BUDGET},
                                   "attach": {"type": "boolean", "default": True}}))
    async def context(request: Request) -> Response:
        """Context for an LLM prompt: the best passages within `budget` characters."""
        body = await read_json(request, limits.max_body_bytes)

        def work(c: LegalSearch) -> str:
            req, own = build_request(c, body, ("budget", "attach"))
            budget, attach = own.get("budget", DEFAULT_BUDGET), own.get("attach", True)
            if not isinstance(budget, int) or isinstance(budget, bool):
                raise QueryError("budget expects a number of characters")
            return c.context(req, budget=budget, attach=bool(attach)).model_dump_json()

        return Response(await run(request, work), media_type="application/json")

    @app.post("/v1/explain", openapi_extra=body_doc, tags=["search"],
              responses={200: {"description": "`legalsearch explain --json`"}, **errors})
    async def explain(request: Request) -> Response:
        """Why each hit ranks where it does: per list the engine's raw and normalized scores, the
        fused score, and the priors added after fusion."""
        body = await read_json(request, limits.max_body_bytes)

        def work(c: LegalSearch) -> dict:
            req, _ = build_request(c, body)
            return c.explain(req)

        return _json(await run(request, work))

    @app.get("/v1/documents/{doc_id}", tags=["documents"], response_model=DocumentView, responses=errors)
    async def document(request: Request, doc_id: str, version: str | None = None, chunk_id: str | None = None,
                       index: str | None = None, group: list[str] = Query(default=[])) -> Response:  # noqa: B008
        """One version of a document (default: the one in force today) with every passage's offsets;
        `chunk_id` opens it at that passage (`focus`)."""
        def work(c: LegalSearch) -> str:
            return c.document(doc_id, version=version, chunk_id=chunk_id, index=index,
                              groups=group).model_dump_json()

        return Response(await run(request, work), media_type="application/json")

    @app.get("/v1/indices", tags=["documents"], responses=errors)
    async def list_indices(request: Request) -> Response:
        """The indices: every figure for a caller who may read everything, the names otherwise (a
        count may not be shown to a caller who cannot read what it counts)."""
        def work(c: LegalSearch) -> list[dict]:
            principal = c.service.authenticator.principal()
            rows = client.list_indices()
            if principal.groups is None:
                return rows
            return [{"name": r["name"], "embedder": r.get("embedder")} for r in rows]

        return _json(await run(request, work))

    @app.post("/v1/token", tags=["login"], responses={200: {"description": "A bearer token of the node's: "
                                                               "{user, token, expires_in}"}, **errors})
    async def token(request: Request, seconds: int = Query(default=300, ge=1, le=300)) -> Response:  # noqa: B008
        """A bearer token for the user of these HTTP basic credentials, issued by the node's security
        plugin (an on-behalf-of token, at most 300 seconds); send it as `Authorization: Bearer TOKEN`
        instead of the password until it expires."""
        caller = credentials(request.headers.get("authorization"))
        if caller.token is not None:
            raise Problem(400, "bad-credentials", "Password required", "a bearer token is issued for a user name and "
                          "password (HTTP basic), not for another token")
        request.state.user = caller.name
        slots.take(caller.name)
        try:
            found = await asyncio.wait_for(loop_run(pool, lambda: client.issue_token(
                caller.name, caller.password or "", seconds)), limits.timeout_s)
        except TimeoutError:
            raise Problem(504, "timeout", "Request timed out", "the node did not issue a token in time") from None
        except LegalSearchError as e:
            raise problem_of(e) from e
        finally:
            slots.give(caller.name)
        return _json(found)

    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict:
        """The process answers."""
        return {"status": "ok", "version": __version__}

    @app.get("/readyz", tags=["health"], responses={503: problem_doc})
    async def readyz() -> Response:
        """The node answers (503 with the reason otherwise)."""
        def probe() -> dict:
            info = client.store.info()
            return {"status": "ready", "cluster": info.get("cluster_name"),
                    "opensearch": info.get("version", {}).get("number")}

        try:
            found = await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(pool, probe),
                                           min(limits.timeout_s, 10.0))
        except TimeoutError:
            raise Problem(503, "engine-unavailable", "OpenSearch unavailable", "the node did not answer within "
                          "10 s") from None
        except LegalSearchError as e:
            found_problem = problem_of(e)
            raise Problem(503, "engine-unavailable", "OpenSearch unavailable", found_problem.detail) from e
        return _json(found)

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        """The web page (plain HTML and JavaScript over these endpoints, no external asset)."""
        return _static("index.html")

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        return _static(name)

    def openapi() -> dict:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for name, value in body_defs.items():
                components.setdefault(name, value)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def serve(client: LegalSearch, host: str = "127.0.0.1", port: int = 8730, limits: Limits | None = None) -> None:
    """Run the service in this process until interrupted (uvicorn; its own access log off: ours
    is the structured one)."""
    import uvicorn

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(message)s"))
    access_log.addHandler(handler)
    access_log.setLevel(logging.INFO)
    access_log.propagate = False
    uvicorn.run(create_app(client, limits), host=host, port=port, access_log=False, log_level="info")

