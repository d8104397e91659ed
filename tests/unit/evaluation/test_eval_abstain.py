"""Gold items that nothing answers, and the abstention / calibration figures over search hits."""

from __future__ import annotations

import json

import pytest
from legalsearch.evaluation import abstain
from legalsearch.evaluation.gold import GoldItem, GoldSetError, load_gold, score_gold

from tests.conftest import REPO

OFFTOPIC = REPO / "evaluation" / "gold" / "offtopic" / "offtopic-dev.jsonl"


def item(**fields) -> GoldItem:
    return GoldItem.model_validate({"language": "en", "query": "q", **fields})


def hit(doc_id: str, section: str, relevance: float | None, via: str = "retrieval", rank: int = 1) -> dict:
    return {"doc_id": doc_id, "section": section, "relevance": relevance, "via": via, "rank": rank}


def test_an_unanswerable_item_needs_no_expected_and_says_off_topic():
    off = item(id="off-1", answerable=False)
    assert off.type == "off-topic" and not off.expected
    with pytest.raises(ValueError, match="answerable false has no 'expected'"):
        item(id="off-2", answerable=False, type="conceptual", expected=[{"doc_id": "msa"}])
    with pytest.raises(ValueError, match="at least one 'expected'"):
        item(id="a-1", type="conceptual")  # an answerable item still needs something to check


def test_the_off_topic_dev_set_loads(tmp_path):
    items = load_gold(OFFTOPIC)
    assert len(items) >= 60
    assert all(not i.answerable and not i.expected and i.type == "off-topic" for i in items)
    assert {i.language for i in items} == {"en", "it"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "query": "q", "language": "en", "answerable": False,
                               "expected": [{"doc_id": "d"}]}) + "\n")
    with pytest.raises(GoldSetError, match=r"bad.jsonl:1"):
        load_gold(bad)


def test_off_topic_items_score_no_hit_at_k():
    items = [item(id="a", type="identifier", expected=[{"doc_id": "msa", "section": "14.3"}]),
             item(id="off", answerable=False)]
    scores = score_gold(items, {"a": [hit("msa", "14.3", 0.9)], "off": [hit("nda", "3", 0.1)]})
    assert scores["overall"]["n_scored"] == 1 and scores["overall"]["hit@5"] == 1.0


def test_rates_count_off_topic_flagged_and_answerable_wrongly_flagged():
    items = [item(id="a1", type="conceptual", expected=[{"doc_id": "msa", "section": "14.3"}]),
             item(id="a2", type="conceptual", expected=[{"doc_id": "msa", "section": "9"}]),
             item(id="off1", answerable=False), item(id="off2", answerable=False),
             item(id="acl", type="conceptual", must_not=[{"doc_id": "note"}])]
    results = {
        "a1": [hit("msa", "14.3", 0.8), hit("msa", "14.4", 0.3, rank=2)],
        "a2": [hit("msa", "2", 0.2), hit("msa", "9", 0.9, via="xref:msa:2", rank=2)],  # expansion: not judged
        "off1": [hit("nda", "3", 0.05)],
        "off2": [hit("nda", "3", 0.5)],
        "acl": [hit("msa", "1", 0.1)],
    }
    report = abstain.evaluate(items, results, thresholds=(0, 0.35))
    off, at = report["rates"]
    assert (off["off_topic_flagged"], off["answerable_flagged"]) == (0, 0)  # 0: abstention off
    assert at["off_topic_flagged"] == 1 and at["off_topic_flagged_share"] == 0.5
    assert at["answerable_flagged"] == 1 and at["answerable_flagged_share"] == 0.5
    assert at["must_not_only"] == 1
    rows = {r["id"]: r for r in report["per_item"]}
    assert rows["a1"]["best_is_expected"] and rows["a2"]["best_relevance"] == 0.2
    # calibration pairs: retrieved hits of answerable and off-topic items
    assert report["calibration"]["pairs"] == 5 and report["calibration"]["positives"] == 1
    assert "| 0.35 | 50.0% (1/2) | 50.0% (1/2) |" in abstain.markdown(report)


def test_rates_by_class_split_the_off_topic_questions_by_their_tag():
    items = [item(id="g1", answerable=False, notes="[class:general] cooking"),
             item(id="g2", answerable=False, notes="[class:general] travel"),
             item(id="l1", answerable=False, notes="[class:legal] visas"),
             item(id="n1", answerable=False),  # untagged: its kind names its class
             item(id="a1", type="conceptual", expected=[{"doc_id": "msa", "section": "1"}], notes="[class:scenario]")]
    results = {"g1": [hit("nda", "3", 0.01)], "g2": [hit("nda", "3", 0.02)], "l1": [hit("nda", "3", 0.5)],
               "n1": [hit("nda", "3", 0.01)], "a1": [hit("msa", "1", 0.04)]}
    report = abstain.evaluate(items, results, thresholds=(0.03, 0.05))
    classes = report["by_class"]
    assert set(classes) == {"off-topic: general", "off-topic: legal", "off-topic: off-topic", "answerable: scenario"}
    assert [r["off_topic_flagged"] for r in classes["off-topic: general"]] == [2, 2]
    assert [r["off_topic_flagged"] for r in classes["off-topic: legal"]] == [0, 0]
    assert [r["answerable_flagged"] for r in classes["answerable: scenario"]] == [0, 1]
    table = abstain.markdown(report, at=(0.05,))
    assert "| class | 0.05 |" in table and "| off-topic: general | 100.0% (2/2) |" in table
    assert "| answerable: scenario | 100.0% (1/1) |" in table
    assert "By class" not in abstain.markdown(report)  # no thresholds asked: no class table


def test_an_item_without_hits_is_flagged_and_one_without_relevance_is_listed():
    items = [item(id="off", answerable=False), item(id="a", type="conceptual", expected=[{"doc_id": "msa"}])]
    report = abstain.evaluate(items, {"off": [], "a": [hit("msa", "1", None)]}, thresholds=(0.35,))
    assert report["rates"][0]["off_topic_flagged"] == 1
    assert report["rates"][0]["answerable_flagged"] == 0  # not computed: the service does not abstain
    assert report["no_relevance"] == ["a"]


def test_brier_and_reliability():
    pairs = [(0.9, 1), (0.8, 1), (0.1, 0), (0.2, 0), (0.85, 0)]
    assert abstain.brier(pairs) == pytest.approx((0.01 + 0.04 + 0.01 + 0.04 + 0.7225) / 5)
    table = {b["bin"]: b for b in abstain.reliability(pairs)}
    assert table["0.8-0.9"]["n"] == 2 and table["0.8-0.9"]["share_relevant"] == 0.5
    assert table["0.9-1.0"]["n"] == 1
    assert abstain.reliability([(1.0, 1)])[0]["bin"] == "0.9-1.0"
    assert abstain.expected_calibration_error([(0.5, 1), (0.5, 0)]) == pytest.approx(0.0)
    assert abstain.brier([]) is None
