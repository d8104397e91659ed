"""Proof that the node is real: plugins, k-NN (lucene HNSW cosine) with an efficient filter,
RRF and normalization pipelines, hybrid query order equal to RRF computed by hand, analyzers."""

from __future__ import annotations

import numpy as np
from legalsearch.query import fusion

DOCS = {
    # id: (text, tag, vector) — vectors on the unit circle, so cosine order is easy to see.
    "a": ("termination of the agreement for convenience", "contract", [1.0, 0.0]),
    "b": ("termination notice period and termination fees", "contract", [0.8, 0.6]),
    "c": ("governing law and jurisdiction of the courts", "contract", [0.6, 0.8]),
    "d": ("confidential information must not be disclosed", "nda", [0.0, 1.0]),
    "e": ("payment of fees within thirty days", "contract", [0.95, 0.31]),
}


def _create_fixture_index(store, name):
    store.create_index(
        name,
        {
            "settings": {"index": {"knn": True, "number_of_shards": 1, "number_of_replicas": 0}},
            "mappings": {
                "properties": {
                    "text": {"type": "text", "analyzer": "english"},
                    "tag": {"type": "keyword"},
                    "vector": {
                        "type": "knn_vector",
                        "dimension": 2,
                        "method": {"name": "hnsw", "engine": "lucene", "space_type": "cosinesimil",
                                   "parameters": {"m": 16, "ef_construction": 100}},
                    },
                }
            },
        },
    )
    actions = [
        {"_index": name, "_id": doc_id, "text": t, "tag": tag, "vector": v} for doc_id, (t, tag, v) in DOCS.items()
    ]
    assert store.bulk(actions, refresh="wait_for") == len(DOCS)


def _ids(result):
    return [h["_id"] for h in result["hits"]["hits"]]


def test_plugins_listed(store):
    components = {p["component"] for p in store.plugins()}
    assert {"opensearch-knn", "opensearch-neural-search"} <= components


def test_english_analyzer_from_analysis_common(store):
    tokens = store.analyze({"analyzer": "english", "text": "Terminating the agreements"})
    assert tokens == ["termin", "agreement"]


def test_knn_query_with_efficient_filter(store, index_name):
    _create_fixture_index(store, index_name)
    query = [1.0, 0.1]
    body = {"size": 3, "query": {"knn": {"vector": {"vector": query, "k": 3,
                                                     "filter": {"term": {"tag": "nda"}}}}}}
    assert _ids(store.search(index_name, body)) == ["d"]
    unfiltered = _ids(store.search(index_name, {"size": 5, "query": {"knn": {"vector": {"vector": query, "k": 5}}}}))
    vectors = {k: np.array(v[2]) for k, v in DOCS.items()}
    q = np.array(query) / np.linalg.norm(query)
    expected = sorted(vectors, key=lambda k: -float(vectors[k] @ q / np.linalg.norm(vectors[k])))
    assert unfiltered == expected


def test_hybrid_rrf_order_equals_rrf_by_hand(store, index_name):
    _create_fixture_index(store, index_name)
    k_rrf = 60
    name = fusion.rrf_pipeline_name(k_rrf)
    store.put_search_pipeline(name, fusion.rrf_pipeline_body(k_rrf))
    assert name in store.get_search_pipelines(name)

    bm25 = {"match": {"text": "termination fees"}}
    knn = {"knn": {"vector": {"vector": [0.5, 0.87], "k": 5}}}
    bm25_rank = _ids(store.search(index_name, {"size": 10, "query": bm25}))
    knn_rank = _ids(store.search(index_name, {"size": 10, "query": knn}))
    assert bm25_rank and knn_rank and bm25_rank[0] != knn_rank[0]  # the two lists disagree

    fused = {}
    for ranking in (bm25_rank, knn_rank):
        for rank, doc_id in enumerate(ranking, start=1):
            fused[doc_id] = fused.get(doc_id, 0.0) + 1.0 / (k_rrf + rank)
    by_hand = sorted(fused, key=lambda d: (-fused[d], d))

    result = store.search(index_name, {"size": 10, "query": {"hybrid": {"queries": [bm25, knn]}}}, pipeline=name)
    assert _ids(result) == by_hand
    top = result["hits"]["hits"][0]
    assert abs(top["_score"] - fused[by_hand[0]]) < 1e-6


def test_normalization_pipeline(store, index_name):
    _create_fixture_index(store, index_name)
    name = fusion.normalization_pipeline_name("min_max", (0.3, 0.7))
    store.put_search_pipeline(name, fusion.normalization_pipeline_body("min_max", (0.3, 0.7)))
    bm25 = {"match": {"text": "termination"}}
    knn = {"knn": {"vector": {"vector": [0.0, 1.0], "k": 5}}}
    weights = (0.3, 0.7)
    expected: dict[str, float] = {}
    for weight, sub in zip(weights, (bm25, knn), strict=True):
        hits = store.search(index_name, {"size": 10, "query": sub})["hits"]["hits"]
        scores = {h["_id"]: h["_score"] for h in hits}
        low, high = min(scores.values()), max(scores.values())
        for doc_id, score in scores.items():
            # min-max per sub-query, then the weighted arithmetic mean (absent = 0)
            expected[doc_id] = expected.get(doc_id, 0.0) + weight * (score - low) / (high - low)
    result = store.search(index_name, {"size": 5, "query": {"hybrid": {"queries": [bm25, knn]}}}, pipeline=name)
    got = {h["_id"]: h["_score"] for h in result["hits"]["hits"]}
    assert _ids(result) == sorted(expected, key=lambda d: -expected[d])[:5]
    for doc_id, score in got.items():
        # neural-search floors a normalized score at 0.001 instead of 0
        assert abs(score - expected[doc_id]) <= 1e-3 + 1e-6, doc_id
