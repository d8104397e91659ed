"""Write evaluation results: ``results.json``, markdown tables and metric-vs-k plots.

Input is the runner's structure ``{config_name: {subset: metrics, "average": metrics}}``
(metrics as ``{"recall@16": 0.41, ...}``, fractions in [0, 1]); tables show percentages.
Plots use matplotlib's object API with the Agg canvas, so no display and no global backend.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from legalsearch.evaluation.metrics import DEFAULT_BUDGETS, MEAN_OVER_K_METRICS, metric_ks

AVERAGE = "average"
Results = Mapping[str, Mapping[str, Mapping[str, float]]]


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.2f}"


def _subsets(results: Results) -> list[str]:
    names: set[str] = set()
    for per_subset in results.values():
        names.update(name for name in per_subset if name != AVERAGE)
    return sorted(names)


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def table_markdown(
    results: Results,
    subsets: Sequence[str] | None = None,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
) -> str:
    """One row per configuration: P / R / DRM mean over k, recall at each character budget
    (and, when measured, the recall of `legalsearch context` at each budget; all from
    ``average``) and recall@mean per subset. Values in %."""
    subsets = list(subsets) if subsets is not None else _subsets(results)
    context = any(f"context_recall@budget{b}" in per.get(AVERAGE, {}) for per in results.values() for b in budgets)
    header = ["config", "P@mean", "R@mean", "DRM@mean"]
    header += [f"R@{b} chars" for b in budgets]
    header += [f"context R@{b}" for b in budgets] if context else []
    header += [f"R@mean {s}" for s in subsets]
    lines = [_row(header), _row(["---"] + ["---:"] * (len(header) - 1))]
    for name, per_subset in results.items():
        avg = per_subset.get(AVERAGE, {})
        cells = [name]
        cells += [_pct(avg.get(f"{m}@mean")) for m in MEAN_OVER_K_METRICS]
        cells += [_pct(avg.get(f"recall@budget{b}")) for b in budgets]
        cells += [_pct(avg.get(f"context_recall@budget{b}")) for b in budgets] if context else []
        cells += [_pct(per_subset.get(s, {}).get("recall@mean")) for s in subsets]
        lines.append(_row(cells))
    return "\n".join(lines) + "\n"


def table_by_k_markdown(results: Results, metric: str, scope: str = AVERAGE) -> str:
    """One row per configuration, one column per k, for ``metric`` in ``scope``. Values in %."""
    ks = sorted({k for per in results.values() for k in metric_ks(per.get(scope, {}), metric)})
    lines = [_row([f"{metric} ({scope})"] + [f"@{k}" for k in ks]), _row(["---"] + ["---:"] * len(ks))]
    for name, per_subset in results.items():
        values = per_subset.get(scope, {})
        lines.append(_row([name] + [_pct(values.get(f"{metric}@{k}")) for k in ks]))
    return "\n".join(lines) + "\n"


def plot_metric_vs_k(results: Results, metric: str, path: Path, scope: str = AVERAGE) -> Path:
    """PNG of ``metric@k`` against k (log2 axis), one line per configuration."""
    from matplotlib import colormaps
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4.8))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    all_ks: set[int] = set()
    # tab20 plus four line styles: up to 80 configurations stay distinguishable
    palette = colormaps["tab20"].colors
    styles = ("-", "--", "-.", ":")
    for i, (name, per_subset) in enumerate(results.items()):
        values = per_subset.get(scope, {})
        ks = metric_ks(values, metric)
        if ks:
            all_ks.update(ks)
            ax.plot(ks, [100 * values[f"{metric}@{k}"] for k in ks], marker="o", markersize=3,
                    color=palette[(2 * i) % 20 + (i // 10) % 2], linestyle=styles[(i // 20) % 4], label=name)
    ax.set_xscale("log", base=2)
    if all_ks:
        ax.set_xticks(sorted(all_ks), [str(k) for k in sorted(all_ks)])
    ax.set_xlabel("k (retrieved chunks)")
    ax.set_ylabel(f"{metric} (%)")
    ax.set_title(f"{metric} vs k ({scope})")
    ax.grid(True, alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=120)
    return path


def write_results(
    results: Results,
    out_dir: Path,
    per_query: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
) -> dict[str, Path]:
    """Write ``results.json``, ``results.md`` (summary table plus per-k tables) and
    ``{recall,precision,drm}_vs_k.png`` into ``out_dir``; with ``per_query`` (config name ->
    runner rows) also ``per_query/<config>.jsonl``. Returns the written paths by name."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    written["json"] = out_dir / "results.json"
    written["json"].write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    sections = [
        "# LegalBench-RAG results\n",
        "Values in %; averages weight each subset equally.\n",
        table_markdown(results),
    ]
    for metric in MEAN_OVER_K_METRICS:
        sections.append(table_by_k_markdown(results, metric))
    written["markdown"] = out_dir / "results.md"
    written["markdown"].write_text("\n".join(sections), encoding="utf-8")
    for metric in ("recall", "precision", "drm"):
        written[f"{metric}_plot"] = plot_metric_vs_k(results, metric, out_dir / f"{metric}_vs_k.png")
    for name, rows in (per_query or {}).items():
        path = out_dir / "per_query" / f"{name}.jsonl"
        written[f"per_query:{name}"] = write_jsonl(rows, path)
    return written


