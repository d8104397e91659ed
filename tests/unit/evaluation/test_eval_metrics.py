"""Character-level LegalBench-RAG metrics and hit metrics, with hand-computed expectations."""

import math

import pytest
from legalsearch.evaluation.metrics import (
    EvaluationError,
    Span,
    aggregate,
    budget_recall,
    char_precision,
    char_recall,
    drm,
    evaluate_query,
    first_relevant_rank,
    paired_p_value,
    rank_metrics,
    truncate_to_budget,
    with_mean_over_k,
)

A, B, C = "a/doc.txt", "b/doc.txt", "c/doc.txt"


def test_partial_overlap():
    retrieved, gold = [Span(A, 0, 100)], [Span(A, 50, 150)]
    assert char_precision(retrieved, gold) == pytest.approx(50 / 100)
    assert char_recall(retrieved, gold) == pytest.approx(50 / 100)
    assert drm(retrieved, gold) == 0.0


def test_same_offsets_in_another_file_do_not_count():
    retrieved, gold = [Span(B, 50, 150)], [Span(A, 50, 150)]
    assert char_precision(retrieved, gold) == 0.0
    assert char_recall(retrieved, gold) == 0.0
    assert drm(retrieved, gold) == 1.0


def test_several_snippets_in_several_files():
    gold = [Span(A, 0, 100), Span(A, 200, 300), Span(B, 0, 50)]  # 250 gold chars
    retrieved = [
        Span(A, 50, 250),  # 200 chars: 50 in [0,100) + 50 in [200,300)
        Span(B, 0, 100),  # 100 chars: 50 in [0,50)
        Span(C, 0, 100),  # 100 chars: wrong document
    ]
    assert char_precision(retrieved, gold) == pytest.approx((50 + 50 + 50) / (200 + 100 + 100))
    assert char_recall(retrieved, gold) == pytest.approx((50 + 50 + 50) / (100 + 100 + 50))
    assert drm(retrieved, gold) == pytest.approx(1 / 3)


def test_overlapping_retrieved_spans_precision_counts_each_recall_counts_union():
    gold = [Span(A, 0, 100)]
    retrieved = [Span(A, 0, 100), Span(A, 50, 150)]
    # precision: each span on its own: (100 + 50) / (100 + 100)
    assert char_precision(retrieved, gold) == pytest.approx((100 + 50) / (100 + 100))
    # recall: union [0,150) covers all 100 gold chars once, never more than 1.0
    assert char_recall(retrieved, gold) == pytest.approx(100 / 100)
    assert char_recall([Span(A, 0, 100), Span(A, 0, 100)], gold) == 1.0


def test_overlapping_gold_is_merged_before_counting():
    gold = [Span(A, 0, 100), Span(A, 50, 150)]  # union [0,150): 150 chars
    assert char_recall([Span(A, 0, 75)], gold) == pytest.approx(75 / 150)
    assert char_precision([Span(A, 100, 200)], gold) == pytest.approx(50 / 100)


def test_empty_retrieval_scores_zero_everywhere():
    gold = [Span(A, 0, 100)]
    assert char_precision([], gold) == 0.0
    assert char_recall([], gold) == 0.0
    assert drm([], gold) == 0.0
    metrics = evaluate_query([], gold, ks=(1, 4), budgets=(2000,))
    assert set(metrics.values()) == {0.0}


def test_zero_length_spans():
    assert char_precision([Span(A, 5, 5)], [Span(A, 0, 10)]) == 0.0
    assert char_recall([Span(A, 0, 10)], [Span(A, 5, 5)]) == 0.0


@pytest.mark.parametrize("start, end", [(-1, 5), (10, 5)])
def test_invalid_span_is_rejected(start, end):
    with pytest.raises(EvaluationError, match="invalid span"):
        Span(A, start, end)


