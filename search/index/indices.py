"""Create, delete, list and describe legalsearch indices (chunks + docs registry)."""

from __future__ import annotations

from datetime import UTC, datetime

from search.embed import Embedder, index_build
from search.errors import ConfigError, LegalSearchError
from search.index import schema
from search.store import Store


def ensure_templates(store: Store, dim: int) -> None:
    for kind in schema.KINDS:
        store.put_index_template(f"legalsearch-{kind}-v{schema.SCHEMA_VERSION}", schema.template_body(kind, dim))


def create(store: Store, name: str, model: Embedder, meta: dict | None = None) -> dict:
    """Create the chunks and docs indices behind `name` for vectors of `model` (idempotent: an
    existing index is kept if it was built with the same embedder; a different one is an error)."""
    embedder = model.name
    existing = index_meta(store, name)
    if existing:
        if existing.get("embedder") != embedder or index_build(existing) != model.build:
            raise ConfigError(
                f"index {name!r} was built with embedder {existing.get('embedder')!r} ({index_build(existing)}), "
                f"not {embedder!r} ({model.build}); use --index with another name, or `legalsearch index delete "
                f"{name}` first"
            )
        upgrade_mappings(store, name, model.dim)
        return existing
    info = {
        "embedder": embedder,
        "model": getattr(model, "model_id", embedder),
        **model.describe(),  # embedder_build: exactly what makes the vectors (queries use the same)
        "dim": model.dim,
        "max_tokens": model.max_tokens,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        **(meta or {}),
    }
    ensure_templates(store, model.dim)
    for kind in schema.KINDS:
        concrete = schema.concrete_name(name, kind)
        if not store.index_exists(concrete):
            store.create_index(concrete, schema.index_body(kind, name, model.dim, info))
    return info


def upgrade_mappings(store: Store, name: str, dim: int) -> None:
    """Add the fields a newer mapping JSON has to an existing index (additive and idempotent:
    OpenSearch accepts new fields on a strict mapping and refuses a changed type, with a message)."""
    for kind in schema.KINDS:
        concrete = schema.concrete_name(name, kind)
        properties = schema.index_body(kind, name, dim)["mappings"]["properties"]
        current = store.get_index(concrete)[concrete]["mappings"].get("properties", {})
        for field, spec in properties.items():  # doc_values cannot change: send what the index has
            if field in current and isinstance(spec, dict):
                if "doc_values" in current[field]:
                    spec["doc_values"] = current[field]["doc_values"]
                else:
                    spec.pop("doc_values", None)
        store.put_mapping(concrete, {"properties": properties})


def delete(store: Store, name: str) -> list[str]:
    """Delete the concrete indices behind `name`; returns what was deleted."""
    deleted = []
    for kind in schema.KINDS:
        concrete = schema.concrete_name(name, kind)
        if store.delete_index(concrete):
            deleted.append(concrete)
    return deleted


def index_meta(store: Store, name: str) -> dict | None:
    """The `_meta.legalsearch` recorded on the chunks index (embedder, chunker, ...), or None."""
    concrete = schema.concrete_name(name, "chunks")
    if not store.index_exists(concrete):
        return None
    mapping = store.get_index(concrete)[concrete]["mappings"]
    return dict(mapping.get("_meta", {}).get("legalsearch", {}))


def require_meta(store: Store, name: str) -> dict:
    meta = index_meta(store, name)
    if meta is None:
        raise LegalSearchError(
            f"index {name!r} does not exist; create it with `legalsearch ingest PATH --index {name}` "
            "(or `legalsearch index create`)"
        )
    return meta


def update_meta(store: Store, name: str, updates: dict) -> None:
    meta = require_meta(store, name) | updates
    store.put_mapping(schema.concrete_name(name, "chunks"), {"_meta": {"legalsearch": meta}})


def list_indices(store: Store) -> list[dict]:
    rows = []
    for row in store.indices("*--chunks-v*"):
        name = row["index"].split("--chunks-v")[0]
        meta = index_meta(store, name) or {}
        docs = schema.concrete_name(name, "docs")
        rows.append({
            "name": name,
            "chunks": int(row.get("docs.count") or 0),
            "documents": store.count(docs) if store.index_exists(docs) else 0,
            "size": row.get("store.size"),
            "embedder": meta.get("embedder"),
            "chunker": meta.get("chunker"),
            "summarizer": meta.get("summarizer"),
        })
    return sorted(rows, key=lambda r: r["name"])


def info(store: Store, name: str) -> dict:
    meta = require_meta(store, name)
    chunks = schema.concrete_name(name, "chunks")
    docs = schema.concrete_name(name, "docs")
    return {
        "name": name,
        "aliases": {name: chunks, schema.alias_name(name, "docs"): docs},
        "meta": meta,
        "chunks": store.count(chunks),
        "documents": store.count(docs),
        "fields": schema.chunk_fields(),
    }
