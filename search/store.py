"""The one module that talks to OpenSearch (the only one that imports opensearch-py).

Everything else builds request bodies as plain dicts (pure functions) and hands them here.
Every call goes through `Store._call`, which wraps opensearch-py's errors into
`search.errors`: an unreachable node is a NodeError, a refusal a StoreError, each with a
message that says what to do next. A `Store` is built once where a command starts (the
`LegalSearch` client) and handed down.
"""

from __future__ import annotations

import itertools
import logging
import random
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from opensearchpy import OpenSearch, helpers
from opensearchpy.exceptions import ConnectionError as OSConnectionError
from opensearchpy.exceptions import ConnectionTimeout, NotFoundError, TransportError

from search.config import Settings
from search.errors import BulkError, NodeError, StoreError
from search.node import cluster, process

log = logging.getLogger(__name__)
# opensearch-py logs every failed attempt with a traceback at WARNING; while waiting for a node
# to come up those are expected, and our own errors carry the useful part.
logging.getLogger("opensearch").setLevel(logging.ERROR)

_RAISE = object()  # sentinel: a 404 is an error unless the caller says what it means

# Bulk items refused with 429 (a full write queue, indexing pressure, a circuit breaker) are sent
# again after 0.5, 1, 2, 4, 8, 8 s (with jitter): ~24 s at most, then they fail with their ids.
BULK_RETRIES = 6
BULK_BACKOFF_S = 0.5
BULK_MAX_BACKOFF_S = 8.0


@dataclass
class BulkStats:
    """What bulk requests met: the ingest report shows it, so a rejection is never silent."""

    requests: int = 0     # bulk requests sent, retries included
    rejected: int = 0     # items refused with 429 (every rejection of every attempt)
    retried: int = 0      # items sent again after a rejection
    failed: int = 0       # items that failed for good (rejected after the last retry, or refused)
    backoff_s: float = 0.0


def resolve_url(settings: Settings) -> str:
    """OPENSEARCH_URL when set (several nodes: comma-separated), else the local node or the
    local cluster started from this machine's node home (all its running nodes)."""
    if settings.opensearch_url:
        return ",".join(u.strip().rstrip("/") for u in settings.opensearch_url.split(",") if u.strip())
    url = process.local_url(settings) or ",".join(cluster.local_urls(settings))
    if url:
        return url
    raise NodeError(
        "no OpenSearch node to talk to: set OPENSEARCH_URL (e.g. http://localhost:9200 from "
        "docker-compose.yml) or start the local node with `legalsearch node start`."
    )


def _client(url: str, settings: Settings, timeout: float) -> OpenSearch:
    # Several hosts: a request that cannot reach one node (refused, reset) is sent to the next.
    # A timeout is not retried: it means a frozen or overloaded node, and a retry would multiply
    # the wait (and the load) instead of failing within the configured timeout.
    hosts = [u for u in url.split(",") if u]
    kwargs: dict[str, Any] = {"hosts": hosts, "timeout": timeout, "max_retries": max(2, len(hosts)),
                              "retry_on_timeout": False}
    if settings.opensearch_user and settings.opensearch_password:
        kwargs["http_auth"] = (settings.opensearch_user, settings.opensearch_password.get_secret_value())
    if url.startswith("https"):
        kwargs["verify_certs"] = settings.opensearch_verify_certs
        kwargs["ssl_show_warn"] = settings.opensearch_verify_certs
    return OpenSearch(**kwargs)


