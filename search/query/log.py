"""One record per search in a log index that Dashboards can chart (off with
LEGALSEARCH_LOG_SEARCHES=false): query, filters, hits and their versions, unfollowed
references, mixed versions of one document, timings."""

from __future__ import annotations

import atexit
import logging
import queue
import threading
import time
from datetime import UTC, datetime

from legalsearch.index import schema
from legalsearch.query.models import SearchRequest, SearchResponse

log = logging.getLogger(__name__)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def record(req: SearchRequest, response: SearchResponse, timestamp: str, user: str | None = None,
           groups: tuple[str, ...] | None = None) -> dict:
    """The log document (pure): `user` is the verified caller, `groups` those searched (after the
    caller's groups narrowed the requested ones), `groups_requested` what the request asked for and
    `groups_dropped` the requested groups the caller does not hold: an auditor sees an attempt to
    widen, not only its narrowed result."""
    applied = list(req.filters.groups if groups is None else groups)
    return {
        "timestamp": timestamp,
        "user": user,
        "index": req.index,
        "query": req.query,
        "mode": req.mode,
        "fusion": req.fusion.technique if req.mode == "hybrid" else None,
        "rerank": response.rerank or "off",  # what ran: `auto` logs the clause rescorer when it reordered
        "routing": req.routing.mode != "off",
        "as_of": req.filters.as_of.isoformat() if req.filters.as_of else None,
        "jurisdiction": list(req.filters.jurisdictions),
        "groups": applied,
        "groups_requested": list(req.filters.groups),
        "groups_dropped": sorted(set(req.filters.groups) - set(applied)),
        "doc_ids": list(req.filters.doc_ids),
        "doc_types": list(req.filters.doc_types),
        "language": list(req.filters.languages),
        "identifiers": response.identifiers,
        "k": req.k,
        "hit_count": len(response.hits),
        "not_found": response.not_found,
        "not_found_reason": response.not_found_reason,
        "hit_chunk_ids": [h.chunk_id for h in response.hits],
        "hit_doc_ids": sorted({h.doc_id for h in response.hits}),
        "hit_versions": sorted({f"{h.doc_id}:{h.version}" for h in response.hits}),
        "xref_chunk_ids": [h.chunk_id for h in response.hits if h.via != "retrieval"],
        "unfollowed_refs": [f"{u['chunk_id']}: {u['ref']} ({u['reason']})" for u in response.unfollowed_refs],
        "mixed_versions": response.mixed_versions,
        "mixed_versions_count": len(response.mixed_versions),
        "took_ms": {k: v for k, v in response.timings_ms.items()},
    }


LOG_QUEUE = 1000
"""Records the background writer holds at most; a search that finds the queue full writes its
record itself (on its request path: slower, never lost)."""

FLUSH_TIMEOUT_S = 30.0
"""How long `RetrievalLog.flush` (and the flush at exit) waits for the writer."""


class RetrievalLog:
    """Writes one record per search into the log index (created on first use). On a secured
    cluster only the `legalsearch_auditor` role (and the admin) may read it: the records hold
    privileged queries, groups and hit ids.

    With `background` (the default), a record is built on the request path (its timestamp is the
    search's) and written by one writer thread off it: a bounded queue (`LOG_QUEUE`; a full one
    makes the search write its own record), flushed at exit and by `flush`; a record the node
    refuses is logged as a warning with its reason, never dropped silently. A reader of the log
    polls for a record (or calls `flush` first): it lands after the search returns."""

    def __init__(self, store, index: str, background: bool = True):
        self.store = store
        self.index = index
        self.background = background
        self._ready = False
        self._lock = threading.Lock()
        self._queue: queue.Queue[dict] = queue.Queue(maxsize=LOG_QUEUE)
        self._writer: threading.Thread | None = None
        self.failed = 0  # records the node refused (each logged)

    def write(self, req: SearchRequest, response: SearchResponse, user: str | None = None,
              groups: tuple[str, ...] | None = None) -> None:
        doc = record(req, response, now_iso(), user, groups)
        if not self.background:
            self._write(doc)
            return
        self._start()
        try:
            self._queue.put_nowait(doc)
        except queue.Full:  # the writer is behind: this search waits for its own record
            self._write(doc)

    def flush(self, timeout: float = FLUSH_TIMEOUT_S) -> bool:
        """Wait until every queued record is written (or refused and logged); False when the
        writer did not finish within `timeout` seconds (a warning says how many records wait)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() >= deadline:
                log.warning("retrieval log: %d records not yet written to %s after %gs", self._queue.unfinished_tasks,
                            self.index, timeout)
                return False
            with self._queue.all_tasks_done:
                self._queue.all_tasks_done.wait(min(0.1, max(0.0, deadline - time.monotonic())))
        return True

    def _start(self) -> None:
        if self._writer is not None:
            return
        with self._lock:
            if self._writer is None:
                self._writer = threading.Thread(target=self._drain, name=f"retrieval-log {self.index}", daemon=True)
                self._writer.start()
                atexit.register(self.flush)

    def _drain(self) -> None:
        while True:
            doc = self._queue.get()
            try:
                self._write(doc)
            except Exception as e:  # noqa: BLE001 - the writer must outlive any one failure; each is reported
                self.failed += 1
                log.warning("retrieval log: a record of %r not written to %s: %s", doc.get("query", "")[:80],
                            self.index, e)
            finally:
                self._queue.task_done()

    def _write(self, doc: dict) -> None:
        if not self._ready:
            with self._lock:
                if not self._ready:
                    body = schema.log_index_body()
                    if not self.store.index_exists(self.index):
                        self.store.create_index(self.index, body, exist_ok=True)
                    else:  # a log index made by an older version lacks newer fields (strict mapping)
                        self.store.put_mapping(self.index, {"properties": body["mappings"]["properties"]})
                    self._ready = True
        self.store.index_document(self.index, None, doc)
