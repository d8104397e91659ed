"""The one module that talks to OpenSearch.

Everything else builds request bodies as plain dicts (pure functions) and hands them here.
Errors from opensearch-py are wrapped into `search.errors` with a message that says what to do.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from typing import Any

from opensearchpy import OpenSearch, helpers
from opensearchpy.exceptions import ConnectionError as OSConnectionError
from opensearchpy.exceptions import NotFoundError, OpenSearchException, TransportError

from search.config import Settings
from search.errors import BulkError, NodeError, StoreError

log = logging.getLogger(__name__)
# opensearch-py logs every failed attempt with a traceback at WARNING; while waiting for a node
# to come up those are expected, and our own errors carry the useful part.
logging.getLogger("opensearch").setLevel(logging.ERROR)


def _client(url: str, settings: Settings | None = None, timeout: float = 60.0) -> OpenSearch:
    kwargs: dict[str, Any] = {"hosts": [url], "timeout": timeout, "max_retries": 2, "retry_on_timeout": True}
    if settings is not None:
        if settings.opensearch_user and settings.opensearch_password:
            kwargs["http_auth"] = (settings.opensearch_user, settings.opensearch_password.get_secret_value())
        if url.startswith("https"):
            kwargs["verify_certs"] = settings.opensearch_verify_certs
            kwargs["ssl_show_warn"] = settings.opensearch_verify_certs
    return OpenSearch(**kwargs)


def resolve_url(settings: Settings) -> str:
    """OPENSEARCH_URL when set, else the local node started from this machine's node home."""
    if settings.opensearch_url:
        return settings.opensearch_url.rstrip("/")
    from search.node import local

    url = local.local_url(settings)
    if url:
        return url
    raise NodeError(
        "no OpenSearch node to talk to: set OPENSEARCH_URL (e.g. http://localhost:9200 from "
        "docker-compose.yml) or start the local node with `legalsearch node start`."
    )


def ping_url(url: str) -> bool:
    try:
        return bool(_client(url, timeout=3).ping())
    except OpenSearchException:
        return False


def wait_for_health(url: str, timeout: float = 2.0, status: str = "yellow") -> bool:
    try:
        # opensearch-py takes a `timeout` param as its own request timeout, so the server-side
        # wait goes in the path.
        health = _client(url, timeout=timeout + 2).transport.perform_request(
            "GET", f"/_cluster/health?wait_for_status={status}&timeout={max(int(timeout), 1)}s"
        )
    except OpenSearchException:
        return False
    return health.get("status") in ("green", "yellow") and not health.get("timed_out")


