"""Shared by both sides, stage 5, embed: the dense embedders (MiniLM, multilingual e5) behind one
interface, the per-process `Embedders` that loads each once, and the on-disk vector cache.

Ingestion embeds passages (summary + heading + text); the query side embeds questions (search,
routing, explain, e5 rescoring) with the build the index records in its `_meta`. The ONNX Runtime
builds (`onnxrt`) are exported once from the shipped weights (`export`).
"""

from legalsearch.embed.cache import EmbeddingCache, embed_with_cache, text_key
from legalsearch.embed.models import EMBEDDERS, Embedder, Embedders, build_for, build_key, index_build

__all__ = ["EMBEDDERS", "Embedder", "Embedders", "EmbeddingCache", "build_for", "build_key", "embed_with_cache",
           "index_build", "text_key"]
