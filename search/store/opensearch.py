"""The OpenSearch adapter: the only module that imports opensearch-py.

Everything else builds request bodies as plain dicts (pure functions) and hands them here.
Every call goes through `OpenSearchStore._call`, which wraps opensearch-py's errors into
`search.errors`: an unreachable node is a NodeError (a failed TLS handshake a TLSError), a
refusal a StoreError (401 an AuthenticationError, 403 a PermissionDeniedError), each with a
message that says what to do next (`search.store.hints`).

The adapter connects with the `Connection` (URL, credentials, CA) its `connect` gives on first
use; it knows nothing of where that comes from, so it never imports the local node
(`search.store.connection` resolves it; `search.store.Store` puts the two together).
URLs in messages never carry credentials.
"""

from __future__ import annotations

import base64
import itertools
import logging
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal


def _import_opensearchpy_without_asyncio() -> None:
    """Import opensearch-py without its asyncio transport: legalsearch uses the synchronous client
    only, and aiohttp alone costs a fresh `legalsearch search` ~0.2 s of CPU (0.5-1 s of wall time
    on a loaded machine). opensearch-py skips the async client when aiohttp does not import; the
    block is lifted right after, so aiohttp stays importable for anyone else in the process."""
    if "opensearchpy" in sys.modules or "aiohttp" in sys.modules:
        return
    sys.modules["aiohttp"] = None  # type: ignore[assignment]  # makes `import aiohttp` raise ImportError
    try:
        import opensearchpy  # noqa: F401
    finally:
        del sys.modules["aiohttp"]


_import_opensearchpy_without_asyncio()

from legalsearch.config import Settings  # noqa: E402
from legalsearch.errors import (  # noqa: E402
    AuthenticationError,
    BulkError,
    ModelError,
    NodeError,
    PermissionDeniedError,
    SecurityError,
    StoreError,
    TLSError,
)
from legalsearch.store import hints  # noqa: E402
from opensearchpy import OpenSearch, helpers  # noqa: E402
from opensearchpy.exceptions import (  # noqa: E402
    AuthenticationException,
    AuthorizationException,
    ConflictError,
    ConnectionTimeout,
    NotFoundError,
    TransportError,
)
from opensearchpy.exceptions import ConnectionError as OSConnectionError  # noqa: E402
from opensearchpy.exceptions import SSLError as OSSSLError  # noqa: E402

log = logging.getLogger(__name__)
# opensearch-py logs every failed attempt with a traceback at WARNING; while waiting for a node
# to come up those are expected, and our own errors carry the useful part.
logging.getLogger("opensearch").setLevel(logging.ERROR)

_RAISE = object()  # sentinel: a 404 is an error unless the caller says what it means

# Bulk items refused with 429 (a full write queue, indexing pressure, a circuit breaker) are sent
# again by streaming_bulk after 0.5, 1, 2, 4, 8, 8 s: 23.5 s at most, then they fail with their ids.
BULK_RETRIES = 6
BULK_BACKOFF_S = 0.5
BULK_MAX_BACKOFF_S = 8.0
# Items a node answers 503 (a shard with no started primary: unavailable_shards_exception while a
# replica is promoted or a dead node's shard is reassigned) are sent again by `Store.bulk` itself,
# on the same schedule; whatever still fails is reported item by item with its reason.
BULK_RETRY_STATUSES = (503,)


@dataclass
class BulkStats:
    """What bulk requests met: the ingest report shows it, so a rejection is never silent."""

    requests: int = 0     # bulk requests sent, retries included
    sent: int = 0         # items handed to `bulk` (each once, however often it was sent again)
    written: int = 0      # items the node confirmed (a delete of what is already gone counts)
    rejected: int = 0     # items refused with 429 (every rejection of every attempt)
    retried: int = 0      # items sent again after a rejection (429) or an unavailable shard (503)
    failed: int = 0       # items that failed for good: sent == written + failed
    backoff_s: float = 0.0
    failed_by_reason: dict[str, int] = field(default_factory=dict)  # "<status> <error type>" -> items


