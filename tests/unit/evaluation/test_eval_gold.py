"""Gold-set format, section normalisation and scoring of CLI-shaped hits."""

import json
import math
from pathlib import Path

import pytest
from legalsearch.evaluation.gold import (
    GoldItem,
    GoldSetError,
    load_gold,
    normalize_section,
    score_gold,
    split_gold,
)


def _hit(rank, doc_id, section=None, version=None, via="retrieval"):
    return {
        "rank": rank,
        "doc_id": doc_id,
        "section": section,
        "version": version,
        "chunk_id": f"{doc_id}:{version}:{rank}",
        "via": via,
    }


def _item(**fields):
    base = {
        "id": "q",
        "query": "?",
        "type": "identifier",
        "language": "en",
        "expected": [{"doc_id": "lease"}],
    }
    return GoldItem.model_validate({**base, **fields})


@pytest.mark.parametrize(
    "label, normalized",
    [
        ("14.3", "14.3"),
        ("Art. 5", "5"),
        ("art.5", "5"),
        ("ART 5", "5"),
        ("Articolo 1341", "1341"),
        ("Article 12", "12"),
        ("Section 21", "21"),
        ("Sec. 4(b)", "4(b)"),
        ("Clause 14.3", "14.3"),
        ("cl. 2", "2"),
        ("s.21A", "21a"),
        ("§ 7", "7"),
        ("14.3.", "14.3"),
        ("  21 A ", "21a"),
        ("Schedule 1", "schedule1"),
        ("Allegato B", "allegatob"),
        (None, None),
    ],
)
def test_normalize_section(label, normalized):
    assert normalize_section(label) == normalized


def test_scores_hit_at_k_mrr_and_first_rank():
    items = [
        _item(id="a", expected=[{"doc_id": "lease", "section": "14.3"}]),
        _item(id="b", type="conceptual", expected=[{"doc_id": "nda"}]),
        _item(id="c", type="conceptual", language="it", expected=[{"doc_id": "contratto"}]),
    ]
    results = {
        "a": [_hit(1, "lease", "Clause 14.3"), _hit(2, "lease", "2")],  # correct at rank 1
        "b": [_hit(1, "dpa"), _hit(2, "dpa"), _hit(3, "nda")],  # correct at rank 3
        "c": [_hit(r, "other") for r in range(1, 11)],  # never
    }
    scores = score_gold(items, results)
    overall = scores["overall"]
    assert overall["hit@5"] == pytest.approx((1 + 1 + 0) / 3)
    assert overall["hit@10"] == pytest.approx((1 + 1 + 0) / 3)
    assert overall["mrr"] == pytest.approx((1 / 1 + 1 / 3 + 0) / 3)
    assert overall["mean_first_rank"] == pytest.approx((1 + 3) / 2)
    assert overall["found"] == 2
    assert [r["first_rank"] for r in scores["per_item"]] == [1, 3, None]
    assert scores["by_type"]["identifier"]["mrr"] == pytest.approx(1 / 1)
    assert scores["by_type"]["conceptual"]["mrr"] == pytest.approx((1 / 3 + 0) / 2)
    assert scores["by_language"]["en"]["hit@5"] == pytest.approx((1 + 1) / 2)
    assert scores["by_language"]["it"]["hit@10"] == 0.0


def test_hit_at_5_vs_10():
    items = [_item(id="late")]
    results = {"late": [_hit(r, "other") for r in range(1, 7)] + [_hit(7, "lease")]}
    scores = score_gold(items, results)
    assert scores["overall"]["hit@5"] == 0.0
    assert scores["overall"]["hit@10"] == 1.0
    assert scores["overall"]["mrr"] == pytest.approx(1 / 7)


def test_ranks_follow_the_rank_field_not_list_order():
    items = [_item(id="x")]
    results = {"x": [_hit(3, "lease"), _hit(1, "other"), _hit(2, "other")]}
    assert score_gold(items, results)["per_item"][0]["first_rank"] == 3


def test_section_and_version_must_match_when_given():
    items = [
        _item(
            id="v",
            type="date-sensitive",
            expected=[{"doc_id": "act", "section": "Section 21", "version": 2}],
        )
    ]
    results = {
        "v": [
            _hit(1, "act", "21", version="1"),  # wrong version
            _hit(2, "act", "22", version="2"),  # wrong section
            _hit(3, "act", "s.21", version=2),  # right: "s.21" == "Section 21", 2 == "2"
        ]
    }
    assert score_gold(items, results)["per_item"][0]["first_rank"] == 3


