"""Smoke test of benchmarks/: every benchmark answers `--help`, and runs its smallest setting.

Each script runs as a subprocess with this venv's python, as a developer runs it. The test
checks that it exits 0 and prints the lines it says it prints; never a figure or a timing.

- Without the node: survey.py and summarizers.py (`--names opening`) on samples/corpus;
  embedding.py (16 chunks of the document one privacy_qa question cites, that question, minilm).
- On the local node, a uuid-named index of the three sample NDAs (e5) and a gold file of three
  of their questions: load.py (2 clients, 8 searches; and --service: `legalsearch serve` started
  by it against direct Python, 1 and 2 clients for a second each, two users of one request in
  flight each, removed afterwards), cluster_answers.py (the node against
  itself), query_latency.py (2 questions), dls_bool_quality.py (after `pipelines install`),
  startup.py (one round), fit_relevance.py (those questions and four off-topic ones);
  ingest_vs_embedder.py (one sample NDA, the in-process ONNX MiniLM); ingest_throughput.py (one privacy_qa document, kept) and
  oracle_ranking.py on the index it kept.
- `--help` plus a pure-function check only, since their smallest setting needs what a test
  cannot start: scale.py (an index grown to 10k-1M chunks: the copies' metadata, vectors and
  ids, and the exact top-k its recall is measured against), scale_routed.py and
  scale_total_hits.py (an index grown by scale.py: the modes they take from it) and
  security_cost.py (a second, unsecured node: its percentile).
- walls_cost.py at its smallest (two walled matters, one round of two questions, one ingest
  round) on the node: it prints its latency table and the ingest line.

The LegalBench-RAG runs need the development copy (/work/shared/data/legalbench-rag, or
LEGALSEARCH_TEST_LEGALBENCH); without it they are skipped, and say so.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import REPO, SAMPLES
from tests.integration.conftest import ingested_index

BENCH = REPO / "benchmarks"
SCRIPTS = sorted(p.name for p in BENCH.glob("*.py"))
DATA = Path(os.environ.get("LEGALSEARCH_TEST_LEGALBENCH", "/work/shared/data/legalbench-rag"))
needs_data = pytest.mark.skipif(not (DATA / "benchmarks").is_dir(), reason=f"no LegalBench-RAG copy at {DATA}")
NDAS = [SAMPLES / f"nda-acme-{n}.txt" for n in ("globex", "initech", "umbrella")]
GOLD_IDS = ("en-id-10", "en-con-02", "en-con-03")  # questions over those NDAs


def run(*args: str, env: dict | None = None, timeout: int = 300) -> str:
    """stdout of `python benchmarks/<script> args...`; a non-zero exit fails with its stderr."""
    proc = subprocess.run([sys.executable, str(BENCH / args[0]), *args[1:]], capture_output=True, text=True,
                          timeout=timeout, cwd=REPO, env={**os.environ, **(env or {})})
    assert proc.returncode == 0, f"{args[0]} exited {proc.returncode}:\n{proc.stderr[-3000:]}"
    return proc.stdout


def load_module(name: str):
    """A benchmark imported as a module (its siblings importable, as when it runs)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def test_every_benchmark_answers_help():
    assert len(SCRIPTS) == 23, SCRIPTS
    with ThreadPoolExecutor(max_workers=3) as pool:  # a fresh interpreter each: imports dominate
        outputs = dict(zip(SCRIPTS, pool.map(lambda s: run(s, "--help"), SCRIPTS), strict=True))
    for script, out in outputs.items():
        assert out.startswith("usage:"), (script, out[:200])
        assert "-h, --help" in out, script


# --------------------------------------------------------------------------- no node


def test_survey_on_the_sample_corpus():
    out = run("survey.py", str(SAMPLES))
    assert "| **all** | 9 |" in out
    assert "parse + structural chunking" in out and "recursive chunking" in out


def test_summarizers_on_the_sample_corpus(tmp_path):
    out = run("summarizers.py", str(SAMPLES), "--names", "opening", "--out", str(tmp_path / "s.jsonl"))
    row = json.loads(out.strip().splitlines()[-1])
    assert row["summarizer"] == "opening" and row["docs"] == 9
    assert len((tmp_path / "s.jsonl").read_text().splitlines()) == 9


@needs_data
def test_embedding_on_a_few_real_chunks(tmp_path):
    out = run("embedding.py", "--data", str(DATA), "--subset", "privacy_qa", "--per-subset", "1", "--chunks", "16",
              "--queries", "1",
              "--reps", "1", "--threads", "1", "--out", str(tmp_path), "minilm")
    assert re.search(r"^16 real chunks .*, 1 questions", out, re.M), out
    assert "medians over rounds and repetitions:" in out and "chunks/s" in out
    assert (tmp_path / "minilm.passages.npy").is_file()


