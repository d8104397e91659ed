"""The default second stage (`rerank: auto`) on the real node and models: inside one long document
the fused list is searched again twice the depth deep and reordered by the clause rescorer, whose
clause embeddings the ingest put in the cache ahead; a list over short documents is left exactly as
fused (the same hits as `rerank: off`)."""

from __future__ import annotations

import pytest
from legalsearch.embed.cache import EmbeddingCache, text_key
from legalsearch.index.records import clause_text
from legalsearch.query import bodies
from legalsearch.query.models import SearchRequest

from tests.integration.conftest import ingested_index

TOPICS = [  # one short article per topic, cycled: a statute of 120 articles with captions above them
    ("Good Faith", "Every party must exercise its rights and perform its duties in good faith."),
    ("Capacity", "A minor may not conclude a contract without the consent of a legal representative."),
    ("Deposits", "A landlord who takes a deposit must protect it in an approved scheme within thirty days."),
    ("Notice", "A notice to end a tenancy must be in writing and give at least two months."),
    ("Damages", "A party in breach must compensate the loss that was foreseeable when the contract was made."),
    ("Prescription", "A claim is extinguished if it is not exercised within ten years."),
]


@pytest.fixture(scope="module")
def long_statute(store, run_ingest, tmp_path_factory):
    folder = tmp_path_factory.mktemp("long-statute")
    articles = []
    for n in range(1, 121):
        caption, text = TOPICS[n % len(TOPICS)]
        articles.append(f"({caption})\nArticle {n}  {text} This rule applies to case {n} of the Code.")
    (folder / "code-of-testland.txt").write_text("The Civil Code of Testland\n\n" + "\n".join(articles) + "\n")
    with ingested_index(store, run_ingest, "test-auto-rerank", [folder], embedder="minilm",
                        public_if_no_acl=True) as found:
        yield found


def ask(service, index, query, **kw):
    return service.search(SearchRequest(query=query, index=index, k=10, expand_xrefs=False, **kw))


def test_the_ingest_embeds_the_clauses_of_a_long_document_ahead(settings, embedders, store, long_statute):
    index, report = long_statute
    summary = report.summary()
    assert summary["chunks"] >= 100 and summary["options"]["clauses_embedded"] == summary["chunks"]
    sources = [h["_source"] for page in store.stream(index, {"match_all": {}}, 500, ["heading_path", "text"])
               for h in page]
    cache = EmbeddingCache(settings.cache_dir / "embeddings.sqlite")
    try:
        key = embedders.get("minilm").cache_key
        found = cache.get_many(key, [text_key(clause_text(s)) for s in sources])
    finally:
        cache.close()
    assert len(found) == len({clause_text(s) for s in sources})  # what the rescorer reads is all there


def test_inside_one_long_document_the_default_is_the_clause_rescorer_over_the_deeper_list(service, long_statute):
    index = long_statute[0]
    question = "Within how long must a landlord protect the deposit?"
    default = ask(service, index, question)
    assert default.rerank == "clause" and default.timings_ms["rerank"] > 0
    assert "search_deeper" not in default.timings_ms  # routed to its one document: in the first round trip
    explicit = ask(service, index, question, rerank="clause", rerank_weight=0.7, rerank_lexical=0.2, rerank_depth=50)
    assert [h.chunk_id for h in default.hits] == [h.chunk_id for h in explicit.hits]
    assert [h.rerank_score for h in default.hits] == pytest.approx([h.rerank_score for h in explicit.hits])
    off = ask(service, index, question, rerank="off")
    assert off.rerank is None and "search_deeper" not in off.timings_ms and "rerank" not in off.timings_ms


