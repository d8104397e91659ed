"""Ingestion: documents -> load -> chunk -> summarize -> embed -> index, three stages at once.

Pipelined (`search.ingest.pipeline`): a parse thread loads, chunks and summarizes documents into
batches of `batch_chunks` chunks; the calling thread embeds a batch while the next one is parsed;
a write thread sends the previous batch's documents to the node, one document at a time, in the
sources' order. Bounded queues (two batches between stages) keep memory flat. The first error of
any stage stops the run (see the guarantees below); an embedder's throughput is then the ingest's:
`benchmarks/ingest_vs_embedder.py` measures both on the same chunks. The batch follows the device
the model runs on (search.embed.device): 256 chunks on the CPU, 1,024 on CUDA, an endpoint's
`batch` x `concurrency` at least (its requests go out `concurrency` at a time).

Guarantees:
- Idempotent: chunk ids are doc_id:version:position; a document whose fingerprint and ingest
  settings are unchanged is skipped (the docs registry holds both).
- Atomic replacement per document, and resumable after an interruption (see
  `search.index.writer`).
- Versions live side by side: another version is another doc_key with its own validity range.
- Per-document errors are reported with the file (or in-memory document) and the reason; the
  batch goes on. Two sources with the same doc_id and version in one run are refused (the
  second one fails, naming both). A node that cannot be reached, or does not answer within the
  request timeout, stops the run (NodeError): that is not a per-document problem.
- A dry run parses, chunks and summarizes: it computes no embedding and writes nothing.

Inputs are files and folders (with sidecars or a JSONL manifest) and in-memory `Document`s; both
become `Source`s, loaded one at a time.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from legalsearch.chunk import CHUNKERS, chunk_document
from legalsearch.config import Settings
from legalsearch.documents.errors import DocumentError, MetadataError
from legalsearch.documents.models import Chunk, Document, ParsedDocument
from legalsearch.embed import Embedders, EmbeddingCache, embed_with_cache, index_build
from legalsearch.embed.spec import is_spec
from legalsearch.errors import BulkError, ConfigError, LegalSearchError
from legalsearch.index import bulk, indices, links, records, refresh, terms, walls
from legalsearch.index.schema import KNN_EF_RULE
from legalsearch.index.writer import IndexWriter
from legalsearch.ingest.options import CHARS_PER_TOKEN, IngestOptions
from legalsearch.ingest.pipeline import pipelined
from legalsearch.ingest.report import DocReport, IngestReport
from legalsearch.load import discover_documents, load_document, load_memory_document, peek_language
from legalsearch.load.metadata import infer_language
from legalsearch.parse import unresolved_refs
from legalsearch.store import Store
from legalsearch.summarize import SummaryCache, get_summarizer, summarize_cached
from legalsearch.summarize.profile import document_profile

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Source:
    """One document to ingest: how reports name it, how to load it, and how to guess its language
    without loading it (for `--embedder auto`; None: unknown)."""

    label: str
    load: Callable[[], ParsedDocument]
    language: Callable[[], str | None] = lambda: None


def file_sources(paths: Sequence[Path], manifest: Path | None = None,
                 metadata_override: Callable[[Path], dict | None] | None = None) -> list[Source]:
    """Files under `paths` (and the manifest's), each with its manifest entry and override."""
    sources = []
    for path, entry in discover_documents(list(paths), manifest):
        override = metadata_override(path) if metadata_override else None
        merged = {**(entry or {}), **override} if override else entry
        sources.append(Source(str(path), lambda p=path, e=merged: load_document(p, manifest_entry=e),
                              lambda p=path, e=merged: peek_language(p, e)))
    return sources


def memory_sources(documents: Iterable[Document]) -> list[Source]:
    return [Source(d.label, lambda d=d: load_memory_document(d),
                   lambda d=d: (d.metadata.get("language") or infer_language(d.text))) for d in documents]


AUTO_ENGLISH, AUTO_MIXED = "minilm", "e5"
"""What `--embedder auto` gives a new index: MiniLM when every document is in English (the best
measured on English LegalBench), multilingual e5 as soon as one is not (it answers Italian
questions on English NDAs and English questions on Italian contracts; MiniLM does not)."""


def choose_embedder(name: str, existing: dict | None, sources: Sequence[Source]) -> tuple[str, str]:
    """(embedder name, why) for an ingest run. An explicit name stays; "auto" follows an existing
    index's model, and for a new index reads the sources' languages (stopping at the first that
    is not English)."""
    if name != "auto":
        return name, "asked for"
    if existing is not None:
        build = index_build(existing)
        # your own model: the whole recorded specification (its key_env, timeout, ...)
        model = (existing.get("embedder_spec") or build) if is_spec(build) else build.split("/")[0]
        return model, f"the index's model ({model})"
    for source in sources:
        language = source.language()
        if language and language != "en":
            return AUTO_MIXED, f"auto: {source.label} is in {language!r}, so a multilingual model"
    return AUTO_ENGLISH, "auto: every document is in English"


@dataclass
class _Pending:
    doc: ParsedDocument
    chunks: list[Chunk]
    summary: str
    embedded: list[str]
    report: DocReport


def ingest(
    sources: Sequence[Source],
    settings: Settings,
    options: IngestOptions,
    *,
    store: Store | None,
    embedders: Embedders,
    progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
    target: tuple[str, str] | None = None,
) -> IngestReport:
    """Ingest `sources` (see the module docstring); `store` may be None only for a dry run.
    `progress(n)` is called per document (from the ingest's parse and write threads, one call at a
    time). `target` (chunks, docs concrete indices) writes into
    an index a reindex is building instead of the one behind `options.index`."""
    if options.chunker not in CHUNKERS:
        raise ConfigError(f"unknown chunker {options.chunker!r}; choose one of: {', '.join(CHUNKERS)}")
    if store is None and not options.dry_run:
        raise ConfigError("ingest needs a store unless it is a dry run")
    started = time.perf_counter()
    existing = None
    if store is not None and not options.dry_run:  # the index written: the live one, or a reindex's target
        existing = indices.concrete_meta(store, target[0]) if target else indices.index_meta(store, options.index)
    chosen, why = choose_embedder(options.embedder, existing, sources)
    if options.embedder == "auto":
        log.info("embedder %s (%s)", chosen, why)
    embedder = embedders.for_ingest(chosen, existing)  # an existing index keeps its build
    summarizer = get_summarizer(options.summarizer, **settings.summarizer_options(options.summarizer))
    settings_key = options.settings_key(summarizer.settings_key(), embedder.max_tokens, embedder.cache_key)
    limit = options.chunk_limit(embedder.max_tokens)
    batch = options.batch_chunks or ingest_batch(embedder)
    dev = getattr(embedder, "device", None)
    report = IngestReport(index=options.index, options={
        "chunker": options.chunker, "chunk_limit": limit, "summarizer": options.summarizer,
        "embedder": chosen, "embedder_choice": why, "embed_parts": list(options.embed_parts), "settings_key": settings_key,
        "dry_run": options.dry_run, "device": dev.describe() if dev is not None else None, "batch_chunks": batch,
        "concurrency": getattr(embedder, "concurrency", None), "warm_clauses": options.warm_clauses,
    })
    if on_total:
        on_total(len(sources))
    writer = None
    if not options.dry_run:
        writer = _writer(store, options, embedder, limit, target, report)
    cache_dir = settings.cache_dir
    summary_cache = SummaryCache(cache_dir / "summaries.sqlite")
    vector_cache = EmbeddingCache(cache_dir / "embeddings.sqlite")

    seen: dict[str, str] = {}  # doc_key -> the source that brought it in this run
    warned: list[str] = []     # the English-only warning, once
    tick = _locked(progress)

    def prepared():
        """Batches of parsed documents, of at least `batch` chunks (on the parse thread)."""
        pending: list[_Pending] = []
        for source in sources:
            item = _prepare(source, options, report, writer, embedder, summarizer, summary_cache, limit,
                            settings_key, seen, warned)
            if item is None:
                tick(1)
                continue
            pending.append(item)
            if sum(len(p.chunks) for p in pending) >= batch:
                yield pending
                pending = []
        if pending:
            yield pending

    def embed(pending: list[_Pending]) -> _Embedded:
        return _embed(pending, writer, embedder, vector_cache, report, options.warm_clauses)

    warm_terms = _terms_warmer(store, writer, settings, report) if writer else None

    def write(batch_: _Embedded) -> None:
        _write(batch_, writer, embedder, settings_key, report, tick, warm_terms)

    try:
        if writer:
            writer.begin()
        run = pipelined(prepared(), embed, write, depth=2, name="ingest")
        report.timings["embed_idle"] = run.starved_s + run.blocked_s
    except BaseException:
        if writer:  # give refresh back if the node still answers; else the next command does
            try:
                writer.end()
            except LegalSearchError as e:
                log.warning("could not turn refresh back on (%s); the next command will", e)
            indices.note_change()  # some documents may be written
            writer = None
        raise
    finally:
        if writer:
            t = time.perf_counter()
            writer.end()
            indices.note_change()  # refreshed: a search service of this process reads the registry again
            if options.force_merge:
                bulk.force_merge(store, writer.chunks, options.force_merge)
            _tune_knn(store, writer.chunks, report)
            _link(store, writer, report)
            report.timings["index"] += time.perf_counter() - t
            report.bulk = dataclasses.asdict(writer.stats) | {"rolled_back": writer.rolled_back}
        summary_cache.close()
        vector_cache.close()
    report.timings["total"] = time.perf_counter() - started
    return report


def _tune_knn(store: Store, chunks: str, report: IngestReport) -> None:
    """The k-NN beam width of `chunks` set by its size after the ingest (`indices.tune_knn`): in the
    report's options when it changed; a refusal is a warning (every chunk is written already)."""
    try:
        width = indices.tune_knn(store, chunks)
    except LegalSearchError as e:
        report.warnings.append(f"the k-NN beam width of {chunks} was not set by its size ({e}); "
                               f"`legalsearch index info` shows the one it has")
        return
    if width is not None:
        report.options["knn_ef_search"] = width
        log.info("k-NN beam width of %s set to %d (%s)", chunks, width, KNN_EF_RULE)


def _link(store: Store, writer: IndexWriter, report: IngestReport) -> None:
    """The link pass (`index.links`) over the public pair and each wall of the index written: every
    amendment linked to the agreement it amends; a refusal is a warning (every chunk is written)."""
    try:
        for link in links.link_all(store, writer.chunks, writer.docs).links:
            report.links.append(dataclasses.asdict(link) | {"describe": link.describe()})
            for doc in report.documents:  # resolved in the amended agreement: no longer unresolved
                if doc.doc_key == link.amendment:
                    doc.unresolved_refs = [r for r in doc.unresolved_refs if r not in link.resolved]
            log.info("amendment: %s", link.describe())
    except LegalSearchError as e:
        report.warnings.append(f"amendments were not linked to the agreements they amend ({e}); the next "
                               "ingest into this index links them")


def _writer(store: Store, options: IngestOptions, embedder, limit: int, target: tuple[str, str] | None,
            report: IngestReport) -> IndexWriter:
    """The writer of this run, on the index behind `options.index` (created if missing, race-safe)
    or on the `target` a reindex builds; a refresh left off by a killed ingest is restored first."""
    if target is None:
        indices.create(store, options.index, embedder, meta={
            "chunker": options.chunker, "chunk_limit": limit, "summarizer": options.summarizer,
            "embed_parts": list(options.embed_parts),
        }, shards=options.shards, replicas=options.replicas)
        meta = indices.require_meta(store, options.index)
        if index_build(meta) != embedder.build:
            raise ConfigError(
                f"index {options.index!r} holds {index_build(meta)} vectors, not {embedder.build}; ingest with "
                f"--embedder {meta.get('embedder')} or into another index"
            )
    writer = IndexWriter(store, options.index, *(target or (None, None)))
    restored = refresh.recover(store, writer.chunks)["message"]
    if restored:
        report.warnings.append(restored)
    return writer


def _prepare(source: Source, options: IngestOptions, report: IngestReport, writer: IndexWriter | None, embedder,
             summarizer, summary_cache: SummaryCache, limit: int, settings_key: str, seen: dict[str, str],
             warned: list[str]) -> _Pending | None:
    """One source loaded, checked, chunked and summarized (the parse stage); None when it is done
    already: unchanged, or failed (its report says why)."""
    doc_report = DocReport(path=source.label)
    report.documents.append(doc_report)
    t0 = time.perf_counter()
    try:
        doc = source.load()
        # --public only fills a gap: an explicit "public": false in the metadata stands.
        if (meta := doc.meta.public_by_default(options.public_if_no_acl)) is not doc.meta:
            doc = dataclasses.replace(doc, meta=meta)
        doc_report.doc_key = records.doc_key(doc.meta.doc_id, doc.meta.version)
        if doc_report.doc_key in seen:
            raise MetadataError(
                f"{source.label} has the same doc_id and version ({doc_report.doc_key}) as "
                f"{seen[doc_report.doc_key]}, ingested earlier in this run; refused, so that the two "
                "texts do not mix their chunks: give one another doc_id or version (sidecar .meta.json)"
            )
        seen[doc_report.doc_key] = source.label
        doc_report.flags = list(doc.flags)
        if not doc.meta.acl and not doc.meta.public:
            doc_report.flags.append("unreadable:no-acl-and-not-public")
        walls.placement({"public": doc.meta.public, "acl": doc.meta.acl})  # a group a wall can carry
        if doc.meta.public and doc.meta.acl:  # public wins (the readers' DLS is public OR acl)
            doc_report.flags.append("public-overrides-acl")
            report.warnings.append(
                f"{source.label}: \"public\": true makes it readable by everyone; its acl "
                f"({', '.join(doc.meta.acl)}) restricts nothing. Remove \"public\" (or set it to false) to "
                "keep it to those groups")
        if writer and not options.force and writer.unchanged(doc_report.doc_key, doc.doc_sha256, settings_key,
                                                             records.meta_fingerprint(doc)):
            doc_report.status = "unchanged"
            report.timings["parse"] += time.perf_counter() - t0
            return None
        if doc.meta.language != "en" and embedder.name == AUTO_ENGLISH and not warned:
            warned.append(source.label)
            report.warnings.append(
                f"{source.label} is in {doc.meta.language!r} but the index embeds with the English-only "
                f"{embedder.name}: questions in either language will miss it by meaning (BM25 still reads "
                f"it); `legalsearch index reindex --index {options.index} --embedder e5` makes the index "
                "multilingual")
        chunks = chunk_document(doc, options.chunker, max_chars=limit, recursive_size=limit)
        doc_report.unresolved_refs = [r.raw for r in unresolved_refs(doc, chunks)]
    except (DocumentError, MetadataError) as e:
        doc_report.status, doc_report.error = "failed", str(e)
        report.timings["parse"] += time.perf_counter() - t0
        return None
    t1 = time.perf_counter()
    report.timings["parse"] += t1 - t0
    summary = summarize_cached(summarizer, doc, summary_cache)
    report.timings["summarize"] += time.perf_counter() - t1
    embedded = [records.embedded_text(c, summary, options.embed_parts) for c in chunks]
    return _Pending(doc, chunks, summary, embedded, doc_report)


@dataclass
class _Embedded:
    pending: list[_Pending]
    vectors: list      # one per embedded text, then one routing vector per document (None: a dry run)
    token_counts: list[int]


def _embed(pending: list[_Pending], writer, embedder, cache, report, warm_clauses: int = 0) -> _Embedded:
    """The embedding stage: chunk and routing vectors of a batch, and the chunks' token counts (on
    the embedding thread: a tokenizer is not shared between threads). The clause texts of the
    documents of at least `warm_clauses` chunks go into the cache too (`clause_texts`)."""
    t0 = time.perf_counter()
    texts = [t for p in pending for t in p.embedded]
    routing_texts = [records.routing_text(p.doc, p.summary) for p in pending]
    if writer:
        vectors = list(embed_with_cache(embedder, texts + routing_texts, cache))
    else:  # a dry run writes nothing, so it embeds nothing (and caches nothing)
        vectors = [None] * (len(texts) + len(routing_texts))
    counts = _token_counts(embedder, texts)
    report.timings["embed"] += time.perf_counter() - t0
    clauses = clause_texts(pending, warm_clauses) if writer else []
    if clauses:
        t1 = time.perf_counter()
        embed_with_cache(embedder, clauses, cache)
        report.timings["embed_clauses"] = report.timings.get("embed_clauses", 0.0) + time.perf_counter() - t1
        report.options["clauses_embedded"] = report.options.get("clauses_embedded", 0) + len(clauses)
    return _Embedded(pending, vectors, counts)


def clause_texts(pending: list[_Pending], at_least: int) -> list[str]:
    """What the clause rescorer will embed (`records.clause_text`) for the chunks of each document
    of at least `at_least` chunks (0: none): `rerank: auto` reorders the fused list of such a long
    document by them, and the first questions on it would otherwise wait for the embeddings
    (benchmarks/auto_rerank_cost.py: seconds a question with e5)."""
    if at_least <= 0:
        return []
    return [records.clause_text({"heading_path": list(c.heading_path), "text": c.text})
            for p in pending if len(p.chunks) >= at_least for c in p.chunks]


def _terms_warmer(store: Store, writer: IndexWriter, settings: Settings, report: IngestReport
                  ) -> Callable[[list[dict]], None] | None:
    """What analyses the passage terms of the chunks each batch wrote (legalsearch.index.terms.warm),
    kept on disk under the cache folder by the chunk index's uuid, so that relevance does not
    analyse them at the first search; None (with a warning) when the index's uuid cannot be read.
    A refused analysis is a warning: every chunk is written already."""
    warned = "passage terms not analysed ahead ({}); the first search that meets them will"
    try:
        uuid = indices.uuid_of(store, writer.chunks)
    except (LegalSearchError, KeyError) as e:
        report.warnings.append(warned.format(e))
        return None
    terms.TERMS.use_disk(settings.cache_dir / terms.DISK_FILE)
    report.options["terms_analysed"] = 0

    def warm(sources: list[dict]) -> None:
        nonlocal warned
        try:
            report.options["terms_analysed"] += terms.warm(store, writer.chunks, uuid, sources)
        except LegalSearchError as e:
            if warned:  # once per ingest
                report.warnings.append(warned.format(e))
                warned = ""
    return warm


def _write(batch: _Embedded, writer, embedder, settings_key: str, report: IngestReport, progress,
           warm_terms: Callable[[list[dict]], None] | None = None) -> None:
    """The write stage: each document's chunks and record, in order; a document with a bulk item the
    node did not write is rolled back whole by the writer and reported failed with those items; then
    the passage terms of what was written (`warm_terms`)."""
    t1 = time.perf_counter()
    now = datetime.now(UTC).isoformat(timespec="seconds")
    pending, vectors, token_counts = batch.pending, batch.vectors, batch.token_counts
    n_texts = sum(len(p.chunks) for p in pending)
    offset = 0
    written: list[dict] = []
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
            p.doc, summary=p.summary, vector=vectors[n_texts + i], settings_key=settings_key,
            chunk_ids=[c.chunk_id for c in p.chunks], ingested_at=now, profile=document_profile(p.doc),
        )
        if writer:
            try:
                writer.write(p.doc.meta.doc_id, doc_record, sources)
                p.report.status = "ingested"
                written += sources
            except BulkError as e:  # every item the node did not write, with its reason; rolled back
                p.report.status, p.report.error = "failed", f"{e} (failed ids: {', '.join(e.failed_ids[:5])})"
                p.report.refused = list(e.errors)
        else:
            p.report.status = "planned"
        offset += n
        if progress:
            progress(1)
    if warm_terms and written:
        warm_terms(written)
    report.timings["index"] += time.perf_counter() - t1


