"""The relevance features, the calibration files and the abstention decision (pure logic; the
features read from a real index are checked in tests/integration/test_abstain.py)."""

from __future__ import annotations

import json
import math
from importlib import resources

import pytest
from legalsearch.errors import ConfigError
from legalsearch.query import relevance
from legalsearch.query.identifiers import QueryRef, parse_identifiers
from legalsearch.query.models import DEFAULT_ABSTAIN, SearchRequest


def test_idf_falls_with_document_frequency_and_is_never_negative():
    n = 145
    values = [relevance.idf(df, n) for df in (0, 1, 10, 80, 145)]
    assert values == sorted(values, reverse=True)
    assert all(v > 0 for v in values)


def test_content_terms_leave_out_function_and_citation_words():
    weights = relevance.content_terms({"what": 0, "the": 140, "claus": 80, "art": 30, "liabil": 7, "cap": 2, "x": 0}, 145)
    assert set(weights) == {"claus", "liabil", "cap"}  # the stem "claus" is no listed word: a low weight instead
    assert weights["cap"] > weights["liabil"] > weights["claus"]


def test_coverage_is_the_idf_weighted_share_carried():
    weights = {"liabil": 2.0, "cap": 6.0}
    assert relevance.coverage(weights, {"cap", "fee"}) == pytest.approx(0.75)
    assert relevance.coverage(weights, set()) == 0.0
    assert relevance.coverage({}, {"cap"}) == 0.0


def test_absent_share_counts_terms_no_chunk_carries():
    weights = {"tiramisu": 5.0, "recip": 5.0, "cap": 2.0}
    assert relevance.absent_share(weights, {"tiramisu": 0, "recip": 0, "cap": 3}) == pytest.approx(10 / 12)
    assert relevance.absent_share(weights, {"tiramisu": 1, "recip": 2, "cap": 3}) == 0.0


def test_cited_section_of_the_question_and_not_of_an_external_act():
    refs = parse_identifiers("What is the liability cap in clause 14.3?")
    assert relevance.cites({"section": "14.3"}, refs) == 1.0
    assert relevance.cites({"section": "14.4"}, refs) == 0.0
    assert relevance.cites({"section": None}, refs) == 0.0
    assert relevance.cites({"section": "123"}, [QueryRef("section", "123", "s.123 IA 1986", external=True)]) == 0.0


def test_passage_and_document_text_read_the_hit():
    source = {"heading_path": ["14 Liability", "14.3 Cap"], "text": "The cap is ...", "doc_title": "MSA",
              "summary": "Master services agreement"}
    assert "14 Liability > 14.3 Cap" in relevance.passage_text(source)
    assert "The cap is" in relevance.passage_text(source)
    assert relevance.document_text(source) == "MSA\nMaster services agreement"


def test_probability_is_a_sigmoid_of_the_weighted_features():
    cal = relevance.Calibration(embedder="x", version=1, coef={"cosine": 2.0, "cited": 1.0}, intercept=-1.0)
    assert cal.probability({"cosine": 0.5}) == pytest.approx(0.5)
    assert cal.probability({"cosine": 0.5, "cited": 1.0}) == pytest.approx(1 / (1 + math.exp(-1)))
    assert cal.probability({"cosine": -1000}) == pytest.approx(0.0)  # no overflow either way
    assert cal.probability({"cosine": 1000}) == pytest.approx(1.0)


@pytest.mark.parametrize("embedder", ["e5", "minilm"])
def test_the_shipped_calibrations_load_and_order_an_answer_above_an_off_topic_passage(embedder):
    cal = relevance.load_calibration(embedder)
    assert cal.embedder == embedder and cal.version >= 1
    assert set(cal.coef) <= set(relevance.FEATURES)
    data = json.loads(resources.files("legalsearch.query").joinpath("calibration", f"{embedder}.json").read_text())
    assert data["fitted"]["held_out"]["brier"] is not None  # the file records how it did on held-out questions
    answer = {"cosine": 0.87, "coverage": 0.9, "doc_coverage": 0.3, "absent": 0.0, "cited": 1.0}
    off_topic = {"cosine": 0.75, "coverage": 0.0, "doc_coverage": 0.0, "absent": 1.0, "cited": 0.0}
    if embedder == "minilm":
        answer["cosine"], off_topic["cosine"] = 0.6, 0.1
    assert cal.probability(answer) > DEFAULT_ABSTAIN > cal.probability(off_topic)


