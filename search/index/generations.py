"""Blue/green generations of a logical index: build a new pair of concrete indices beside the
live one, then move both aliases to it in ONE atomic `_aliases` request.

    NAME      -> NAME--chunks-v1      (generation 1, live)      NAME--chunks-v1-g2 (being built)
    NAME-docs -> NAME--docs-v1                                  NAME--docs-v1-g2

A reader resolves the alias per request, so every search sees the old generation or the new
one, never a mix and never a half-built index: the new one is filled, refreshed and has its
primaries started before the aliases move. The old generation is kept, read-only, until
`prune` drops it (a process that looked up the alias a moment before the swap still reads it).
While the new generation is built the old one refuses writes (`index.blocks.write`), so an
ingest that runs meanwhile fails loudly instead of writing where the new index never looks.

Walls (`search.index.walls`) are part of a generation: the copy sends each chunk and record to
the new generation's public index or wall by its ACL (so a copy also walls an index written
before walls), and the swap moves the group aliases with NAME and NAME-docs, in the same
request: from then on no group can open the kept walls. The kept public index is sealed (no
reads) at the first ingest into the new generation (`IndexWriter.begin`), before any ACL can
change, or at the swap itself when it still holds text that is not public.
"""

from __future__ import annotations

from legalsearch.embed import Embedder
from legalsearch.errors import LegalSearchError
from legalsearch.index import indices, schema, walls
from legalsearch.index.writer import IndexWriter
from legalsearch.store import BulkStats, Store


def next_generation(store: Store, name: str) -> int:
    existing = [schema.parse_concrete(i)[2] for names in indices.concrete_indices(store, name).values()
                for i in names]
    return max(existing, default=0) + 1


def create(store: Store, name: str, generation: int, model: Embedder, meta: dict, *,
           shards: int | None = None, replicas: int | None = None) -> tuple[str, str]:
    """The (chunks, docs) indices of a new generation, without aliases (nothing reads them yet)."""
    indices.ensure_templates(store, model.dim)
    created = []
    for kind in schema.KINDS:
        concrete = schema.concrete_name(name, kind, generation)
        body = schema.index_body(kind, name, model.dim, meta, shards=shards, replicas=replicas, alias=False)
        store.create_index(concrete, body)
        created.append(concrete)
    return created[0], created[1]


def block_writes(store: Store, concrete: list[str], blocked: bool) -> None:
    for index in concrete:
        store.put_settings(index, {"index": {"blocks.write": True if blocked else None}})


def copy_walled(store: Store, name: str, old: tuple[str, str], new: tuple[str, str],
                stats: BulkStats | None = None) -> tuple[dict[str, int], dict[str, int]]:
    """Copy the generation `old` (public and walled) into `new`, each chunk and record into the
    index its ACL calls for (walls of `new` made without aliases). ({kind: copied}, {kind: the
    count of the old generation}). Through bulk requests with the store's 429 retries (the
    integ-test distribution has no reindex module, so `_reindex` is not there; this works on any
    node)."""
    target = IndexWriter(store, name, *new)
    copied = {"chunks": 0, "documents": 0}
    expected = {"chunks": 0, "documents": 0}
    for position, (kind, key) in enumerate((("chunks", "chunks"), ("docs", "documents"))):
        for source in (old[position], *(getattr(w, kind) for w in walls.list_walls(store, *old))):
            expected[key] += store.count(source)
            for page in store.stream(source, {"match_all": {}}):
                actions = []
                for h in page:
                    groups = walls.placement(h["_source"])
                    dest = new[position] if groups is None else getattr(target.wall(groups), kind)
                    actions.append({"_op_type": "index", "_index": dest, "_id": h["_id"], "_source": h["_source"],
                                    **({"_routing": h["_routing"]} if h.get("_routing") else {})})
                copied[key] += store.bulk(actions, stats=stats)
    return copied, expected


def make_ready(store: Store, concrete: list[str], timeout: float = 120.0) -> None:
    """Refresh on, refreshed, and every primary started (replicas may still be copying)."""
    for index in concrete:
        store.put_settings(index, {"index": {"refresh_interval": None}})
        store.refresh(index)
        health = store.wait_for_index(index, "yellow", timeout)
        if health.get("timed_out") or health.get("status") == "red":
            raise LegalSearchError(f"{index} did not get its primary shards started within {timeout:.0f}s "
                                   f"(health {health.get('status')}); see `legalsearch node status`")


def swap(store: Store, name: str, old: tuple[str, str], new: tuple[str, str],
         old_walls: list[walls.Wall] = (), new_walls: list[walls.Wall] = ()) -> None:
    """Move NAME and NAME-docs from the `old` (chunks, docs) to the `new` ones, and the group
    aliases from the old walls to the new, atomically."""
    actions = []
    for kind, before, after in zip(schema.KINDS, old, new, strict=True):
        alias = schema.alias_name(name, kind)
        actions.append({"remove": {"index": before, "alias": alias}})
        actions.append({"add": {"index": after, "alias": alias}})
    for wall in old_walls:
        actions += [{"remove": {"index": index, "alias": alias, "must_exist": False}}
                    for index, alias in walls.aliases_for(name, wall)]
    for wall in new_walls:
        actions += [{"add": {"index": index, "alias": alias}} for index, alias in walls.aliases_for(name, wall)]
    store.update_aliases(actions)


def prune(store: Store, name: str) -> list[str]:
    """Delete every generation of NAME that its aliases do not point at; what was deleted."""
    live = {indices.resolve(store, name, kind) for kind in schema.KINDS}
    if None in live:
        raise LegalSearchError(f"index {name!r} has no live generation behind its aliases; nothing pruned "
                               "(`legalsearch index info` shows what exists)")
    live |= set(walls.wall_indices(walls.list_walls(store, *(indices.resolve(store, name, k) for k in schema.KINDS))))
    deleted = []
    for concrete in [*(i for names in indices.concrete_indices(store, name).values() for i in names),
                     *walls.walled_indices(store, name)]:
        if concrete not in live and store.delete_index(concrete):
            deleted.append(concrete)
    return deleted
