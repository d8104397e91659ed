"""Bulk ingestion: files -> parsed documents -> chunks -> summaries -> vectors -> OpenSearch.

Guarantees:
- Idempotent: chunk ids are doc_id:version:position; a document whose bytes and ingest settings
  are unchanged is skipped (the docs registry holds its sha256 and settings key).
- Atomic replacement per document: all chunks of a document are routed to one shard, and the
  chunks index does not refresh during a run (refresh_interval -1). New chunks and deletions of
  stale ones become visible together at the final refresh, so a reader sees the old chunks or
  the new ones, never both and never neither.
- Versions live side by side: another version is another doc_key with its own validity range.
- Resumable: the registry record of a document is written after its chunks; an interrupted run
  is resumed by running it again (finished documents are skipped, the rest redone).
- Per-file errors are reported with the file and reason; the batch goes on.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from search.config import Settings
from search.documents import chunk_document, discover_documents, load_document, unresolved_refs
from search.documents.errors import DocumentError, MetadataError
from search.documents.models import Chunk, ParsedDocument
from search.errors import BulkError, ConfigError
from search.indexing import indices, records, schema
from search.indexing.embeddings import EmbeddingCache, embed_with_cache, get_embedder
from search.indexing.summaries import SummaryCache, get_summarizer, summarize_cached
from search.store import Store

log = logging.getLogger(__name__)

CHUNKERS = ("structural", "recursive")
# Characters per embedder token budget, and what the summary + heading take of the window.
CHARS_PER_TOKEN = 4
CONTEXT_RESERVE = 200


@dataclass(frozen=True)
class IngestOptions:
    index: str = "legalsearch"
    chunker: str = "structural"
    chunk_size: int | None = None  # recursive: 500; structural: derived from the embedder window
    summarizer: str = "title-fingerprint"
    embedder: str = "minilm"
    embed_parts: tuple[str, ...] = records.EMBED_PARTS
    public_if_no_acl: bool = False
    force: bool = False
    dry_run: bool = False
    batch_chunks: int = 256

    def chunk_limit(self, max_tokens: int) -> int:
        if self.chunk_size:
            return self.chunk_size
        if self.chunker == "recursive":
            return 500
        return max(400, max_tokens * CHARS_PER_TOKEN - CONTEXT_RESERVE)

    def settings_key(self, summarizer_key: str, max_tokens: int) -> str:
        data = {
            "schema": schema.SCHEMA_VERSION, "chunker": self.chunker, "limit": self.chunk_limit(max_tokens),
            "summarizer": summarizer_key, "embedder": self.embedder, "parts": list(self.embed_parts),
            "public_if_no_acl": self.public_if_no_acl,
        }
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


@dataclass
class DocReport:
    path: str
    doc_key: str | None = None
    status: str = "pending"  # ingested | unchanged | failed | planned (dry run)
    chunks: int = 0
    over_window: int = 0
    flags: list[str] = field(default_factory=list)
    unresolved_refs: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class IngestReport:
    index: str
    options: dict
    documents: list[DocReport] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=lambda: {"parse": 0.0, "summarize": 0.0, "embed": 0.0,
                                                              "index": 0.0, "total": 0.0})

    def count(self, status: str) -> int:
        return sum(1 for d in self.documents if d.status == status)

    @property
    def chunks(self) -> int:
        return sum(d.chunks for d in self.documents if d.status in ("ingested", "planned"))

    @property
    def over_window(self) -> int:
        return sum(d.over_window for d in self.documents if d.status in ("ingested", "planned"))

    def summary(self) -> dict:
        chunks = self.chunks
        return {
            "index": self.index,
            "documents": len(self.documents),
            "ingested": self.count("ingested"),
            "planned": self.count("planned"),
            "unchanged": self.count("unchanged"),
            "failed": self.count("failed"),
            "chunks": chunks,
            "chunks_at_or_over_window": self.over_window,
            "share_at_or_over_window": round(self.over_window / chunks, 4) if chunks else 0.0,
            "timings_s": {k: round(v, 3) for k, v in self.timings.items()},
            "options": self.options,
            "failures": [{"path": d.path, "error": d.error} for d in self.documents if d.status == "failed"],
            "flags": {d.path: d.flags for d in self.documents if d.flags},
            "unresolved_refs": {d.path: d.unresolved_refs for d in self.documents if d.unresolved_refs},
        }


@dataclass
class _Pending:
    doc: ParsedDocument
    chunks: list[Chunk]
    summary: str
    embedded: list[str]
    report: DocReport


def ingest(
    paths: Sequence[Path],
    settings: Settings,
    options: IngestOptions,
    *,
    manifest: Path | None = None,
    store: Store | None = None,
    progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
    metadata_override: Callable[[Path], dict | None] | None = None,
) -> IngestReport:
    """Ingest files and folders (see module docstring). `progress(n)` is called per document."""
    if options.chunker not in CHUNKERS:
        raise ConfigError(f"unknown chunker {options.chunker!r}; choose one of: {', '.join(CHUNKERS)}")
    started = time.perf_counter()
    embedder = get_embedder(options.embedder)
    summarizer = get_summarizer(options.summarizer, **settings.summarizer_options(options.summarizer))
    settings_key = options.settings_key(summarizer.settings_key(), embedder.max_tokens)
    limit = options.chunk_limit(embedder.max_tokens)
    report = IngestReport(options.index, {
        "chunker": options.chunker, "chunk_limit": limit, "summarizer": options.summarizer,
        "embedder": options.embedder, "embed_parts": list(options.embed_parts), "settings_key": settings_key,
        "dry_run": options.dry_run,
    })
    files = discover_documents(list(paths), manifest)
    if on_total:
        on_total(len(files))
    cache_dir = settings.cache_dir
    summary_cache = SummaryCache(cache_dir / "summaries.sqlite")
    vector_cache = EmbeddingCache(cache_dir / "embeddings.sqlite")

    writer = None
    if not options.dry_run:
        store = store or Store(settings)
        indices.create(store, options.index, options.embedder, meta={
            "chunker": options.chunker, "chunk_limit": limit, "summarizer": options.summarizer,
            "embed_parts": list(options.embed_parts),
        })
        meta = indices.require_meta(store, options.index)
        if meta.get("embedder") != options.embedder:
            raise ConfigError(
                f"index {options.index!r} holds {meta.get('embedder')} vectors; ingest with --embedder "
                f"{meta.get('embedder')} or into another index"
            )
        writer = _Writer(store, options.index)

    pending: list[_Pending] = []
    try:
        if writer:
            writer.begin()
        for path, entry in files:
            doc_report = DocReport(path=str(path))
            report.documents.append(doc_report)
            t0 = time.perf_counter()
            try:
                override = metadata_override(path) if metadata_override else None
                if override:
                    entry = {**(entry or {}), **override}
                doc = load_document(path, manifest_entry=entry)
                if options.public_if_no_acl and not doc.meta.acl and not doc.meta.public:
                    doc = _with_meta(doc, public=True)
                doc_report.doc_key = records.doc_key(doc.meta.doc_id, doc.meta.version)
                doc_report.flags = list(doc.flags)
                if not doc.meta.acl and not doc.meta.public:
                    doc_report.flags.append("unreadable:no-acl-and-not-public")
                if writer and not options.force and writer.unchanged(doc_report.doc_key, doc.doc_sha256, settings_key):
                    doc_report.status = "unchanged"
                    report.timings["parse"] += time.perf_counter() - t0
                    if progress:
                        progress(1)
                    continue
                chunks = chunk_document(doc, options.chunker, max_chars=limit, recursive_size=limit)
                doc_report.unresolved_refs = [r.raw for r in unresolved_refs(doc, chunks)]
            except (DocumentError, MetadataError) as e:
                doc_report.status, doc_report.error = "failed", str(e)
                report.timings["parse"] += time.perf_counter() - t0
                if progress:
                    progress(1)
                continue
            t1 = time.perf_counter()
            report.timings["parse"] += t1 - t0
            summary = summarize_cached(summarizer, doc, summary_cache)
            report.timings["summarize"] += time.perf_counter() - t1
            embedded = [records.embedded_text(c, summary, options.embed_parts) for c in chunks]
            pending.append(_Pending(doc, chunks, summary, embedded, doc_report))
            if sum(len(p.chunks) for p in pending) >= options.batch_chunks:
                _flush(pending, writer, embedder, vector_cache, settings_key, report, progress)
                pending = []
        _flush(pending, writer, embedder, vector_cache, settings_key, report, progress)
    finally:
        if writer:
            t = time.perf_counter()
            writer.end()
            report.timings["index"] += time.perf_counter() - t
        summary_cache.close()
        vector_cache.close()
    report.timings["total"] = time.perf_counter() - started
    return report


def _with_meta(doc: ParsedDocument, **updates) -> ParsedDocument:
    import dataclasses

    return dataclasses.replace(doc, meta=doc.meta.model_copy(update=updates))


def _flush(pending, writer, embedder, cache, settings_key, report, progress) -> None:
    if not pending:
        return
    t0 = time.perf_counter()
    texts = [t for p in pending for t in p.embedded]
    routing_texts = [records.routing_text(p.doc, p.summary) for p in pending]
    vectors = embed_with_cache(embedder, texts + routing_texts, cache)
    token_counts = [_token_count(embedder, t) for t in texts]
    t1 = time.perf_counter()
    report.timings["embed"] += t1 - t0
    now = datetime.now(UTC).isoformat(timespec="seconds")
    offset = 0
    for i, p in enumerate(pending):
        n = len(p.chunks)
        sources = [
            records.chunk_source(
                p.doc, chunk, summary=p.summary, embedded=p.embedded[j], vector=vectors[offset + j],
                token_count=token_counts[offset + j], max_tokens=embedder.max_tokens,
                chunker=report.options["chunker"], ingested_at=now,
            )
            for j, chunk in enumerate(p.chunks)
        ]
        p.report.chunks = n
        p.report.over_window = sum(1 for s in sources if s["over_window"])
        doc_record = records.doc_source(
            p.doc, summary=p.summary, vector=vectors[len(texts) + i], settings_key=settings_key,
            chunk_ids=[c.chunk_id for c in p.chunks], ingested_at=now,
        )
        if writer:
            try:
                writer.write(p.doc.meta.doc_id, doc_record, sources)
                p.report.status = "ingested"
            except BulkError as e:
                p.report.status, p.report.error = "failed", f"{e} (failed ids: {', '.join(e.failed_ids[:5])})"
        else:
            p.report.status = "planned"
        offset += n
        if progress:
            progress(1)
    report.timings["index"] += time.perf_counter() - t1


def _token_count(embedder, text: str) -> int:
    try:
        return embedder.count_tokens(text)
    except Exception:  # a tokenizer quirk must not fail an ingest: estimate instead
        return len(text) // CHARS_PER_TOKEN


class _Writer:
    """Writes chunk documents and registry records for one index, hiding changes until `end`."""

    def __init__(self, store: Store, name: str):
        self.store = store
        self.chunks = schema.concrete_name(name, "chunks")
        self.docs = schema.concrete_name(name, "docs")
        self.registry: dict[str, tuple[str, str]] = {}

    def begin(self) -> None:
        # Make what an interrupted run left visible, so stale chunks can be found and removed.
        self.store.refresh(self.chunks)
        self.store.refresh(self.docs)
        self.registry = {
            hit["_id"]: (hit["_source"].get("doc_sha256"), hit["_source"].get("settings_key"))
            for hit in self.store.scan(self.docs, {"match_all": {}}, source=["doc_sha256", "settings_key"])
        }
        self.store.put_settings(self.chunks, {"index": {"refresh_interval": "-1"}})

    def unchanged(self, key: str, sha: str, settings_key: str) -> bool:
        return self.registry.get(key) == (sha, settings_key)

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
        self.store.bulk(actions)
        # The registry record last: a crash before this line leaves the document to be redone.
        self.store.index_document(self.docs, key, doc_record)
        self.registry[key] = (doc_record["doc_sha256"], doc_record["settings_key"])

    def end(self) -> None:
        self.store.put_settings(self.chunks, {"index": {"refresh_interval": None}})
        self.store.refresh(self.chunks)
        self.store.refresh(self.docs)
