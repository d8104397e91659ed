"""`rerank: auto`, the default second stage: when a fused list is searched again deeper, when the
clause rescorer runs over it, what a response reports, the resized body, and the planning steps that
spare a request a round trip or an embedding (pure logic)."""

from __future__ import annotations

import pytest
from legalsearch.query.bodies import count_body, deep_page, filter_clauses, lexical_body, resized
from legalsearch.query.models import (
    AUTO_RERANK,
    AUTO_RERANK_LEXICAL,
    AUTO_RERANK_WEIGHT,
    Filters,
    SearchRequest,
)
from legalsearch.query.plan import SearchPlan, candidate_size
from legalsearch.query.service import (
    auto_rerank,
    counts_first,
    deepens,
    focus_alone,
    lexical_share,
    names_decide,
    ran_reranker,
)
from pydantic import ValidationError

REQ = SearchRequest(query="q", k=10)  # depth 50: the deeper list holds 100


def fused(n, docs=("a",)):
    return [({"chunk_id": f"c{i}", "doc_id": docs[i % len(docs)]}, 1.0 - i / 1000) for i in range(n)]


def test_auto_is_the_default_and_fetches_no_more_than_off():
    assert REQ.rerank.method == "auto"
    off = REQ.replace(rerank="off")
    assert candidate_size(REQ, 0.5) == candidate_size(off, 0.5) == 20
    assert candidate_size(REQ.replace(rerank="clause"), 0.5) == 100  # an explicit reranker still fetches its list


def test_only_a_full_list_of_one_document_is_searched_again():
    assert deepens(REQ, fused(20), 20, cites=False)
    assert not deepens(REQ, fused(20, docs=("a", "b")), 20, cites=False)  # several documents
    assert not deepens(REQ, fused(12), 20, cites=False)  # the whole document is in the list already
    assert not deepens(REQ, fused(20), 20, cites=True)   # a cited section: the identifier list decides
    assert not deepens(REQ, [], 0, cites=False)
    assert not deepens(REQ.replace(rerank="off"), fused(20), 20, cites=False)
    assert not deepens(REQ.replace(rerank="clause"), fused(100), 100, cites=False)  # explicit: fetched already
    assert not deepens(REQ, fused(100), 100, cites=False)  # k asked for the depth's list already


def plan_of(req=REQ, routing="filter", routed=("a:1",), size=20, open_places=0):
    return SearchPlan(req, {}, (), Filters(doc_keys=routed), routing, routed, None, {"size": size}, None,
                      open_places=open_places)


def test_a_search_routed_to_one_document_counts_its_chunks_with_the_first_search():
    assert counts_first(REQ, plan_of(), cites=False)
    assert not counts_first(REQ, plan_of(routed=("a:1", "b:1")), cites=False)  # several: the list decides
    assert not counts_first(REQ, plan_of(routing="prior"), cites=False)  # nothing restricted
    assert not counts_first(REQ, plan_of(routing="off", routed=()), cites=False)
    assert not counts_first(REQ, plan_of(open_places=2), cites=False)  # open places: every document searched
    assert not counts_first(REQ, plan_of(), cites=True)
    assert not counts_first(REQ.replace(rerank="off"), plan_of(), cites=False)
    assert not counts_first(REQ, plan_of(size=100), cites=False)  # as deep already: never searched again


def test_the_count_reads_the_filters_of_every_sub_query_and_stops_at_its_limit():
    filters = Filters(doc_keys=("a:1",), groups=("g",))
    body = count_body(filters, 100)
    assert body["size"] == 0 and body["track_total_hits"] == 100
    assert body["query"] == {"bool": {"filter": filter_clauses(filters)}}


