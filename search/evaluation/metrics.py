"""Retrieval metrics: LegalBench-RAG character-level precision / recall, DRM, and hit-based
metrics for gold sets. Pure functions over plain typed records; nothing here does I/O.

The ranked-list measures (hit@k, MRR, nDCG) come from ir-measures (trec_eval underneath), and the
paired significance tests from scipy.stats; the character-level measures, which no IR library
has, are computed here.

Definitions follow the LegalBench-RAG reference code (Pipitone & Alami, 2024) and the SAC
paper (Reuter et al., 2025). Where the reference code is silent or has changed over time,
the choice made here is written down in the function's docstring:

* precision counts every retrieved span's characters separately (the benchmark's original
  definition): two overlapping retrieved chunks both count, so duplicates are penalised;
* recall counts the gold characters covered by the *union* of the retrieved spans, so it can
  never exceed 1.0 however much the retrieved chunks overlap;
* gold spans are merged before either is computed (the benchmark promises they never overlap;
  merging makes the metrics safe on held-out sets that break that promise);
* empty retrieval scores precision 0.0, recall 0.0 and DRM 0.0.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean

from legalsearch.errors import LegalSearchError

DEFAULT_KS: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
DEFAULT_BUDGETS: tuple[int, ...] = (2000, 4000, 8000)
MEAN_OVER_K_METRICS: tuple[str, ...] = ("precision", "recall", "drm")


class EvaluationError(LegalSearchError):
    """Evaluation input is malformed (bad span, inconsistent metric rows, bad benchmark file)."""


@dataclass(frozen=True)
class Span:
    """A character span of one document's ORIGINAL text.

    Attributes:
        file_path: the document as the benchmark names it (for LegalBench-RAG the path relative
            to ``corpus/``, e.g. ``"cuad/X.txt"``).
        start: first character, 0-based.
        end: one past the last character (end exclusive, like Python slices).
    """

    file_path: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start < 0 or self.end < self.start:
            raise EvaluationError(
                f"invalid span {self.file_path}[{self.start}:{self.end}]: need 0 <= start <= end"
            )

    def __len__(self) -> int:
        return self.end - self.start


def _merged_by_file(spans: Iterable[Span]) -> dict[str, list[tuple[int, int]]]:
    """Union of the spans, per file, as sorted non-overlapping (start, end) intervals."""
    by_file: dict[str, list[tuple[int, int]]] = {}
    for span in spans:
        if len(span):
            by_file.setdefault(span.file_path, []).append((span.start, span.end))
    merged: dict[str, list[tuple[int, int]]] = {}
    for file_path, intervals in by_file.items():
        out: list[tuple[int, int]] = []
        for start, end in sorted(intervals):
            if out and start <= out[-1][1]:
                out[-1] = (out[-1][0], max(out[-1][1], end))
            else:
                out.append((start, end))
        merged[file_path] = out
    return merged


def _overlap(span: Span, merged: dict[str, list[tuple[int, int]]]) -> int:
    """Characters of ``span`` inside the (already merged, hence disjoint) intervals."""
    total = 0
    for start, end in merged.get(span.file_path, ()):
        total += max(0, min(span.end, end) - max(span.start, start))
    return total


def char_precision(retrieved: Sequence[Span], gold: Sequence[Span]) -> float:
    """Characters of the retrieved spans that fall inside gold / total retrieved characters.

    Each retrieved span counts on its own (overlapping retrieved spans count their shared
    characters twice, in numerator and denominator alike), as in the benchmark's original code.
    Empty retrieval, or retrieval of zero characters, scores 0.0.
    """
    total = sum(len(span) for span in retrieved)
    if total == 0:
        return 0.0
    gold_merged = _merged_by_file(gold)
    return sum(_overlap(span, gold_merged) for span in retrieved) / total


def char_recall(retrieved: Sequence[Span], gold: Sequence[Span]) -> float:
    """Characters of gold covered by the union of the retrieved spans / total gold characters.

    Empty retrieval scores 0.0; an empty (or zero-length) gold set scores 0.0 as well, as in
    the reference code.
    """
    gold_merged = _merged_by_file(gold)
    total = sum(end - start for intervals in gold_merged.values() for start, end in intervals)
    if total == 0:
        return 0.0
    covered = 0
    for file_path, intervals in _merged_by_file(retrieved).items():
        for start, end in intervals:
            covered += _overlap(Span(file_path, start, end), gold_merged)
    return covered / total


def drm(retrieved: Sequence[Span], gold: Sequence[Span]) -> float:
    """Document-Level Retrieval Mismatch: share of retrieved chunks whose file is none of gold's.

    Empty retrieval scores 0.0 (no chunk came from a wrong document); its failure shows up in
    recall instead.
    """
    if not retrieved:
        return 0.0
    gold_files = {span.file_path for span in gold}
    return sum(span.file_path not in gold_files for span in retrieved) / len(retrieved)


def truncate_to_budget(retrieved: Sequence[Span], budget_chars: int) -> list[Span]:
    """The ranked spans, in order, until their cumulative length reaches ``budget_chars``.

    The span that crosses the budget is cut from its start (``[start, start + remaining)``);
    the spans after it are dropped.
    """
    if budget_chars < 0:
        raise EvaluationError(f"budget_chars must be >= 0, got {budget_chars}")
    kept: list[Span] = []
    remaining = budget_chars
    for span in retrieved:
        if remaining <= 0:
            break
        cut = Span(span.file_path, span.start, min(span.end, span.start + remaining))
        kept.append(cut)
        remaining -= len(cut)
    return kept


def budget_recall(retrieved: Sequence[Span], gold: Sequence[Span], budget_chars: int) -> float:
    """Recall of the ranked list cut to a character budget (see :func:`truncate_to_budget`)."""
    return char_recall(truncate_to_budget(retrieved, budget_chars), gold)


def evaluate_query(
    retrieved_ranked: Sequence[Span],
    gold: Sequence[Span],
    ks: Sequence[int] = DEFAULT_KS,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
) -> dict[str, float]:
    """Every metric of one query: ``precision@k``, ``recall@k``, ``drm@k`` for each k (the
    ranked list cut to its first k spans) and ``recall@budget<B>`` for each budget (the whole
    ranked list given, cut by characters)."""
    if any(k < 1 for k in ks):
        raise EvaluationError(f"every k must be >= 1, got {list(ks)}")
    metrics: dict[str, float] = {}
    for k in ks:
        top = retrieved_ranked[:k]
        metrics[f"precision@{k}"] = char_precision(top, gold)
        metrics[f"recall@{k}"] = char_recall(top, gold)
        metrics[f"drm@{k}"] = drm(top, gold)
    for budget in budgets:
        metrics[f"recall@budget{budget}"] = budget_recall(retrieved_ranked, gold, budget)
    return metrics


def metric_ks(metrics: Collection[str], prefix: str) -> list[int]:
    """The k values present as ``<prefix>@<k>`` keys, ascending (budget and mean keys skipped)."""
    ks = []
    for name in metrics:
        head, _, tail = name.partition("@")
        if head == prefix and tail.isdigit():
            ks.append(int(tail))
    return sorted(ks)


def with_mean_over_k(metrics: dict[str, float]) -> dict[str, float]:
    """A copy of ``metrics`` plus ``precision@mean`` / ``recall@mean`` / ``drm@mean``: the
    unweighted mean over the k values present (how the SAC paper's tables summarise)."""
    out = dict(metrics)
    for prefix in MEAN_OVER_K_METRICS:
        ks = metric_ks(metrics, prefix)
        if ks:
            out[f"{prefix}@mean"] = fmean(metrics[f"{prefix}@{k}"] for k in ks)
    return out


def aggregate(per_query: Sequence[dict[str, float]]) -> dict[str, float]:
    """Mean of every metric over the queries, plus the mean-over-k summaries.

    Raises:
        EvaluationError: no rows, or rows that do not carry the same metric names.
    """
    if not per_query:
        raise EvaluationError("cannot aggregate zero queries")
    names = set(per_query[0])
    for i, row in enumerate(per_query):
        if set(row) != names:
            diff = sorted(names.symmetric_difference(row))
            raise EvaluationError(f"metric row {i} differs from row 0 in {diff}")
    means = {name: fmean(row[name] for row in per_query) for name in per_query[0]}
    return with_mean_over_k(means)


def first_relevant_rank(ranked_ids: Sequence[object], relevant_ids: Collection[object]) -> int | None:
    """1-based rank of the first relevant id, or None when none is in the list."""
    for rank, item in enumerate(ranked_ids, start=1):
        if item in relevant_ids:
            return rank
    return None


RANK_MEASURES = ("hit", "rr", "ndcg")
"""The ranked-list measures of :func:`rank_metrics`, as ir-measures names them: Success@k, RR, nDCG@k."""


def rank_metrics(
    qrels: Mapping[str, Collection[str]],
    run: Mapping[str, Sequence[str]],
    hit_ks: Sequence[int] = (5, 10),
    ndcg_k: int = 10,
) -> dict[str, dict[str, float]]:
    """``hit@k`` (ir-measures' Success@k), ``rr`` (RR) and ``ndcg@<ndcg_k>`` (nDCG@k) of every
    query of ``qrels``, computed by ir-measures through trec_eval (pytrec_eval).

    Args:
        qrels: query id -> its relevant ids (binary relevance). A query with none is not scored
            (left out of the result), as trec_eval does.
        run: query id -> retrieved ids, best first, each once.
        hit_ks: cut-offs for hit@k.
        ndcg_k: cut-off for nDCG.

    Returns:
        query id -> {"hit@5": ..., "rr": ..., "ndcg@10": ...} for every query with a relevant id.
        A query the run lacks or leaves empty scores 0.0 on every measure (trec_eval would skip
        it, which would raise the mean).

    Raises:
        EvaluationError: a run lists an id twice (trec_eval would keep one, silently), or a cut-off < 1.
    """
    import ir_measures
    from ir_measures import RR, Qrel, ScoredDoc, Success, nDCG

    if any(k < 1 for k in (*hit_ks, ndcg_k)):
        raise EvaluationError(f"every cut-off must be >= 1, got hit_ks={list(hit_ks)}, ndcg_k={ndcg_k}")
    measures = {Success @ k: f"hit@{k}" for k in hit_ks} | {RR: "rr", nDCG @ ndcg_k: f"ndcg@{ndcg_k}"}
    judged = {qid: list(ids) for qid, ids in qrels.items() if ids}
    out = {qid: dict.fromkeys(measures.values(), 0.0) for qid in judged}
    trec_qrels = [Qrel(qid, doc, 1) for qid, ids in judged.items() for doc in ids]
    trec_run = []
    for qid, ids in run.items():
        if len(set(ids)) != len(ids):
            raise EvaluationError(f"run of query {qid!r} lists an id twice: {list(ids)}")
        if qid in judged:
            # trec_eval orders by score (ties by id): distinct descending scores keep the list's order
            trec_run += [ScoredDoc(qid, doc, float(len(ids) - i)) for i, doc in enumerate(ids)]
    if trec_run:
        for metric in ir_measures.pytrec_eval.iter_calc(list(measures), trec_qrels, trec_run):
            out[metric.query_id][measures[metric.measure]] = float(metric.value)
    return out


PAIRED_TESTS = ("t-test", "randomization")


def paired_p_value(a: Sequence[float], b: Sequence[float], test: str = "t-test", *, seed: int = 13,
                   resamples: int = 10_000) -> float | None:
    """Two-sided p-value that two configurations' per-query scores (same queries, same order)
    differ: a paired t-test (scipy.stats.ttest_rel) or a paired randomization test
    (scipy.stats.permutation_test with permutation_type="samples", ``resamples`` draws from
    ``seed``), the two that Smucker et al. (CIKM 2007) found to agree for IR metrics.

    Returns 1.0 when every pair is equal (no difference to test), None for fewer than two queries.
    """
    from scipy import stats

    if test not in PAIRED_TESTS:
        raise EvaluationError(f"unknown paired test {test!r}; choose one of: {', '.join(PAIRED_TESTS)}")
    if len(a) != len(b):
        raise EvaluationError(f"paired scores differ in length: {len(a)} and {len(b)}")
    if len(a) < 2:
        return None
    if all(x == y for x, y in zip(a, b, strict=True)):
        return 1.0
    if test == "t-test":
        return float(stats.ttest_rel(a, b).pvalue)
    result = stats.permutation_test(
        (list(a), list(b)), lambda x, y: fmean(x) - fmean(y), permutation_type="samples",
        n_resamples=resamples, alternative="two-sided", random_state=seed,
    )
    return float(result.pvalue)
