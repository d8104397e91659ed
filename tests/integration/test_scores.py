"""Every retrieved hit carries the engine's fused score (and the reranker's where one ran), on the
real node and models; the passages expansion adds carry none."""

from __future__ import annotations

from legalsearch.query.models import CONTRACT_FIELDS, SearchRequest


def ask(service, index, query, **kw):
    return service.search(SearchRequest(query=query, index=index, **kw))


def test_a_fused_search_scores_every_retrieved_hit_in_descending_order(service, sample_index):
    response = ask(service, sample_index[0], "What is the liability cap in clause 14.3?", k=8)
    retrieved = [h for h in response.hits if h.via == "retrieval"]
    added = [h for h in response.hits if h.via != "retrieval"]
    assert len(retrieved) == 8 and added, "the question should pull in a cross-referenced clause"
    fused = [h.fused_score for h in retrieved]
    assert all(isinstance(s, float) for s in fused)
    assert fused == sorted(fused, reverse=True) and fused[0] > fused[-1]
    assert [h.score for h in retrieved] == fused and all(h.rerank_score is None for h in retrieved)
    assert all(h.score is None and h.fused_score is None and h.rerank_score is None for h in added)
    dumped = response.model_dump(mode="json", include=CONTRACT_FIELDS)["hits"][0]
    assert dumped["score"] == dumped["fused_score"] == fused[0] and dumped["rerank_score"] is None


def test_bm25_scores_are_the_engines_bm25_scores(service, sample_index):
    response = ask(service, sample_index[0], "notice to quit", mode="bm25", k=5, expand_xrefs=False, routing="off")
    scores = [h.score for h in response.hits]
    assert len(scores) == 5 and all(s > 0 for s in scores) and scores == sorted(scores, reverse=True)


def test_a_reranked_search_shows_the_rerankers_score_and_keeps_the_fused_one(service, sample_index):
    response = ask(service, sample_index[0], "limitation of liability cap", rerank="e5", rerank_depth=10, k=5,
                   expand_xrefs=False)
    assert response.rerank == "e5" and len(response.hits) == 5
    assert all(h.score == h.rerank_score is not None for h in response.hits)
    assert all(isinstance(h.fused_score, float) for h in response.hits)
    reranked = [h.rerank_score for h in response.hits]
    assert reranked == sorted(reranked, reverse=True)
