"""A LlamaIndex retriever over legalsearch: `LlamaIndexRetriever(client=LegalSearch(), index=...)`.

Returns `NodeWithScore`s whose `TextNode` holds the hit's text and, in its metadata, the
citation, `char_start` / `char_end`, `via`, section and version. The score is the reranker's
when one ran, else None: fused scores are not calibrated confidences.
"""

from __future__ import annotations

from typing import Any

from legalsearch.integrations import hit_metadata, missing_extra

try:
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise missing_extra("llamaindex", "llama-index-core") from e

__all__ = ["LlamaIndexRetriever"]


class LlamaIndexRetriever(BaseRetriever):
    """LlamaIndex `BaseRetriever` backed by `LegalSearch.search`.

    Args:
        client: a `search.LegalSearch`.
        index: the logical index to search (default: the client's).
        k: hits to return.
        **search_kwargs: `SearchRequest` options applied to every query (as_of, groups, ...).
    """

    def __init__(self, client: Any, index: str | None = None, k: int = 10, **search_kwargs: Any):
        super().__init__()
        self.client = client
        self.index = index
        self.k = k
        self.search_kwargs = search_kwargs

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        response = self.client.search(query_bundle.query_str, index=self.index, k=self.k, **self.search_kwargs)
        return [
            NodeWithScore(node=TextNode(text=hit.text, id_=f"{hit.chunk_id}#{hit.rank}", metadata=hit_metadata(hit),
                                        excluded_embed_metadata_keys=list(hit_metadata(hit)),
                                        excluded_llm_metadata_keys=[k for k in hit_metadata(hit) if k != "citation"]),
                          score=hit.score)
            for hit in response.hits
        ]
