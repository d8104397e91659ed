"""Request bodies for every search legalsearch sends (pure functions, no I/O).

One set of filter clauses (validity date, jurisdiction, doc ids / types, language, ACL) is put
inside EVERY sub-query — the BM25 bool filter, the k-NN query's own efficient pre-filter, the
identifier sub-query — so nothing is fused that a filter would have removed. There is no
"see everything" default: a caller with no groups sees only chunks marked public.
"""

from __future__ import annotations

import copy as copy_module
import json
import re
from functools import cache
from importlib import resources

from legalsearch.documents.models import CONTENTS_LABEL
from legalsearch.errors import QueryError
from legalsearch.index.schema import KNN_EF_SEARCH
from legalsearch.query.identifiers import QueryRef
from legalsearch.query.models import MODES, Filters
from legalsearch.query.plan import MAX_BM25_WORDS

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


MATCH_NONE: dict = {"match_none": {}}
"""Closes the identifier sub-query's should-list: it matches nothing and scores nothing, and it
lets the stored template (search.query.templates) write every optional clause as `clause,`."""


# The leaf builders below take plain values (a date string, a list, a text); the stored search
# templates are generated from the same functions (search.query.templates), so a change here
# reaches both the Python requests and the templates every client uses.


def validity_clauses(day) -> list[dict]:
    """valid_from <= day < valid_to; a missing bound is open."""
    return [{"bool": {"should": [{"range": {"valid_from": {"lte": day}}},
                                 {"bool": {"must_not": {"exists": {"field": "valid_from"}}}}],
                      "minimum_should_match": 1}},
            {"bool": {"should": [{"range": {"valid_to": {"gt": day}}},
                                 {"bool": {"must_not": {"exists": {"field": "valid_to"}}}}],
                      "minimum_should_match": 1}}]


def terms_clause(field_name: str, values) -> dict:
    return {"terms": {field_name: values}}


PUBLIC_CLAUSE: dict = {"term": {"public": True}}
TERMS_FILTERS = (("jurisdiction", "jurisdictions"), ("doc_id", "doc_ids"), ("doc_key", "doc_keys"),
                 ("doc_type", "doc_types"), ("language", "languages"))
"""(chunk field, Filters attribute) of the terms filters, in the order every sub-query carries them."""


def acl_should(groups_clause: dict | None) -> dict:
    should: list = [PUBLIC_CLAUSE]
    if groups_clause is not None:
        should.append(groups_clause)
    return {"bool": {"should": should, "minimum_should_match": 1}}


NOT_CONTENTS: dict = {"bool": {"must_not": {"term": {"clause_labels": CONTENTS_LABEL}}}}
"""A table of contents' chunks list every clause's title and answer nothing: no search returns them."""


def filter_clauses(filters: Filters) -> list[dict]:
    """The filter clauses every sub-query carries."""
    clauses: list[dict] = [acl_clause(filters.groups), NOT_CONTENTS]
    if filters.as_of:
        clauses += validity_clauses(filters.as_of.isoformat())
    for fld, attr in TERMS_FILTERS:
        values = getattr(filters, attr)
        if values:
            clauses.append(terms_clause(fld, list(values)))
    return clauses


def acl_clause(groups: tuple[str, ...]) -> dict:
    """Public chunks, plus chunks whose acl names one of the caller's groups."""
    return acl_should(terms_clause("acl", list(groups)) if groups else None)


@cache
def analyser_stop_words() -> frozenset[str]:
    """The words legal_en and legal_it drop (Lucene's `_english_` and `_italian_` sets;
    analyzers/stop_words.json)."""
    data = json.loads(resources.files("legalsearch.analyzers").joinpath("stop_words.json").read_text(encoding="utf-8"))
    return frozenset(data["en"]) | frozenset(data["it"])


