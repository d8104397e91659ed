from datetime import date

import pytest
from legalsearch.errors import QueryError
from legalsearch.query import bodies
from legalsearch.query.identifiers import parse_identifiers
from legalsearch.query.models import Filters

PUBLIC_ONLY = {"bool": {"should": [{"term": {"public": True}}], "minimum_should_match": 1}}
NO_CONTENTS = {"bool": {"must_not": {"term": {"clause_labels": "contents"}}}}


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (Filters(), [PUBLIC_ONLY, NO_CONTENTS]),
        (Filters(groups=("litigation-team",)),
         [{"bool": {"should": [{"term": {"public": True}}, {"terms": {"acl": ["litigation-team"]}}],
                    "minimum_should_match": 1}}, NO_CONTENTS]),
        (Filters(jurisdictions=("IT",), doc_types=("contract",)),
         [PUBLIC_ONLY, NO_CONTENTS, {"terms": {"jurisdiction": ["IT"]}}, {"terms": {"doc_type": ["contract"]}}]),
        (Filters(as_of=date(2026, 5, 1)),
         [PUBLIC_ONLY, NO_CONTENTS,
          {"bool": {"should": [{"range": {"valid_from": {"lte": "2026-05-01"}}},
                               {"bool": {"must_not": {"exists": {"field": "valid_from"}}}}],
                    "minimum_should_match": 1}},
          {"bool": {"should": [{"range": {"valid_to": {"gt": "2026-05-01"}}},
                               {"bool": {"must_not": {"exists": {"field": "valid_to"}}}}],
                    "minimum_should_match": 1}}]),
    ],
)
def test_filter_clauses(filters, expected):
    assert bodies.filter_clauses(filters) == expected


def test_every_subquery_carries_the_same_filters():
    filters = Filters(as_of=date(2025, 1, 1), groups=("a",), doc_ids=("msa",))
    body = bodies.search_body("hybrid", text="clause 14.3 cap", vector=[0.1] * 4, filters=filters, size=5,
                               refs=parse_identifiers("clause 14.3 cap"))
    subs = bodies.sub_queries(body)
    assert len(subs) == 3  # bm25, knn, identifier
    expected = bodies.filter_clauses(filters)
    assert subs[0]["bool"]["filter"] == expected
    assert subs[1]["knn"]["vector"]["filter"] == {"bool": {"filter": expected}}
    assert subs[2]["bool"]["filter"] == expected
    assert {"constant_score": {"filter": {"term": {"section": "14.3"}}, "boost": 3.0}} in subs[2]["bool"]["should"]


@pytest.mark.parametrize(
    ("mode", "query_key", "n_subs"),
    [("bm25", "bool", 1), ("knn", "knn", 1), ("hybrid", "hybrid", 2)],
)
def test_modes_without_identifiers(mode, query_key, n_subs):
    body = bodies.search_body(mode, text="termination", vector=[0.0, 1.0], filters=Filters(), size=7)
    assert query_key in body["query"]
    assert len(bodies.sub_queries(body)) == n_subs
    assert body["size"] == 7
    assert body["_source"] == {"excludes": ["vector", "embedded_text"]}


def test_knn_k_is_at_least_size():
    body = bodies.search_body("knn", text="x", vector=[1.0], filters=Filters(), size=20, knn_k=5)
    assert body["query"]["knn"]["vector"]["k"] == 20


@pytest.mark.parametrize(("mode", "size"), [("fuzzy", 5), ("bm25", 0)])
def test_bad_requests(mode, size):
    with pytest.raises(QueryError):
        bodies.search_body(mode, text="x", vector=[1.0], filters=Filters(), size=size)


def test_knn_mode_needs_a_vector():
    with pytest.raises(QueryError):
        bodies.search_body("knn", text="x", vector=None, filters=Filters(), size=3)


def test_ids_query_keeps_acl():
    body = bodies.ids_query(["a:1:0001"], Filters())
    assert body["query"]["bool"]["filter"][0] == {"ids": {"values": ["a:1:0001"]}}
    assert PUBLIC_ONLY in body["query"]["bool"]["filter"]


def test_an_expansion_fetches_what_it_shows_not_what_it_would_expand():
    body = bodies.ids_query(["a:1:0001"], Filters(), bodies.EXPANSION_EXCLUDES)
    assert {"xrefs", "xref_chunk_ids", "definition_chunk_ids", "uses_terms", "vector"} <= set(body["_source"]["excludes"])
    # what a hit shows, cites and relevance reads stays
    assert not {"text", "heading_path", "section", "summary", "doc_title", "amended_by_chunk_ids"} & set(
        body["_source"]["excludes"])
    assert bodies.ids_query(["a:1:0001"], Filters())["_source"]["excludes"] == bodies.SOURCE_EXCLUDES