def write_jsonl(rows: Iterable[Mapping[str, Any]], path: Path) -> Path:
    """One JSON object per line (parent folders created)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def _p(value: float | None) -> str:
    return "–" if value is None else ("<0.001" if value < 0.001 else f"{value:.3f}")


def gold_table_markdown(gold_results: Mapping[str, Mapping[str, Any]],
                        significance: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """One row per configuration from :func:`score_gold` outputs: hit@5, hit@10, MRR, nDCG@10 (%),
    hit@10 per query type, xref recall and must_not violations; with ``significance``
    (:func:`gold.compare_gold`) also the paired p-values of hit@5 / hit@10 / MRR against its
    baseline (the baseline's own row shows "baseline")."""
    types = sorted({t for scores in gold_results.values() for t in scores.get("by_type", {})})
    header = ["config", "n", "hit@5", "hit@10", "MRR", "nDCG@10"] + [f"hit@10 {t}" for t in types]
    header += ["xref recall", "must_not violations"]
    baselines = {row["baseline"] for row in (significance or {}).values()}
    if significance:
        test = next(iter(significance.values()))["test"]
        header += [f"p hit@5 ({test})", "p hit@10", "p MRR"]
    lines = [_row(header), _row(["---"] + ["---:"] * (len(header) - 1))]
    for name, scores in gold_results.items():
        overall = scores.get("overall", {})
        by_type = scores.get("by_type", {})
        cells = [name, str(overall.get("n", 0))]
        cells += [_pct(overall.get(m)) for m in ("hit@5", "hit@10", "mrr", "ndcg@10")]
        cells += [_pct(by_type.get(t, {}).get("hit@10")) for t in types]
        cells.append(_pct(scores.get("xref", {}).get("recall")))
        cells.append(str(scores.get("must_not", {}).get("violations", 0)))
        if significance:
            if name in significance:
                cells += [_p(significance[name].get(m)) for m in ("hit@5", "hit@10", "rr")]
            else:
                cells += ["baseline" if name in baselines else "–", "", ""]
        lines.append(_row(cells))
    return "\n".join(lines) + "\n"


def gold_class_table_markdown(gold_results: Mapping[str, Mapping[str, Any]], metric: str = "hit@10") -> str:
    """One row per configuration, one column per failure class (and per class and language):
    `metric` (%) from the ``by_class`` / ``by_class_language`` summaries of :func:`score_gold`."""
    classes = sorted({c for scores in gold_results.values() for c in scores.get("by_class", {})})
    if not classes:
        return ""
    header = ["config", *classes]
    lines = [_row(header), _row(["---"] + ["---:"] * len(classes))]
    for name, scores in gold_results.items():
        by_class = scores.get("by_class", {})
        by_lang = scores.get("by_class_language", {})
        cells = [name]
        for c in classes:
            parts = [_pct(by_class.get(c, {}).get(metric))]
            langs = [f"{lang} {_pct(by_lang[f'{c}/{lang}'].get(metric))}" for lang in ("en", "it")
                     if f"{c}/{lang}" in by_lang]
            cells.append(parts[0] + (f" ({', '.join(langs)})" if langs else ""))
        lines.append(_row(cells))
    return "\n".join(lines) + "\n"
