"""Request bodies for every search legalsearch sends (pure functions, no I/O).

One set of filter clauses (validity date, jurisdiction, doc ids / types, language, ACL) is put
inside EVERY sub-query — the BM25 bool filter, the k-NN query's own efficient pre-filter, the
identifier sub-query — so nothing is fused that a filter would have removed. There is no
"see everything" default: a caller with no groups sees only chunks marked public.
"""

from __future__ import annotations

from search.errors import QueryError
from search.query.identifiers import QueryRef
from search.query.models import MODES, Filters

# Fields returned with hits: everything but the vector and the (long) embedded text.
SOURCE_EXCLUDES = ["vector", "embedded_text"]
BM25_FIELDS = [
    "embedded_text^1.0",      # summary + heading path + text (SAC for BM25)
    "embedded_text.it^1.0",
    "text.exact^0.5",         # identifiers and exact wording, unstemmed
    "heading_path.text^1.5",
    "section_title^1.5",
    "section_title.it^1.5",
    "doc_title^0.5",
    "parties^0.5",
]


def filter_clauses(filters: Filters) -> list[dict]:
    """The filter clauses every sub-query carries."""
    clauses: list[dict] = [acl_clause(filters.groups)]
    if filters.as_of:
        day = filters.as_of.isoformat()
        # valid_from <= as_of < valid_to; a missing bound is open.
        clauses.append({"bool": {"should": [{"range": {"valid_from": {"lte": day}}},
                                            {"bool": {"must_not": {"exists": {"field": "valid_from"}}}}],
                                 "minimum_should_match": 1}})
        clauses.append({"bool": {"should": [{"range": {"valid_to": {"gt": day}}},
                                            {"bool": {"must_not": {"exists": {"field": "valid_to"}}}}],
                                 "minimum_should_match": 1}})
    for fld, values in (("jurisdiction", filters.jurisdictions), ("doc_id", filters.doc_ids),
                        ("doc_key", filters.doc_keys), ("doc_type", filters.doc_types),
                        ("language", filters.languages)):
        if values:
            clauses.append({"terms": {fld: list(values)}})
    return clauses


def acl_clause(groups: tuple[str, ...]) -> dict:
    """Public chunks, plus chunks whose acl names one of the caller's groups."""
    should: list[dict] = [{"term": {"public": True}}]
    if groups:
        should.append({"terms": {"acl": list(groups)}})
    return {"bool": {"should": should, "minimum_should_match": 1}}


def bm25_query(text: str, filters: Filters, fields: list[str] | None = None) -> dict:
    return {
        "bool": {
            "must": [{"multi_match": {"query": text, "fields": fields or BM25_FIELDS, "type": "most_fields"}}],
            "filter": filter_clauses(filters),
        }
    }


def knn_query(vector: list[float], k: int, filters: Filters, field_name: str = "vector") -> dict:
    return {"knn": {field_name: {"vector": [float(x) for x in vector], "k": k,
                                 "filter": {"bool": {"filter": filter_clauses(filters)}}}}}


def identifier_query(refs: list[QueryRef], filters: Filters) -> dict | None:
    """Exact matches of the query's references against section labels (and headings for
    schedules / annexes), so "clause 14.3" ranks 14.3 above 14.2 and "section 21" above 21A."""
    should: list[dict] = []
    for ref in refs:
        if ref.external:
            continue
        if ref.kind in ("schedule", "annex", "part"):
            should.append({"match_phrase": {"heading_path.text": {"query": ref.raw, "boost": 2.0}}})
        should.append({"term": {"section": {"value": ref.label, "boost": 3.0}}})
        should.append({"match_phrase": {"heading_path.text": {"query": ref.label}}})
        if "." in ref.label and ref.kind in ("article", "section", "clause"):
            # "articolo 13.2" of an Italian contract is comma 2 inside the unit labelled "13"
            should.append({"term": {"section": {"value": ref.label.split(".")[0], "boost": 1.0}}})
    if not should:
        return None
    return {"bool": {"should": should, "minimum_should_match": 1, "filter": filter_clauses(filters)}}


TITLE_FIELDS = ["section_title", "section_title.it", "heading", "heading.it", "heading_path.text"]


def title_query(titles: list[str], filters: Filters) -> dict | None:
    """Clause-title matching: chunks whose clause heading names the question's topic in either
    language ("Governing law", "Legge applicabile e foro competente"), each heading phrase with
    all its words (see `search.query.lexicon`)."""
    should = [{"multi_match": {"query": t, "fields": TITLE_FIELDS, "type": "best_fields", "operator": "and"}}
              for t in dict.fromkeys(titles)]
    if not should:
        return None
    return {"bool": {"should": should, "minimum_should_match": 1, "filter": filter_clauses(filters)}}


