"""The embedding server: an OpenAI-compatible `POST /v1/embeddings` over the index embedders
(FastAPI + uvicorn), so OpenSearch's ml-commons computes exactly the vectors our Python side
computes (`search.embed.Embedders`, the same code path).

Endpoints
    POST /v1/embeddings   {"input": str | [str], "model": name, "encoding_format"?: "float" | "base64",
                           "input_type"?: "query" | "passage", "dimensions"?: int}
                          -> {"object": "list", "data": [{"object": "embedding", "index": i,
                              "embedding": [...]}], "model": name, "usage": {...}}
    GET  /v1/models       the model names served
    GET  /health          200 {"status": "ok", ...} once every model is loaded, else 503

Model names choose the embedder AND the side, because an ml-commons connector sends fixed
parameters (a `neural` query cannot say "this is a question"):
    <embedder>-query     questions: e5 adds "query: "; over the model's window -> 400
    <embedder>-passage   passages: e5 adds "passage: "; over the window -> embedded as ingestion does
                         (MiniLM truncates, e5 averages windows; header X-Over-Window-Inputs)
    <embedder>           either, chosen by "input_type" (MiniLM, symmetric, needs none)
with <embedder> one of search.embed.EMBEDDERS (minilm, e5), or a name given to your own model
(`--model NAME=SPEC`, search.embed.spec: st:DIR, hf:DIR, onnx:DIR, openai:URL?model=..., ...).

Two more shapes over the same models, for clients that speak them:
    POST /v1/embed        Cohere-style {"model", "texts", "input_type": "search_document" |
                          "search_query", "embedding_types"?} -> {"embeddings": {"float": [...]}}
                          (or a plain list without embedding_types)
    POST /v1/rerank       Cohere / Jina-style {"model", "query", "documents": [str | {"text"}],
                          "top_n"?, "return_documents"?} -> {"results": [{"index",
                          "relevance_score", "document"?}]}: the score is the cosine of the
                          model's question and passage vectors (a bi-encoder, not a cross-encoder)

Limits (413 naming the limit): request body bytes, inputs per request, characters per input.
Batching: requests for one embedder and side that queue up while a batch is being embedded are
merged into the next one (up to `max_batch` inputs; `max_wait_ms` > 0 also waits for company), on
one worker thread per embedder; `data` keeps input order, which is how
ml-commons' OpenAI post-process function reads it (`$.data[*].embedding`).
Errors are JSON in the OpenAI shape: {"error": {"message", "type", "param", "code"}}; OpenSearch
passes the status and this text through to its own client.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from legalsearch.embed import EMBEDDERS, Embedder, Embedders
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger(__name__)

Side = Literal["query", "passage"]


@dataclass(frozen=True)
class ModelSpec:
    """A served model name: which embedder, and which side (None: chosen by `input_type`)."""

    name: str
    embedder: str
    side: Side | None


def served_models(embedders: tuple[str, ...], custom: dict[str, str] | None = None) -> dict[str, ModelSpec]:
    """The names served for `embedders` (e.g. ("minilm", "e5")); `custom` names your own models
    ({name: specification}), which `embedders` then lists too."""
    unknown = [e for e in embedders if e not in EMBEDDERS and e not in (custom or {})]
    if unknown:
        raise ValueError(f"unknown embedder(s) {', '.join(unknown)}; choose from {', '.join(EMBEDDERS)}, "
                         "or name your own model with --model NAME=SPEC")
    specs: dict[str, ModelSpec] = {}
    for e in embedders:
        specs[f"{e}-query"] = ModelSpec(f"{e}-query", e, "query")
        specs[f"{e}-passage"] = ModelSpec(f"{e}-passage", e, "passage")
        specs[e] = ModelSpec(e, e, None)
    return specs


def encode(model: Embedder, texts: list[str], side: Side) -> np.ndarray:
    vectors = model.embed_queries(texts) if side == "query" else model.embed_passages(texts)
    return np.asarray(vectors, dtype=np.float32)


@dataclass
class ServerConfig:
    embedders: tuple[str, ...] = ("minilm",)
    # your own models: served name -> specification (search.embed.spec); each name is in `embedders`
    custom: dict[str, str] = field(default_factory=dict)
    max_body_bytes: int = 2 * 1024 * 1024
    max_inputs: int = 256
    max_input_chars: int = 32_000
    # A question over the model's window is refused (truncating it would search for its first
    # part only, and the Python side refuses it too); passages are truncated like ingestion does.
    query_overflow: Literal["error", "truncate"] = "error"
    passage_overflow: Literal["error", "truncate"] = "truncate"
    max_batch: int = 64
    # 0: no waiting for company. Requests that arrive while a batch is being embedded form the next
    # batch, so batches grow with the load and a lone question pays nothing for batching.
    max_wait_ms: float = 0.0
    # torch intra-op threads (None: torch's default). On a small shared machine one thread
    # answered a question in ~23 ms vs ~77 ms with two (ENGINE-SIDE probe).
    torch_threads: int | None = 1


# --------------------------------------------------------------------------- batching


@dataclass
class _Job:
    texts: list[str]
    future: asyncio.Future


@dataclass
class Batcher:
    """Runs `encode` for one (embedder, side) on the embedder's single worker thread, merging
    concurrent requests into batches of at most `max_batch` texts."""

    model: Embedder
    side: Side
    executor: ThreadPoolExecutor
    max_batch: int = 64
    max_wait_ms: float = 0.0
    queue: asyncio.Queue = field(default_factory=asyncio.Queue)
    task: asyncio.Task | None = None

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass

    async def encode(self, texts: list[str]) -> np.ndarray:
        loop = asyncio.get_running_loop()
        parts = []
        for start in range(0, len(texts), self.max_batch):
            future = loop.create_future()
            await self.queue.put(_Job(texts[start:start + self.max_batch], future))
            parts.append(future)
        return np.concatenate(await asyncio.gather(*parts), axis=0)

    async def _next_batch(self) -> list[_Job]:
        loop = asyncio.get_running_loop()
        jobs = [await self.queue.get()]
        size = len(jobs[0].texts)
        deadline = loop.time() + self.max_wait_ms / 1000.0
        while size < self.max_batch:
            try:
                timeout = deadline - loop.time()
                job = self.queue.get_nowait() if timeout <= 0 else await asyncio.wait_for(self.queue.get(), timeout)
            except (TimeoutError, asyncio.QueueEmpty):
                break
            if size + len(job.texts) > self.max_batch:
                self.queue.put_nowait(job)  # the next batch takes it
                break
            jobs.append(job)
            size += len(job.texts)
        return jobs

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            jobs = await self._next_batch()
            texts = [t for j in jobs for t in j.texts]
            try:
                vectors = await loop.run_in_executor(self.executor, encode, self.model, texts, self.side)
            except Exception as e:  # noqa: BLE001 - every waiting request gets the failure
                for j in jobs:
                    if not j.future.done():
                        j.future.set_exception(e)
                continue
            offset = 0
            for j in jobs:
                if not j.future.done():
                    j.future.set_result(vectors[offset:offset + len(j.texts)])
                offset += len(j.texts)


# --------------------------------------------------------------------------- API


class EmbeddingsRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    input: str | list[str] = Field(..., description="a text or a list of texts")
    model: str
    encoding_format: Literal["float", "base64"] = "float"
    input_type: Side | None = None
    dimensions: int | None = None
    user: str | None = None


class CohereEmbedRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    texts: list[str]
    model: str
    input_type: Literal["search_document", "search_query", "classification", "clustering"] = "search_document"
    embedding_types: list[Literal["float"]] | None = None


class RerankRequest(BaseModel):
    model_config = ConfigDict(extra="ignore")

    model: str
    query: str
    documents: list[str | dict]
    top_n: int | None = Field(None, ge=1)
    return_documents: bool = False


class ApiError(Exception):
    def __init__(self, status: int, message: str, type_: str = "invalid_request_error",
                 param: str | None = None, code: str | None = None):
        super().__init__(message)
        self.status, self.message, self.type, self.param, self.code = status, message, type_, param, code


def error_response(status: int, message: str, type_: str, param: str | None = None,
                   code: str | None = None) -> JSONResponse:
    return JSONResponse(status_code=status,
                        content={"error": {"message": message, "type": type_, "param": param, "code": code}})


class BodyLimit:
    """ASGI middleware: 413 for a body over `limit` bytes, by Content-Length or while streaming."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            response = error_response(413, f"request body is {int(length)} bytes; the limit is {self.limit} bytes "
                                           "(send fewer or shorter inputs per request)", "request_too_large",
                                      code="max_body_bytes")
            return await response(scope, receive, send)
        received = 0

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:  # a chunked upload without Content-Length
                    raise StarletteHTTPException(413, f"request body exceeds the limit of {self.limit} bytes")
            return message

        await self.app(scope, limited_receive, send)