def test_the_clause_rescorer_runs_on_a_long_document_only():
    one_long = [s for s, _ in fused(100)]
    assert auto_rerank(REQ, one_long, cites=False) == (AUTO_RERANK, AUTO_RERANK_WEIGHT) == ("clause", 0.7)
    assert auto_rerank(REQ, one_long[:99], cites=False)[0] == "off"  # shorter than twice the depth
    assert auto_rerank(REQ, [s for s, _ in fused(100, docs=("a", "b"))], cites=False)[0] == "off"
    assert auto_rerank(REQ, one_long, cites=True)[0] == "off"
    # a method asked for runs as asked, with its own weight
    assert auto_rerank(REQ.replace(rerank="e5", rerank_weight=0.4), [], cites=False) == ("e5", 0.4)
    assert auto_rerank(REQ.replace(rerank="off"), one_long, cites=False)[0] == "off"


def test_the_first_half_of_a_deeper_list_says_how_many_the_list_holds():
    one_long = [s for s, _ in fused(100)]
    # 50 hits read of a list that holds 100: long enough; of one that holds 99: not
    assert auto_rerank(REQ, one_long[:50], cites=False, held=100)[0] == "clause"
    assert auto_rerank(REQ, one_long[:50], cites=False, held=99)[0] == "off"


def test_a_deep_page_ranks_as_deep_and_returns_its_first_part():
    body = {"size": 10, "query": {"hybrid": {"queries": [{"match": {"text": "x"}},
                                                         {"knn": {"vector": {"vector": [0.1], "k": 10}}}]}}}
    page = deep_page(body, 100, 50)
    assert page["size"] == 50 and page["track_total_hits"] == 100
    assert page["query"]["hybrid"]["pagination_depth"] == 100  # normalised over what 100 hits see
    assert page["query"]["hybrid"]["queries"][1]["knn"]["vector"]["k"] == 100
    assert body["size"] == 10 and "pagination_depth" not in body["query"]["hybrid"]  # the plan's body untouched
    plain = deep_page({"size": 10, "query": {"knn": {"vector": {"vector": [0.1], "k": 10}}}}, 100, 50)
    assert plain["size"] == 50 and plain["query"]["knn"]["vector"]["k"] == 100 and "hybrid" not in plain["query"]


def test_a_response_names_the_reranker_that_ran():
    assert ran_reranker(REQ, {"c1": 0.3}) == "clause"
    assert ran_reranker(REQ, {}) is None
    assert ran_reranker(REQ.replace(rerank="off"), {}) is None
    assert ran_reranker(REQ.replace(rerank="e5"), {}) == "e5"


def test_resized_raises_every_knn_k_and_leaves_the_body_alone():
    body = {"size": 20, "_source": {"excludes": ["vector"]}, "query": {"hybrid": {"queries": [
        {"bool": {"must": [{"match": {"text": "q"}}]}},
        {"knn": {"vector": {"vector": [0.1], "k": 20, "method_parameters": {"ef_search": 100}}}},
        {"bool": {"should": [{"neural": {"vector": {"query_text": "q", "model_id": "m", "k": 30}}}]}}]}}}
    deeper = resized(body, 100)
    assert deeper["size"] == 100
    queries = deeper["query"]["hybrid"]["queries"]
    assert queries[1]["knn"]["vector"]["k"] == 100 and queries[2]["bool"]["should"][0]["neural"]["vector"]["k"] == 100
    assert queries[1]["knn"]["vector"]["method_parameters"] == {"ef_search": 100}
    assert body["size"] == 20 and body["query"]["hybrid"]["queries"][1]["knn"]["vector"]["k"] == 20
    assert resized({"size": 5, "query": {"knn": {"vector": {"vector": [0.1], "k": 500}}}}, 100)["query"]["knn"][
        "vector"]["k"] == 500  # never lowered


