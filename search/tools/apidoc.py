"""The Python API reference (docs/python.md), generated from the public names' own docstrings,
signatures and pydantic fields, so it cannot drift from the code (a test checks it is current).

    legalsearch reference           # rewrite docs/python.md (a hidden command)
    legalsearch reference --check   # exit 1 if it is out of date
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import get_args

import legalsearch
from pydantic import BaseModel

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"

INTRO = '''# Python API

Everything a program needs is importable from the package root; every other module is internal
and may move. The CLI is a thin layer over exactly this API.

```python
from legalsearch import Document, LegalSearch

ls = LegalSearch()                              # OPENSEARCH_URL (+ user / password), else the local node
report = ls.ingest(["samples/corpus"], index="demo", embedder="e5")
report = ls.ingest([Document(text=body, doc_id="nda-kestrel", title="NDA with Kestrel",
                             acl=["deal-team"], valid_from="2025-03-01")], index="demo", embedder="e5")
response = ls.search("Come può il cliente recedere dal contratto?", index="demo", k=5,
                     as_of="2026-01-01", groups=["deal-team"])
for hit in response.hits:                       # the CLI's --json contract, as pydantic models
    print(hit.rank, hit.citation, hit.char_start, hit.char_end, hit.via)
context = ls.context("How long does the NDA with Kestrel last?", index="demo", budget=8000)
prompt = context.prompt                         # "[1] citation (chars a-b)" blocks, cited clauses attached
```

Errors are `LegalSearchError` subclasses whose message says what to do next: `ConfigError`
(a setting or option), `QueryError` (a bad search request, one line), `NodeError` (no node
answers), `StoreError` / `BulkError` (OpenSearch refused), `DocumentError` / `MetadataError`
(a document or its metadata; during `ingest` these fail that document only and are reported).

Framework retrievers (optional extras: `pip install .[langchain]`, `.[llamaindex]`) take a
`LegalSearch` and return the frameworks' own types: exactly k results, each with the chunk id as
its id, the hit's score, and the citation, offsets and `via` in its metadata; the clauses a hit
cites ride in its `metadata["xrefs"]` (or come back as extra results with `include_xrefs=True`).
A metadata `filter` dict (`{"doc_type": "nda", "as_of": "2026-01-01"}`) maps onto the search
filters, an unknown key is a clear error, and the async methods (`ainvoke`, `aretrieve`) run the
search off the event loop.

This page is generated from the code by `legalsearch reference`; a test checks it is current.
'''

EXTRA_SECTIONS: list[tuple[str, str]] = []
"""(title, module) pairs documented after the root names (the framework integrations add theirs)."""


def _signature(obj) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"


def _doc(obj) -> str:
    return inspect.cleandoc(obj.__doc__ or "").strip()


def _fields_table(model: type[BaseModel]) -> str:
    rows = ["| field | type | default | |", "|---|---|---|---|"]
    for name, field in model.model_fields.items():
        annotation = field.annotation
        plain = isinstance(annotation, type) and not get_args(annotation)
        annotation = annotation.__name__ if plain else str(annotation).replace("typing.", "")
        default = "required" if field.is_required() else repr(field.get_default(call_default_factory=True))
        rows.append(f"| `{name}` | `{annotation}` | `{default}` | {field.description or ''} |".replace("\n", " "))
    return "\n".join(rows)


def _methods(cls) -> list[str]:
    out = []
    for name, member in inspect.getmembers(cls):
        if name.startswith("_") or not (inspect.isfunction(member) or isinstance(member, property)):
            continue
        if issubclass(cls, BaseModel) and name in dir(BaseModel):
            continue
        if isinstance(member, property):
            out.append(f"#### `{cls.__name__}.{name}` (property)\n\n{_doc(member)}\n")
        else:
            out.append(f"#### `{cls.__name__}.{name}{_signature(member)}`\n\n{_doc(member)}\n")
    return out


def section(name: str, obj) -> str:
    parts = [f"### `{name}`\n"]
    if inspect.isclass(obj):
        kind = "exception" if issubclass(obj, BaseException) else "class"
        # exceptions take a message; models take the fields of their table (keyword arguments)
        plain = issubclass(obj, (BaseException, BaseModel))
        parts.append(f"{kind} `{name}{'' if plain else _signature(obj)}`\n")
        parts.append(_doc(obj) + "\n")
        if issubclass(obj, BaseModel):
            parts.append(_fields_table(obj) + "\n")
        if not issubclass(obj, BaseException):
            parts.extend(_methods(obj))
    else:
        parts.append(f"`{name} = {obj!r}`\n")
    return "\n".join(parts)


def render() -> str:
    from legalsearch.query import profiles
    from legalsearch.query.models import options_table

    parts = [INTRO, "## Public names\n"]
    for name in legalsearch.__all__:
        parts.append(section(name, getattr(legalsearch, name)))
    parts.append("## Request options\n\nEvery option of a search, from `SearchRequest` (the CLI's `search`, `context` "
                 "and `explain` options, `--set`, the profiles and the evaluation configurations all use these "
                 "names). Flat names work as keyword arguments: `ls.search(q, routing_docs=5)`.\n\n"
                 + options_table() + "\n")
    parts.append("## Profiles\n\n`profile=NAME` (Python), `--profile NAME` (CLI), `\"profile\"` (evaluation "
                 "configurations): named, versioned presets over the request defaults.\n\n"
                 + "\n".join(f"- `{name}` (v{p.version}{', extends ' + p.extends if p.extends else ''}): "
                              f"{p.description} Sets: `{p.set}`."
                              for name in profiles.names() for p in [profiles.load(name)]) + "\n")
    for title, module_name in EXTRA_SECTIONS:
        module = __import__(module_name, fromlist=["__all__"])
        parts.append(f"## {title}\n\n{_doc(module)}\n")
        for name in module.__all__:
            parts.append(section(name, getattr(module, name)))
    return "\n".join(p.rstrip() + "\n" for p in parts)


def is_current(doc: Path = DOC) -> bool:
    return doc.is_file() and doc.read_text() == render()


def write(doc: Path = DOC) -> Path:
    doc.write_text(render())
    return doc
