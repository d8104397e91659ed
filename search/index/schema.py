"""Index bodies from the JSON in mappings/ and analyzers/ (pure), and index naming.

A logical index NAME (default "legalsearch") is two aliases over versioned concrete indices:

    NAME        -> NAME--chunks-v1   one document per chunk (what search reads)
    NAME-docs   -> NAME--docs-v1     one document per (doc_id, version): registry + routing

The concrete names carry the schema version, and a generation after a reindex
(NAME--chunks-v1-g2, ...), so a new index can be built beside the old one and switched by
moving both aliases in one atomic request (`legalsearch index reindex`). Index templates carry
the same analysis and mappings, so an index made by a reindex or by hand in Dashboards matches.

Shards and replicas: one primary shard by default, on one node and on a cluster alike. A hybrid
query cannot use global term statistics (see `search.store.Store.search`), so over several
shards BM25 scores (and so the fused ranking) depend on how documents fall into shards; one
shard holds 10^5 chunks easily. Measured at 10k, 16k, 100k and 300k chunks (benchmarks/shard_agreement.py,
docs/results.md 'Shards that agree at scale'): three shards changed the default search's top 10
for 99-100 % of the questions at every size, so the default stays 1 whatever the corpus size. Replicas default to `auto_expand_replicas: 0-1`: none on one
node (green), one on a cluster, so any one node can be lost without losing a chunk.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from importlib import resources

SCHEMA_VERSION = 1
KINDS = ("chunks", "docs")

KNN_EF_SEARCH = 100
"""The beam width (`method_parameters.ef_search`) of every filtered k-NN search on an index of up to
`KNN_LARGE_FROM` chunks: Lucene's HNSW search with the filter applied during the graph walk
(efficient filtering; Lucene scores the filtered rows exactly instead when they are fewer than the
walk would visit). With the beam at `k` (10) the filtered top 10 matched exact search in only 66-88 %
of places at 10k-1M chunks; measured per method in docs/results.md ("Issue 27"). Recorded in each
chunks index's `_meta.legalsearch.knn` (`legalsearch index info`), which the query reads back."""

KNN_EF_SEARCH_LARGE = 400
"""The beam width beyond `KNN_LARGE_FROM` chunks: recall@10 against exact search 0.999 at 100k and
0.969 at 1M, where 100 gives 0.914 (docs/results.md, "At 1M chunks"); ~+17 ms p95 at 1M."""

KNN_LARGE_FROM = 100_000
"""The largest index (in chunks) searched with `KNN_EF_SEARCH`: 0.98 recall@10 measured there (twice,
on two bases: 0.963 and 0.982); nothing between 100k and 1M was measured, so beyond it is `_LARGE`."""

KNN_EF_RULE = (f"by size: {KNN_EF_SEARCH} up to {KNN_LARGE_FROM:,} chunks, {KNN_EF_SEARCH_LARGE} beyond "
               "(set after each ingest)")


def ef_search_for(chunks: int) -> int:
    """The k-NN beam width of an index of `chunks` chunks (the size rule, `KNN_EF_RULE`)."""
    return KNN_EF_SEARCH if chunks <= KNN_LARGE_FROM else KNN_EF_SEARCH_LARGE


def knn_meta(vector_mapping: dict) -> dict:
    """How the index's k-NN field is built and searched, as `_meta.legalsearch.knn` records it."""
    method = vector_mapping["method"]
    return {"engine": method["engine"], "space": method["space_type"], **method.get("parameters", {}),
            "ef_search": KNN_EF_SEARCH, "ef_search_rule": KNN_EF_RULE,
            "filter": "efficient (in the graph walk; exact when selective)"}


@cache
def _load(package: str, name: str) -> dict:
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    data = json.loads(text)
    data.pop("_comment", None)
    return data


def analysis_settings() -> dict:
    return copy.deepcopy(_load("legalsearch.analyzers", "legal.json")["analysis"])


def mapping_json(kind: str) -> dict:
    return copy.deepcopy(_load("legalsearch.mappings", f"{kind}.json"))


_CONCRETE = re.compile(r"^(?P<name>.+)--(?P<kind>chunks|docs)-v(?P<schema>\d+)(?:-g(?P<generation>\d+))?$")


def concrete_name(name: str, kind: str, generation: int = 1) -> str:
    """NAME--chunks-v1 for the first generation, NAME--chunks-v1-g2 after one reindex, ..."""
    base = f"{name}--{kind}-v{SCHEMA_VERSION}"
    return base if generation <= 1 else f"{base}-g{generation}"


def concrete_pattern(name: str, kind: str) -> str:
    """A wildcard for every concrete index of NAME and kind (all schema versions, all generations)."""
    return f"{name}--{kind}-v*"


def parse_concrete(index: str) -> tuple[str, str, int] | None:
    """(logical name, kind, generation) of a concrete legalsearch index name, else None."""
    m = _CONCRETE.match(index)
    if not m:
        return None
    return m["name"], m["kind"], int(m["generation"] or 1)


def shard_settings(shards: int | None = None, replicas: int | None = None) -> dict:
    """Index settings for `--shards` / `--replicas` (None keeps the JSON's defaults: one shard,
    replicas auto-expanded 0-1)."""
    out: dict = {}
    if shards is not None:
        out["number_of_shards"] = shards
    if replicas is not None:
        out["number_of_replicas"] = replicas
        out["auto_expand_replicas"] = "false"
    return out


def alias_name(name: str, kind: str) -> str:
    return name if kind == "chunks" else f"{name}-{kind}"


def index_body(kind: str, name: str, dim: int, meta: dict | None = None, *, shards: int | None = None,
               replicas: int | None = None, alias: bool = True) -> dict:
    """The full create-index body for `kind` ("chunks" | "docs" | "log"): analysis + mappings,
    the vector dimension of the embedder, shards and replicas, the alias (not for a reindex
    target, which gets it when it is complete), and `_meta` recording how it was built."""
    body = mapping_json(kind)
    index_settings = body.setdefault("settings", {}).setdefault("index", {})
    index_settings["analysis"] = analysis_settings()
    index_settings.update(shard_settings(shards, replicas))
    props = body["mappings"]["properties"]
    recorded: dict = {"schema": SCHEMA_VERSION, "kind": kind, **(meta or {})}
    if "vector" in props:
        props["vector"]["dimension"] = dim
        recorded["knn"] = knn_meta(props["vector"])  # today's, also over a previous generation's record
    body["mappings"]["_meta"] = {"legalsearch": recorded}
    if kind in KINDS and alias:
        body["aliases"] = {alias_name(name, kind): {}}
    return body


def template_priority(kind: str) -> int:
    """Distinct per kind: the wildcard patterns of the kinds' templates overlap."""
    return 100 + KINDS.index(kind) if kind in KINDS else 100


def template_body(kind: str, dim: int) -> dict:
    body = index_body(kind, "template", dim)
    body.pop("aliases", None)
    return {
        "index_patterns": [f"*--{kind}-v{SCHEMA_VERSION}", f"*--{kind}-v{SCHEMA_VERSION}-g*"],
        "priority": template_priority(kind),
        "template": {"settings": body["settings"], "mappings": body["mappings"]},
        "_meta": {"description": f"legalsearch {kind} index, schema v{SCHEMA_VERSION}"},
    }


def log_index_body() -> dict:
    body = mapping_json("log")
    body["mappings"]["_meta"] = {"legalsearch": {"schema": SCHEMA_VERSION, "kind": "log"}}
    return body


def chunk_fields() -> list[str]:
    return sorted(mapping_json("chunks")["mappings"]["properties"])
