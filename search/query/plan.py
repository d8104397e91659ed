"""Planning a search: everything decided before the fused query runs, in one record that
`search`, `explain` and the evaluation share (they plan through `SearchService.plan`).

The pure decisions live here: which documents routing may restrict to, how many candidates
to fetch, whether the query needs a vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from search.query.identifiers import QueryRef
from search.query.models import Filters, SearchRequest


@dataclass(frozen=True)
class SearchPlan:
    """A request made concrete: identifiers parsed, filters (with routing applied), the query
    vector, the request body and the fusion pipeline that will rank it."""

    request: SearchRequest
    meta: dict                      # the index's _meta (embedder, chunker, ...)
    refs: tuple[QueryRef, ...]      # identifiers the query cites
    filters: Filters                # as searched: the request's filters + routed doc_keys
    routing: str                    # effective routing: off | filter | boost
    routed: tuple[str, ...]         # doc_keys routing ranked first
    vector: list[float] | None
    body: dict                      # the search request body (a hybrid query or a single one)
    pipeline: tuple[str, dict] | None  # (name, body) of the fusion pipeline; None for one list
    timings: dict[str, float] = field(default_factory=dict)
    user: str | None = None         # the verified caller (search.security.principal), for the log


def effective_routing(routing: str, refs) -> str:
    """"auto" restricts the search to the routed documents unless the query cites a section
    ("s.21A", "clause 14.3", "Schedule 1"): then the exact label decides where to look, and
    cutting the search down to the documents whose title and summary match best could cut away
    the one that holds the section (measured on the gold set, docs/results.md)."""
    if routing != "auto":
        return routing
    return "off" if any(not r.external for r in refs) else "filter"


def needs_vector(req: SearchRequest) -> bool:
    """k-NN needs the query vector, and so does routing (it ranks documents by vector too)."""
    return req.mode in ("hybrid", "knn") or req.routing != "off"


def candidate_size(req: SearchRequest) -> int:
    """How many fused candidates to fetch: k, or more when a reranker or a caller wants a deeper list."""
    return max(req.k, req.candidates or 0, req.rerank_depth if req.rerank != "off" else 0)
