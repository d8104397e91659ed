"""Abstention and calibration, measured: does `not_found` flag the questions nothing answers, and
spare the ones something does? Is `Hit.relevance` a probability?

Input: gold items (legalsearch.evaluation.gold) and, per item, the search's hits shaped like the
CLI's ``--json`` hits with their ``relevance``. An item with ``"answerable": false`` is off-topic:
flagged when no retrieved hit reaches the threshold. An item with ``expected`` passages is
answerable: wrongly flagged when none does. Items with neither (must_not only: no passage for the
caller's groups) are counted apart and in neither rate. One search per item serves every threshold:
the decision is the service's own (`legalsearch.query.relevance.abstains` on the retrieved hits).

Calibration reads every retrieved hit as a pair (relevance, label): label 1 when the hit is an
expected passage of an answerable item, 0 for every other hit (all the hits of an off-topic
question): the Brier score and a reliability table (mean relevance vs share relevant per bin).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from legalsearch.evaluation.gold import GoldItem, item_class
from legalsearch.query.relevance import abstains

DEFAULT_THRESHOLDS: tuple[float, ...] = (0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08, 0.1, 0.2, 0.35)
RELIABILITY_BINS = 10


def _retrieved(hits: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [h for h in hits if str(h.get("via") or "retrieval") == "retrieval"]


def kind(item: GoldItem) -> str:
    """'off-topic' (answerable false), 'answerable' (has expected passages) or 'must-not-only'."""
    if not item.answerable:
        return "off-topic"
    return "answerable" if item.expected else "must-not-only"


def item_rows(items: Sequence[GoldItem], results: Mapping[str, Sequence[Mapping[str, Any]]]) -> list[dict[str, Any]]:
    """One row per item: id, kind, language, class, the best relevance of its retrieved hits and
    whether the best-relevance hit is an expected passage."""
    rows = []
    for item in items:
        hits = _retrieved(results.get(item.id, ()))
        known = [h for h in hits if h.get("relevance") is not None]
        best = max(known, key=lambda h: h["relevance"]) if known else None
        rows.append({
            "id": item.id, "kind": kind(item), "language": item.language, "class": item_class(item),
            "best_relevance": best["relevance"] if best else None,
            "best_is_expected": bool(best) and any(p.matches(best) for p in item.expected),
            "hits": len(hits), "no_relevance": bool(hits) and not known,
        })
    return rows


def rates(rows: Sequence[Mapping[str, Any]], threshold: float) -> dict[str, Any]:
    """At one threshold: the share of off-topic questions flagged and of answerable ones wrongly
    flagged (with their counts)."""
    def flagged(row: Mapping[str, Any]) -> bool:
        # no hit at all is not_found whatever the threshold; otherwise the service's decision
        return row["hits"] == 0 or abstains([row["best_relevance"]], threshold)[0]

    off = [r for r in rows if r["kind"] == "off-topic"]
    ans = [r for r in rows if r["kind"] == "answerable"]
    n_off, n_ans = sum(map(flagged, off)), sum(map(flagged, ans))
    return {
        "threshold": threshold,
        "off_topic": len(off), "off_topic_flagged": n_off,
        "off_topic_flagged_share": n_off / len(off) if off else None,
        "answerable": len(ans), "answerable_flagged": n_ans,
        "answerable_flagged_share": n_ans / len(ans) if ans else None,
        "must_not_only": sum(r["kind"] == "must-not-only" for r in rows),
    }


def label_pairs(items: Sequence[GoldItem], results: Mapping[str, Sequence[Mapping[str, Any]]]
                ) -> list[tuple[float, int]]:
    """(relevance, label) for every retrieved hit with a relevance, of the answerable and
    off-topic items (must-not-only items left out: nothing there is labelled relevant)."""
    pairs = []
    for item in items:
        if kind(item) == "must-not-only":
            continue
        for hit in _retrieved(results.get(item.id, ())):
            if hit.get("relevance") is not None:
                pairs.append((float(hit["relevance"]), int(any(p.matches(hit) for p in item.expected))))
    return pairs


def hit_rows(items: Sequence[GoldItem], results: Mapping[str, Sequence[Mapping[str, Any]]],
             dev_ids: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """One row per retrieved hit of the answerable and off-topic items, for fitting a calibration
    (benchmarks/fit_relevance.py --from): id, split (dev when the id is in `dev_ids`), whether the
    item is off-topic, label, rank, relevance and the features it was computed from."""
    rows = []
    for item in items:
        if kind(item) == "must-not-only":
            continue
        for hit in _retrieved(results.get(item.id, ())):
            if hit.get("relevance_features"):
                rows.append({"id": item.id, "split": "dev" if item.id in dev_ids else "held-out", "class": item_class(item),
                             "answerable": kind(item) == "answerable", "offtopic": kind(item) == "off-topic",
                             "label": int(any(p.matches(hit) for p in item.expected)), "rank": hit.get("rank"),
                             "relevance": hit.get("relevance"), "features": dict(hit["relevance_features"])})
    return rows


def brier(pairs: Sequence[tuple[float, int]]) -> float | None:
    """Mean squared difference between relevance and label (0 is perfect; always 0.5 scores 0.25)."""
    return fmean((p - y) ** 2 for p, y in pairs) if pairs else None


def reliability(pairs: Sequence[tuple[float, int]], bins: int = RELIABILITY_BINS) -> list[dict[str, Any]]:
    """Equal-width bins of relevance: n, mean relevance, share relevant (empty bins left out)."""
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [(p, y) for p, y in pairs if lo <= p < hi or (b == bins - 1 and p == 1.0)]
        if inside:
            out.append({"bin": f"{lo:.1f}-{hi:.1f}", "n": len(inside), "mean_relevance": fmean(p for p, _ in inside),
                        "share_relevant": fmean(y for _, y in inside)})
    return out


def expected_calibration_error(pairs: Sequence[tuple[float, int]], bins: int = RELIABILITY_BINS) -> float | None:
    """The reliability table's gaps |mean relevance - share relevant|, weighted by bin size."""
    if not pairs:
        return None
    table = reliability(pairs, bins)
    return sum(r["n"] * abs(r["mean_relevance"] - r["share_relevant"]) for r in table) / len(pairs)