def without_stop_words(text: str) -> str:
    """`text` without the analysers' stop words ("the", "of", "di", "il"), which the fields that
    keep them (the .it sub-fields of English text, the .exact ones, headings and parties) match in
    almost every chunk: the longest posting lists of a BM25 query (issue 27). Nothing is left
    out of a question made of stop words only."""
    stop = analyser_stop_words()
    kept = [p for p in text.split() if p.strip(".,;:!?()[]{}\"'«»“”").lower() not in stop]
    return " ".join(kept) if kept else text


def bm25_clause(text, clauses, fields: list[str] | None = None) -> dict:
    return {"bool": {"must": [{"multi_match": {"query": text, "fields": fields or BM25_FIELDS, "type": "most_fields"}}],
                     "filter": clauses}}


def bm25_query(text: str, filters: Filters, fields: list[str] | None = None) -> dict:
    return bm25_clause(text, filter_clauses(filters), fields)


def knn_ef_search(meta: dict | None) -> int | None:
    """The k-NN beam width an index records (`_meta.legalsearch.knn.ef_search`, written by
    `index create`); an index made before it was recorded gets today's (`schema.KNN_EF_SEARCH`)."""
    return ((meta or {}).get("knn") or {}).get("ef_search", KNN_EF_SEARCH)


def _method_parameters(ef_search: int | None) -> dict:
    # the HNSW beam width, independent of k (how many neighbours the sub-query returns): Lucene
    # walks the graph with max(k, ef_search) candidates and keeps the best k
    return {"method_parameters": {"ef_search": ef_search}} if ef_search else {}


def knn_query(vector: list[float], k: int, filters: Filters, field_name: str = "vector",
              ef_search: int | None = KNN_EF_SEARCH) -> dict:
    return {"knn": {field_name: {"vector": [float(x) for x in vector], "k": k, **_method_parameters(ef_search),
                                 "filter": {"bool": {"filter": filter_clauses(filters)}}}}}


def neural_clause(text, k, clauses, model_id: str | None = None, field_name: str = "vector",
                  ef_search: int | None = KNN_EF_SEARCH) -> dict:
    """k-NN with the question embedded inside OpenSearch (ml-commons calls the embedding server);
    without `model_id` the index's default search pipeline supplies it (neural_query_enricher)."""
    inner: dict = {"query_text": text}
    if model_id:
        inner["model_id"] = model_id
    inner.update({"k": k, **_method_parameters(ef_search), "filter": {"bool": {"filter": clauses}}})
    return {"neural": {field_name: inner}}


def neural_query(text: str, k: int, filters: Filters, model_id: str | None = None, field_name: str = "vector",
                 ef_search: int | None = KNN_EF_SEARCH) -> dict:
    return neural_clause(text, k, filter_clauses(filters), model_id, field_name, ef_search)


def vector_query(text: str, vector: list[float] | None, k: int, filters: Filters, model_id: str | None = None,
                 ef_search: int | None = KNN_EF_SEARCH) -> dict:
    """The k-NN sub-query: our vector (`knn`), or the text embedded by the engine (`neural`,
    when `vector` is None and `model_id` names the query model); `ef_search`: the HNSW beam width
    (None: the engine's, which for Lucene is k)."""
    if vector is not None:
        return knn_query(vector, k, filters, ef_search=ef_search)
    if model_id:
        return neural_query(text, k, filters, model_id, ef_search=ef_search)
    raise QueryError("a k-NN sub-query needs a query vector or an engine-side model id")


def resized(body: dict, size: int) -> dict:
    """A copy of a search body that fetches `size` hits: its `size`, and the `k` of every k-NN or
    neural sub-query (wherever it sits: a hybrid's list or a bool's clauses) raised to `size`."""
    copy = copy_module.deepcopy(body)
    copy["size"] = size

    def walk(node):
        if isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, dict):
            for kind, value in node.items():
                if kind in ("knn", "neural") and isinstance(value, dict):  # {field: {"k": ..., ...}}
                    for spec in value.values():
                        if isinstance(spec, dict) and "k" in spec:
                            spec["k"] = max(int(spec["k"]), size)
                walk(value)

    walk(copy.get("query"))
    return copy