def test_in_force_reads_access_and_validity_only():
    body = bodies.in_force_query(["x:1:0001"], Filters(as_of="2024-12-31", doc_types=("nda",), groups=("g",)))
    assert body["_source"] is False
    assert body["query"]["bool"]["filter"][1:] == bodies.filter_clauses(Filters(as_of="2024-12-31", groups=("g",)))


def test_routing_body_filters_documents_too():
    body = bodies.routing_body("NDA between Acme and Globex", [0.0, 1.0], Filters(groups=("x",)), 3)
    bm25, knn = body["query"]["hybrid"]["queries"]
    assert bm25["bool"]["filter"] == bodies.filter_clauses(Filters(groups=("x",)))
    assert knn["knn"]["vector"]["filter"]["bool"]["filter"] == bodies.filter_clauses(Filters(groups=("x",)))


@pytest.mark.parametrize(
    ("routing", "query", "expected"),
    [
        ("auto", "How long does confidentiality last in the NDA with Initech?", "filter"),
        ("auto", "s.21A compliance conditions", "off"),
        ("auto", "clausole approvate ai sensi dell'art. 1341 c.c.", "filter"),  # external code: not a section here
        ("filter", "clause 14.3", "filter"),
        ("off", "NDA with Initech", "off"),
    ],
)
def test_auto_routing_steps_aside_from_filtering_for_section_citations(routing, query, expected):
    from legalsearch.query.identifiers import parse_identifiers
    from legalsearch.query.service import effective_routing

    assert effective_routing(routing, parse_identifiers(query)) == expected


def test_title_list_matches_clause_headings_in_both_languages():
    lists = bodies.sub_query_list("hybrid", text="which law governs it", vector=[0.1, 0.2], filters=Filters(),
                                  size=5, titles=["governing law", "legge applicabile"])
    assert [kind for kind, _ in lists] == ["bm25", "knn", "title"]
    title = lists[2][1]["bool"]
    assert [s["multi_match"]["query"] for s in title["should"]] == ["governing law", "legge applicabile"]
    assert all(s["multi_match"]["operator"] == "and" for s in title["should"])
    assert title["filter"] == bodies.filter_clauses(Filters())
    # k-NN mode has no lexical lists
    knn_only = bodies.sub_query_list("knn", text="x", vector=[0.1], filters=Filters(), size=5, titles=["term"])
    assert [kind for kind, _ in knn_only] == ["knn"]