def test_budget_truncates_last_span_from_its_start():
    retrieved = [Span(A, 0, 1500), Span(B, 0, 1500), Span(A, 5000, 6000)]
    kept = truncate_to_budget(retrieved, 2000)
    # 1500 chars fit, then 2000 - 1500 = 500 chars of the second span, nothing of the third
    assert kept == [Span(A, 0, 1500), Span(B, 0, 500)]
    assert truncate_to_budget(retrieved, 0) == []
    assert truncate_to_budget(retrieved, 10_000) == retrieved


def test_budget_recall():
    gold = [Span(B, 400, 600)]  # 200 gold chars
    retrieved = [Span(A, 0, 1500), Span(B, 0, 1500)]
    # budget 2000 keeps B[0,500): covers [400,500) = 100 of 200
    assert budget_recall(retrieved, gold, 2000) == pytest.approx(100 / 200)
    # budget 4000 keeps all of B[0,1500): covers 200 of 200
    assert budget_recall(retrieved, gold, 4000) == pytest.approx(200 / 200)
    with pytest.raises(EvaluationError):
        budget_recall(retrieved, gold, -1)


def test_evaluate_query_cuts_ranked_list_at_k():
    gold = [Span(A, 0, 100)]
    ranked = [Span(C, 0, 100), Span(A, 0, 100), Span(A, 100, 200), Span(B, 0, 100)]
    m = evaluate_query(ranked, gold, ks=(1, 2, 4), budgets=(150,))
    assert m["precision@1"] == 0.0 and m["recall@1"] == 0.0 and m["drm@1"] == 1.0
    assert m["precision@2"] == pytest.approx(100 / 200)
    assert m["recall@2"] == pytest.approx(100 / 100)
    assert m["drm@2"] == pytest.approx(1 / 2)
    assert m["precision@4"] == pytest.approx(100 / 400)
    assert m["drm@4"] == pytest.approx(2 / 4)
    # budget 150: C[0,100) + A[0,50) -> 50 of the 100 gold chars
    assert m["recall@budget150"] == pytest.approx(50 / 100)
    assert list(m) == [
        "precision@1", "recall@1", "drm@1", "precision@2", "recall@2", "drm@2",
        "precision@4", "recall@4", "drm@4", "recall@budget150",
    ]  # fmt: skip


def test_evaluate_query_rejects_k_zero():
    with pytest.raises(EvaluationError):
        evaluate_query([], [Span(A, 0, 1)], ks=(0,))


def test_aggregate_mean_per_metric_and_mean_over_k():
    rows = [
        {
            "precision@1": 1.0,
            "precision@2": 0.5,
            "recall@1": 0.2,
            "recall@2": 0.4,
            "drm@1": 0.0,
            "drm@2": 0.5,
        },
        {
            "precision@1": 0.0,
            "precision@2": 0.5,
            "recall@1": 0.6,
            "recall@2": 0.8,
            "drm@1": 1.0,
            "drm@2": 0.5,
        },
    ]
    agg = aggregate(rows)
    assert agg["precision@1"] == pytest.approx((1.0 + 0.0) / 2)
    assert agg["recall@2"] == pytest.approx((0.4 + 0.8) / 2)
    assert agg["precision@mean"] == pytest.approx(((1.0 + 0.0) / 2 + (0.5 + 0.5) / 2) / 2)
    assert agg["recall@mean"] == pytest.approx(((0.2 + 0.6) / 2 + (0.4 + 0.8) / 2) / 2)
    assert agg["drm@mean"] == pytest.approx(((0.0 + 1.0) / 2 + (0.5 + 0.5) / 2) / 2)
    assert rows[0] == {
        "precision@1": 1.0, "precision@2": 0.5, "recall@1": 0.2, "recall@2": 0.4, "drm@1": 0.0, "drm@2": 0.5,
    }  # inputs untouched  # fmt: skip


def test_mean_over_k_ignores_budget_keys():
    m = with_mean_over_k({"recall@1": 0.2, "recall@4": 0.6, "recall@budget2000": 1.0})
    assert m["recall@mean"] == pytest.approx((0.2 + 0.6) / 2)


