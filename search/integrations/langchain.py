"""A LangChain retriever over legalsearch: `LangChainRetriever(client=LegalSearch(), index=...)`.

`invoke` returns exactly `k` LangChain `Document`s (fewer only when fewer passages pass the
filters): `page_content` is the hit's text, `id` its chunk id, and its metadata carries the
score (`score`, `fused_score`, `rerank_score`), the citation, `char_start` / `char_end`,
section, version and the rest of the hit, with the passages it cites under "xrefs"
(`include_xrefs=True` returns those as extra documents after the hits, as `legalsearch search`
lists them). Filters are a metadata filter dict, per call (`retriever.invoke(q, filter={"doc_id":
..., "as_of": ...})`) or in `search_kwargs={"filter": {...}}`, as LangChain's vector-store
retrievers take them; any other `SearchRequest` option passes through the same way
(`retriever.invoke(q, as_of="2026-01-01")`). `ainvoke` runs the search in a worker thread, so it
does not hold up the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from legalsearch.integrations import missing_extra, results, search_options

try:
    from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
    from langchain_core.documents import Document as LangChainDocument
    from langchain_core.retrievers import BaseRetriever
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise missing_extra("langchain", "langchain-core") from e

__all__ = ["LangChainRetriever"]


class LangChainRetriever(BaseRetriever):
    """LangChain `BaseRetriever` backed by `LegalSearch.search`.

    Args:
        client: a `legalsearch.LegalSearch`.
        index: the logical index to search (default: the client's).
        k: documents to return.
        include_xrefs: also return the passages the hits cite, as documents after the hits (their
            metadata "via" names the citing chunk; they have no score); by default they are only
            in the citing document's metadata["xrefs"].
        search_kwargs: default `SearchRequest` options (as_of, groups, mode, rerank, ...) and a
            metadata `filter` dict (keys: doc_id(s), doc_type(s), jurisdiction(s), language(s),
            group(s), as_of).
    """

    client: Any
    index: str | None = None
    k: int = 10
    include_xrefs: bool = False
    search_kwargs: dict[str, Any] = {}

    def _documents(self, query: str, kwargs: dict[str, Any]) -> list[LangChainDocument]:
        options = search_options({"index": self.index, "k": self.k, **self.search_kwargs}, kwargs)
        response = self.client.search(query, **options)
        return [LangChainDocument(id=hit.chunk_id, page_content=hit.text, metadata=metadata)
                for hit, metadata in results(response.hits, self.include_xrefs)]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                **kwargs: Any) -> list[LangChainDocument]:
        return self._documents(query, kwargs)

    async def _aget_relevant_documents(self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun,
                                       **kwargs: Any) -> list[LangChainDocument]:
        return await asyncio.to_thread(self._documents, query, kwargs)
