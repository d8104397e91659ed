"""Run LegalBench-RAG and gold-set evaluations against any retriever, and read the
configurations to compare (``evaluation/configs/*.json``).

The retriever is a protocol so the OpenSearch-backed one plugs in without this module
knowing about OpenSearch; each query is searched once at max(ks) and the ranked list is cut
for every k.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any, Literal, Protocol

from legalsearch.embed import build_for, build_key
from legalsearch.errors import ConfigError
from legalsearch.evaluation.gold import GoldItem
from legalsearch.evaluation.legalbench import BenchQuery
from legalsearch.evaluation.metrics import (
    DEFAULT_BUDGETS,
    DEFAULT_KS,
    EvaluationError,
    Span,
    aggregate,
    char_recall,
    evaluate_query,
    with_mean_over_k,
)
from legalsearch.query import profiles
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from tqdm import tqdm

AVERAGE = "average"
N_QUERIES = "n_queries"


class Retriever(Protocol):
    """Anything that answers a query with ranked spans of the ORIGINAL document text."""

    def retrieve(self, query: str, k: int) -> list[Span]:
        """The best ``k`` spans, best first (file paths as the benchmark names them)."""
        ...


class GoldSearcher(Protocol):
    """Anything that answers a gold-set question with CLI-shaped hit dicts."""

    def search(self, item: GoldItem, k: int) -> list[dict[str, Any]]:
        """Hits (``doc_id``, ``version``, ``section``, ``chunk_id``, ``via``, ``rank``) for
        ``item.query``, honouring ``item.as_of`` and ``item.groups``."""
        ...


def _span_dict(span: Span) -> dict[str, Any]:
    return {"file_path": span.file_path, "start": span.start, "end": span.end}


def _average_subsets(per_subset: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    # Each subset weighs the same, whatever its number of queries (the benchmark's convention).
    names = [n for n in next(iter(per_subset.values())) if n != N_QUERIES and not n.endswith("@mean")]
    average = {name: fmean(metrics[name] for metrics in per_subset.values()) for name in names}
    average = with_mean_over_k(average)
    average[N_QUERIES] = sum(metrics[N_QUERIES] for metrics in per_subset.values())
    return average


def run_legalbench(
    queries: Sequence[BenchQuery],
    retriever: Retriever,
    ks: Sequence[int] = DEFAULT_KS,
    budgets: Sequence[int] = DEFAULT_BUDGETS,
    progress: bool = True,
    context: bool = False,
) -> tuple[dict[str, dict[str, float]], list[dict[str, Any]]]:
    """Search every query once at max(ks) and score it at every k and budget (with `context`,
    also the recall of the retriever's `contexts(query, budgets)`: `context_recall@budget<B>`).

    Returns:
        ``({subset: metrics, ..., "average": metrics}, rows)``: metrics are the per-subset
        means (plus ``@mean`` summaries and ``n_queries``), "average" weighs subsets equally;
        one row per query with ``query_id``, ``subset``, ``query``, ``metrics``,
        ``retrieved`` and ``gold`` (spans as dicts, for debugging).

    Raises:
        EvaluationError: no queries, or the retriever returned something that is not a Span.
    """
    if not queries:
        raise EvaluationError("no queries to evaluate")
    max_k = max(ks)
    rows: list[dict[str, Any]] = []
    for q in tqdm(queries, desc="legalbench", unit="query", file=sys.stderr, disable=not progress):
        retrieved = list(retriever.retrieve(q.query, max_k))[:max_k]
        bad = [type(s).__name__ for s in retrieved if not isinstance(s, Span)]
        if bad:
            raise EvaluationError(
                f"retriever returned {bad[0]} for {q.query_id}; it must return Span objects"
            )
        metrics = evaluate_query(retrieved, q.gold, ks, budgets)
        if context:
            # the context builder at each budget: recall of what `legalsearch context` would hand over
            for budget, spans in retriever.contexts(q.query, budgets).items():
                metrics[f"context_recall@budget{budget}"] = char_recall(spans, q.gold)
        rows.append(
            {
                "query_id": q.query_id,
                "subset": q.subset,
                "query": q.query,
                "metrics": metrics,
                "retrieved": [_span_dict(s) for s in retrieved],
                "gold": [_span_dict(s) for s in q.gold],
            }
        )
    return aggregate_rows(rows), rows


def aggregate_rows(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """Per-subset means of per-query rows, plus "average" (subsets weighted equally). Used for
    the whole run and for any part of it (e.g. the held-out half)."""
    per_subset: dict[str, dict[str, float]] = {}
    for subset in dict.fromkeys(row["subset"] for row in rows):
        subset_rows = [row["metrics"] for row in rows if row["subset"] == subset]
        per_subset[subset] = {**aggregate(subset_rows), N_QUERIES: len(subset_rows)}
    return {**per_subset, AVERAGE: _average_subsets(per_subset)}


def run_gold(
    items: Sequence[GoldItem], searcher: GoldSearcher, k: int = 10, progress: bool = True
) -> dict[str, list[dict[str, Any]]]:
    """Search every gold question once; returns item id -> hits, ready for ``score_gold``."""
    return {
        item.id: list(searcher.search(item, k))
        for item in tqdm(items, desc="gold set", unit="query", file=sys.stderr, disable=not progress)
    }


class EvalConfig(BaseModel):
    """One retrieval configuration to compare (``evaluation/configs/<name>.json``): what is indexed
    (chunker, summarizer, embedder, ...) and how it is searched, stated as a profile (the baseline,
    legalsearch.query.profiles) and the options it changes (``set``, by flat request name)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    name: str = Field(min_length=1)
    description: str = ""
    chunker: Literal["recursive", "structural"] = "structural"
    chunk_size: int | None = Field(None, gt=0, description="None: derived from the embedder window")
    summarizer: str | None = Field("title-fingerprint", description="None: no summary")
    embedder: str = "minilm"
    embed_parts: tuple[Literal["summary", "heading", "text"], ...] | None = Field(
        None, min_length=1, description="what each chunk's vector and embedded_text hold; None: the ingest default")
    profile: str = Field(profiles.DEFAULT_PROFILE, description="the search baseline: a profile name or file")
    overrides: dict[str, Any] = Field(default_factory=dict, alias="set",
                                      description="search options changed from the profile, by flat name")

    @model_validator(mode="after")
    def _valid_search(self) -> EvalConfig:
        profiles.options(self.profile)
        profiles.check_options(self.overrides, f"config {self.name!r}")
        return self

    def request_fields(self) -> dict[str, Any]:
        """The search options this configuration runs with: its profile's, then its own (flat names)."""
        return {**profiles.options(self.profile), **self.overrides}


INDEX_FIELDS: tuple[str, ...] = ("chunker", "chunk_size", "summarizer", "embedder", "embed_parts")
"""The config fields that change what is indexed; the others only change the query."""


def load_config(path: Path) -> EvalConfig:
    """Read and validate one configuration file.

    Raises:
        ConfigError: naming the file and the bad or unknown field.
    """
    path = Path(path)
    try:
        return EvalConfig.model_validate_json(path.read_bytes())
    except (OSError, ValidationError) as e:
        raise ConfigError(f"{path}: invalid evaluation config: {e}") from e


def load_configs(config_dir: Path, names: Sequence[str] | None = None) -> list[EvalConfig]:
    """Every ``*.json`` config in ``config_dir`` (sorted by file name), or only ``names`` in
    the order given.

    Raises:
        ConfigError: unknown name, or two files declaring the same name.
    """
    configs = [load_config(p) for p in sorted(Path(config_dir).glob("*.json"))]
    by_name: dict[str, EvalConfig] = {}
    for config in configs:
        if config.name in by_name:
            raise ConfigError(f"two configs in {config_dir} are named {config.name!r}")
        by_name[config.name] = config
    if names is None:
        return configs
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise ConfigError(f"unknown config(s) {unknown}; available: {sorted(by_name)}")
    return [by_name[n] for n in names]


def config_fingerprint(config: EvalConfig) -> str:
    """Stable short hash of the fields that change the index (:data:`INDEX_FIELDS`): two
    configs with the same fingerprint, over the same corpus, can share one index."""
    fields = {f: getattr(config, f) for f in INDEX_FIELDS}
    if config.embed_parts is None:  # the default: the fingerprints from before the field existed
        del fields["embed_parts"]
    fields["embedder"] = build_key(build_for(config.embedder))  # the build: "minilm" changed runtime
    payload = json.dumps(fields, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()[:12]
