"""A LlamaIndex retriever over legalsearch: `LlamaIndexRetriever(client=LegalSearch(), index=...)`.

`retrieve` returns exactly `k` `NodeWithScore`s (fewer only when fewer passages pass the
filters). Each `TextNode` holds the hit's text under the chunk id as its id (the same id for the
same chunk whatever the query), and in its metadata the citation, `char_start` / `char_end`,
section, version and the passages it cites ("xrefs"; `include_xrefs=True` returns them as extra
nodes). The score is the hit's `score`: the reranker's when one ran, else the engine's fused
score, so `SimilarityPostprocessor(similarity_cutoff=...)` works on it (an order within one
response, not a calibrated confidence). Filters are a metadata filter dict, or LlamaIndex's own
`MetadataFilters` (equality and "in" filters joined by AND). `aretrieve` runs the search in a
worker thread, so it does not hold up the event loop.
"""

from __future__ import annotations

import asyncio
from typing import Any

from legalsearch.errors import QueryError
from legalsearch.integrations import FILTER_KEYS, missing_extra, results, search_options

try:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
    from llama_index.core.vector_stores.types import FilterCondition, FilterOperator, MetadataFilters
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise missing_extra("llamaindex", "llama-index-core") from e

__all__ = ["LlamaIndexRetriever"]


class LlamaIndexRetriever(BaseRetriever):
    """LlamaIndex `BaseRetriever` backed by `LegalSearch.search`.

    Args:
        client: a `legalsearch.LegalSearch`.
        index: the logical index to search (default: the client's).
        k: nodes to return.
        filters: a metadata filter dict (keys: doc_id(s), doc_type(s), jurisdiction(s),
            language(s), group(s), as_of; a value, a list, {"$eq": v} or {"$in": [...]}) or a
            LlamaIndex `MetadataFilters` of == / in filters joined by AND.
        include_xrefs: also return the passages the hits cite, as nodes after the hits (score
            None); by default they are only in the citing node's metadata["xrefs"].
        **search_kwargs: `SearchRequest` options applied to every query (as_of, groups, rerank, ...).
    """

    def __init__(self, client: Any, index: str | None = None, k: int = 10,
                 filters: dict[str, Any] | MetadataFilters | None = None, include_xrefs: bool = False,
                 **search_kwargs: Any):
        super().__init__()
        self.client = client
        self.index = index
        self.k = k
        self.include_xrefs = include_xrefs
        self.search_kwargs = search_kwargs
        self.filters = _filter_dict(filters)
        search_options({}, {"filter": self.filters})  # a bad filter fails here, not at the first query

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        options = search_options({"index": self.index, "k": self.k, **self.search_kwargs}, {"filter": self.filters})
        response = self.client.search(query_bundle.query_str, **options)
        return [NodeWithScore(node=_node(hit, metadata), score=hit.score)
                for hit, metadata in results(response.hits, self.include_xrefs)]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return await asyncio.to_thread(self._retrieve, query_bundle)


def _node(hit, metadata: dict) -> TextNode:
    return TextNode(text=hit.text, id_=hit.chunk_id, metadata=metadata,
                    excluded_embed_metadata_keys=list(metadata),
                    excluded_llm_metadata_keys=[key for key in metadata if key != "citation"])


def _filter_dict(filters: dict[str, Any] | MetadataFilters | None) -> dict[str, Any]:
    """A `MetadataFilters` as the filter dict `search_options` maps (a dict is kept as it is)."""
    if not isinstance(filters, MetadataFilters):
        return dict(filters or {})
    if filters.condition not in (None, FilterCondition.AND) and len(filters.filters) > 1:
        raise QueryError(f"only filters joined by AND are accepted, got {filters.condition}")
    out: dict[str, Any] = {}
    for f in filters.filters:
        if isinstance(f, MetadataFilters) or f.operator not in (FilterOperator.EQ, FilterOperator.IN):
            raise QueryError(f"only == and in filters on {', '.join(FILTER_KEYS)} are accepted, got {f!r}")
        if f.key in out:
            raise QueryError(f"filter key {f.key!r} given twice (give one 'in' filter with all its values)")
        out[f.key] = {"$in" if f.operator == FilterOperator.IN else "$eq": f.value}
    return out
