"""Bad input and races, tried as a new user would, on the real node: a killed ingest, two files
with one doc_id and version, two ingests creating one index, a 6,000-character question, a
dry run (that must embed nothing)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid

import pytest
from legalsearch.errors import QueryError
from legalsearch.index import indices, refresh
from legalsearch.ingest import IngestOptions, file_sources, ingest
from legalsearch.query.models import SearchRequest
from legalsearch.store import Store

from tests.conftest import REPO, SAMPLES


def _copy(folder, stems):
    folder.mkdir(parents=True, exist_ok=True)
    for stem in stems:
        for path in SAMPLES.glob(stem + ".*"):
            shutil.copy(path, folder / path.name)
    return folder


@pytest.fixture
def fresh_name(store):
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    indices.delete(store, name)


def test_a_killed_ingest_leaves_the_index_searchable(settings, store, fresh_name, tmp_path):
    """kill -9 of `legalsearch ingest` while it writes (refresh off): the next command that reads
    the index (here `index info`, as `search` and `node status` do) turns refresh back on and says
    so, and what the killed run wrote is searchable."""
    folder = _copy(tmp_path / "corpus", ["nda-acme-globex", "nda-acme-initech", "nda-acme-umbrella",
                                         "contratto-servizi-beta", "master-services-agreement"])
    env = {**os.environ, "OPENSEARCH_URL": store.url, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, str(REPO / "cli.py"), "ingest", str(folder), "--index", fresh_name, "--embedder", "e5", "-q"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    written = 0
    try:
        deadline = time.monotonic() + 240  # bounded: the CLI loads its models, then writes
        while time.monotonic() < deadline and proc.poll() is None:
            concrete = indices.resolve(store, fresh_name)
            if concrete and refresh.refresh_interval(store, concrete) == "-1":
                stats = store.client.indices.stats(index=concrete, metric="indexing")
                written = stats["_all"]["primaries"]["indexing"]["index_total"]
                if written:
                    break
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert written, "the ingest must have written chunks (with refresh off) before it was killed"
    concrete = indices.resolve(store, fresh_name)
    assert refresh.refresh_interval(store, concrete) == "-1"  # what a kill -9 leaves behind
    assert store.count(concrete) == 0  # ... and so nothing it wrote is visible

    info = indices.info(store, fresh_name)
    assert info["refresh"] == "restored" and "interrupted ingest" in info["refresh_message"]
    assert refresh.refresh_interval(store, concrete) is None
    assert info["chunks"] > 0 and store.count(concrete) == info["chunks"]
    assert indices.info(store, fresh_name)["refresh"] == "on"  # once is enough


def test_a_search_restores_refresh_too(settings, store, service, fresh_name, tmp_path, embedders):
    folder = _copy(tmp_path / "corpus", ["nda-acme-globex"])
    ingest(file_sources([folder]), settings, IngestOptions(index=fresh_name, embedder="e5"), store=store,
           embedders=embedders)
    concrete = indices.resolve(store, fresh_name)
    # the lease of a process that no longer runs, as a kill -9 leaves it
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    key = f"{refresh.socket.gethostname()}:{dead.stdout.strip()}:deadbeef"
    refresh._put_writers(store, concrete, {key: "2026-01-01T00:00:00+00:00"})
    store.put_settings(concrete, {"index": {"refresh_interval": "-1"}})
    response = service.search(SearchRequest(query="confidential information", index=fresh_name, k=3), write_log=False)
    assert response.hits and refresh.refresh_interval(store, concrete) is None


def test_two_files_with_one_doc_id_and_version_are_refused(run_ingest, store, fresh_name, tmp_path):
    folder = _copy(tmp_path / "corpus", ["nda-acme-globex"])
    sidecar = json.loads((folder / "nda-acme-globex.meta.json").read_text())
    shutil.copy(SAMPLES / "nda-acme-initech.txt", folder / "zz-copy.txt")  # another text, the same doc_id + version
    (folder / "zz-copy.meta.json").write_text(json.dumps(sidecar))
    options = IngestOptions(index=fresh_name, embedder="e5")
    for _ in range(2):  # the same outcome on every run: no alternation
        report = run_ingest([folder], options)
        failed = [d for d in report.documents if d.status == "failed"]
        assert len(failed) == 1 and failed[0].path.endswith("zz-copy.txt")
        assert "nda-acme-globex.txt" in failed[0].error and "zz-copy.txt" in failed[0].error
        store.refresh(indices.resolve(store, fresh_name))
        sources = {h["_source"]["source_path"] for h in store.scan(fresh_name, {"match_all": {}}, ["source_path"])}
        assert sources == {str(folder / "nda-acme-globex.txt")}


def test_two_ingests_creating_one_index_at_once_both_succeed(settings, store, embedders):
    model = embedders.get("minilm")
    for _ in range(3):
        name = f"test-race-{uuid.uuid4().hex[:8]}"
        barrier = threading.Barrier(2)
        outcomes: list = []

        def create(outcomes=outcomes, barrier=barrier, name=name):
            own = Store(settings, url=store.url)  # two clients, as two processes would have
            barrier.wait(30)
            try:
                outcomes.append(indices.create(own, name, model)["embedder"])
            except Exception as e:  # recorded: the assertion below names it
                outcomes.append(e)

        threads = [threading.Thread(target=create) for _ in range(2)]
        try:
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            assert outcomes == ["minilm", "minilm"]
            assert indices.resolve(store, name) == f"{name}--chunks-v1"
        finally:
            indices.delete(store, name)


def test_long_questions_answer_with_a_warning_or_a_clear_refusal(service, embedders, sample_index):
    text = (SAMPLES / "master-services-agreement.txt").read_text(encoding="utf-8")
    opening = "What does this say about the liability cap in clause 14.3? "
    question = opening + " ".join(text.split())[:6000]
    assert len(question) > 6000
    # BM25 alone (no document routing, which embeds): the first 80 distinct words (the whole
    # question made 1024+ clauses: HTTP 400 / 500)
    response = service.search(SearchRequest(query=question, index=sample_index[0], k=5, mode="bm25", routing="off"),
                              write_log=False)
    assert response.hits and response.warnings and "BM25 searched its first" in response.warnings[0]
    # the default search embeds the question too: past the model's window it is refused, in one line
    with pytest.raises(QueryError, match="tokens; the e5 model reads at most 512: shorten it"):
        service.search(SearchRequest(query=question, index=sample_index[0], k=5), write_log=False)
    # within the window but over 80 distinct words: the hybrid search (with document routing over 11
    # BM25 fields, the identifier sub-query) answers, BM25 on the first 80 words
    words = list(dict.fromkeys(text.split()))[:160]
    within = opening + " ".join(words)
    assert embedders.get("e5").count_tokens(within) < 512
    for routing in ("auto", "filter"):  # auto: off here (the question cites a clause); filter: routing runs
        response = service.search(SearchRequest(query=within, index=sample_index[0], k=5, routing=routing),
                                  write_log=False)
        assert response.hits and response.warnings and "BM25 searched its first" in response.warnings[0]


def test_dry_run_embeds_nothing(settings, embedders, tmp_path):
    cache_dir = tmp_path / "cache"
    quiet = settings.model_copy(update={"cache_dir": cache_dir})
    folder = _copy(tmp_path / "corpus", ["nda-acme-globex", "contratto-fornitura-acme"])
    report = ingest(file_sources([folder]), quiet, IngestOptions(index="unused", embedder="e5", dry_run=True),
                    store=None, embedders=embedders)
    assert report.count("planned") == 2 and report.chunks > 0
    with sqlite3.connect(cache_dir / "embeddings.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0] == 0
