"""A question in one language about a document in the other (the sample corpus holds English and
Italian contracts): a routed document's language searched alone beside the fused search, whose best
chunks take the last places of the top k (`routing_cross_language`), against the real node and the
real multilingual model."""

from __future__ import annotations

from legalsearch.query.models import SearchRequest

BETA = "contratto-servizi-beta"


def _search(service, index: str, query: str, **kw):
    return service.search(SearchRequest(query=query, index=index, k=10, **kw))


def test_an_italian_question_gets_the_english_documents_routing_kept_in_the_last_places(service, sample_index):
    q = "Quanto dura l'obbligo di riservatezza?"
    on, off = _search(service, sample_index[0], q), _search(service, sample_index[0], q, routing_cross_language=0)
    english = {h.doc_id for h in on.hits[7:10]}
    assert on.routed_docs == off.routed_docs and on.routed_docs[0].startswith(BETA)
    assert [h.chunk_id for h in on.hits[:7]] == [h.chunk_id for h in off.hits[:7]]
    # the last three places: the routed NDAs, searched in English alone, which the fused list ranked lower
    assert english and all(doc.startswith("nda-acme-") for doc in english)
    assert sum(h.doc_id.startswith("nda-acme-") for h in on.hits[:10]) > sum(h.doc_id.startswith("nda-acme-")
                                                                          for h in off.hits[:10])


def test_a_routed_document_in_the_other_language_takes_the_last_places_of_the_top_k(service, sample_index):
    q = "Who owns the intellectual property created under the services agreement?"
    on, off = _search(service, sample_index[0], q), _search(service, sample_index[0], q, routing_cross_language=0)
    assert BETA in {key.split(":")[0] for key in on.routed_docs[1:]}  # routed, not first
    assert [h.chunk_id for h in on.hits[:7]] == [h.chunk_id for h in off.hits[:7]]  # the first places as they were
    assert [h.doc_id for h in on.hits[7:10]] == [BETA] * 3
    assert BETA not in {h.doc_id for h in off.hits[:10]}
    # never one of the first 7: k 8 gives the Italian contract its last place, k 5 none
    eight = service.search(SearchRequest(query=q, index=sample_index[0], k=8))
    assert [h.chunk_id for h in eight.hits[:7]] == [h.chunk_id for h in off.hits[:7]] and eight.hits[7].doc_id == BETA
    five = service.search(SearchRequest(query=q, index=sample_index[0], k=5))
    assert BETA not in {h.doc_id for h in five.hits[:5]}
