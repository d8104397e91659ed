"""A question in one language about a document in the other (the sample corpus holds English and
Italian contracts): the routed document's language searched alone beside the fused search
(`routing_cross_language`), against the real node and the real multilingual model."""

from __future__ import annotations

from legalsearch.query.models import SearchRequest

BETA = "contratto-servizi-beta"


def _search(service, index: str, query: str, **kw):
    return service.search(SearchRequest(query=query, index=index, k=10, **kw))


def test_an_english_question_routed_first_to_an_italian_contract_gets_its_clauses(service, sample_index):
    q = "Within how many hours must the maintenance provider take charge of an urgent repair at the data centre?"
    on, off = _search(service, sample_index[0], q), _search(service, sample_index[0], q, routing_cross_language=0)
    assert on.routed_docs[0].startswith(BETA) and off.routed_docs == on.routed_docs
    beta_on = sum(h.doc_id == BETA for h in on.hits[:10])
    beta_off = sum(h.doc_id == BETA for h in off.hits[:10])
    # fused against English clauses, the Italian contract's own clauses lose places a BM25 gives English ones
    assert beta_on > beta_off and beta_on == 10


def test_a_routed_document_in_the_other_language_takes_the_last_places_of_the_top_k(service, sample_index):
    q = "Who owns the intellectual property created under the services agreement?"
    on, off = _search(service, sample_index[0], q), _search(service, sample_index[0], q, routing_cross_language=0)
    assert BETA in {key.split(":")[0] for key in on.routed_docs[1:]}  # routed, not first
    assert [h.chunk_id for h in on.hits[:7]] == [h.chunk_id for h in off.hits[:7]]  # the first places as they were
    assert [h.doc_id for h in on.hits[7:10]] == [BETA] * 3
    assert BETA not in {h.doc_id for h in off.hits[:10]}
    # a third of k at most: k 5 keeps 4 places as they were, the last for the Italian contract
    five = service.search(SearchRequest(query=q, index=sample_index[0], k=5))
    assert [h.chunk_id for h in five.hits[:4]] == [h.chunk_id for h in off.hits[:4]] and five.hits[4].doc_id == BETA
