"""Embedders from a local model directory (`st:`, `hf:`, `onnx:` specifications, see `search.embed.spec`).

- `st:DIR`: a sentence-transformers folder, loaded as it says (modules, pooling, max_seq_length).
- `hf:DIR`: a plain Hugging Face folder; sentence-transformers wraps it with mean pooling.
- `onnx:DIR`: ONNX Runtime over one `*.onnx` file (or `file=`) and `tokenizer.json`; its inputs are
  fed by name (input_ids, attention_mask, token_type_ids); a 3-D output (token states) is pooled
  (mean, or cls; the folder's 1_Pooling/config.json says which), a 2-D output is the sentence vector.

Vectors are L2-normalised (unless `normalize=0`). The folder's fingerprint (sha256 over its files'
names and bytes) is recorded with the index: a folder whose files changed no longer matches it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from legalsearch.embed import device as devices
from legalsearch.embed.spec import SPEC_VERSION, Spec
from legalsearch.errors import ConfigError


def fingerprint(directory: Path) -> str:
    """sha256 over the relative names and contents of the folder's files (hidden ones skipped)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        rel = path.relative_to(directory)
        if any(part.startswith(".") for part in rel.parts):
            continue
        digest.update(str(rel).encode() + b"\0")
        with path.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _normalize(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32, copy=False)


class SpecEmbedder:
    """What every embedder chosen by specification shares: its names, prefixes and record."""

    runtime = "spec"

    def __init__(self, spec: Spec):
        self.spec = spec
        self.name = spec.identity            # recorded as the index's `embedder`
        self.build = spec.identity           # recorded as `embedder_build`: the model, compared
        self.spec_text = spec.canonical      # recorded as `embedder_spec`: how it was reached too
        self.model_id = spec.label
        self.query_prefix = spec.get("query_prefix", "")
        self.passage_prefix = spec.get("passage_prefix", "")
        self.normalized = spec.flag("normalize", True)
        self.fingerprint: str | None = None

    @property
    def cache_key(self) -> str:
        return f"{self.build}#{self.fingerprint[:16]}" if self.fingerprint else self.build

    def describe(self) -> dict:
        record = {"embedder_build": self.build, "embedder_spec": self.spec_text, "embedder_kind": self.spec.kind,
                  "model": self.model_id, "normalized": self.normalized, "spec_version": SPEC_VERSION}
        if self.fingerprint:
            record["model_fingerprint"] = self.fingerprint
        return record

    def _finish(self, vectors: np.ndarray) -> np.ndarray:
        vectors = np.asarray(vectors, dtype=np.float32)
        return _normalize(vectors) if self.normalized else vectors

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._finish(self._encode([self.passage_prefix + t for t in texts]))

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._finish(self._encode([self.query_prefix + t for t in texts]))

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def _encode(self, texts: list[str]) -> np.ndarray:  # pragma: no cover - each kind has its own
        raise NotImplementedError


class SentenceTransformerDirEmbedder(SpecEmbedder):
    """`st:DIR` / `hf:DIR` on PyTorch (sentence-transformers)."""

    runtime = "torch"

    def __init__(self, spec: Spec, dev: devices.Device | None = None):
        super().__init__(spec)
        self.device = dev or devices.torch_device(spec.get("device"))
        directory = Path(spec.target)
        if spec.kind == "st" and not (directory / "modules.json").is_file():
            raise ConfigError(f"{spec.target} has no modules.json: not a sentence-transformers folder "
                              f"(a plain Hugging Face folder is hf:{spec.target})")
        if not (directory / "config.json").is_file():
            raise ConfigError(f"{spec.target} has no config.json: not a Hugging Face model folder")
        import transformers
        from sentence_transformers import SentenceTransformer

        transformers.logging.set_verbosity_error()
        transformers.logging.disable_progress_bar()
        try:
            self._model = SentenceTransformer(str(directory), device=self.device.name, local_files_only=True)
        except Exception as e:  # a folder it cannot read is a configuration problem
            raise ConfigError(f"could not load the model folder {spec.target}: {type(e).__name__}: {e}") from e
        self.fingerprint = fingerprint(directory)
        dims = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(dims())
        self.max_tokens = spec.integer("max_tokens", int(self._model.max_seq_length or 512))
        self._model.max_seq_length = self.max_tokens
        self.batch_size = spec.integer("batch", self.device.batches.torch_texts)

    def _encode(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(texts, batch_size=self.batch_size, normalize_embeddings=False,
                                  show_progress_bar=False, convert_to_numpy=True)

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer(self.passage_prefix + text, add_special_tokens=True,
                                         truncation=False)["input_ids"])