def test_the_ingest_embeds_ahead_the_clauses_of_long_documents_only():
    from types import SimpleNamespace

    from legalsearch.index.records import clause_text
    from legalsearch.ingest.run import clause_texts

    def doc(n):
        return SimpleNamespace(chunks=[SimpleNamespace(heading_path=("Book I", f"Article {i}"), text=f"text {i}")
                                       for i in range(n)])

    texts = clause_texts([doc(3), doc(100)], 100)
    assert len(texts) == 100 and texts[0] == "Book I > Article 0\ntext 0"
    assert texts[0] == clause_text({"heading_path": ["Book I", "Article 0"], "text": "text 0", "summary": "not this"})
    assert clause_texts([doc(100)], 0) == [] and clause_texts([doc(99)], 100) == []


NAMED = "Consider the NDA between Acme and Initech; how long do the obligations last?"


def test_the_names_are_looked_up_before_the_embedding_where_they_alone_decide():
    req = SearchRequest(query=NAMED)
    assert names_decide(req, "filter")
    assert not names_decide(req, "prior") and not names_decide(req, "boost")  # every document searched
    assert not names_decide(req.replace(routing_names="first"), "filter")  # ranked with the routing list
    assert not names_decide(req.replace(focus_named=False), "filter")
    # "auto" left off for a cited section: a name written like one still restricts the search
    cited = SearchRequest(query="What does clause 14.3 of the Initech NDA say?")
    assert names_decide(cited, "off")
    assert not names_decide(cited.replace(routing="off"), "off")
    assert not names_decide(SearchRequest(query="what does clause 14.3 say?"), "off")  # no name written as one


def test_only_a_question_focused_inside_one_named_document_skips_its_own_embedding():
    req = SearchRequest(query=NAMED)
    assert focus_alone(req, ["Initech"], ["nda-acme-initech:1"])
    assert not focus_alone(req, ["Initech"], ["a:1", "b:1"])  # named alike: by_topic reads the vector
    assert not focus_alone(req, [], [])
    assert not focus_alone(SearchRequest(query="Initech"), ["Initech"], ["a:1"])  # nothing left to focus on


def test_the_lexical_share_needs_the_question_in_the_shortlists_language():
    english = [{"chunk_id": f"c{i}", "doc_id": "a", "language": "en"} for i in range(3)]
    italian = [{**s, "language": "it"} for s in english]
    question = "Which party must pay the penalty when delivery is late under the agreement?"
    assert lexical_share(REQ, question, english) == AUTO_RERANK_LEXICAL == 0.2
    assert lexical_share(REQ, question, italian) == 0.0  # across languages a BM25 matches names only
    assert lexical_share(REQ, "Quale parte paga la penale se la consegna è in ritardo?", italian) == 0.2
    assert lexical_share(REQ, question, english[:1] + italian[1:]) == 0.0  # a shortlist in two languages
    assert lexical_share(REQ, question, []) == 0.0
    explicit = REQ.replace(rerank="clause", rerank_weight=0.6)
    assert lexical_share(explicit, question, english) == 0.0  # explicit methods: rerank_lexical, default 0
    assert lexical_share(explicit.replace(rerank_lexical=0.3), question, english) == 0.3


def test_an_explicit_blend_may_not_share_more_than_the_whole_order():
    with pytest.raises(ValidationError, match="exceed 1"):
        SearchRequest(query="q", rerank="clause", rerank_weight=0.9, rerank_lexical=0.2)
    assert SearchRequest(query="q", rerank_lexical=0.9).rerank.lexical == 0.9  # auto uses its own shares


def test_the_lexical_body_reads_the_chunk_text_in_its_language_and_returns_ids_only():
    body = lexical_body("late delivery penalty", ["c1", "c2"], "en")
    assert body["size"] == 2 and body["_source"] is False
    assert body["query"]["bool"]["must"] == [{"match": {"text": {"query": "late delivery penalty"}}}]
    assert body["query"]["bool"]["filter"] == [{"ids": {"values": ["c1", "c2"]}}]
    assert "text.it" in lexical_body("penale", ["c1"], "it")["query"]["bool"]["must"][0]["match"]
