"""Vectors cached on disk by (embedder build, sha256 of the text): re-runs and evaluations never
embed the same text twice, and vectors of different builds (PyTorch / ONNX) never mix."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from legalsearch.embed.models import Embedder


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
    found = cache.get_many(embedder.cache_key, list(dict.fromkeys(keys)))
    missing = [i for i, k in enumerate(keys) if k not in found]
    if missing:
        fresh = embedder.embed_passages([texts[i] for i in missing])
        new = {keys[i]: fresh[j] for j, i in enumerate(missing)}
        cache.put_many(embedder.cache_key, new)
        found.update(new)
    return np.stack([found[k] for k in keys]) if keys else np.zeros((0, embedder.dim), dtype=np.float32)
