"""Who holds a chunks index's refresh off, and giving it back when its holder died.

An ingest turns `refresh_interval` off (-1) on the chunks index so that a changed document's
new chunks and the deletion of its stale ones become visible together (see `writer`). An
ingest killed with SIGKILL never turns it back on: its writes stay invisible, and so does every
later write until some ingest refreshes. So each writer records a lease in the index's
`_meta.legalsearch.writers` ("host:pid:token" -> start time) before turning refresh off, and
`recover` (run by every command that reads an index: search, `index info`, `node status`,
ingest) turns it back on when refresh is off and no lease is live. A lease is live while its
writer runs: in this process, while the writer has not released it; in another process of this
host, while that process runs; from another host, whose processes cannot be checked, for
`REMOTE_LEASE_S` after it was taken.

Two writers may overlap: the last one out turns refresh back on. The lease update is a
read-modify-write of `_meta`, so two writers starting in the same instant may lose one lease;
then refresh comes back when the other ends, a little early, never late.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from datetime import UTC, datetime

from legalsearch.store import Store

log = logging.getLogger(__name__)

REMOTE_LEASE_S = 3600.0
_HELD: set[str] = set()  # the leases writers of this process hold right now


def _new_key() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _now() -> datetime:
    return datetime.now(UTC)


def is_live(key: str, since: str) -> bool:
    host, _, rest = key.partition(":")
    pid = rest.partition(":")[0]
    if host == socket.gethostname() and pid == str(os.getpid()):
        return key in _HELD  # a writer of this process that failed to release is not alive
    if host == socket.gethostname() and pid.isdigit():
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    try:
        age = (_now() - datetime.fromisoformat(since)).total_seconds()
    except ValueError:
        return False
    return age < REMOTE_LEASE_S


def _meta(store: Store, concrete: str) -> dict:
    mapping = store.get_index(concrete)[concrete]["mappings"]
    return dict(mapping.get("_meta", {}).get("legalsearch", {}))


def _put_writers(store: Store, concrete: str, writers: dict[str, str]) -> None:
    meta = _meta(store, concrete)
    if writers:
        meta["writers"] = writers
    else:
        meta.pop("writers", None)
    store.put_mapping(concrete, {"_meta": {"legalsearch": meta}})


def live_writers(store: Store, concrete: str) -> dict[str, str]:
    return {k: v for k, v in _meta(store, concrete).get("writers", {}).items() if is_live(k, v)}


def refresh_interval(store: Store, concrete: str) -> str | None:
    return store.index_settings(concrete).get(concrete, {}).get("index.refresh_interval")


def take(store: Store, concrete: str) -> str:
    """Record a lease (dropping dead ones), then turn refresh off; returns the lease's key."""
    key = _new_key()
    _HELD.add(key)
    writers = live_writers(store, concrete)
    writers[key] = _now().isoformat(timespec="seconds")
    _put_writers(store, concrete, writers)
    store.put_settings(concrete, {"index": {"refresh_interval": "-1"}})
    return key


def release(store: Store, concrete: str, key: str | None) -> None:
    """Drop the lease `key`; the last live writer turns refresh back on and refreshes."""
    _HELD.discard(key)
    writers = live_writers(store, concrete)
    writers.pop(key, None)
    _put_writers(store, concrete, writers)
    if not writers:
        store.put_settings(concrete, {"index": {"refresh_interval": None}})
    store.refresh(concrete)


def recover(store: Store, concrete: str) -> dict:
    """The refresh state of `concrete`; turns refresh back on (and says so) when it is off and
    no writer holding it is alive. Returns {"refresh": "on" | "off: ingest running" |
    "restored", "writers": {...}, "message": str | None}."""
    if refresh_interval(store, concrete) != "-1":
        return {"refresh": "on", "writers": {}, "message": None}
    writers = _meta(store, concrete).get("writers", {})
    live = {k: v for k, v in writers.items() if is_live(k, v)}
    if live:
        return {"refresh": "off: ingest running", "writers": live, "message": None}
    dead = ", ".join(f"{k} since {v}" for k, v in writers.items()) or "no lease recorded"
    message = (f"{concrete} had refresh off, left by an interrupted ingest ({dead}); refresh restored, "
               "so what it wrote is searchable again. Run the same ingest again to finish it.")
    log.warning(message)
    _put_writers(store, concrete, {})
    store.put_settings(concrete, {"index": {"refresh_interval": None}})
    store.refresh(concrete)
    return {"refresh": "restored", "writers": {}, "message": message}