# --------------------------------------------------------------------------- on the node


@pytest.fixture(scope="module")
def nda_index(store, run_ingest):
    with ingested_index(store, run_ingest, "test-scripts", NDAS, embedder="e5") as (name, _report):
        yield name


@pytest.fixture(scope="module")
def small_gold(tmp_path_factory):
    rows = [line for line in (REPO / "evaluation" / "gold" / "sample-gold.jsonl").read_text().splitlines()
            if line.strip() and json.loads(line)["id"] in GOLD_IDS]
    assert len(rows) == len(GOLD_IDS)
    path = tmp_path_factory.mktemp("gold") / "small-gold.jsonl"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.fixture(scope="module")
def node_env(settings, opensearch_url):
    """What a benchmark process needs to reach the session's node (the local one finds its
    credentials alone)."""
    env = {"OPENSEARCH_URL": opensearch_url}
    if settings.opensearch_user and settings.opensearch_password:
        env |= {"OPENSEARCH_USER": settings.opensearch_user,
                "OPENSEARCH_PASSWORD": settings.opensearch_password.get_secret_value()}
    if not settings.opensearch_verify_certs:
        env["LEGALSEARCH_OPENSEARCH_VERIFY_CERTS"] = "false"
    return env


def test_auto_rerank_cost_and_window_share(nda_index, small_gold, node_env):
    # three short NDAs: no fused list fills 100 candidates, so the second stage never runs
    out = run("auto_rerank_cost.py", "--index", nda_index, "--gold", str(small_gold), env=node_env)
    assert re.search(r"3 questions of .*: searched deeper \d+, reordered by the clause rescorer 0", out), out
    assert "| auto, empty cache |" in out and "| auto, filled cache |" in out
    out = run("window_share.py", nda_index, env=node_env)
    assert re.search(rf"^\| {nda_index} \| \d+ \| [\d.]+ % \| \d+ \| 0\.\d\d \|$", out, re.M), out


def test_load(nda_index, small_gold, node_env):
    out = run("load.py", "--index", nda_index, "--clients", "2", "--queries", "8", "--gold", str(small_gold),
              env=node_env)
    assert re.search(r"8 searches, 2 clients, .* errors 0", out), out
    assert "p50 by mode:" in out


def test_load_service(nda_index, small_gold, node_env, store):
    from legalsearch.security import admin

    prefix = f"load-test-{uuid.uuid4().hex[:6]}"
    try:
        out = run("load.py", "--service", "--index", nda_index, "--clients-list", "1,2", "--duration", "1",
                  "--warmup", "0.5", "--per-user", "1", "--user-prefix", prefix, "--gold", str(small_gold),
                  env=node_env)
    finally:
        for name in (f"{prefix}-1", f"{prefix}-2"):
            admin.users_remove(store, name)
    assert "2 users (1 requests in flight each at most)" in out, out
    assert "the same hits on both paths for 3 of 3 questions" in out, out
    rows = [line.split("|")[1:-1] for line in out.splitlines() if re.match(r"\| (direct|service) \|", line)]
    assert [(r[0].strip(), r[1].strip()) for r in rows] == [("direct", "1"), ("service", "1"), ("direct", "2"),
                                                          ("service", "2")], out
    assert all(int(r[2]) > 0 and r[7].strip() == "0" for r in rows), out  # searches, no error (no 429)
    assert "service overhead per search (service p50 - direct p50): 1 client " in out, out


def test_fit_relevance(nda_index, small_gold, node_env, tmp_path):
    from legalsearch.query.relevance import FEATURES, Calibration

    offtopic = tmp_path / "offtopic.jsonl"
    rows = [line for line in (REPO / "evaluation" / "gold" / "offtopic" / "offtopic-dev.jsonl").read_text().splitlines()
            if line.strip()][:4]
    offtopic.write_text("\n".join(rows) + "\n")
    out_file, pairs = tmp_path / "e5.json", tmp_path / "pairs.jsonl"
    out = run("fit_relevance.py", "--embedder", "e5", "--gold", f"{small_gold}={nda_index}", "--offtopic",
              str(offtopic), "--pairs", str(pairs), "--out", str(out_file), env=node_env)
    assert "coefficients (e5):" in out and "## held-out:" in out and f"written: {out_file}" in out, out
    data = json.loads(out_file.read_text())
    assert data["features"] == list(FEATURES) and data["fitted"]["held_out"]["pairs"] > 0
    Calibration.from_dict(data)  # loads as the search loads it
    again = run("fit_relevance.py", "--embedder", "e5", "--pairs", str(pairs), "--reuse", env=node_env)
    assert "coefficients (e5):" in again