def test_the_lexical_share_reads_the_chunk_text_alone(service, long_statute):
    index = long_statute[0]
    plan = service.plan(SearchRequest(query="deposit scheme", index=index, k=10))
    everyone = [source for source, _ in service.run(plan, bodies.resized(plan.body, 100))]
    deposits = [s for s in everyone if "deposit" in s["text"]][:3]
    others = [s for s in everyone if "deposit" not in s["text"] and "scheme" not in s["text"]][:3]
    assert len(deposits) == len(others) == 3
    scores = service.lexical_scores(plan, "deposit scheme", deposits + others)
    assert all(score > 0 for score in scores[:3]) and scores[3:] == [0.0, 0.0, 0.0]
    # the document's title is in every chunk's summary (embedded_text), not in its text: a word of it
    # alone scores nothing there, the words of the text do
    minors = [s for s in everyone if "minor may not" in s["text"]][:2]
    assert len(minors) == 2 and not any("Testland" in s["text"] for s in minors)
    assert service.lexical_scores(plan, "Testland", minors) == [0.0, 0.0]
    assert all(score > 0 for score in service.lexical_scores(plan, "minor consent", minors))


def test_a_question_citing_an_article_keeps_the_fused_order(service, long_statute):
    index = long_statute[0]
    cited = ask(service, index, "What does Article 40 say about notice?")
    assert cited.rerank is None and "search_deeper" not in cited.timings_ms
    assert cited.hits[0].section == "40"


def test_short_documents_keep_the_fused_list_exactly(service, sample_index):
    index = sample_index[0]
    for question in ("termination for breach and the notice required", "Who owns the confidential information?",
                     "Quali clausole sono state approvate specificamente per iscritto?"):
        default, off = ask(service, index, question), ask(service, index, question, rerank="off")
        assert default.rerank is None and "rerank" not in default.timings_ms
        assert [h.chunk_id for h in default.hits] == [h.chunk_id for h in off.hits]
        assert [h.score for h in default.hits] == pytest.approx([h.score for h in off.hits])


def test_a_question_routed_to_one_short_document_is_searched_once(service, sample_index):
    index = sample_index[0]
    question = "In the NDA with Initech, how long do the confidentiality obligations last?"
    plan = service.plan(SearchRequest(query=question, index=index, k=10, expand_xrefs=False))
    assert plan.routing == "filter" and len(plan.routed) == 1  # routed by its name, to one document
    counted, deeper, visible = service.run_counting(plan, 100, deeper=True)
    assert 0 < visible < 100  # the NDA's chunks (fewer than the deeper list's size)
    # the deeper list's first half comes back (the NDA's best 50 chunks), and how many it holds
    assert len(deeper.hits) == min(visible, 50) and deeper.held == visible
    assert service.run_counting(plan, 100)[1] is None
    plain = service.run(plan)  # the same list as the named pipeline gives, with the count beside it
    assert [s["chunk_id"] for s, _ in counted] == [s["chunk_id"] for s, _ in plain]
    assert [score for _, score in counted] == pytest.approx([score for _, score in plain])
    default, off = ask(service, index, question), ask(service, index, question, rerank="off")
    assert "search_deeper" not in default.timings_ms and default.rerank is None
    assert "embed" not in default.timings_ms and default.timings_ms["embed_focused"] > 0  # focused text only
    assert [h.chunk_id for h in default.hits] == [h.chunk_id for h in off.hits]


def test_a_question_routed_to_one_long_document_still_gets_the_deeper_list(service, long_statute):
    index = long_statute[0]
    plan = service.plan(SearchRequest(query="Within how long must a landlord protect the deposit?", index=index, k=10))
    assert plan.routing == "filter" and len(plan.routed) == 1  # the index's one document
    first, deeper, visible = service.run_counting(plan, 100, deeper=True)
    assert visible == 100  # counted up to the deeper list's size: long enough
    # the first half of the 100-deep list, ranked (and scored) exactly as the whole list ranks it
    whole = service.run(plan, bodies.resized(plan.body, 100))
    assert deeper.held == 100 and [s["chunk_id"] for s, _ in deeper.hits] == [s["chunk_id"] for s, _ in whole[:50]]
    assert [score for _, score in deeper.hits] == pytest.approx([score for _, score in whole[:50]])
    assert [s["chunk_id"] for s, _ in first] == [s["chunk_id"] for s, _ in service.run(plan)]
    default = ask(service, index, "Within how long must a landlord protect the deposit?")
    # the deeper list came in the first search's round trip, and the clause rescorer read it
    assert default.rerank == "clause" and "search_deeper" not in default.timings_ms


