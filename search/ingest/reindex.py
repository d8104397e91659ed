"""`legalsearch index reindex`: a new generation of an index built beside the live one, then
swapped in atomically (`search.index.generations`); searches keep answering throughout.

Two ways to fill it:
- copy (new mappings, analyzers, shards or replicas; same chunks and vectors): every chunk and
  registry record is copied through bulk requests into the index its ACL calls for (the public
  one or its wall: `generations.copy_walled`), no model runs;
- rebuild (another chunker, chunk size, summarizer, embedder or embedded parts): the documents
  are ingested again from their files (the paths the registry recorded, or `paths`).

The walls of the old generation are write-blocked with it, and their group aliases move in the
swap (`search.index.walls`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from legalsearch.config import Settings
from legalsearch.embed import Embedders, build_for, index_build
from legalsearch.embed.spec import is_spec, parse
from legalsearch.errors import ConfigError, IngestError
from legalsearch.index import generations, indices, refresh, walls
from legalsearch.ingest.options import IngestOptions
from legalsearch.ingest.run import file_sources, ingest
from legalsearch.store import Store

MODEL_RECORD = ("embedder_spec", "embedder_kind", "model_fingerprint", "normalized", "spec_version",
                "model_source_sha256", "model_sha256", "onnxruntime")
"""What an embedder's `describe` records: dropped with the old model when the embedder changes."""

REBUILD_FIELDS = ("chunker", "chunk_size", "summarizer", "embedder", "embed_parts")


def reindex(store: Store, settings: Settings, embedders: Embedders, name: str, *,
            changes: dict | None = None, shards: int | None = None, replicas: int | None = None,
            paths: list[Path] | None = None, manifest: Path | None = None,
            progress: Callable[[int], None] | None = None,
            on_total: Callable[[int], None] | None = None) -> dict:
    """Build generation N+1 of `name` (with `changes` to the ingest options, if any), swap the
    aliases to it, keep the old one. Returns what was done (mode, counts, old and new indices)."""
    started = time.perf_counter()
    old = (indices.require(store, name, "chunks"), indices.require(store, name, "docs"))
    refresh.recover(store, old[0])  # what a killed ingest left unrefreshed is copied too
    meta = indices.concrete_meta(store, old[0])
    changes = dict(changes or {})
    if changes.get("embedder") and is_spec(changes["embedder"]):  # compared with the recorded (canonical) one
        changes["embedder"] = parse(changes["embedder"]).canonical
    options = _options(name, meta, changes or {}, shards, replicas)
    rebuild = bool(paths or manifest) or _embedder_changes(meta, changes.get("embedder")) or any(
        changes.get(f) is not None and _recorded(meta, f) != _as_meta(changes[f]) for f in REBUILD_FIELDS
        if f != "embedder")
    try:  # the index's own build while the embedder stays; another embedder makes new vectors
        model = embedders.for_ingest(options.embedder, meta)
    except ConfigError:
        model = embedders.get(options.embedder)
    limit = options.chunk_limit(model.max_tokens)
    # the engine-side models (`pipelines install`, key "engine") embed with the old build: dropped
    # when the build changes, so that `--embedding engine` asks for a new install instead
    dropped = {"writers"} | ({"engine", *MODEL_RECORD} if index_build(meta) != model.build else set())
    new_meta = {k: v for k, v in meta.items() if k not in dropped} | model.describe() | {
        "embedder": model.name, "model": getattr(model, "model_id", model.name), "dim": model.dim,
        "max_tokens": model.max_tokens, "chunker": options.chunker, "chunk_limit": limit,
        "summarizer": options.summarizer, "embed_parts": list(options.embed_parts), "reindexed_from": old[0],
    }
    sources = _sources(store, old[1], paths, manifest) if rebuild else []
    generation = generations.next_generation(store, name)
    new = generations.create(store, name, generation, model, new_meta, shards=shards, replicas=replicas)
    old_walls = walls.list_walls(store, *old)
    frozen = [*old, *walls.wall_indices(old_walls)]
    generations.block_writes(store, frozen, True)
    try:
        if rebuild:
            report = ingest(sources, settings, options, store=store, embedders=embedders, progress=progress,
                            on_total=on_total, target=new)
            failed = report.summary()["failures"]
            if failed:
                raise IngestError(f"{len(failed)} documents failed to ingest into the new index; the live one is "
                                  f"unchanged. First: {failed[0]['path']}: {failed[0]['error']}")
            copied = {"chunks": report.chunks, "documents": report.count("ingested")}
        else:
            copied, expected = generations.copy_walled(store, name, old, new)
            if copied != expected:
                raise IngestError(f"the copy holds {copied}, the live index {expected}; the live one is unchanged")
        new_walls = walls.list_walls(store, *new)
        generations.make_ready(store, [*new, *walls.wall_indices(new_walls)])
        generations.swap(store, name, old, new, old_walls, new_walls)
    except BaseException:
        generations.block_writes(store, frozen, False)
        for index in [*new, *walls.walled_indices(store, name)]:
            if walls.generation_of(name, index) in (None, *new) and index not in frozen:
                store.delete_index(index)
        raise
    # an index written before walls kept private text in its public index: sealed at once
    if store.count(old[0], {"bool": {"must_not": {"term": {"public": True}}}}):
        walls.seal_kept(store, name, {*new, *walls.wall_indices(new_walls)})
    return {
        "index": name, "mode": "rebuild" if rebuild else "copy", "generation": generation,
        "previous": {"chunks": old[0], "docs": old[1]}, "live": {"chunks": new[0], "docs": new[1]},
        "chunks": store.count(new[0]), "documents": store.count(new[1]), "copied": copied,
        "walls": len(new_walls),
        "seconds": round(time.perf_counter() - started, 2),
        "kept": f"{old[0]} and {old[1]} are kept, read-only: `legalsearch index prune --index {name}` drops them",
    }