def test_aggregate_rejects_empty_and_mismatched_rows():
    with pytest.raises(EvaluationError):
        aggregate([])
    with pytest.raises(EvaluationError, match="recall@2"):
        aggregate([{"recall@1": 1.0}, {"recall@1": 1.0, "recall@2": 1.0}])


def test_first_relevant_rank():
    assert first_relevant_rank(["x", "y", "z", "w"], {"z"}) == 3
    assert first_relevant_rank(["x", "y", "z", "w"], {"nope"}) is None


def test_rank_metrics_by_hand():
    # ir-measures (trec_eval) on a run computed by hand: binary relevance, log2 discounts
    qrels = {"q1": {"z"}, "q2": {"a", "b"}, "q3": {"c"}, "q4": {"d"}, "q5": set()}
    run = {
        "q1": ["x", "y", "z", "w"],                     # first relevant at rank 3
        "q2": ["a", "n1", "n2", "n3", "n4", "b"],        # ranks 1 and 6
        "q3": [f"n{i}" for i in range(10)] + ["c"],     # rank 11: past every cut-off
        "q4": [],                                        # nothing retrieved
        "q5": ["e"],                                     # nothing to find: not scored
    }
    m = rank_metrics(qrels, run, hit_ks=(2, 5, 10), ndcg_k=10)
    assert set(m) == {"q1", "q2", "q3", "q4"}
    assert m["q1"] == pytest.approx({"hit@2": 0.0, "hit@5": 1.0, "hit@10": 1.0, "rr": 1 / 3,
                                     "ndcg@10": (1 / math.log2(3 + 1)) / 1})
    assert m["q2"] == pytest.approx({"hit@2": 1.0, "hit@5": 1.0, "hit@10": 1.0, "rr": 1 / 1,
                                     "ndcg@10": (1 + 1 / math.log2(6 + 1)) / (1 + 1 / math.log2(2 + 1))})
    # trec_eval's RR reads the whole list (rank 11 still counts), nDCG@10 and hit@k do not
    assert m["q3"] == pytest.approx({"hit@2": 0.0, "hit@5": 0.0, "hit@10": 0.0, "rr": 1 / 11, "ndcg@10": 0.0})
    assert m["q4"] == {"hit@2": 0.0, "hit@5": 0.0, "hit@10": 0.0, "rr": 0.0, "ndcg@10": 0.0}
    assert rank_metrics({"q": {"a"}}, {}, hit_ks=(1,)) == {"q": {"hit@1": 0.0, "rr": 0.0, "ndcg@10": 0.0}}


def test_rank_metrics_keep_the_run_order_whatever_the_ids():
    # trec_eval sorts by score, then by id: the scores given keep the list's own order
    m = rank_metrics({"q": {"a"}}, {"q": ["z", "a"]}, hit_ks=(1,))
    assert m["q"]["rr"] == 1 / 2 and m["q"]["hit@1"] == 0.0


def test_rank_metrics_reject_a_repeated_id_and_a_bad_cut_off():
    with pytest.raises(EvaluationError, match="twice"):
        rank_metrics({"q": {"a"}}, {"q": ["a", "a"]})
    with pytest.raises(EvaluationError, match="cut-off"):
        rank_metrics({"q": {"a"}}, {"q": ["a"]}, hit_ks=(0,))


def test_paired_p_values():
    a, b = [1.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 1.0]
    # differences 1, 0, 1, 0: mean 0.5, sd sqrt(1/3), t = 0.5 / (sqrt(1/3) / 2) = sqrt(3) on 3 df
    assert paired_p_value(a, b) == pytest.approx(0.18169, abs=1e-5)
    # randomization: two non-zero differences, 2**2 sign flips, means 0.5, 0, 0, -0.5: p = 2 / 4
    assert paired_p_value(a, b, "randomization") == pytest.approx(2 / 4)
    assert paired_p_value(a, a) == 1.0 and paired_p_value([1.0], [0.0]) is None
    with pytest.raises(EvaluationError):
        paired_p_value(a, b[:3])
    with pytest.raises(EvaluationError, match="wilcoxon"):
        paired_p_value(a, b, "wilcoxon")
