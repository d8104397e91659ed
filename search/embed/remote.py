"""Embedders behind an HTTP API (`openai:` and `cohere:` specifications, see `search.embed.spec`).

- `openai:BASE?model=M`: `POST BASE/embeddings` {"model", "input": [...], "encoding_format": "float"}
  (+ "dimensions" with send_dims=1, + "input_type" query / passage with input_type=1) ->
  {"data": [{"index", "embedding"}]}: vLLM, infinity, TEI, llama.cpp, LiteLLM, OpenAI itself, and
  `python -m legalsearch.embedserver`.
- `cohere:BASE?model=M`: `POST BASE/embed` {"model", "texts", "input_type": "search_document" |
  "search_query", "embedding_types": ["float"]} -> {"embeddings": {"float": [...]}} (v2) or
  {"embeddings": [...]} (v1).

Texts go in batches of `batch` (default 64), `concurrency` requests at a time (default 2). A 429, a
5xx, a refused connection or a timeout (`timeout`, default 60 s: a CPU server under load is slow) is retried up to `retries` times
(default 5) with exponential backoff (0.5 s, 1 s, 2 s, ... at most 20 s; a Retry-After header is
honoured up to 60 s); any other answer, or a batch still failing after its retries, raises one
EmbedError naming the endpoint and its message. Every answer is checked: one vector per input,
each of the expected dimensions (`dims`, else what the index records, else the first answer's).
Nothing of a batch is returned until all of it came back, so an ingest writes nothing half-embedded.

The API key comes from `key_env` or `key_file` (never from the specification itself) and is sent as
`Authorization: Bearer KEY`. Tokens are not counted by the endpoint: `count_tokens` estimates
(4 characters a token) and `max_tokens` (default 512) is what chunking plans for.
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from legalsearch.embed import device as devices
from legalsearch.embed.custom import SpecEmbedder
from legalsearch.embed.spec import Spec
from legalsearch.errors import ConfigError, EmbedError

log = logging.getLogger(__name__)

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}
BACKOFF_S, BACKOFF_MAX_S, RETRY_AFTER_MAX_S = 0.5, 20.0, 60.0
CHARS_PER_TOKEN = 4


def post_json(url: str, body: dict, *, key: str | None, timeout: float, retries: int, what: str) -> dict:
    """POST `body` as JSON and return the JSON answer, retrying 429 / 5xx / connection failures
    with backoff; EmbedError when it still fails or answers another error."""
    data = json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    last = ""
    for attempt in range(retries + 1):
        wait = min(BACKOFF_MAX_S, BACKOFF_S * 2 ** attempt) * (0.75 + random.random() / 2)  # noqa: S311
        try:
            request = urllib.request.Request(url, data=data, headers=headers, method="POST")
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - the user's endpoint
                raw = response.read()
            try:
                return json.loads(raw.decode() or "{}")
            except ValueError:
                raise EmbedError(f"{what}: {url} answered something that is not JSON: {raw[:200]!r}") from None
        except urllib.error.HTTPError as e:
            message = _message(e)
            if e.code not in RETRY_STATUS:
                hint = " (check key_env / key_file)" if e.code in (401, 403) else ""
                raise EmbedError(f"{what}: {url} answered {e.code}: {message}{hint}") from None
            last = f"{e.code}: {message}"
            after = e.headers.get("Retry-After") if e.headers else None
            if after and after.strip().replace(".", "", 1).isdigit():
                wait = min(RETRY_AFTER_MAX_S, float(after))
        except (urllib.error.URLError, TimeoutError, ConnectionError) as e:
            reason = getattr(e, "reason", e)
            last = f"timed out after {timeout:g} s" if isinstance(reason, TimeoutError) else str(reason)
        if attempt < retries:
            log.warning("%s: %s failed (%s); retry %d of %d in %.1f s", what, url, last, attempt + 1, retries, wait)
            time.sleep(wait)
    raise EmbedError(f"{what}: {url} still failing after {retries + 1} attempts; last: {last}")


def _message(e: urllib.error.HTTPError) -> str:
    try:
        body = e.read().decode(errors="replace")
    except OSError:
        return str(e.reason)
    try:
        data = json.loads(body)
    except ValueError:
        return body[:300] or str(e.reason)
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict):
        return str(error.get("message") or error)
    if isinstance(data, dict):
        return str(error or data.get("message") or data.get("detail") or body[:300])
    return body[:300]


class RemoteEmbedder(SpecEmbedder):
    """The shared part of the API embedders: batching, concurrency, checks."""

    runtime = "http"
    default_batch = 64
    device = devices.REMOTE

    def __init__(self, spec: Spec):
        super().__init__(spec)
        self.url = spec.target
        self.model = spec.get("model")
        self.batch_size = spec.integer("batch", self.default_batch)
        self.concurrency = spec.integer("concurrency", 2)
        self.retries = int(spec.get("retries", 5))
        self.timeout = spec.real("timeout", 60.0)
        self.max_tokens = spec.integer("max_tokens", 512)
        self._key = spec.api_key()
        self._dim: int | None = spec.integer("dims", 0) or None
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    @property
    def dim(self) -> int:
        """The dimensions: `dims`, what the index records (`expect_dim`), else one probe request."""
        if self._dim is None:
            vectors = self._call(["dimension probe"], "passage")
            self._dim = int(vectors.shape[1])
        return self._dim

    def expect_dim(self, dim: int) -> None:
        """Vectors must have `dim` dimensions (what the index records); a `dims` that says otherwise is an error."""
        if self._dim is not None and self._dim != dim:
            raise ConfigError(f"{self.spec.label}: dims={self._dim} but the index holds {dim}-dimension vectors")
        self._dim = dim

    def count_tokens(self, text: str) -> int:
        return max(1, len(self.passage_prefix + text) // CHARS_PER_TOKEN)

    def _encode_side(self, texts: list[str], side: str) -> np.ndarray:
        batches = [texts[i:i + self.batch_size] for i in range(0, len(texts), self.batch_size)]
        if len(batches) == 1 or self.concurrency == 1:
            parts = [self._call(b, side) for b in batches]
        else:
            with self._lock:
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="embed-http")
            parts = list(self._pool.map(lambda b: self._call(b, side), batches))
        return np.concatenate(parts, axis=0)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._finish(self._encode_side([self.passage_prefix + t for t in texts], "passage"))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._finish(self._encode_side([self.query_prefix + t for t in texts], "query"))

    def _check(self, rows: list, n: int) -> np.ndarray:
        if len(rows) != n:
            raise EmbedError(f"{self.spec.label}: {self.url} returned {len(rows)} vectors for {n} inputs")
        try:
            vectors = np.asarray(rows, dtype=np.float32)
        except ValueError:
            raise EmbedError(f"{self.spec.label}: {self.url} returned vectors of different lengths") from None
        if vectors.ndim != 2 or not np.isfinite(vectors).all():
            raise EmbedError(f"{self.spec.label}: {self.url} returned something that is not a list of vectors")
        with self._lock:
            if self._dim is None:
                self._dim = int(vectors.shape[1])
        if vectors.shape[1] != self._dim:
            raise EmbedError(f"{self.spec.label}: {self.url} returned {vectors.shape[1]}-dimension vectors; "
                             f"{self._dim} expected (the index's or dims=): has the model behind it changed? "
                             "A new model needs a new index: legalsearch index reindex --embedder SPEC")
        return vectors

    def _call(self, texts: list[str], side: str) -> np.ndarray:  # pragma: no cover - each API its own
        raise NotImplementedError


class OpenAIEmbedder(RemoteEmbedder):
    """`openai:BASE?model=M`: an OpenAI-compatible `/embeddings`."""

    def _call(self, texts: list[str], side: str) -> np.ndarray:
        body: dict = {"model": self.model, "input": texts, "encoding_format": "float"}
        if self.spec.flag("send_dims", False) and self.spec.get("dims"):
            body["dimensions"] = int(self.spec.get("dims"))
        if self.spec.flag("input_type", False):
            body["input_type"] = side
        answer = post_json(f"{self.url}/embeddings", body, key=self._key, timeout=self.timeout,
                           retries=self.retries, what=self.spec.label)
        try:
            rows = [d["embedding"] for d in sorted(answer["data"], key=lambda d: d.get("index", 0))]
        except (KeyError, TypeError):
            raise EmbedError(f"{self.spec.label}: {self.url}/embeddings answered without data[].embedding: "
                             f"{str(answer)[:200]}") from None
        return self._check(rows, len(texts))


class CohereEmbedder(RemoteEmbedder):
    """`cohere:BASE?model=M`: a Cohere-style `/embed` (v1 or v2 answer shape)."""

    default_batch = 96  # Cohere's own limit per call

    def _call(self, texts: list[str], side: str) -> np.ndarray:
        body = {"model": self.model, "texts": texts, "embedding_types": ["float"],
                "input_type": "search_query" if side == "query" else "search_document"}
        answer = post_json(f"{self.url}/embed", body, key=self._key, timeout=self.timeout, retries=self.retries,
                           what=self.spec.label)
        rows = answer.get("embeddings") if isinstance(answer, dict) else None
        if isinstance(rows, dict):
            rows = rows.get("float")
        if not isinstance(rows, list):
            raise EmbedError(f"{self.spec.label}: {self.url}/embed answered without embeddings: {str(answer)[:200]}")
        return self._check(rows, len(texts))
