"""`explain` on the real node: the engine's explanation (hybrid_score_explanation) of the very
ranking `search` returns, and the priors our code adds after fusion."""

from __future__ import annotations

import pytest
from legalsearch.query.explain import explain, render
from legalsearch.query.models import SearchRequest

QUESTION = "liability cap clause 14.3"  # cites a clause and names a clause topic: four lists


def _retrieved(response) -> list[str]:
    return [h.chunk_id for h in response.hits if h.via == "retrieval"]


@pytest.mark.parametrize("fusion", ["normalization", "rrf"])
def test_explained_scores_are_the_searched_ones(service, sample_index, fusion):
    req = SearchRequest(query=QUESTION, index=sample_index[0], k=5, fusion=fusion)
    result = explain(service, req)
    plan = service.plan(req)
    searched = dict((src["chunk_id"], score) for src, score in service.run(plan))
    rows = result["hits"]
    assert [r["chunk_id"] for r in rows] == _retrieved(service.search(req))
    assert result["lists"] == ["bm25", "knn", "identifier", "title"]
    assert result["explain_pipeline"] == plan.pipeline[0] + "-explain"
    processor = next(iter(plan.pipeline[1]["phase_results_processors"][0].values()))
    weights = processor["combination"].get("parameters", {}).get("weights") or [1.0] * len(result["lists"])
    for row in rows:
        assert row["fused_score"] == searched[row["chunk_id"]] == row["engine_score"]  # no prior here
        assert any(row["scores"].values()) and row["unlabelled"] == []
        # the engine's normalized scores combine to the score search ranked by (RRF: their sum)
        normalized = [s["normalized"] if s else 0.0 for s in row["scores"].values()]
        assert sum(w * n for w, n in zip(weights, normalized, strict=True)) == pytest.approx(row["fused_score"],
                                                                                             abs=1e-6)
        # the explain=true run's own fused score drifts a little from the searched one
        assert row["explained_score"] == pytest.approx(row["fused_score"], abs=1e-3)
    top = rows[0]["scores"]
    assert all(top[k] and top[k]["raw"] > 0 and top[k]["normalized"] is not None for k in ("bm25", "knn", "identifier"))
    assert top["identifier"]["normalized"] == (1.0 if fusion == "normalization" else pytest.approx(1 / 61))
    if fusion == "rrf":
        assert result["combination"] == "rrf" and result["normalization"] == f"rrf, rank_constant [{req.fusion.rank_constant}]"
        for row in rows:  # every normalized score is a reciprocal rank (or 0 below a list's top `size`)
            for s in filter(None, row["scores"].values()):
                assert s["normalized"] == 0 or abs(1 / s["normalized"] - req.fusion.rank_constant
                                                   - round(1 / s["normalized"] - req.fusion.rank_constant)) < 1e-3
    else:
        assert result["combination"].startswith("arithmetic_mean, weights [") and result["normalization"] == "min_max"
    assert rows[0]["chunk_id"] in render(result)


def test_the_explanation_pipeline_leaves_searches_alone(service, store, sample_index):
    req = SearchRequest(query=QUESTION, index=sample_index[0], k=8)
    plan = service.plan(req)
    before = service.run(plan)
    before_hits = _retrieved(service.search(req))
    explain(service, req)
    assert service.run(plan) == before and _retrieved(service.search(req)) == before_hits
    searched = store.get_search_pipelines(plan.pipeline[0])[plan.pipeline[0]]
    assert "response_processors" not in searched
    explained = store.get_search_pipelines(plan.pipeline[0] + "-explain")[plan.pipeline[0] + "-explain"]
    assert explained["response_processors"] == [{"hybrid_score_explanation": {}}]


def test_the_routing_prior_is_ours_and_shown_apart(service, sample_index):
    req = SearchRequest(query="How much notice is needed to terminate the agreement?", index=sample_index[0],
                        k=5, routing="filter")
    result = explain(service, req)
    assert result["routed_docs"]
    plan = service.plan(req)
    searched = dict((src["chunk_id"], score) for src, score in service.run(plan))
    rows = result["hits"]
    assert any(r["priors"]["routing"] > 0 for r in rows)
    for row in rows:
        assert row["fused_score"] == searched[row["chunk_id"]]
        priors = row["priors"]
        assert row["engine_score"] + priors["recitals"] + priors["routing"] + priors["current"] == pytest.approx(
            row["fused_score"], abs=1e-9)
        assert row["explained_score"] == pytest.approx(row["engine_score"], abs=1e-3)


def test_the_other_languages_places_are_explained_where_search_puts_them(service, sample_index):
    req = SearchRequest(query="Who owns the intellectual property created under the services agreement?",
                        index=sample_index[0], k=10)
    result = explain(service, req)
    searched = service.search(req)
    assert [r["chunk_id"] for r in result["hits"]] == [h.chunk_id for h in searched.hits if h.via == "retrieval"][:10]
    places = [r for r in result["hits"] if r["language_place"]]
    assert [r["rank"] for r in places] == [8, 9, 10] and {r["language_place"] for r in places} == {"it"}
    assert all(r["engine_score"] is None and r["priors"] == {} for r in places)  # scored by the Italian search alone
    assert all(r["language_place"] is None and r["engine_score"] is not None for r in result["hits"][:7])
    assert "searched in it alone" in render(result)
    # where the question's subject points to a document of the other language, its places are 2-4
    req = SearchRequest(query="Quanto dura l'obbligo di riservatezza?", index=sample_index[0], k=10)
    result, searched = explain(service, req), service.search(req)
    assert [r["chunk_id"] for r in result["hits"]] == [h.chunk_id for h in searched.hits if h.via == "retrieval"][:10]
    assert [r["rank"] for r in result["hits"] if r["language_place"] == "en"] == [2, 3, 4]
    assert all(r["language_place"] is None and r["engine_score"] is not None
               for r in result["hits"][:1] + result["hits"][4:])


def test_the_recitals_prior_is_ours_and_shown_apart(service, sample_index):
    # the MSA's BACKGROUND recitals say what the Supplier provides, as its operative clauses do
    question = "Which hosted data processing, analytics and support services does the Supplier provide?"
    req = SearchRequest(query=question, index=sample_index[0], k=10)
    rows = explain(service, req)["hits"]
    recitals = [r for r in rows if r["chunk_id"] == "msa-acme-northwind:1:0002"]
    assert recitals, [r["chunk_id"] for r in rows]
    assert recitals[0]["priors"]["recitals"] == pytest.approx(-req.fusion.recitals_prior) and req.fusion.recitals_prior > 0
    assert all(r["priors"]["recitals"] == 0 for r in rows if r["chunk_id"] != "msa-acme-northwind:1:0002")
    off = SearchRequest(query=question, index=sample_index[0], k=10, recitals_prior=0)
    fused_off = {src["chunk_id"]: score for src, score in service.run(service.plan(off))}
    assert fused_off["msa-acme-northwind:1:0002"] == pytest.approx(recitals[0]["fused_score"] + req.fusion.recitals_prior,
                                                                   abs=1e-9)
