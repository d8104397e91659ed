"""legalsearch: retrieval that legal RAG can trust, on OpenSearch.

The public Python API is what this package exports (docs/python.md); every other module is
internal and may move:

    from legalsearch import LegalSearch, Document

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
    "LegalSearch": "legalsearch.client",
    "Settings": "legalsearch.config",
    "Document": "legalsearch.documents.models",
    "SearchRequest": "legalsearch.query.models",
    "SearchResponse": "legalsearch.query.models",
    "Hit": "legalsearch.query.models",
    "ContextResponse": "legalsearch.query.context",
    "ContextPiece": "legalsearch.query.context",
    "ContextPart": "legalsearch.query.context",
    "IngestReport": "legalsearch.ingest.report",
    "DocReport": "legalsearch.ingest.report",
    "LegalSearchError": "legalsearch.errors",
    "ConfigError": "legalsearch.errors",
    "NodeError": "legalsearch.errors",
    "StoreError": "legalsearch.errors",
    "BulkError": "legalsearch.errors",
    "QueryError": "legalsearch.errors",
    "IngestError": "legalsearch.errors",
    "AuthenticationError": "legalsearch.errors",
    "PermissionDeniedError": "legalsearch.errors",
    "SecurityError": "legalsearch.errors",
    "TLSError": "legalsearch.errors",
    "DocumentError": "legalsearch.documents.errors",
    "MetadataError": "legalsearch.documents.errors",
    # optional extras: `pip install .[langchain]` / `.[llamaindex]`
    "LangChainRetriever": "legalsearch.integrations.langchain",
    "LlamaIndexRetriever": "legalsearch.integrations.llamaindex",
}

__all__ = [
    "AuthenticationError", "PermissionDeniedError", "SecurityError", "TLSError",
    "BulkError", "ConfigError", "ContextPart", "ContextPiece", "ContextResponse", "DocReport", "Document",
    "DocumentError", "Hit", "IngestError", "IngestReport", "LangChainRetriever", "LegalSearch", "LegalSearchError",
    "LlamaIndexRetriever", "MetadataError", "NodeError",
    "QueryError", "SearchRequest", "SearchResponse", "Settings", "StoreError", "__version__",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    from legalsearch.client import LegalSearch
    from legalsearch.config import Settings
    from legalsearch.documents.errors import DocumentError, MetadataError
    from legalsearch.documents.models import Document
    from legalsearch.errors import (
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
    from legalsearch.ingest.report import DocReport, IngestReport
    from legalsearch.integrations.langchain import LangChainRetriever
    from legalsearch.integrations.llamaindex import LlamaIndexRetriever
    from legalsearch.query.context import ContextPart, ContextPiece, ContextResponse
    from legalsearch.query.models import Hit, SearchRequest, SearchResponse


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'search' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
