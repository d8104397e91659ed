"""`legalsearch explain`: each hit's rank in the BM25, k-NN and identifier lists and its fused score.

OpenSearch 2.19.1's neural-search has no explanation processor for hybrid queries (the node
answers "Invalid processor type explanation_response_processor"), so each sub-query is run on its
own with the same filters to get its ranking; the BM25 list carries OpenSearch's own `_explanation`
(top-level description and value). The fused score is the pipeline's, and for RRF the sum
1/(rank_constant + rank) is recomputed from the lists so the two can be compared.
"""

from __future__ import annotations

from search.config import Settings
from search.indexing.embeddings import get_embedder
from search.query import builder, pipelines
from search.query.identifiers import parse_identifiers
from search.query.models import SearchRequest
from search.query.service import SearchService, filters_for, pipeline_for

LIST_NAMES = {0: "bm25", 1: "knn", 2: "identifier"}


def explain(settings: Settings, req: SearchRequest, depth: int = 100) -> dict:
    service = SearchService(settings)
    store = service.store
    meta = service.index_meta(req.index)
    refs = parse_identifiers(req.query)
    filters = filters_for(req)
    vector = get_embedder(meta.get("embedder", "minilm")).embed_query(req.query).tolist()
    body = builder.search_body("hybrid", text=req.query, vector=vector, filters=filters, size=depth, refs=refs)
    subs = builder.sub_queries(body)
    names = [LIST_NAMES[i] for i in range(len(subs))]

    ranks: dict[str, dict[str, int]] = {}
    bm25_explanations: dict[str, str] = {}
    for name, sub in zip(names, subs, strict=True):
        explain_this = name == "bm25"
        result = store.search(req.index, {"size": depth, "_source": ["chunk_id"], "query": sub}, explain=explain_this)
        for rank, hit in enumerate(result["hits"]["hits"], start=1):
            ranks.setdefault(hit["_source"]["chunk_id"], {})[name] = rank
            if explain_this and "_explanation" in hit:
                e = hit["_explanation"]
                bm25_explanations[hit["_source"]["chunk_id"]] = f"{e['value']:.3f} = {e['description']}"

    pipeline_name, pipeline_body = pipeline_for(req, len(subs))
    pipelines.ensure_pipeline(store, pipeline_name, pipeline_body)
    body["size"] = req.k
    fused = store.search(req.index, body, pipeline=pipeline_name)["hits"]["hits"]
    rows = []
    for rank, hit in enumerate(fused, start=1):
        src = hit["_source"]
        list_ranks = ranks.get(src["chunk_id"], {})
        row = {
            "rank": rank,
            "chunk_id": src["chunk_id"],
            "section": src.get("section"),
            "doc_title": src.get("doc_title"),
            "version": src.get("version"),
            "fused_score": hit["_score"],
            "ranks": {name: list_ranks.get(name) for name in names},
            "bm25_explanation": bm25_explanations.get(src["chunk_id"]),
        }
        if req.fusion == "rrf":
            row["rrf_by_hand"] = sum(1.0 / (req.rank_constant + r) for r in list_ranks.values() if r)
        rows.append(row)
    return {"query": req.query, "pipeline": pipeline_name, "lists": names, "depth": depth,
            "identifiers": [f"{r.kind} {r.label}" for r in refs], "hits": rows}


def render(result: dict) -> str:
    lists = result["lists"]
    head = f"{'#':>3}  {'fused':>8}  " + "  ".join(f"{n:>10}" for n in lists) + "  hit"
    lines = [f"query: {result['query']}  (pipeline {result['pipeline']}; ranks within the top {result['depth']})", head]
    for row in result["hits"]:
        ranks = "  ".join(f"{row['ranks'][n] if row['ranks'][n] else '-':>10}" for n in lists)
        lines.append(f"{row['rank']:>3}  {row['fused_score']:>8.5f}  {ranks}  {row['chunk_id']} "
                     f"(§ {row['section'] or '-'}, {row['doc_title']} v{row['version']})")
    return "\n".join(lines)
