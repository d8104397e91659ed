"""The query side on the real node and the sample corpus: identifiers, conceptual and Italian
questions, validity dates, ACL in every mode and expansion, cross-references, RRF arithmetic."""

from __future__ import annotations

from datetime import date

import pytest
from legalsearch.index import indices
from legalsearch.query import expand, fusion
from legalsearch.query.models import Filters, SearchRequest

from tests.integration.conftest import logged, poll

MODES = ("hybrid", "bm25", "knn")


def ask(service, index, query, **kw):
    return service.search(SearchRequest(query=query, index=index, **kw))


def first(response):
    hit = response.hits[0]
    return hit.doc_id, hit.version, hit.section


def test_published_rrf_example_reproduced_by_the_pipeline(store, index_name):
    """Passages W, X, Y, Z with BM25 ranks 3, 1, -, 2 and embedding ranks 2, 5, 1, -.
    RRF (k=60): W = 1/(60+3) + 1/(60+2) = 0.03200, X = 1/(60+1) + 1/(60+5) = 0.03178,
    Y = 1/(60+1) = 0.01639, Z = 1/(60+2) = 0.01613. The published order W, X, Z, Y puts Z before
    Y, which no rank constant allows (1/(k+1) > 1/(k+2)); the arithmetic order W, X, Y, Z is what
    the pipeline must return."""
    store.create_index(index_name, {
        "settings": {"index": {"knn": True, "number_of_shards": 1}},
        "mappings": {"properties": {"text": {"type": "text"}, "vector": {
            "type": "knn_vector", "dimension": 2,
            "method": {"name": "hnsw", "engine": "lucene", "space_type": "cosinesimil"}}}},
    })
    docs = {  # BM25 order for "notice period": X (3 hits, short), Z, W; F1/F2 never match
        "X": ("notice period notice period notice", [0.2, 0.98]),
        "Z": ("notice period for the tenant to leave", [-1.0, 0.0]),
        "W": ("the landlord must give a notice of two months before the end of the period of the lease", [0.8, 0.6]),
        "Y": ("possession order by the court", [1.0, 0.0]),
        "F1": ("rent arrears ground", [0.7, 0.71]),
        "F2": ("deposit protection scheme", [0.6, 0.8]),
    }
    store.bulk([{"_index": index_name, "_id": k, "text": t, "vector": v} for k, (t, v) in docs.items()],
               refresh="wait_for")
    bm25 = {"match": {"text": "notice period"}}
    knn = {"knn": {"vector": {"vector": [1.0, 0.05], "k": 6}}}
    ranks = [[h["_id"] for h in store.search(index_name, {"size": 10, "query": q})["hits"]["hits"]]
             for q in (bm25, knn)]
    assert ranks[0] == ["X", "Z", "W"]
    assert ranks[1][:5] == ["Y", "W", "F1", "F2", "X"]
    name = fusion.rrf_pipeline_name(60)
    store.put_search_pipeline(name, fusion.rrf_pipeline_body(60))
    fused = store.search(index_name, {"size": 4, "query": {"hybrid": {"queries": [bm25, knn]}}}, pipeline=name)
    assert [h["_id"] for h in fused["hits"]["hits"]] == ["W", "X", "Y", "Z"]
    assert fused["hits"]["hits"][0]["_score"] == pytest.approx(1 / 63 + 1 / 62, abs=1e-6)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the liability cap in clause 14.3?", ("msa-acme-northwind", "1", "14.3")),
        ("Housing Act 1988 section 21 notice requirements", ("housing-act-1988", "2019", "21")),
        ("s.21A compliance conditions", ("housing-act-1988", "2019", "21A")),
    ],
)
def test_identifier_queries_return_the_section_first(service, sample_index, query, expected):
    response = ask(service, sample_index[0], query, as_of=date(2025, 6, 1))
    assert first(response) == expected


def test_clause_14_3_beats_14_2_in_every_mode_with_identifiers(service, sample_index):
    for mode, fusion_name in (("hybrid", "normalization"), ("hybrid", "rrf"), ("bm25", "normalization")):
        response = ask(service, sample_index[0], "What is the liability cap in clause 14.3?", mode=mode,
                       fusion=fusion_name)
        assert response.hits[0].section == "14.3", (mode, fusion_name)
    assert "clause 14.3" in ask(service, sample_index[0], "clause 14.3").identifiers


