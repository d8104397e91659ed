"""Faults on the real three-node cluster: a node killed mid-ingest and mid-query-loop, a frozen
node, bulk rejections. Each test ends with every node back and the cluster green
(`healthy_cluster`). Every loop is bounded; every wait has a deadline."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import threading
import time
import uuid

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.errors import NodeError
from legalsearch.index import indices
from legalsearch.ingest import IngestOptions, file_sources, ingest
from legalsearch.load import load_document
from legalsearch.query.models import SearchRequest
from legalsearch.query.service import SearchService
from legalsearch.store import Store

from tests.conftest import SAMPLES
from tests.integration.cluster.conftest import (
    WRITE_QUEUE,
    cluster_settings,
    copy_holders,
    gold_queries,
    manager,
    query_loop,
    restore,
)

pytestmark = pytest.mark.cluster

TEXT_DOCS = ["nda-acme-globex", "nda-acme-initech", "nda-acme-umbrella", "contratto-fornitura-acme",
             "contratto-servizi-beta", "master-services-agreement"]


def _corpus(folder, stems=TEXT_DOCS):
    folder.mkdir(parents=True, exist_ok=True)
    for stem in stems:
        for path in SAMPLES.glob(stem + ".*"):
            shutil.copy(path, folder / path.name)
    return folder


def _expected_chunk_ids(folder, options: IngestOptions, embedder) -> set[str]:
    """What the index must hold, computed apart from the index: every file loaded and chunked."""
    limit = options.chunk_limit(embedder.max_tokens)
    ids = set()
    for source in sorted(folder.glob("*.txt")):
        doc = load_document(source)
        ids |= {c.chunk_id for c in chunk_document(doc, options.chunker, max_chars=limit, recursive_size=limit)}
    return ids


def _index_state(store, name: str, preference: str | None = None) -> tuple[dict[str, dict], int, list]:
    """(chunk id -> source, count, chunk ids held more than once) of the live chunks index."""
    concrete = indices.resolve(store, name)
    store.refresh(concrete)
    chunks = {h["_id"]: h["_source"] for h in store.scan(concrete, {"match_all": {}}, source=["chunk_id", "text"])}
    body = {"size": 0, "query": {"match_all": {}},
            "aggs": {"dup": {"terms": {"field": "chunk_id", "min_doc_count": 2, "size": 100}}}}
    params = {"preference": preference} if preference else {}
    result = store.client.search(index=concrete, body=body, params=params)
    dups = [b["key"] for b in result["aggregations"]["dup"]["buckets"]]
    return chunks, int(result["hits"]["total"]["value"]), dups


def _node_of(state, copies: dict[str, str], want: str) -> str:
    return next(name for name, kind in copies.items() if kind == want)


def test_kill_a_data_node_mid_ingest_then_rerun(settings, healthy_cluster, cluster_spec, cluster_store, embedders,
                                               tmp_path):
    """(a) kill -9 the node holding the chunks' primary while an ingest replaces documents, run
    the same ingest again: exactly the expected chunks, none twice, none of a replaced text."""
    folder = _corpus(tmp_path / "corpus")
    name = f"fault-a-{uuid.uuid4().hex[:8]}"
    options = IngestOptions(index=name, embedder="e5")
    embedder = embedders.get("e5")

    def run(**kw):
        return ingest(file_sources([folder]), cluster_store.settings, options, store=cluster_store,
                      embedders=embedders, **kw)

    try:
        first = run()
        assert first.count("ingested") == len(TEXT_DOCS)
        # New texts: three documents shrink to their first half (their last chunks must go), two
        # get a changed paragraph (same ids, new text).
        for stem in TEXT_DOCS[:3]:
            path = folder / f"{stem}.txt"
            text = path.read_text(encoding="utf-8")
            path.write_text(text[: len(text) // 2], encoding="utf-8")
        for stem in TEXT_DOCS[3:5]:
            path = folder / f"{stem}.txt"
            path.write_text(path.read_text(encoding="utf-8").replace("e", "e ", 1) + "\nAggiunto: versione B.\n",
                            encoding="utf-8")
        expected = _expected_chunk_ids(folder, options, embedder)
        stale = set(_index_state(cluster_store, name)[0]) - expected
        assert stale, "the new texts must leave chunks of the old ones to delete"

        victim = _node_of(healthy_cluster, copy_holders(cluster_store, indices.resolve(cluster_store, name)), "p")
        pid = healthy_cluster.member(victim).pid
        done = {"n": 0}

        def kill_after_two(n: int) -> None:
            done["n"] += n
            if done["n"] == 2:
                os.kill(pid, signal.SIGKILL)

        second = run(progress=kill_after_two)
        rerun = run()
        print(f"\n(a) killed {victim} after 2 of {len(TEXT_DOCS)} documents: first run {second.count('ingested')} "
              f"ingested, {second.count('failed')} failed; re-run {rerun.count('ingested')} ingested, "
              f"{rerun.count('unchanged')} unchanged, {rerun.count('failed')} failed")
        assert rerun.count("failed") == 0, rerun.summary()["failures"]

        for label in ("with the node down", "after the node came back"):
            chunks, count, dups = _index_state(cluster_store, name)
            assert set(chunks) == expected, label
            assert count == len(expected) and dups == [], label
            assert not (set(chunks) & stale), label
            assert any("versione B" in c["text"] for c in chunks.values()), label
            if label.startswith("with"):
                restore(settings, cluster_spec, cluster_store)
        # the node that came back holds a copy again, identical to the others
        copies = copy_holders(cluster_store, indices.resolve(cluster_store, name))
        assert victim in copies
        assert _index_state(cluster_store, name, preference=f"_only_nodes:{victim}")[1] == len(expected)
    finally:
        indices.delete(cluster_store, name)


class _FailedAttempts(logging.Handler):
    """Counts the requests opensearch-py logs as failed before it retries them on another node."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        self.count += 1