def deep_page(body: dict, depth: int, size: int) -> dict:
    """A copy of a search body that ranks as `resized(body, depth)` does and returns its first `size`
    hits only, with the number of hits it found counted up to `depth` (`hits.total`): a hybrid query
    collects `depth` hits per sub-query (`pagination_depth`, so its normalisation sees what the
    deeper list sees), a plain one is cut after its `depth`-deep k-NN. What the clause rescorer reads
    of a deeper list is its first `depth / 2`; whether the list was full, its count."""
    copy = resized(body, depth)
    copy["size"] = min(size, depth)
    copy["track_total_hits"] = depth
    if "hybrid" in copy.get("query", {}):
        copy["query"]["hybrid"]["pagination_depth"] = depth
    return copy


def identifier_terms(refs: list[QueryRef]) -> tuple[list[str], list[str]]:
    """(section labels, heading phrases) of the references the query makes to its own document:
    a label for every internal reference, a phrase for each schedule / annex / part."""
    internal = [r for r in refs if not r.external]
    return [r.label for r in internal], [r.raw for r in internal if r.kind in ("schedule", "annex", "part")]


def _constant(clause: dict, boost: float) -> dict:
    """`clause` scoring `boost` wherever it matches: whether a chunk is the cited unit, not how
    long its heading path is (min-max over the identifier list would turn a longer path's slightly
    lower BM25 into a whole point: the cited section of one document below the same number of
    two others)."""
    return {"constant_score": {"filter": clause, "boost": boost}}


def phrase_clause(phrase) -> dict:
    return _constant({"match_phrase": {"heading_path.text": {"query": phrase}}}, 2.0)


def label_clauses(label) -> list[dict]:
    return [_constant({"term": {"section": label}}, 3.0),
            _constant({"match_phrase": {"heading_path.text": {"query": label}}}, 1.0)]


def identifier_clause(should: list, clauses) -> dict:
    return {"bool": {"should": should, "minimum_should_match": 1, "filter": clauses}}


def parent_labels(refs: list[QueryRef]) -> list[str]:
    """The enclosing unit of each dotted article / section / clause label the query cites:
    "articolo 13.2" of an Italian contract is comma 2 inside the unit labelled "13"."""
    return list(dict.fromkeys(r.label.split(".")[0] for r in refs
                              if not r.external and "." in r.label and r.kind in ("article", "section", "clause")))


def parent_clause(label) -> dict:
    return _constant({"term": {"section": label}}, 1.0)


def identifier_query(refs: list[QueryRef], filters: Filters) -> dict | None:
    """Exact matches of the query's references against section labels (and headings for
    schedules / annexes), so "clause 14.3" ranks 14.3 above 14.2 and "section 21" above 21A;
    the enclosing unit of a dotted label weighs less (`parent_labels`)."""
    labels, phrases = identifier_terms(refs)
    if not labels:
        return None
    should = [phrase_clause(p) for p in phrases] + [c for label in labels for c in label_clauses(label)]
    should += [parent_clause(label) for label in parent_labels(refs)]
    return identifier_clause([*should, MATCH_NONE], filter_clauses(filters))


TITLE_FIELDS = ["section_title", "section_title.it", "heading", "heading.it", "heading_path.text", "clause_labels"]
"""Where a clause says its topic: its title and heading path, and the label ingest gave it
(`search.parse.labels`, a keyword): a lexicon concept whose headings include a label name
("double_signature_1341") finds the labelled clause whatever its heading says (an untitled
"Ai sensi degli artt. 1341 e 1342 c.c. ..." after the signatures)."""


MAX_TITLE_CLAUSES = 300
"""The clause-title list's share of Lucene's 1024 clauses (one per title field and heading word),
beside BM25's 8 x MAX_BM25_WORDS = 640, the identifiers and the filters: a long question whose
words name many topics keeps the first headings that fit (measured: a ~6,000-character question
failed with too_many_nested_clauses once `clause_labels` made the title fields six)."""


