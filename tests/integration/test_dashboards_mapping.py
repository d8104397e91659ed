"""The saved objects against a real node: every field they name exists in the mapping the node
built from mappings/*.json, with the type the index pattern claims, and every aggregation and
sort they define runs on the node."""

from __future__ import annotations

import json

from legalsearch import dashboards
from legalsearch.index import schema

AGGREGATABLE_ES_TYPES = {"keyword", "date", "boolean", "integer", "long", "float", "double", "short", "byte"}

CHUNK = {
    "chunk_id": "msa-acme-northwind:1:0033",
    "doc_id": "msa-acme-northwind",
    "doc_title": "Master Services Agreement – Acme Analytics / Northwind Cloud Services",
    "version": "1",
    "section": "14.3",
    "heading_path": ["Clause 14 – LIMITATION OF LIABILITY", "Clause 14.3"],
    "valid_from": "2024-03-03",
    "clause_labels": ["liability_cap"],
    "text": "Subject to clauses 14.1 and 14.2, the total liability of each party ...",
    "ingested_at": "2026-01-05T10:00:00.000Z",
}
LOG = {
    "timestamp": "2026-01-05T10:01:00.000Z",
    "index": "legalsearch",
    "query": "liability cap clause 14.3",
    "mode": "hybrid",
    "k": 10,
    "hit_count": 1,
    "not_found": False,
    "hit_doc_ids": ["msa-acme-northwind"],
    "mixed_versions": ["housing-act-1988"],
    "mixed_versions_count": 1,
    "took_ms": {"total": 12.5},
}


def _node_fields(store, name: str) -> dict[str, dashboards.FieldSpec]:
    [(_concrete, body)] = store.get_index(name).items()
    return {f.name: f for f in dashboards.mapping_fields(body["mappings"])}


def _aggs_body(obj: dict) -> dict:
    """The OpenSearch aggregations a visualization's visState asks for (fields only)."""
    aggs = {}
    for agg in json.loads(obj["attributes"]["visState"])["aggs"]:
        field = agg["params"].get("field")
        if agg["type"] == "date_histogram":
            aggs[agg["id"]] = {"date_histogram": {"field": field, "fixed_interval": "1h", "min_doc_count": 1}}
        elif agg["type"] == "terms":
            aggs[agg["id"]] = {"terms": {"field": field, "size": agg["params"]["size"]}}
    return aggs


def test_saved_objects_match_the_real_mapping(store, index_name):
    chunks_index = schema.concrete_name(index_name, "chunks")
    log_index = index_name + "-log"
    store.create_index(chunks_index, schema.index_body("chunks", index_name, 384))
    store.create_index(log_index, schema.log_index_body())
    try:
        objects = dashboards.saved_objects(chunks_alias=index_name, log_index=log_index)
        used = dashboards.referenced_fields(objects)
        aggregated = dashboards.aggregated_fields(objects)
        assert set(used) == {index_name, log_index}
        patterns = {o["attributes"]["title"]: o for o in objects if o["type"] == "index-pattern"}
        for title, fields in used.items():
            node = _node_fields(store, title)
            listed = {f["name"]: f for f in json.loads(patterns[title]["attributes"]["fields"])}
            assert {n for n in listed if not n.startswith("_")} == set(node), title
            for field in fields:
                assert field in node, f"{title}: {field} is not in the node's mapping"
                assert listed[field]["esTypes"] == [node[field].es_type]
                assert listed[field]["type"] == node[field].dashboards_type
            for field in aggregated[title]:
                assert node[field].es_type in AGGREGATABLE_ES_TYPES, f"{title}.{field}: {node[field].es_type}"
    finally:
        store.delete_index(chunks_index)
        store.delete_index(log_index)


def test_aggregations_and_sort_run_on_the_node(store, index_name):
    chunks_index = schema.concrete_name(index_name, "chunks")
    log_index = index_name + "-log"
    store.create_index(chunks_index, schema.index_body("chunks", index_name, 384))
    store.create_index(log_index, schema.log_index_body())
    try:
        store.index_document(chunks_index, CHUNK["chunk_id"], CHUNK, refresh=True)
        store.index_document(log_index, None, LOG, refresh=True)
        objects = dashboards.saved_objects(chunks_alias=index_name, log_index=log_index)

        search = next(o for o in objects if o["type"] == "search")
        sort = [{field: direction} for field, direction in search["attributes"]["sort"]]
        result = store.search(index_name, {"query": {"match_all": {}}, "sort": sort,
                                           "_source": search["attributes"]["columns"]})
        [hit] = result["hits"]["hits"]
        assert hit["_source"]["section"] == "14.3" and hit["_source"]["doc_title"].startswith("Master")

        for vis in (o for o in objects if o["type"] == "visualization"):
            result = store.search(log_index, {"size": 0, "aggs": _aggs_body(vis)})
            for agg_id, agg in result["aggregations"].items():
                assert agg["buckets"], f"{vis['id']} agg {agg_id} returned no bucket"
    finally:
        store.delete_index(chunks_index)
        store.delete_index(log_index)
