"""The internal surface for the project's own scripts: benchmarks/ and evaluation/gold/*/tools.

Users import `legalsearch` (docs/python.md). The scripts need more than that: the store, the
search service, the evaluation harness, the chunker, the node's accounts. They import those
names from here and from no other module of the package, so that when a module moves only the
table below changes, never the scripts. tests/integration/test_scripts.py runs every benchmark
and checks that they import nothing else; tests/unit/test_scripts_surface.py resolves every
name. It is not an API for anyone else: the names follow the code they stand for.

Names are imported on first use, as in `legalsearch` itself: a benchmark that times its own
imports (benchmarks/embedding.py's model load, benchmarks/startup.py) pays only for what it
takes. Nothing in the package imports this module (it sits beside the CLI at the top of the
import layers in pyproject.toml).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# name -> "module:attribute" (an attribute of the module) or "module" (the module itself)
_EXPORTS = {
    "LegalSearch": "legalsearch.client:LegalSearch",
    "Settings": "legalsearch.config:Settings",
    "DOC_TYPES": "legalsearch.documents.models:DOC_TYPES",
    "DocumentMeta": "legalsearch.documents.models:DocumentMeta",
    "Store": "legalsearch.store:Store",
    "BulkStats": "legalsearch.store:BulkStats",
    "BulkError": "legalsearch.errors:BulkError",
    "connection": "legalsearch.store:connection",
    "Embedders": "legalsearch.embed:Embedders",
    "export": "legalsearch.embed.export",
    "SearchService": "legalsearch.query.service:SearchService",
    "SearchRequest": "legalsearch.query.models:SearchRequest",
    "Filters": "legalsearch.query.models:Filters",
    "parse_identifiers": "legalsearch.query.identifiers:parse_identifiers",
    "templates": "legalsearch.query.templates",
    "bodies": "legalsearch.query.bodies",
    "plan": "legalsearch.query.plan",
    "IngestOptions": "legalsearch.ingest:IngestOptions",
    "file_sources": "legalsearch.ingest:file_sources",
    "ingest": "legalsearch.ingest:ingest",
    "ingest_batch": "legalsearch.ingest.run:ingest_batch",
    "indices": "legalsearch.index.indices",
    "records": "legalsearch.index.records",
    "schema": "legalsearch.index.schema",
    "bulk": "legalsearch.index.bulk",
    "walls": "legalsearch.index.walls",
    "admin": "legalsearch.security.admin",
    "secrets": "legalsearch.security.secrets",
    "cluster": "legalsearch.node.cluster",
    "load_document": "legalsearch.load:load_document",
    "build_document": "legalsearch.load:build_document",
    "read_sidecar": "legalsearch.load.metadata:read_sidecar",
    "infer_language": "legalsearch.load.metadata:infer_language",
    "has_structure": "legalsearch.parse.tree:has_structure",
    "chunk_document": "legalsearch.chunk:chunk_document",
    "get_summarizer": "legalsearch.summarize:get_summarizer",
    "load_gold": "legalsearch.evaluation.gold:load_gold",
    "split_gold": "legalsearch.evaluation.gold:split_gold",
    "abstain": "legalsearch.evaluation.abstain",
    "relevance": "legalsearch.query.relevance",
    "score_gold": "legalsearch.evaluation.gold:score_gold",
    "item_class": "legalsearch.evaluation.gold:item_class",
    "normalize_section": "legalsearch.evaluation.gold:normalize_section",
    "gold_summary": "legalsearch.evaluation.gold:_summary",
    "gold_class_table_markdown": "legalsearch.evaluation.report:gold_class_table_markdown",
    "build_index": "legalsearch.evaluation.harness:build_index",
    "title_from_filename": "legalsearch.evaluation.harness:title_from_filename",
    "available_subsets": "legalsearch.evaluation.legalbench:available_subsets",
    "benchmark_file_path": "legalsearch.evaluation.legalbench:benchmark_file_path",
    "corpus_files": "legalsearch.evaluation.legalbench:corpus_files",
    "load_benchmark": "legalsearch.evaluation.legalbench:load_benchmark",
    "Span": "legalsearch.evaluation.metrics:Span",
    "evaluate_query": "legalsearch.evaluation.metrics:evaluate_query",
    "with_mean_over_k": "legalsearch.evaluation.metrics:with_mean_over_k",
    "EvalConfig": "legalsearch.evaluation.runner:EvalConfig",
    "load_config": "legalsearch.evaluation.runner:load_config",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    pass


def __getattr__(name: str):
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'legalsearch.scripts' has no attribute {name!r}")
    module, _, attribute = target.partition(":")
    value = importlib.import_module(module)
    if attribute:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
