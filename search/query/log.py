"""One record per search in a log index that Dashboards can chart (off with
LEGALSEARCH_LOG_SEARCHES=false): query, filters, hits and their versions, unfollowed
references, mixed versions of one document, timings."""

from __future__ import annotations

from datetime import UTC, datetime

from legalsearch.index import schema
from legalsearch.query.models import SearchRequest, SearchResponse


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def record(req: SearchRequest, response: SearchResponse, timestamp: str, user: str | None = None,
           groups: tuple[str, ...] | None = None) -> dict:
    """The log document (pure): `user` is the verified caller, `groups` those searched (after the
    caller's groups narrowed the requested ones), `groups_requested` what the request asked for and
    `groups_dropped` the requested groups the caller does not hold: an auditor sees an attempt to
    widen, not only its narrowed result."""
    applied = list(req.filters.groups if groups is None else groups)
    return {
        "timestamp": timestamp,
        "user": user,
        "index": req.index,
        "query": req.query,
        "mode": req.mode,
        "fusion": req.fusion.technique if req.mode == "hybrid" else None,
        "rerank": req.rerank.method,
        "routing": req.routing.mode != "off",
        "as_of": req.filters.as_of.isoformat() if req.filters.as_of else None,
        "jurisdiction": list(req.filters.jurisdictions),
        "groups": applied,
        "groups_requested": list(req.filters.groups),
        "groups_dropped": sorted(set(req.filters.groups) - set(applied)),
        "doc_ids": list(req.filters.doc_ids),
        "doc_types": list(req.filters.doc_types),
        "language": list(req.filters.languages),
        "identifiers": response.identifiers,
        "k": req.k,
        "hit_count": len(response.hits),
        "not_found": response.not_found,
        "not_found_reason": response.not_found_reason,
        "hit_chunk_ids": [h.chunk_id for h in response.hits],
        "hit_doc_ids": sorted({h.doc_id for h in response.hits}),
        "hit_versions": sorted({f"{h.doc_id}:{h.version}" for h in response.hits}),
        "xref_chunk_ids": [h.chunk_id for h in response.hits if h.via != "retrieval"],
        "unfollowed_refs": [f"{u['chunk_id']}: {u['ref']} ({u['reason']})" for u in response.unfollowed_refs],
        "mixed_versions": response.mixed_versions,
        "mixed_versions_count": len(response.mixed_versions),
        "took_ms": {k: v for k, v in response.timings_ms.items()},
    }


class RetrievalLog:
    """Writes one record per search into the log index (created on first use). On a secured
    cluster only the `legalsearch_auditor` role (and the admin) may read it: the records hold
    privileged queries, groups and hit ids."""

    def __init__(self, store, index: str):
        self.store = store
        self.index = index
        self._ready = False

    def write(self, req: SearchRequest, response: SearchResponse, user: str | None = None,
              groups: tuple[str, ...] | None = None) -> None:
        if not self._ready:
            body = schema.log_index_body()
            if not self.store.index_exists(self.index):
                self.store.create_index(self.index, body)
            else:  # a log index made by an older version lacks newer fields (strict mapping)
                self.store.put_mapping(self.index, {"properties": body["mappings"]["properties"]})
            self._ready = True
        self.store.index_document(self.index, None, record(req, response, now_iso(), user, groups))
