"""The routing prior and the other pure planning decisions."""

from search.query.models import SearchRequest
from search.query.plan import apply_routing_prior, candidate_size, routing_prior


def _src(key, cid):
    return {"doc_key": key, "chunk_id": cid}


def test_routing_prior_ranks_the_first_routed_documents_chunks_first():
    ranked = [(_src("b:1", "b1"), 0.9), (_src("a:1", "a1"), 0.7), (_src("c:1", "c1"), 0.65), (_src("a:1", "a2"), 0.2)]
    routed = ("a:1", "b:1", "c:1")
    # bonus: a +0.3 (3/3 x 0.3), b +0.2, c +0.1 -> a1 1.0, b1 1.1, c1 0.75, a2 0.5
    order = [s["chunk_id"] for s, _ in apply_routing_prior(ranked, routed, 0.3)]
    assert order == ["b1", "a1", "c1", "a2"]
    # a large weight puts the first document's chunks first: a1 0.7+3, a2 0.2+3, b1 0.9+2, c1 0.65+1
    assert [s["chunk_id"] for s, _ in apply_routing_prior(ranked, routed, 3.0)] == ["a1", "a2", "b1", "c1"]


def test_routing_prior_leaves_unrouted_documents_without_bonus_and_keeps_ties_in_fused_order():
    ranked = [(_src("x:1", "x1"), 0.5), (_src("y:1", "y1"), 0.5), (_src("a:1", "a1"), 0.1)]
    out = apply_routing_prior(ranked, ("a:1",), 0.5)
    assert [(s["chunk_id"], round(score, 3)) for s, score in out] == [("a1", 0.6), ("x1", 0.5), ("y1", 0.5)]
    assert apply_routing_prior(ranked, (), 0.5) == ranked
    assert apply_routing_prior(ranked, ("a:1",), 0.0) == ranked


def test_prior_weight_applies_to_filtered_and_prior_routing_only():
    req = SearchRequest(query="q", routing_prior=0.5, k=10)
    assert routing_prior(req, "filter", ("a", "b")) == 0.5
    assert routing_prior(req, "filter", ("a",)) == 0.0  # one document: nothing to prefer
    assert routing_prior(req, "prior", ("a",)) == 0.5   # all documents searched, "a" preferred
    assert routing_prior(req, "off", ()) == 0.0
    assert candidate_size(req, 0.5) == 20 and candidate_size(req, 0.0) == 10
    for other in ({"fusion": "rrf"}, {"mode": "bm25"}, {"normalization": "l2"}):  # not min-max fused scores
        assert routing_prior(req.model_copy(update=other), "filter", ("a", "b")) == 0.0