def sub_query_list(
    mode: str,
    *,
    text: str,
    vector: list[float] | None,
    filters: Filters,
    size: int,
    refs: list[QueryRef] | None = None,
    knn_k: int | None = None,
    boost_doc_keys: tuple[str, ...] = (),
    titles: list[str] | None = None,
) -> list[tuple[str, dict]]:
    """The (kind, query) lists a search in `mode` fuses: "bm25", "knn", "identifier" (when the
    question cites a section), "title" (when it names a clause topic; not in k-NN mode)."""
    if mode not in MODES:
        raise QueryError(f"unknown mode {mode!r}; choose one of: {', '.join(MODES)}")
    if size < 1:
        raise QueryError(f"k must be at least 1, got {size}")
    k = max(knn_k or size, size)
    subs: list[tuple[str, dict]] = []
    if mode in ("hybrid", "bm25"):
        bm25 = bm25_query(text, filters)
        if boost_doc_keys:
            bm25["bool"]["should"] = [{"terms": {"doc_key": list(boost_doc_keys), "boost": 2.0}}]
        subs.append(("bm25", bm25))
    if mode in ("hybrid", "knn"):
        if vector is None:
            raise QueryError(f"mode {mode} needs a query vector")
        subs.append(("knn", knn_query(vector, k, filters)))
    ident = identifier_query(refs or [], filters)
    if ident is not None and mode != "knn":
        subs.append(("identifier", ident))
    title = title_query(titles or [], filters)
    if title is not None and mode != "knn":
        subs.append(("title", title))
    return subs


def search_body(mode: str, *, size: int, **kwargs) -> dict:
    """The body of one search in `mode` ("hybrid" | "bm25" | "knn"); keywords as `sub_query_list`."""
    return body_of(mode, size, sub_query_list(mode, size=size, **kwargs))


def body_of(mode: str, size: int, lists: list[tuple[str, dict]]) -> dict:
    """The request body fusing `lists` (from `sub_query_list`) in `mode`."""
    subs = [query for _, query in lists]
    body: dict = {"size": size, "_source": {"excludes": SOURCE_EXCLUDES}}
    if mode == "hybrid" or len(subs) > 1:
        body["query"] = {"hybrid": {"queries": subs}}
    else:
        body["query"] = subs[0]
    return body


def sub_queries(body: dict) -> list[dict]:
    """The sub-queries of a body (one for a plain query), e.g. to rank each list on its own."""
    query = body["query"]
    return list(query["hybrid"]["queries"]) if "hybrid" in query else [query]


def ids_query(chunk_ids: list[str], filters: Filters) -> dict:
    """Fetch chunks by id under the same filters (used by expansion: ACL and dates still apply)."""
    return {
        "size": len(chunk_ids),
        "_source": {"excludes": SOURCE_EXCLUDES},
        "query": {"bool": {"filter": [{"ids": {"values": chunk_ids}}, *filter_clauses(filters)]}},
    }


ROUTING_FIELDS = ["title^3", "title.exact^3", "title.it^2", "parties^3", "summary^2", "summary.exact^1",
                  "summary.it^1", "opening^0.5", "opening.it^0.5", "profile^1", "profile.it^1"]


def routing_body(text: str, vector: list[float] | None, filters: Filters, size: int, knn_k: int | None = None,
                 titles: list[str] | None = None) -> dict:
    """Rank documents (title, parties, summary, opening, profile) for document routing. `knn_k`:
    how many documents the k-NN list ranks (at least `size`); `titles`: clause-topic heading words
    (`search.query.lexicon`) matched against the profile's outline, so a question about "holding
    back 5 %" finds the statute whose sections include "Prohibition of retention terms"."""
    doc_filters = [c for c in filter_clauses(filters)]
    bm25: dict = {"bool": {"must": [{"multi_match": {"query": text, "fields": ROUTING_FIELDS, "type": "most_fields"}}],
                           "filter": doc_filters}}
    if titles:
        bm25["bool"]["should"] = [{"multi_match": {"query": t, "fields": ["profile", "profile.it"], "operator": "and",
                                                   "boost": 0.5}} for t in dict.fromkeys(titles)]
    subs = [bm25]
    if vector is not None:
        subs.append({"knn": {"vector": {"vector": [float(x) for x in vector], "k": max(size, knn_k or size),
                                        "filter": {"bool": {"filter": doc_filters}}}}})
    return {"size": size, "_source": ["doc_key", "doc_id", "version", "title"],
            "query": {"hybrid": {"queries": subs}}}