def test_conceptual_question_finds_section_21_before_repeal(service, sample_index):
    response = ask(service, sample_index[0], "Can a landlord end a tenancy without giving a reason?",
                   as_of=date(2025, 6, 1), k=3)
    assert ("housing-act-1988", "2019", "21") in [(h.doc_id, h.version, h.section) for h in response.hits[:2]]


def test_as_of_before_and_after_the_repeal_returns_different_versions(service, sample_index):
    query = "section 21 notice requiring possession of an assured shorthold tenancy"
    before = ask(service, sample_index[0], query, as_of=date(2026, 4, 30))
    after = ask(service, sample_index[0], query, as_of=date(2026, 5, 1))
    assert {h.version for h in before.hits if h.doc_id == "housing-act-1988"} == {"2019"}
    assert {h.version for h in after.hits if h.doc_id == "housing-act-1988"} == {"2026"}
    assert before.hits[0].section == after.hits[0].section == "21"
    assert before.hits[0].text != after.hits[0].text  # the repealed text differs


@pytest.mark.parametrize("day, first_version", [("2026-12-01", "2026"), ("2026-04-30", "2019")])
def test_with_no_day_asked_the_text_in_force_today_ranks_first(service, sample_index, monkeypatch, day, first_version):
    from legalsearch.query import service as service_module

    monkeypatch.setattr(service_module, "today", lambda: day)
    query = "section 21 notice requiring possession of an assured shorthold tenancy"
    response = ask(service, sample_index[0], query, k=8)
    versions = [h.version for h in response.hits if h.doc_id == "housing-act-1988" and h.via == "retrieval"]
    assert versions[0] == first_version, versions
    # the other version is still found where it ranks, and the response says it is not in force
    other = "2019" if first_version == "2026" else "2026"
    noted = [w for w in response.warnings if "not in force" in w]
    assert bool(noted) == (other in versions), (versions, response.warnings)
    if noted:
        assert f"housing-act-1988 {other}" in noted[0]
    # on the eve of the repeal the prior moves the 2026 text (not yet in force) down the list
    if day == "2026-04-30":
        flat = ask(service, sample_index[0], query, k=8, current_prior=0.0)
        flat_versions = [h.version for h in flat.hits if h.doc_id == "housing-act-1988" and h.via == "retrieval"]
        assert "2026" in flat_versions, flat_versions
        assert flat_versions.index("2026") < (versions.index("2026") if "2026" in versions else len(versions))


def test_italian_withdrawal_returns_art_5_then_art_7_through_its_reference(service, sample_index):
    response = ask(service, sample_index[0], "recesso dal contratto di fornitura", k=1,
                   doc_ids=("contratto-fornitura-acme",))
    art5, art7 = response.hits[0], response.hits[1]
    assert (art5.section, art5.via) == ("5", "retrieval")
    assert art7.section == "7" and art7.via == f"xref:{art5.chunk_id}"
    assert "Penale" in art7.citation and art5.citation.startswith("Contratto di fornitura ACME-Fornitore v2.1, Art. 5")


def test_added_clauses_follow_the_retrieved_hits_unless_asked_inline(service, sample_index):
    query, msa = "What is excluded from the liability cap?", ("msa-acme-northwind",)
    end = ask(service, sample_index[0], query, k=3, doc_ids=msa)
    # the k retrieved hits hold the first k places; what they cite follows, each naming its citer
    assert [h.via for h in end.hits[:3]] == ["retrieval"] * 3
    added = end.hits[3:]
    assert added and all(h.via.startswith("xref:") for h in added)
    assert {h.via.removeprefix("xref:") for h in added} <= {h.chunk_id for h in end.hits[:3]}
    inline = ask(service, sample_index[0], query, k=3, doc_ids=msa, expand_placement="inline")
    assert sorted(h.chunk_id for h in inline.hits) == sorted(h.chunk_id for h in end.hits)
    # inline, a clause follows the hit that cites it
    for before, hit in zip(inline.hits, inline.hits[1:], strict=False):
        if hit.via.startswith("xref:") and before.via == "retrieval":
            assert hit.via == f"xref:{before.chunk_id}"
    assert [h.rank for h in end.hits] == list(range(1, len(end.hits) + 1))


