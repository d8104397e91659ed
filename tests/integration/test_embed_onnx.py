"""The ONNX Runtime MiniLM with the real exported model: its vectors against PyTorch's, truncation,
batching by length, both parallel modes, start-up without torch, the export's files, and an index
recording its build so the query side embeds with the same one."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import uuid
from pathlib import Path

import numpy as np
import pytest
from legalsearch.embed import export
from legalsearch.errors import ConfigError
from legalsearch.ingest import IngestOptions

from tests.conftest import REPO, SAMPLES

REFERENCE = json.loads((Path(__file__).parent / "data" / "minilm_torch_reference.json").read_text())


@pytest.fixture(scope="module")
def minilm(embedders):
    return embedders.get("minilm-onnx")


def test_the_export_is_there_once_with_its_provenance(settings, minilm):
    directory = export.ensure(settings.cache_dir, "minilm", minilm.variant)  # again: nothing to do
    meta = export.read_meta(directory)
    source = export.source_file("minilm")
    assert meta["source"]["size"] == source.stat().st_size and len(meta["source"]["sha256"]) == 64
    entry = meta["variants"][minilm.variant]
    graph, data = directory / entry["file"], directory / (entry["file"] + ".data")
    assert data.stat().st_size > 20_000_000  # the weights live beside the graph (memory-mapped)
    assert graph.stat().st_size < 1_000_000
    for path in (graph, data):
        assert stat.S_IMODE(path.stat().st_mode) & 0o044 == 0o044, f"{path} unreadable by other users"
    mtime = graph.stat().st_mtime_ns
    export.ensure(settings.cache_dir, "minilm", minilm.variant)
    assert graph.stat().st_mtime_ns == mtime


def test_vectors_agree_with_pytorch(minilm):
    vectors = minilm.embed_passages(REFERENCE["texts"])
    reference = np.asarray(REFERENCE["vectors"], dtype=np.float32)
    cosine = (vectors * reference).sum(axis=1)
    # int8 kernels differ by CPU: 0.9947 mean / 0.9930 min on a 2-core AMD EPYC without AVX-512,
    # above 0.995 where the reference was taken
    assert cosine.min() > 0.99 and cosine.mean() > 0.993, cosine
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert [minilm.count_tokens(t) for t in REFERENCE["texts"]] == REFERENCE["tokens"]


def test_long_texts_are_cut_at_256_word_pieces_not_128(minilm):
    long_text = REFERENCE["texts"][-1]
    assert minilm.count_tokens(long_text) > 256
    words = long_text.split()
    head_150 = " ".join(words[:110])  # ~150 word pieces: past the tokenizer file's own 128 cut
    assert 128 < minilm.count_tokens(head_150) < 256
    a, b = minilm.embed_passages([head_150, " ".join(words[:110] + ["liability"] * 20)])
    assert float(a @ b) < 0.999  # the words past 128 pieces count
    c, d = minilm.embed_passages([long_text, long_text + " Unrelated trailing words about cats."])
    assert float(c @ d) > 0.999  # past 256 pieces nothing counts


def test_batching_by_length_keeps_the_order(minilm):
    texts = REFERENCE["texts"]
    batch = minilm.embed_passages(texts[::-1])[::-1]
    one_by_one = np.stack([minilm.embed_passages([t])[0] for t in texts])
    similarity = batch @ one_by_one.T
    assert (similarity.argmax(axis=1) == np.arange(len(texts))).all()
    assert similarity.diagonal().min() > 0.99  # dynamic quantization: a batch changes a vector slightly
    assert minilm.embed_passages([]).shape == (0, 384)
    assert np.allclose(minilm.embed_query(texts[0]), minilm.embed_passages([texts[0]])[0], atol=1e-6)
    # the whole Embedder interface: the embedding server's "<name>-query" models call embed_queries
    assert np.allclose(minilm.embed_queries(texts[:2]), minilm.embed_passages(texts[:2]), atol=1e-6)


def test_data_parallel_mode_gives_the_same_vectors(settings, minilm):
    from legalsearch.embed.onnxrt import OnnxMiniLMEmbedder

    data = OnnxMiniLMEmbedder(settings.cache_dir, minilm.variant, threads=2, parallel="data", max_batch=2)
    intra = OnnxMiniLMEmbedder(settings.cache_dir, minilm.variant, threads=2, parallel="intra", max_batch=2)
    auto = OnnxMiniLMEmbedder(settings.cache_dir, minilm.variant, threads=2, parallel="auto", max_batch=2)
    texts = REFERENCE["texts"] * 2
    expected = intra.embed_passages(texts)
    assert np.allclose(data.embed_passages(texts), expected, atol=1e-5)
    # auto: one batch stays on the intra-op session (no second session made), several run side by side
    assert np.allclose(auto.embed_passages(texts[:2]), intra.embed_passages(texts[:2]), atol=1e-5)
    assert auto._single is None
    assert np.allclose(auto.embed_passages(texts), expected, atol=1e-5)
    assert auto._single is not None and auto._single is not auto._session
    # calls that meet (a server's concurrent requests) run apart too, with the same vectors
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda i: auto.embed_passages(texts[i:i + 2]), range(0, len(texts), 2)))
    for i, out in zip(range(0, len(texts), 2), outs, strict=True):
        assert np.allclose(out, intra.embed_passages(texts[i:i + 2]), atol=1e-5)
    with pytest.raises(ValueError, match="parallel"):
        OnnxMiniLMEmbedder(settings.cache_dir, minilm.variant, parallel="both")


def test_a_fresh_process_embeds_a_query_without_importing_torch(minilm):
    code = ("import sys; from legalsearch.embed import Embedders; e = Embedders().get('minilm-onnx'); "
            "v = e.embed_query('What is the governing law?'); print(len(v), 'torch' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["384", "False"]


@pytest.fixture
def logical_index(store):
    from legalsearch.index import indices

    name = f"test-build-{uuid.uuid4().hex[:8]}"
    yield name
    indices.delete(store, name)


def test_an_index_records_its_build_and_keeps_it(store, run_ingest, embedders, logical_index, minilm):
    from legalsearch.index import indices

    options = IngestOptions(index=logical_index, embedder="minilm-onnx")
    report = run_ingest([SAMPLES / "nda-acme-globex.txt"], options)
    assert report.summary()["failed"] == 0
    meta = indices.require_meta(store, logical_index)
    assert meta["embedder"] == "minilm" and meta["embedder_build"] == minilm.build
    assert meta["model_sha256"] == export.read_meta(minilm.directory)["variants"][minilm.variant]["sha256"]
    assert embedders.for_index(meta) is minilm
    with pytest.raises(ConfigError, match=f"holds {minilm.build} vectors"):
        run_ingest([SAMPLES / "nda-acme-globex.txt"], options.model_copy(update={"embedder": "minilm-torch"}))