class OnnxDirEmbedder(SpecEmbedder):
    """`onnx:DIR` on ONNX Runtime (no torch)."""

    runtime = "onnx"

    def __init__(self, spec: Spec, threads: int = 0, dev: devices.Device | None = None):
        super().__init__(spec)
        dev = dev or devices.onnx_device(spec.get("device"))
        directory = Path(spec.target)
        files = sorted(directory.glob("*.onnx")) + sorted(directory.glob("onnx/*.onnx"))
        if spec.get("file"):
            files = [directory / spec.get("file")]
            if not files[0].is_file():
                raise ConfigError(f"onnx: {files[0]} does not exist")
        if len(files) != 1:
            raise ConfigError(f"onnx: {spec.target} holds {len(files)} .onnx files; say which with file=NAME"
                              if files else f"onnx: {spec.target} holds no .onnx file")
        tokenizer_file = directory / "tokenizer.json"
        if not tokenizer_file.is_file():
            raise ConfigError(f"onnx: {spec.target} has no tokenizer.json (a fast tokenizer file is needed)")
        from legalsearch.embed.onnxrt import _session, session_device, usable_cores
        from tokenizers import Tokenizer

        try:
            self._session = _session(files[0], threads or usable_cores(), dev)
        except Exception as e:
            raise ConfigError(f"onnx: could not load {files[0]}: {type(e).__name__}: {e}") from e
        self.device = session_device(self._session, dev)
        self._inputs = [i.name for i in self._session.get_inputs()]
        if "input_ids" not in self._inputs:
            raise ConfigError(f"onnx: {files[0].name} takes {', '.join(self._inputs)}; input_ids is expected")
        self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self.pad_id = self._tokenizer.token_to_id("[PAD]") or self._tokenizer.token_to_id("<pad>") or 0
        self.pooling = spec.get("pooling") or self._pooling(directory)
        self.max_tokens = spec.integer("max_tokens", self._window(directory))
        self.batch_size = spec.integer("batch", 32 if self.device.kind == "cpu" else self.device.batches.onnx_rows)
        self.fingerprint = fingerprint(directory)
        self.dim = int(self._encode(["dimension probe"]).shape[1])

    @staticmethod
    def _pooling(directory: Path) -> str:
        config = directory / "1_Pooling" / "config.json"
        if config.is_file():
            data = json.loads(config.read_text())
            if data.get("pooling_mode_cls_token"):
                return "cls"
        return "mean"

    @staticmethod
    def _window(directory: Path) -> int:
        for name, key in (("sentence_bert_config.json", "max_seq_length"), ("meta.json", "max_tokens"),
                          ("config.json", "max_position_embeddings")):
            path = directory / name
            if path.is_file():
                value = json.loads(path.read_text()).get(key)
                if isinstance(value, int) and value > 0:
                    return value
        return 512

    def _ids(self, texts: list[str]) -> list[list[int]]:
        cap = self.max_tokens
        out = []
        for e in self._tokenizer.encode_batch(texts, add_special_tokens=True):
            ids = e.ids
            out.append(ids if len(ids) <= cap else ids[:cap - 1] + ids[-1:])
        return out

    def _encode(self, texts: list[str]) -> np.ndarray:
        inputs = self._ids(texts)
        rows: list[np.ndarray] = [None] * len(inputs)  # type: ignore[list-item]
        order = sorted(range(len(inputs)), key=lambda i: len(inputs[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start:start + self.batch_size]
            width = max(len(inputs[i]) for i in idx)
            ids = np.full((len(idx), width), self.pad_id, dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for r, i in enumerate(idx):
                ids[r, :len(inputs[i])] = inputs[i]
                mask[r, :len(inputs[i])] = 1
            feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            out = self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0]
            if out.ndim == 3:  # token states: pool them
                if self.pooling == "cls":
                    out = out[:, 0, :]
                else:
                    weights = mask[:, :, None].astype(np.float32)
                    out = (out * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            for r, i in enumerate(idx):
                rows[i] = out[r]
        return np.stack(rows).astype(np.float32)

    def count_tokens(self, text: str) -> int:
        return len(self._tokenizer.encode(self.passage_prefix + text, add_special_tokens=True).ids)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self._tokenizer.encode_batch([self.passage_prefix + t for t in texts],
                                                                 add_special_tokens=True)]
