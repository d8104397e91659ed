"""Reading saved objects back: which fields they name and aggregate on, so tests can check every
one against the mapping JSON and against a real node's mapping."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

INDEX_REF_NAME = "kibanaSavedObjectMeta.searchSourceJSON.index"


def _by_id(objects: Sequence[Mapping[str, Any]]) -> dict[str, Mapping[str, Any]]:
    return {o["id"]: o for o in objects}


def _pattern_title(obj: Mapping[str, Any], objects_by_id: Mapping[str, Mapping[str, Any]]) -> str | None:
    for ref in obj.get("references", []):
        if ref.get("name") == INDEX_REF_NAME and ref.get("type") == "index-pattern":
            target = objects_by_id.get(ref["id"])
            return target["attributes"]["title"] if target else None
    return None


def _vis_aggs(obj: Mapping[str, Any]) -> list[dict[str, Any]]:
    return json.loads(obj["attributes"]["visState"]).get("aggs", [])


def _field_uses(objects: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, bool]]:
    # (index-pattern title, field, aggregated or sorted on) for every field an object names.
    by_id = _by_id(objects)
    uses: list[tuple[str, str, bool]] = []
    for obj in objects:
        attrs = obj["attributes"]
        if obj["type"] == "index-pattern":
            if attrs.get("timeFieldName"):
                uses.append((attrs["title"], attrs["timeFieldName"], True))
            continue
        title = _pattern_title(obj, by_id)
        if title is None:
            continue
        if obj["type"] == "search":
            uses.extend((title, column, False) for column in attrs.get("columns", []) if column != "_source")
            uses.extend((title, field, True) for field, _direction in attrs.get("sort", []))
        elif obj["type"] == "visualization":
            uses.extend((title, agg["params"]["field"], True) for agg in _vis_aggs(obj) if "field" in agg["params"])
    return uses


def referenced_fields(objects: Sequence[Mapping[str, Any]]) -> dict[str, set[str]]:
    """Index-pattern title -> every field the objects name (time field, columns, sort, agg fields)."""
    out: dict[str, set[str]] = {}
    for title, field, _aggregated in _field_uses(objects):
        out.setdefault(title, set()).add(field)
    return out


def aggregated_fields(objects: Sequence[Mapping[str, Any]]) -> dict[str, set[str]]:
    """Index-pattern title -> the fields the objects aggregate or sort on (need doc values)."""
    out: dict[str, set[str]] = {}
    for title, field, aggregated in _field_uses(objects):
        if aggregated:
            out.setdefault(title, set()).add(field)
    return out
