"""benchmarks/shard_agreement.py's tie-aware comparison of two top-k lists (pure)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location("shard_agreement", BENCH / "shard_agreement.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def hit(i, text, score):
    return {"id": i, "fp": text, "score": score}


def test_copies_tied_in_another_order_agree_by_text_not_by_id(bench):
    a = [hit("x~0", "X", 9.0), hit("x~1", "X", 9.0), hit("y~0", "Y", 5.0)]
    b = [hit("x~2", "X", 9.0), hit("x~0", "X", 9.0), hit("y~1", "Y", 5.0)]
    r = bench.agreement([(a, b)], k=3)
    assert r["identical_texts"] == 1.0 and r["same_order_up_to_ties"] == 1.0 and r["same_top1_text"] == 1.0
    assert r["overlap_by_text"] == 1.0
    assert r["overlap_by_id"] == pytest.approx(1 / 3)
    assert r["rank1_score_rel_diff_mean"] == 0.0


def test_a_different_text_and_order_are_counted(bench):
    a = [hit("x", "X", 10.0), hit("y", "Y", 8.0), hit("z", "Z", 6.0)]
    b = [hit("y", "Y", 9.0), hit("x", "X", 8.0), hit("w", "W", 7.0)]
    r = bench.agreement([(a, b)], k=3)
    assert r["identical_texts"] == 0.0 and r["same_order_up_to_ties"] == 0.0 and r["same_top1_text"] == 0.0
    assert r["overlap_by_text"] == pytest.approx(2 / 3)
    assert r["rank1_score_rel_diff_mean"] == pytest.approx(0.1)


def test_same_texts_in_another_order_are_identical_sets_but_not_the_same_order(bench):
    a = [hit("x", "X", 10.0), hit("y", "Y", 8.0)]
    b = [hit("y", "Y", 10.0), hit("x", "X", 8.0)]
    r = bench.agreement([(a, b)], k=2)
    assert r["identical_texts"] == 1.0 and r["same_order_up_to_ties"] == 0.0


def test_ties_are_read_at_four_significant_digits(bench):
    assert bench.canonical([hit("b", "B", 1.234549), hit("a", "A", 1.234501)]) == ["A", "B"]
    assert bench.canonical([hit("b", "B", 1.24), hit("a", "A", 1.23)]) == ["B", "A"]
