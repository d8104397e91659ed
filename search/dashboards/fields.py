"""The fields of an index pattern, derived from a mapping (the JSON in mappings/ or a node's):
Dashboards types, searchable / aggregatable, multi-field parents."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from legalsearch.index.schema import mapping_json

# OpenSearch field type -> Dashboards field type (the data plugin's osd_field_types).
_STRING_TYPES = {"keyword", "text", "constant_keyword", "wildcard", "match_only_text"}
_NUMBER_TYPES = {
    "long", "integer", "short", "byte", "double", "float", "half_float", "scaled_float",
    "unsigned_long", "token_count",
}
_DATE_TYPES = {"date", "date_nanos"}
# Types whose doc values make them sortable / aggregatable by default.
_DOC_VALUE_TYPES = {"keyword", "boolean", "ip", *_NUMBER_TYPES, *_DATE_TYPES}
# Metadata fields Dashboards lists in every index pattern (its default metaFields).
META_FIELDS = (
    {"name": "_id", "type": "string", "esTypes": ["_id"], "searchable": True, "aggregatable": True},
    {"name": "_index", "type": "string", "esTypes": ["_index"], "searchable": True, "aggregatable": True},
    {"name": "_score", "type": "number", "searchable": False, "aggregatable": False},
    {"name": "_source", "type": "_source", "esTypes": ["_source"], "searchable": False, "aggregatable": False},
    {"name": "_type", "type": "string", "searchable": False, "aggregatable": False},
)


@dataclass(frozen=True)
class FieldSpec:
    """One searchable leaf of a mapping, as an index pattern lists it."""

    name: str
    es_type: str
    searchable: bool
    aggregatable: bool
    parent: str | None = None  # set for a multi-field ("doc_title.keyword" -> "doc_title")

    @property
    def dashboards_type(self) -> str:
        return dashboards_type(self.es_type)


def dashboards_type(es_type: str) -> str:
    """The Dashboards type of an OpenSearch field type (string / number / date / boolean / ...)."""
    if es_type in _STRING_TYPES:
        return "string"
    if es_type in _NUMBER_TYPES:
        return "number"
    if es_type in _DATE_TYPES:
        return "date"
    if es_type in ("boolean", "ip", "geo_point", "geo_shape", "nested", "murmur3"):
        return es_type
    # knn_vector and anything else Dashboards cannot chart.
    return "unknown"


def _leaf(name: str, spec: Mapping[str, Any], parent: str | None) -> FieldSpec:
    es_type = spec.get("type", "object")
    indexed = spec.get("index", True) is not False
    if es_type == "knn_vector":
        # field_caps calls a vector aggregatable; no Dashboards aggregation can use one.
        return FieldSpec(name, es_type, searchable=False, aggregatable=False, parent=parent)
    aggregatable = es_type in _DOC_VALUE_TYPES and spec.get("doc_values", True) is not False
    if es_type == "text":
        aggregatable = bool(spec.get("fielddata", False))
    return FieldSpec(name, es_type, searchable=indexed, aggregatable=aggregatable, parent=parent)


def mapping_fields(mappings: Mapping[str, Any]) -> list[FieldSpec]:
    """Flatten a `mappings` object (``{"properties": ...}``) into its leaf fields, sorted by name.

    Object properties become dotted names (``xrefs.raw``, ``took_ms.total``), multi-fields become
    their own entries with a parent (``doc_title.keyword``). Works on the JSON in mappings/ and
    on the ``mappings`` a node returns for an index.
    """
    out: list[FieldSpec] = []

    def walk(properties: Mapping[str, Any], prefix: str) -> None:
        for name, spec in properties.items():
            full = f"{prefix}{name}"
            if "properties" in spec and spec.get("type", "object") in ("object", "nested"):
                walk(spec["properties"], f"{full}.")
                continue
            out.append(_leaf(full, spec, None))
            for sub, sub_spec in (spec.get("fields") or {}).items():
                out.append(_leaf(f"{full}.{sub}", sub_spec, full))

    walk(mappings.get("properties") or {}, "")
    return sorted(out, key=lambda f: f.name)


def mapping_of(kind: str) -> dict[str, FieldSpec]:
    return {f.name: f for f in mapping_fields(mapping_json(kind)["mappings"])}
