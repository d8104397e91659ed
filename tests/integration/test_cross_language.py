"""A question in one language about a document in the other (the sample corpus holds English and
Italian contracts): a routed document's language searched alone beside the fused search, whose best
chunks take the last places of the top k, or places 2-4 when the question's subject points to a
document in that language (`routing_cross_language`), against the real node and the real
multilingual model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from legalsearch.query.models import SearchRequest

from tests.integration.conftest import ingested_index

BETA = "contratto-servizi-beta"
PAIR = Path(__file__).parent / "data" / "one-text-two-languages"  # one regulation, in English and in Italian


@pytest.fixture(scope="module")
def pair_index(store, run_ingest):
    with ingested_index(store, run_ingest, "test-pair", [PAIR], embedder="e5") as found:
        yield found[0]


def _search(service, index: str, query: str, **kw):
    return service.search(SearchRequest(query=query, index=index, k=10, **kw))


def test_an_italian_question_gets_the_english_documents_its_subject_points_to_from_the_second_place(service, sample_index):
    # "How long does the confidentiality obligation last?": routing keeps an Italian contract first and
    # two English NDAs, and the subject list (the question's vector against each document's profile)
    # has an English NDA first
    q = "Quanto dura l'obbligo di riservatezza?"
    req = SearchRequest(query=q, index=sample_index[0], k=10)
    plan = service.plan(req)
    assert plan.across and plan.across[0] == "en" and plan.across_after == 1
    on, off = service.search(req), _search(service, sample_index[0], q, routing_cross_language=0)
    assert on.routed_docs == off.routed_docs and on.routed_docs[0].startswith(BETA)
    assert on.hits[0].chunk_id == off.hits[0].chunk_id  # the first as it was
    # places 2-4: the routed NDAs, searched in English alone, which the fused list ranked lower
    assert all(h.language == "en" and h.doc_id.startswith("nda-acme-") for h in on.hits[1:4])
    assert [h.rank for h in on.hits if h.language_place] == [2, 3, 4] and on.hits[1].language_place == "en"
    placed = {h.chunk_id for h in on.hits[1:4]}  # then the fused list's next, less what was placed
    assert [h.chunk_id for h in on.hits[4:7]] == [h.chunk_id for h in off.hits[1:] if h.chunk_id not in placed][:3]
    assert not any(h.language_place for h in off.hits)
    assert not any(h.doc_id.startswith("nda-acme-") for h in off.hits[:5])
    # routing_cross_language_subject off: the same routing, and the last places
    last = _search(service, sample_index[0], q, routing_cross_language_subject=False)
    assert last.routed_docs == on.routed_docs
    assert [h.chunk_id for h in last.hits[:7]] == [h.chunk_id for h in off.hits[:7]]
    english = {h.doc_id for h in last.hits[7:10]}
    assert english and all(doc.startswith("nda-acme-") for doc in english)
    assert sum(h.doc_id.startswith("nda-acme-") for h in last.hits[:10]) > sum(h.doc_id.startswith("nda-acme-")
                                                                            for h in off.hits[:10])
    # and without the subject list (routing_subjects off) there is nothing to point to
    assert service.plan(req.replace(routing_subjects=False)).across_after is None


def test_a_routed_document_in_the_other_language_takes_the_last_places_of_the_top_k(service, sample_index):
    q = "Who owns the intellectual property created under the services agreement?"
    on, off = _search(service, sample_index[0], q), _search(service, sample_index[0], q, routing_cross_language=0)
    assert BETA in {key.split(":")[0] for key in on.routed_docs[1:]}  # routed, not first
    # the subject list points to the English agreement the question names by its kind: the last places
    assert service.plan(SearchRequest(query=q, index=sample_index[0], k=10)).across_after is None
    assert [h.chunk_id for h in on.hits[:7]] == [h.chunk_id for h in off.hits[:7]]  # the first places as they were
    assert [h.doc_id for h in on.hits[7:10]] == [BETA] * 3
    assert BETA not in {h.doc_id for h in off.hits[:10]}
    # never one of the first 7: k 8 gives the Italian contract its last place, k 5 none
    eight = service.search(SearchRequest(query=q, index=sample_index[0], k=8))
    assert [h.chunk_id for h in eight.hits[:7]] == [h.chunk_id for h in off.hits[:7]] and eight.hits[7].doc_id == BETA
    five = service.search(SearchRequest(query=q, index=sample_index[0], k=5))
    assert BETA not in {h.doc_id for h in five.hits[:5]}



def test_the_other_language_is_searched_over_the_documents_the_question_is_about_even_unrouted(service, sample_index):
    # "May the landlord evict me without a reason when the lease ends?": routing's BM25 reads the
    # Italian words, keeps the Italian contracts and, for English, the MSA and an NDA; the subject
    # list (multilingual, the question's vector against each document's profile) has the Housing Act
    # first of the English documents, second overall
    q = "Il padrone di casa può sfrattarmi senza un motivo alla fine del contratto di locazione?"
    req = SearchRequest(query=q, index=sample_index[0], k=10)
    plan = service.plan(req)
    assert plan.across and plan.across[0] == "en"
    assert not any(key.startswith("housing-act-1988") for key in plan.routed)
    assert plan.across_docs[0].startswith("housing-act-1988")
    # the Act is within routing_cross_language_margin (0.02) of the subject list's first, an Italian
    # contract: the question's subject points to it, and its places are 2-4
    on, off = service.search(req), _search(service, sample_index[0], q, routing_cross_language=0)
    places = [h for h in on.hits[:10] if h.language_place]
    assert [h.rank for h in places] == [2, 3, 4] and all(h.doc_id == "housing-act-1988" for h in places)
    assert on.hits[0].chunk_id == off.hits[0].chunk_id
    # with no margin the first must be in that language: the last places
    strict = _search(service, sample_index[0], q, routing_cross_language_margin=0)
    places = [h for h in strict.hits[:10] if h.language_place]
    assert [h.rank for h in places] == [8, 9, 10] and all(h.doc_id == "housing-act-1988" for h in places)
    assert [h.chunk_id for h in strict.hits[:7]] == [h.chunk_id for h in off.hits[:7]]


def test_another_language_routing_left_out_takes_the_last_places_when_the_subject_points_near_it(service, sample_index):
    # "Can our vendor of electronic components raise its prices during the year?": routing keeps four
    # English documents (the MSA, its amendment, two NDAs); the Italian supply contract, whose Art. 4
    # lets the supplier update its price list, is within routing_cross_language_margin of the subject
    # list's first. Routing's own judgement keeps the first places: the Italian search takes the last
    q = "Can our vendor of electronic components raise its prices during the year?"
    req = SearchRequest(query=q, index=sample_index[0], k=10)
    plan = service.plan(req)
    assert plan.routed and all(not key.startswith(("contratto-", "informativa-")) for key in plan.routed)
    assert plan.across and plan.across[0] == "it" and plan.across_after is None
    assert "contratto-fornitura-acme" in {key.split(":")[0] for key in plan.across_docs}
    on, off = service.search(req), _search(service, sample_index[0], q, routing_cross_language_unrouted=False)
    assert on.routed_docs == off.routed_docs
    assert [h.chunk_id for h in on.hits[:7]] == [h.chunk_id for h in off.hits[:7]]
    assert [h.rank for h in on.hits if h.language_place] == [8, 9, 10]
    assert all(h.language == "it" and h.language_place == "it" for h in on.hits[7:10])
    assert ("contratto-fornitura-acme", "4") in {(h.doc_id, h.section) for h in on.hits[7:10]}
    assert not any(h.language == "it" for h in off.hits[:10])
    # with no margin the subject list's first (English) decides: nothing is searched in Italian
    assert service.plan(req.replace(routing_cross_language_margin=0)).across is None


def test_one_text_in_two_languages_is_not_searched_again_in_the_other(service, pair_index):
    # Regulation (EU) 2027/112 in English and in Italian (same type, same day in force, the number in
    # both titles): routing keeps both, and the Italian text of the articles an English question
    # asks about is the same text; searched alone it would take the last places from English ones
    q = "How long must the manufacturer keep spare parts available for professional repairers?"
    req = SearchRequest(query=q, index=pair_index, k=10)
    plan = service.plan(req)
    assert {key.split(":")[0] for key in plan.routed} == {"reg-eu-2027-112-en", "reg-eu-2027-112-it"}
    assert plan.across is None and plan.across_docs == ()
    both = req.replace(routing_cross_language_translations=False)
    assert service.plan(both).across[0] == "it"
    on, off = service.search(req), service.search(both)
    assert not any(h.language_place for h in on.hits)
    assert [h.rank for h in off.hits if h.language_place] == [8, 9, 10]
    assert [h.chunk_id for h in on.hits[:7]] == [h.chunk_id for h in off.hits[:7]]
    # and the other way round
    it = SearchRequest(query="Per quanto tempo il fabbricante deve riparare un elettrodomestico?", index=pair_index, k=10)
    assert service.plan(it).across is None
    assert service.plan(it.replace(routing_cross_language_translations=False)).across[0] == "en"


def test_the_other_languages_search_reads_the_glossarys_words_for_the_questions_terms(service, sample_index):
    # "What law governs the Acme supply contract and which court has jurisdiction?": routing keeps the
    # MSA first and the Italian supply contract, whose Art. 11 (Legge applicabile) and Art. 12 (Foro
    # competente) answer; a BM25 over Italian text matches none of the English words but "Acme"
    q = "What law governs the Acme supply contract and which court has jurisdiction?"
    req = SearchRequest(query=q, index=sample_index[0], k=10)
    plan = service.plan(req)
    assert plan.across and plan.across[0] == "it"
    body = json.dumps(plan.across[1])
    assert all(word in body for word in ("legge", "tribunale", "giudice"))  # the glossary's Italian words
    assert plan.glossary[0] == "it" and {"legge", "tribunale", "giudice"} <= set(plan.glossary[1])
    plain = service.plan(req.replace(routing_cross_language_glossary=False))
    assert plain.glossary is None
    # without it, and in the fused search (the question as written), no such word
    assert not any(word in json.dumps(b) for b in (plain.across[1], plan.body) for word in ("tribunale", "giudice"))
    on, off = service.search(req), _search(service, sample_index[0], q, routing_cross_language_glossary=False)
    assert on.hits[0].chunk_id == off.hits[0].chunk_id
    placed = [(h.doc_id, h.section) for h in on.hits if h.language_place]
    assert set(placed[:2]) == {("contratto-fornitura-acme", "11"), ("contratto-fornitura-acme", "12")}
    # the question's words alone: the penalty clause, not the governing-law and court ones, comes first of them
    assert set([(h.doc_id, h.section) for h in off.hits if h.language_place][:2]) != set(placed[:2])


def test_the_one_named_document_in_the_other_language_is_searched_with_the_glossarys_words_too(service, sample_index):
    # "What are the supplier's obligations in the Beta contract?" names one Italian contract, whose
    # Art. 3 is "Obblighi del Fornitore": the English words match none of it (the glossary's first two
    # Italian words for "supplier" and "obligations" are "fornitura", "forniture", "obbligazione", "obbligazioni")
    q = "What are the supplier's obligations in the Beta contract?"
    req = SearchRequest(query=q, index=sample_index[0], k=10)
    plan = service.plan(req)
    assert [key.split(":")[0] for key in plan.routed] == [BETA] and plan.across is None
    assert plan.glossary == ("it", ("fornitura", "forniture", "obbligazione", "obbligazioni", "contratto", "contratti"))
    off_plan = service.plan(req.replace(routing_cross_language_glossary=False))
    assert all(word in json.dumps(plan.body) for word in ("fornitura", "obbligazioni"))
    assert not any(word in json.dumps(off_plan.body) for word in ("fornitura", "obbligazioni"))
    on, off = service.search(req), service.search(req.replace(routing_cross_language_glossary=False))

    def rank(response):
        return next(h.rank for h in response.hits if (h.doc_id, h.section) == (BETA, "3"))

    assert rank(on) < rank(off) and rank(on) <= 2
    # a document in the question's own language: the question as written
    english = service.plan(SearchRequest(query="What are the supplier's obligations in the Acme Globex NDA?",
                                         index=sample_index[0], k=10))
    assert not any(word in json.dumps(english.body) for word in ("fornitura", "obbligazioni"))
    assert english.glossary is None
