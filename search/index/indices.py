"""Create, delete, list and describe legalsearch indices (chunks + docs registry).

Everything reads an index through its alias (`resolve`), so a reindex that moves the aliases to
a new generation (`search.index.generations`) is followed by every command.
"""

from __future__ import annotations

from datetime import UTC, datetime

from legalsearch.embed import Embedder, index_build
from legalsearch.errors import ConfigError, NotFoundError, PermissionDeniedError, StoreError
from legalsearch.index import refresh, schema
from legalsearch.index.walls import list_walls, wall_indices, walled_indices, with_walls
from legalsearch.store import Store


def ensure_templates(store: Store, dim: int) -> None:
    # highest priority first: templates written by an older version all had priority 100, and a
    # new one may not share a priority with an overlapping old one (chunks is 100, docs 101)
    for kind in sorted(schema.KINDS, key=schema.template_priority, reverse=True):
        store.put_index_template(f"legalsearch-{kind}-v{schema.SCHEMA_VERSION}", schema.template_body(kind, dim))


def resolve(store: Store, name: str, kind: str = "chunks") -> str | None:
    """The concrete index behind NAME's alias of `kind` (None when there is none)."""
    alias = schema.alias_name(name, kind)
    behind = store.get_aliases(alias)
    if len(behind) > 1:
        raise StoreError(f"alias {alias} points at {len(behind)} indices ({', '.join(behind)}); legalsearch "
                         "expects one: move it with `legalsearch index reindex` or fix it in Dashboards")
    return behind[0] if behind else None


def require(store: Store, name: str, kind: str = "chunks") -> str:
    concrete = resolve(store, name, kind)
    if concrete is None:
        raise _missing(name)
    return concrete


def _missing(name: str) -> NotFoundError:
    return NotFoundError(f"index {name!r} does not exist; create it with `legalsearch ingest PATH --index {name}` "
                            "(or `legalsearch index create`)")


def live(store: Store, name: str, kind: str = "chunks") -> tuple[str, dict]:
    """(concrete index, its mappings and settings) behind NAME's alias of `kind`, in one GET of
    the alias: the one read every legalsearch role may make (indices:admin/get), so a search run
    for an end user finds its generation and meta without alias or settings permissions."""
    try:
        found = store.get_index(schema.alias_name(name, kind), missing={})
    except PermissionDeniedError:
        # the security plugin checks a name that resolves to nothing against the role's patterns
        # (`*--chunks-v*`) and answers 403: ask by the generations' own pattern, which the role
        # may list, so a missing index says so instead of blaming the caller's permissions
        if store.get_index(schema.concrete_pattern(name, kind), missing={}):
            raise
        raise _missing(name) from None
    if not found:
        raise _missing(name)
    if len(found) > 1:
        raise StoreError(f"alias {schema.alias_name(name, kind)} points at {len(found)} indices ({', '.join(found)}); "
                         "legalsearch expects one: move it with `legalsearch index reindex` or fix it in Dashboards")
    return next(iter(found.items()))


def all_live(store: Store, name: str, kind: str = "chunks") -> str:
    """NAME's live indices of `kind`, public and walled, as one index expression: everything an
    administrator reads (search.index.walls; a reader's search picks its groups' walls only)."""
    return with_walls(require(store, name, kind))


def meta_of(body: dict) -> dict:
    """The `_meta.legalsearch` of an index as `live` / GET returns it."""
    return dict(body.get("mappings", {}).get("_meta", {}).get("legalsearch", {}))