def test_queries_keep_answering_when_a_node_dies(settings, healthy_cluster, cluster_spec, cluster_store,
                                                cluster_service, cluster_samples):
    """(b) kill -9 the node holding the primary during a bounded query loop: every query still
    answers (from the replica, through another node), and the cluster is green again with every
    chunk when the node returns."""
    concrete = indices.resolve(cluster_store, cluster_samples)
    count_before = cluster_store.count(concrete)
    victim = _node_of(healthy_cluster, copy_holders(cluster_store, concrete), "p")
    pid = healthy_cluster.member(victim).pid
    items = [i for i in gold_queries(20) if cluster_service.search(
        SearchRequest(query=i.query, index=cluster_samples, k=5, as_of=i.as_of, groups=tuple(i.groups)),
        write_log=False).hits][:10]
    attempts = _FailedAttempts()
    os_logger = logging.getLogger("opensearch")
    level = os_logger.level
    os_logger.addHandler(attempts)
    os_logger.setLevel(logging.WARNING)
    try:
        result = query_loop(cluster_service, cluster_samples, items, 40,
                            on_query=lambda i: os.kill(pid, signal.SIGKILL) if i == 10 else None)
    finally:
        os_logger.removeHandler(attempts)
        os_logger.setLevel(level)
    t0 = time.monotonic()
    restore(settings, cluster_spec, cluster_store)
    print(f"\n(b) killed {victim} at query 10 of {result['count']}: {attempts.count} failed attempts retried on "
          f"another node; {len(result['failures'])} failed queries, {len(result['empty'])} empty; green again "
          f"{time.monotonic() - t0:.0f}s after the restart began")
    assert result["failures"] == [] and result["empty"] == []
    assert cluster_store.count(concrete) == count_before


def test_a_frozen_node_fails_within_the_timeout(settings, healthy_cluster, cluster_store, cluster_samples,
                                               embedders, tmp_path):
    """(c) SIGSTOP a node that holds a copy of the index (not the cluster manager): a search and
    an ingest through it fail within the configured timeout with a message that says so, and
    through the whole cluster they return (or fail the same way) within a bound; none hangs."""
    timeout = 5.0
    concrete = indices.resolve(cluster_store, cluster_samples)
    boss = manager(cluster_store)
    victim = next(n for n in copy_holders(cluster_store, concrete) if n != boss)
    member = healthy_cluster.member(victim)
    quick = cluster_settings(settings, timeout)
    req = SearchRequest(query="liability cap in clause 14.3", index=cluster_samples, k=3)
    folder = _corpus(tmp_path / "corpus", ["nda-acme-globex"])
    outcomes = {}
    os.kill(member.pid, signal.SIGSTOP)
    try:
        through_it = SearchService(quick, Store(quick, url=member.url), embedders)
        t0 = time.monotonic()
        with pytest.raises(NodeError, match=f"did not answer within {timeout:g}s"):
            through_it.search(req, write_log=False)
        outcomes["search via the frozen node"] = time.monotonic() - t0

        everyone = Store(quick, url=",".join(healthy_cluster.urls))
        t0 = time.monotonic()
        try:
            SearchService(quick, everyone, embedders).search(req, write_log=False)
        except NodeError as e:
            assert "did not answer within" in str(e) or "cannot reach" in str(e)
        outcomes["search via any node"] = time.monotonic() - t0

        # The node that timed out (and then does not answer a 1-second HEAD) is retired for a while:
        # of nine requests sent round-robin to the three nodes at most one waits on it.
        failed = []
        for i in range(9):
            try:
                everyone.info()
            except NodeError:
                failed.append(i)
        outcomes["requests to a retired frozen node"] = len(failed)
        assert len(failed) <= 1 and not [i for i in failed if i >= 3], failed

        t0 = time.monotonic()
        with pytest.raises(NodeError, match="did not answer within"):
            ingest(file_sources([folder]), quick, IngestOptions(index=cluster_samples, embedder="e5", force=True),
                   store=everyone, embedders=embedders)
        outcomes["ingest"] = time.monotonic() - t0
    finally:
        os.kill(member.pid, signal.SIGCONT)
    print("\n(c) froze " + victim + ": " + ", ".join(f"{k} {v:.1f}" for k, v in outcomes.items()))
    assert outcomes["search via the frozen node"] < timeout + 5
    assert outcomes["search via any node"] < 2 * timeout + 10
    assert outcomes["ingest"] < 3 * timeout + 10  # the failing request, then giving refresh back, each bounded