def test_cluster_answers_of_the_node_against_itself(nda_index, small_gold, node_env):
    url = node_env["OPENSEARCH_URL"]
    out = run("cluster_answers.py", "--a", url, "--index-a", nda_index, "--b", url, "--index-b", nda_index,
              "--gold", str(small_gold), env=node_env)
    assert out.startswith("3 gold questions, top 10")
    rows = [line for line in out.splitlines() if line.startswith("| ") and "| 3 |" in line]
    assert len(rows) == 4, out  # the four search modes


def test_query_latency(nda_index, small_gold, node_env):
    out = run("query_latency.py", "--index", nda_index, "--gold", str(small_gold), "--queries", "2", env=node_env)
    assert f"2 queries per mode on index {nda_index}" in out
    for mode in ("bm25", "knn", "hybrid rrf + e5 rerank", "default + e5+clause (rescore)"):
        assert re.search(rf"^{re.escape(mode)}\s+\d", out, re.M), (mode, out)


def test_planning_cost(nda_index, small_gold, node_env, tmp_path):
    dump = tmp_path / "hits.jsonl"
    out = run("planning_cost.py", "--index", nda_index, "--gold", str(small_gold), "--queries", "3", "--warmup", "1",
              "--log-index", "test-scripts-planning-log", "--dump", str(dump), "--profile", "4", env=node_env)
    assert f"3 questions on index {nda_index}" in out
    assert re.search(r"^ratio defaults / plain\s+\d", out, re.M), out
    assert re.search(r"^profiled defaults: [\d.]+ ms a question", out, re.M), out
    assert len(re.findall(r"^\s+[\d.]+\s+[\d.]+ calls  \S", out, re.M)) == 4, out
    assert len(dump.read_text().splitlines()) == 3


def test_dls_bool_quality(nda_index, small_gold, node_env):
    command = [str(Path(sys.executable).parent / "legalsearch"), "pipelines", "install", "--index", nda_index]
    deadline = time.monotonic() + 90
    while True:  # the install checks the engine's model, which cannot embed while the server (re)loads its models
        install = subprocess.run(command, capture_output=True, text=True, timeout=300, env={**os.environ, **node_env})
        if install.returncode == 0 or "still loading" not in install.stderr or time.monotonic() > deadline:
            break
        time.sleep(2)
    assert install.returncode == 0, install.stderr[-2000:]
    out = run("dls_bool_quality.py", "--index", nda_index, "--gold", str(small_gold), env=node_env)
    assert f"gold set small-gold.jsonl: 3 questions, index {nda_index}" in out
    for form in ("hybrid, routing off", "bool (admin + groups)", "bool (as the reader, DLS)"):
        assert re.search(rf"^{re.escape(form)}\s+\d", out, re.M), (form, out)
    assert "identical top-10" in out


def test_startup(nda_index, node_env):
    out = run("startup.py", "--index", nda_index, "--rounds", "1", env=node_env)
    assert re.search(r"^round 1: wall [\d.]+ s", out, re.M), out
    assert f"fresh `legalsearch search` on {nda_index}" in out
    assert "breakdown (one fresh process): imports_s" in out, out  # the child's code ran, not its error


@needs_data
def test_ingest_throughput_then_oracle_ranking(store, node_env):
    out = run("ingest_throughput.py", "--data", str(DATA), "--subset", "privacy_qa", "--per-subset", "1", "--keep",
              env=node_env)
    kept = re.search(r"^kept index (\S+)$", out, re.M)
    assert kept, out
    from legalsearch.index import indices

    try:
        assert re.search(r"^corpus: 1 documents, ", out, re.M), out
        assert re.search(r"^chunks: \d+", out, re.M) and "everything but embedding" in out
        oracle = run("oracle_ranking.py", "--data", str(DATA), "--index", kept.group(1), env=node_env)
        assert re.search(rf"^index {re.escape(kept.group(1))}: [1-9]\d* chunks, oracle ranking", oracle, re.M), oracle
        for key in ("precision@mean", "recall@mean", "drm@mean", "precision@64"):
            assert re.search(rf"^\s+{re.escape(key)}\s+[\d.]+\s+\(privacy_qa ", oracle, re.M), (key, oracle)
    finally:
        indices.delete(store, kept.group(1))


# --------------------------------------------------------------------------- --help and a pure function


