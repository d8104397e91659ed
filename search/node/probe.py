"""Is a node up? Two HTTP(S) probes the node's lifecycle needs before any client exists.

They use the standard library on purpose: `search.store` (the one module that imports
opensearch-py) sits above the node layer, and a start-up wait needs nothing but a GET. On a
secured node pass `context` (the local CA, and the admin certificate as credentials); while the
security plugin initialises the node answers 503 "OpenSearch Security not initialized.", which
counts as "not ready", like a refused connection.
"""

from __future__ import annotations

import json
import ssl
import urllib.error
import urllib.request


def _get(url: str, timeout: float, context: ssl.SSLContext | None = None) -> dict | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout, context=context) as response:  # noqa: S310 (loopback / configured URL)
            return json.loads(response.read().decode("utf-8") or "{}")
    except (urllib.error.URLError, OSError, ValueError):
        return None


def ping(url: str, timeout: float = 3.0, context: ssl.SSLContext | None = None) -> bool:
    """True when `url` answers its root endpoint like an OpenSearch node."""
    body = _get(url.rstrip("/") + "/", timeout, context)
    return bool(body) and "version" in body


def wait_for_health(url: str, timeout: float = 2.0, status: str = "yellow", nodes: int | None = None,
                    context: ssl.SSLContext | None = None) -> bool:
    """True when the cluster reaches `status` (or better) within `timeout` seconds (and, when
    `nodes` is given, has that many nodes)."""
    wait = max(int(timeout), 1)
    query = f"wait_for_status={status}&timeout={wait}s" + (f"&wait_for_nodes={nodes}" if nodes else "")
    body = _get(f"{url.rstrip('/')}/_cluster/health?{query}", timeout + 2, context)
    ok = ("green",) if status == "green" else ("green", "yellow")
    return bool(body) and body.get("status") in ok and not body.get("timed_out")
