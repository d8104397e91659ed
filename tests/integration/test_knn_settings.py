"""The k-NN search settings a new chunks index records (issue 27), and the query reading them back."""

from __future__ import annotations

import numpy as np

from tests.conftest import SAMPLES
from tests.integration.conftest import ingested_index


def test_a_new_index_records_its_knn_settings_and_searches_with_them(settings, store, embedders, run_ingest):
    files = [SAMPLES / "nda-acme-globex.txt", SAMPLES / "nda-acme-initech.txt"]
    with ingested_index(store, run_ingest, "test-knn", files, embedder="minilm") as (index_name, _):
        _records_and_searches(settings, store, embedders, index_name)


def _records_and_searches(settings, store, embedders, index_name: str) -> None:
    from legalsearch.index import indices, schema
    from legalsearch.query.models import SearchRequest
    from legalsearch.query.service import SearchService

    recorded = indices.info(store, index_name)["meta"]["knn"]  # what `legalsearch index info` prints
    assert recorded == schema.knn_meta(schema.mapping_json("chunks")["mappings"]["properties"]["vector"])
    assert recorded["engine"] == "lucene" and recorded["ef_search"] == schema.KNN_EF_SEARCH > 10

    service = SearchService(settings.model_copy(update={"log_searches": False}), store, embedders)
    question = "How long must the receiving party keep the information confidential?"
    req = SearchRequest(query=question, index=index_name, mode="knn", routing="off", expand_xrefs=False, k=3)
    body = service.plan(req).body
    assert body["query"]["knn"]["vector"]["method_parameters"] == {"ef_search": schema.KNN_EF_SEARCH}
    got = [h.chunk_id for h in service.search(req).hits]
    # exact cosine over every chunk the search may see (all public, no dates): the same top 3
    chunks, _, meta = service.target(index_name)
    rows = list(store.scan(chunks, {"match_all": {}}, ["chunk_id", "vector"]))
    vectors = np.array([r["_source"]["vector"] for r in rows], dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    q = embedders.for_index(meta).embed_query(question)
    exact = [rows[i]["_source"]["chunk_id"] for i in np.argsort(-(vectors @ (q / np.linalg.norm(q))))[:3]]
    assert got == exact

    # an index recording another beam width is searched with it (a fresh service reads the _meta again)
    indices.update_meta(store, index_name, {"knn": {**recorded, "ef_search": 37}})
    again = SearchService(settings.model_copy(update={"log_searches": False}), store, embedders)
    assert again.plan(req).body["query"]["knn"]["vector"]["method_parameters"] == {"ef_search": 37}
    assert [h.chunk_id for h in again.search(req).hits] == exact


def test_the_width_is_set_by_size_on_the_node(settings, store, embedders, run_ingest):
    """`tune_knn` on a real index: a record made before the size rule gets it (a small index keeps
    100), the rest of `_meta` is kept, and a width set by hand is left alone."""
    from legalsearch.index import indices, schema

    with ingested_index(store, run_ingest, "test-knn-rule", [SAMPLES / "nda-acme-globex.txt"], embedder="minilm") \
            as (index_name, _):
        concrete = indices.require(store, index_name)
        before = indices.concrete_meta(store, concrete)
        old = {k: v for k, v in before["knn"].items() if k != "ef_search_rule"}
        indices.update_meta(store, index_name, {"knn": old})
        assert indices.tune_knn(store, concrete) == schema.KNN_EF_SEARCH  # the small index: 100, now by the rule
        after = indices.concrete_meta(store, concrete)
        assert after == before  # the record the ingest wrote, every other field as it was
        assert indices.tune_knn(store, concrete) is None  # nothing to change
        indices.update_meta(store, index_name, {"knn": {**old, "ef_search": 37}})
        assert indices.tune_knn(store, concrete) is None
        assert indices.concrete_meta(store, concrete)["knn"]["ef_search"] == 37
