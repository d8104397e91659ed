"""Round-2 retrieval on the Corvane corpus (evaluation/gold/round2): clause-title matching, the
routing prior over look-alike NDAs, the documents a question names, the routing profile (loose names), the enclosing unit of
"articolo 13.2", open doc_types, and the context builder. Real node, real MiniLM (and the auto choice)."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from legalsearch.query.models import SearchRequest

from tests.integration.conftest import ingested_index

pytestmark = pytest.mark.integration

CORPUS = Path(__file__).resolve().parents[2] / "evaluation" / "gold" / "round2" / "corpus"


@pytest.fixture(scope="module")
def corvane(store, run_ingest):
    # MiniLM (English-only), where the routing prior and the clause-title list show: `--embedder
    # auto` gives this mixed corpus e5 (test_auto_embedder_gives_the_mixed_corpus_e5)
    with ingested_index(store, run_ingest, "test-corvane", [CORPUS], embedder="minilm") as (name, _):
        yield name


def _search(service, index, query, **kw):
    return service.search(SearchRequest(query=query, index=index, expand_xrefs=False, **kw))


def _ranks(response, doc_id, *, section=None, heading=None):
    return [h.rank for h in response.hits if h.doc_id == doc_id
            and (section is None or h.section == section)
            and (heading is None or any(heading in p for p in h.heading_path))]


def test_open_doc_type_is_kept(service, corvane):
    res = _search(service, corvane, "burden of proof for independent development", doc_types=("judgment",))
    assert res.hits and {h.doc_id for h in res.hits} == {"judgment-halberd-v-quillfeather"}


def test_clause_title_list_lifts_the_unnumbered_governing_law_heading(service, corvane):
    # the SaaS agreement's GOVERNING LAW heading is unnumbered and its text never says "governing law"
    # the fused list itself (no second stage): inside this long agreement `rerank: auto` would re-read
    # the clauses alone, blended 0.7, and the title list's share with them (measured: rank 4)
    query = "Which law governs the Larchmont subscription agreement?"
    without = _ranks(_search(service, corvane, query, title_weight=0.0, rerank="off"), "saas-corvane-larchmont",
                     heading="GOVERNING LAW")
    with_titles = _ranks(_search(service, corvane, query, title_weight=0.3, rerank="off"), "saas-corvane-larchmont",
                         heading="GOVERNING LAW")
    assert with_titles and with_titles[0] <= 3, with_titles
    assert not without or with_titles[0] < without[0], (without, with_titles)


def test_routing_prior_puts_the_named_contract_first(service, corvane):
    # Tecnoluce art. 21 vs the same clause of the Dolomiti contract (routed second)
    query = "Quale legge regola il contratto di fornitura con Tecnoluce?"
    res = _search(service, corvane, query, routing_prior=0.5, title_weight=0.0, routing_names="off")
    assert res.routed_docs[0] == "contratto-fornitura-tecnoluce:1"
    assert res.hits[0].doc_id == "contratto-fornitura-tecnoluce"
    assert _ranks(res, "contratto-fornitura-tecnoluce", section="21")[0] <= 3
    # the other contract's clauses move down behind the named one's (which of art. 21 and art. 3
    # comes first depends on the CPU's int8 kernels: both were seen)
    flat = _search(service, corvane, query, routing_prior=0.0, title_weight=0.0, routing_names="off")
    assert _ranks(res, "contratto-servizi-dolomiti")[0] > _ranks(flat, "contratto-servizi-dolomiti")[0]


def test_look_alike_ndas_the_prior_moves_the_named_one_up(service, corvane):
    # five NDAs from one template: routing finds the Kestrel NDA, the prior moves its clauses up
    # one BM25 list over all documents (the corpus is mixed; per-language lists, the default, give
    # the Italian licence that carries "Kestrel" a list of its own: docs/results.md, round 6); the
    # lists disagree on the first NDA (BM25 reads the name, k-NN does not), so the prior is asked
    # for whatever the doubt (routing_unsure_prior; test_routing_doubt.py tests the doubt)
    query = "How long do the confidentiality obligations last under the NDA with Kestrel?"
    flat = _search(service, corvane, query, routing_prior=0.0, routing_names="off", routing_languages=False)
    prior = _search(service, corvane, query, routing_prior=1.0, routing_names="off", routing_languages=False,
                    routing_unsure_prior=1.0)
    assert prior.routed_docs[0] == "nda-corvane-kestrel:1"
    top6 = [r for r in _ranks(prior, "nda-corvane-kestrel") if r <= 6]
    assert len(top6) >= 4 and len(top6) > len([r for r in _ranks(flat, "nda-corvane-kestrel") if r <= 6])


def test_auto_embedder_gives_the_mixed_corpus_e5(run_ingest):
    from legalsearch.ingest import IngestOptions

    report = run_ingest([CORPUS], IngestOptions(index=f"test-auto-{uuid.uuid4().hex[:8]}", dry_run=True))
    options = report.summary()["options"]
    assert options["embedder"] == "e5" and options["embedder_choice"].startswith("auto: ")
    assert "'it'" in options["embedder_choice"]


def test_a_document_named_by_a_rare_word_is_the_only_one_routed(service, corvane):
    # five look-alike NDAs from one template: "Kestrel" is in one NDA's title and summary, and in
    # the opening of the licence with the same company (its defined name there); no other NDA
    query = "How long do the confidentiality obligations last under the NDA with Kestrel?"
    kestrel = ["nda-corvane-kestrel:1", "contratto-licenza-kestrel:1"]
    res = _search(service, corvane, query)
    assert res.routed_docs == kestrel
    assert {h.doc_id for h in res.hits} <= {"nda-corvane-kestrel", "contratto-licenza-kestrel"}
    assert res.hits[0].doc_id == "nda-corvane-kestrel"
    from legalsearch.query.explain import explain, render

    why = explain(service, SearchRequest(query=query, index=corvane, k=3, expand_xrefs=False))
    assert why["named_by"] == ["Kestrel"] and why["routed_docs"] == kestrel
    assert "named by: " in render(why)
    first = _search(service, corvane, query, routing_names="first")
    assert first.routed_docs[0] == "nda-corvane-kestrel:1" and len(first.routed_docs) == 3
    # in Italian, and by the counter-party's name only
    it = _search(service, corvane, "Quale legge regola il contratto di fornitura con Tecnoluce?")
    assert it.routed_docs == ["contratto-fornitura-tecnoluce:1"]
    assert "21" in [h.section for h in it.hits[:3]], [h.section for h in it.hits[:5]]
    # a question that names no document routes as before: the top 3 by title, parties and summary
    plain = _search(service, corvane, "How long do confidentiality obligations last?")
    assert len(plain.routed_docs) == 3 + 1  # one more place for the other language's list (round 6)
    assert plain.routed_docs == _search(service, corvane, "How long do confidentiality obligations last?",
                                        routing_names="off").routed_docs


def test_function_words_and_lower_case_words_name_no_document(service, corvane):
    # "Does", "get" and "our" are rare in this small corpus's titles and openings, but they are not
    # names; "Kestrel" is, and it names the licence (whose escrow clause answers) by its opening
    res = _search(service, corvane, "Does Kestrel get our source code if Corvane Italia goes bust?")
    assert "contratto-licenza-kestrel:1" in res.routed_docs
    # "giorni" and "pagamenti" are lower-case words, not names: nothing is named, routing as before
    query = "Entro quanti giorni va contestata una fattura secondo la legge britannica sui pagamenti commerciali?"
    assert (_search(service, corvane, query).routed_docs
            == _search(service, corvane, query, routing_names="off").routed_docs)


def test_the_clause_that_names_the_document_is_not_searched_inside_it(service, corvane):
    from legalsearch.query.explain import explain, render

    query = "Consider the supply contract with Tecnoluce; which law governs it?"
    why = explain(service, SearchRequest(query=query, index=corvane, k=5, expand_xrefs=False))
    assert why["routed_docs"] == ["contratto-fornitura-tecnoluce:1"]
    assert why["focused"] == "which law governs it?" and "searched inside it as: which law" in render(why)
    res = _search(service, corvane, query)
    assert {h.doc_id for h in res.hits} == {"contratto-fornitura-tecnoluce"}
    assert "21" in [h.section for h in res.hits[:3]], [h.section for h in res.hits[:5]]
    off = explain(service, SearchRequest(query=query, index=corvane, k=5, expand_xrefs=False, focus_named=False))
    assert off["focused"] is None and off["routed_docs"] == why["routed_docs"]


def test_profile_routes_by_a_short_name_the_title_lacks(store, service, corvane):
    from legalsearch.index import schema

    docs = store.search(schema.alias_name(corvane, "docs"),
                        {"size": 1, "_source": ["profile"], "query": {"term": {"doc_id": "contratto-licenza-kestrel"}}})
    profile = docs["hits"]["hits"][0]["_source"]["profile"]
    assert "Kestrel Robotics" in profile and "licenza" in profile
    res = _search(service, corvane, "our supply contract with Tecnoluce: when can we withdraw?")
    assert res.routed_docs[0] == "contratto-fornitura-tecnoluce:1"


def test_dotted_italian_article_finds_its_enclosing_unit(service, corvane):
    # the licence has no unit "13.2": comma 2 sits inside article 13 (the parent label list)
    res = _search(service, corvane, "Cosa prevede l'articolo 13.2?", doc_ids=("contratto-licenza-kestrel",), k=5)
    assert (res.hits[0].doc_id, res.hits[0].section) == ("contratto-licenza-kestrel", "13"), \
        [(h.doc_id, h.section) for h in res.hits]


def test_context_pieces_are_exact_slices_within_the_budget(service, corvane):
    from legalsearch.load import load_document

    budget = 3000
    query = "Quale legge regola il contratto di fornitura con Tecnoluce e quale foro è competente?"
    ctx = service.context(SearchRequest(query=query, index=corvane, routing_prior=0.5, title_weight=0.3), budget)
    assert not ctx.not_found and ctx.pieces
    assert ctx.used_chars <= budget
    texts = {}
    for path in CORPUS.glob("*.txt"):
        doc = load_document(path)
        texts[(doc.meta.doc_id, doc.meta.version)] = doc.text
    for piece in ctx.pieces:
        assert piece.citation and piece.parts
        text = texts[(piece.doc_id, piece.version)]
        for part in piece.parts:
            assert text[part.char_start:part.char_end] == part.text
        starts = [p.char_start for p in piece.parts]
        assert starts == sorted(starts)
    spans = sorted((p.doc_id, part.char_start, part.char_end) for p in ctx.pieces for part in p.parts)
    for (d1, _, e1), (d2, s2, _) in zip(spans, spans[1:], strict=False):
        assert d1 != d2 or s2 >= e1, "overlapping parts in the context"
    assert any(p.doc_id == "contratto-fornitura-tecnoluce" and "21" in p.sections for p in ctx.pieces)
    assert any(p.via == "definition" and p.term for p in ctx.pieces)  # defined terms the passages use
    assert ctx.prompt.count("[1]") == 1


def test_a_cited_section_is_looked_for_in_the_document_the_question_names(service, corvane):
    # routing steps aside for a cited section, unless the question names the document: then article
    # 13 of the Kestrel licence, not clause 13.2 of the SaaS agreement
    query = "articolo 13.2 licenza Kestrel"
    named = _search(service, corvane, query, k=5)
    assert set(named.routed_docs) == {"contratto-licenza-kestrel:1", "nda-corvane-kestrel:1"}
    assert (named.hits[0].doc_id, named.hits[0].section) == ("contratto-licenza-kestrel", "13")
    assert {h.doc_id for h in named.hits} <= {"contratto-licenza-kestrel", "nda-corvane-kestrel"}
    everywhere = _search(service, corvane, query, k=5, routing_names="off")
    assert not everywhere.routed_docs
    assert "saas-corvane-larchmont" in {h.doc_id for h in everywhere.hits}


def test_documents_named_alike_come_in_the_order_of_what_the_question_asks(service, corvane):
    # "Kestrel" names the NDA (title) and the licence (its opening) alike; the rest of the question
    # says which one is meant, and that one gets the larger routing prior
    licence = _search(service, corvane, "Does Kestrel have any exclusivity under its software licence?")
    assert licence.routed_docs == ["contratto-licenza-kestrel:1", "nda-corvane-kestrel:1"]
    nda = _search(service, corvane, "How long do the confidentiality obligations last under the NDA with Kestrel?")
    assert nda.routed_docs == ["nda-corvane-kestrel:1", "contratto-licenza-kestrel:1"]


def test_inside_the_one_named_document_the_names_are_not_searched(service, corvane):
    from legalsearch.query.explain import explain

    query = "How long does Larchmont have to settle a Corvane bill?"
    why = explain(service, SearchRequest(query=query, index=corvane, k=5, expand_xrefs=False))
    assert why["routed_docs"] == ["saas-corvane-larchmont:1"]
    assert "Larchmont" not in why["focused"] and "settle" in why["focused"]
