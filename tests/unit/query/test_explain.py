"""Reading the engine's explanation of a hybrid query: `_explanation`s captured from the node
(tests/unit/query/data/explanations.json, see its "captured"), not written by hand."""

import copy
import json
from pathlib import Path

import pytest
from legalsearch.query import bodies, fusion
from legalsearch.query.explain import named_body, parse_explanation, render
from legalsearch.query.models import Filters

CAPTURED = json.loads((Path(__file__).parent / "data" / "explanations.json").read_text())


def _case(name: str) -> tuple[list[str], list[dict]]:
    case = CAPTURED[name]
    return case["kinds"], case["hits"]


def test_min_max_hit_matched_by_every_list():
    kinds, hits = _case("normalization")
    why = parse_explanation(hits[0], kinds)
    assert why["explained_score"] == hits[0]["_explanation"]["value"] == hits[0]["_score"]
    assert why["combination"] == "arithmetic_mean, weights [0.06, 0.14, 0.5, 0.3]"
    assert why["normalization"] == "min_max"
    assert list(why["scores"]) == ["bm25", "knn", "identifier", "title"]
    assert why["scores"]["bm25"] == {"raw": 40.698242, "normalized": 0.58849955, "explanation": "40.698 = sum of:"}
    assert why["scores"]["knn"]["explanation"] == "0.944 = within top 3"
    assert why["scores"]["identifier"]["normalized"] == 1.0  # the clause the question cites
    assert why["unlabelled"] == []


def test_min_max_lists_a_hit_did_not_match_are_none():
    kinds, hits = _case("normalization")
    only_title = parse_explanation(hits[1], kinds)["scores"]
    assert [k for k, v in only_title.items() if v] == ["title"]
    no_identifier = parse_explanation(hits[2], kinds)["scores"]
    assert no_identifier["identifier"] is None
    assert no_identifier["bm25"]["raw"] == 43.71488 and no_identifier["title"]["raw"] == 10.930026


@pytest.mark.parametrize("i", range(3))
def test_the_labelled_normalized_scores_combine_to_the_search_score(i):
    """The labels are right: the pipeline's weights (in body order) times the normalized scores
    give the score the plain search returned for that hit."""
    case = CAPTURED["normalization"]
    hit = case["hits"][i]
    weights = dict(zip(case["kinds"], fusion.list_weights(tuple(case["kinds"]), (0.3, 0.7), 0.3), strict=True))
    scores = parse_explanation(hit, case["kinds"])["scores"]
    combined = sum(weights[k] * s["normalized"] for k, s in scores.items() if s)
    assert combined == pytest.approx(case["search_scores"][hit["_id"]], abs=1e-6)


def test_rrf_normalized_scores_are_reciprocal_ranks():
    kinds, hits = _case("rrf")
    why = parse_explanation(hits[0], kinds)
    assert why["combination"] == "rrf" and why["normalization"] == "rrf, rank_constant [60]"
    assert why["scores"]["bm25"]["normalized"] == pytest.approx(1 / (60 + 2))
    assert why["scores"]["identifier"]["normalized"] == pytest.approx(1 / (60 + 1))
    assert why["explained_score"] == pytest.approx(1 / (60 + 2) + 1 / (60 + 2) + 1 / (60 + 1) + 0.0)
    # a list the hit matches below its top `size` (k) hands it nothing: raw score, RRF 0
    third = parse_explanation(hits[2], kinds)["scores"]
    assert third["bm25"]["raw"] > 0 and third["bm25"]["normalized"] == 0.0
    assert third["identifier"] is None


def test_a_plain_query_is_one_list():
    kinds, hits = _case("plain")
    why = parse_explanation(hits[0], kinds)
    assert kinds == ["bm25"] and why["combination"] is None
    assert why["scores"] == {"bm25": {"raw": hits[0]["_score"], "normalized": None, "explanation": "44.937 = sum of:"}}


def test_without_the_explanation_processor_the_query_level_is_read():
    kinds, hits = _case("no_processor")
    why = parse_explanation(hits[1], kinds)
    assert why["explained_score"] == hits[1]["_score"] == 0.3 and why["normalization"] is None
    assert why["scores"]["bm25"] is None and why["scores"]["title"]["raw"] == 18.541245


def test_unknown_lists_are_kept_unlabelled():
    kinds, hits = _case("normalization")
    hit = copy.deepcopy(hits[2])
    hit["matched_queries"] = ["bm25"]  # says less than the explanation: which are which is unknown
    why = parse_explanation(hit, kinds)
    assert all(v is None for v in why["scores"].values())
    assert [u["raw"] for u in why["unlabelled"]] == [43.71488, 0.9454284, 10.930026]


def test_named_body_names_each_sub_query_without_touching_the_plan():
    subs = bodies.sub_query_list("hybrid", text="notice", vector=[0.1, 0.2], filters=Filters(), size=5, refs=[],
                                 boost_doc_keys=(), model_id=None, titles=[])
    body = bodies.body_of("hybrid", 5, subs)
    before = copy.deepcopy(body)
    named = named_body(body, [k for k, _ in subs])
    assert body == before
    queries = named["query"]["hybrid"]["queries"]
    ((qtype, inner),) = queries[1].items()
    assert qtype == "knn" and inner["vector"]["_name"] == "knn"  # inside the field: knn takes no other key
    assert next(iter(queries[0].values()))["_name"] == "bm25"
    plain = named_body({"query": {"bool": {"must": []}}}, ["bm25"])
    assert plain["query"]["bool"]["_name"] == "bm25"


def test_explain_pipeline_adds_the_processor_under_its_own_name():
    name, body = fusion.pipeline_for("normalization", 60, "min_max", (0.3, 0.7), ("bm25", "knn"))
    before = copy.deepcopy(body)
    xname, xbody = fusion.explain_pipeline(name, body)
    assert xname == name + "-explain" and body == before
    assert xbody["phase_results_processors"] == body["phase_results_processors"]
    assert xbody["response_processors"] == [{"hybrid_score_explanation": {}}]


def test_render_shows_each_list_raw_and_normalized():
    kinds, hits = _case("normalization")
    rows = []
    for rank, hit in enumerate(hits, start=1):
        why = parse_explanation(hit, kinds)
        rows.append({"rank": rank, "chunk_id": hit["_id"], "section": hit["_source"]["section"],
                     "doc_title": hit["_source"]["doc_title"], "version": hit["_source"]["version"],
                     "fused_score": why["explained_score"], "engine_score": why["explained_score"],
                     "priors": {"routing": 0.0, "current": 0.0}, "scores": why["scores"]})
    text = render({"query": "q", "pipeline": "p", "lists": kinds, "combination": "arithmetic_mean",
                   "normalization": "min_max", "hits": rows, "expanded": [
                       {"chunk_id": "x:1:0001", "via": "xref:y", "section": "1", "doc_title": "X", "version": "1"}]})
    assert "40.698>0.5885" in text and "min_max normalization, arithmetic_mean combination" in text
    assert "+ x:1:0001 (via xref:y" in text


def test_render_says_which_glossary_words_bm25_read_and_where():
    base = {"query": "q", "pipeline": "p", "lists": ["bm25"], "hits": []}
    across = render({**base, "glossary": {"language": "it", "words": ["foro", "competente"], "search": "across"}})
    assert "BM25 of the search in it alone also read, from the glossary: foro competente" in across
    named = render({**base, "glossary": {"language": "en", "words": ["court"], "search": "named"}})
    assert "BM25 of the named document's search also read, from the glossary: court" in named
    assert "glossary" not in render({**base, "glossary": None})