class Store:
    """A lazily connected OpenSearch client with the operations legalsearch uses."""

    def __init__(self, settings: Settings, url: str | None = None):
        self.settings = settings
        self._url = url
        self._client: OpenSearch | None = None
        self.bulk_stats = BulkStats()  # every bulk this store sent (ingest reports take their own share)
        self._stats_lock = threading.Lock()

    @property
    def url(self) -> str:
        if self._url is None:
            self._url = resolve_url(self.settings)
        return self._url

    @property
    def client(self) -> OpenSearch:
        if self._client is None:
            self._client = _client(self.url, self.settings, timeout=self.settings.request_timeout)
        return self._client

    def _call(self, what: str, fn, *args, missing: Any = _RAISE, **kwargs):
        """Run one client call, wrapping its errors; `missing` is returned for a 404 when given."""
        try:
            return fn(*args, **kwargs)
        except NotFoundError as e:
            if missing is not _RAISE:
                return missing
            raise StoreError(f"OpenSearch refused to {what} (HTTP 404): {_reason(e)}") from e
        except ConnectionTimeout as e:
            self._retire(e)
            raise NodeError(
                f"OpenSearch at {self.url} did not answer within {self.settings.request_timeout:g}s while trying "
                f"to {what}: a node may be frozen or overloaded (`legalsearch node status`); the limit is "
                "LEGALSEARCH_REQUEST_TIMEOUT"
            ) from e
        except OSConnectionError as e:
            raise NodeError(
                f"cannot reach OpenSearch at {self.url} while trying to {what}: {e.info or e}. "
                "Is the node running? (`legalsearch node status`)"
            ) from e
        except TransportError as e:
            raise StoreError(f"OpenSearch refused to {what} (HTTP {e.status_code}): {_reason(e)}") from e

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
            if exist_ok and isinstance(cause, TransportError) and _error_type(cause) in _EXISTS:
                return False
            raise
        return True

    def delete_index(self, name: str) -> bool:
        """Delete `name`; False when there was no such index."""
        return self._call(f"delete index {name}", self.client.indices.delete, index=name, missing=None) is not None

    def get_settings(self, index: str) -> dict:
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

    def get_index(self, name: str) -> dict:
        return self._call(f"read index {name}", self.client.indices.get, index=name)

    def put_index_template(self, name: str, body: dict) -> None:
        self._call(f"put index template {name}", self.client.indices.put_index_template, name=name, body=body)

    def put_settings(self, index: str, body: dict) -> None:
        self._call(f"update settings of {index}", self.client.indices.put_settings, index=index, body=body)

    def put_mapping(self, index: str, body: dict) -> None:
        self._call(f"update the mapping of {index}", self.client.indices.put_mapping, index=index, body=body)

    def refresh(self, index: str) -> None:
        self._call(f"refresh {index}", self.client.indices.refresh, index=index)

    def count(self, index: str, query: dict | None = None) -> int:
        body = {"query": query} if query else None
        return int(self._call(f"count {index}", self.client.count, index=index, body=body)["count"])

    # ----------------------------------------------------------------- documents

    def bulk(self, actions: Iterable[dict], chunk_size: int = 500, refresh: bool | str = False,
             stats: BulkStats | None = None) -> int:
        """Send bulk actions; items refused with 429 are sent again with backoff (`BULK_RETRIES`
        times); raise BulkError with the failing ids if any item still fails. What happens is
        counted, as it happens, in `stats` and in `self.bulk_stats`."""
        sinks = [self.bulk_stats] + ([stats] if stats is not None else [])
        failed_ids: list[str] = []
        errors: list[dict] = []
        ok = 0
        items = list(actions)
        for start in range(0, len(items), chunk_size):
            sent, failed = self._bulk_chunk(items[start:start + chunk_size], refresh, sinks)
            ok += sent
            for item in failed:
                op = next(iter(item.values()))
                failed_ids.append(str(op.get("_id")))
                errors.append(op.get("error") or op)
        if failed_ids:
            self._count(sinks, failed=len(failed_ids))
            first = errors[0]
            reason = first.get("reason") if isinstance(first, dict) else first
            raise BulkError(
                f"{len(failed_ids)} of {len(failed_ids) + ok} bulk items failed; first: {failed_ids[0]}: {reason}",
                failed_ids, errors,
            )
        return ok

    def _count(self, sinks: list[BulkStats], **deltas: float) -> None:
        with self._stats_lock:
            for sink in sinks:
                for name, value in deltas.items():
                    setattr(sink, name, getattr(sink, name) + value)

    def _bulk_chunk(self, chunk: list[dict], refresh: bool | str, sinks: list[BulkStats]) -> tuple[int, list[dict]]:
        """One bulk request and its retries; (items done, items failed for good)."""
        ok = 0
        failed: list[dict] = []
        pending = chunk
        for attempt in range(BULK_RETRIES + 1):
            if attempt:
                log.warning("%d bulk items rejected (429); retry %d of %d", len(pending), attempt, BULK_RETRIES)
                wait = min(BULK_MAX_BACKOFF_S, BULK_BACKOFF_S * 2 ** (attempt - 1)) * random.uniform(0.75, 1.0)
                self._count(sinks, backoff_s=wait, retried=len(pending))
                time.sleep(wait)
            self._count(sinks, requests=1)
            rejected = []
            for action, (success, item) in zip(pending, self._bulk_request(pending, refresh), strict=True):
                op_type, op = next(iter(item.items()))
                if success or (op.get("status") == 404 and op_type == "delete"):
                    ok += 1  # deleting what is already gone is success for idempotent re-runs
                elif op.get("status") == 429:
                    rejected.append((action, item))
                else:
                    failed.append(item)
            self._count(sinks, rejected=len(rejected))
            if not rejected:
                break
            if attempt == BULK_RETRIES:
                failed += [item for _, item in rejected]
                break
            pending = [action for action, _ in rejected]
        return ok, failed

    def _bulk_request(self, actions: list[dict], refresh: bool | str) -> list[tuple[bool, dict]]:
        """(ok, item) per action; a whole request refused with 429 counts as every item refused."""
        try:
            return self._call(
                "send a bulk request", lambda: list(helpers.streaming_bulk(
                    self.client, actions, chunk_size=len(actions), max_chunk_bytes=2**31 - 1,
                    raise_on_error=False, raise_on_exception=True, refresh=refresh, max_retries=0,
                )),
            )
        except StoreError as e:
            if not isinstance(e.__cause__, TransportError) or e.__cause__.status_code != 429:
                raise
            return [(False, {a.get("_op_type", "index"): {"_id": a.get("_id"), "status": 429, "error": str(e)}})
                    for a in actions]

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

    def stream(self, index: str, query: dict, size: int = 500) -> Iterator[list[dict]]:
        """Every hit of `query` (with `_id`, `_routing`, `_source`), `size` at a time, without
        holding them all in memory (a copy of a large index)."""
        hits = helpers.scan(self.client, index=index, query={"query": query}, size=size, preserve_order=False)
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


_EXISTS = ("resource_already_exists_exception", "index_already_exists_exception")


def _error_type(e: TransportError) -> str | None:
    info = e.info
    if isinstance(info, dict) and isinstance(info.get("error"), dict):
        return info["error"].get("type")
    return None


def _reason(e: TransportError) -> str:
    info = e.info
    if isinstance(info, dict):
        err = info.get("error")
        if isinstance(err, dict):
            root = (err.get("root_cause") or [err])[0]
            return f"{root.get('type')}: {root.get('reason')}"
        return str(err or info)
    return str(info or e.error)