def title_query(titles: list[str], filters: Filters) -> dict | None:
    """Clause-title matching: chunks whose clause heading names the question's topic in either
    language ("Governing law", "Legge applicabile e foro competente"), each heading phrase with
    all its words (see `search.query.lexicon`). A Python-side list, on when `title_weight` > 0:
    the stored templates carry the default request, which has none (search.query.templates)."""
    kept, clauses = [], 0
    for t in dict.fromkeys(titles):  # the lexicon's order: the question's own topics first
        cost = len(TITLE_FIELDS) * max(1, len(t.split()))
        if clauses + cost > MAX_TITLE_CLAUSES:
            break
        kept.append(t)
        clauses += cost
    should = [{"multi_match": {"query": t, "fields": TITLE_FIELDS, "type": "best_fields", "operator": "and"}}
              for t in kept]
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
    model_id: str | None = None,
    titles: list[str] | None = None,
    ef_search: int | None = KNN_EF_SEARCH,
) -> list[tuple[str, dict]]:
    """The (kind, query) lists a search in `mode` fuses: "bm25", "knn" (a `neural` query when
    there is no `vector`: the engine embeds the text with the model `model_id`), "identifier"
    (when the question cites a section), "title" (when `titles` are given; not in k-NN mode).
    `ef_search`: the k-NN beam width (the index's, `knn_ef_search`)."""
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
        if vector is None and not model_id:
            raise QueryError(f"mode {mode} needs a query vector")
        subs.append(("knn", vector_query(text, vector, k, filters, model_id, ef_search)))
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


def bool_search_body(bm25: dict, vector: dict, identifier, size) -> dict:
    """BM25, k-NN [and identifier] sub-queries in one bool should: what a user restricted by
    document-level security can run on 2.19, where a `hybrid` query fails under DLS (the scores
    add up instead of being normalized and fused; docs/engine.md measures what that costs)."""
    should = [bm25, vector, *([] if identifier is None else [identifier])]
    return {"size": size, "_source": {"excludes": SOURCE_EXCLUDES},
            "query": {"bool": {"should": should, "minimum_should_match": 1}}}


def bool_body(text: str, vector: list[float] | None, filters: Filters, size: int,
              refs: list[QueryRef] | None = None, model_id: str | None = None) -> dict:
    """The `bool_search_body` of a question (the `legalsearch-bool` template renders the same)."""
    return bool_search_body(bm25_query(text, filters), vector_query(text, vector, size, filters, model_id),
                            identifier_query(refs or [], filters), size)


def sub_queries(body: dict) -> list[dict]:
    """The sub-queries of a body (one for a plain query), e.g. to rank each list on its own."""
    query = body["query"]
    return list(query["hybrid"]["queries"]) if "hybrid" in query else [query]


EXPANSION_EXCLUDES = [*SOURCE_EXCLUDES, "xrefs", "xref_chunk_ids", "definition_chunk_ids", "uses_terms"]
"""What a clause expansion adds is shown, scored and cited, never expanded again: its own references,
definitions and terms (half the bytes of a chunk that cites a whole article) are not fetched."""


def ids_query(chunk_ids: list[str], filters: Filters, excludes: list[str] | None = None) -> dict:
    """Fetch chunks by id under the same filters (used by expansion: ACL and dates still apply). The
    documents routing chose (`doc_keys`) do not bound it: an id names its chunk already, and an
    amendment's clause reaches the agreement it amends (`index.links`) when routing kept only one.
    `excludes`: the source fields left out (default `SOURCE_EXCLUDES`)."""
    unrouted = filters.model_copy(update={"doc_keys": ()}) if filters.doc_keys else filters
    return {
        "size": len(chunk_ids),
        "_source": {"excludes": SOURCE_EXCLUDES if excludes is None else excludes},
        "query": {"bool": {"filter": [{"ids": {"values": chunk_ids}}, *filter_clauses(unrouted)]}},
    }


