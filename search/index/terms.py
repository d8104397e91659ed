"""The analysed terms of passages, as an index's analyzer reads them, kept in memory and on disk.

Relevance (legalsearch.query.relevance) reads, for every hit, which of the question's terms its
passage (heading path, section title, text) and its document (title, summary) carry. The terms come
from `_mtermvectors` requests with artificial documents: the node analyses each text. A hit list
that cites a whole article (up to 300 chunks, 180k characters) made that analysis the longest wait
of a search the first time a process met the article (issue 27, "planning at the cost of a
search"). So the terms are also kept on disk (`TermsDisk`, SQLite under the cache folder, beside
the embedding cache), by the index's uuid (one index creation: its analyzer cannot change) and the
text's digest, and the ingest analyses every chunk it writes (`warm`): the first search of any
process on this machine finds them there.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from pathlib import Path

from legalsearch.errors import LegalSearchError

log = logging.getLogger(__name__)

TERMS_FIELD = "embedded_text"
"""The field whose analyzer reads the question and the passages, and whose statistics give the IDF."""

DISK_FILE = "terms.sqlite"
"""The file under the cache folder (`Settings.cache_dir`) that keeps terms on disk."""

SEPARATOR = "\x1f"
"""Between the terms of one text on disk (an analysed term holds no control character)."""


def passage_text(source: Mapping) -> str:
    """What `coverage` reads of a hit: its heading path, section title and text."""
    heading = " > ".join(source.get("heading_path") or [])
    return "\n".join(p for p in (heading, source.get("section_title") or "", source.get("text") or "") if p)


def document_text(source: Mapping) -> str:
    """What `doc_coverage` reads of a hit: its document's title and summary."""
    return "\n".join(p for p in (source.get("doc_title") or "", source.get("summary") or "") if p)