def test_bulk_rejections_are_retried_and_counted(settings, healthy_cluster, cluster_store, embedders, tmp_path):
    """(d) Fill the write queue (shrunk to 2 on this cluster) of the node that holds the new
    index's primary with a bounded flood of bulk requests while an ingest runs: the ingest's
    bulk items are rejected with 429, retried with backoff, counted in the report, and every
    chunk arrives."""
    folder = _corpus(tmp_path / "corpus", TEXT_DOCS[:4])
    name = f"fault-d-{uuid.uuid4().hex[:8]}"
    # one document per bulk: more requests, so more chances to meet the full queue
    options = IngestOptions(index=name, embedder="e5", batch_chunks=1)
    scratch = f"flood-{uuid.uuid4().hex[:8]}"
    ingest_store = Store(cluster_store.settings, url=",".join(healthy_cluster.urls))
    try:
        indices.create(cluster_store, name, embedders.get("e5"))
        chunks_index = indices.resolve(cluster_store, name)
        # the primary must stay where the flood goes: the scratch index below makes that node the
        # fullest, and the balancer would otherwise move the primary away (then no 429 ever came)
        cluster_store.put_settings(chunks_index, {"index": {"routing.rebalance.enable": "none"}})
        cluster_store.wait_for_index(chunks_index, "green", 60)
        primary = _node_of(healthy_cluster, copy_holders(cluster_store, chunks_index), "p")
        cluster_store.create_index(scratch, {"settings": {"index": {
            "number_of_shards": 1, "number_of_replicas": 0, "routing.allocation.require._name": primary}}})
        cluster_store.wait_for_index(scratch, "green", 60)
        # Each flood bulk holds scripted upserts that spin for a while: a bulk's scripts run on the
        # write threads of the node holding the primary, so a few flood requests keep those
        # threads busy for about a second each and the queue of 2 stays full; a bulk from the
        # ingest that reaches the node then is refused with 429.
        rejected_before = cluster_store.write_pool()[primary]["rejected"]
        stop = threading.Event()
        spin = {"lang": "painless", "source": "long x = 0; for (int i = 0; i < 900000; ++i) { x += i % 7; } "
                                              "ctx._source.spin = x;"}
        body = "".join(f'{{"update": {{"_index": "{scratch}", "_id": "{i}"}}}}\n'
                       + json.dumps({"script": spin, "scripted_upsert": True, "upsert": {}}) + "\n"
                       for i in range(200))

        def flood():  # bounded: until the ingest met a rejection, or ended, or 180 s passed
            client = Store(cluster_store.settings, url=healthy_cluster.member(primary).url).client
            deadline = time.monotonic() + 180
            while time.monotonic() < deadline:
                if stop.is_set() or ingest_store.bulk_stats.rejected:
                    return
                try:
                    client.bulk(body=body)
                except Exception:  # a refused flood request is the point
                    time.sleep(0.02)

        threads = [threading.Thread(target=flood, daemon=True) for _ in range(2 * (4 + WRITE_QUEUE))]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 60
        while cluster_store.write_pool()[primary]["rejected"] == rejected_before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert cluster_store.write_pool()[primary]["rejected"] > rejected_before, "the flood must fill the queue"
        reports = []
        try:
            for attempt in range(3):  # bounded: a run whose requests all found a free slot is run again
                reports.append(ingest(file_sources([folder]), cluster_store.settings,
                                      options.model_copy(update={"force": attempt > 0}), store=ingest_store,
                                      embedders=embedders))
                if ingest_store.bulk_stats.rejected:
                    break
        finally:
            stop.set()
            for t in threads:
                t.join(120)
        report = reports[-1]
        bulk = report.summary()["bulk"]
        print(f"\n(d) write queue {WRITE_QUEUE} on {primary}, {len(threads)} flood threads, {len(reports)} ingest "
              f"run(s): {bulk}")
        assert bulk["rejected"] > 0, "the ingest must have met 429s"
        assert bulk["retried"] == bulk["rejected"] and bulk["failed"] == 0 and bulk["backoff_s"] > 0
        assert all(r.count("failed") == 0 for r in reports)
        chunks, count, dups = _index_state(cluster_store, name)
        assert set(chunks) == _expected_chunk_ids(folder, options, embedders.get("e5"))
        assert count == len(chunks) == reports[0].chunks and dups == []
    finally:
        indices.delete(cluster_store, name)
        cluster_store.delete_index(scratch)