def _locked(progress: Callable[[int], None] | None) -> Callable[[int], None]:
    """`progress`, called by one thread at a time (the parse and write stages both report)."""
    if progress is None:
        return lambda n: None
    lock = threading.Lock()

    def tick(n: int) -> None:
        with lock:
            progress(n)
    return tick


def ingest_batch(embedder) -> int:
    """Chunks per embedding call when `batch_chunks` is not given: the device's (256 on the CPU,
    1,024 on CUDA); for an endpoint enough for `concurrency` requests of `batch` texts at once."""
    dev = getattr(embedder, "device", None)
    if dev is None or dev.kind == "remote":
        return max(256, int(getattr(embedder, "batch_size", 64)) * int(getattr(embedder, "concurrency", 1)))
    return dev.batches.ingest_chunks


def _token_counts(embedder, texts: list[str]) -> list[int]:
    many = getattr(embedder, "count_tokens_many", None)
    if many is not None and texts:
        try:
            return list(many(texts))
        except Exception:  # noqa: BLE001 - one by one below, each with its fallback
            pass
    return [_token_count(embedder, t) for t in texts]


def _token_count(embedder, text: str) -> int:
    try:
        return embedder.count_tokens(text)
    except Exception:  # a tokenizer quirk must not fail an ingest: estimate instead
        return len(text) // CHARS_PER_TOKEN
