"""Index bodies from the JSON in mappings/ and analyzers/ (pure), and index naming.

A logical index NAME (default "legalsearch") is three aliases over versioned concrete indices:

    NAME        -> NAME--chunks-v1   one document per chunk (what search reads)
    NAME-docs   -> NAME--docs-v1     one document per (doc_id, version): registry + routing
The concrete names carry the schema version so a new schema can be built beside the old one
and switched by moving the alias. Index templates (`*--chunks-v1`, `*--docs-v1`) carry the same
analysis and mappings, so an index made by a reindex or by hand in Dashboards matches.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib import resources

SCHEMA_VERSION = 1
KINDS = ("chunks", "docs")


@cache
def _load(package: str, name: str) -> dict:
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    data = json.loads(text)
    data.pop("_comment", None)
    return data


def analysis_settings() -> dict:
    return copy.deepcopy(_load("analyzers", "legal.json")["analysis"])


def mapping_json(kind: str) -> dict:
    return copy.deepcopy(_load("mappings", f"{kind}.json"))


def concrete_name(name: str, kind: str) -> str:
    return f"{name}--{kind}-v{SCHEMA_VERSION}"


def alias_name(name: str, kind: str) -> str:
    return name if kind == "chunks" else f"{name}-{kind}"


def index_body(kind: str, name: str, dim: int, meta: dict | None = None) -> dict:
    """The full create-index body for `kind` ("chunks" | "docs" | "log"): analysis + mappings,
    the vector dimension of the embedder, the alias, and `_meta` recording how it was built."""
    body = mapping_json(kind)
    body.setdefault("settings", {}).setdefault("index", {})["analysis"] = analysis_settings()
    props = body["mappings"]["properties"]
    if "vector" in props:
        props["vector"]["dimension"] = dim
    body["mappings"]["_meta"] = {"legalsearch": {"schema": SCHEMA_VERSION, "kind": kind, **(meta or {})}}
    if kind in KINDS:
        body["aliases"] = {alias_name(name, kind): {}}
    return body


def template_body(kind: str, dim: int) -> dict:
    body = index_body(kind, "template", dim)
    body.pop("aliases", None)
    return {
        "index_patterns": [f"*--{kind}-v{SCHEMA_VERSION}"],
        "priority": 100,
        "template": {"settings": body["settings"], "mappings": body["mappings"]},
        "_meta": {"description": f"legalsearch {kind} index, schema v{SCHEMA_VERSION}"},
    }


def log_index_body() -> dict:
    body = mapping_json("log")
    body["mappings"]["_meta"] = {"legalsearch": {"schema": SCHEMA_VERSION, "kind": "log"}}
    return body


def chunk_fields() -> list[str]:
    return sorted(mapping_json("chunks")["mappings"]["properties"])