def _actions_of(batch: list[dict], refused: list[dict]) -> list[dict | None]:
    """The action of `batch` each refusal answers (by operation, id and index; None: not found)."""
    by_key: dict[tuple, dict] = {}
    for action in batch:
        key = (action.get("_op_type", "index"), str(action.get("_id")))
        by_key.setdefault(key, action)
        by_key[(*key, action.get("_index"))] = action
    return [by_key.get((r["op"], r["id"], r["index"])) or by_key.get((r["op"], r["id"])) for r in refused]


def refusal(item: dict) -> dict:
    """A failed bulk item's {"id", "index", "status", "type", "reason"} (the node's own words)."""
    op = next(iter(item.values()))
    error = op.get("error")
    if isinstance(error, dict):
        kind, reason = error.get("type", "error"), error.get("reason") or error.get("type", "")
    else:  # the helper's record of a whole request that failed: the exception's text
        kind, reason = "request_failed", str(error or op)
    return {"id": str(op.get("_id")), "index": op.get("_index"), "status": int(op.get("status") or 0),
            "type": kind, "reason": reason}


Identity = Literal["admin", "service", "admin-certificate"]
"""Whom a Store connects as when no credentials are configured and the node is the local one:
its `admin` user, its search service account, or the admin client certificate (super-admin:
the only way to change the reserved `admin` user)."""

@dataclass(frozen=True)
class Connection:
    """Where and as whom a Store connects (never printed whole: `auth` holds a password)."""

    url: str
    user: str | None = None
    password: str | None = None
    ca_certs: Path | None = None
    verify: bool = True
    client_cert: tuple[Path, Path] | None = None

    @property
    def who(self) -> str:
        if self.client_cert:
            return "the admin certificate"
        return f"user {self.user!r}" if self.user else "an anonymous client"


POOL_MAXSIZE = 32
"""Connections kept open per node (the service's 16 workers and the CLI's own calls fit)."""


def _client(conn: Connection, timeout: float) -> OpenSearch:
    # Several hosts: a request that cannot reach one node (refused, reset) is sent to the next.
    # A timeout is not retried: it means a frozen or overloaded node, and a retry would multiply
    # the wait (and the load) instead of failing within the configured timeout.
    hosts = conn.url.split(",")
    # pool_maxsize: connections kept per node. urllib3's default keeps one, so concurrent searches over one
    # Store (the search service shares one for every user) opened and threw away a TLS connection each
    # (benchmarks/load.py --service counted 24-40 discarded over 25-44 searches at 8 clients)
    kwargs: dict[str, Any] = {"hosts": hosts, "timeout": timeout, "max_retries": max(2, len(hosts)),
                              "retry_on_timeout": False, "pool_maxsize": POOL_MAXSIZE}
    if conn.user and conn.password is not None:
        kwargs["http_auth"] = (conn.user, conn.password)
    if conn.url.startswith("https"):
        kwargs["verify_certs"] = conn.verify
        kwargs["ssl_show_warn"] = conn.verify
        if conn.ca_certs:
            kwargs["ca_certs"] = str(conn.ca_certs)
        if conn.client_cert:
            kwargs["client_cert"], kwargs["client_key"] = (str(p) for p in conn.client_cert)
    return OpenSearch(**kwargs)


