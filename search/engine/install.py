"""Install the engine side for one index, idempotently (docs/engine.md), and report its state.

For an index built with embedder E:
- ml-commons cluster settings (the embedding server's URL admitted as a trusted endpoint);
- remote models `legalsearch-E-query-v1` (for `neural`) and `legalsearch-E-passage-v1` (for the
  ingest processor), deployed (`search.node.ml`);
- search pipeline `legalsearch-engine-v1-E`: the query model as the default model of `neural`
  queries (neural_query_enricher) + min-max normalization with the weights our planner uses for a
  three-list query (0.15 / 0.35 / 0.5); the chunk index's `index.search.default_pipeline`;
- search pipeline `legalsearch-engine-route-v1-E`: the query model + RRF (k 60), the docs
  index's default, for document routing;
- ingest pipeline `legalsearch-embed-v1-E` (`text_embedding`: embedded_text -> vector with the
  passage model), the chunk index's `index.default_pipeline`: a client's plain `_bulk` gets the
  vectors our ingestion computes (ours sends `pipeline=_none`);
- the stored templates `legalsearch-hybrid`, `legalsearch-bool`, `legalsearch-route`;
- everything's ids in the chunk index's `_meta.legalsearch.engine`.

The index's embedder decides where the connectors point (`engine_models`): a named embedder
(minilm, e5) or a local model folder (`st:` / `hf:` / `onnx:`, which the server must serve, `--model
NAME=SPEC`) -> our embedding server; an API embedder (`openai:` / `cohere:`) -> the provider's
endpoint itself, with the specification's model, dimensions, prefixes, input_type and key. With an
API reranker (`cohere:` / `jina:`, `rerank_model` or LEGALSEARCH_RERANK_MODEL) also:
- a reranker connector + model `legalsearch-rerank-<hash>-v1` (text similarity, ml-commons'
  cohere.rerank pre / post process functions);
- search pipeline `legalsearch-engine-rerank-v1-E`: the engine pipeline plus OpenSearch's `rerank`
  response processor (`ml_opensearch`, the hits' `embedded_text` scored against the question);
- the stored template `legalsearch-hybrid-rerank`: `legalsearch-hybrid` that also carries the
  question for the reranker (`ext.rerank.query_context.query_text`), used with
  `?search_pipeline=legalsearch-engine-rerank-v1-E`.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from functools import partial

from legalsearch import embedserver
from legalsearch.config import Settings
from legalsearch.embed import EMBEDDERS
from legalsearch.embed import spec as specs
from legalsearch.embedserver.client import served_builds
from legalsearch.errors import ConfigError, ModelError
from legalsearch.index import indices, schema
from legalsearch.node import ml
from legalsearch.query import fusion, templates
from legalsearch.query.models import SearchRequest
from legalsearch.store import Store

ENGINE_META = "engine"
VERSION = "v1"
ROUTE_RANK_CONSTANT = fusion.DEFAULT_RANK_CONSTANT
INGEST_BATCH = 16  # documents of one _bulk embedded per /v1/embeddings request


def search_pipeline_name(embedder: str) -> str:
    return f"legalsearch-engine-{VERSION}-{embedder}"


def route_pipeline_name(embedder: str) -> str:
    return f"legalsearch-engine-route-{VERSION}-{embedder}"


def ingest_pipeline_name(embedder: str) -> str:
    return f"legalsearch-embed-{VERSION}-{embedder}"


def rerank_pipeline_name(embedder: str) -> str:
    return f"legalsearch-engine-rerank-{VERSION}-{embedder}"


RERANK_FIELDS = ["embedded_text"]
"""What the engine's reranker reads of each hit: the text the chunk was embedded from (document
summary, heading path, text), as the Python side's API reranker sends (search.query.rerank.passage_text)."""


def engine_models(meta: dict, endpoint: str) -> tuple[str, list]:
    """(the short name E used in pipeline names, [query model, passage model]) for an index's
    embedder: connectors to our server for a named embedder or a local model folder it serves,
    to the provider itself for an API embedder."""
    embedder = meta.get("embedder", "minilm")
    spec_text = meta.get("embedder_spec")
    if embedder in EMBEDDERS or not specs.is_spec(spec_text):
        return embedder, [ml.RemoteModel(embedder, side, endpoint) for side in ml.SIDES]
    kind = spec_text.split(":", 1)[0]
    if kind in specs.REMOTE_KINDS:
        spec = specs.parse(spec_text)
        models = [ml.ApiModel.from_spec(spec, side) for side in ml.SIDES]
        return models[0].slug, models
    build = meta.get("embedder_build")
    found = served_builds(endpoint).get(build)
    if not found:
        raise ModelError(f"the embedding server at {endpoint} does not serve this index's model ({build}), so "
                         "OpenSearch cannot embed with it: serve it under a name (lower-case letters and digits) with "
                         f"`python -m legalsearch.embedserver --model NAME={spec_text}` and point "
                         "LEGALSEARCH_EMBED_URL at that server, then run `legalsearch pipelines install` again")
    name = found["name"].removesuffix("-query").removesuffix("-passage")
    if not ml.parse_name(ml.RemoteModel(name, "query", endpoint).name):
        raise ModelError(f"the embedding server serves this index's model as {name!r}: serve it under a name of "
                         "lower-case letters and digits (--model NAME=SPEC), so its connectors follow the server")
    return name, [ml.RemoteModel(name, side, endpoint) for side in ml.SIDES]