def test_italian_question_without_filters(service, sample_index):
    response = ask(service, sample_index[0], "Come può il cliente recedere dal contratto e quale penale si applica?",
                   k=3)
    # the question asks two things: withdrawal (art. 5) and the penalty (art. 7), both in the top 3
    # (since the round-2 routing profile, art. 7 of one contract may come first)
    top = [(h.section, h.language) for h in response.hits if h.via == "retrieval"][:3]
    assert ("5", "it") in top and ("7", "it") in top, top


PRIVILEGED = "privileged-note-litigation"


@pytest.mark.parametrize("mode", MODES)
def test_privileged_note_never_reaches_a_caller_without_the_group(service, sample_index, mode):
    for query in ("settlement strategy on the liability cap", "litigation privileged note", "clause 14.3"):
        response = ask(service, sample_index[0], query, mode=mode, k=50, expand_definitions=True)
        assert PRIVILEGED not in {h.doc_id for h in response.hits}, (mode, query)
    allowed = ask(service, sample_index[0], "settlement strategy on the liability cap", mode=mode, k=5,
                  groups=("litigation-team",))
    assert PRIVILEGED in {h.doc_id for h in allowed.hits}


def test_expansion_applies_the_acl_too(store, service, sample_index):
    """A hit pointing (by xref or by definition) at a privileged chunk does not bring it back."""
    name = indices.all_live(store, sample_index[0])  # the public index and the walls
    secret = store.search(name, {"size": 1, "query": {"term": {"doc_id": PRIVILEGED}}})["hits"]["hits"][0]["_id"]
    public = store.search(name, {"size": 1, "query": {"term": {"doc_id": "msa-acme-northwind"}}})["hits"]["hits"][0]
    hit = dict(public["_source"], xref_chunk_ids=[secret], definition_chunk_ids=[secret],
               xrefs=[{"raw": "clause 99", "target": "99", "external": False, "resolved_chunk_ids": [secret]}])
    for groups, visible in (((), False), (("litigation-team",), True)):
        result = expand.expand(store, name, [hit], Filters(groups=groups), xrefs=True, definitions=True)
        assert (secret in {src["chunk_id"] for src, _ in result.ordered}) is visible
        assert bool(result.unfollowed) is not visible


def test_near_identical_ndas_are_told_apart_by_routing(service, sample_index):
    response = ask(service, sample_index[0], "How long does confidentiality last in the NDA with Initech?",
                   routing="filter", routing_docs=1, k=3)
    assert {h.doc_id for h in response.hits} == {response.routed_docs[0].split(":")[0]}
    assert "initech" in response.routed_docs[0]


def test_a_cited_section_of_no_named_document_prefers_the_document_of_the_question_subject(service, sample_index):
    # "section 21" is a label of the Housing Act and of other documents' clauses; the question names no
    # document, so every document is searched, and the one whose subject it asks about gets the prior
    index = sample_index[0]
    q = "Which deposit rules must a landlord have complied with before serving a section 21 notice?"
    on = service.plan(SearchRequest(query=q, index=index))
    assert on.routing == "prior" and on.prior == 0.5 and not on.filters.doc_keys
    assert on.routed and {key.split(":")[0] for key in on.routed} == {"housing-act-1988"}
    off = service.plan(SearchRequest(query=q, index=index, routing_cited=False))
    assert off.routing == "off" and off.routed == () and off.prior == 0.0
    assert ask(service, index, q, expand_xrefs=False).hits[0].doc_id == "housing-act-1988"
    # two look-alike Italian contracts carry "art. 5": the prior does not choose between them
    alike = service.plan(SearchRequest(query="art. 5 recesso: cosa succede alle penali già maturate?", index=index))
    assert alike.routing == "off" and alike.routed == ()
    # a label no document carries gives no prior (and nothing restricted)
    none = service.plan(SearchRequest(query="What does clause 77.9 of the contract say about landlords?", index=index))
    assert none.routing == "off" and none.routed == ()