class Store:
    """A lazily connected OpenSearch client with the few operations legalsearch needs."""

    def __init__(self, settings: Settings, url: str | None = None):
        self.settings = settings
        self._url = url
        self._client: OpenSearch | None = None

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

    def _call(self, what: str, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except OSConnectionError as e:
            raise NodeError(
                f"cannot reach OpenSearch at {self.url} while trying to {what}: {e.info or e}. "
                "Is the node running? (`legalsearch node status`)"
            ) from e
        except TransportError as e:
            reason = _reason(e)
            raise StoreError(f"OpenSearch refused to {what} (HTTP {e.status_code}): {reason}") from e

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

    def indices(self, pattern: str = "*") -> list[dict]:
        return self._call(
            "list indices", self.client.cat.indices, index=pattern, format="json", params={"expand_wildcards": "open"}
        )

    def analyze(self, body: dict, index: str | None = None) -> list[str]:
        result = self._call("analyze text", self.client.indices.analyze, body=body, index=index)
        return [t["token"] for t in result["tokens"]]

    # ----------------------------------------------------------------- indices

    def index_exists(self, name: str) -> bool:
        return bool(self._call("check an index", self.client.indices.exists, index=name))

    def create_index(self, name: str, body: dict) -> None:
        self._call(f"create index {name}", self.client.indices.create, index=name, body=body)

    def delete_index(self, name: str) -> bool:
        try:
            self._call(f"delete index {name}", self.client.indices.delete, index=name)
        except StoreError as e:
            if isinstance(e.__cause__, NotFoundError):
                return False
            raise
        return True

    def get_index(self, name: str) -> dict:
        return self._call(f"read index {name}", self.client.indices.get, index=name)

    def aliases(self, name: str) -> dict:
        try:
            return self.client.indices.get_alias(name=name)
        except NotFoundError:
            return {}
        except OpenSearchException as e:
            raise StoreError(f"could not read alias {name}: {e}") from e

    def update_aliases(self, actions: list[dict]) -> None:
        self._call("update aliases", self.client.indices.update_aliases, body={"actions": actions})

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

    def bulk(self, actions: Iterable[dict], chunk_size: int = 500, refresh: bool | str = False) -> int:
        """Send bulk actions; raise BulkError with the failing ids if any item fails."""
        failed_ids: list[str] = []
        errors: list[dict] = []
        ok = 0
        try:
            for success, item in helpers.streaming_bulk(
                self.client, actions, chunk_size=chunk_size, raise_on_error=False,
                raise_on_exception=False, refresh=refresh, max_retries=3,
            ):
                if success:
                    ok += 1
                else:
                    op = next(iter(item.values()))
                    if op.get("status") == 404 and next(iter(item)) == "delete":
                        ok += 1  # deleting what is already gone is success for idempotent re-runs
                        continue
                    failed_ids.append(str(op.get("_id")))
                    errors.append(op.get("error") or op)
        except OSConnectionError as e:
            raise NodeError(f"lost the connection to OpenSearch at {self.url} during bulk indexing: {e}") from e
        if failed_ids:
            first = errors[0]
            reason = first.get("reason") if isinstance(first, dict) else first
            raise BulkError(
                f"{len(failed_ids)} of {len(failed_ids) + ok} bulk items failed; first: {failed_ids[0]}: {reason}",
                failed_ids, errors,
            )
        return ok

    def get(self, index: str, doc_id: str, routing: str | None = None) -> dict | None:
        try:
            return self.client.get(index=index, id=doc_id, routing=routing)["_source"]
        except NotFoundError:
            return None
        except OpenSearchException as e:
            raise StoreError(f"could not read {doc_id} from {index}: {e}") from e

    def mget(self, index: str, ids: list[str]) -> list[dict]:
        if not ids:
            return []
        result = self._call("fetch documents", self.client.mget, index=index, body={"ids": ids})
        return [d["_source"] | {"_id": d["_id"]} for d in result["docs"] if d.get("found")]

    def index_document(self, index: str, doc_id: str | None, body: dict, refresh: bool | str = False) -> None:
        self._call(f"index a document into {index}", self.client.index, index=index, id=doc_id, body=body, refresh=refresh)

    def delete_by_query(self, index: str, query: dict, refresh: bool = True) -> int:
        result = self._call(
            f"delete from {index}", self.client.delete_by_query, index=index, body={"query": query},
            refresh=refresh, conflicts="proceed",
        )
        return int(result.get("deleted", 0))

    def scan(self, index: str, query: dict, source: list[str] | bool = True) -> Iterator[dict]:
        body = {"query": query, "_source": source}
        try:
            yield from helpers.scan(self.client, index=index, query=body, preserve_order=False)
        except NotFoundError:
            return
        except OpenSearchException as e:
            raise StoreError(f"could not scan {index}: {e}") from e

    # ----------------------------------------------------------------- search

    def search(self, index: str, body: dict, pipeline: str | None = None, explain: bool = False) -> dict:
        params: dict[str, Any] = {}
        if pipeline:
            params["search_pipeline"] = pipeline
        if explain:
            params["explain"] = "true"
        return self._call(f"search {index}", self.client.search, index=index, body=body, params=params)

    def timed_search(self, index: str, body: dict, pipeline: str | None = None) -> tuple[dict, float]:
        start = time.perf_counter()
        result = self.search(index, body, pipeline=pipeline)
        return result, time.perf_counter() - start

    # ----------------------------------------------------------------- pipelines

    def put_search_pipeline(self, name: str, body: dict) -> None:
        self._call(
            f"create search pipeline {name}", self.client.transport.perform_request,
            "PUT", f"/_search/pipeline/{name}", body=body,
        )

    def get_search_pipelines(self, name: str | None = None) -> dict:
        path = f"/_search/pipeline/{name}" if name else "/_search/pipeline"
        try:
            return self.client.transport.perform_request("GET", path)
        except NotFoundError:
            return {}
        except OpenSearchException as e:
            raise StoreError(f"could not list search pipelines: {e}") from e

    def delete_search_pipeline(self, name: str) -> None:
        try:
            self.client.transport.perform_request("DELETE", f"/_search/pipeline/{name}")
        except NotFoundError:
            pass


def _reason(e: TransportError) -> str:
    info = e.info
    if isinstance(info, dict):
        err = info.get("error")
        if isinstance(err, dict):
            root = (err.get("root_cause") or [err])[0]
            return f"{root.get('type')}: {root.get('reason')}"
        return str(err or info)
    return str(info or e.error)