def in_force_query(chunk_ids: list[str], filters: Filters) -> dict:
    """Which of `chunk_ids` the caller may open and are in force on the matter date (access and
    validity only; ids returned, no text): the amendments a hit may say it is "amended by". An
    amendment valid from 2025 does not amend clause 14.3 for a 2024 matter; a filter on documents,
    types or languages narrows what is searched, not what amends it."""
    kept = Filters(as_of=filters.as_of, groups=filters.groups)
    return {
        "size": len(chunk_ids), "_source": False, "track_total_hits": False,
        "query": {"bool": {"filter": [{"ids": {"values": chunk_ids}}, *filter_clauses(kept)]}},
    }


TEXT_FIELDS = {"it": "text.it"}
"""The field that reads a chunk's own text by its language; every other language uses `text`
(English analysis). Highlighting and the second stage's lexical share read the same one."""


def lexical_field(language: str | None) -> str:
    """The field that reads a chunk's own text in its language (`TEXT_FIELDS`)."""
    return TEXT_FIELDS.get(language or "", "text")


def lexical_body(question: str, chunk_ids: list[str], language: str | None) -> dict:
    """A BM25 of the question over the text alone of the chunks `chunk_ids` (as the document has
    it, caption and article line included; not the heading path, section title or document
    summary): the plain-BM25 view of a shortlist inside one document (issue 28's floor reads the
    units' text alone), which the second stage blends in (`rerank.rerank`, `lexical`). The chunks
    were fetched under the search's filters already; the body scores them and returns ids only."""
    return {
        "size": len(chunk_ids), "_source": False, "track_total_hits": False,
        "query": {"bool": {"must": [{"match": {lexical_field(language): {"query": question}}}],
                           "filter": [{"ids": {"values": chunk_ids}}]}},
    }


ROUTING_FIELDS = ["title^3", "title.exact^3", "title.it^2", "parties^3", "summary^2", "summary.exact^1",
                  "summary.it^1", "opening^0.5", "opening.it^0.5", "profile^1", "profile.it^1"]


ROUTING_SOURCE = ["doc_key", "doc_id", "version", "title", "doc_type", "language"]

NAME_FIELDS = ["title^3", "title.exact^3", "parties^3", "summary^1", "opening^0.5", "profile^0.5"]
"""Where a document's names are: title, parties, the summary's "Non-Disclosure Agreement of Seeed
Development Limited", and, weighted less, the opening and the profile, where a trading name or a
defined name lives ("Officine Fabbri Robotica S.r.l. (\"Kestrel\")"). `SearchService.named` looks
for the question's rare name-like words there (`search.query.plan.question_words`). The opening
and profile are safe to search because only words written like names may name: a rare topic word
("workout") read there would name the wrong document."""

NAMING_DF_FIELDS = {"en": ["title", "summary", "profile", "opening"],
                    "it": ["title.it", "summary.it", "profile.it", "opening.it"]}
"""How common a word is, read through both languages' analyzers: a stop word of either ("the",
"il", "does") counts in no document there and so names none; a generic word ("allow", "copy",
"recesso") is in many openings."""


def naming_df_body(words: list[str], filters: Filters) -> dict:
    """How many (visible) documents carry each of `words` (per analyzer language), and how many
    there are: one size-0 request over the document registry."""
    aggs = {f"df_{lang}": {"filters": {"filters": {w: {"multi_match": {"query": w, "fields": fields}}
                                                   for w in words}}}
            for lang, fields in NAMING_DF_FIELDS.items()}
    return {"size": 0, "track_total_hits": True, "query": {"bool": {"filter": filter_clauses(filters)}},
            "aggs": aggs}


def count_body(filters: Filters, limit: int) -> dict:
    """How many chunks `filters` let through, counted up to `limit` (hits.total.value): no search
    with these filters can return more."""
    return {"size": 0, "track_total_hits": limit, "query": {"bool": {"filter": filter_clauses(filters)}}}


