"""Results files, markdown tables and plots."""

import json
import math

import pytest
from legalsearch.evaluation.report import (
    gold_table_markdown,
    table_by_k_markdown,
    table_markdown,
    write_results,
)


def _metrics(scale: float) -> dict[str, float]:
    m = {}
    for k in (1, 2, 4):
        m[f"precision@{k}"] = 0.1 * scale
        m[f"recall@{k}"] = 0.1 * k * scale
        m[f"drm@{k}"] = 0.05 * scale
    m.update(
        {
            "precision@mean": 0.1 * scale,
            "recall@mean": 0.1 * (1 + 2 + 4) / 3 * scale,
            "drm@mean": 0.05 * scale,
        }
    )
    m.update({"recall@budget2000": 0.2, "recall@budget4000": 0.3, "recall@budget8000": 0.4})
    return m


RESULTS = {
    "standard-rag": {"cuad": _metrics(1.0), "maud": _metrics(0.5), "average": _metrics(0.75)},
    "sac-dense": {"cuad": _metrics(2.0), "maud": _metrics(1.0), "average": _metrics(1.5)},
}


def test_table_markdown():
    table = table_markdown(RESULTS)
    lines = table.splitlines()
    assert lines[0] == (
        "| config | P@mean | R@mean | DRM@mean | R@2000 chars | R@4000 chars | R@8000 chars "
        "| R@mean cuad | R@mean maud |"
    )
    assert len(lines) == 2 + 2
    # standard-rag: P@mean 0.1 * 0.75 = 7.50 %, R@mean cuad 0.1 * 7/3 * 1.0 = 23.33 %
    assert lines[2].startswith("| standard-rag | 7.50 | ")
    assert lines[2].endswith("| 23.33 | 11.67 |")


def test_table_by_k_markdown():
    table = table_by_k_markdown(RESULTS, "recall")
    assert table.splitlines()[0] == "| recall (average) | @1 | @2 | @4 |"
    # sac-dense recall@4 = 0.1 * 4 * 1.5 = 60 %
    assert table.splitlines()[3] == "| sac-dense | 15.00 | 30.00 | 60.00 |"


def test_write_results(tmp_path):
    rows = {"sac-dense": [{"query_id": "cuad-0000", "metrics": {"recall@1": 1.0}}]}
    written = write_results(RESULTS, tmp_path / "out", per_query=rows)
    assert json.loads(written["json"].read_text()) == RESULTS
    assert "| sac-dense |" in written["markdown"].read_text()
    for metric in ("recall", "precision", "drm"):
        png = tmp_path / "out" / f"{metric}_vs_k.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    per_query = (tmp_path / "out" / "per_query" / "sac-dense.jsonl").read_text().splitlines()
    assert json.loads(per_query[0])["query_id"] == "cuad-0000"


def test_gold_table_markdown():
    scores = {
        "overall": {"n": 3, "hit@5": 2 / 3, "hit@10": 1.0, "mrr": (1 + 1 / 3 + 1 / 7) / 3},
        "by_type": {"identifier": {"hit@10": 1.0}, "conceptual": {"hit@10": 0.5}},
        "xref": {"recall": None},
        "must_not": {"violations": 1},
    }
    table = gold_table_markdown({"hybrid": scores})
    header, _, row = table.splitlines()
    assert header == (
        "| config | n | hit@5 | hit@10 | MRR | nDCG@10 | hit@10 conceptual | hit@10 identifier "
        "| xref recall | must_not violations |"
    )
    assert row == "| hybrid | 3 | 66.67 | 100.00 | 49.21 | – | 50.00 | 100.00 | – | 1 |"


def test_gold_table_shows_paired_p_values_against_the_baseline():
    from legalsearch.evaluation.gold import GoldItem, compare_gold, score_gold

    items = [GoldItem(id=f"q{i}", query="?", type="identifier", language="en", expected=[{"doc_id": "lease"}])
             for i in range(4)]
    def hits(first_ranks):
        return {f"q{i}": [{"rank": r, "doc_id": "other"} for r in range(1, rank)] + [{"rank": rank, "doc_id": "lease"}]
                for i, rank in enumerate(first_ranks)}
    scores = {"bm25": score_gold(items, hits([1, 7, 1, 6])), "hybrid": score_gold(items, hits([1, 1, 1, 2]))}
    significance = compare_gold(scores)
    # hit@5 per question: hybrid 1, 1, 1, 1 vs bm25 1, 0, 1, 0: differences 0, 1, 0, 1, t = sqrt(3) on 3 df
    assert significance["hybrid"]["baseline"] == "bm25" and significance["hybrid"]["n"] == 4
    assert significance["hybrid"]["hit@5"] == pytest.approx(0.18169, abs=1e-5)
    assert significance["hybrid"]["hit@10"] == 1.0  # every question found by both: nothing differs
    lines = gold_table_markdown(scores, significance).splitlines()
    assert lines[0].endswith("| p hit@5 (t-test) | p hit@10 | p MRR |")
    assert lines[2].endswith("| baseline |  |  |")
    # MRR: differences 0, 1 - 1/7, 0, 1/2 - 1/6; paired t = mean / (sd / sqrt(4)) on 3 df
    d = [0, 1 - 1 / 7, 0, 1 / 2 - 1 / 6]
    mean = sum(d) / 4
    t = mean / (math.sqrt(sum((x - mean) ** 2 for x in d) / 3) / 2)
    from scipy.stats import t as student_t
    assert significance["hybrid"]["rr"] == pytest.approx(2 * student_t.sf(t, 3))
    assert lines[3].endswith(f"| 0.182 | 1.000 | {2 * student_t.sf(t, 3):.3f} |")
    assert compare_gold({"only": scores["bm25"]}) == {}
