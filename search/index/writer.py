"""Writing one index's chunks and registry records so that readers never see half a document.

All chunks of a document are routed to one shard (routing = doc_id) and the chunks index does
not refresh while a run writes (refresh_interval -1, under a lease: `search.index.refresh`): a
changed document's new chunks and the deletion of its stale ones become visible together at the
final refresh. The registry record of a document is written after its chunks, so an interrupted
run resumes by running it again. Bulk items refused with 429 or answered 503 are retried with
backoff by the store; `stats` counts every item (sent, written, failed by reason) for the ingest
report. A document with an item that still fails is rolled back whole (its chunks and record
deleted, `_roll_back`): it is reported failed, never left half written.

Replicas are kept while a run writes (unlike `search.index.bulk`'s bulk-load settings, which
drop them): on a cluster a replica is what lets an ingest go on when a node dies mid-run
(docs/cluster.md), and on one node an index has none anyway.

Walls (`search.index.walls`): a document that is not public is written to the walled pair of
its ACL group set, and whatever copy of it another index of the generation holds (the public
one, another wall) is deleted in the same run, so an ACL change moves a document and leaves
no copy behind. Writing into the live generation first seals the kept ones (reads blocked).
"""

from __future__ import annotations

from legalsearch.documents.errors import MetadataError
from legalsearch.errors import BulkError, LegalSearchError
from legalsearch.index import indices, refresh, walls
from legalsearch.store import BulkStats, Store