def create(store: Store, name: str, model: Embedder, meta: dict | None = None, *, shards: int | None = None,
           replicas: int | None = None) -> dict:
    """Create the chunks and docs indices behind `name` for vectors of `model` (idempotent: an
    existing index is kept if it was built with the same embedder; a different one is an error).
    Race-safe: when another process creates the same index at the same moment, both succeed."""
    existing = index_meta(store, name)
    if existing:
        return _same_embedder(store, name, existing, model)
    info = {
        "index": name,  # the logical name, for the messages that name the reindex command
        "embedder": model.name,
        "model": getattr(model, "model_id", model.name),
        **model.describe(),  # embedder_build: exactly what makes the vectors (queries use the same)
        "dim": model.dim,
        "max_tokens": model.max_tokens,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        **(meta or {}),
    }
    ensure_templates(store, model.dim)
    created = False
    for kind in schema.KINDS:
        body = schema.index_body(kind, name, model.dim, info, shards=shards, replicas=replicas)
        created = store.create_index(schema.concrete_name(name, kind), body, exist_ok=True) or created
    if not created:  # another process won the race: its index stands if the embedder matches
        return _same_embedder(store, name, require_meta(store, name), model)
    return info


def _same_embedder(store: Store, name: str, existing: dict, model: Embedder) -> dict:
    if existing.get("embedder") != model.name or index_build(existing) != model.build:
        raise ConfigError(
            f"index {name!r} was built with embedder {existing.get('embedder')!r} ({index_build(existing)}), "
            f"not {model.name!r} ({model.build}); use --index with another name, move the index to the new "
            f"model with `legalsearch index reindex --index {name} --embedder '{model.build}'`, or "
            f"`legalsearch index delete {name}` first"
        )
    upgrade_mappings(store, name, model.dim)
    return existing


def upgrade_mappings(store: Store, name: str, dim: int) -> None:
    """Add the fields a newer mapping JSON has to an existing index (additive and idempotent:
    OpenSearch accepts new fields on a strict mapping and refuses a changed type, with a message)."""
    for kind in schema.KINDS:
        concrete = resolve(store, name, kind)
        if not concrete:
            continue
        properties = schema.index_body(kind, name, dim)["mappings"]["properties"]
        current = store.get_index(concrete)[concrete]["mappings"].get("properties", {})
        for field, spec in properties.items():  # doc_values cannot change: send what the index has
            if field in current and isinstance(spec, dict):
                if "doc_values" in current[field]:
                    spec["doc_values"] = current[field]["doc_values"]
                else:
                    spec.pop("doc_values", None)
        store.put_mapping(concrete, {"properties": properties})


def concrete_indices(store: Store, name: str) -> dict[str, list[str]]:
    """Every concrete index of NAME by kind (all generations, oldest first)."""
    out: dict[str, list[str]] = {kind: [] for kind in schema.KINDS}
    for kind in schema.KINDS:
        for row in store.indices(schema.concrete_pattern(name, kind)):
            parsed = schema.parse_concrete(row["index"])
            if parsed and parsed[0] == name and parsed[1] == kind:
                out[kind].append(row["index"])
        out[kind].sort(key=lambda i: schema.parse_concrete(i)[2])
    return out


def uuid_of(store: Store, concrete: str) -> str:
    """The uuid of a concrete index (its settings' `index.uuid`): one creation of it."""
    return store.get_index(concrete)[concrete]["settings"]["index"]["uuid"]


_changes = 0


def note_change() -> None:
    """Documents of this process's indices were written or removed (an ingest ended, an index was
    deleted): what a search service kept of a document registry is looked up again
    (legalsearch.query.registry)."""
    global _changes
    _changes += 1


def changes() -> int:
    """How many times `note_change` ran in this process."""
    return _changes


def delete(store: Store, name: str) -> list[str]:
    """Delete every concrete index behind `name` (all generations); returns what was deleted."""
    note_change()
    deleted = []
    for concrete in [*(i for names in concrete_indices(store, name).values() for i in names),
                     *walled_indices(store, name)]:
        if store.delete_index(concrete):
            deleted.append(concrete)
    return deleted


def concrete_meta(store: Store, concrete: str) -> dict:
    mapping = store.get_index(concrete)[concrete]["mappings"]
    return dict(mapping.get("_meta", {}).get("legalsearch", {}))