def _embedder_changes(meta: dict, embedder: str | None) -> bool:
    """Whether --embedder asks for other vectors: a specification by its model's identity (not its
    timeout or key variable), a name as before (minilm / e5 name the model, whatever its runtime)."""
    if not embedder:
        return False
    if is_spec(embedder) or is_spec(index_build(meta)):
        return build_for(embedder) != index_build(meta)
    return meta.get("embedder") != embedder


def _recorded(meta: dict, field: str):
    return meta.get("chunk_limit") if field == "chunk_size" else meta.get(field)


def _as_meta(value):
    return list(value) if isinstance(value, tuple) else value


def _options(name: str, meta: dict, changes: dict, shards: int | None, replicas: int | None) -> IngestOptions:
    """The new generation's ingest options: what the live index was built with, plus `changes`."""
    recorded = {"chunker": meta.get("chunker"), "summarizer": meta.get("summarizer"),
                "embedder": meta.get("embedder_spec") or meta.get("embedder"), "embed_parts": tuple(meta.get("embed_parts") or ())}
    base = {k: v for k, v in recorded.items() if v}
    wanted = {k: v for k, v in changes.items() if v is not None}
    unknown = set(wanted) - set(REBUILD_FIELDS) - {"public_if_no_acl"}
    if unknown:
        raise ConfigError(f"reindex cannot change {', '.join(sorted(unknown))}")
    return IngestOptions(index=name, **(base | wanted), shards=shards, replicas=replicas)


def _sources(store: Store, docs_index: str, paths: list[Path] | None, manifest: Path | None):
    """The files to ingest again: `paths` / `manifest`, else the source paths the registry holds."""
    if paths or manifest:
        return file_sources(list(paths or []), manifest)
    recorded = sorted({hit["_source"].get("source_path") or "" for hit in
                       store.scan(walls.with_walls(docs_index), {"match_all": {}},
                                  source=["source_path"])})
    missing = [p for p in recorded if not p or not Path(p).is_file()]
    if missing:
        raise ConfigError(
            f"{len(missing)} recorded source files cannot be read from here (e.g. {missing[0]!r}: in-memory "
            "documents, or paths relative to another folder); give the corpus with --from PATH (and --manifest)")
    return file_sources([Path(p) for p in recorded])
