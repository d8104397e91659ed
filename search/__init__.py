"""legalsearch: retrieval that legal RAG can trust, on OpenSearch.

The public Python API is what this package exports (docs/python.md); every other module is
internal and may move:

    from search import LegalSearch, Document

    ls = LegalSearch()
    ls.ingest(["samples/corpus"], index="demo")
    for hit in ls.search("What is the liability cap in clause 14.3?", index="demo").hits:
        print(hit.citation)

Names are imported on first use, so `import search` stays cheap for the CLI's start-up.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

_EXPORTS = {
    "LegalSearch": "search.client",
    "Settings": "search.config",
    "Document": "search.load.memory",
    "SearchRequest": "search.query.models",
    "SearchResponse": "search.query.models",
    "Hit": "search.query.models",
    "ContextResponse": "search.query.context",
    "ContextPiece": "search.query.context",
    "ContextPart": "search.query.context",
    "IngestReport": "search.ingest.report",
    "DocReport": "search.ingest.report",
    "LegalSearchError": "search.errors",
    "ConfigError": "search.errors",
    "NodeError": "search.errors",
    "StoreError": "search.errors",
    "BulkError": "search.errors",
    "QueryError": "search.errors",
    "IngestError": "search.errors",
    "AuthenticationError": "search.errors",
    "PermissionDeniedError": "search.errors",
    "SecurityError": "search.errors",
    "TLSError": "search.errors",
    "DocumentError": "search.documents.errors",
    "MetadataError": "search.documents.errors",
    # optional extras: `pip install .[langchain]` / `.[llamaindex]`
    "LangChainRetriever": "search.integrations.langchain",
    "LlamaIndexRetriever": "search.integrations.llamaindex",
}

__all__ = [
    "AuthenticationError", "PermissionDeniedError", "SecurityError", "TLSError",
    "BulkError", "ConfigError", "ContextPart", "ContextPiece", "ContextResponse", "DocReport", "Document",
    "DocumentError", "Hit", "IngestError", "IngestReport", "LangChainRetriever", "LegalSearch", "LegalSearchError",
    "LlamaIndexRetriever", "MetadataError", "NodeError",
    "QueryError", "SearchRequest", "SearchResponse", "Settings", "StoreError", "__version__",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from search.client import LegalSearch
    from search.config import Settings
    from search.documents.errors import DocumentError, MetadataError
    from search.errors import (
        AuthenticationError,
        BulkError,
        ConfigError,
        IngestError,
        LegalSearchError,
        NodeError,
        PermissionDeniedError,
        QueryError,
        SecurityError,
        StoreError,
        TLSError,
    )
    from search.ingest.report import DocReport, IngestReport
    from search.integrations.langchain import LangChainRetriever
    from search.integrations.llamaindex import LlamaIndexRetriever
    from search.load.memory import Document
    from search.query.context import ContextPart, ContextPiece, ContextResponse
    from search.query.models import Hit, SearchRequest, SearchResponse


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'search' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
