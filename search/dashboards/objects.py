"""OpenSearch Dashboards saved objects for the chunks and the retrieval log (pure builders).

`saved_objects()` returns the objects an OpenSearch Dashboards 2.19 export would hold, ready
for its `_import` API or the Saved objects page:

- two index patterns: the chunks alias (time field `ingested_at`) and the retrieval log
  (time field `timestamp`), each with a `fields` list derived from mappings/*.json;
- a saved search "legalsearch chunks" (Discover columns, sorted by document title);
- visualizations on the log: searches over time by mode, top hit documents, not-found rate
  over time, documents returned in mixed versions;
- a dashboard "legalsearch retrieval" holding the visualizations and the saved search.

Every field an object names comes from the mapping JSON (`search.index.schema.mapping_json`),
never typed by hand twice: `search.dashboards.checks` lists them so the tests can check them against the JSON and against a real node's mapping. No I/O except `write_ndjson`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from legalsearch.dashboards.checks import INDEX_REF_NAME
from legalsearch.dashboards.fields import META_FIELDS, FieldSpec, mapping_of
from legalsearch.errors import ConfigError
from legalsearch.query.bodies import SOURCE_EXCLUDES

DEFAULT_CHUNKS_ALIAS = "legalsearch"
DEFAULT_LOG_INDEX = "legalsearch-log"
CHUNKS_TIME_FIELD = "ingested_at"
LOG_TIME_FIELD = "timestamp"

# The migration version each type had when its current attribute shape was introduced; an
# import into Dashboards 2.19 runs no migration on objects that already carry them.
MIGRATION_VERSIONS = {
    "index-pattern": "7.6.0",
    "search": "7.9.3",
    "visualization": "7.10.0",
    "dashboard": "7.9.3",
}
PANEL_VERSION = "2.19.1"

def _require(fields: Mapping[str, FieldSpec], name: str, *, aggregatable: bool = False) -> str:
    # Every field name below goes through here, so a renamed mapping field fails at build time.
    spec = fields.get(name)
    if spec is None:
        raise ConfigError(f"field {name!r} is not in the mapping; update search/dashboards/objects.py with mappings/*.json")
    if aggregatable and not spec.aggregatable:
        raise ConfigError(f"field {name!r} ({spec.es_type}) cannot be aggregated or sorted; use a keyword sub-field")
    return name


def _index_pattern_fields(fields: Iterable[FieldSpec]) -> str:
    rows: list[dict[str, Any]] = []
    for meta in META_FIELDS:
        rows.append({"count": 0, "scripted": False, "readFromDocValues": False, **meta})
    for f in fields:
        row: dict[str, Any] = {
            "count": 0,
            "name": f.name,
            "type": f.dashboards_type,
            "esTypes": [f.es_type],
            "scripted": False,
            "searchable": f.searchable,
            "aggregatable": f.aggregatable,
            "readFromDocValues": f.aggregatable and f.es_type != "text",
        }
        if f.parent:
            row["subType"] = {"multi": {"parent": f.parent}}
        rows.append(row)
    return json.dumps(rows, separators=(",", ":"))


def _search_source(query: str = "", filters: Sequence[dict] = ()) -> dict[str, str]:
    source = {
        "query": {"query": query, "language": "kuery"},
        "filter": list(filters),
        "indexRefName": INDEX_REF_NAME,
    }
    return {"searchSourceJSON": json.dumps(source, separators=(",", ":"))}


def _index_ref(pattern_id: str) -> list[dict[str, str]]:
    return [{"id": pattern_id, "name": INDEX_REF_NAME, "type": "index-pattern"}]


def _saved_object(type_: str, id_: str, attributes: dict, references: list[dict]) -> dict[str, Any]:
    return {
        "attributes": attributes,
        "id": id_,
        "type": type_,
        "references": references,
        "migrationVersion": {type_: MIGRATION_VERSIONS[type_]},
    }


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug:
        raise ConfigError(f"cannot build saved-object ids from index name {name!r}; pass a non-empty name")
    return slug


# ----------------------------------------------------------------------------- objects


def index_pattern(pattern_id: str, title: str, time_field: str, kind: str, hidden: Sequence[str] = ()) -> dict[str, Any]:
    """An index pattern over `title` (index, alias or wildcard) with the fields of mappings/<kind>.json;
    `hidden` fields are left out of Discover's documents (source filters)."""
    fields = mapping_of(kind)
    attributes = {
        "title": title,
        "timeFieldName": _require(fields, time_field, aggregatable=True),
        "fields": _index_pattern_fields(fields.values()),
        "fieldFormatMap": "{}",
    }
    if hidden:
        attributes["sourceFilters"] = json.dumps([{"value": _require(fields, name)} for name in hidden],
                                                 separators=(",", ":"))
    return _saved_object("index-pattern", pattern_id, attributes, [])


