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
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from functools import partial

from legalsearch import embedserver
from legalsearch.config import Settings
from legalsearch.errors import ModelError
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


def ingest_pipeline_body(passage_model_id: str) -> dict:
    return {"description": "legalsearch: embed embedded_text into vector with the passage model (as ingestion does)",
            "processors": [{"text_embedding": {"model_id": passage_model_id,
                                               "field_map": {"embedded_text": "vector"},
                                               "batch_size": INGEST_BATCH}}]}


def _check_predict(store: Store, model: dict, dim: int) -> None:
    """One embedding through the model, so a server that is down fails here, not at query time."""
    status, body = store.call("POST", f"{ml.ML}/models/{model['model_id']}/_predict",
                              {"parameters": {"input": ["legalsearch"]}})
    if status >= 300:
        reason = (body.get("error") or {}).get("reason") if isinstance(body.get("error"), dict) else body
        raise ModelError(f"the model {model['name']} is deployed but cannot embed (HTTP {status}): {reason}. "
                         f"Is the embedding server at {model['url']} running? (`legalsearch node status`)")
    vectors = [t["data"] for r in body.get("inference_results", []) for t in r.get("output", [])]
    if not vectors or len(vectors[0]) != dim or not math.isclose(sum(x * x for x in vectors[0]), 1.0, rel_tol=1e-3):
        raise ModelError(f"the model {model['name']} answered {len(vectors[0]) if vectors else 0} dimensions "
                         f"(expected {dim}, normalized): the embedding server serves another model")


def install(store: Store, settings: Settings, index: str) -> dict:
    """Everything engine-side for `index` (idempotent; re-run after a change of the server's URL)."""
    meta = indices.require_meta(store, index)
    embedder = meta.get("embedder", "minilm")
    endpoint = embedserver.endpoint(settings)
    call = store.call
    ml.apply_settings(call, endpoint)
    query = ml.ensure_model(call, ml.RemoteModel(embedder, "query", endpoint))
    passage = ml.ensure_model(call, ml.RemoteModel(embedder, "passage", endpoint))
    _check_predict(store, query, int(meta.get("dim", 384)))

    chunks, docs = schema.concrete_name(index, "chunks"), schema.concrete_name(index, "docs")
    names = {"search_pipeline": search_pipeline_name(embedder), "route_pipeline": route_pipeline_name(embedder),
             "ingest_pipeline": ingest_pipeline_name(embedder)}
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
        "model_group_id": query["model_group_id"], "endpoint": endpoint, **names,
        "templates": list(templates.sources()),
        "installed_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    indices.update_meta(store, index, {ENGINE_META: record})
    return {"index": index, "embedder": embedder, **record,
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
