"""The one module that talks to OpenSearch (the only one that imports opensearch-py).

Everything else builds request bodies as plain dicts (pure functions) and hands them here.
Every call goes through `Store._call`, which wraps opensearch-py's errors into
`search.errors`: an unreachable node is a NodeError, a refusal a StoreError, each with a
message that says what to do next. A `Store` is built once where a command starts (the
`LegalSearch` client) and handed down.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import Any

from opensearchpy import OpenSearch, helpers
from opensearchpy.exceptions import ConnectionError as OSConnectionError
from opensearchpy.exceptions import NotFoundError, TransportError

from search.config import Settings
from search.errors import BulkError, NodeError, StoreError
from search.node import process

log = logging.getLogger(__name__)
# opensearch-py logs every failed attempt with a traceback at WARNING; while waiting for a node
# to come up those are expected, and our own errors carry the useful part.
logging.getLogger("opensearch").setLevel(logging.ERROR)

_RAISE = object()  # sentinel: a 404 is an error unless the caller says what it means


def resolve_url(settings: Settings) -> str:
    """OPENSEARCH_URL when set, else the local node started from this machine's node home."""
    if settings.opensearch_url:
        return settings.opensearch_url.rstrip("/")
    url = process.local_url(settings)
    if url:
        return url
    raise NodeError(
        "no OpenSearch node to talk to: set OPENSEARCH_URL (e.g. http://localhost:9200 from "
        "docker-compose.yml) or start the local node with `legalsearch node start`."
    )


def _client(url: str, settings: Settings, timeout: float) -> OpenSearch:
    kwargs: dict[str, Any] = {"hosts": [url], "timeout": timeout, "max_retries": 2, "retry_on_timeout": True}
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
        except OSConnectionError as e:
            raise NodeError(
                f"cannot reach OpenSearch at {self.url} while trying to {what}: {e.info or e}. "
                "Is the node running? (`legalsearch node status`)"
            ) from e
        except TransportError as e:
            raise StoreError(f"OpenSearch refused to {what} (HTTP {e.status_code}): {_reason(e)}") from e

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
            "list indices", self.client.cat.indices, index=pattern, format="json",
            params={"expand_wildcards": "open"}, missing=[],
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
        """Delete `name`; False when there was no such index."""
        return self._call(f"delete index {name}", self.client.indices.delete, index=name, missing=None) is not None

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

    def bulk(self, actions: Iterable[dict], chunk_size: int = 500, refresh: bool | str = False) -> int:
        """Send bulk actions; raise BulkError with the failing ids if any item fails."""
        failed_ids: list[str] = []
        errors: list[dict] = []
        ok = 0
        results = self._call(
            "send a bulk request", lambda: list(helpers.streaming_bulk(
                self.client, actions, chunk_size=chunk_size, raise_on_error=False,
                raise_on_exception=False, refresh=refresh, max_retries=3,
            )),
        )
        for success, item in results:
            if success:
                ok += 1
                continue
            op = next(iter(item.values()))
            if op.get("status") == 404 and next(iter(item)) == "delete":
                ok += 1  # deleting what is already gone is success for idempotent re-runs
                continue
            failed_ids.append(str(op.get("_id")))
            errors.append(op.get("error") or op)
        if failed_ids:
            first = errors[0]
            reason = first.get("reason") if isinstance(first, dict) else first
            raise BulkError(
                f"{len(failed_ids)} of {len(failed_ids) + ok} bulk items failed; first: {failed_ids[0]}: {reason}",
                failed_ids, errors,
            )
        return ok

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

    # ----------------------------------------------------------------- search

    def search(self, index: str, body: dict, pipeline: str | None = None, explain: bool = False) -> dict:
        params: dict[str, Any] = {}
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


def _reason(e: TransportError) -> str:
    info = e.info
    if isinstance(info, dict):
        err = info.get("error")
        if isinstance(err, dict):
            root = (err.get("root_cause") or [err])[0]
            return f"{root.get('type')}: {root.get('reason')}"
        return str(err or info)
    return str(info or e.error)