def _symmetric(spec: ModelSpec, model: Embedder | None) -> bool:
    """Whether questions and passages are embedded alike (no input_type needed)."""
    if spec.embedder.startswith("minilm"):
        return True
    return model is not None and hasattr(model, "query_prefix") and model.query_prefix == model.passage_prefix


def _side(spec: ModelSpec, input_type: Side | None, model: Embedder | None = None) -> Side:
    if spec.side is None:
        if input_type is None and not _symmetric(spec, model):
            raise ApiError(400, f"model {spec.name!r} needs input_type 'query' or 'passage' "
                                f"(or use {spec.embedder}-query / {spec.embedder}-passage)", param="input_type")
        return input_type or "passage"
    if input_type is not None and input_type != spec.side:
        raise ApiError(400, f"model {spec.name!r} embeds {spec.side} texts; input_type {input_type!r} contradicts it",
                       param="input_type")
    return spec.side


def _texts(req: EmbeddingsRequest, config: ServerConfig) -> list[str]:
    texts = [req.input] if isinstance(req.input, str) else list(req.input)
    if not texts:
        raise ApiError(400, "input is an empty list", param="input")
    if len(texts) > config.max_inputs:
        raise ApiError(413, f"{len(texts)} inputs in one request; the limit is {config.max_inputs}",
                       "request_too_large", param="input", code="max_inputs")
    for i, text in enumerate(texts):
        if not text.strip():
            raise ApiError(400, f"input[{i}] is empty", param="input")
        if len(text) > config.max_input_chars:
            raise ApiError(413, f"input[{i}] has {len(text)} characters; the limit is {config.max_input_chars}",
                           "request_too_large", param="input", code="max_input_chars")
    return texts