def in_force_query() -> str:
    """DQL: chunks whose validity covers today (a missing bound is open, as in every search)."""
    fields = mapping_of("chunks")
    start, end = _require(fields, "valid_from"), _require(fields, "valid_to")
    return f"(not {start}:* or {start} <= now) and (not {end}:* or {end} > now)"


def chunks_search(search_id: str, pattern_id: str, title: str = "legalsearch chunks",
                  description: str = "One row per chunk: document, version, section, heading path, validity and "
                                     "clause labels.", query: str = "") -> dict[str, Any]:
    """Discover view of the chunks: which document, version, section and validity each one has."""
    fields = mapping_of("chunks")
    columns = [
        _require(fields, name)
        for name in ("doc_title", "version", "section", "heading_path", "valid_from", "valid_to", "clause_labels")
    ]
    # doc_title is analysed text (no doc values); its keyword sub-field is what can be sorted on.
    sort = [[_require(fields, "doc_title.keyword", aggregatable=True), "asc"]]
    attributes = {
        "title": title,
        "description": description,
        "hits": 0,
        "columns": columns,
        "sort": sort,
        "version": 1,
        "kibanaSavedObjectMeta": _search_source(query),
    }
    return _saved_object("search", search_id, attributes, _index_ref(pattern_id))


def _count_agg(label: str = "Searches") -> dict[str, Any]:
    return {"id": "1", "enabled": True, "type": "count", "schema": "metric", "params": {"customLabel": label}}


def _date_histogram_agg(field: str, agg_id: str = "2") -> dict[str, Any]:
    return {
        "id": agg_id,
        "enabled": True,
        "type": "date_histogram",
        "schema": "segment",
        "params": {
            "field": field,
            "useNormalizedOpenSearchInterval": True,
            "scaleMetricValues": False,
            "interval": "auto",
            "drop_partials": False,
            "min_doc_count": 1,
            "extended_bounds": {},
        },
    }


def _terms_agg(field: str, schema: str, size: int, agg_id: str, label: str) -> dict[str, Any]:
    return {
        "id": agg_id,
        "enabled": True,
        "type": "terms",
        "schema": schema,
        "params": {
            "field": field,
            "size": size,
            "order": "desc",
            "orderBy": "1",
            "otherBucket": False,
            "otherBucketLabel": "Other",
            "missingBucket": False,
            "missingBucketLabel": "Missing",
            "customLabel": label,
        },
    }


