"""Answers of the document registry kept across questions (issue 27, "planning at the cost of a search").

A question that names its document ("Consider the NDA between CopAcc and ToP Mentors; ...") is
looked up in the registry first: how many documents carry each of its name-like words, then which
documents carry the rare ones (`SearchService.named`). The next question about the same contract
asks the same two things. The registry changes only when documents are ingested, replaced or
removed, so those answers are kept, by registry and filters, and dropped when the registry's
**change marker** moves: how many documents the caller sees and the latest `ingested_at` among
them (one size-0 request, sent at most once per `ttl` seconds per registry). An ingest or an index
deleted in this process drops everything at once (`epoch`: `indices.changes`); another process's
ingest is seen within `ttl` (`service.TARGET_TTL_S`, as for aliases and walls)."""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable

MARKER_BODY = {"size": 0, "track_total_hits": True, "aggs": {"last": {"max": {"field": "ingested_at"}}}}
"""The registry's change marker: the documents the caller sees, and the latest ingest among them."""


def marker_of(answer: dict) -> tuple:
    """(document count, latest ingested_at) from the answer to `MARKER_BODY`."""
    total = answer.get("hits", {}).get("total", {})
    last = (answer.get("aggregations") or {}).get("last") or {}
    return int(total.get("value", 0) if isinstance(total, dict) else total or 0), last.get("value")


def filters_key(clauses: list[dict]) -> str:
    """A key for the filter clauses a registry request carried (groups, as_of, doc types...)."""
    return json.dumps(clauses, sort_keys=True, separators=(",", ":"), default=str)


class RegistryAnswers:
    """Registry answers by (registry, key), valid while the registry's change marker stays; least
    recently used out first beyond `size`. `fetch(index, body)` is the store's search (the
    caller's identity: the marker counts what the caller sees); `epoch()` counts the changes this
    process made (each new count drops everything). Thread-safe."""

    def __init__(self, fetch, ttl: float, size: int = 20_000, clock=time.monotonic, epoch=lambda: 0):
        self.fetch = fetch
        self.ttl = ttl
        self.size = size
        self.clock = clock
        self.epoch = epoch
        self._epoch = epoch()
        self._answers: OrderedDict[tuple[str, Hashable], object] = OrderedDict()
        self._markers: dict[str, tuple[tuple, float]] = {}  # registry -> (marker, when read)
        self._lock = threading.Lock()

    def _current(self, registry: str) -> None:
        """Read the registry's marker again once `ttl` has passed; a moved marker drops its answers."""
        now = self.clock()
        epoch = self.epoch()
        with self._lock:
            if epoch != self._epoch:  # this process ingested or deleted: nothing kept holds
                self._answers.clear()
                self._markers.clear()
                self._epoch = epoch
            known = self._markers.get(registry)
        if known and now - known[1] < self.ttl:
            return
        marker = marker_of(self.fetch(registry, MARKER_BODY))
        with self._lock:
            if known is None or known[0] != marker:
                for key in [k for k in self._answers if k[0] == registry]:
                    del self._answers[key]
            self._markers[registry] = (marker, now)

    def get(self, registry: str, key: Hashable):
        """The kept answer, or None (also after the marker moved)."""
        self._current(registry)
        with self._lock:
            found = self._answers.get((registry, key))
            if found is not None:
                self._answers.move_to_end((registry, key))
            return found

    def put(self, registry: str, key: Hashable, value) -> None:
        """Keep an answer computed after `get` read the marker (so a change in between drops it)."""
        with self._lock:
            if registry not in self._markers:  # no marker read: nothing to check it against later
                return
            self._answers[(registry, key)] = value
            self._answers.move_to_end((registry, key))
            while len(self._answers) > self.size:
                self._answers.popitem(last=False)
