"""Dashboards saved objects: valid NDJSON, references that resolve, and field names that come
from mappings/*.json (checked here with an independent flattening of the JSON)."""

from __future__ import annotations

import json

import pytest
from legalsearch import dashboards
from legalsearch.errors import ConfigError
from legalsearch.index.schema import mapping_json

AGGREGATABLE_ES_TYPES = {"keyword", "date", "boolean", "integer", "long", "float", "double", "short", "byte"}


def _flatten(properties: dict, prefix: str = "") -> dict[str, str]:
    """name -> OpenSearch type for every leaf and multi-field of a mapping's properties."""
    out: dict[str, str] = {}
    for name, spec in properties.items():
        if "properties" in spec:
            out.update(_flatten(spec["properties"], f"{prefix}{name}."))
            continue
        out[f"{prefix}{name}"] = spec["type"]
        for sub, sub_spec in spec.get("fields", {}).items():
            out[f"{prefix}{name}.{sub}"] = sub_spec["type"]
    return out


MAPPED = {
    "legalsearch": _flatten(mapping_json("chunks")["mappings"]["properties"]),
    "legalsearch-log": _flatten(mapping_json("log")["mappings"]["properties"]),
}


@pytest.fixture(scope="module")
def objects():
    return dashboards.saved_objects()


@pytest.fixture(scope="module")
def by_id(objects):
    return {o["id"]: o for o in objects}


def _patterns(objects):
    return {o["attributes"]["title"]: o for o in objects if o["type"] == "index-pattern"}


def _pattern_fields(pattern):
    return {f["name"]: f for f in json.loads(pattern["attributes"]["fields"])}


def test_every_line_is_a_saved_object(objects):
    text = dashboards.to_ndjson(objects)
    lines = text.splitlines()
    assert text.endswith("\n") and len(lines) == len(objects)
    for line in lines:
        obj = json.loads(line)
        assert {"id", "type", "attributes", "references", "migrationVersion"} <= set(obj)
        assert obj["type"] in dashboards.MIGRATION_VERSIONS
        assert obj["migrationVersion"] == {obj["type"]: dashboards.MIGRATION_VERSIONS[obj["type"]]}
        assert obj["attributes"]["title"]
    ids = [json.loads(line)["id"] for line in lines]
    assert len(ids) == len(set(ids))
    assert [json.loads(line) for line in lines] == objects


def test_expected_objects_and_titles(objects):
    kinds = [o["type"] for o in objects]
    assert kinds.count("index-pattern") == 2 and kinds.count("search") == 2
    assert kinds.count("visualization") >= 2 and kinds.index("index-pattern") == 0
    patterns = _patterns(objects)
    assert patterns["legalsearch"]["attributes"]["timeFieldName"] == "ingested_at"
    assert patterns["legalsearch-log"]["attributes"]["timeFieldName"] == "timestamp"
    search = next(o for o in objects if o["type"] == "search")
    assert search["attributes"]["title"] == "legalsearch chunks"
    assert search["attributes"]["columns"] == [
        "doc_title", "version", "section", "heading_path", "valid_from", "valid_to", "clause_labels"
    ]
    # doc_title is text: Discover sorts on its keyword sub-field.
    assert search["attributes"]["sort"] == [["doc_title.keyword", "asc"]]
    # Discover shows neither the vector nor the embedded text (what searches leave out too)
    assert json.loads(patterns["legalsearch"]["attributes"]["sourceFilters"]) == [{"value": "vector"},
                                                                                   {"value": "embedded_text"}]
    in_force = next(o for o in objects if o["id"] == "legalsearch-chunks-in-force")
    query = json.loads(in_force["attributes"]["kibanaSavedObjectMeta"]["searchSourceJSON"])["query"]
    assert query == {"query": "(not valid_from:* or valid_from <= now) and (not valid_to:* or valid_to > now)",
                     "language": "kuery"}


def test_references_point_to_existing_objects(objects, by_id):
    for obj in objects:
        for ref in obj["references"]:
            assert ref["id"] in by_id, f"{obj['id']} -> missing {ref['id']}"
            assert by_id[ref["id"]]["type"] == ref["type"]
        if obj["type"] in ("search", "visualization"):
            source = json.loads(obj["attributes"]["kibanaSavedObjectMeta"]["searchSourceJSON"])
            names = {ref["name"] for ref in obj["references"]}
            assert source["indexRefName"] in names
        if obj["type"] == "dashboard":
            panels = json.loads(obj["attributes"]["panelsJSON"])
            assert {p["panelRefName"] for p in panels} == {ref["name"] for ref in obj["references"]}