def reranker(rerank_model: str | None) -> ml.RerankModel | None:
    """The engine-side reranker for an API reranker specification; None for none or a local
    cross-encoder (which runs in Python only)."""
    if not specs.is_rerank_spec(rerank_model):
        return None
    return ml.RerankModel.from_spec(specs.parse(rerank_model, rerank=True))


def _enricher(model_id: str) -> dict:
    return {"neural_query_enricher": {"description": "legalsearch: the index's query embedding model",
                                      "default_model_id": model_id}}


def search_pipeline_body(query_model_id: str) -> dict:
    """Three lists (BM25, k-NN, identifier) with the weights `pipeline_for` gives a query that
    cites a section; the templates always send three (`match_none` when none is cited)."""
    defaults = SearchRequest(query="-")
    _, body = fusion.pipeline_for("normalization", defaults.fusion.rank_constant, defaults.experimental.normalization,
                                  defaults.fusion.weights, ("bm25", "knn", "identifier"))
    return {**body, "description": body["description"] + "; query model " + query_model_id,
            "request_processors": [_enricher(query_model_id)]}


def route_pipeline_body(query_model_id: str) -> dict:
    body = fusion.rrf_pipeline_body(ROUTE_RANK_CONSTANT)
    return {**body, "description": body["description"] + "; query model " + query_model_id,
            "request_processors": [_enricher(query_model_id)]}


def rerank_pipeline_body(query_model_id: str, rerank_model_id: str) -> dict:
    """The engine pipeline, then OpenSearch's `rerank` response processor: each hit's
    `embedded_text` scored against the question (from the request's `ext.rerank.query_context`)
    by the reranker model, the hits re-sorted by those scores, which become their `_score`."""
    body = search_pipeline_body(query_model_id)
    return {**body, "description": body["description"] + "; reranked by model " + rerank_model_id,
            "response_processors": [{"rerank": {"ml_opensearch": {"model_id": rerank_model_id},
                                                "context": {"document_fields": RERANK_FIELDS}}}]}


def ingest_pipeline_body(passage_model_id: str) -> dict:
    return {"description": "legalsearch: embed embedded_text into vector with the passage model (as ingestion does)",
            "processors": [{"text_embedding": {"model_id": passage_model_id,
                                               "field_map": {"embedded_text": "vector"},
                                               "batch_size": INGEST_BATCH}}]}


def _check_predict(store: Store, model: dict, dim: int, unit: bool = True) -> None:
    """One embedding through the model, so a server that is down fails here, not at query time."""
    # the text_embedding path, as `neural` and the ingest processor take (through the pre-process function)
    status, body = store.call("POST", f"{ml.ML}/_predict/text_embedding/{model['model_id']}",
                              {"text_docs": ["legalsearch"]})
    if status >= 300:
        reason = (body.get("error") or {}).get("reason") if isinstance(body.get("error"), dict) else body
        where = ("Is the embedding server at " + model["url"] + " running? (`legalsearch node status`)"
                 if model.get("kind", "ours") == "ours" else "Check the provider at " + model["url"] + " and the key")
        raise ModelError(f"the model {model['name']} is deployed but cannot embed (HTTP {status}): {reason}. {where}")
    vectors = [t["data"] for r in body.get("inference_results", []) for t in r.get("output", [])]
    norm_ok = not unit or (vectors and math.isclose(sum(x * x for x in vectors[0]), 1.0, rel_tol=1e-3))
    if not vectors or len(vectors[0]) != dim or not norm_ok:
        raise ModelError(f"the model {model['name']} answered {len(vectors[0]) if vectors else 0} dimensions "
                         f"(expected {dim}{', normalized' if unit else ''}): "
                         f"{'the embedding server' if unit else 'the provider'} serves another model")