def index_meta(store: Store, name: str) -> dict | None:
    """The `_meta.legalsearch` recorded on the chunks index (embedder, chunker, ...), or None."""
    concrete = resolve(store, name, "chunks")
    return concrete_meta(store, concrete) if concrete else None


def require_meta(store: Store, name: str) -> dict:
    return concrete_meta(store, require(store, name))


def update_meta(store: Store, name: str, updates: dict) -> None:
    concrete = require(store, name)
    store.put_mapping(concrete, {"_meta": {"legalsearch": concrete_meta(store, concrete) | updates}})


def tune_knn(store: Store, concrete: str) -> int | None:
    """Set the k-NN beam width of the chunks index `concrete` by its size (`schema.ef_search_for`)
    when its `_meta.legalsearch.knn` follows the size rule: recorded `ef_search_rule` "by size...",
    or an index recorded before the rule with today's default width (100) or none; another width
    without the rule was set by hand and stands. Returns the new width, or None when it stands.
    Run after each ingest; the query reads the width back from `_meta` (a search service within its
    `TARGET_TTL_S` still sends the one it read)."""
    meta = concrete_meta(store, concrete)
    if meta.get("writers"):  # another ingest still writes (its lease is in _meta): the last one sets it
        return None
    knn = dict(meta.get("knn") or {})
    by_size = str(knn.get("ef_search_rule") or "").startswith("by size")
    if not knn or (not by_size and "ef_search" in knn and knn.get("ef_search") != schema.KNN_EF_SEARCH):
        return None  # a width set by hand (or no vectors): left as it is
    wanted = schema.ef_search_for(store.count(concrete))
    if knn.get("ef_search") == wanted and knn.get("ef_search_rule") == schema.KNN_EF_RULE:
        return None
    store.put_mapping(concrete, {"_meta": {"legalsearch": meta | {
        "knn": knn | {"ef_search": wanted, "ef_search_rule": schema.KNN_EF_RULE}}}})
    return wanted


def list_indices(store: Store) -> list[dict]:
    rows = []
    names = sorted({p[0] for r in store.indices("*--chunks-v*") if (p := schema.parse_concrete(r["index"]))})
    for name in names:
        live = resolve(store, name, "chunks")
        if live is None:
            continue  # a generation left without its alias: `index info` / `index prune` show it
        row = next(r for r in store.indices(live))
        meta = concrete_meta(store, live)
        docs = resolve(store, name, "docs")
        rows.append({
            "name": name,
            "chunks": int(row.get("docs.count") or 0),
            "documents": store.count(docs) if docs else 0,
            "size": row.get("store.size"),
            "embedder": meta.get("embedder"),
            "chunker": meta.get("chunker"),
            "summarizer": meta.get("summarizer"),
            "index": live,
        })
    return rows


def info(store: Store, name: str) -> dict:
    chunks = require(store, name, "chunks")
    docs = require(store, name, "docs")
    state = refresh.recover(store, chunks)  # a killed ingest's refresh -1 is restored here at the latest
    settings = store.index_settings(chunks).get(chunks, {})
    live_walls = list_walls(store, chunks, docs)
    live = {chunks, docs, *wall_indices(live_walls)}
    return {
        "name": name,
        "aliases": {name: chunks, schema.alias_name(name, "docs"): docs},
        "meta": {k: v for k, v in concrete_meta(store, chunks).items() if k != "writers"},
        "chunks": store.count(chunks),
        "documents": store.count(docs),
        "shards": int(settings.get("index.number_of_shards", 1)),
        "replicas": settings.get("index.number_of_replicas"),
        "auto_expand_replicas": settings.get("index.auto_expand_replicas"),
        "refresh": state["refresh"],
        "refresh_message": state["message"],
        "writers": state["writers"],
        "walls": [{"groups": list(w.groups), "chunks": w.chunks, "docs": w.docs} for w in live_walls],
        "previous_generations": [i for names in concrete_indices(store, name).values() for i in names
                                 if i not in live] + [i for i in walled_indices(store, name) if i not in live],
        "fields": schema.chunk_fields(),
    }