def passage_texts(sources: Sequence[Mapping]) -> list[str]:
    """What relevance analyses of `sources`: each one's passage, then each one's document text."""
    return [passage_text(s) for s in sources] + [document_text(s) for s in sources]


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class TermsDisk:
    """Terms by (index uuid, text digest) in one SQLite file, shared by the processes of a machine
    (WAL: readers do not wait for a writer). Thread-safe."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("CREATE TABLE IF NOT EXISTS terms (idx TEXT, key BLOB, terms TEXT, PRIMARY KEY (idx, key))")
            self._db.commit()

    def get_many(self, uuid: str, keys: Sequence[bytes]) -> dict[bytes, frozenset[str]]:
        found: dict[bytes, frozenset[str]] = {}
        keys = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(keys), 500):
                batch = keys[start:start + 500]
                rows = self._db.execute(f"SELECT key, terms FROM terms WHERE idx = ? AND key IN ({','.join('?' * len(batch))})",
                                        [uuid, *batch])
                for key, terms in rows:
                    found[bytes(key)] = frozenset(terms.split(SEPARATOR)) if terms else frozenset()
        return found

    def put_many(self, uuid: str, items: Mapping[bytes, frozenset[str]]) -> None:
        if not items:
            return
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO terms VALUES (?, ?, ?)",
                                 [(uuid, key, SEPARATOR.join(sorted(terms))) for key, terms in items.items()])
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()


class TermsCache:
    """The analysed terms of texts already read, by (index, text digest), least recently used out
    first: a passage's terms depend only on its text and the index's analyzer, and a concrete
    index (one generation) keeps its analyzer, so a clause that comes back for another question
    (a cited article expanded for every question about its contract) is not analysed again. With a
    disk (`use_disk`), what memory lacks is looked up there for the indices whose uuid is known
    (`know`), and what is analysed is written there too."""

    def __init__(self, size: int = 20_000):
        self.size = size
        self._terms: OrderedDict[tuple[str, bytes], frozenset[str]] = OrderedDict()
        self._lock = threading.Lock()
        self.disk: TermsDisk | None = None
        self._uuids: dict[str, str] = {}  # concrete index -> its uuid

    @staticmethod
    def key(index: str, text: str) -> tuple[str, bytes]:
        return index, digest(text)

    def use_disk(self, path: Path) -> None:
        """Keep terms in (and read them from) the SQLite file `path` too; the same path again is a
        no-op. A file that cannot be opened (a read-only cache folder) leaves the cache in memory
        only, with a warning in the log."""
        with self._lock:
            if self.disk is not None and self.disk.path == path:
                return
        try:
            disk = TermsDisk(path)
        except (OSError, sqlite3.Error) as e:
            log.warning("passage terms kept in memory only: %s cannot be opened (%s)", path, e)
            return
        with self._lock:
            old, self.disk = self.disk, disk
        if old is not None:
            old.close()

    def know(self, index: str, uuid: str | None) -> None:
        """The uuid of a concrete index (its settings' `index.uuid`): its terms may be read from disk."""
        if uuid:
            with self._lock:
                self._uuids[index] = uuid

    def uuid(self, index: str) -> str | None:
        with self._lock:
            return self._uuids.get(index)

    def get(self, key: tuple[str, bytes]) -> frozenset[str] | None:
        with self._lock:
            found = self._terms.get(key)
            if found is not None:
                self._terms.move_to_end(key)
            return found

    def put(self, key: tuple[str, bytes], terms: frozenset[str]) -> None:
        with self._lock:
            self._terms[key] = terms
            self._terms.move_to_end(key)
            while len(self._terms) > self.size:
                self._terms.popitem(last=False)

    def get_many(self, keys: Sequence[tuple[str, bytes]]) -> dict[tuple[str, bytes], frozenset[str]]:
        """What memory knows of `keys`, then what the disk knows of the rest (kept in memory after)."""
        known = {k: found for k in set(keys) if (found := self.get(k)) is not None}
        disk = self.disk
        missing = [k for k in dict.fromkeys(keys) if k not in known]
        if disk is None or not missing:
            return known
        by_index: dict[str, list[bytes]] = {}
        for index, key in missing:
            by_index.setdefault(index, []).append(key)
        for index, keys_ in by_index.items():
            uuid = self.uuid(index)
            if uuid is None:
                continue
            for key, terms in disk.get_many(uuid, keys_).items():
                known[(index, key)] = terms
                self.put((index, key), terms)
        return known

    def put_many(self, items: Mapping[tuple[str, bytes], frozenset[str]]) -> None:
        """Keep `items` in memory and, for indices whose uuid is known, on disk."""
        by_index: dict[str, dict[bytes, frozenset[str]]] = {}
        for (index, key), terms in items.items():
            self.put((index, key), terms)
            by_index.setdefault(index, {})[key] = terms
        disk = self.disk
        if disk is None:
            return
        for index, found in by_index.items():
            uuid = self.uuid(index)
            if uuid is not None:
                disk.put_many(uuid, found)


TERMS = TermsCache()
"""The process's cache of analysed passage terms (`passage_terms`): about 55 MB when full (2.7 KB a
text, measured over 2,000 LegalBench chunks and their summaries)."""


def artificial(index: str, text: str, stats: bool) -> dict:
    return {"_index": index, "doc": {TERMS_FIELD: text}, "fields": [TERMS_FIELD], "positions": False,
            "offsets": False, "payloads": False, "term_statistics": stats, "field_statistics": stats}


def term_vectors(store, index: str, docs: list[dict]) -> list[dict]:
    """The `TERMS_FIELD` term vectors of artificial documents (`artificial`), in order: one
    `_mtermvectors` request."""
    status, body = store.call("POST", "/_mtermvectors", {"docs": docs})
    if status != 200:
        raise LegalSearchError(f"term vectors of {index} refused (HTTP {status}): {str(body)[:200]}")
    answers = body.get("docs") or []
    if len(answers) != len(docs):
        raise LegalSearchError(f"term vectors of {index}: {len(answers)} answers for {len(docs)} documents")
    out = []
    for d in answers:
        if d.get("error"):
            raise LegalSearchError(f"term vectors of {index}: {str(d['error'])[:200]}")
        out.append((d.get("term_vectors") or {}).get(TERMS_FIELD) or {})
    return out


def analysed(store, index: str, question: str | None, texts: Sequence[str], cache: TermsCache | None
             ) -> tuple[tuple[dict[str, int], int] | None, list[set[str]]]:
    """One `_mtermvectors` request for what is not known yet: the question's statistics (when
    `question` is given: its analysed terms -> document frequency in `index`, the number of chunks)
    and the terms of each distinct text not in `cache` (memory, then disk; None: every text); no
    request when there is nothing to ask. Returns (the statistics or None, each text's terms)."""
    keys = [TermsCache.key(index, t) for t in texts]
    known = cache.get_many(keys) if cache is not None else {}
    asked = list(dict.fromkeys((k, t) for k, t in zip(keys, texts, strict=True) if k not in known))
    docs = ([artificial(index, question, True)] if question is not None else []) + \
        [artificial(index, t, False) for _, t in asked]
    answers = term_vectors(store, index, docs) if docs else []
    stats = None
    if question is not None:
        first = answers.pop(0)
        n = int((first.get("field_statistics") or {}).get("doc_count") or 0)
        stats = {t: int(v.get("doc_freq") or 0) for t, v in (first.get("terms") or {}).items()}, n
    fresh = {key: frozenset(vectors.get("terms") or {}) for (key, _), vectors in zip(asked, answers, strict=True)}
    known.update(fresh)
    if cache is not None:
        cache.put_many(fresh)
    return stats, [set(known[k]) for k in keys]


def question_statistics(store, index: str, question: str) -> tuple[dict[str, int], int]:
    """(the question's analysed terms -> document frequency in `index`, the number of chunks): it
    depends on the question alone, so a search asks it beside its first stage."""
    return analysed(store, index, question, (), None)[0]


def passage_terms(store, index: str, texts: Sequence[str], cache: TermsCache | None = TERMS) -> list[set[str]]:
    """Each text's terms as `index`'s analyzer reads them: one `_mtermvectors` request for the
    distinct texts not in `cache` (None: every text), none when all are known."""
    return analysed(store, index, None, texts, cache)[1]


WARM_BATCH = 200
"""Texts per `_mtermvectors` request when an ingest analyses what it wrote (`warm`)."""


def warm(store, index: str, uuid: str, sources: Sequence[Mapping], cache: TermsCache = TERMS) -> int:
    """Analyse the passage and document texts of chunk `sources` written to the concrete `index`
    (of uuid `uuid`) into `cache` and its disk, `WARM_BATCH` texts a request; texts known already
    are not asked again. Returns how many texts were asked."""
    cache.know(index, uuid)
    texts = list(dict.fromkeys(passage_texts(sources)))
    keys = [TermsCache.key(index, t) for t in texts]
    known = cache.get_many(keys)
    missing = [t for k, t in zip(keys, texts, strict=True) if k not in known]
    for start in range(0, len(missing), WARM_BATCH):
        passage_terms(store, index, missing[start:start + WARM_BATCH], cache)
    return len(missing)
