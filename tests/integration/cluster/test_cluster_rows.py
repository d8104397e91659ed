"""No row lost on a fault (issue 27): a node killed mid-load, and the ingest report still accounts
for every bulk item (sent == written + failed, each failed item with its reason, its document
rolled back whole), and the index holds exactly the chunks of the documents reported ingested,
with the node down and after it came back.

The index has one replica per shard, so the client must see no loss: a bulk item whose primary
died waits for the promoted replica (or, answered 503, is sent again by the store), and a
request cut off with its node goes to another. A document the cluster did refuse would be
reported failed with its refused items and hold no chunk in the index; either way the counts
must add up exactly."""

from __future__ import annotations

import json
import os
import shutil
import signal
import uuid

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.index import indices
from legalsearch.ingest import IngestOptions, file_sources, ingest
from legalsearch.load import load_document

from tests.conftest import SAMPLES
from tests.integration.cluster.conftest import copy_holders, restore

pytestmark = pytest.mark.cluster

STEMS = ["nda-acme-globex", "nda-acme-initech", "nda-acme-umbrella", "contratto-fornitura-acme",
         "contratto-servizi-beta", "master-services-agreement"]
COPIES = 4  # 24 documents (the copies' texts embed once: the vector cache), so the kill lands mid-load
KILL_AFTER = 8


def _corpus(folder):
    """COPIES copies of each sample text, each its own document (its sidecar's doc_id + -<copy>)."""
    folder.mkdir(parents=True, exist_ok=True)
    for copy in range(COPIES):
        for stem in STEMS:
            shutil.copy(SAMPLES / f"{stem}.txt", folder / f"{stem}-{copy}.txt")
            meta = json.loads((SAMPLES / f"{stem}.meta.json").read_text(encoding="utf-8"))
            meta["doc_id"] = f"{meta['doc_id']}-{copy}"
            (folder / f"{stem}-{copy}.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return folder


def _chunk_ids(folder, reports, options, embedder) -> dict[str, set[str]]:
    """Chunk ids per ingested document's doc_key, computed apart from the index."""
    limit = options.chunk_limit(embedder.max_tokens)
    out = {}
    for report in reports:
        doc = load_document(report.path)
        out[report.doc_key] = {c.chunk_id for c in chunk_document(doc, options.chunker, max_chars=limit,
                                                                    recursive_size=limit)}
    return out


def _held(store, name: str) -> dict[str, str]:
    concrete = indices.resolve(store, name)
    store.refresh(concrete)
    return {h["_id"]: h["_source"]["doc_key"] for h in store.scan(concrete, {"match_all": {}}, source=["doc_key"])}


def test_a_node_killed_mid_load_loses_no_row(settings, healthy_cluster, cluster_spec, cluster_store, embedders,
                                             tmp_path):
    folder = _corpus(tmp_path / "corpus")
    name = f"fault-rows-{uuid.uuid4().hex[:8]}"
    options = IngestOptions(index=name, embedder="e5", shards=3, replicas=1)
    embedder = embedders.get("e5")
    try:
        indices.create(cluster_store, name, embedder, shards=3, replicas=1)
        victim = next(n for n, kind in copy_holders(cluster_store, indices.resolve(cluster_store, name)).items()
                      if kind == "p")
        pid = healthy_cluster.member(victim).pid
        done = {"n": 0}

        def kill_mid_load(n: int) -> None:
            done["n"] += n
            if done["n"] == KILL_AFTER:
                os.kill(pid, signal.SIGKILL)

        report = ingest(file_sources([folder]), cluster_store.settings, options, store=cluster_store,
                        embedders=embedders, progress=kill_mid_load)
        bulk = report.bulk
        ingested = [d for d in report.documents if d.status == "ingested"]
        failed = [d for d in report.documents if d.status == "failed"]
        print(f"\nkilled {victim} after {KILL_AFTER} of {len(report.documents)} documents: {len(ingested)} ingested, "
              f"{len(failed)} failed; bulk items sent {bulk['sent']}, written {bulk['written']}, failed "
              f"{bulk['failed']} {bulk['failed_by_reason']}; {bulk['requests']} requests, {bulk['retried']} items "
              f"retried, {bulk['rolled_back']} documents rolled back")
        assert done["n"] == len(report.documents) == len(STEMS) * COPIES
        assert len(ingested) + len(failed) == len(report.documents)
        # every item accounted for; every failed one named, with its reason, in its document's report
        assert bulk["sent"] == bulk["written"] + bulk["failed"]
        assert bulk["failed"] == sum(len(d.refused) for d in failed) == sum(bulk["failed_by_reason"].values())
        assert all(d.refused and all(r["reason"] for r in d.refused) for d in failed)
        assert bulk["rolled_back"] == len(failed)
        expected = _chunk_ids(folder, ingested, options, embedder)
        if not failed:  # a fresh index: each document's chunks and its registry record, nothing else
            assert bulk["sent"] == bulk["written"] == sum(len(ids) + 1 for ids in expected.values())
        want = {cid: key for key, ids in expected.items() for cid in ids}
        for label in ("with the node down", "after the node came back"):
            held = _held(cluster_store, name)
            assert held == want, label  # exactly the ingested documents' chunks; none of a failed one
            assert cluster_store.count(indices.resolve(cluster_store, name)) == len(want), label
            if label.startswith("with"):
                restore(settings, cluster_spec, cluster_store)
    finally:
        indices.delete(cluster_store, name)