NAMING_WORD_WEIGHT = 10_000.0
"""Each rare word a document carries adds this to its naming score (`naming_body`), so the score
counts the question's names a document carries first and ranks by relevance within a count."""


def names_carried(score: float | None) -> int:
    """How many of the rare words a `naming_body` hit carries (whole `NAMING_WORD_WEIGHT`s in its
    score: relevance adds far less than one)."""
    return int((score or 0.0) // NAMING_WORD_WEIGHT)


def naming_body(words: list[str], filters: Filters, size: int) -> dict:
    """The documents that carry the question's rare words in a name field, best first: by how many
    of the words each carries (`NAMING_WORD_WEIGHT` apiece), then by relevance; with each one's
    chunk count (how deep a search inside it can go)."""
    per_word = [{"constant_score": {"filter": {"multi_match": {"query": w, "fields": NAME_FIELDS}},
                                    "boost": NAMING_WORD_WEIGHT}} for w in words]
    return {"size": size, "_source": [*ROUTING_SOURCE, "chunk_count"],
            "query": {"bool": {"should": [*per_word, {"multi_match": {"query": " ".join(words), "fields": NAME_FIELDS,
                                                                      "type": "most_fields"}}],
                               "minimum_should_match": 1, "filter": filter_clauses(filters)}}}


MAX_ROUTING_LANGUAGES = 4
"""A hybrid query fuses at most 5 lists: one BM25 list per language, and the k-NN list."""

MAX_SPLIT_WORDS = MAX_BM25_WORDS
"""The per-language lists repeat the BM25 clauses once per language, and Lucene counts the clauses
of the whole query (maxClauseCount 1024): the words of all the lists together stay within the
budget of one list (`plan.MAX_BM25_WORDS`); a question whose distinct words times the languages
pass it keeps one list."""


def routing_body(text: str, vector: list[float] | None, filters: Filters, size: int,
                 model_id: str | None = None, knn_k: int | None = None, titles: list[str] | None = None,
                 languages: list[str] | None = None) -> dict:
    """Rank documents (title, parties, summary, opening, profile) for document routing;
    `model_id` instead of a vector embeds the text inside the engine (`neural`). `knn_k`: how
    many documents the k-NN list ranks (at least `size`); `titles`: clause-topic heading words
    (`search.query.lexicon`) matched against the profile's outline, so a question about "holding
    back 5 %" finds the statute whose sections include "Prohibition of retention terms". The
    `legalsearch-route` template renders the default (no titles, k-NN k = size, one BM25 list).

    `languages` (the corpus's, when it has several): one BM25 list per language, each over the
    documents in it. BM25 scores of documents in different languages are not comparable: an
    Italian question matches every Italian opening ("contratto", "fatture") and almost nothing of
    an English agreement, whose rank in one list would then be decided by language, not by topic.
    Ranked within its language, each document's BM25 evidence counts alike, and the k-NN list
    (multilingual models) ranks across them (measured best on the gold sets)."""
    bm25 = bm25_clause(text, filter_clauses(filters), ROUTING_FIELDS)
    if titles:
        bm25["bool"]["should"] = [{"multi_match": {"query": t, "fields": ["profile", "profile.it"], "operator": "and",
                                                   "boost": 0.5}} for t in dict.fromkeys(titles)]
    subs = [bm25]
    if languages and 1 < len(languages) <= MAX_ROUTING_LANGUAGES and (
            len(set(re.findall(r"\w+", text.lower()))) * len(languages) <= MAX_SPLIT_WORDS):
        subs = [{"bool": {**bm25["bool"], "filter": [*bm25["bool"]["filter"], {"term": {"language": lang}}]}}
                for lang in languages]
    if vector is not None or model_id:
        subs.append(vector_query(text, vector, max(size, knn_k or size), filters, model_id))
    return {"size": size, "_source": ROUTING_SOURCE, "query": {"hybrid": {"queries": subs}}}
