"""Summaries by (document hash, summarizer settings) in one SQLite file.

An LLM summary costs a request per document and a re-ingest asks for the same summaries
again, so they are cached; the key holds everything that changes the output
(`Summarizer.settings_key()`), so changing the candidate, the target or the model never
serves a stale summary.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from legalsearch.documents.models import ParsedDocument
from legalsearch.errors import ConfigError
from legalsearch.summarize.base import Summarizer

CACHE_FILE = "summaries.sqlite3"


class SummaryCache:
    """A SQLite summary cache.

    Args:
        path: a cache folder (the file `summaries.sqlite3` is created in it) or a file
            ending in .sqlite3 / .sqlite / .db.

    Raises:
        ConfigError: the cache file cannot be created or opened.
    """

    def __init__(self, path: str | Path):
        path = Path(path).expanduser()
        if path.suffix not in (".sqlite3", ".sqlite", ".db"):
            path = path / CACHE_FILE
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(path), check_same_thread=False)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS summaries (doc_sha256 TEXT, settings TEXT, summary TEXT,"
                " PRIMARY KEY (doc_sha256, settings))"
            )
            self._db.commit()
        except (OSError, sqlite3.Error) as e:
            raise ConfigError(f"cannot open the summary cache {path} ({e}); pass a writable cache folder") from e
        self.path = path
        self._lock = threading.Lock()

    def get(self, doc_sha256: str, settings_key: str) -> str | None:
        """The cached summary, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT summary FROM summaries WHERE doc_sha256 = ? AND settings = ?", (doc_sha256, settings_key)
            ).fetchone()
        return row[0] if row else None

    def put(self, doc_sha256: str, settings_key: str, summary: str) -> None:
        """Store (or replace) one summary."""
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO summaries VALUES (?, ?, ?)", (doc_sha256, settings_key, summary))
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM summaries").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SummaryCache:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def summarize_cached(summarizer: Summarizer, doc: ParsedDocument, cache: SummaryCache | None) -> str:
    """The document's summary from the cache, computed (and stored) on a miss."""
    if cache is None:
        return summarizer.summarize(doc)
    key = summarizer.settings_key()
    found = cache.get(doc.doc_sha256, key)
    if found is not None:
        return found
    summary = summarizer.summarize(doc)
    cache.put(doc.doc_sha256, key, summary)
    return summary
