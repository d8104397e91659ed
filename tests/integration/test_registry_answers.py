"""The registry answers a search keeps across questions (legalsearch.query.registry), on the real
node: the next question about a named document asks the registry nothing, and a document ingested
afterwards is named at once (ingested by this process) or once the change marker is read again
(ingested by another process)."""

from __future__ import annotations

import pytest
from legalsearch.ingest import IngestOptions
from legalsearch.query import bodies
from legalsearch.query.models import SearchRequest
from legalsearch.query.service import SearchService

from tests.integration.conftest import ingested_index


def nda(first: str, second: str) -> str:
    return (f"MUTUAL NON-DISCLOSURE AGREEMENT\n\nThis Agreement is made between {first} and {second}.\n\n"
            "1. Confidential Information\nEach party shall keep the other party's confidential information secret.\n\n"
            "2. Term\nThe obligations of confidentiality last for five years after disclosure.\n\n"
            "3. Governing Law\nThis Agreement is governed by the laws of England.\n")


class Counting:
    """The store, counting the naming requests sent to the document registry (`named`)."""

    def __init__(self, store):
        self._store = store
        self.naming = 0

    def __getattr__(self, name):
        return getattr(self._store, name)

    def search(self, index, body, *args, **kw):
        text = str(body)
        if "df_" in text or str(bodies.NAMING_WORD_WEIGHT) in text:
            self.naming += 1
        return self._store.search(index, body, *args, **kw)


@pytest.fixture(scope="module")
def corpus(store, run_ingest, tmp_path_factory):
    folder = tmp_path_factory.mktemp("registry-answers")
    (folder / "nda-zephyrine-orbis.txt").write_text(nda("Zephyrine Ltd", "Orbis Corp"))
    for first, second in (("Halvorsen AS", "Mireille SA"), ("Tamsin Holdings", "Corvid Partners"),
                          ("Ulmbridge Ltd", "Pellucid Inc")):  # names a question's words are rare among
        (folder / f"nda-{first.split()[0].lower()}.txt").write_text(nda(first, second))
    with ingested_index(store, run_ingest, "test-registry", [folder], embedder="minilm",
                        public_if_no_acl=True) as (name, _):
        yield name, folder


def quiet(settings):
    return settings.model_copy(update={"log_searches": False})


def ask(service, index, query):
    return service.search(SearchRequest(query=query, index=index, k=5))


def add(run_ingest, corpus, filename: str, text: str) -> None:
    index, folder = corpus
    path = folder.parent / f"{folder.name}-{filename}"
    path.write_text(text)
    report = run_ingest([path], IngestOptions(index=index, embedder="minilm", public_if_no_acl=True))
    assert report.summary()["failed"] == 0


def test_the_next_question_about_a_named_document_asks_the_registry_nothing(settings, store, embedders, corpus):
    counting = Counting(store)
    service = SearchService(quiet(settings), counting, embedders)
    first = ask(service, corpus[0], "Consider the NDA between Zephyrine Ltd and Orbis Corp; how long does confidentiality last?")
    asked = counting.naming
    again = ask(service, corpus[0], "Consider the NDA between Zephyrine Ltd and Orbis Corp; which law governs it?")
    assert asked >= 2 and counting.naming == asked  # the words' counts and the naming search, kept
    assert first.routed_docs == again.routed_docs and len(first.routed_docs) == 1
    assert "zephyrine" in first.routed_docs[0].lower()
    cold = SearchService(quiet(settings), store, embedders)  # a service with nothing kept: the same answer
    assert [h.chunk_id for h in ask(cold, corpus[0], "Consider the NDA between Zephyrine Ltd and Orbis Corp; "
                                                    "which law governs it?").hits] == [h.chunk_id for h in again.hits]


def test_a_document_this_process_ingests_is_named_by_the_next_question(settings, store, embedders, run_ingest, corpus):
    service = SearchService(quiet(settings), store, embedders)
    question = "Consider the NDA between Quillfeather Srl and Lanternfish Ltd; how long does confidentiality last?"
    before = ask(service, corpus[0], question)
    assert not any("quillfeather" in key.lower() for key in before.routed_docs)
    add(run_ingest, corpus, "nda-quillfeather-orbis.txt", nda("Quillfeather Srl", "Lanternfish Ltd"))
    after = ask(service, corpus[0], question)  # at once: well within the marker's ttl
    assert len(after.routed_docs) == 1 and "quillfeather" in after.routed_docs[0].lower()


def test_a_document_another_process_ingests_is_named_once_the_marker_is_read(settings, store, embedders, run_ingest,
                                                                            corpus):
    def other_process(ttl: float) -> SearchService:
        service = SearchService(quiet(settings), store, embedders)
        service._registry.epoch = lambda: 0  # this process's ingests unseen, as in another process
        service._registry._epoch = 0
        service._registry.ttl = ttl
        return service

    def named(service: SearchService, question: str) -> list[str]:
        req = SearchRequest(query=question, index=corpus[0])
        return service.named(question, req.filters, service.target(corpus[0])[1], req.routing.docs)[1]

    reading, trusting = other_process(0.0), other_process(3600.0)
    question = "Consider the NDA between Brackwater GmbH and Osprey Mills; which law governs it?"
    for service in (reading, trusting):
        assert named(service, question) == []  # no document carries the names yet
    add(run_ingest, corpus, "nda-brackwater-orbis.txt", nda("Brackwater GmbH", "Osprey Mills"))
    after = ask(reading, corpus[0], question)  # the marker read again: one document more
    assert len(after.routed_docs) == 1 and "brackwater" in after.routed_docs[0].lower()
    assert [k for k in named(reading, question) if "brackwater" in k.lower()]
    # a process that trusts its marker for an hour still reads the counts it kept (what TARGET_TTL_S bounds)
    assert named(trusting, question) == []
