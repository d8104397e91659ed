"""The embedding server's other shapes over real models (MiniLM on ONNX Runtime): a model of your
own served by name (`--model NAME=SPEC`), the Cohere-style /v1/embed and the Cohere / Jina-style
/v1/rerank, each giving what /v1/embeddings gives."""

from __future__ import annotations

import shutil
import time

import numpy as np
import pytest
from fastapi.testclient import TestClient
from legalsearch.config import Settings
from legalsearch.embed import Embedders, export
from legalsearch.embedserver.__main__ import main
from legalsearch.embedserver.app import ServerConfig, create_app

TEXTS = ["The tenant shall pay the rent monthly.", "Either party may terminate on thirty days' notice.",
         "Confidential information must not be disclosed.", "This agreement is governed by Italian law."]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("models") / "mine"
    shutil.copytree(export.ensure(Settings().cache_dir, "minilm"), folder)
    config = ServerConfig(embedders=("minilm", "mine"), custom={"mine": f"onnx:{folder}?max_tokens=256"},
                          torch_threads=None)
    with TestClient(create_app(config, embedders=Embedders())) as c:
        deadline = time.monotonic() + 120
        while c.get("/health").status_code != 200:
            assert time.monotonic() < deadline, c.get("/health").json()
            time.sleep(0.2)
        yield c


def openai(client, model, texts):
    r = client.post("/v1/embeddings", json={"model": model, "input": texts})
    assert r.status_code == 200, r.json()
    return np.asarray([d["embedding"] for d in r.json()["data"]], dtype=np.float32)


def test_your_own_model_is_served_by_its_name(client):
    health = client.get("/health").json()
    assert health["builds"]["mine"].startswith("onnx:") and health["dimensions"]["mine"] == 384
    mine, named = openai(client, "mine", TEXTS), openai(client, "minilm", TEXTS)
    assert np.min(np.sum(mine * named, axis=1)) > 0.99  # the same int8 export, copied


def test_cohere_embed_gives_the_openai_vectors(client):
    v2 = client.post("/v1/embed", json={"model": "minilm", "texts": TEXTS, "input_type": "search_document",
                                        "embedding_types": ["float"]})
    assert v2.status_code == 200
    vectors = np.asarray(v2.json()["embeddings"]["float"], dtype=np.float32)
    assert np.min(np.sum(vectors * openai(client, "minilm", TEXTS), axis=1)) > 0.999
    v1 = client.post("/v1/embed", json={"model": "minilm", "texts": TEXTS[:1], "input_type": "search_query"})
    assert len(v1.json()["embeddings"]) == 1 and len(v1.json()["embeddings"][0]) == 384
    assert client.post("/v1/embed", json={"model": "nope", "texts": TEXTS}).status_code == 404


def test_rerank_orders_by_cosine(client):
    query = "how can the contract be ended"
    r = client.post("/v1/rerank", json={"model": "minilm", "query": query, "documents": TEXTS, "top_n": 3,
                                        "return_documents": True})
    assert r.status_code == 200
    results = r.json()["results"]
    q = openai(client, "minilm-query", [query])[0]
    cosines = openai(client, "minilm-passage", TEXTS) @ q
    assert [x["index"] for x in results] == list(np.argsort(-cosines)[:3])
    assert results[0]["index"] == 1 and results[0]["document"]["text"] == TEXTS[1]
    assert [x["relevance_score"] for x in results] == pytest.approx(sorted(cosines, reverse=True)[:3], abs=0.01)
    jina = client.post("/v1/rerank", json={"model": "minilm", "query": query, "documents": [{"text": t} for t in TEXTS]})
    assert [x["index"] for x in jina.json()["results"]] == list(np.argsort(-cosines))
    assert client.post("/v1/rerank", json={"model": "minilm", "query": " ", "documents": TEXTS}).status_code == 400


def test_the_command_line_refuses_a_model_without_a_name(capsys):
    with pytest.raises(SystemExit):
        main(["--model", "st:/models/x"])
    assert "NAME=SPEC expected" in capsys.readouterr().err
