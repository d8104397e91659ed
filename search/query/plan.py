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
    routing: str                    # effective routing: off | filter | boost | prior
    routed: tuple[str, ...]         # doc_keys routing ranked first
    vector: list[float] | None
    body: dict                      # the search request body (a hybrid query or a single one)
    pipeline: tuple[str, dict] | None  # (name, body) of the fusion pipeline; None for one list
    timings: dict[str, float] = field(default_factory=dict)
    user: str | None = None         # the verified caller (search.security.principal), for the log
    prior: float = 0.0              # routing prior weight applied to the fused list (0: none)
    kinds: tuple[str, ...] = ()     # the fused lists, in body order: bm25, knn, identifier, title


def effective_routing(routing: str, refs) -> str:
    """"auto" restricts the search to the routed documents unless the query cites a section
    ("s.21A", "clause 14.3", "Schedule 1"): then the exact label decides where to look, and
    cutting the search down to the documents whose title and summary match best could cut away
    the one that holds the section (measured on the gold set, docs/results.md). ("prior" mode,
    every document searched and the routed ones preferred by the routing prior, was tried for
    cited sections: a wrongly routed document then outranks the cited section, and the round-2
    identifier and cross-reference classes gained nothing; it is not part of "auto".)"""
    if routing != "auto":
        return routing
    return "off" if any(not r.external for r in refs) else "filter"


def needs_vector(req: SearchRequest) -> bool:
    """k-NN needs the query vector, and so does routing (it ranks documents by vector too)."""
    return req.mode in ("hybrid", "knn") or req.routing != "off"


def candidate_size(req: SearchRequest, prior: float = 0.0) -> int:
    """How many fused candidates to fetch: k, or more when a reranker or a caller wants a deeper
    list, or when the routing prior re-sorts them (twice k, so a lower-fused chunk of the best
    document can move up into the top k)."""
    return max(req.k, req.candidates or 0, req.rerank_depth if req.rerank != "off" else 0,
               min(2 * req.k, 400) if prior else 0)


def routing_prior(req: SearchRequest, routing: str, routed: tuple[str, ...]) -> float:
    """The weight of the routing prior for this plan: when routing restricted the search to
    more than one document (or ranked them without restricting: "prior"), and the fused
    scores are min-max normalized (hybrid, normalization fusion): the prior is in those units
    (0..1), and would swamp reciprocal-rank scores (~0.016) or mean little to raw BM25 ones."""
    if req.mode != "hybrid" or req.fusion != "normalization" or req.normalization != "min_max":
        return 0.0
    if routing == "prior" or (routing == "filter" and len(routed) > 1):
        return req.routing_prior
    return 0.0


def apply_routing_prior(ranked: list[tuple[dict, float]], routed: tuple[str, ...], weight: float
                        ) -> list[tuple[dict, float]]:
    """Add `weight` x (n - i) / n to the fused score of a chunk whose document was routed i-th of
    n (1 for the first; a document routing did not rank gets nothing) and re-sort, ties by the
    fused order: chunks of the document that best matches the question by title, parties and
    summary come first, unless another document's chunk is better by more than the difference
    (look-alike NDAs: the clause of the NDA the question names, not the same clause of its
    sibling)."""
    if not weight or not routed:
        return ranked
    position = {key: i for i, key in enumerate(routed)}
    n = len(routed)

    def bonus(source: dict) -> float:
        i = position.get(source.get("doc_key"))
        return 0.0 if i is None else weight * (n - i) / n

    rescored = [(src, score + bonus(src), i) for i, (src, score) in enumerate(ranked)]
    return [(src, score) for src, score, _ in sorted(rescored, key=lambda x: (-x[1], x[2]))]
