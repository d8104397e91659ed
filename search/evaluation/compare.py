"""Comparisons that run many evaluations at once: the gold set over a matrix of search settings,
and one LegalBench run re-cut into its deterministic dev / held-out halves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from legalsearch.evaluation.gold import GoldItem, score_gold
from legalsearch.evaluation.harness import GoldServiceSearcher
from legalsearch.evaluation.legalbench import BenchQuery, split_queries
from legalsearch.evaluation.runner import EvalConfig, aggregate_rows, run_gold
from legalsearch.query.service import SearchService

DEFAULT_GOLD_MODES = ("hybrid", "bm25", "knn")


def gold_label(mode: str, fusion: str, routing: str) -> str:
    """'hybrid', 'hybrid rrf', 'bm25 + routing filter' ..."""
    return mode + (" rrf" if fusion == "rrf" and mode == "hybrid" else "") + ("" if routing == "off" else f" + routing {routing}")


def gold_matrix(items: Sequence[GoldItem], service: SearchService, index: str, *, k: int = 10,
                modes: Sequence[str] = (), fusions: Sequence[str] = (), routings: Sequence[str] = (),
                weights: tuple[float, ...] = (0.3, 0.7), progress: bool = True,
                extra: Mapping[str, Any] | None = None) -> dict[str, dict]:
    """Score the gold set for every mode x fusion (hybrid only) x routing; keys are `gold_label`s.
    Empty choices mean: the three modes, normalization fusion, routing auto (the search defaults).
    `extra`: more SearchRequest fields for every row (e.g. {"expand_limit": 2})."""
    scores: dict[str, dict] = {}
    for mode in modes or DEFAULT_GOLD_MODES:
        for fusion in (fusions or ("normalization",)) if mode == "hybrid" else ("normalization",):
            for routing in routings or ("auto",):
                base = {"mode": mode, "routing": routing, "fusion": fusion, "weights": weights, **(extra or {})}
                results = run_gold(items, GoldServiceSearcher(service, index, base), k=k, progress=progress)
                scores[gold_label(mode, fusion, routing)] = score_gold(items, results)
    return scores


def gold_configs(items: Sequence[GoldItem], service: SearchService, index: str, configs: Sequence[EvalConfig], *,
                 k: int = 10, progress: bool = True, extra: Mapping[str, Any] | None = None) -> dict[str, dict]:
    """Score the gold set once per evaluation configuration (its search fields: the same
    settings `eval legalbench` runs), keyed by the configuration's name."""
    scores: dict[str, dict] = {}
    for config in configs:
        base = {**config.request_fields(), **(extra or {})}
        results = run_gold(items, GoldServiceSearcher(service, index, base), k=k, progress=progress)
        scores[config.name] = score_gold(items, results)
    return scores


def split_results(rows: Mapping[str, Sequence[Mapping[str, Any]]], queries: Sequence[BenchQuery],
                  seed: int) -> dict[str, tuple[int, dict[str, dict]]]:
    """The per-query rows of one run (by config) re-aggregated on the dev and held-out halves:
    {"dev": (n_queries, results by config), "held-out": (...)}. Choose on dev, report held-out."""
    dev, held_out = split_queries(queries, 0.5, seed)
    out = {}
    for part, part_queries in (("dev", dev), ("held-out", held_out)):
        ids = {q.query_id for q in part_queries}
        out[part] = (len(ids), {name: aggregate_rows([r for r in config_rows if r["query_id"] in ids])
                                for name, config_rows in rows.items()})
    return out
