"""The evaluation harness wired to the product: one index per configuration, every query through
the same SearchService as `legalsearch search`.

Index reuse: an index is named after the corpus scope and the config fields that change what is
indexed (`config_fingerprint`); ingestion skips unchanged documents (sha256 + settings key) and
embeddings are cached by text hash, so a second run over the same corpus costs only queries.
"""

from __future__ import annotations

import re
import sys
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from legalsearch.evaluation.gold import GoldItem
from legalsearch.evaluation.legalbench import (
    BenchQuery,
    benchmark_file_path,
    corpus_files,
    corpus_fingerprint,
)
from legalsearch.evaluation.metrics import Span
from legalsearch.evaluation.runner import EvalConfig, config_fingerprint, run_legalbench
from legalsearch.ingest import IngestOptions, file_sources, ingest
from legalsearch.query.context import build as build_context
from legalsearch.query.context import spans as context_spans
from legalsearch.query.models import SearchRequest
from legalsearch.query.service import SearchService


def title_from_filename(path: Path) -> str:
    """'01_Bosch-Automotive-Service-Solutions-Mutual-Non-Disclosure-Agreement-7-12-17.txt' ->
    'Bosch Automotive Service Solutions Mutual Non Disclosure Agreement 7 12 17'."""
    stem = urllib.parse.unquote(path.stem)
    stem = re.sub(r"^\d+[_\s-]+", "", stem)
    return " ".join(re.sub(r"[_\-]+", " ", stem).split())


def index_name(config: EvalConfig, scope: str, data_dir: Path, files: Sequence[Path]) -> str:
    corpus = corpus_fingerprint(data_dir, files)[:8]
    return f"eval-{scope}-{corpus}-{config_fingerprint(config)}"


def build_index(config: EvalConfig, service: SearchService, data_dir: Path, files: Sequence[Path], scope: str,
                progress: bool = True) -> tuple[str, dict]:
    """Ingest `files` for `config` (idempotent) and return (index name, ingest summary)."""
    name = index_name(config, scope, data_dir, files)
    options = IngestOptions(
        index=name, chunker=config.chunker, chunk_size=config.chunk_size, summarizer=config.summarizer or "none",
        embedder=config.embedder, **({"embed_parts": config.embed_parts} if config.embed_parts else {}),
    )

    def metadata(path: Path) -> dict:
        # The benchmark ships no metadata: the file's name is its title (as a document store
        # holds it), its benchmark path its id, and every document is public.
        return {"doc_id": benchmark_file_path(data_dir, path), "title": title_from_filename(path), "public": True}

    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(files), desc=f"index {config.name}", unit="doc", file=sys.stderr)
    report = ingest(file_sources(list(files), metadata_override=metadata), service.settings, options,
                    store=service.store, embedders=service.embedders,
                    progress=(lambda n: bar.update(n)) if bar else None)
    if bar:
        bar.close()
    return name, report.summary()


class OpenSearchRetriever:
    """LegalBench spans from `legalsearch search` hits (retrieval hits only: expansion adds
    chunks beyond k, which the benchmark's k does not allow)."""

    def __init__(self, service: SearchService, config: EvalConfig, index: str, data_dir: Path):
        self.service = service
        self.config = config
        self.index = index
        self.data_dir = Path(data_dir)

    def request(self, query: str, k: int) -> SearchRequest:
        c = self.config
        return SearchRequest(**{**c.request_fields(), "query": query, "index": self.index, "k": k,
                                "expand_xrefs": False})

    def retrieve(self, query: str, k: int) -> list[Span]:
        response = self.service.search(self.request(query, k), write_log=False)
        return [Span(h.doc_id, h.char_start, h.char_end) for h in response.hits if h.via == "retrieval"]

    def contexts(self, query: str, budgets: Sequence[int]) -> dict[int, list[Span]]:
        """The spans of `legalsearch context` at each budget (one search, attachments included)."""
        _, hits, fetched, _ = self.service.context_sources(self.request(query, 10), max(budgets))
        out = {}
        for budget in budgets:
            pieces = build_context(query, hits, budget, fetched)
            out[budget] = [Span(doc_id, start, end) for doc_id, start, end in context_spans(pieces)]
        return out


def evaluate_legalbench(
    configs: Sequence[EvalConfig], service: SearchService, data_dir: Path, queries: Sequence[BenchQuery],
    scope: str, ks: Sequence[int], budgets: Sequence[int], progress: bool = True, context: bool = False,
) -> tuple[dict, dict[str, list[dict]], dict[str, Any]]:
    """Run every configuration; returns (results by config, per-query rows, index info)."""
    files = corpus_files(data_dir, scope, queries)
    results: dict[str, dict] = {}
    rows: dict[str, list[dict]] = {}
    info: dict[str, Any] = {}
    for config in configs:
        name, summary = build_index(config, service, data_dir, files, scope, progress)
        info[config.name] = {"index": name, "documents": summary["documents"], "chunks_written": summary["chunks"],
                             "unchanged": summary["unchanged"], "failed": summary["failed"],
                             "share_at_or_over_window": summary["share_at_or_over_window"],
                             "timings_s": summary["timings_s"]}
        retriever = OpenSearchRetriever(service, config, name, data_dir)
        results[config.name], rows[config.name] = run_legalbench(queries, retriever, ks, budgets, progress,
                                                                 context=context)
    return results, rows, info


class GoldServiceSearcher:
    """Gold-set questions through SearchService, honouring each item's as_of and groups."""

    def __init__(self, service: SearchService, index: str, base: dict | None = None):
        self.service = service
        self.index = index
        self.base = base or {}

    def search(self, item: GoldItem, k: int) -> list[dict[str, Any]]:
        req = SearchRequest(**{**self.base, "query": item.query, "index": self.index, "k": k, "as_of": item.as_of,
                               "groups": tuple(item.groups or ())})
        response = self.service.search(req, write_log=False)
        return [h.model_dump(mode="json") for h in response.hits]