def test_an_unknown_embedder_or_a_malformed_file_is_a_clear_error():
    with pytest.raises(ConfigError, match=r"no relevance calibration for the embedder 'bert'.*shipped: .*e5"):
        relevance.load_calibration("bert")
    with pytest.raises(ConfigError, match="not a relevance calibration"):
        relevance.Calibration.from_dict({"embedder": "e5", "coef": {"cosine": 1}}, "x.json")
    with pytest.raises(ConfigError, match="unknown features"):
        relevance.Calibration.from_dict({"embedder": "e5", "version": 1, "coef": {"bm25": 1}, "intercept": 0})


def test_abstains_only_when_no_known_relevance_reaches_the_threshold():
    assert relevance.abstains([0.1, 0.2], 0.35) == (True, 0.2)
    assert relevance.abstains([0.1, 0.5], 0.35) == (False, 0.5)
    assert relevance.abstains([0.35], 0.35) == (False, 0.35)
    assert relevance.abstains([0.1], 0) == (False, 0.1)  # 0 turns abstention off
    assert relevance.abstains([], 0.35) == (False, None)  # no hits: not_found says so already
    assert relevance.abstains([None, None], 0.35) == (False, None)  # not computed: no judgement
    assert relevance.not_found_reason(0.0123, 0.02) == "no passage answers: best relevance 0.012 < 0.02"


def test_abstain_is_a_request_option_with_bounds():
    req = SearchRequest(query="q")
    assert req.abstain == DEFAULT_ABSTAIN and req.flat()["abstain"] == DEFAULT_ABSTAIN
    assert SearchRequest(query="q", abstain=0).abstain == 0
    assert req.replace(abstain=0.5).abstain == 0.5
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError):
            SearchRequest(query="q", abstain=bad)


class _TermVectorsStore:
    """`_mtermvectors` over artificial documents, analysed by whitespace and lower-casing."""

    def __init__(self):
        self.asked: list[list[str]] = []

    def call(self, method, path, body):
        self.asked.append([d["doc"][relevance.TERMS_FIELD] for d in body["docs"]])

        def vectors(d):
            words = d["doc"][relevance.TERMS_FIELD].lower().split()
            if d["term_statistics"]:
                return {"field_statistics": {"doc_count": 50}, "terms": {w: {"doc_freq": 3} for w in words}}
            return {"terms": {w: {} for w in words}}
        return 200, {"docs": [{"term_vectors": {relevance.TERMS_FIELD: vectors(d)}} for d in body["docs"]]}


def test_question_statistics_are_one_small_request():
    store = _TermVectorsStore()
    assert relevance.question_statistics(store, "idx", "The notice") == ({"the": 3, "notice": 3}, 50)
    assert store.asked == [["The notice"]]


def test_passage_terms_analyses_each_distinct_text_once_and_remembers_it():
    store, cache = _TermVectorsStore(), relevance.TermsCache(size=3)
    texts = ["Notice Period", "Governing Law", "notice period", "Governing Law"]
    carried = relevance.passage_terms(store, "idx", texts, cache)
    assert carried == [{"notice", "period"}, {"governing", "law"}, {"notice", "period"}, {"governing", "law"}]
    assert store.asked[-1] == ["Notice Period", "Governing Law", "notice period"]  # distinct only
    assert relevance.passage_terms(store, "idx", ["Governing Law", "Term"], cache) == [{"governing", "law"}, {"term"}]
    assert store.asked[-1] == ["Term"]  # the known text not again
    asked = len(store.asked)
    assert relevance.passage_terms(store, "idx", ["Term", "Governing Law"], cache) == [{"term"}, {"governing", "law"}]
    assert len(store.asked) == asked  # all known: no request
    relevance.passage_terms(store, "other-idx", ["Term"], cache)
    assert store.asked[-1] == ["Term"]  # another index (generation): its own analyzer
    # at most `size` texts are kept, the least recently used out first ("Notice Period" went)
    relevance.passage_terms(store, "idx", ["Notice Period", "Term"], cache)
    assert store.asked[-1] == ["Notice Period"]
    assert relevance.passage_terms(store, "idx", ["Term"], None) == [{"term"}]
    assert store.asked[-1] == ["Term"]  # no cache: every text asked
