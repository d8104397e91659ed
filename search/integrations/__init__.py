"""Retrievers for the RAG frameworks applications already use (optional extras):
`pip install .[langchain]` for `langchain.LangChainRetriever`, `pip install .[llamaindex]` for
`llamaindex.LlamaIndexRetriever`. Both call `LegalSearch.search` and follow their framework's
conventions: exactly k results (the passages a hit cites ride in its metadata["xrefs"], or
come as extra results with `include_xrefs=True`), the chunk id as the result's id, the hit's
score, and a metadata filter dict (`filter_options`) mapped onto our filters."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from legalsearch.errors import QueryError
from legalsearch.query.models import REQUEST_FILTERS

FILTER_KEYS: dict[str, str] = {
    **{name: name for name in REQUEST_FILTERS},
    **{name.removesuffix("s"): name for name in REQUEST_FILTERS if name.endswith("s")},
}
"""The keys a framework metadata filter may use (singular as a hit's metadata names them, or the
plural of our request) -> the request field each sets."""

XREF_FIELDS = ("chunk_id", "doc_id", "doc_title", "version", "section", "citation", "char_start", "char_end",
               "via", "text")
"""What metadata["xrefs"] keeps of each passage a hit cites."""


def filter_options(metadata_filter: Mapping[str, Any] | None) -> dict[str, Any]:
    """The request options a framework's metadata filter dict stands for: each value a string (or
    date), a list of them (any of), or {"$eq": value} / {"$in": [values]} as LangChain's vector
    stores write them; the keys of `FILTER_KEYS`. A filter on anything else (or with another
    operator) is an error rather than ignored: a silently dropped filter would widen what a
    caller is shown."""
    options: dict[str, Any] = {}
    for key, value in (metadata_filter or {}).items():
        field = FILTER_KEYS.get(key)
        if field is None:
            raise QueryError(f"unknown filter key {key!r}; accepted keys: {', '.join(sorted(FILTER_KEYS))}")
        values = _filter_values(key, value)
        if field == "as_of":
            if len(values) != 1:
                raise QueryError(f"filter {key!r} takes one date, got {value!r}")
            options["as_of"] = values[0]
        else:
            options[field] = tuple(dict.fromkeys((*options.get(field, ()), *values)))
    return options


def _filter_values(key: str, value: Any) -> list[Any]:
    if isinstance(value, Mapping):
        if len(value) != 1 or next(iter(value)) not in ("$eq", "$in"):
            raise QueryError(f"filter {key!r}: only a value, a list, {{'$eq': value}} or {{'$in': [values]}} "
                             f"are accepted, got {dict(value)!r}")
        ((operator, value),) = value.items()
        if operator == "$in" and (isinstance(value, str) or not isinstance(value, Iterable)):
            raise QueryError(f"filter {key!r}: $in takes a list, got {value!r}")
    if isinstance(value, str) or not isinstance(value, Iterable):
        return [value]
    return list(value)


def search_options(defaults: Mapping[str, Any], call: Mapping[str, Any]) -> dict[str, Any]:
    """`LegalSearch.search` keywords from a retriever's defaults and one call's keywords, later
    winning; a `filter` in either is mapped with `filter_options`."""
    options: dict[str, Any] = {}
    for layer in (defaults, call):
        layer = dict(layer)
        metadata_filter = layer.pop("filter", None)
        options.update({**layer, **filter_options(metadata_filter)})
    return options


def cited_by(hits: list) -> tuple[list, dict[str, list]]:
    """The retrieved hits in rank order, and the expansion passages (via "xref:<chunk_id>" or
    "definition:<chunk_id>") by the chunk id of the hit that cites them."""
    retrieved = [h for h in hits if h.via == "retrieval"]
    cited: dict[str, list] = {}
    for h in hits:
        if h.via != "retrieval":
            cited.setdefault(h.via.partition(":")[2], []).append(h)
    return retrieved, cited


def hit_metadata(hit, xrefs: list | None = None) -> dict:
    """The metadata both retrievers attach to a hit: everything of the CLI contract but the text,
    and, under "xrefs", the passages it cites (with their text) when it is a retrieved hit."""
    data = hit.model_dump(mode="json", exclude={"text"})
    data["source"] = hit.source_path or hit.doc_id
    if hit.via == "retrieval":
        data["xrefs"] = [x.model_dump(mode="json", include=set(XREF_FIELDS)) for x in xrefs or []]
    return data


def results(hits: list, include_xrefs: bool) -> list[tuple[Any, dict]]:
    """(hit, metadata) for each result a retriever returns: the retrieved hits (each citing
    passage in its metadata), followed in the response's order by the passages themselves when
    `include_xrefs`."""
    retrieved, cited = cited_by(hits)
    meta = {h.chunk_id: hit_metadata(h, cited.get(h.chunk_id)) for h in retrieved}
    if not include_xrefs:
        return [(h, meta[h.chunk_id]) for h in retrieved]
    return [(h, meta[h.chunk_id] if h.via == "retrieval" else hit_metadata(h)) for h in hits]


def missing_extra(extra: str, package: str) -> ImportError:
    return ImportError(f"this retriever needs {package}: pip install 'legalsearch[{extra}]' (or pip install {package})")