class IndexWriter:
    """Writes chunk documents and registry records for one index, hiding changes until `end`.

    `name` is the logical index (its aliases are resolved once, here); a reindex passes the
    concrete indices of the generation it builds instead."""

    def __init__(self, store: Store, name: str, chunks: str | None = None, docs: str | None = None):
        self.store = store
        self.name = name
        self.live = chunks is None  # the live generation (its walls get their group aliases at once)
        self.chunks = chunks or indices.require(store, name, "chunks")
        self.docs = docs or indices.require(store, name, "docs")
        self.registry: dict[str, tuple[str, str, str]] = {}
        self.placed: dict[str, str] = {}  # doc_key -> the docs index its record is in
        self.walls: dict[tuple[str, ...], walls.Wall] = {}
        self.roles = walls.WallRoles(store)
        self.stats = BulkStats()
        self.rolled_back = 0  # documents taken out whole after a bulk item of theirs failed
        self.lease: str | None = None

    @property
    def all_chunks(self) -> str:
        """The generation's chunk indices, public and walled (a wildcard: walls made later count)."""
        return walls.with_walls(self.chunks)

    @property
    def all_docs(self) -> str:
        return walls.with_walls(self.docs)

    def begin(self) -> None:
        self.walls = {w.groups: w for w in walls.list_walls(self.store, self.chunks, self.docs)}
        if self.live:  # a kept generation must not serve what this run makes private
            live = {self.chunks, self.docs, *walls.wall_indices(self.walls.values())}
            walls.seal_kept(self.store, self.name, live)
        # Make what an interrupted run left visible, so stale chunks can be found and removed.
        for index in (self.chunks, self.docs, *walls.wall_indices(self.walls.values())):
            self.store.refresh(index)
        self.registry, self.placed = {}, {}
        for hit in self.store.scan(self.all_docs, {"match_all": {}},
                                   source=["doc_sha256", "settings_key", "meta_sha256", "public", "acl"]):
            src = hit["_source"]
            self.registry[hit["_id"]] = (src.get("doc_sha256"), src.get("settings_key"), src.get("meta_sha256"))
            # a record outside the index its ACL calls for (written before walls) is done again
            try:
                self.placed[hit["_id"]] = hit["_index"] if hit["_index"] == self._docs_for(src, create=False) else ""
            except MetadataError:  # an ACL group no wall can carry: the document fails when written again
                self.placed[hit["_id"]] = ""
        self.lease = refresh.take(self.store, self.chunks)

    def unchanged(self, key: str, sha: str, settings_key: str, meta_sha: str) -> bool:
        """True when the document's bytes, its metadata and the ingest settings are all as
        recorded, and its record lies in the index its ACL calls for."""
        return self.registry.get(key) == (sha, settings_key, meta_sha) and bool(self.placed.get(key))

    def wall(self, groups: tuple[str, ...]) -> walls.Wall:
        """The walled pair of `groups` in this generation, made (with its roles) on first use."""
        found = self.walls.get(groups)
        if found:
            return found
        if len(self.walls) >= walls.MAX_WALLS:
            raise BulkError(f"{self.name} has {len(self.walls)} walled index pairs, the most allowed "
                            f"(search.index.walls.MAX_WALLS); a document for the new ACL set {list(groups)} is refused", [], [])
        self.roles.ensure(groups)
        meta = indices.concrete_meta(self.store, self.chunks)
        wall = walls.Wall(walls.walled_name(self.chunks, groups), walls.walled_name(self.docs, groups), groups)
        for kind, index in (("chunks", wall.chunks), ("docs", wall.docs)):
            body = walls.walled_body(kind, self.name, int(meta["dim"]), meta, groups, self.live)
            self.store.create_index(index, body, exist_ok=True)
        self.walls[groups] = wall
        return wall

    def _docs_for(self, source: dict, create: bool = True) -> str:
        groups = walls.placement(source)
        if groups is None:
            return self.docs
        if create:
            return self.wall(groups).docs
        return self.walls[groups].docs if groups in self.walls else walls.walled_name(self.docs, groups)

    def write(self, doc_id: str, doc_record: dict, sources: list[dict]) -> None:
        key = doc_record["doc_key"]
        groups = walls.placement(doc_record)
        chunks = self.chunks if groups is None else self.wall(groups).chunks
        docs = self.docs if groups is None else self.wall(groups).docs
        new = {(chunks, s["chunk_id"]) for s in sources}
        old = {(hit["_index"], hit["_id"])
               for hit in self.store.scan(self.all_chunks, {"term": {"doc_key": key}}, source=False)}
        actions = [
            {"_op_type": "index", "_index": chunks, "_id": s["chunk_id"], "_routing": doc_id, "_source": s}
            for s in sources
        ]
        actions += [
            {"_op_type": "delete", "_index": index, "_id": cid, "_routing": doc_id}
            for index, cid in sorted(old - new)
        ]
        try:
            # our vectors are computed already: no ingest pipeline, not even the index's default
            # text_embedding one that `legalsearch pipelines install` sets for other clients' bulks
            self.store.bulk(actions, stats=self.stats, pipeline="_none")
            # The registry record last: a crash before this line leaves the document to be redone.
            # (As a bulk of one: a 429 is retried like the chunks' are.) A record the ACL moved
            # leaves its old index in the same request.
            records = [{"_op_type": "index", "_index": docs, "_id": key, "_source": doc_record}]
            records += [{"_op_type": "delete", "_index": hit["_index"], "_id": key}
                        for hit in self.store.scan(self.all_docs, {"ids": {"values": [key]}}, source=False)
                        if hit["_index"] != docs]
            self.store.bulk(records, stats=self.stats)
        except BulkError as e:
            raise BulkError(f"{e}; {self._roll_back(doc_id, key, new | old, docs)}", e.failed_ids, e.errors) from e
        self.registry[key] = (doc_record["doc_sha256"], doc_record["settings_key"], doc_record["meta_sha256"])
        self.placed[key] = docs

    def _roll_back(self, doc_id: str, key: str, chunks: set[tuple[str, str]], docs: str) -> str:
        """A document not all written is taken out whole: every chunk it had or was given (by id:
        the chunks of this run are not searchable before the final refresh) and its registry
        record, so that no reader sees half of it and the next run ingests it again. Returns what
        happened, for the report; the deletions are counted apart (`rolled_back`), not in `stats`."""
        self.registry.pop(key, None)
        self.placed.pop(key, None)
        actions = [{"_op_type": "delete", "_index": index, "_id": cid, "_routing": doc_id}
                   for index, cid in sorted(chunks)]
        try:
            records = {docs} | {hit["_index"] for hit in
                                self.store.scan(self.all_docs, {"ids": {"values": [key]}}, source=False)}
            actions += [{"_op_type": "delete", "_index": index, "_id": key} for index in sorted(records)]
            self.store.bulk(actions)
        except LegalSearchError as e:
            return (f"rolling back failed too ({e}): up to {len(chunks)} of its chunks may remain until it is "
                    "ingested again")
        self.rolled_back += 1
        return f"rolled back: its {len(chunks)} chunks and its registry record removed; ingest it again"

    def end(self) -> None:
        refresh.release(self.store, self.chunks, self.lease)
        self.lease = None
        for index in (self.docs, *walls.wall_indices(self.walls.values())):
            self.store.refresh(index)
