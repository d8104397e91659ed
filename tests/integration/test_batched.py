"""The batched path (`Store.msearch`: routing's ranking and subject profiles, expansion and
relevance's cosines, each in one `_msearch` with the fusion pipeline inline) returns exactly what
one search per request returned (`Store.search`, the pipeline named): the same hits, in the same
order, with the same relevance, for questions that route by name, by ranking, cite a section,
expand references and read Italian. On the sample corpus, real node, real models."""

from __future__ import annotations

import pytest
from legalsearch.query.models import SearchRequest
from legalsearch.query.service import SearchService

QUESTIONS = [
    "How many days' notice does a landlord have to give under section 21?",
    "What is the liability cap in clause 14.3?",
    "Does Kestrel have any exclusivity under its software licence?",
    "Entro quanti giorni si può recedere dal contratto?",
    "What happens to confidential information when the NDA ends?",
    "Can my child sign up for the app?",
]


class OneByOne:
    """The store, with `msearch` answered by one `search` per sub-request (its pipeline installed
    and named): the requests as they were sent before batching."""

    def __init__(self, store, pipelines):
        self._store = store
        self._pipelines = pipelines

    def __getattr__(self, name):
        return getattr(self._store, name)

    def msearch(self, requests, refused="raise"):
        answers = []
        for index, body, pipeline in requests:
            name = self._pipelines.ensure(f"plan27-test-batched-{abs(hash(str(pipeline)))}", pipeline) if pipeline else None
            answers.append(self._store.search(index, body, pipeline=name))
        return answers


@pytest.fixture(scope="module")
def services(settings, store, embedders):
    quiet = settings.model_copy(update={"log_searches": False})
    batched = SearchService(quiet, store, embedders)
    single = SearchService(quiet, store, embedders)
    single.store = OneByOne(store, single.pipelines)
    return batched, single


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_batched_path_returns_exactly_the_hits_of_one_search_per_request(services, sample_index, question):
    batched, single = services
    req = SearchRequest(query=question, index=sample_index[0], k=5)
    got, want = batched.search(req), single.search(req)
    assert [(h.chunk_id, h.via, h.relevance, h.fused_score) for h in got.hits] == \
        [(h.chunk_id, h.via, h.relevance, h.fused_score) for h in want.hits]
    assert got.hits and got.routed_docs == want.routed_docs and got.not_found == want.not_found
