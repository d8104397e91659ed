"""Questions embedded by the resident embedding server (`python -m legalsearch.embedserver`, started with the
local node), so a fresh `legalsearch search` process loads no model.

Loading PyTorch and MiniLM costs a fresh process about 5-6 s on 2 cores; the server already holds
the same model (the same `Embedders` code, the same build) and answers a question in milliseconds
over loopback. The process's owner (the `LegalSearch` client) hands `Embedders` a `QueryServer`
for the local node's server; `Embedders.for_query` then hands out a `ServedQueryEmbedder` only when

- the server's `/health` lists the exact build that made the index's vectors (`builds`), and
- this process has not loaded that build itself (a long-lived process that ingests, or evaluates,
  keeps using its own copy: no HTTP in its loop).

When the server stops answering, the question is embedded in-process after all (the model is
loaded then, once, with a warning), so a search never fails because the server went away.
Passages are never embedded here: ingestion stays in-process.
"""

from __future__ import annotations

import json
import logging
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence

import numpy as np
from legalsearch.errors import QueryError

log = logging.getLogger(__name__)

HEALTH_TIMEOUT_S = 0.5
"""How long a fresh process waits for /health before loading the model itself."""

EMBED_TIMEOUT_S = 30.0
"""A question's embedding: queued behind an ingest's batch on a busy server, it may take seconds."""


def _request(url: str, body: dict | None, timeout: float) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as response:  # noqa: S310 (loopback, our own server)
        return json.loads(response.read().decode() or "{}")


def served_builds(url: str, timeout: float = HEALTH_TIMEOUT_S) -> dict[str, dict]:
    """{build: {"name", "dim", "max_tokens"}} of what the server at `url` holds loaded; {} when it
    does not answer, is still loading, or predates builds in /health."""
    try:
        body = _request(f"{url.rstrip('/')}/health", None, timeout)
    except (urllib.error.URLError, OSError, ValueError) as e:
        log.debug("embedding server at %s not used: %s", url, getattr(e, "reason", e))
        return {}
    builds = body.get("builds") or {}
    dims, windows = body.get("dimensions") or {}, body.get("max_tokens") or {}
    return {build: {"name": name, "dim": dims.get(name), "max_tokens": windows.get(name)}
            for name, build in builds.items()}


class QueryServer:
    """The embedding server a process may send its questions to (`Embedders(query_server=...)`).

    Its `/health` is asked once, on the first question: which builds it holds loaded."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self._builds: dict[str, dict] | None = None

    def embedder(self, build: str, cache_key: str, fallback: Callable[[], object]) -> ServedQueryEmbedder | None:
        """The query embedder of `build` through this server, or None when it does not serve it."""
        if self._builds is None:
            self._builds = served_builds(self.url)
        found = self._builds.get(build) or {}
        if not (found.get("dim") and found.get("max_tokens")):
            return None
        return ServedQueryEmbedder(self.url, found["name"], build, cache_key, int(found["dim"]),
                                   int(found["max_tokens"]), fallback)


class ServedQueryEmbedder:
    """The query side of an `Embedder` whose vectors come from the embedding server.

    `fallback` loads the same build in-process; it is used when the server stops answering."""

    served = True  # the server checks the window itself (service.check_window leaves it to it)

    def __init__(self, url: str, name: str, build: str, cache_key: str, dim: int, max_tokens: int,
                 fallback: Callable[[], object]):
        self.url = url.rstrip("/")
        self.name = name
        self.build = build
        self.cache_key = cache_key
        self.dim = dim
        self.max_tokens = max_tokens
        self._fallback = fallback
        self._local = None

    def describe(self) -> dict:
        return {"embedder_build": self.build, "served_by": self.url}

    def _local_embedder(self):
        if self._local is None:
            self._local = self._fallback()
        return self._local

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        if self._local is not None:
            return self._local.embed_queries(texts)
        body = {"model": f"{self.name}-query", "input": list(texts), "encoding_format": "float"}
        try:
            result = _request(f"{self.url}/v1/embeddings", body, EMBED_TIMEOUT_S)
        except urllib.error.HTTPError as e:
            message = _error_message(e)
            if e.code == 400:
                raise QueryError(_window_message(message, self.name, self.max_tokens)) from None
            log.warning("the embedding server answered %d (%s); embedding the question in this process",
                        e.code, message)
            return self._local_embedder().embed_queries(texts)
        except (urllib.error.URLError, OSError, ValueError) as e:
            log.warning("the embedding server at %s did not answer (%s); embedding the question in this "
                        "process (loading %s)", self.url, getattr(e, "reason", e), self.build)
            return self._local_embedder().embed_queries(texts)
        rows = sorted(result["data"], key=lambda d: d["index"])
        return np.asarray([row["embedding"] for row in rows], dtype=np.float32).reshape(len(texts), self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._local_embedder().embed_passages(texts)

    def count_tokens(self, text: str) -> int:
        return self._local_embedder().count_tokens(text)


def _error_message(e: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(e.read().decode() or "{}").get("error", {}).get("message") or e.reason)
    except (ValueError, AttributeError, OSError):
        return str(e.reason)


def _window_message(message: str, name: str, max_tokens: int) -> str:
    """The in-process wording of an over-long question (service.check_window), from the server's."""
    found = re.search(r"has (\d+) tokens", message)
    if found and "reads at most" in message:
        return f"the question has {found.group(1)} tokens; the {name} model reads at most {max_tokens}: shorten it"
    return f"the embedding server refused the question: {message}"