def test_visualizations_on_the_log(objects, by_id):
    log_pattern = _patterns(objects)["legalsearch-log"]["id"]
    charts = {}
    for obj in objects:
        if obj["type"] != "visualization":
            continue
        assert obj["references"][0]["id"] == log_pattern
        state = json.loads(obj["attributes"]["visState"])
        assert state["title"] == obj["attributes"]["title"]
        charts[obj["id"]] = [(a["type"], a["params"].get("field")) for a in state["aggs"]]
    assert charts["legalsearch-log-searches-over-time"] == [
        ("count", None), ("date_histogram", "timestamp"), ("terms", "mode")
    ]
    assert charts["legalsearch-log-top-hit-docs"] == [("count", None), ("terms", "hit_doc_ids")]


def test_every_referenced_field_is_in_the_mapping_json(objects):
    used = dashboards.referenced_fields(objects)
    assert set(used) == {"legalsearch", "legalsearch-log"}
    assert {"doc_title", "doc_title.keyword", "clause_labels", "ingested_at"} <= used["legalsearch"]
    assert {"timestamp", "mode", "hit_doc_ids"} <= used["legalsearch-log"]
    for title, fields in used.items():
        missing = fields - set(MAPPED[title])
        assert not missing, f"{title}: {sorted(missing)} not in the mapping JSON"


def test_aggregations_only_on_aggregatable_fields(objects):
    patterns = _patterns(objects)
    aggregated = dashboards.aggregated_fields(objects)
    assert {"timestamp", "mode", "hit_doc_ids", "not_found"} <= aggregated["legalsearch-log"]
    for title, fields in aggregated.items():
        listed = _pattern_fields(patterns[title])
        for field in fields:
            assert MAPPED[title][field] in AGGREGATABLE_ES_TYPES, f"{title}.{field} is {MAPPED[title][field]}"
            assert listed[field]["aggregatable"] is True


def test_index_pattern_fields_match_the_mapping(objects):
    for title, pattern in _patterns(objects).items():
        listed = _pattern_fields(pattern)
        mapped = MAPPED[title]
        assert {n for n in listed if not n.startswith("_")} == set(mapped)
        for name, es_type in mapped.items():
            assert listed[name]["esTypes"] == [es_type]


@pytest.mark.parametrize(
    "title, field, kind, searchable, aggregatable, parent",
    [
        ("legalsearch", "doc_title", "string", True, False, None),
        ("legalsearch", "doc_title.keyword", "string", True, True, "doc_title"),
        ("legalsearch", "section", "string", True, True, None),
        ("legalsearch", "section.text", "string", True, False, "section"),
        ("legalsearch", "valid_from", "date", True, True, None),
        ("legalsearch", "page", "number", True, True, None),
        ("legalsearch", "public", "boolean", True, True, None),
        ("legalsearch", "xrefs.resolved_chunk_ids", "string", True, True, None),
        ("legalsearch", "vector", "unknown", False, False, None),
        ("legalsearch-log", "timestamp", "date", True, True, None),
        ("legalsearch-log", "took_ms.total", "number", True, True, None),
        ("legalsearch-log", "query", "string", True, False, None),
        ("legalsearch-log", "not_found", "boolean", True, True, None),
    ],
)
def test_dashboards_field_types(objects, title, field, kind, searchable, aggregatable, parent):
    row = _pattern_fields(_patterns(objects)[title])[field]
    assert (row["type"], row["searchable"], row["aggregatable"]) == (kind, searchable, aggregatable)
    assert row.get("subType", {}).get("multi", {}).get("parent") == parent


@pytest.mark.parametrize(
    "spec, searchable, aggregatable",
    [
        ({"type": "keyword"}, True, True),
        ({"type": "keyword", "doc_values": False}, True, False),
        ({"type": "text"}, True, False),
        ({"type": "text", "fielddata": True}, True, True),
        ({"type": "date", "index": False}, False, True),
        ({"type": "knn_vector", "dimension": 3}, False, False),
    ],
)
def test_mapping_fields_flags(spec, searchable, aggregatable):
    [field] = dashboards.mapping_fields({"properties": {"f": spec}})
    assert (field.searchable, field.aggregatable) == (searchable, aggregatable)


def test_names_drive_titles_and_ids():
    objects = dashboards.saved_objects("staging", "staging-log")
    patterns = _patterns(objects)
    assert set(patterns) == {"staging", "staging-log"}
    assert all(o["id"].startswith("staging") for o in objects)
    assert not {o["id"] for o in objects} & {o["id"] for o in dashboards.saved_objects()}
    assert set(dashboards.referenced_fields(objects)) == {"staging", "staging-log"}


@pytest.mark.parametrize("chunks, log", [("same", "same"), ("", "legalsearch-log"), ("legalsearch", "!!")])
def test_bad_names(chunks, log):
    with pytest.raises(ConfigError):
        dashboards.saved_objects(chunks, log)


def test_write_ndjson(tmp_path, objects):
    path = dashboards.write_ndjson(tmp_path / "out" / "legalsearch.ndjson", objects)
    assert path.read_text(encoding="utf-8") == dashboards.to_ndjson(objects)