def _check_window(model: Embedder, spec: ModelSpec, texts: list[str], side: Side,
                  config: ServerConfig) -> tuple[list[int], int]:
    """(indices of inputs over the model's window, tokens in all); an error when that side refuses them."""
    counts = [model.count_tokens(t) for t in texts]
    over = [i for i, c in enumerate(counts) if c > model.max_tokens]
    policy = config.query_overflow if side == "query" else config.passage_overflow
    if over and policy == "error":
        i = over[0]
        raise ApiError(400, f"input[{i}] has {counts[i]} tokens; model {spec.name!r} reads at most "
                            f"{model.max_tokens} tokens of a {side}: shorten it", param="input",
                       code="context_length_exceeded")
    if over:  # MiniLM truncates them, e5 averages 512-token windows: what ingestion does too
        log.warning("%d input(s) over the %d-token window of %s, embedded as ingestion embeds them: %s", len(over),
                    model.max_tokens, spec.name, over[:10])
    return over, sum(counts)


def create_app(config: ServerConfig | None = None, embedders: Embedders | None = None,
               loader: Callable[[str], Embedder] | None = None) -> FastAPI:
    """The ASGI app. Models load in a background thread at start-up; /health says when they are
    ready. `embedders` (default: a new `Embedders`) lets a test share models already loaded."""
    config = config or ServerConfig()
    specs = served_models(config.embedders, config.custom)
    embedders = embedders or Embedders()
    get = loader or embedders.get

    def load(name: str) -> Embedder:
        return get(config.custom.get(name, name))

    state: dict[str, Any] = {"models": {}, "batchers": {}, "error": None, "ready": threading.Event()}
    executors = {name: ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"embed-{name}")
                 for name in config.embedders}

    def load_all() -> None:
        try:
            if config.torch_threads:
                import torch

                torch.set_num_threads(config.torch_threads)
            for name in config.embedders:
                started = time.perf_counter()
                state["models"][name] = load(name)
                log.info("loaded %s in %.1f s", name, time.perf_counter() - started)
        except Exception as e:  # noqa: BLE001 - reported by /health and by every request
            log.exception("loading the models failed")
            state["error"] = f"{type(e).__name__}: {e}"
        state["ready"].set()

    async def lifespan(app: FastAPI):
        asyncio.get_running_loop().run_in_executor(None, load_all)
        yield
        for b in state["batchers"].values():
            await b.stop()
        for ex in executors.values():
            ex.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="legalsearch embeddings", version="1", lifespan=lifespan)
    app.add_middleware(BodyLimit, limit=config.max_body_bytes)
    app.state.config = config
    app.state.models = state

    def batcher(spec: ModelSpec, side: Side) -> Batcher:
        key = f"{spec.embedder}|{side}"
        if key not in state["batchers"]:
            b = Batcher(state["models"][spec.embedder], side, executors[spec.embedder],
                        max_batch=config.max_batch, max_wait_ms=config.max_wait_ms)
            b.start()
            state["batchers"][key] = b
        return state["batchers"][key]

    @app.exception_handler(ApiError)
    async def api_error(_: Request, e: ApiError):
        return error_response(e.status, e.message, e.type, e.param, e.code)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, e: RequestValidationError):
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc'] if p != 'body') or 'body'}: {err['msg']}"
                             for err in e.errors()[:5])
        return error_response(400, f"invalid request: {problems}", "invalid_request_error")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, e: StarletteHTTPException):
        kind = {413: "request_too_large"}.get(e.status_code,
                                              "invalid_request_error" if e.status_code < 500 else "server_error")
        return error_response(e.status_code, str(e.detail), kind)

    @app.exception_handler(Exception)
    async def internal_error(_: Request, e: Exception):
        log.exception("embedding failed")
        return error_response(500, f"embedding failed: {type(e).__name__}: {e}", "server_error")

    @app.get("/health")
    async def health():
        if not state["ready"].is_set():
            return JSONResponse(status_code=503, content={"status": "loading", "models": list(specs)})
        if state["error"]:
            return JSONResponse(status_code=503, content={"status": "error", "error": state["error"]})
        return {"status": "ok", "models": list(specs), "dimensions": {n: m.dim for n, m in state["models"].items()},
                "max_tokens": {n: m.max_tokens for n, m in state["models"].items()},
                "builds": {n: m.build for n, m in state["models"].items()}}

    @app.get("/v1/models")
    async def list_models():
        return {"object": "list", "data": [{"id": n, "object": "model", "owned_by": "legalsearch"} for n in specs]}

    def _spec(name: str) -> ModelSpec:
        spec = specs.get(name)
        if spec is None:
            raise ApiError(404, f"model {name!r} is not served here; served: {', '.join(specs)}",
                           param="model", code="model_not_found")
        return spec

    def _ready() -> None:
        if not state["ready"].is_set():
            raise ApiError(503, "the models are still loading; retry in a few seconds", "server_error", code="loading")
        if state["error"]:
            raise ApiError(503, f"loading the models failed: {state['error']}", "server_error", code="not_loaded")

    @app.post("/v1/embed")
    async def cohere_embed(req: CohereEmbedRequest):
        spec = _spec(req.model)
        _ready()
        model: Embedder = state["models"][spec.embedder]
        side: Side = "query" if req.input_type == "search_query" else "passage"
        if spec.side is not None and spec.side != side:
            raise ApiError(400, f"model {spec.name!r} embeds {spec.side} texts; input_type {req.input_type!r} "
                                "contradicts it", param="input_type")
        texts = _texts(EmbeddingsRequest(input=req.texts, model=req.model), config)
        over, _ = _check_window(model, spec, texts, side, config)
        vectors = await batcher(spec, side).encode(texts)
        rows = [v.tolist() for v in vectors]
        embeddings = {"float": rows} if req.embedding_types else rows
        headers = {"X-Over-Window-Inputs": ",".join(map(str, over))} if over else None
        return JSONResponse({"id": "legalsearch", "embeddings": embeddings, "texts": texts,
                             "meta": {"api_version": {"version": "2"}}}, headers=headers)

    @app.post("/v1/rerank")
    async def rerank(req: RerankRequest):
        spec = _spec(req.model)
        _ready()
        documents = [d if isinstance(d, str) else str(d.get("text") or "") for d in req.documents]
        if not req.query.strip():
            raise ApiError(400, "query is empty", param="query")
        if not documents:
            return {"results": [], "model": spec.name}
        _texts(EmbeddingsRequest(input=documents, model=req.model), config)
        _texts(EmbeddingsRequest(input=req.query, model=req.model), config)
        question = (await batcher(spec, "query").encode([req.query]))[0]
        passages = await batcher(spec, "passage").encode(documents)
        scores = passages @ question
        order = sorted(range(len(documents)), key=lambda i: (-float(scores[i]), i))[:req.top_n or len(documents)]
        results = []
        for i in order:
            row: dict[str, Any] = {"index": i, "relevance_score": float(scores[i])}
            if req.return_documents:
                row["document"] = {"text": documents[i]}
            results.append(row)
        return {"results": results, "model": spec.name,
                "usage": {"total_tokens": sum(len(d) // 4 for d in documents)}}

    @app.post("/v1/embeddings")
    async def embeddings(req: EmbeddingsRequest):
        spec = _spec(req.model)
        _ready()
        model: Embedder = state["models"][spec.embedder]
        side = _side(spec, req.input_type, model)
        texts = _texts(req, config)
        if req.dimensions is not None and req.dimensions != model.dim:
            raise ApiError(400, f"model {spec.name!r} has {model.dim} dimensions; got dimensions={req.dimensions}",
                           param="dimensions")
        over, tokens = _check_window(model, spec, texts, side, config)
        vectors = await batcher(spec, side).encode(texts)
        data = []
        for i, v in enumerate(vectors):
            emb: Any = (base64.b64encode(v.astype("<f4").tobytes()).decode() if req.encoding_format == "base64"
                        else v.tolist())
            data.append({"object": "embedding", "index": i, "embedding": emb})
        headers = {"X-Over-Window-Inputs": ",".join(map(str, over))} if over else None
        usage = {"prompt_tokens": tokens, "total_tokens": tokens}
        return JSONResponse({"object": "list", "data": data, "model": spec.name, "usage": usage}, headers=headers)

    return app


def run(host: str = "127.0.0.1", port: int = 8720, config: ServerConfig | None = None,
        log_level: str = "info") -> None:
    """Serve until interrupted (one process: the models are loaded once)."""
    import uvicorn

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level, access_log=False,
                timeout_keep_alive=30, limit_concurrency=256)
