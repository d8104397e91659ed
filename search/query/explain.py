"""`legalsearch explain`: each hit's rank in the BM25, k-NN and identifier lists and its fused score.

The search is planned by `SearchService.plan`, as `search` plans it (routing included).
OpenSearch 2.19.1's neural-search has no explanation processor for hybrid queries (the node
answers "Invalid processor type explanation_response_processor"), so each sub-query is run on its
own with the same filters to get its ranking; the BM25 list carries OpenSearch's own `_explanation`
(top-level description and value). The fused score is the pipeline's, and for RRF the sum
1/(rank_constant + rank) is recomputed from the lists so the two can be compared.
"""

from __future__ import annotations

from legalsearch.errors import QueryError
from legalsearch.query import bodies
from legalsearch.query.models import SearchRequest
from legalsearch.query.service import SearchService

LIST_NAMES = ("bm25", "knn", "identifier", "title")
# each list is one search of `depth` hits (the BM25 one with explanations): OpenSearch refuses more
# than index.max_result_window (10,000) with a raw "Result window is too large", and a thousand
# ranks already shows where a hit stands
MAX_DEPTH = 1000


def explain(service: SearchService, req: SearchRequest, depth: int = 100) -> dict:
    """The search `req` describes, planned exactly as `legalsearch search` plans it, with each hit's
    rank in every sub-query list (run alone, at `depth`, under the same filters)."""
    if not 1 <= depth <= MAX_DEPTH:
        raise QueryError(f"explain depth must be between 1 and {MAX_DEPTH} (got {depth}): each list is one search of "
                         "that many hits")
    plan = service.plan(req)
    store = service.store
    subs = bodies.sub_queries(plan.body)
    names = list(plan.kinds)

    ranks: dict[str, dict[str, int]] = {}
    bm25_explanations: dict[str, str] = {}
    for name, sub in zip(names, subs, strict=True):
        explain_this = name == "bm25"
        result = store.search(plan.index, {"size": depth, "_source": ["chunk_id"], "query": sub}, explain=explain_this)
        for rank, hit in enumerate(result["hits"]["hits"], start=1):
            ranks.setdefault(hit["_source"]["chunk_id"], {})[name] = rank
            if explain_this and "_explanation" in hit:
                e = hit["_explanation"]
                bm25_explanations[hit["_source"]["chunk_id"]] = f"{e['value']:.3f} = {e['description']}"

    fused = service.run(plan, {**plan.body, "size": req.k})
    rows = []
    for rank, (src, score) in enumerate(fused, start=1):
        list_ranks = ranks.get(src["chunk_id"], {})
        row = {
            "rank": rank,
            "chunk_id": src["chunk_id"],
            "section": src.get("section"),
            "doc_title": src.get("doc_title"),
            "version": src.get("version"),
            "fused_score": score,
            "ranks": {name: list_ranks.get(name) for name in names},
            "bm25_explanation": bm25_explanations.get(src["chunk_id"]),
        }
        if req.fusion == "rrf" and plan.pipeline:
            # each sub-query of a hybrid query hands the fusion its top `size` hits only
            row["rrf_by_hand"] = sum(1.0 / (req.rank_constant + r) for r in list_ranks.values() if r and r <= req.k)
        rows.append(row)
    return {"query": req.query, "pipeline": plan.pipeline[0] if plan.pipeline else None, "lists": names,
            "depth": depth, "identifiers": [f"{r.kind} {r.label}" for r in plan.refs],
            "routed_docs": list(plan.routed), "named_by": list(plan.named_by), "focused": plan.focused, "hits": rows}


def render(result: dict) -> str:
    lists = result["lists"]
    head = f"{'#':>3}  {'fused':>8}  " + "  ".join(f"{n:>10}" for n in lists) + "  hit"
    lines = [f"query: {result['query']}  (pipeline {result['pipeline']}; ranks within the top {result['depth']})", head]
    if result.get("routed_docs"):
        named = f" (named by: {', '.join(result['named_by'])})" if result.get("named_by") else ""
        lines.insert(1, "routed to: " + ", ".join(result["routed_docs"]) + named)
    if result.get("focused"):
        lines.insert(2, f"searched inside it as: {result['focused']}")
    for row in result["hits"]:
        ranks = "  ".join(f"{row['ranks'][n] if row['ranks'][n] else '-':>10}" for n in lists)
        lines.append(f"{row['rank']:>3}  {row['fused_score']:>8.5f}  {ranks}  {row['chunk_id']} "
                     f"(§ {row['section'] or '-'}, {row['doc_title']} v{row['version']})")
    return "\n".join(lines)