def test_must_not_violations_are_counted_and_listed():
    items = [
        _item(
            id="acl",
            must_not=[{"doc_id": "privileged-memo"}, {"doc_id": "act", "version": "1"}],
        )
    ]
    results = {
        "acl": [
            _hit(1, "lease"),
            _hit(2, "privileged-memo", "3", via="xref:lease:1:1"),
            _hit(3, "act", "5", version="2"),  # other version: fine
            _hit(4, "act", "5", version="1"),  # the wrong version
        ]
    }
    scores = score_gold(items, results)
    assert scores["must_not"]["violations"] == 2
    assert [(v["rank"], v["doc_id"], v["via"]) for v in scores["must_not"]["items"]] == [
        (2, "privileged-memo", "xref:lease:1:1"),
        (4, "act", "retrieval"),
    ]
    assert scores["overall"]["must_not_violations"] == 2


def test_must_not_only_item_is_left_out_of_hit_metrics():
    items = [
        _item(id="hit"),
        _item(id="guard", expected=[], must_not=[{"doc_id": "privileged-memo"}]),
    ]
    scores = score_gold(items, {"hit": [_hit(1, "lease")], "guard": []})
    assert scores["overall"]["n"] == 2
    assert scores["overall"]["n_scored"] == 1
    assert scores["overall"]["mrr"] == 1.0


def test_xref_recall_and_the_xref_filter():
    items = [
        _item(
            id="x",
            type="cross-reference",
            expected=[{"doc_id": "lease", "section": "3"}],
            expected_xrefs=[{"doc_id": "lease", "section": "7"}, {"doc_id": "lease", "section": "9"}],
        )
    ]
    results = {
        "x": [
            _hit(1, "lease", "7", via="xref:lease:1:3"),
            _hit(2, "lease", "3"),
            _hit(3, "lease", "9"),
        ]
    }
    scores = score_gold(items, results)
    assert scores["xref"]["expected"] == 2
    assert scores["xref"]["recall"] == pytest.approx(2 / 2)
    assert scores["xref"]["recall_via_expansion"] == pytest.approx(1 / 2)
    assert scores["per_item"][0]["first_rank"] == 2
    # without xref hits the retrieval list is [lease §3, lease §9]: first correct at 1
    assert score_gold(items, results, include_xref_hits=False)["per_item"][0]["first_rank"] == 1


def test_an_amendment_brought_by_expansion_counts_as_an_xref_not_a_retrieval():
    items = [
        _item(
            id="a",
            type="cross-reference",
            expected=[{"doc_id": "licence", "section": "6.1"}],
            expected_xrefs=[{"doc_id": "licence-amendment-1", "section": "2"}],
        )
    ]
    results = {
        "a": [
            _hit(1, "licence", "6.1"),
            _hit(2, "licence-amendment-1", "2", via="amended_by:licence:1:6"),
        ]
    }
    scores = score_gold(items, results)
    assert scores["xref"]["recall"] == 1.0
    assert scores["xref"]["recall_via_expansion"] == 1.0
    # the amendment's clause reached only through retrieval is not an expansion
    retrieved = {"a": [_hit(1, "licence", "6.1"), _hit(2, "licence-amendment-1", "2")]}
    assert score_gold(items, retrieved)["xref"]["recall_via_expansion"] == 0.0


def test_missing_results_count_as_misses():
    scores = score_gold([_item(id="lost")], {})
    assert scores["missing_results"] == ["lost"]
    assert scores["overall"]["hit@10"] == 0.0