def test_scale_copies_their_documents_reproducibly():
    scale = load_module("scale")
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((4, scale.DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    sources = [{"doc_id": d, "version": "1", "position": i, "chunk_id": f"{d}:1:{i}"}
               for d, i in (("a", 0), ("a", 1), ("b", 0), ("b", 1))]
    base = scale.Base(sources, vectors)
    docs = list(scale.actions(base, "x", 0, 12, noise=0.25))  # three copies of every chunk
    assert [d["_source"]["doc_id"] for d in docs[:5]] == ["a~0", "a~0", "b~0", "b~0", "a~1"]
    assert np.allclose(np.array([d["_source"]["vector"] for d in docs[:4]]), vectors, atol=1e-6)  # copy 0: exact
    assert all(d["_source"]["acl"] == docs[j - j % 2]["_source"]["acl"] for j, d in enumerate(docs))  # per document
    base_rows = {(s["doc_id"], s["position"]): i for i, s in enumerate(sources)}
    assert [scale.row_of(d["_id"], base_rows, base.n) for d in docs] == list(range(12))
    meta = scale.metadata(base, np.arange(12))
    assert (scale.metadata(base, np.arange(12))["group"] == meta["group"]).all()  # deterministic
    mask = scale.visible(meta)
    all_vectors = scale.vectors_for(base, 0, 12, 0.25)
    queries = all_vectors[:2]
    exact = scale.exact_top(queries, all_vectors, mask, k=3)
    for q, top in zip(queries, exact, strict=True):
        scores = np.where(mask, all_vectors @ q, -np.inf)
        assert set(top) == set(np.argsort(-scores)[: len(top)]) and len(top) == min(3, int(mask.sum()))


def test_scale_routed_and_total_hits_take_the_modes_of_scale():
    scale = load_module("scale")
    for name in ("scale_routed", "scale_total_hits"):
        module = load_module(name)
        assert module.MODES == {k: v for k, v in scale.MODES.items() if k != "knn"}, name
    assert load_module("scale_total_hits").VARIANTS == ("default", "track_total_hits false")


def test_security_cost_percentile():
    security_cost = load_module("security_cost")
    assert security_cost.pct([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0
    assert security_cost.pct([5.0, 1.0, 3.0, 2.0, 4.0], 0.95) == 5.0
    assert security_cost.GROUP == "bench-a"


def test_walls_cost_smallest_setting(tmp_path):
    import shutil

    for path in SAMPLES.glob("nda-acme-globex.*"):  # one document beside the matter notes: the smallest run
        shutil.copy(path, tmp_path / path.name)
    out = run("walls_cost.py", "--walls", "2", "--rounds", "1", "--queries", "2", "--ingest-rounds", "1",
              "--corpus", str(tmp_path), timeout=600)
    assert "| user's groups (walls read) |" in out and "ingest (chunks/s, warm caches)" in out, out[-2000:]


def test_ingest_vs_embedder_on_one_document(tmp_path, node_env):
    import shutil

    for path in SAMPLES.glob("nda-acme-globex.*"):
        shutil.copy(path, tmp_path / path.name)
    out = run("ingest_vs_embedder.py", "--corpus", str(tmp_path), "--providers", "onnx", "--prefix",
              f"test-bench-{uuid.uuid4().hex[:6]}", env=node_env)
    assert re.search(r"^corpus: .+, 1 documents;", out, re.M), out
    assert "the same distinct texts as measured raw: yes" in out, out
    assert re.search(r"^\s+raw embedder\s+[\d.]+ chunks/s", out, re.M), out
    assert re.search(r"^\s+whole ingest\s+[\d.]+ chunks/s .+ of raw$", out, re.M), out
    assert re.search(r"^\| in-process ONNX MiniLM \| \d+ \|", out, re.M), out


def test_cross_language_cost_times_both_settings_and_counts_the_second_searches(sample_index):
    out = run("cross_language_cost.py", f"{REPO / 'evaluation/gold/sample-gold.jsonl'}:{sample_index[0]}",
              "--limit", "30")  # 30 English questions: 4 send the second search here (measured 2026-12-08)
    sent = re.search(r"(\d+) questions; the second search sent for (\d+)", out)
    assert sent and 0 < int(sent[2]) < int(sent[1]), out  # a bilingual corpus: some questions, not all
    assert re.search(r"routing_cross_language=3: p50 [\d.]+ ms, p95 [\d.]+ ms", out), out
    assert re.search(r"routing_cross_language=0: p50 [\d.]+ ms, p95 [\d.]+ ms", out), out