def test_routing_ranks_bm25_within_each_language_of_a_mixed_corpus():
    one = bodies.routing_body("quale legge regola il contratto", [0.1], Filters(), 3, languages=["it"])
    assert len(one["query"]["hybrid"]["queries"]) == 2  # one language: one BM25 list, as before
    body = bodies.routing_body("quale legge regola il contratto", [0.1], Filters(groups=("x",)), 3,
                               languages=["it", "en"])
    it, en, knn = body["query"]["hybrid"]["queries"]
    # each BM25 list: the same text and fields, the same filters, over one language's documents
    for bm25, lang in ((it, "it"), (en, "en")):
        assert bm25["bool"]["must"] == one["query"]["hybrid"]["queries"][0]["bool"]["must"]
        assert bm25["bool"]["filter"] == [*bodies.filter_clauses(Filters(groups=("x",))), {"term": {"language": lang}}]
    assert "knn" in knn  # one k-NN list across the languages
    # a long question keeps one BM25 list: the lists repeat its clauses (Lucene's 1024 in all)
    long = " ".join(f"word{i}" for i in range(bodies.MAX_SPLIT_WORDS // 2 + 1))
    assert len(bodies.routing_body(long, [0.1], Filters(), 3, languages=["it", "en"])["query"]["hybrid"]["queries"]) == 2


def test_routing_knn_list_ranks_more_documents_than_it_keeps():
    body = bodies.routing_body("Kenway's NDA", [0.1, 0.2], Filters(), size=3, knn_k=20)
    assert body["size"] == 3
    assert body["query"]["hybrid"]["queries"][1]["knn"]["vector"]["k"] == 20


def test_identifier_query_also_finds_the_parent_unit_of_a_dotted_label():
    from legalsearch.query.identifiers import parse_identifiers

    query = bodies.identifier_query(parse_identifiers("articolo 13.2 licenza Kestrel"), Filters())
    terms = [(s["constant_score"]["filter"]["term"]["section"], s["constant_score"]["boost"])
             for s in query["bool"]["should"] if "term" in s.get("constant_score", {}).get("filter", {})]
    assert terms == [("13.2", 3.0), ("13", 1.0)]


def test_identifier_scores_say_which_unit_is_cited_not_how_long_its_heading_path_is():
    from legalsearch.query.identifiers import parse_identifiers

    query = bodies.identifier_query(parse_identifiers("Under section 13, what can a tenant do?"), Filters())
    scored = [s for s in query["bool"]["should"] if s is not bodies.MATCH_NONE]
    # every clause scores a constant where it matches: BM25's length norm of heading_path.text made the
    # same "section 13" of a statute with a deeper path (Part > Division > Subdivision) lose to two others
    assert scored and all(set(s) == {"constant_score"} for s in scored)
    assert [s["constant_score"]["boost"] for s in scored] == [3.0, 1.0]



def test_naming_body_counts_the_names_a_document_carries_before_relevance():
    body = bodies.naming_body(["Birch", "Mount", "Knowledge"], Filters(), 3)
    should = body["query"]["bool"]["should"]
    # one constant-score clause per rare word, then the relevance of all of them together
    assert [c["constant_score"]["filter"]["multi_match"]["query"] for c in should[:3]] == ["Birch", "Mount", "Knowledge"]
    assert all(c["constant_score"]["boost"] == bodies.NAMING_WORD_WEIGHT for c in should[:3])
    assert should[3]["multi_match"]["query"] == "Birch Mount Knowledge"
    assert body["query"]["bool"]["minimum_should_match"] == 1
    assert body["query"]["bool"]["filter"] == bodies.filter_clauses(Filters())
    # a score is whole names plus a relevance far below one name's weight
    assert bodies.names_carried(3 * bodies.NAMING_WORD_WEIGHT + 41.7) == 3
    assert bodies.names_carried(bodies.NAMING_WORD_WEIGHT + 0.2) == 1
    assert bodies.names_carried(None) == 0


def test_title_list_keeps_within_its_share_of_the_clause_limit():
    from legalsearch.query.bodies import MAX_TITLE_CLAUSES, TITLE_FIELDS, title_query

    titles = [f"topic number {n}" for n in range(200)]  # a very long question naming many topics
    query = title_query(titles, Filters())
    kept = [c["multi_match"]["query"] for c in query["bool"]["should"]]
    assert kept == titles[: len(kept)]  # the first ones, in order
    assert len(kept) * 3 * len(TITLE_FIELDS) <= MAX_TITLE_CLAUSES < (len(kept) + 1) * 3 * len(TITLE_FIELDS)
    # a question with few topics keeps them all
    assert len(title_query(titles[:3], Filters())["bool"]["should"]) == 3


def test_every_knn_sub_query_carries_the_beam_width_apart_from_k():
    """ef_search widens Lucene's filtered graph walk; k (how many neighbours come back) stays."""
    from legalsearch.index.schema import KNN_EF_SEARCH

    body = bodies.search_body("hybrid", text="x", vector=[1.0], filters=Filters(), size=7)
    knn = body["query"]["hybrid"]["queries"][1]["knn"]["vector"]
    assert knn["k"] == 7 and knn["method_parameters"] == {"ef_search": KNN_EF_SEARCH}
    neural = bodies.sub_query_list("knn", text="x", vector=None, filters=Filters(), size=5, model_id="m",
                                   ef_search=40)[0][1]["neural"]["vector"]
    assert neural["k"] == 5 and neural["method_parameters"] == {"ef_search": 40}
    plain = bodies.search_body("knn", text="x", vector=[1.0], filters=Filters(), size=5, ef_search=None)
    assert "method_parameters" not in plain["query"]["knn"]["vector"]  # the engine's own (k, for Lucene)


def test_the_beam_width_is_the_one_the_index_records():
    from legalsearch.index.schema import KNN_EF_SEARCH

    assert bodies.knn_ef_search({"knn": {"engine": "lucene", "ef_search": 37}}) == 37
    assert bodies.knn_ef_search({"embedder": "e5"}) == KNN_EF_SEARCH  # an index made before it was recorded
    assert bodies.knn_ef_search(None) == KNN_EF_SEARCH


def test_stop_words_left_out_are_the_analysers_own():
    text = "What is the notice period of the NDA between Acme and Globex? Qual è il termine di preavviso?"
    assert bodies.without_stop_words(text) == "What notice period NDA between Acme Globex? Qual termine preavviso?"
    assert bodies.without_stop_words("section 21 of the Act") == "section 21 Act"  # identifiers stay
    assert bodies.without_stop_words("To be or not to be") == "To be or not to be"  # nothing else to search
    assert {"the", "not", "di", "il"} <= bodies.analyser_stop_words()
    assert "must" not in bodies.analyser_stop_words()  # not in Lucene's list: legal_en keeps it