def test_the_subject_list_ranks_documents_by_what_they_cover(service, sample_index):
    # no name, no clause title: what the question is about is in the statute's outline (its profile),
    # not in its title, parties or summary
    index = sample_index[0]
    req = SearchRequest(query="When can a landlord take back possession of a rented home?", index=index)
    plan = service.plan(req)
    subjects = service.subject_ranking(req, plan.vector, req.filters, plan.docs_index, 3)
    assert subjects and subjects[0].startswith("housing-act-1988")
    assert service.subject_ranking(req.model_copy(update={"routing": req.routing.model_copy(
        update={"subjects": False})}), plan.vector, req.filters, plan.docs_index, 3) == []
    assert service.subject_ranking(req, None, req.filters, plan.docs_index, 3) == []  # engine-side embedding


def test_not_found_with_a_reason(service, sample_index):
    response = ask(service, sample_index[0], "termination", jurisdictions=("FR",))
    assert response.not_found and response.hits == [] and "filters" in response.not_found_reason


def test_normalization_fusion_and_explain(service, sample_index):
    response = ask(service, sample_index[0], "What is the liability cap in clause 14.3?", fusion="normalization")
    assert response.pipeline.startswith("legalsearch-norm-v1") and response.hits[0].section == "14.3"
    from legalsearch.query.explain import explain

    result = explain(service, SearchRequest(query="liability cap clause 14.3", index=sample_index[0], k=3, fusion="rrf"))
    top = result["hits"][0]
    assert result["lists"] == ["bm25", "knn", "identifier", "title"]  # "liability cap" names a clause topic
    assert top["scores"]["identifier"]["normalized"] == pytest.approx(1 / (60 + 1)) and top["bm25_explanation"]
    normalized = explain(service, SearchRequest(query="liability cap clause 14.3", index=sample_index[0], k=3))
    assert normalized["pipeline"].startswith("legalsearch-norm-v1") and normalized["normalization"] == "min_max"
    assert normalized["hits"][0]["scores"]["identifier"]["normalized"] == 1.0


def test_e5_rerank_reports_latency(service, sample_index):
    response = ask(service, sample_index[0], "limitation of liability cap", rerank="e5", k=3)
    assert response.rerank == "e5" and response.timings_ms["rerank"] > 0
    assert response.hits[0].score is not None
    assert all(h.score is None for h in response.hits if h.via != "retrieval")


def test_clause_rescorer_reads_the_clause_without_the_summary(service, embedders, sample_index):
    """rerank "clause" alone orders the shortlist by the index embedder's cosine between the
    question and heading path + text (no document summary); the score shown is that cosine."""
    from legalsearch.query.rerank import clause_text

    index = sample_index[0]
    response = ask(service, index, "how much notice must the landlord give", rerank="clause", rerank_depth=10, k=10,
                   expand_xrefs=False, doc_ids=("housing-act-1988",))
    scores = [h.score for h in response.hits]
    assert response.rerank == "clause" and scores == sorted(scores, reverse=True)
    embedder = embedders.for_index(service.index_meta(index))
    top = response.hits[0]
    direct = float(embedder.embed_passages([clause_text({"heading_path": top.heading_path, "text": top.text})])[0]
                   @ embedder.embed_query("how much notice must the landlord give"))
    assert top.score == pytest.approx(direct, abs=1e-4)


def test_blended_rerank_reorders_the_same_shortlist_with_the_reranker_score(service, sample_index):
    """A blend (weight < 1) reorders the same shortlist, and each hit shows the reranker's own score
    (the blend arithmetic is tested in tests/unit/query/test_rerank.py)."""
    index, query, one = sample_index[0], "termination for breach and the notice required", ("msa-acme-northwind",)
    alone = ask(service, index, query, rerank="e5+clause", rerank_depth=10, k=10, expand_xrefs=False, doc_ids=one)
    blend = ask(service, index, query, rerank="e5+clause", rerank_depth=10, k=10, expand_xrefs=False,
                rerank_weight=0.5, doc_ids=one)
    fused = ask(service, index, query, k=10, expand_xrefs=False, doc_ids=one, candidates=20)
    assert blend.timings_ms["rerank"] > 0 and not blend.warnings
    ids = [h.chunk_id for h in blend.hits]
    assert sorted(ids) == sorted(h.chunk_id for h in alone.hits) == sorted(h.chunk_id for h in fused.hits)
    by_id = {h.chunk_id: h.score for h in alone.hits}
    assert all(h.score == pytest.approx(by_id[h.chunk_id]) for h in blend.hits)