def _histogram_params(value_mode: str = "normal", value_title: str = "Searches") -> dict[str, Any]:
    return {
        "type": "histogram",
        "grid": {"categoryLines": False},
        "categoryAxes": [
            {
                "id": "CategoryAxis-1", "type": "category", "position": "bottom", "show": True, "style": {},
                "scale": {"type": "linear"}, "labels": {"show": True, "filter": True, "truncate": 100}, "title": {},
            }
        ],
        "valueAxes": [
            {
                "id": "ValueAxis-1", "name": "LeftAxis-1", "type": "value", "position": "left", "show": True,
                "style": {}, "scale": {"type": "linear", "mode": value_mode},
                "labels": {"show": True, "rotate": 0, "filter": False, "truncate": 100},
                "title": {"text": value_title},
            }
        ],
        "seriesParams": [
            {
                "show": True, "type": "histogram", "mode": "stacked", "data": {"label": value_title, "id": "1"},
                "valueAxis": "ValueAxis-1", "drawLinesBetweenPoints": True, "lineWidth": 2, "showCircles": True,
            }
        ],
        "addTooltip": True,
        "addLegend": True,
        "legendPosition": "right",
        "times": [],
        "addTimeMarker": False,
        "labels": {"show": False},
        "thresholdLine": {"show": False, "value": 10, "width": 1, "style": "full", "color": "#E7664C"},
    }


def _table_params() -> dict[str, Any]:
    return {
        "perPage": 10,
        "showPartialRows": False,
        "showMetricsAtAllLevels": False,
        "sort": {"columnIndex": None, "direction": None},
        "showTotal": False,
        "totalFunc": "sum",
        "percentageCol": "",
    }


def _visualization(vis_id: str, pattern_id: str, title: str, description: str, vis_type: str,
                   aggs: list[dict], params: dict) -> dict[str, Any]:
    vis_state = {"title": title, "type": vis_type, "aggs": aggs, "params": params}
    attributes = {
        "title": title,
        "description": description,
        "visState": json.dumps(vis_state, separators=(",", ":")),
        "uiStateJSON": "{}",
        "version": 1,
        "kibanaSavedObjectMeta": _search_source(),
    }
    return _saved_object("visualization", vis_id, attributes, _index_ref(pattern_id))


def log_visualizations(prefix: str, pattern_id: str) -> list[dict[str, Any]]:
    """The charts on the retrieval log (index pattern `pattern_id`); ids start with `prefix`."""
    f = mapping_of("log")
    timestamp = _require(f, LOG_TIME_FIELD, aggregatable=True)
    return [
        _visualization(
            f"{prefix}-searches-over-time", pattern_id,
            "legalsearch: searches over time by mode",
            "Searches per interval, stacked by retrieval mode (hybrid / bm25 / knn).",
            "histogram",
            [_count_agg(), _date_histogram_agg(timestamp),
             _terms_agg(_require(f, "mode", aggregatable=True), "group", 5, "3", "Mode")],
            _histogram_params(),
        ),
        _visualization(
            f"{prefix}-top-hit-docs", pattern_id,
            "legalsearch: top hit documents",
            "Documents that come back most often (number of searches whose hits include each doc_id).",
            "table",
            [_count_agg(), _terms_agg(_require(f, "hit_doc_ids", aggregatable=True), "bucket", 20, "2", "Document")],
            _table_params(),
        ),
        _visualization(
            f"{prefix}-not-found-rate", pattern_id,
            "legalsearch: not-found rate over time",
            "Share of searches per interval that answered not_found (100% stacked: true vs false).",
            "histogram",
            [_count_agg(), _date_histogram_agg(timestamp),
             _terms_agg(_require(f, "not_found", aggregatable=True), "group", 2, "3", "Not found")],
            _histogram_params(value_mode="percentage", value_title="Share of searches"),
        ),
        _visualization(
            f"{prefix}-mixed-versions", pattern_id,
            "legalsearch: documents returned in mixed versions",
            "Documents whose hits mixed two versions in one answer, with the number of such searches.",
            "table",
            [_count_agg(), _terms_agg(_require(f, "mixed_versions", aggregatable=True), "bucket", 20, "2", "Document")],
            _table_params(),
        ),
    ]