def test_load_gold(tmp_path):
    path = tmp_path / "gold.jsonl"
    rows = [
        {
            "id": "it-1",
            "query": "recesso",
            "type": "cross-reference",
            "language": "it",
            "expected": [{"doc_id": "c", "section": "art. 7"}],
            "expected_xrefs": [{"doc_id": "c", "section": "12"}],
            "as_of": "2024-01-31",
            "groups": ["legal"],
            "must_not": [{"doc_id": "memo"}],
        },
        {"id": "en-1", "query": "q", "type": "identifier", "language": "en", "expected": [{"doc_id": "d"}]},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    items = load_gold(path)
    assert [i.id for i in items] == ["it-1", "en-1"]
    assert items[0].as_of == "2024-01-31"


@pytest.mark.parametrize(
    "row, message",
    [
        ({"typo": 1}, "typo"),
        ({"type": "vague"}, "type"),
        ({"language": "fr"}, "language"),
        ({"as_of": "31/01/2024"}, "YYYY-MM-DD"),
        ({"as_of": "2024-02-30"}, "as_of"),
        ({"expected": [], "must_not": []}, "at least one"),
        ({"expected": [{"doc_id": "d", "sectoin": "1"}]}, "sectoin"),
        ({"expected_xrefs": [{"doc_id": "d"}]}, "section"),
    ],
)
def test_load_gold_rejects_bad_lines_with_line_number(tmp_path, row, message):
    good = {"id": "ok", "query": "q", "type": "identifier", "language": "en", "expected": [{"doc_id": "d"}]}
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": "bad", **row}) + "\n")
    with pytest.raises(GoldSetError, match=rf"gold.jsonl:2: (?s:.*){message}"):
        load_gold(path)


def test_load_gold_rejects_duplicate_ids(tmp_path):
    line = json.dumps(
        {"id": "a", "query": "q", "type": "identifier", "language": "en", "expected": [{"doc_id": "d"}]}
    )
    path = tmp_path / "gold.jsonl"
    path.write_text(line + "\n" + line + "\n")
    with pytest.raises(GoldSetError, match="duplicate id 'a'"):
        load_gold(path)


def test_split_halves_are_disjoint_stratified_and_deterministic():
    items = [_item(id=f"{cls}-{lang}-{i}", language=lang, notes=f"[class:{cls}] x")
             for cls in ("versions", "look-alikes") for lang in ("en", "it") for i in range(4)]
    items.append(_item(id="untagged"))
    dev, held = split_gold(items, "dev"), split_gold(items, "held-out")
    assert {i.id for i in dev} | {i.id for i in held} == {i.id for i in items}
    assert not {i.id for i in dev} & {i.id for i in held}
    # half of every class x language stratum on each side
    for cls in ("versions", "look-alikes"):
        for lang in ("en", "it"):
            assert sum(i.id.startswith(f"{cls}-{lang}") for i in dev) == 2
    assert [i.id for i in split_gold(items, "dev")] == [i.id for i in dev]  # same seed, same half
    assert [i.id for i in dev] == [i.id for i in items if i in dev]          # file order kept
    assert split_gold(items, "all") == items
    with pytest.raises(GoldSetError, match="split"):
        split_gold(items, "train")


def test_ndcg_counts_each_expected_passage_once():
    # two expected passages; the first is found twice (ranks 1 and 2), the second at rank 4
    items = [_item(id="two", expected=[{"doc_id": "lease", "section": "1"}, {"doc_id": "lease", "section": "2"}])]
    results = {"two": [_hit(1, "lease", "1"), _hit(2, "lease", "Art. 1"), _hit(3, "other"), _hit(4, "lease", "2")]}
    row = score_gold(items, results)["per_item"][0]
    assert (row["hit@5"], row["hit@10"], row["rr"], row["first_rank"]) == (1.0, 1.0, 1 / 1, 1)
    # DCG: 1/log2(1+1) + 1/log2(4+1) (rank 2 repeats passage 1: no gain); ideal: 1/log2(2) + 1/log2(3)
    assert row["ndcg@10"] == pytest.approx((1 + 1 / math.log2(5)) / (1 + 1 / math.log2(3)))
    assert score_gold(items, results)["overall"]["ndcg@10"] == pytest.approx(row["ndcg@10"])


def test_must_not_only_items_stay_out_of_the_ranked_measures():
    items = [_item(id="found"), _item(id="guard", expected=[], must_not=[{"doc_id": "memo"}])]
    scores = score_gold(items, {"found": [_hit(2, "other"), _hit(1, "lease")], "guard": [_hit(1, "memo")]})
    assert scores["overall"]["n_scored"] == 1
    assert scores["overall"]["mrr"] == 1.0 and scores["overall"]["ndcg@10"] == 1.0
    assert scores["per_item"][1]["rr"] == 0.0 and scores["must_not"]["violations"] == 1


SAVED_GOLD = sorted((Path(__file__).parents[3] / "docs" / "results").rglob("gold.json"))


@pytest.mark.parametrize("path", SAVED_GOLD, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_saved_gold_runs_score_the_same_through_ir_measures(path):
    # The saved runs keep each question's first correct rank (hit@k and MRR depend on nothing else):
    # rebuilt as hits, they must give back the saved hit@5 / hit@10 / MRR exactly.
    saved = json.loads(path.read_text())
    for config, scores in saved.items():
        items, results = [], {}
        for row in scores["per_item"]:
            fields = {"id": row["id"], "type": row["type"], "language": row["language"]}
            if row["scored"]:
                items.append(_item(**fields))
                rank = row["first_rank"]
                results[row["id"]] = [_hit(r, "other") for r in range(1, rank or 11)] + ([_hit(rank, "lease")] if rank else [])
            else:
                items.append(_item(**fields, expected=[], must_not=[{"doc_id": "never"}]))
                results[row["id"]] = []
        again = score_gold(items, results)
        for scope in ("overall", "by_type", "by_language"):
            groups = {"": scores[scope]} if scope == "overall" else scores[scope]
            got = {"": again[scope]} if scope == "overall" else again[scope]
            for name, summary in groups.items():
                for metric in ("hit@5", "hit@10", "mrr", "n_scored", "found", "mean_first_rank"):
                    assert got[name][metric] == summary[metric], (config, scope, name, metric)
        for old, new in zip(scores["per_item"], again["per_item"], strict=True):
            assert (new["hit@5"], new["hit@10"], new["rr"], new["first_rank"]) == (
                old["hit@5"], old["hit@10"], old["rr"], old["first_rank"]), (config, old["id"])


def test_saved_gold_runs_are_checked_in():
    assert len(SAVED_GOLD) >= 1