@pytest.fixture(scope="module")
def repealed_statute(store, run_ingest, tmp_path_factory):
    folder = tmp_path_factory.mktemp("repealed-statute")
    articles = [f"({caption})\nArticle {n}  {text} This rule applied to case {n} of the old Code."
                for n in range(1, 121) for caption, text in [TOPICS[n % len(TOPICS)]]]
    (folder / "old-code-of-testland.txt").write_text("The Old Civil Code of Testland\n\n" + "\n".join(articles) + "\n")
    (folder / "old-code-of-testland.meta.json").write_text(
        '{"title": "The Old Civil Code of Testland", "doc_type": "statute", "valid_from": "2010-01-01", '
        '"valid_to": "2020-01-01", "public": true}')
    with ingested_index(store, run_ingest, "test-auto-rerank-old", [folder], embedder="minilm") as found:
        yield found


def test_a_deeper_list_of_text_no_longer_in_force_is_read_whole(service, repealed_statute):
    """The current prior moves text not in force today down the list, so the deeper list's first half
    may need a later hit: where one of its chunks is not in force, the whole list is asked for, and
    what the search reads is still the whole list's first half, in its order."""
    index = repealed_statute[0]
    plan = service.plan(SearchRequest(query="Within how long must a landlord protect the deposit?", index=index, k=10))
    assert plan.current and plan.routing == "filter" and len(plan.routed) == 1
    _, deeper, visible = service.run_counting(plan, 100, deeper=True)
    whole = service.run(plan, bodies.resized(plan.body, 100))
    assert visible == deeper.held == 100 and len(whole) == 100
    assert [s["chunk_id"] for s, _ in deeper.hits] == [s["chunk_id"] for s, _ in whole[:50]]
    assert [score for _, score in deeper.hits] == pytest.approx([score for _, score in whole[:50]])
    assert ask(service, index, "Within how long must a landlord protect the deposit?").rerank == "clause"


def _searches(service, monkeypatch):
    """Every search body the service sends from now on (searches and msearch sub-requests), in order."""
    sent = []
    search, msearch = service.store.search, service.store.msearch

    def one(index, body, *args, **kw):
        sent.append(body)
        return search(index, body, *args, **kw)

    def many(requests, *args, **kw):
        sent.extend(body for _, body, _ in requests)
        return msearch(requests, *args, **kw)

    monkeypatch.setattr(service.store, "search", one)
    monkeypatch.setattr(service.store, "msearch", many)
    return sent


def test_a_document_whose_length_routing_read_is_searched_as_deep_as_it_can_be(service, sample_index, long_statute,
                                                                              monkeypatch):
    """The registry's chunk count, read with the document's name: a short NDA gets its one list (no
    deeper list, no count), a long statute its deeper list and count only (no first list); each the
    same hits as without it."""
    nda = "In the NDA with Initech, how long do the confidentiality obligations last?"
    before = ask(service, sample_index[0], nda)  # its name looked up (and its chunk count with it)
    sent = _searches(service, monkeypatch)
    again = ask(service, sample_index[0], nda)
    ranking = [b for b in sent if "hybrid" in b.get("query", {})]
    assert len(ranking) == 1 and ranking[0]["size"] < 50 and not any(b.get("size") == 0 for b in sent)
    assert [h.chunk_id for h in again.hits] == [h.chunk_id for h in before.hits]
    question = "Within how long must a landlord protect the deposit?"
    first = ask(service, long_statute[0], question)  # routing reads the statute's record (its chunk count)
    sent.clear()
    second = ask(service, long_statute[0], question)
    lists = [b for b in sent if "hybrid" in b.get("query", {}) and b["size"] >= 10]  # not routing's own
    assert [b["size"] for b in lists] == [50] and lists[0]["query"]["hybrid"]["pagination_depth"] == 100
    assert first.rerank == second.rerank == "clause"
    assert [h.chunk_id for h in second.hits] == [h.chunk_id for h in first.hits]
