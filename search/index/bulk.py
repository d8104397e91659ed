"""Index settings for bulk loads, each chosen by a measurement (benchmarks/scale.py, docs/architecture.md):

- during a load: no refresh (one at the end makes the whole load visible at once) and no replicas
  (a replica re-does every document's analysis and HNSW insertion; it is rebuilt once, from the
  finished segments, when the count is restored); both put back as they were afterwards;
- optionally a force-merge to few segments after a load (fewer HNSW graphs to search per query);
- `NO_DOC_VALUES`: keyword fields no query, sort, aggregation or Dashboards visualization reads
  by value (the setting is measured in the benchmark; the shipped mapping keeps doc values).
"""

from __future__ import annotations

from legalsearch.store import Store

BULK_SETTINGS = {"refresh_interval": "-1", "number_of_replicas": 0}

NO_DOC_VALUES = ("chunk_id", "doc_sha256", "source_path", "xref_chunk_ids", "definition_chunk_ids",
                 "uses_terms", "doc_flags", "chunker")


def begin_bulk(store: Store, index: str) -> dict:
    """Switch `index` to bulk-load settings; returns what to restore with `end_bulk`. A refresh
    interval of -1 found here was left by an interrupted load: the default is restored then."""
    current = store.get_settings(index)
    previous = {
        "refresh_interval": None if current.get("refresh_interval") in (None, "-1") else current["refresh_interval"],
        "number_of_replicas": int(current.get("number_of_replicas", 0)),
    }
    store.put_settings(index, {"index": BULK_SETTINGS})
    return previous


def end_bulk(store: Store, index: str, previous: dict) -> None:
    """Put back the settings `begin_bulk` found (None: the node's default), then refresh."""
    store.put_settings(index, {"index": previous})
    store.refresh(index)


def force_merge(store: Store, index: str, segments: int = 1) -> None:
    """Merge `index` down to `segments` segments (blocks until done; can take minutes on large indices)."""
    store.force_merge(index, segments)