def retrieval_dashboard(dashboard_id: str, panel_refs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """A dashboard with one panel per (type, id) in `panel_refs`, two per row."""
    panels: list[dict[str, Any]] = []
    references: list[dict[str, str]] = []
    for i, (type_, ref_id) in enumerate(panel_refs):
        ref_name = f"panel_{i}"
        panels.append({
            "version": PANEL_VERSION,
            "gridData": {"x": 24 * (i % 2), "y": 15 * (i // 2), "w": 24, "h": 15, "i": str(i + 1)},
            "panelIndex": str(i + 1),
            "embeddableConfig": {},
            "panelRefName": ref_name,
        })
        references.append({"id": ref_id, "name": ref_name, "type": type_})
    attributes = {
        "title": "legalsearch retrieval",
        "description": "What users search, what comes back, how often nothing is found, and the indexed chunks.",
        "hits": 0,
        "panelsJSON": json.dumps(panels, separators=(",", ":")),
        "optionsJSON": json.dumps({"useMargins": True, "hidePanelTitles": False}, separators=(",", ":")),
        "timeRestore": False,
        "version": 1,
        "kibanaSavedObjectMeta": {
            "searchSourceJSON": json.dumps({"query": {"query": "", "language": "kuery"}, "filter": []},
                                           separators=(",", ":"))
        },
    }
    return _saved_object("dashboard", dashboard_id, attributes, references)


def saved_objects(chunks_alias: str = DEFAULT_CHUNKS_ALIAS, log_index: str = DEFAULT_LOG_INDEX) -> list[dict]:
    """Every saved object for one deployment, index patterns first.

    Ids derive from the names, so objects for two deployments ("legalsearch", "staging") can be
    imported side by side, and re-importing the same names overwrites instead of duplicating.

    Args:
        chunks_alias: the chunks alias search reads (Settings index name, default "legalsearch").
        log_index: the retrieval-log index (Settings.log_index, default "legalsearch-log").
    """
    chunks_prefix, log_prefix = _slug(chunks_alias), _slug(log_index)
    if chunks_prefix == log_prefix:
        raise ConfigError(f"chunks alias {chunks_alias!r} and log index {log_index!r} must differ")
    chunks_pattern_id = f"{chunks_prefix}-chunks-pattern"
    log_pattern_id = f"{log_prefix}-pattern"
    search_id = f"{chunks_prefix}-chunks-search"
    visualizations = log_visualizations(log_prefix, log_pattern_id)
    panels = [("visualization", v["id"]) for v in visualizations] + [("search", search_id)]
    return [
        # the vector (384 numbers) and the embedded text (summary + heading + text again) would
        # fill every Discover row; searches never return them either (bodies.SOURCE_EXCLUDES)
        index_pattern(chunks_pattern_id, chunks_alias, CHUNKS_TIME_FIELD, "chunks", hidden=SOURCE_EXCLUDES),
        index_pattern(log_pattern_id, log_index, LOG_TIME_FIELD, "log"),
        chunks_search(search_id, chunks_pattern_id),
        chunks_search(f"{chunks_prefix}-chunks-in-force", chunks_pattern_id, "legalsearch chunks in force today",
                      "Chunks whose validity (valid_from <= today < valid_to) covers today: the text a search "
                      "without --as-of would want. For hybrid search use Dev Tools (docs/dashboards.md).",
                      in_force_query()),
        *visualizations,
        retrieval_dashboard(f"{chunks_prefix}-retrieval-dashboard", panels),
    ]


# ----------------------------------------------------------------------------- NDJSON


def to_ndjson(objects: Iterable[Mapping[str, Any]]) -> str:
    """One compact JSON object per line, newline-terminated (the `_import` file format)."""
    return "".join(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n" for obj in objects)


def write_ndjson(path: str | Path, objects: Iterable[Mapping[str, Any]]) -> Path:
    """Write `objects` as NDJSON to `path` (parent folders created); returns the path."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(to_ndjson(objects), encoding="utf-8")
    return target
