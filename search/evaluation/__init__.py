"""Evaluation: LegalBench-RAG metrics and loader, the project's gold set, reports, the runner that
ties them to a retriever (pure), and `harness` + `compare`, which run them through the product's
own ingestion and SearchService (the only modules here that reach OpenSearch, through it)."""

from legalsearch.evaluation.gold import (
    GoldItem,
    GoldSetError,
    PassageRef,
    load_gold,
    normalize_section,
    score_gold,
)
from legalsearch.evaluation.legalbench import (
    BenchmarkError,
    BenchQuery,
    corpus_files,
    corpus_fingerprint,
    load_benchmark,
    split_queries,
)
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
)
from legalsearch.evaluation.report import gold_table_markdown, plot_metric_vs_k, table_markdown, write_results
from legalsearch.evaluation.runner import (
    EvalConfig,
    GoldSearcher,
    Retriever,
    config_fingerprint,
    load_config,
    load_configs,
    run_gold,
    run_legalbench,
)

__all__ = [
    "BenchQuery",
    "BenchmarkError",
    "EvalConfig",
    "EvaluationError",
    "GoldItem",
    "GoldSearcher",
    "GoldSetError",
    "PassageRef",
    "Retriever",
    "Span",
    "aggregate",
    "budget_recall",
    "char_precision",
    "char_recall",
    "config_fingerprint",
    "corpus_files",
    "corpus_fingerprint",
    "drm",
    "evaluate_query",
    "first_relevant_rank",
    "gold_table_markdown",
    "load_benchmark",
    "load_config",
    "load_configs",
    "load_gold",
    "normalize_section",
    "plot_metric_vs_k",
    "paired_p_value",
    "rank_metrics",
    "run_gold",
    "run_legalbench",
    "score_gold",
    "split_queries",
    "table_markdown",
    "write_results",
]