def test_a_question_citing_a_clause_keeps_the_first_stage_order_under_a_reranker(service, sample_index):
    question = "What is the liability cap in clause 14.3?"
    plain = ask(service, sample_index[0], question, k=5, expand_xrefs=False, candidates=64)  # the same fused list
    reranked = ask(service, sample_index[0], question, k=5, expand_xrefs=False, rerank="e5+clause",
                   rerank_weight=0.8, rerank_depth=32)
    assert [h.chunk_id for h in reranked.hits] == [h.chunk_id for h in plain.hits]
    assert reranked.hits[0].section == "14.3" and "rerank" not in reranked.timings_ms
    assert any("cites clause 14.3" in w and "first-stage order" in w for w in reranked.warnings)


def test_clause_rescorers_leave_a_shortlist_of_several_documents_alone(service, sample_index):
    """The clause alone says nothing of which document it is in: across documents the clause
    rescorers keep the first-stage order and say so; the e5 passage rescorer (summary included)
    still reorders."""
    index, query = sample_index[0], "termination for breach and the notice required"
    fused = ask(service, index, query, k=10, expand_xrefs=False, candidates=64, routing="off")
    assert len({h.doc_id for h in fused.hits}) > 1
    clause = ask(service, index, query, k=10, expand_xrefs=False, rerank="clause", rerank_depth=32, routing="off")
    assert [h.chunk_id for h in clause.hits] == [h.chunk_id for h in fused.hits]
    assert any("several documents" in w for w in clause.warnings) and "rerank" not in clause.timings_ms
    e5 = ask(service, index, query, k=10, expand_xrefs=False, rerank="e5", rerank_depth=32, routing="off")
    assert e5.timings_ms["rerank"] > 0 and not any("several documents" in w for w in e5.warnings)


def test_warm_rerank_embeds_every_chunk_into_an_empty_cache(settings, store, embedders, sample_index, tmp_path):
    from legalsearch.embed.cache import text_key
    from legalsearch.errors import ConfigError
    from legalsearch.query.rerank import clause_text
    from legalsearch.query.service import SearchService

    service = SearchService(settings.model_copy(update={"log_searches": False, "cache_dir": tmp_path}), store, embedders)
    index = sample_index[0]
    embedder = embedders.for_index(service.index_meta(index))
    sources = [h["_source"] for h in store.scan(index, {"match_all": {}}, ["heading_path", "text"])]
    keys = list({text_key(clause_text(s)) for s in sources})
    cache = service.rerankers._cache
    assert not cache.get_many(embedder.cache_key, keys)  # empty before
    result = service.warm_rerank(index, "clause")
    assert result["chunks"] == len(sources) > 100
    assert set(cache.get_many(embedder.cache_key, keys)) == set(keys)
    with pytest.raises(ConfigError, match="bi-encoder"):
        service.warm_rerank(index, "cross-encoder")


def test_retrieval_log_record(settings, store, embedders, sample_index, index_name):
    from legalsearch.query.service import SearchService

    logging_service = SearchService(settings.model_copy(update={"log_index": index_name + "-log"}), store, embedders)
    response = logging_service.search(SearchRequest(query="clause 14.3", index=sample_index[0], k=2))
    log_index = index_name + "-log"

    def written():  # the record lands after the search returns (a background writer)
        return logged(store, log_index, store.search, {"match_all": {}})

    records = poll(written, "the retrieval log record")
    assert logging_service.retrieval_log.flush() and len(written()) == 1
    rec = records[0]["_source"]
    assert rec["hit_chunk_ids"] == [h.chunk_id for h in response.hits]
    assert rec["identifiers"] == ["clause 14.3"] and rec["took_ms"]["total"] > 0
    store.delete_index(index_name + "-log")
