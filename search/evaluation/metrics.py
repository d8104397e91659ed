"""Retrieval metrics: LegalBench-RAG character-level precision / recall, DRM, and hit-based
metrics for gold sets. Pure functions over plain typed records; nothing here does I/O.

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

from collections.abc import Collection, Iterable, Sequence
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


def hit_at(ranked_ids: Sequence[object], relevant_ids: Collection[object], k: int) -> float:
    """1.0 when a relevant id is among the first k, else 0.0."""
    rank = first_relevant_rank(ranked_ids[:k], relevant_ids)
    return 0.0 if rank is None else 1.0


def reciprocal_rank(ranked_ids: Sequence[object], relevant_ids: Collection[object]) -> float:
    """1 / rank of the first relevant id; 0.0 when none is retrieved."""
    rank = first_relevant_rank(ranked_ids, relevant_ids)
    return 0.0 if rank is None else 1.0 / rank
