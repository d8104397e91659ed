"""A LangChain retriever over legalsearch: `LangChainRetriever(client=LegalSearch(), index=...)`.

Filters (as_of, groups, jurisdictions, doc_ids, ...) are set on the retriever with
`search_kwargs` or passed per call: `retriever.invoke("question", as_of="2026-01-01")`.
Each LangChain `Document` holds the hit's text as `page_content`; its metadata carries the
citation, `char_start` / `char_end`, `via`, section, version and the rest of the hit.
"""

from __future__ import annotations

from typing import Any

from legalsearch.integrations import hit_metadata, missing_extra

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document as LangChainDocument
    from langchain_core.retrievers import BaseRetriever
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise missing_extra("langchain", "langchain-core") from e

__all__ = ["LangChainRetriever"]


class LangChainRetriever(BaseRetriever):
    """LangChain `BaseRetriever` backed by `LegalSearch.search`.

    Args:
        client: a `search.LegalSearch`.
        index: the logical index to search (default: the client's).
        k: hits to return (cross-reference expansions are added after their hit).
        search_kwargs: default `SearchRequest` options (as_of, groups, jurisdictions, mode, ...).
    """

    client: Any
    index: str | None = None
    k: int = 10
    search_kwargs: dict[str, Any] = {}

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                **kwargs: Any) -> list[LangChainDocument]:
        options = {"index": self.index, "k": self.k, **self.search_kwargs, **kwargs}
        response = self.client.search(query, **options)
        return [LangChainDocument(page_content=hit.text, metadata=hit_metadata(hit)) for hit in response.hits]
