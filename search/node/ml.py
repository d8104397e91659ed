"""ml-commons on the node: the cluster settings remote models need, and our remote embedding
models (a model group, one HTTP connector + remote model per embedder and side), found again by
name, updated and deployed idempotently (docs/engine.md).

Every function takes `call(method, path, body=None) -> (HTTP status, JSON body)`, so the same
code runs from the node's lifecycle (the admin certificate, `search.security.plugin.admin_request`,
right after a start) and from `legalsearch pipelines install` on any cluster (`Store.call`).

Names: `legalsearch-<embedder>-<side>-v1`, side `query` (for `neural` queries: read timeout
10 s) or `passage` (for the `text_embedding` ingest processor: 120 s, a batch of passages takes
seconds). Each connector calls the embedding server's model `<embedder>-<side>`.

After a full node restart ml-commons' own redeploy often leaves remote models DEPLOY_FAILED
("Fetching master key timed out", ml-commons#2177) or stuck DEPLOYING in its in-memory cache
("Duplicate deploy model task" on every _deploy until an _undeploy), and a model's document may say
DEPLOYED while no node holds it. So that redeploy is switched off, and `after_start` deploys every
legalsearch model no node holds (the profile API says) whenever the local node starts.

An index whose embedder is an API (`openai:` / `cohere:` specifications, search.embed.spec) gets
connectors to the provider's endpoint itself (`ApiModel`: `legalsearch-api-<hash>-<side>-v1`, the
hash of the model's identity), and an API reranker (`cohere:` / `jina:`) one more
(`RerankModel`: `legalsearch-rerank-<hash>-v1`, for the `rerank` response processor). Their API key
is read from the specification's key_env / key_file when the connector is written and goes only
into the connector's `credential` block (ml-commons encrypts it; GET never returns it); the
connector's parameters hold a 64-bit fingerprint of it (`credential_fingerprint`, a salted
sha256), so that a changed key is seen and the connector updated. Neither name parses as one of
ours, so `after_start` deploys them as they are and never points them at our server.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import re
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field

from legalsearch.errors import ModelError

log = logging.getLogger(__name__)

Call = Callable[..., tuple[int, dict]]
ML = "/_plugins/_ml"
GROUP = "legalsearch"
VERSION = "v1"
SIDES = ("query", "passage")
READ_TIMEOUT_S = {"query": 10, "passage": 120}
_NAME = re.compile(rf"^legalsearch-(?P<embedder>[a-z0-9]+)-(?P<side>query|passage)-{VERSION}$")
# Ours among the trusted endpoints (so a changed port replaces the old entry, nothing else).
_OUR_REGEX = re.compile(r"^\^http://127\\\.0\\\.0\\\.1:\d+/v1/embeddings\$$")


@dataclass(frozen=True)
class RemoteModel:
    """One side of one embedder, served by the embedding server at `endpoint`."""

    embedder: str
    side: str
    endpoint: str

    @property
    def name(self) -> str:
        return f"legalsearch-{self.embedder}-{self.side}-{VERSION}"

    @property
    def served(self) -> str:
        return f"{self.embedder}-{self.side}"

    @property
    def url(self) -> str:
        return f"{self.endpoint.rstrip('/')}/v1/embeddings"


def parse_name(name: str) -> tuple[str, str] | None:
    m = _NAME.match(name)
    return (m["embedder"], m["side"]) if m else None


def _ok(answer: tuple[int, dict], what: str) -> dict:
    status, body = answer
    if status >= 300:
        err = body.get("error", body)
        reason = err.get("reason") if isinstance(err, dict) else err
        raise ModelError(f"OpenSearch refused to {what} (HTTP {status}): {reason or body}")
    return body


# --------------------------------------------------------------------------- cluster settings


def endpoint_regex(url: str) -> str:
    """The trusted-endpoint regex admitting exactly `url` (the server's /v1/embeddings)."""
    return "^" + re.escape(url) + "$"


def cluster_settings(endpoint: str, trusted: list[str], providers: tuple[str, ...] = ()) -> dict:
    """Persistent, dynamic cluster settings (opensearch.yml stays as it is). `trusted`: the
    regexes already in force; ours replaces an older one of ours and keeps the others.
    `providers`: the URLs of API connectors (a provider's /embeddings, /embed or /rerank), each
    admitted by its exact regex, added when missing (never removed here)."""
    ours = endpoint_regex(RemoteModel("x", "query", endpoint).url)
    regexes = [r for r in trusted if not _OUR_REGEX.match(r) and r != ours] + [ours]
    regexes += [r for r in dict.fromkeys(endpoint_regex(u) for u in providers) if r not in regexes]
    persistent = {
        "plugins.ml_commons.only_run_on_ml_node": False,          # one node, not a dedicated ML node
        # the native-memory breaker reads the whole machine's RAM (shared machines sit near 90 %);
        # remote models use none
        "plugins.ml_commons.native_memory_threshold": 100,
        "plugins.ml_commons.trusted_connector_endpoints_regex": regexes,
        "plugins.ml_commons.allow_registering_model_via_url": False,   # remote models only
        # ml-commons' own redeploy at start races ours and leaves models DEPLOY_FAILED or stuck
        # (ml-commons#2177); `after_start` deploys what no node holds. (A query still deploys an
        # undeployed model on the fly: model_auto_deploy stays on.)
        "plugins.ml_commons.model_auto_redeploy.enable": False,
        # ml-commons' sync job logs two INFO lines every 10 s otherwise
        "logger.org.opensearch.remote.metadata.client.impl.LocalClusterIndicesClient": "warn",
    }
    if any(_private(u) for u in (endpoint, *providers)):
        persistent["plugins.ml_commons.connector.private_ip_enabled"] = True  # loopback is refused otherwise
    return {"persistent": persistent}


def _private(url: str) -> bool:
    return (urllib.parse.urlparse(url).hostname or "") in ("127.0.0.1", "localhost", "::1")


def trusted_regexes(call: Call) -> list[str]:
    """The trusted-endpoint regexes in force (persistent, else the defaults)."""
    key = "plugins.ml_commons.trusted_connector_endpoints_regex"
    current = _ok(call("GET", f"/_cluster/settings?include_defaults=true&filter_path=*.{key}"),
                  "read the ml-commons settings")
    for scope in ("persistent", "defaults"):
        value = _flat(current.get(scope, {})).get(key)
        if value:
            return list(value)
    return []


def forget_providers(call: Call, urls: list[str]) -> None:
    """Take the exact regexes of `urls` out of the trusted endpoints (for a provider that is gone,
    e.g. a test's server on a port of its own); the other entries stay."""
    drop = {endpoint_regex(u) for u in urls}
    trusted = trusted_regexes(call)
    if drop & set(trusted):
        key = "plugins.ml_commons.trusted_connector_endpoints_regex"
        _ok(call("PUT", "/_cluster/settings", {"persistent": {key: [r for r in trusted if r not in drop]}}),
            "set the trusted connector endpoints")


def apply_settings(call: Call, endpoint: str, providers: tuple[str, ...] = ()) -> None:
    _ok(call("PUT", "/_cluster/settings", cluster_settings(endpoint, trusted_regexes(call), providers)),
        "set the ml-commons cluster settings")


def _flat(tree: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in tree.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


# --------------------------------------------------------------------------- bodies


def connector_body(m) -> dict:
    """The connector `m` (RemoteModel, ApiModel or RerankModel) is called through."""
    if not isinstance(m, RemoteModel):
        return m.connector_body()
    return {
        "name": m.name,
        "description": f"legalsearch embedding server, model {m.served} (OpenAI-compatible /v1/embeddings)",
        "version": "1",
        "protocol": "http",
        "parameters": {"model": m.served},
        "credential": {"api_key": "unused"},  # refused without a credential block, even for an open endpoint
        # 2.19 reads both timeouts as SECONDS (HttpJsonConnectorExecutor), though its defaults read 30000
        "client_config": {"max_connection": 32, "connection_timeout": 2, "read_timeout": READ_TIMEOUT_S[m.side],
                          "max_retry_times": 0},
        "actions": [{
            "action_type": "predict",
            "method": "POST",
            "url": m.url,
            "headers": {"content-type": "application/json"},
            "request_body": '{ "input": ${parameters.input}, "model": "${parameters.model}" }',
            "pre_process_function": "connector.pre_process.openai.embedding",
            "post_process_function": "connector.post_process.openai.embedding",
        }],
    }


# The credential key each provider's blueprint uses (ml-commons docs/remote_inference_blueprints).
CREDENTIAL_KEY = {"openai": "openAI_key", "cohere": "cohere_key", "jina": "jina_key"}


def _painless(text: str) -> str:
    """`text` as a painless single-quoted string literal."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def prefix_pre_process(field_name: str, prefix: str) -> str:
    """A painless pre_process_function that does what connector.pre_process.openai.embedding (or
    .cohere.embedding) does, `prefix` put before each text: {"parameters": {field_name: [...]}}.
    ml-commons hands the script the texts already JSON-escaped (ConnectorUtils.escapeMLInput), so
    they go in as they are and only the prefix is escaped here."""
    return ("StringBuilder b = new StringBuilder('['); "
            "for (int i = 0; i < params.text_docs.length; i++) { if (i > 0) { b.append(','); } "
            f"b.append('\"'); b.append({_painless(json.dumps(prefix)[1:-1])}); b.append(params.text_docs[i]); "
            "b.append('\"'); } "
            f"b.append(']'); return '{{\"parameters\": {{\"{field_name}\": ' + b.toString() + '}}}}';")


def credential_fingerprint(name: str, key: str) -> str:
    """64 bits of a salted sha256 of the API key: shows that the key changed, never the key."""
    return hashlib.sha256(f"legalsearch-credential-v1\0{name}\0{key}".encode()).hexdigest()[:16]


def _auth(kind: str, name: str, key: str | None) -> tuple[dict, dict, dict]:
    """(credential, headers, extra parameters) for a provider connector."""
    headers = {"content-type": "application/json"}
    if not key:  # an open endpoint: ml-commons still wants a credential block
        return {"api_key": "unused"}, headers, {}
    slot = CREDENTIAL_KEY[kind]
    return ({slot: key}, {**headers, "Authorization": f"Bearer ${{credential.{slot}}}"},
            {"credential_fingerprint": credential_fingerprint(name, key)})


def _client_config(timeout_s: float, retries: int) -> dict:
    # seconds (see connector_body); ml-commons retries a throttled (429) call with backoff
    return {"max_connection": 32, "connection_timeout": 5, "read_timeout": max(1, math.ceil(timeout_s)),
            "max_retry_times": retries}


def api_slug(identity: str, kind: str = "api") -> str:
    """`api-<10 hex>` / `rerank-<10 hex>`: a model's short name from its identity (the
    specification without its operational parameters)."""
    return f"{kind}-{hashlib.sha256(identity.encode()).hexdigest()[:10]}"


@dataclass(frozen=True)
class ApiModel:
    """One side of an index's API embedder: a connector to the provider's endpoint itself, with
    what the specification says (model, dimensions, prefix, input_type) and the key it names."""

    slug: str
    side: str
    kind: str                      # openai | cohere
    base: str
    model: str
    dims: int | None = None
    send_dims: bool = False
    input_type: bool = False
    prefix: str = ""
    timeout_s: float = 0.0         # 0: READ_TIMEOUT_S of the side
    retries: int = 0
    key: str | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_spec(cls, spec, side: str) -> ApiModel:
        """From a parsed `openai:` / `cohere:` specification (search.embed.spec); reads its key."""
        if spec.kind == "cohere" and urllib.parse.urlparse(spec.target).path.rstrip("/").endswith("/v2"):
            raise ModelError(f"{spec.label}: the engine side speaks Cohere's v1 /embed (a plain list of vectors, "
                             "which ml-commons' connector.post_process.cohere.embedding reads); give the v1 base URL "
                             f"(e.g. {spec.target[:-3]}/v1) in the index's specification")
        return cls(slug=api_slug(spec.identity), side=side, kind=spec.kind, base=spec.target,
                   model=spec.get("model"), dims=int(spec.get("dims")) if spec.get("dims") else None,
                   send_dims=spec.flag("send_dims", False), input_type=spec.flag("input_type", False),
                   prefix=spec.get(f"{side}_prefix", ""), timeout_s=spec.real("timeout", 0.0),
                   retries=min(spec.integer("retries", 5), 5), key=spec.api_key())

    @property
    def name(self) -> str:
        return f"legalsearch-{self.slug}-{self.side}-{VERSION}"

    @property
    def url(self) -> str:
        return f"{self.base.rstrip('/')}/{'embeddings' if self.kind == 'openai' else 'embed'}"

    def connector_body(self) -> dict:
        credential, headers, extra = _auth(self.kind, self.name, self.key)
        if self.kind == "openai":
            fields = ['"input": ${parameters.input}', '"model": "${parameters.model}"', '"encoding_format": "float"']
            if self.send_dims and self.dims:
                fields.append(f'"dimensions": {int(self.dims)}')
            if self.input_type:
                fields.append(f'"input_type": "{self.side}"')
            texts, functions = "input", "openai"
        else:
            input_type = "search_query" if self.side == "query" else "search_document"
            fields = ['"texts": ${parameters.texts}', '"model": "${parameters.model}"', f'"input_type": "{input_type}"']
            texts, functions = "texts", "cohere"
        pre = (prefix_pre_process(texts, self.prefix) if self.prefix
               else f"connector.pre_process.{functions}.embedding")
        timeout = self.timeout_s or READ_TIMEOUT_S[self.side]
        return {
            "name": self.name,
            "description": f"legalsearch: {self.kind} embeddings of {self.model} at {self.url}, {self.side} side",
            "version": "1",
            "protocol": "http",
            "parameters": {"model": self.model, **extra},
            "credential": credential,
            "client_config": _client_config(timeout, self.retries),
            "actions": [{
                "action_type": "predict",
                "method": "POST",
                "url": self.url,
                "headers": headers,
                "request_body": "{ " + ", ".join(fields) + " }",
                "pre_process_function": pre,
                "post_process_function": f"connector.post_process.{functions}.embedding",
            }],
        }


RERANK_POST_PROCESS = (
    "def results = params.results; def scores = new double[results.length]; "
    "for (int i = 0; i < results.length; i++) { "
    "scores[new BigDecimal(results[i].index.toString()).intValue()] = "
    "new BigDecimal(results[i].relevance_score.toString()).doubleValue(); } "
    "StringBuilder b = new StringBuilder('['); "
    "for (int i = 0; i < scores.length; i++) { if (i > 0) { b.append(','); } "
    "b.append('{\"name\": \"similarity\", \"data_type\": \"FLOAT32\", \"shape\": [1], \"data\": [');"
    " b.append(scores[i]); b.append(']}'); } b.append(']'); return b.toString();")
"""What connector.post_process.cohere.rerank does (one `similarity` tensor per document, in the
documents' order), in painless: the built-in casts each relevance_score to Double and fails with
`ClassCastException: BigDecimal cannot be cast to Double` on a score of 17 significant digits
(what a Python server's float answers; measured on 2.19.1), so every number is read through BigDecimal."""


@dataclass(frozen=True)
class RerankModel:
    """An API reranker (`cohere:` / `jina:` specification): a connector to its `/rerank`, in
    ml-commons' text-similarity shape, for OpenSearch's `rerank` response processor."""

    slug: str
    kind: str                      # cohere | jina
    base: str
    model: str
    timeout_s: float = 30.0
    retries: int = 3
    key: str | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_spec(cls, spec) -> RerankModel:
        return cls(slug=api_slug(spec.identity, "rerank"), kind=spec.kind, base=spec.target, model=spec.get("model"),
                   timeout_s=spec.real("timeout", 30.0), retries=min(int(spec.get("retries", 3)), 5),
                   key=spec.api_key())

    @property
    def name(self) -> str:
        return f"legalsearch-{self.slug}-{VERSION}"

    @property
    def url(self) -> str:
        return f"{self.base.rstrip('/')}/rerank"

    def connector_body(self) -> dict:
        credential, headers, extra = _auth(self.kind, self.name, self.key)
        return {
            "name": self.name,
            "description": f"legalsearch: {self.kind} reranker {self.model} at {self.url}",
            "version": "1",
            "protocol": "http",
            "parameters": {"model": self.model, **extra},
            "credential": credential,
            "client_config": _client_config(self.timeout_s, self.retries),
            "actions": [{
                "action_type": "predict",
                "method": "POST",
                "url": self.url,
                "headers": headers,
                # top_n = every document (the pre-process function sets it): the processor scores them all
                "request_body": '{ "documents": ${parameters.documents}, "query": "${parameters.query}", '
                                '"model": "${parameters.model}", "top_n": ${parameters.top_n}, '
                                '"return_documents": false }',
                "pre_process_function": "connector.pre_process.cohere.rerank",
                "post_process_function": RERANK_POST_PROCESS,
            }],
        }


def model_body(m, connector_id: str, group_id: str) -> dict:
    if isinstance(m, RemoteModel):
        what = f"legalsearch {m.embedder} {m.side} embeddings (embedding server {m.served})"
    else:
        what = f"legalsearch {m.kind} {getattr(m, 'side', 'rerank')} model {m.model} ({m.url})"
    return {"name": m.name, "function_name": "remote", "model_group_id": group_id, "connector_id": connector_id,
            "description": what}


# --------------------------------------------------------------------------- find, create, deploy


def find(call: Call, kind: str, name: str | None = None, prefix: str | None = None) -> list[dict]:
    """Hits of /_plugins/_ml/<kind>/_search (connectors | models | model_groups) by exact name or
    name prefix; none when ml-commons has not made its index yet."""
    query = {"term": {"name.keyword": name}} if name else {"prefix": {"name.keyword": prefix}}
    status, body = call("POST", f"{ML}/{kind}/_search", {"size": 100, "query": query})
    if status == 404:
        return []
    hits = _ok((status, body), f"search the ml-commons {kind}").get("hits", {}).get("hits", [])
    if kind == "models":  # local models' chunks share the name; keep model documents
        hits = [h for h in hits if "chunk_number" not in h["_source"]]
    return hits


def ensure_group(call: Call) -> str:
    hits = find(call, "model_groups", GROUP)
    if hits:
        return hits[0]["_id"]
    body = {"name": GROUP, "description": "legalsearch embedding models (remote: the legalsearch embedding server)"}
    return _ok(call("POST", f"{ML}/model_groups/_register", body), "register the model group")["model_group_id"]


_COMPARED = ("parameters", "client_config", "actions", "protocol")


def _normalized(d: dict) -> str:
    """A connector definition as GET returns it (action types lower-cased, defaults added)."""
    d = json.loads(json.dumps(d))
    for a in d.get("actions") or []:
        a["action_type"] = str(a.get("action_type", "")).lower()
    cc = d.get("client_config") or {}
    d["client_config"] = {k: cc.get(k) for k in ("max_connection", "connection_timeout", "read_timeout",
                                                 "max_retry_times")}
    return json.dumps(d, sort_keys=True)


def ensure_connector(call: Call, m) -> str:
    """Create the connector, or bring one of the same name up to date. 2.19 refuses to update a
    connector a deployed model uses, so those are undeployed first (`ensure_model` redeploys)."""
    body = connector_body(m)
    hits = find(call, "connectors", m.name)
    if not hits:
        with untraced():
            return _ok(_create_connector(call, body), f"create the connector {m.name}")["connector_id"]
    cid = hits[0]["_id"]
    current = _ok(call("GET", f"{ML}/connectors/{cid}"), f"read the connector {m.name}")
    if _normalized({k: current.get(k) for k in _COMPARED}) != _normalized({k: body[k] for k in _COMPARED}):
        for model in find(call, "models", m.name):
            if model["_source"].get("connector_id") == cid and model_state(call, model["_id"]) != "UNDEPLOYED":
                call("POST", f"{ML}/models/{model['_id']}/_undeploy")
        with untraced():
            _ok(call("PUT", f"{ML}/connectors/{cid}", {k: v for k, v in body.items() if k != "name"}),
                f"update the connector {m.name}")
        log.info("updated connector %s (%s): now %s", m.name, cid, m.url)
    return cid


_CLIENT_LOGGERS = ("opensearchpy.trace", "opensearch")


@contextlib.contextmanager
def untraced():
    """opensearch-py's loggers off while a body holding an API key goes out: its trace logger
    writes each request as a curl command with its body, and its logger the body at DEBUG, when an
    application switches them on (pytest's log capture does)."""
    loggers = [logging.getLogger(n) for n in _CLIENT_LOGGERS]
    before = [lg.disabled for lg in loggers]
    for lg in loggers:
        lg.disabled = True
    try:
        yield
    finally:
        for lg, was in zip(loggers, before, strict=True):
            lg.disabled = was


def _create_connector(call: Call, body: dict, attempts: int = 4) -> tuple[int, dict]:
    """POST a new connector. The first connector of a fresh multi-node cluster makes ml-commons
    create its encryption master key, and the node asked may time out waiting for the key to
    reach it ("Fetching master key timed out", HTTP 500; measured on a new 3-node cluster): that
    answer is retried a few times (the next attempt finds the key), any other is returned."""
    for attempt in range(attempts):
        answer = call("POST", f"{ML}/connectors/_create", body)
        if answer[0] < 300 or "master key" not in json.dumps(answer[1]) or attempt == attempts - 1:
            return answer
        log.info("ml-commons is still making its master key; creating the connector again")
        time.sleep(2.0)
    return answer


def model_state(call: Call, model_id: str) -> str | None:
    """The state the model's document records (None: no such model). After a restart it may still
    say DEPLOYED while no node holds the model: see `memory_state`."""
    status, body = call("GET", f"{ML}/models/{model_id}")
    return body.get("model_state") if status == 200 else None


def memory_state(call: Call, model_id: str) -> str | None:
    """The model's state in the nodes' memory (profile API); None when no node holds it."""
    status, body = call("GET", f"{ML}/profile/models/{model_id}")
    if status != 200:
        return None
    for node in body.get("nodes", {}).values():
        held = node.get("models", {}).get(model_id)
        if held:
            return held.get("model_state")
    return None


def _wait_task(call: Call, task_id: str, deadline: float) -> dict:
    while True:
        task = _ok(call("GET", f"{ML}/tasks/{task_id}"), f"read ml task {task_id}")
        if task.get("state") in ("COMPLETED", "FAILED", "COMPLETED_WITH_ERROR") or time.monotonic() > deadline:
            return task
        time.sleep(0.5)


def deploy(call: Call, model_id: str, timeout: float = 90.0, patience: float = 15.0) -> str:
    """Deploy (idempotent) and wait until a node holds the model DEPLOYED; retries what a restart
    leaves: a failed task ("Fetching master key timed out"), a stuck DEPLOYING cache entry
    ("Duplicate deploy model task" until an _undeploy), a document that says DEPLOYED for a model
    no node holds."""
    deadline = time.monotonic() + timeout
    last: dict = {}
    duplicates = 0
    deploying_since: float | None = None
    while time.monotonic() < deadline:
        state = model_state(call, model_id)
        if state is None:
            raise ModelError(f"model {model_id} does not exist (deleted?): run `legalsearch pipelines install`")
        memory = memory_state(call, model_id)
        if state == "DEPLOYED" and memory == "DEPLOYED":
            return state
        if "DEPLOYING" in (state, memory):
            deploying_since = deploying_since or time.monotonic()
            if time.monotonic() - deploying_since < patience:  # a task in flight, or a stuck entry
                time.sleep(0.5)
                continue
        else:
            deploying_since = None
        task_id = _ok(call("POST", f"{ML}/models/{model_id}/_deploy"), f"deploy model {model_id}")["task_id"]
        last = _wait_task(call, task_id, deadline)
        if last.get("state") == "COMPLETED":
            continue  # the document and the profile say DEPLOYED just after the task
        if "Duplicate deploy model task" in str(last.get("error")):
            duplicates += 1
            if duplicates >= 2:  # not a task in flight but a stuck cache entry: _undeploy clears it
                call("POST", f"{ML}/models/{model_id}/_undeploy")
                duplicates, deploying_since = 0, None
        time.sleep(1.0)  # e.g. "Fetching master key timed out" right after a start: try again
    raise ModelError(f"model {model_id} was not DEPLOYED within {timeout:.0f}s; last task: {json.dumps(last)[:500]}")


def ensure_model(call: Call, m) -> dict:
    """Model group + connector + remote model, deployed; their ids. Idempotent (found by name)."""
    group_id = ensure_group(call)
    connector_id = ensure_connector(call, m)
    hits = [h for h in find(call, "models", m.name) if h["_source"].get("connector_id") == connector_id]
    if hits:
        model_id = hits[0]["_id"]
    else:
        res = _ok(call("POST", f"{ML}/models/_register", model_body(m, connector_id, group_id)),
                  f"register the model {m.name}")
        model_id = res.get("model_id") or _wait_task(call, res["task_id"], time.monotonic() + 60).get("model_id")
        # the model search lags the register: the next install must find this one, not register a twin
        deadline = time.monotonic() + 30
        while model_id not in {h["_id"] for h in find(call, "models", m.name)} and time.monotonic() < deadline:
            time.sleep(0.5)
    return {"name": m.name, "model_id": model_id, "connector_id": connector_id, "model_group_id": group_id,
            "state": deploy(call, model_id), "url": m.url}


def models(call: Call) -> list[dict]:
    """Every legalsearch remote model: name, id, `state` (what its document records) and `held`
    (its state in the nodes' memory, None: no node holds it). The two can differ for seconds: an
    auto deploy by a query may leave the document UNDEPLOYED, or ml-commons' 10 s sync job write
    DEPLOY_FAILED over an undeploy, until the sync job reads the nodes again; `held` is what a
    query meets."""
    return [{"name": h["_source"]["name"], "model_id": h["_id"], "state": h["_source"].get("model_state"),
             "held": memory_state(call, h["_id"])}
            for h in find(call, "models", prefix="legalsearch-")]


def after_start(call: Call, endpoint: str) -> list[dict]:
    """Right after a node start: the cluster settings, then every legalsearch model pointed at the
    current server URL and deployed (a restart may leave them DEPLOY_FAILED or stuck)."""
    apply_settings(call, endpoint)
    done = []
    for found in models(call):
        parsed = parse_name(found["name"])
        if parsed:
            done.append(ensure_model(call, RemoteModel(parsed[0], parsed[1], endpoint)))
        elif found["name"].startswith(_API_PREFIXES):  # a provider's connector: deployed as it stands
            done.append({"name": found["name"], "model_id": found["model_id"],
                         "state": deploy(call, found["model_id"])})
    return done


_API_PREFIXES = ("legalsearch-api-", "legalsearch-rerank-")


def remove(call: Call, name: str) -> bool:
    """Undeploy and delete the models called `name` and their connector (found by name); whether
    there was one."""
    found = False
    for model in find(call, "models", name):
        found = True
        _delete_model(call, model["_id"], name)
    for connector in find(call, "connectors", name):
        found = True
        _ok(call("DELETE", f"{ML}/connectors/{connector['_id']}"), f"delete the connector {name}")
    return found


def _delete_model(call: Call, model_id: str, name: str, timeout: float = 60.0) -> None:
    """Undeploy, then delete. 2.19 refuses to delete a model its document still records DEPLOYED
    or DEPLOYING, and the document lags the undeploy (and an auto deploy by a query or the sync
    job may write it again): undeploy and try again until the delete goes through (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        call("POST", f"{ML}/models/{model_id}/_undeploy")
        status, body = call("DELETE", f"{ML}/models/{model_id}")
        if status < 300 or status == 404:
            return
        if time.monotonic() > deadline:
            _ok((status, body), f"delete the model {name}")
        time.sleep(0.5)