def by_class(rows: Sequence[Mapping[str, Any]], thresholds: Sequence[float]) -> dict[str, list[dict[str, Any]]]:
    """The rates of each class of question (the `[class:...]` tag of its notes; "answerable" or
    "off-topic" for an untagged one), by kind: "off-topic: legal" (general off-topic, legal
    off-topic, near-miss in the blind set) is flagged or not; "answerable: scenario" wrongly or not."""
    def name(row: Mapping[str, Any]) -> str:
        return f"{row['kind']}: {row['class'] or row['kind']}"

    return {c: [rates([r for r in rows if name(r) == c], t) for t in thresholds]
            for c in sorted({name(r) for r in rows if r["kind"] != "must-not-only"})}


def evaluate(items: Sequence[GoldItem], results: Mapping[str, Sequence[Mapping[str, Any]]],
             thresholds: Sequence[float] = DEFAULT_THRESHOLDS) -> dict[str, Any]:
    """Abstention rates at each threshold (overall and by language), calibration of the hits'
    relevance, and the per-item rows."""
    rows = item_rows(items, results)
    pairs = label_pairs(items, results)
    by_language = {lang: [rates([r for r in rows if r["language"] == lang], t) for t in thresholds]
                   for lang in sorted({r["language"] for r in rows})}
    return {
        "rates": [rates(rows, t) for t in thresholds],
        "by_language": by_language,
        "by_class": by_class(rows, thresholds),
        "calibration": {"pairs": len(pairs), "positives": sum(y for _, y in pairs), "brier": brier(pairs),
                        "ece": expected_calibration_error(pairs), "reliability": reliability(pairs)},
        "no_relevance": [r["id"] for r in rows if r["no_relevance"]],
        "per_item": rows,
    }


def _flagged(r: Mapping[str, Any]) -> str:
    """'40.0% (4/10)': the off-topic share flagged, or the answerable share wrongly flagged."""
    key = "off_topic" if r["off_topic"] else "answerable"
    share = r[f"{key}_flagged_share"]
    return "-" if share is None else f"{share:.1%} ({r[f'{key}_flagged']}/{r[key]})"


def markdown(report: Mapping[str, Any], title: str = "", at: Sequence[float] = ()) -> str:
    """The rates, the rates by class at the thresholds `at` (flagged share of an off-topic class,
    wrongly flagged share of an answerable one) and the reliability table as markdown."""
    lines = [f"### {title}\n" if title else "",
             "| threshold | off-topic flagged | answerable wrongly flagged |", "|---:|---:|---:|"]
    for r in report["rates"]:
        off = "-" if r["off_topic_flagged_share"] is None else \
            f"{r['off_topic_flagged_share']:.1%} ({r['off_topic_flagged']}/{r['off_topic']})"
        ans = "-" if r["answerable_flagged_share"] is None else \
            f"{r['answerable_flagged_share']:.1%} ({r['answerable_flagged']}/{r['answerable']})"
        lines.append(f"| {r['threshold']:g} | {off} | {ans} |")
    classes = report.get("by_class") or {}
    shown = [i for i, r in enumerate(report["rates"]) if any(math.isclose(r["threshold"], t) for t in at)]
    if classes and shown:
        lines += ["", "By class (off-topic: share flagged; answerable: share wrongly flagged):", "",
                  "| class | " + " | ".join(f"{report['rates'][i]['threshold']:g}" for i in shown) + " |",
                  "|---|" + "---:|" * len(shown)]
        lines += [f"| {c} | " + " | ".join(_flagged(table[i]) for i in shown) + " |" for c, table in classes.items()]
    cal = report["calibration"]
    if cal["pairs"]:
        lines += ["", f"Calibration over {cal['pairs']} retrieved hits ({cal['positives']} expected passages): "
                  f"Brier {cal['brier']:.4f}, ECE {cal['ece']:.4f}", "",
                  "| relevance | hits | mean relevance | share relevant |", "|---|---:|---:|---:|"]
        lines += [f"| {b['bin']} | {b['n']} | {b['mean_relevance']:.3f} | {b['share_relevant']:.3f} |"
                  for b in cal["reliability"]]
    if report["no_relevance"]:
        lines += ["", f"No relevance computed for: {', '.join(report['no_relevance'])}"]
    return "\n".join(lines).lstrip("\n") + "\n"
