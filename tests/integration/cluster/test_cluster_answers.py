"""The three-node cluster answers like one node, and a blue/green reindex swaps under load.

The tests of this module run in file order on one index (`cluster_samples`): the reindex test
moves it to three shards, the last test of the module."""

from __future__ import annotations

import threading
import time

import pytest
from legalsearch.index import generations, indices
from legalsearch.query.identifiers import parse_identifiers
from legalsearch.query.models import SearchRequest

from tests.integration.cluster.conftest import gold_queries, query_loop

pytestmark = pytest.mark.cluster

MODES = [  # (label, SearchRequest fields): the fused queries and the two lists they fuse
    ("hybrid normalization", {"mode": "hybrid", "fusion": "normalization"}),
    ("hybrid rrf", {"mode": "hybrid", "fusion": "rrf"}),
    ("bm25", {"mode": "bm25", "routing": "off"}),
    ("knn", {"mode": "knn", "routing": "off"}),
]


def _top(service, index: str, item, k: int = 10, **fields) -> list[str]:
    req = SearchRequest(query=item.query, index=index, k=k, as_of=item.as_of, groups=tuple(item.groups),
                        expand_xrefs=False, **fields)
    return [h.chunk_id for h in service.search(req, write_log=False).hits]


def _differences(service, single_index, cluster_service, cluster_index, items, modes) -> list[str]:
    out = []
    for label, fields in modes:
        for item in items:
            one, many = _top(service, single_index, item, **fields), _top(cluster_service, cluster_index, item, **fields)
            if one != many:
                out.append(f"{label} {item.id}: one node {one[:5]} vs cluster {many[:5]}")
    return out


def test_three_nodes_form_one_cluster_and_status_shows_them(test_cluster, cluster_store, cluster_samples):
    from legalsearch import status

    # green is an asynchronous state: a new index (a wall, a day's audit index) is yellow until its
    # replica is assigned; the health API waits for it (bounded) before the rest is read
    cluster_store.wait_for_index("_all", "green", timeout=90)
    report = status.node_status(cluster_store)
    assert report["reachable"] and report["cluster"] == "legalsearch-test" and report["health"] == "green"
    assert sorted(n["name"] for n in report["nodes"]) == ["ls-1", "ls-2", "ls-3"]
    assert sum(n["cluster_manager"] for n in report["nodes"]) == 1
    chunks = indices.resolve(cluster_store, cluster_samples)
    copies = [s for s in report["shards"] if s["index"] == chunks]
    # one shard, one replica (auto-expanded on a cluster), on two different nodes
    assert sorted(c["prirep"] for c in copies) == ["p", "r"] and len({c["node"] for c in copies}) == 2
    assert len({m.http_port for m in test_cluster.members}) == len({m.transport_port for m in test_cluster.members}) == 3
    assert len({m.home for m in test_cluster.members}) == 3
    text = status.render(report)
    assert "ls-2" in text and "shards: 0p started on" in text and "3 nodes" in text


def test_same_top_k_as_one_node(service, one_node_samples, cluster_service, cluster_samples):
    """The same corpus, ingested the same way into one node and into the cluster (one shard and a
    replica): the top 10 of every mode is the same list, for two gold questions of each type."""
    by_type: dict[str, list] = {}
    for item in gold_queries(82):
        by_type.setdefault(item.type, []).append(item)
    items = [i for group in by_type.values() for i in group[:2]]
    assert _differences(service, one_node_samples, cluster_service, cluster_samples, items, MODES) == []


def test_reindex_swaps_atomically_while_queries_run(settings, service, one_node_samples, cluster_service,
                                                    cluster_store, cluster_samples, embedders):
    """Blue/green: a query loop runs while `index reindex` copies the index into three shards and
    moves the aliases; no query fails, none comes back empty, the old index is kept until pruned.
    Then plain BM25 over three shards still ranks as on one node (dfs_query_then_fetch)."""
    from legalsearch.ingest.reindex import reindex

    items = [i for i in gold_queries(30) if _top(cluster_service, cluster_samples, i, k=5)][:12]
    before = indices.info(cluster_store, cluster_samples)
    loop: dict = {}
    done_at: list[int] = []  # the loop's query number when the reindex returned
    progress = {"i": 0}

    def stop(i: int) -> bool:  # bounded: 10 queries after the reindex returned, 3000 at most
        progress["i"] = i
        return bool(done_at) and i >= done_at[0] + 10

    thread = threading.Thread(target=lambda: loop.update(query_loop(cluster_service, cluster_samples, items, 3000,
                                                                    stop=stop)), daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while progress["i"] < 3 and time.monotonic() < deadline:  # the loop is searching before the reindex starts
        time.sleep(0.1)
    t0 = time.monotonic()
    try:
        result = reindex(cluster_store, cluster_store.settings, embedders, cluster_samples, shards=3)
    finally:
        t1 = time.monotonic()
        done_at.append(progress["i"])
        thread.join(600)
    during = [t for t in loop["times"] if t[1] >= t0 and t[0] <= t1]
    print(f"\nreindex (copy, 3 shards) took {t1 - t0:.1f}s; {loop['count']} queries in all, {len(during)} while it "
          f"ran; failures {len(loop['failures'])}, empty {len(loop['empty'])}")
    assert loop["failures"] == [] and loop["empty"] == []
    assert len(during) >= 5, "the loop must have searched while the reindex ran"
    assert result["mode"] == "copy" and result["chunks"] == before["chunks"] > 0
    after = indices.info(cluster_store, cluster_samples)
    assert after["shards"] == 3 and after["aliases"][cluster_samples] == result["live"]["chunks"]
    # kept, until pruned: the old public indices and the old walls (the privileged note's)
    kept = set(before["aliases"].values()) | {i for w in before["walls"] for i in (w["chunks"], w["docs"])}
    assert before["walls"] and set(after["previous_generations"]) == kept

    # A plain BM25 query (no identifier sub-query, so not a hybrid one) over three shards ranks as
    # on one node: dfs_query_then_fetch gives every shard the global term statistics. (Not with
    # an --as-of filter: a shard whose validity dates cannot match rewrites the query to
    # match_none and adds no statistics, see docs/cluster.md.)
    # (title_weight 0: the default clause-title list would make `--mode bm25` a hybrid query too)
    bm25 = [("bm25", {"mode": "bm25", "routing": "off", "title_weight": 0.0})]
    plain = [i for i in gold_queries(82) if not parse_identifiers(i.query) and not i.as_of][:8]
    assert _differences(service, one_node_samples, cluster_service, cluster_samples, plain, bm25) == []

    deleted = generations.prune(cluster_store, cluster_samples)
    assert set(deleted) == kept
    assert indices.info(cluster_store, cluster_samples)["previous_generations"] == []