def basic_auth_header(user: str, password: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


class OpenSearchStore:
    """A lazily connected OpenSearch client with the operations legalsearch uses; `connect`
    gives the Connection on first use (`search.store.Store` resolves it from the settings)."""

    def __init__(self, settings: Settings, connect: Callable[[], Connection]):
        self.settings = settings
        self._connect = connect
        self._connection: Connection | None = None
        self._client: OpenSearch | None = None
        self.bulk_stats = BulkStats()  # every bulk this store sent (ingest reports take their own share)
        self._stats_lock = threading.Lock()

    @property
    def connection(self) -> Connection:
        if self._connection is None:
            self._connection = self._connect()
        return self._connection

    @property
    def url(self) -> str:
        """The node's URL, without credentials (safe to print)."""
        return self.connection.url

    @property
    def client(self) -> OpenSearch:
        if self._client is None:
            self._client = _client(self.connection, timeout=self.settings.request_timeout)
        return self._client

    def _call(self, what: str, fn, *args, missing: Any = _RAISE, **kwargs):
        """Run one client call, wrapping its errors; `missing` is returned for a 404 when given."""
        try:
            return fn(*args, **kwargs)
        except NotFoundError as e:
            if missing is not _RAISE:
                return missing
            error = ModelError if hints.model_hint(str(e.info)) else StoreError
            raise error(f"OpenSearch refused to {what} (HTTP 404): {hints.reason(e)}{hints.hint(e)}") from e
        except ConnectionTimeout as e:
            self._retire(e)
            raise NodeError(
                f"OpenSearch at {self.url} did not answer within {self.settings.request_timeout:g}s while trying "
                f"to {what}: a node may be frozen or overloaded (`legalsearch node status`); the limit is "
                "LEGALSEARCH_REQUEST_TIMEOUT"
            ) from e
        except OSSSLError as e:  # a subclass of ConnectionError: test it first
            raise TLSError(f"TLS handshake with {self.url} failed while trying to {what}: {hints.tls_hint(e)}") from e
        except OSConnectionError as e:
            hint = ("the node speaks https: use an https:// URL" if self.url.startswith("http:")
                    and "RemoteDisconnected" in str(e.info) else "Is the node running? (`legalsearch node status`)")
            raise NodeError(f"cannot reach OpenSearch at {self.url} while trying to {what}: "
                            f"{hints.strip_url_secrets(e.info or e)}. {hint}") from e
        except AuthenticationException as e:
            raise AuthenticationError(
                f"OpenSearch at {self.url} did not accept the credentials of {self.connection.who} while trying to "
                f"{what} (HTTP 401: wrong password or unknown user). Check OPENSEARCH_USER / OPENSEARCH_PASSWORD "
                "(or LEGALSEARCH_USER / LEGALSEARCH_PASSWORD for the end user); an administrator can reset a "
                "password with `legalsearch users passwd NAME`."
            ) from e
        except AuthorizationException as e:
            raise PermissionDeniedError(
                f"{self.connection.who} may not {what} (HTTP 403): {hints.reason(e)}. Connect as a user that holds the "
                "permission, or ask an administrator (docs/security.md lists what each legalsearch role may do)."
            ) from e
        except TransportError as e:
            error = ModelError if hints.model_hint(str(e.info)) else StoreError
            raise error(f"OpenSearch refused to {what} (HTTP {e.status_code}): {hints.reason(e)}{hints.hint(e)}") from e

    def _retire(self, e: ConnectionTimeout) -> None:
        """After a timeout, if the node that did not answer does not answer a 1-second HEAD either
        (frozen, not just waiting on a slow shard), send the next requests to the other nodes
        for a while (opensearch-py retires a node itself only when it retries, and a timeout is
        not retried here)."""
        pool = getattr(e.info, "pool", None)  # urllib3's ReadTimeoutError names the host it waited on
        connections = getattr(self.client.transport.connection_pool, "connections", [])
        if pool is None or len(connections) < 2:
            return
        for connection in list(connections):
            if connection.host != f"{pool.scheme}://{pool.host}:{pool.port}":
                continue
            try:
                connection.perform_request("HEAD", "/", timeout=1.0)
            except OSConnectionError:
                log.warning("%s does not answer; using the other nodes for a while", connection.host)
                self.client.transport.mark_dead(connection)
            except TransportError:
                pass  # it answered (with an error status): a slow shard elsewhere, not this node

    # ----------------------------------------------------------------- cluster

    def info(self) -> dict:
        return self._call("read cluster info", self.client.info)

    def health(self) -> dict:
        return self._call("read cluster health", self.client.cluster.health)

    def plugins(self) -> list[dict]:
        return self._call("list plugins", self.client.cat.plugins, format="json")

    def node_jvm(self) -> list[dict]:
        stats = self._call("read node stats", self.client.nodes.stats, metric="jvm")
        return [
            {
                "name": node.get("name"),
                "heap_used_bytes": node["jvm"]["mem"]["heap_used_in_bytes"],
                "heap_max_bytes": node["jvm"]["mem"]["heap_max_in_bytes"],
            }
            for node in stats.get("nodes", {}).values()
        ]

    def nodes(self) -> list[dict]:
        """Every node of the cluster: name, roles, heap, whether it is the cluster manager."""
        return self._call("list nodes", self.client.cat.nodes, format="json",
                          params={"h": "name,ip,port,http_address,node.role,cluster_manager,heap.percent,load_1m"})

    def shards(self, pattern: str = "*") -> list[dict]:
        """Shard copies of the indices matching `pattern`: index, shard, primary or replica, state, node."""
        return self._call("list shards", self.client.cat.shards, index=pattern, format="json",
                          params={"h": "index,shard,prirep,state,docs,node,unassigned.reason"}, missing=[])

    def write_pool(self) -> dict[str, dict]:
        """Per node: the write thread pool's threads, queue, active, rejected (bulk pressure)."""
        stats = self._call("read thread pool stats", self.client.nodes.stats, metric="thread_pool")
        return {n.get("name"): n["thread_pool"]["write"] for n in stats.get("nodes", {}).values()}

    def indices(self, pattern: str = "*") -> list[dict]:
        return self._call(
            "list indices", self.client.cat.indices, index=pattern, format="json",
            params={"expand_wildcards": "open"}, missing=[],
        )

    def analyze(self, body: dict, index: str | None = None) -> list[str]:
        result = self._call("analyze text", self.client.indices.analyze, body=body, index=index)
        return [t["token"] for t in result["tokens"]]

    # ----------------------------------------------------------------- indices

    def index_exists(self, name: str) -> bool:
        return bool(self._call("check an index", self.client.indices.exists, index=name))

    def create_index(self, name: str, body: dict, exist_ok: bool = False) -> bool:
        """Create `name`; False when it already exists and `exist_ok` (another process may have
        created it between a check and this call: creation is race-safe only this way)."""
        try:
            self._call(f"create index {name}", self.client.indices.create, index=name, body=body)
        except StoreError as e:
            cause = e.__cause__
            if exist_ok and isinstance(cause, TransportError) and hints.error_type(cause) in hints.EXISTS:
                return False
            raise
        return True

    def delete_index(self, name: str) -> bool:
        """Delete `name`; False when there was no such index."""
        return self._call(f"delete index {name}", self.client.indices.delete, index=name, missing=None) is not None

    def index_settings(self, index: str) -> dict:
        """{concrete index: its index settings (flat, e.g. "index.refresh_interval")}."""
        result = self._call(f"read settings of {index}", self.client.indices.get_settings, index=index,
                            params={"flat_settings": "true"})
        return {name: body.get("settings", {}) for name, body in result.items()}

    def get_aliases(self, name: str) -> list[str]:
        """The concrete indices behind alias `name` ([] when there is no such alias)."""
        result = self._call(f"read alias {name}", self.client.indices.get_alias, name=name, missing={})
        return sorted(result)

    def update_aliases(self, actions: list[dict]) -> None:
        """Apply alias actions in one atomic cluster-state update."""
        self._call("move aliases", self.client.indices.update_aliases, body={"actions": actions})

    def wait_for_index(self, index: str, status: str = "yellow", timeout: float = 60.0) -> dict:
        """Cluster health of `index`, waiting until it reaches `status` (or the timeout)."""
        return self._call(
            f"wait for {index} to be {status}", self.client.cluster.health, index=index,
            params={"wait_for_status": status, "timeout": f"{int(timeout)}s"}, request_timeout=timeout + 10,
        )

    def get_index(self, name: str, missing: Any = _RAISE) -> dict:
        """{concrete index: its aliases, mappings and settings} for an index or alias (`missing`
        when there is none, if given)."""
        return self._call(f"read index {name}", self.client.indices.get, index=name, missing=missing)

    def put_index_template(self, name: str, body: dict) -> None:
        self._call(f"put index template {name}", self.client.indices.put_index_template, name=name, body=body)

    def put_settings(self, index: str, body: dict) -> None:
        self._call(f"update settings of {index}", self.client.indices.put_settings, index=index, body=body)

    def get_settings(self, index: str) -> dict:
        """The index's own settings under `index` (refresh_interval, number_of_replicas, ...)."""
        result = self._call(f"read the settings of {index}", self.client.indices.get_settings, index=index)
        return next(iter(result.values()))["settings"]["index"]

    def force_merge(self, index: str, max_num_segments: int, poll_s: float = 5.0) -> None:
        """Merge `index` down to `max_num_segments` segments, waiting on the task (a merge of a
        large vector index runs far longer than one request may)."""
        import time

        started = self._call(f"force-merge {index}", self.client.indices.forcemerge, index=index,
                             params={"max_num_segments": max_num_segments, "wait_for_completion": "false"})
        task = started["task"]
        while not self._call(f"follow the force-merge of {index}", self.client.tasks.get, task_id=task).get("completed"):
            time.sleep(poll_s)

    def put_mapping(self, index: str, body: dict) -> None:
        self._call(f"update the mapping of {index}", self.client.indices.put_mapping, index=index, body=body)

    def refresh(self, index: str) -> None:
        self._call(f"refresh {index}", self.client.indices.refresh, index=index)

    def count(self, index: str, query: dict | None = None) -> int:
        body = {"query": query} if query else None
        return int(self._call(f"count {index}", self.client.count, index=index, body=body)["count"])

    # ----------------------------------------------------------------- documents

    def bulk(self, actions: Iterable[dict], chunk_size: int = 500, refresh: bool | str = False,
             stats: BulkStats | None = None, pipeline: str | None = None) -> int:
        """Send bulk actions; every item's answer is read. Items refused with 429 are sent again
        with backoff by the helper, items answered 503 (`BULK_RETRY_STATUSES`) here, on the same
        schedule (`BULK_RETRIES` times); raise BulkError with the failing ids and each one's
        reason (`refusal`) if any item still fails. Counted, as it happens, in `stats` and
        `self.bulk_stats`: items sent, written, failed (by reason), and what the retries met.
        `pipeline`: the ingest pipeline ("_none": not even the index's default one)."""
        sinks = [self.bulk_stats] + ([stats] if stats is not None else [])
        failed: list[dict] = []
        ok = 0
        items = list(actions)
        self._count(sinks, sent=len(items))
        for start in range(0, len(items), chunk_size):
            batch = items[start:start + chunk_size]
            for attempt in range(BULK_RETRIES + 1):
                done, refused = self._bulk_chunk(batch, refresh, sinks, pipeline)
                ok += done
                self._count(sinks, written=done)
                again = []
                for r, action in zip(refused, _actions_of(batch, refused), strict=True):
                    if action is not None and r["status"] in BULK_RETRY_STATUSES and attempt < BULK_RETRIES:
                        again.append(action)
                    else:
                        failed.append(r)
                if not again:
                    break
                batch = again
                wait = min(BULK_MAX_BACKOFF_S, BULK_BACKOFF_S * 2 ** attempt)
                log.warning("%d bulk items answered %s; sent again in %.1fs", len(batch), BULK_RETRY_STATUSES, wait)
                time.sleep(wait)
                self._count(sinks, retried=len(batch), backoff_s=wait)
        if failed:
            reasons = Counter(f"{r['status']} {r['type']}" for r in failed)
            self._count(sinks, failed=len(failed))
            with self._stats_lock:
                for sink in sinks:
                    for key, n in reasons.items():
                        sink.failed_by_reason[key] = sink.failed_by_reason.get(key, 0) + n
            first = failed[0]
            raise BulkError(
                f"{len(failed)} of {len(items)} bulk items failed; first: {first['id']}: {first['reason']}",
                [r["id"] for r in failed], failed,
            )
        return ok

    def _count(self, sinks: list[BulkStats], **deltas: float) -> None:
        with self._stats_lock:
            for sink in sinks:
                for name, value in deltas.items():
                    setattr(sink, name, getattr(sink, name) + value)

    def _bulk_chunk(self, chunk: list[dict], refresh: bool | str, sinks: list[BulkStats],
                    pipeline: str | None) -> tuple[int, list[dict]]:
        """One bulk request through `helpers.streaming_bulk`, which sends the items refused with 429
        again itself (`BULK_RETRIES` times; a whole request refused with 429 counts as each of its
        items refused); returns (items done, the others' `refusal`s, each with its "op"). The helper does not say what
        its retries met, so every request it sends passes through `send`, which counts in `sinks`,
        as it happens: requests, items refused, items sent again and the time waited before."""
        client = self.client
        state: dict[str, Any] = {"pending": len(chunk), "refused_at": None}

        def send(*args: Any, **kwargs: Any) -> Any:
            if state["refused_at"] is not None:  # the helper waited and sends the refused items again
                self._count(sinks, retried=state["pending"], backoff_s=time.monotonic() - state["refused_at"])
                log.warning("%d bulk items rejected (429); sent again", state["pending"])
            self._count(sinks, requests=1)
            try:
                response = client.bulk(*args, **kwargs)
            except TransportError as e:
                refused = state["pending"] if e.status_code == 429 else 0
                self._count(sinks, rejected=refused)
                state.update(pending=refused, refused_at=time.monotonic() if refused else None)
                raise
            refused = sum(next(iter(item.values())).get("status") == 429 for item in response.get("items", ()))
            self._count(sinks, rejected=refused)
            state.update(pending=refused, refused_at=time.monotonic() if refused else None)
            return response

        extra = {"pipeline": pipeline} if pipeline else {}
        results = helpers.streaming_bulk(
            SimpleNamespace(transport=client.transport, bulk=send), chunk, chunk_size=len(chunk),
            max_chunk_bytes=2**31 - 1, raise_on_error=False, raise_on_exception=True, ignore_status=(429,),
            max_retries=BULK_RETRIES, initial_backoff=BULK_BACKOFF_S, max_backoff=BULK_MAX_BACKOFF_S,
            refresh=refresh, **extra,
        )
        ok = 0
        failed: list[dict] = []
        for success, item in self._call("send a bulk request", list, results):
            op_type, op = next(iter(item.items()))
            if success or (op.get("status") == 404 and op_type == "delete"):
                ok += 1  # deleting what is already gone is success for idempotent re-runs
            else:
                failed.append(refusal(item) | {"op": op_type})
        return ok, failed

    def index_document(self, index: str, doc_id: str | None, body: dict, refresh: bool | str = False) -> None:
        self._call(f"index a document into {index}", self.client.index, index=index, id=doc_id, body=body,
                   refresh=refresh)

    def scan(self, index: str, query: dict, source: list[str] | bool = True) -> Iterator[dict]:
        """Every hit of `query` (nothing when the index does not exist)."""
        body = {"query": query, "_source": source}
        hits = self._call(
            f"scan {index}",
            lambda: list(helpers.scan(self.client, index=index, query=body, preserve_order=False)), missing=[],
        )
        yield from hits

    def stream(self, index: str, query: dict, size: int = 500, source: list[str] | bool = True) -> Iterator[list[dict]]:
        """Every hit of `query` (with `_id`, `_routing`, `_source`: all of it, or the `source`
        fields), `size` at a time, without holding them all in memory (a copy of a large index)."""
        hits = helpers.scan(self.client, index=index, query={"query": query, "_source": source}, size=size,
                            preserve_order=False)
        while True:
            page = self._call(f"scan {index}", lambda: list(itertools.islice(hits, size)))
            if not page:
                return
            yield page

    # ----------------------------------------------------------------- search

    def search(self, index: str, body: dict, pipeline: str | None = None, explain: bool = False) -> dict:
        """Search `index`. A result missing a shard is an error, never a silent partial answer.
        Plain (non-hybrid) queries use global term statistics (dfs_query_then_fetch), so BM25
        scores do not depend on how documents fall into shards (one shard skips the extra
        phase). A hybrid query cannot: in OpenSearch 2.19 the DFS phase skips the search
        pipeline's normalization and returns raw sub-query scores (neural-search #1490), which
        is why indices default to one shard (docs/cluster.md)."""
        params: dict[str, Any] = {"allow_partial_search_results": "false"}
        if "hybrid" not in body.get("query", {}):
            params["search_type"] = "dfs_query_then_fetch"
        if pipeline:
            params["search_pipeline"] = pipeline
        if explain:
            params["explain"] = "true"
        return self._call(f"search {index}", self.client.search, index=index, body=body, params=params)

    def msearch(self, requests: list[tuple[str, dict, dict | None]], refused: Literal["raise", "return"] = "raise"
                ) -> list[dict]:
        """Several searches in one round trip (`_msearch`), each answered as `search` answers it:
        (index, body, pipeline body or None) each, the answers in order. A search pipeline is given
        inline in its sub-request's body (a named one cannot be set per sub-request on 2.19); the
        header sets what `search` sets as parameters (no partial results; DFS for a plain query).
        A sub-request the node refuses raises as `search` would (403: PermissionDeniedError), or
        with `refused="return"` is answered by its error ({"error": ..., "status": ...}; the caller
        raises `msearch_error` for it where it must)."""
        if not requests:
            return []
        lines: list[dict] = []
        for index, body, pipeline in requests:
            header: dict[str, Any] = {"index": index, "allow_partial_search_results": False}
            if "hybrid" not in body.get("query", {}):
                header["search_type"] = "dfs_query_then_fetch"
            lines += [header, {**body, "search_pipeline": pipeline} if pipeline else body]
        indices = ",".join(dict.fromkeys(index for index, _, _ in requests))
        answer = self._call(f"search {indices}", self.client.msearch, body=lines)
        responses = answer.get("responses") or []
        if len(responses) != len(requests):
            raise StoreError(f"OpenSearch answered {len(responses)} of {len(requests)} searches of {indices}")
        for (index, _, _), response in zip(requests, responses, strict=True):
            if "error" in response and refused == "raise":
                raise msearch_error(index, response)
        return responses

    # ----------------------------------------------------------------- pipelines

    def put_search_pipeline(self, name: str, body: dict) -> None:
        self._call(
            f"create search pipeline {name}", self.client.transport.perform_request,
            "PUT", f"/_search/pipeline/{name}", body=body,
        )

    def get_search_pipelines(self, name: str | None = None) -> dict:
        """Pipelines by name (empty when none, or when `name` does not exist)."""
        path = f"/_search/pipeline/{name}" if name else "/_search/pipeline"
        return self._call("list search pipelines", self.client.transport.perform_request, "GET", path, missing={})


    # ----------------------------------------------------------------- engine side (docs/engine.md)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, dict]:
        """One REST call for code that reads the answer's status itself (search.node.ml):
        (HTTP status, JSON body). An unreachable node, a TLS failure, 401 and 403 still raise."""
        try:
            return 200, self.client.transport.perform_request(method, path, body=body)
        except (OSConnectionError, AuthenticationException, AuthorizationException) as e:
            return self._call(f"{method} {path.split('?')[0]}", _reraise, e)
        except TransportError as e:
            info = e.info if isinstance(e.info, dict) else {"error": {"reason": str(e.info or e.error)}}
            return int(e.status_code), info

    def put_cluster_settings(self, body: dict) -> None:
        self._call("update cluster settings", self.client.cluster.put_settings, body=body)

    def put_ingest_pipeline(self, name: str, body: dict) -> None:
        self._call(f"create ingest pipeline {name}", self.client.ingest.put_pipeline, id=name, body=body)

    def put_search_template(self, template_id: str, source: str) -> None:
        """A stored mustache search template (`source` a string: its sections are not JSON)."""
        self._call(f"store search template {template_id}", self.client.put_script, id=template_id,
                   body={"script": {"lang": "mustache", "source": source}})

    def get_script(self, script_id: str) -> dict | None:
        return self._call(f"read stored script {script_id}", self.client.get_script, id=script_id, missing=None)

    def search_template(self, index: str, template_id: str, params: dict) -> dict:
        return self._call(f"search {index} with template {template_id}", self.client.search_template,
                          index=index, body={"id": template_id, "params": params})

    def render_template(self, template_id: str, params: dict) -> dict:
        return self._call(f"render template {template_id}", self.client.render_search_template,
                          body={"id": template_id, "params": params})["template_output"]

    # ----------------------------------------------------------------- security plugin

    def authinfo(self, credentials: tuple[str, str] | None = None, bearer: str | None = None) -> dict | None:
        """Who the node says the caller is (user_name, backend_roles, roles), checking `credentials`
        (an end user's) or a `bearer` token the node issued instead of the Store's own when given;
        None when the cluster has no security plugin. A wrong password or a token the node does not
        accept (expired, altered, another cluster's) raises AuthenticationError."""
        headers = basic_auth_header(*credentials) if credentials else {"Authorization": f"Bearer {bearer}"} if bearer \
            else None
        try:
            return self.client.transport.perform_request("GET", "/_plugins/_security/authinfo", headers=headers)
        except AuthenticationException as e:
            if bearer and not credentials:
                raise AuthenticationError(
                    f"OpenSearch at {self.url} did not accept the bearer token (HTTP 401: expired, altered, or issued "
                    "by another cluster). Ask the node for a new one (POST /v1/token of the search service, or "
                    "POST /_plugins/_security/api/generateonbehalfoftoken as the user)") from e
            who = f"user {credentials[0]!r}" if credentials else self.connection.who
            # name the variables the refused password came from: the end user's, or the connection's
            where = "LEGALSEARCH_USER / LEGALSEARCH_PASSWORD" if credentials else (
                "OPENSEARCH_USER / OPENSEARCH_PASSWORD" if self.settings.opensearch_user or self.settings.opensearch_password
                else "the local node's stored password (`legalsearch node credentials`), or set OPENSEARCH_USER / "
                "OPENSEARCH_PASSWORD")
            raise AuthenticationError(
                f"OpenSearch at {self.url} did not accept the password of {who} (HTTP 401: wrong password or "
                f"unknown user). Check {where}; an administrator can reset it with `legalsearch users passwd NAME`."
            ) from e
        except TransportError as e:
            if e.status_code in (400, 404) and not isinstance(e, OSConnectionError):
                return None  # "no handler found for uri [/_plugins/_security/authinfo]": no security plugin
            return self._call("check the caller's identity", _reraise, e)

    def issue_token(self, credentials: tuple[str, str], seconds: int, description: str) -> dict:
        """A bearer token of the node's for the user of `credentials` (the security plugin's
        on-behalf-of token): {"user", "authenticationToken", "durationSeconds"}. A wrong password
        raises AuthenticationError; a node that issues none, SecurityError."""
        try:
            return self.client.transport.perform_request(
                "POST", "/_plugins/_security/api/generateonbehalfoftoken", headers=basic_auth_header(*credentials),
                body={"description": description, "durationSeconds": str(seconds)})
        except AuthenticationException as e:
            reason = str(getattr(e, "info", "") or e)
            if "permissions" in reason:
                raise SecurityError(f"user {credentials[0]!r} may not ask for a bearer token: it needs the "
                                    "security:obo/create permission (the reader role has it)") from e
            raise AuthenticationError(
                f"OpenSearch at {self.url} did not accept the password of user {credentials[0]!r} (HTTP 401: wrong "
                "password or unknown user)") from e
        except TransportError as e:
            if e.status_code in (400, 404, 500, 501) and not isinstance(e, OSConnectionError):
                raise SecurityError(f"OpenSearch at {self.url} issues no bearer tokens (HTTP {e.status_code}: "
                                    f"{getattr(e, 'error', e)}): its security configuration has no on_behalf_of "
                                    "section (the local node's has one; docs/service.md)") from e
            return self._call("issue a bearer token", _reraise, e)

    def security_api(self, what: str, method: str, path: str, body: Any = None, missing: Any = _RAISE) -> Any:
        """One call to the security plugin's REST API (`/_plugins/_security/api/<path>`).

        The plugin writes its configuration with optimistic concurrency: a write racing another
        write of the same configuration (two admins adding users at once) is refused with 409
        "version conflict". Such a write is tried again, a few times, after a short backoff (every
        write legalsearch makes there is a PUT, PATCH or DELETE that means the same when repeated)."""
        attempts = 1 if method == "GET" else SECURITY_WRITE_ATTEMPTS
        for attempt in range(1, attempts + 1):
            try:
                return self._call(what, self.client.transport.perform_request, method,
                                  f"/_plugins/_security/api/{path}", body=body, missing=missing)
            except StoreError as e:
                if attempt == attempts or not isinstance(e.__cause__, ConflictError) or "version conflict" not in str(e):
                    raise
                time.sleep(0.1 * attempt)
        raise AssertionError("unreachable")


SECURITY_WRITE_ATTEMPTS = 5
"""Tries of a security-configuration write refused for a concurrent write (409 version conflict)."""


def _reraise(e: Exception):
    raise e


def msearch_error(index: str, response: dict) -> Exception:
    """The error for one refused sub-request of `_msearch` (`OpenSearchStore.msearch`), as `search`
    raises it: 403 a PermissionDeniedError, an engine-side model failure a ModelError, else a StoreError."""
    status = int(response.get("status") or 0)
    failure = SimpleNamespace(info={"error": response["error"]}, error=str(response["error"]), status_code=status)
    why = f"{hints.reason(failure)}{hints.hint(failure)}"
    if status == 403:
        return PermissionDeniedError(f"may not search {index} (HTTP 403): {hints.reason(failure)}")
    error = ModelError if hints.model_hint(str(failure.info)) else StoreError
    return error(f"OpenSearch refused to search {index} (HTTP {status}): {why}")