def _check_rerank(store: Store, model: dict) -> None:
    """One question and two documents through the reranker: two scores, or a clear error."""
    status, body = store.call("POST", f"{ml.ML}/models/{model['model_id']}/_predict",
                              {"parameters": {"query": "legalsearch", "documents": ["legal", "search"], "top_n": 2}})
    scores = [t.get("data") for r in body.get("inference_results", []) for t in r.get("output", [])] \
        if status < 300 else []
    if len(scores) != 2:
        reason = (body.get("error") or {}).get("reason") if isinstance(body.get("error"), dict) else body
        raise ModelError(f"the reranker {model['name']} is deployed but cannot score (HTTP {status}): {reason}. "
                         f"Check the provider at {model['url']} and the key")


def install(store: Store, settings: Settings, index: str, rerank_model: str | None = None) -> dict:
    """Everything engine-side for `index` (idempotent; re-run after a change of the server's URL,
    a provider's URL or its key). `rerank_model`: an API reranker specification (default
    LEGALSEARCH_RERANK_MODEL); a local cross-encoder has no engine side."""
    meta = indices.require_meta(store, index)
    endpoint = embedserver.endpoint(settings)
    try:
        slug, sides = engine_models(meta, endpoint)
        rerank = reranker(rerank_model or settings.rerank_model)
    except ConfigError as e:  # a key_env that is not set here, a key_file that cannot be read
        raise ModelError(f"cannot install the engine side of {index!r}: {e}") from None
    call = store.call
    providers = tuple(m.url for m in (*sides, rerank) if m is not None and not isinstance(m, ml.RemoteModel))
    ml.apply_settings(call, endpoint, providers)
    query, passage = ({**ml.ensure_model(call, m), "kind": getattr(m, "kind", "ours")} for m in sides)
    api = not isinstance(sides[0], ml.RemoteModel)
    _check_predict(store, query, int(meta.get("dim", 384)), unit=not api)

    chunks, docs = schema.concrete_name(index, "chunks"), schema.concrete_name(index, "docs")
    names = {"search_pipeline": search_pipeline_name(slug), "route_pipeline": route_pipeline_name(slug),
             "ingest_pipeline": ingest_pipeline_name(slug)}
    store.put_search_pipeline(names["search_pipeline"], search_pipeline_body(query["model_id"]))
    store.put_search_pipeline(names["route_pipeline"], route_pipeline_body(query["model_id"]))
    store.put_ingest_pipeline(names["ingest_pipeline"], ingest_pipeline_body(passage["model_id"]))
    store.put_settings(chunks, {"index.search.default_pipeline": names["search_pipeline"],
                                "index.default_pipeline": names["ingest_pipeline"]})
    store.put_settings(docs, {"index.search.default_pipeline": names["route_pipeline"]})
    for template_id, source in templates.sources().items():
        store.put_search_template(template_id, source)

    record = {
        "query_model_id": query["model_id"], "passage_model_id": passage["model_id"],
        "connector_ids": {"query": query["connector_id"], "passage": passage["connector_id"]},
        "model_group_id": query["model_group_id"], "endpoint": endpoint if not api else query["url"], **names,
        "templates": list(templates.sources()),
        "installed_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    if rerank is not None:
        ranked = ml.ensure_model(call, rerank)
        _check_rerank(store, ranked)
        pipeline = rerank_pipeline_name(slug)
        store.put_search_pipeline(pipeline, rerank_pipeline_body(query["model_id"], ranked["model_id"]))
        store.put_search_template(templates.HYBRID_RERANK_TEMPLATE, templates.rerank_source())
        record["rerank"] = {"model": ranked["name"], "model_id": ranked["model_id"],
                            "connector_id": ranked["connector_id"], "url": rerank.url, "pipeline": pipeline,
                            "template": templates.HYBRID_RERANK_TEMPLATE, "fields": RERANK_FIELDS}
        record["templates"] = [*record["templates"], templates.HYBRID_RERANK_TEMPLATE]
    indices.update_meta(store, index, {ENGINE_META: record})
    return {"index": index, "embedder": meta.get("embedder", "minilm"), **record,
            "models": {"query": query["name"], "passage": passage["name"]}}


def status(store: Store, settings: Settings) -> dict:
    """The embedding server's health and every legalsearch remote model's state."""
    url = embedserver.endpoint(settings)
    code, body = embedserver.health(url)
    try:
        models = ml.models(partial(store.call))
    except Exception as e:  # noqa: BLE001 - a status report shows the failure instead of failing
        models = [{"error": str(e)}]
    return {"server": {"url": url, "status": body.get("status") if code else "down",
                       "models": body.get("models"), "error": body.get("error")},
            "models": models}
