"""Writing one index's chunks and registry records so that readers never see half a document.

All chunks of a document are routed to one shard (routing = doc_id) and the chunks index does
not refresh while a run writes (refresh_interval -1, under a lease: `search.index.refresh`): a
changed document's new chunks and the deletion of its stale ones become visible together at the
final refresh. The registry record of a document is written after its chunks, so an interrupted
run resumes by running it again. Bulk items refused with 429 are retried with backoff by the
store; `stats` counts them for the ingest report.

Replicas are kept while a run writes (unlike `search.index.bulk`'s bulk-load settings, which
drop them): on a cluster a replica is what lets an ingest go on when a node dies mid-run
(docs/cluster.md), and on one node an index has none anyway.
"""

from __future__ import annotations

from legalsearch.index import indices, refresh
from legalsearch.store import BulkStats, Store


class IndexWriter:
    """Writes chunk documents and registry records for one index, hiding changes until `end`.

    `name` is the logical index (its aliases are resolved once, here); a reindex passes the
    concrete indices of the generation it builds instead."""

    def __init__(self, store: Store, name: str, chunks: str | None = None, docs: str | None = None):
        self.store = store
        self.chunks = chunks or indices.require(store, name, "chunks")
        self.docs = docs or indices.require(store, name, "docs")
        self.registry: dict[str, tuple[str, str, str]] = {}
        self.stats = BulkStats()
        self.lease: str | None = None

    def begin(self) -> None:
        # Make what an interrupted run left visible, so stale chunks can be found and removed.
        self.store.refresh(self.chunks)
        self.store.refresh(self.docs)
        self.registry = {
            hit["_id"]: (hit["_source"].get("doc_sha256"), hit["_source"].get("settings_key"),
                         hit["_source"].get("meta_sha256"))
            for hit in self.store.scan(self.docs, {"match_all": {}},
                                       source=["doc_sha256", "settings_key", "meta_sha256"])
        }
        self.lease = refresh.take(self.store, self.chunks)

    def unchanged(self, key: str, sha: str, settings_key: str, meta_sha: str) -> bool:
        """True when the document's bytes, its metadata and the ingest settings are all as recorded."""
        return self.registry.get(key) == (sha, settings_key, meta_sha)

    def write(self, doc_id: str, doc_record: dict, sources: list[dict]) -> None:
        key = doc_record["doc_key"]
        new_ids = {s["chunk_id"] for s in sources}
        old_ids = {hit["_id"] for hit in self.store.scan(self.chunks, {"term": {"doc_key": key}}, source=False)}
        actions = [
            {"_op_type": "index", "_index": self.chunks, "_id": s["chunk_id"], "_routing": doc_id, "_source": s}
            for s in sources
        ]
        actions += [
            {"_op_type": "delete", "_index": self.chunks, "_id": cid, "_routing": doc_id}
            for cid in sorted(old_ids - new_ids)
        ]
        # our vectors are computed already: no ingest pipeline, not even the index's default
        # text_embedding one that `legalsearch pipelines install` sets for other clients' bulks
        self.store.bulk(actions, stats=self.stats, pipeline="_none")
        # The registry record last: a crash before this line leaves the document to be redone.
        # (As a bulk of one: a 429 is retried like the chunks' are.)
        self.store.bulk([{"_op_type": "index", "_index": self.docs, "_id": key, "_source": doc_record}],
                        stats=self.stats)
        self.registry[key] = (doc_record["doc_sha256"], doc_record["settings_key"], doc_record["meta_sha256"])

    def end(self) -> None:
        refresh.release(self.store, self.chunks, self.lease)
        self.lease = None
        self.store.refresh(self.docs)
