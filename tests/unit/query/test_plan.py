"""The routing prior and the other pure planning decisions (the BM25 text of a long question)."""

from __future__ import annotations

import pytest
from legalsearch.query.models import SearchRequest
from legalsearch.query.plan import (
    MAX_BM25_WORDS,
    apply_current_prior,
    apply_recitals_prior,
    apply_routing_prior,
    bm25_text,
    candidate_size,
    current_prior,
    focus_question,
    look_alikes,
    merge_named,
    naming_words,
    question_words,
    routing_agreed,
    routing_prior,
    unsure_prior,
)


def _src(key, cid):
    return {"doc_key": key, "chunk_id": cid}


def test_routing_prior_ranks_the_first_routed_documents_chunks_first():
    ranked = [(_src("b:1", "b1"), 0.9), (_src("a:1", "a1"), 0.7), (_src("c:1", "c1"), 0.65), (_src("a:1", "a2"), 0.2)]
    routed = ("a:1", "b:1", "c:1")
    # bonus: a +0.3 (3/3 x 0.3), b +0.2, c +0.1 -> a1 1.0, b1 1.1, c1 0.75, a2 0.5
    order = [s["chunk_id"] for s, _ in apply_routing_prior(ranked, routed, 0.3)]
    assert order == ["b1", "a1", "c1", "a2"]
    # a large weight puts the first document's chunks first: a1 0.7+3, a2 0.2+3, b1 0.9+2, c1 0.65+1
    assert [s["chunk_id"] for s, _ in apply_routing_prior(ranked, routed, 3.0)] == ["a1", "a2", "b1", "c1"]


def test_routing_prior_leaves_unrouted_documents_without_bonus_and_keeps_ties_in_fused_order():
    ranked = [(_src("x:1", "x1"), 0.5), (_src("y:1", "y1"), 0.5), (_src("a:1", "a1"), 0.1)]
    out = apply_routing_prior(ranked, ("a:1",), 0.5)
    assert [(s["chunk_id"], round(score, 3)) for s, score in out] == [("a1", 0.6), ("x1", 0.5), ("y1", 0.5)]
    assert apply_routing_prior(ranked, (), 0.5) == ranked
    assert apply_routing_prior(ranked, ("a:1",), 0.0) == ranked


def test_prior_weight_applies_to_filtered_and_prior_routing_only():
    req = SearchRequest(query="q", routing_prior=0.5, k=10)
    assert routing_prior(req, "filter", ("a", "b")) == 0.5
    assert routing_prior(req, "filter", ("a",)) == 0.0  # one document: nothing to prefer
    assert routing_prior(req, "prior", ("a",)) == 0.5   # all documents searched, "a" preferred
    assert routing_prior(req, "off", ()) == 0.0
    assert candidate_size(req, 0.5) == 20 and candidate_size(req, 0.0) == 10
    # a reranker's shortlist is the top half of the fused list, whatever k asks for
    reranked = req.replace(**{"rerank": "clause", "rerank_depth": 32})
    assert candidate_size(reranked, 0.0) == 64 and candidate_size(reranked.replace(**{"k": 100}), 0.5) == 200
    for other in ({"fusion": "rrf"}, {"mode": "bm25"}, {"normalization": "l2"}):  # not min-max fused scores
        assert routing_prior(req.replace(**other), "filter", ("a", "b")) == 0.0


def test_routing_agrees_only_when_its_first_document_is_first_in_every_list_and_by_subject():
    first_in_both, split = 2 / 61, 1 / 61 + 1 / 62  # rank constant 60: 1st+1st; 1st by BM25, 2nd by k-NN
    assert routing_agreed([first_in_both, split], 2, 60, "a", "a")
    assert routing_agreed([first_in_both, split], 2, 60, None, "a")  # no subject list: the two lists decide
    assert not routing_agreed([first_in_both, split], 2, 60, "b", "a")  # the subject list puts another first
    assert not routing_agreed([split, split], 2, 60, "a", "a")  # a tie: the engine's order picked the first
    assert not routing_agreed([1 / 62 + 1 / 63, 1 / 61 + 1 / 63], 2, 60, "a", "a")
    assert routing_agreed([1 / 61], 1, 60, None, "a")  # one list (no vector): first there
    assert routing_agreed([], 2, 60, "a", None)  # nothing routed: nothing to doubt


def test_unsure_routing_lowers_the_prior_to_its_own_weight_and_never_raises_it():
    req = SearchRequest(query="q", routing_prior=0.5)
    assert unsure_prior(req, 0.5, agreed=False) == 0.02  # the default: the chunks decide, the prior breaks ties
    assert unsure_prior(req, 0.5, agreed=True) == 0.5
    assert unsure_prior(req, 0.0, agreed=False) == 0.0  # no prior in this plan: none when unsure either
    assert unsure_prior(req.replace(**{"routing_unsure_prior": 2.0}), 0.5, agreed=False) == 0.5  # off


def test_look_alikes_are_documents_of_one_known_type_in_one_language():
    acts = {"a": ("statute", "en"), "b": ("statute", "en"), "c": ("statute", "it"), "n": ("nda", "en"),
            "u": (None, "en")}
    assert look_alikes(["a", "b"], acts)
    assert not look_alikes(["a"], acts)  # one document: nothing to tell apart
    assert not look_alikes(["a", "c"], acts)  # another language: BM25 scores of its chunks are not comparable
    assert not look_alikes(["a", "n"], acts)  # another kind of document
    assert not look_alikes(["a", "u"], acts) and not look_alikes(["a", "x"], acts)  # a kind not known


def test_an_ordinary_question_is_searched_as_it_is():
    question = "What is the liability cap in clause 14.3 of the MSA with Northwind?"
    assert bm25_text(question) == (question, None)


def test_a_long_question_keeps_its_first_distinct_words_within_the_clause_budget():
    words = [f"term{i}" for i in range(400)]
    question = "liability cap clause 14.3 " + " ".join(words + words)  # ~6,000 characters, words repeated
    assert len(question) > 5000
    text, warning = bm25_text(question)
    kept = text.split()
    assert len(kept) <= MAX_BM25_WORDS and len(set(k.lower() for k in kept)) == len(kept)
    assert kept[:4] == ["liability", "cap", "clause", "14.3"]  # identifiers stay whole
    assert warning and "BM25 searched its first" in warning and str(len(question)) in warning
    # the BM25 fields (more for routing) x the words kept stay under Lucene's 1024 clauses
    from legalsearch.query.bodies import BM25_FIELDS, ROUTING_FIELDS

    fields = max(len(BM25_FIELDS), len(ROUTING_FIELDS))
    assert fields * sum(max(1, len(k.split("."))) for k in kept) <= 1024 - 100


# ----------------------------------------------------------------- documents the question names

def test_question_words_cut_possessives_and_keep_order():
    words = question_words("Consider Seeed's Non-Disclosure Agreement; does Seeed's NDA allow copies? a")
    assert words == ["Consider", "Seeed", "Non-Disclosure", "Agreement", "NDA"]
    assert question_words("il contratto con Tecnoluce S.p.A.") == ["Tecnoluce", "S.p.A"]


@pytest.mark.parametrize("question, expected", [
    # function words that open a sentence are capitalised, not names
    ("Does Kestrel get our source code if Corvane Italia goes bust?", ["Kestrel", "Corvane", "Italia"]),
    ("What is our plan if Kestrel really copied our pose-estimation model?", ["Kestrel"]),
    # a name may open the question
    ("Officine Fabbri quanto ha pagato di canone iniziale?", ["Officine", "Fabbri"]),
    # lower-case words do not name, however rare a small corpus makes them
    ("Entro quanti giorni va contestata una fattura secondo la legge britannica sui pagamenti?", ["Entro"]),
    # an acronym that spells a function word is still an acronym, and so is a capitalised one
    # where no sentence starts (the "Keep" app)
    ("Is the US addendum in force?", ["US"]),
    ('Consider "Keep"\'s privacy policy; who can see my data?', ["Consider", "Keep"]),
    ("Keep: does it share my data?", []),
    # a question typed in one case keeps every word but the function words
    ("our nda with kestrel: when does it end", ["nda", "kestrel", "end"]),
    ("OUR NDA WITH KESTREL", ["NDA", "KESTREL"]),
    # digits mark identifiers ("KR-Vision 2" is a product; "2" alone is too short)
    ("Is the ISO27001 annex part of the contract?", ["ISO27001"]),
    # the words of citations never name, capitalised or not; an elided article is cut off
    ("art. 1751-bis c.c. contratto di agenzia", ["1751-bis", "contratto", "agenzia"]),
    ("Cosa prevede l'Art. 7 del contratto Tecnoluce dell'Agente?", ["Tecnoluce", "Agente"]),
    ("What does Section 12A of Schedule 2 say?", ["12A"]),
    # a percentage is an amount, not a name; a number that is not one stays
    ("What if the distributor's purchases fall more than 15% short of the target?", []),
    ("Se il fornitore aumenta i prezzi del 15 per cento, il distributore può andarsene?", []),
    ("Liability cap raised to 150 percent of the Fees under the 2019 Kestrel licence", ["Liability", "Fees", "2019", "Kestrel"]),
    # so is a number joined to its unit; an inserted article's Latin suffix stays a label
    ("My 15-year-old wants to use the garden App for a 16-week plan", ["App"]),
    ("Does Kestrel's 30-day notice apply?", ["Kestrel"]),
    ("Art. 8-bis del regolamento degli orti: a chi va il compost?", ["8-bis"]),
])
def test_question_words_keep_only_name_like_words(question, expected):
    assert question_words(question) == expected


def test_naming_words_are_rare_in_both_readings():
    df = {"Seeed": (1, 1), "the": (0, 40), "il": (12, 0), "Agreement": (95, 95), "allow": (30, 31),
          "Khronos": (2, 2), "missing": (0, 0), "Widget": (4, 4)}
    # 95 documents: at most max(2, routing's 3, 3 % of them) = 3 may carry a naming word
    assert naming_words(df, 95, 3) == ["Seeed", "Khronos"]
    # a routing of 4 documents lets a word four documents carry name them
    assert naming_words(df, 95, 4) == ["Seeed", "Khronos", "Widget"]
    # a tiny corpus still names by a word two documents share (two versions of one statute) ...
    assert naming_words({"Kestrel": (2, 2), "NDA": (5, 5)}, 6, 2) == ["Kestrel"]
    # ... or three (the NDA, the licence and the note about one counterparty), routing 3
    assert naming_words({"Kestrel": (3, 3), "NDA": (5, 5)}, 14, 3) == ["Kestrel"]
    # a word every document carries names none of them, even in a corpus of two
    assert naming_words({"Kestrel": (2, 2)}, 2, 3) == []


@pytest.mark.parametrize("mode, expected", [
    ("first", ["n1", "r1", "r2"]),
    ("only", ["n1"]),
    ("off", ["r1", "n1", "r2"]),
])
def test_merge_named(mode, expected):
    assert merge_named(["n1"], ["r1", "n1", "r2", "r3"], 3, mode) == expected
    assert merge_named([], ["r1", "r2"], 3, mode) == ["r1", "r2"]


@pytest.mark.parametrize("question, naming, expected", [
    ("Consider the Non-Disclosure Agreement between CEII and NDA; Does the document require notice?", ["CEII"],
     "Does the document require notice?"),
    ("Consider \"Fiverr\"'s privacy policy; who can see my data?", ["Fiverr"], "who can see my data?"),
    ("L'accordo di riservatezza con Kestrel: quale tribunale è competente?", ["Kestrel"],
     "quale tribunale è competente?"),
    # the naming word is the question's only clause: the clause stays, the name goes
    ("What law governs the Kestrel NDA?", ["Kestrel"], "What law governs the NDA?"),
    ("How long does Larchmont have to settle a Corvane bill?", ["Larchmont"],
     "How long does have to settle a Corvane bill?"),
    ("Can Kestrel's customers run it?", ["Kestrel"], "Can customers run it?"),
    ("Can the Kestrel Robotics people see it?", ["Kestrel", "Robotics"], "Can the people see it?"),
    # every clause names: the question whole (is "Target" a name or the question's subject?)
    ('Consider the Agreement between Parent "Acme" and Target "Tiffany"; What is the Target\'s warranty?',
     ["Acme", "Target", "Tiffany"],
     'Consider the Agreement between Parent "Acme" and Target "Tiffany"; What is the Target\'s warranty?'),
    # typed in one case, any rare word may have named: the question whole
    ("if we leak the price list, is our liability capped?", ["leak", "capped"],
     "if we leak the price list, is our liability capped?"),
    # nothing but names: the question whole
    ("Kestrel Robotics", ["Kestrel", "Robotics"], "Kestrel Robotics"),
    # no clause holds a naming word, or no word named anything: the question whole
    ("Governing law: which one applies?", ["Kestrel"], "Governing law: which one applies?"),
    ("Consider Seeed's NDA; does it allow copies?", [], "Consider Seeed's NDA; does it allow copies?"),
    # possessives name too, and every clause that names goes
    ("Consider Seeed's NDA; Seeed's copies: does it allow them?", ["Seeed"], "does it allow them?"),
])
def test_focus_question_drops_the_clauses_and_words_that_name_the_document(question, naming, expected):
    assert focus_question(question, naming) == expected


def test_text_not_in_force_ranks_below_todays_when_no_day_is_asked():
    def src(cid, valid_to=None, valid_from=None):
        return {"doc_key": cid, "chunk_id": cid, "valid_to": valid_to, "valid_from": valid_from}

    ranked = [(src("s21-2019", "2026-05-01"), 1.0), (src("s21-2026", None, "2026-05-01"), 0.8), (src("other"), 0.4),
              (src("s8-2019", "2026-05-01T00:00:00"), 0.3)]
    today = "2026-12-01"
    current = current_prior(SearchRequest(query="section 21", index="i"), today)
    assert current == (today, 0.5)
    order = [s["chunk_id"] for s, _ in apply_current_prior(ranked, current)]
    # 1.0 - 0.5 = 0.5: below today's text, above what is less relevant; still found
    assert order == ["s21-2026", "s21-2019", "other", "s8-2019"]
    # the day the old text ends, the new one starts; the day before, the new one is not yet in force
    assert [s["chunk_id"] for s, _ in apply_current_prior(ranked, ("2026-04-30", 0.5))] == [
        "s21-2019", "other", "s21-2026", "s8-2019"]  # 0.8 - 0.5 ties 0.3: the fused order decides
    assert [s["chunk_id"] for s, _ in apply_current_prior(ranked, ("2026-05-01", 0.5))] == order
    # a day asked (the filters keep one version), the prior off, or scores not in min-max units
    assert current_prior(SearchRequest(query="q", index="i", as_of="2020-01-01"), today) is None
    assert current_prior(SearchRequest(query="q", index="i", current_prior=0), today) is None
    assert current_prior(SearchRequest(query="q", index="i", fusion="rrf"), today) is None
    assert apply_current_prior(ranked, None) == ranked


# ----------------------------------------------------------------- what documents are about

def test_subject_text_holds_title_type_and_profile():
    from legalsearch.query.plan import subject_text

    text = subject_text({"title": "Informativa VellaFlow", "doc_type": "privacy_policy",
                         "profile": "privacy policy privacy notice informativa privacy\nMinori; Cookie"})
    assert text.splitlines() == ["Informativa VellaFlow", "privacy policy",
                                 "privacy policy privacy notice informativa privacy", "Minori; Cookie"]
    assert subject_text({"title": "Act"}) == "Act"  # no profile (an index built before profiles): the title


def test_the_subject_document_is_searched_in_one_more_place_never_taken_from_routing():
    from legalsearch.query.plan import with_subject

    routed = ["nda-a:1", "nda-b:1", "msa:1"]
    assert with_subject(routed, ["policy:1", "nda-a:1"]) == ["nda-a:1", "nda-b:1", "msa:1", "policy:1"]
    assert with_subject(routed, ["msa:1", "policy:1"]) == routed  # already routed: nothing moves
    assert with_subject(routed, []) == routed  # no subject list (engine-side embedding, a large registry)
    assert with_subject([], ["policy:1"]) == ["policy:1"]


def test_a_cited_label_gets_the_prior_only_to_choose_between_kinds_of_document():
    from legalsearch.query.plan import cited_prior_docs

    carrying = {"act:2019": "statute", "act:2026": "statute", "nda-a:1": "nda", "nda-b:1": "nda", "msa:1": "contract"}
    # the statute is the only one of its kind: it gets the prior, with its other version after it
    assert cited_prior_docs(["act:2026", "nda-a:1", "act:2019"], carrying) == ["act:2026", "act:2019"]
    assert cited_prior_docs(["msa:1", "lease:1"], carrying) == ["msa:1"]
    # routing's first document does not carry the label: the question is about it, citing another's section
    assert cited_prior_docs(["note:1", "msa:1"], carrying) == []
    # two NDAs carry the label: routing's subject ranking does not choose between look-alikes
    assert cited_prior_docs(["nda-b:1", "act:2026"], carrying) == []
    assert cited_prior_docs(["lease:1"], carrying) == []
    assert cited_prior_docs([], carrying) == []


# ----------------------------------------------------------------- the kind of document asked about (subject_kinds)

def test_the_kinds_a_question_asks_about_are_read_from_its_words_in_both_languages():
    from legalsearch.query.plan import question_kinds

    assert question_kinds("Nel contratto di distribuzione chi approva le pubblicità del distributore?") == ("contract",)
    assert question_kinds("Why was the Castel San Pietro lease signed before the board approved it?") == \
        ("contract", "board_minutes")
    assert question_kinds("Which deposit rules does the Act set before a section 21 notice?") == ("legislation",)
    assert question_kinds("Cosa dice l'informativa sui minori?") == ("privacy_policy",)
    assert question_kinds("Can my 12-year-old sign up for the walking app?") == ()
    assert question_kinds("Does the contractor act in good faith?") == ("legislation",)  # "act": a word, not a verb check


def test_subject_kinds_put_the_asked_kind_first_and_choose_the_subject_document_among_it():
    from legalsearch.query.plan import with_subject_kinds

    subjects = [("act:2021", "statute"), ("dist:1", "contract"), ("nda:1", "nda"), ("minutes:1", "board_minutes")]
    routed = ["memo:1", "dist:1", "nda:1"]
    # a contract asked about: the Act (best by subject overall) is not brought in; contracts first
    assert with_subject_kinds(routed, subjects, ("contract",)) == ["dist:1", "nda:1", "memo:1"]
    # the law asked about: the Act takes one more place, first of its kind and last of routing
    assert with_subject_kinds(routed, subjects, ("legislation",)) == ["memo:1", "dist:1", "nda:1", "act:2021"]
    # no kind asked: with_subject (the best by subject, when routing left it out)
    assert with_subject_kinds(routed, subjects, ()) == [*routed, "act:2021"]


def test_an_asked_kind_no_routed_document_is_of_takes_one_more_place():
    from legalsearch.query.plan import with_subject_kinds

    subjects = [("lease:1", "contract"), ("minutes:1", "board_minutes"), ("act:1", "statute")]
    assert with_subject_kinds(["lease:1"], subjects, ("contract", "board_minutes")) == ["lease:1", "minutes:1"]
    # a kind the corpus has no document of adds nothing
    assert with_subject_kinds(["lease:1"], subjects, ("contract", "judgment")) == ["lease:1"]
    assert with_subject_kinds([], [], ("contract",)) == []


# ----------------------------------------------------------------- places left open (open_places)

def test_open_places_apply_only_where_routing_restricts_the_search_and_never_take_every_place():
    from legalsearch.query.plan import open_places

    req = SearchRequest(query="q", k=10, open_places=3)
    assert open_places(req, "filter", ("a:1",)) == 3
    assert open_places(req, "filter", ()) == 0
    assert open_places(req, "off", ("a:1",)) == 0
    assert open_places(req, "prior", ("a:1",)) == 0
    assert open_places(SearchRequest(query="q", k=2, open_places=5), "filter", ("a:1",)) == 1
    assert open_places(SearchRequest(query="q"), "filter", ("a:1",)) == 0  # off by default
    assert candidate_size(req, 0.5, 3) == 40 and candidate_size(req, 0.5) == 20
    with pytest.raises(ValueError):
        SearchRequest(query="q", open_places=-1)


def test_open_places_go_to_the_best_remaining_chunks_by_fused_score_without_the_prior():
    from legalsearch.query.plan import apply_open_places

    ranked = [(_src("notice:1", "n1"), 0.95), (_src("a:1", "a1"), 0.6), (_src("b:1", "b1"), 0.5),
              (_src("a:1", "a2"), 0.3), (_src("a:1", "a3"), 0.2), (_src("notice:1", "n2"), 0.1)]
    routed = ("a:1", "b:1")
    # k 3, 1 open: the first 2 places are the routed chunks with the prior (a: +0.5, b: +0.25):
    # a1 1.1, a2 0.8 (b1 0.75 next); the last place and the rest by fused score alone: n1 0.95, b1 0.5 ...
    out = apply_open_places(ranked, routed, 0.5, 1, 3)
    assert [s["chunk_id"] for s, _ in out] == ["a1", "a2", "n1", "b1", "a3", "n2"]
    assert [round(score, 2) for _, score in out[:3]] == [1.1, 0.8, 0.95]
    # no place open: the routing prior over the list as it is
    assert apply_open_places(ranked, routed, 0.5, 0, 3) == apply_routing_prior(ranked, routed, 0.5)
    # an unrouted chunk never takes the first places, however high its fused score
    assert [s["chunk_id"] for s, _ in apply_open_places(ranked, routed, 0.0, 1, 3)][:2] == ["a1", "b1"]


def test_another_language_takes_the_last_places_of_the_top_k_and_never_one_of_the_first_seven():
    from legalsearch.query.plan import cross_language_places, language_places

    ranked = [(_src("a:1", f"a{i}"), 1.0 - i / 10) for i in range(6)]
    alone = [(_src("it:1", "i1"), 0.9), (_src("a:1", "a0"), 0.8), (_src("it:1", "i2"), 0.4), (_src("it:1", "i3"), 0.3)]
    out = language_places(ranked, alone, 2, 4)
    # the first k - 2 as ranked, then the best two of the other list not already there, then the rest
    assert [s["chunk_id"] for s, _ in out] == ["a0", "a1", "i1", "i2", "a2", "a3", "a4", "a5"]
    assert language_places(ranked, [], 2, 4) == ranked and language_places(ranked, alone, 0, 4) == ranked
    assert cross_language_places(SearchRequest(query="q")) == 3  # k 10: the last 3
    assert cross_language_places(SearchRequest(query="q", k=8)) == 1 and cross_language_places(SearchRequest(query="q", k=30)) == 3
    assert cross_language_places(SearchRequest(query="q", k=5)) == 0 and cross_language_places(SearchRequest(query="q", k=3)) == 0
    assert cross_language_places(SearchRequest(query="q", routing_cross_language=0)) == 0


def test_another_language_comes_after_the_first_place_when_the_subject_points_to_it():
    from legalsearch.query.plan import language_places, language_places_after

    ranked = [(_src("a:1", f"a{i}"), 1.0 - i / 10) for i in range(10)]
    alone = [(_src("it:1", "i1"), 0.95), (_src("a:1", "a0"), 0.9), (_src("it:1", "i2"), 0.4), (_src("it:1", "i3"), 0.3)]
    assert language_places_after(SearchRequest(query="q"), False) is None  # the last places
    after = language_places_after(SearchRequest(query="q"), True)
    assert after == 1 and language_places_after(SearchRequest(query="q", k=8), True) == 1
    out = [s["chunk_id"] for s, _ in language_places(ranked, alone, 3, 10, after)]
    # the first as ranked, then the best three of the other list not among them, then the rest
    assert out[:5] == ["a0", "i1", "i2", "i3", "a1"] and out[5:10] == ["a2", "a3", "a4", "a5", "a6"]
    assert len(out) == len(set(out)) == 13
    # after 2 (places 3-5): the first two as ranked
    assert [s["chunk_id"] for s, _ in language_places(ranked, alone, 3, 10, 2)][:5] == ["a0", "a1", "i1", "i2", "i3"]
    # `after` never pushes the places past the top k
    assert [s["chunk_id"] for s, _ in language_places(ranked, alone, 3, 4, 2)][:4] == ["a0", "i1", "i2", "i3"]


def test_the_chunks_another_language_placed_are_marked_copies():
    from legalsearch.query.plan import LANGUAGE_PLACE, language_places

    ranked = [(_src("a:1", f"a{i}"), 1.0 - i / 10) for i in range(4)]
    alone = [(_src("it:1", "i1"), 0.9), (_src("a:1", "a0"), 0.8)]
    out = language_places(ranked, alone, 2, 4, language="it")
    assert [(s["chunk_id"], s.get(LANGUAGE_PLACE)) for s, _ in out] == [
        ("a0", None), ("a1", None), ("i1", "it"), ("a2", None), ("a3", None)]
    assert LANGUAGE_PLACE not in alone[0][0]  # the engine's source is left as it was


def test_another_language_is_searched_over_the_documents_the_subject_list_puts_first_in_it():
    from legalsearch.query.plan import across_documents

    language = {"it-a": "it", "it-b": "it", "it-c": "it", "it-d": "it", "en-a": "en", "en-b": "en"}
    subjects = ["en-a", "it-c", "it-a", "en-b", "it-d", "it-b"]
    routed = ["en-b", "it-b", "en-a"]
    # the subject list's first 2 in Italian, then routing's Italian documents; never an English one
    assert across_documents(routed, subjects, language, "it", 2) == ("it-c", "it-a", "it-b")
    assert across_documents(routed, subjects, language, "it", 5) == ("it-c", "it-a", "it-d", "it-b")
    assert across_documents(routed, subjects, language, "en", 1) == ("en-a", "en-b")
    # no subject list: routing's documents, as routed (the plan keeps `routed`)
    assert across_documents(routed, [], language, "it", 3) == ()


def test_the_subject_points_to_a_language_whose_best_document_is_within_the_margin_of_the_first():
    from legalsearch.query.plan import subject_near

    scored = [(0.81, "it"), (0.80, "en"), (0.79, "it"), (0.70, "en")]
    assert subject_near(scored, "it", 0.0)  # the first is Italian
    assert subject_near(scored, "en", 0.02) and not subject_near(scored, "en", 0.005)
    assert not subject_near(scored, "fr", 0.5) and not subject_near([], "en", 0.02)


def test_an_official_number_type_and_day_make_two_documents_one_text_in_two_languages():
    from legalsearch.query.plan import edition, translations, without_translations

    en = edition({"doc_type": "regulation", "valid_from": "2027-03-01",
                  "title": "Regulation (EU) 2026/877 on the protection of consumers"})
    it = edition({"doc_type": "regulation", "valid_from": "2027-03-01",
                  "title": "Regolamento (UE) 2026/877 relativo alla tutela dei consumatori"})
    assert en[2] == frozenset({"2026/877"}) and translations(en, it)
    # another day in force (an amended text), another type, another number, or none at all: not one text
    assert not translations(en, (*it[:1], "2028-01-01", it[2]))
    assert not translations(en, ("statute", *it[1:]))
    assert not translations(en, edition({"doc_type": "regulation", "valid_from": "2027-03-01",
                                         "title": "Regolamento (UE) 2026/878"}))
    contract = edition({"doc_type": "contract", "valid_from": "2024-04-15", "title": "Contratto di fornitura ACME"})
    assert contract[2] == frozenset() and not translations(contract, contract) and not translations(None, en)
    # a date is no official number
    assert edition({"title": "Judgment of 14/03/2025"})[2] == frozenset()
    language_of = {"reg-en": "en", "reg-it": "it", "beta": "it", "nda": "en"}
    editions = {"reg-en": en, "reg-it": it, "beta": contract, "nda": None}
    # an English question routed to both texts: the Italian one is not searched again, the contract is
    assert without_translations(["reg-it", "beta"], ["reg-en", "nda"], language_of, "it", editions) == ("beta",)
    # the English text not routed: the Italian one is the only one searched
    assert without_translations(["reg-it", "beta"], ["nda"], language_of, "it", editions) == ("reg-it", "beta")


def test_the_recitals_prior_ranks_an_operative_clause_before_the_reasons_nearly_as_close():
    recital = {"chunk_id": "r", "heading_path": ["Whereas"]}
    italian = {"chunk_id": "i", "heading_path": ["considerando quanto segue"]}
    article = {"chunk_id": "a", "heading_path": ["Chapter II", "Article 8 – Right of withdrawal"]}
    other = {"chunk_id": "o", "heading_path": []}
    ranked = [(recital, 0.90), (italian, 0.88), (article, 0.85), (other, 0.50)]
    assert [s["chunk_id"] for s, _ in apply_recitals_prior(ranked, 0.1)] == ["a", "r", "i", "o"]
    assert [score for _, score in apply_recitals_prior(ranked, 0.1)] == pytest.approx([0.85, 0.80, 0.78, 0.50])
    assert apply_recitals_prior(ranked, 0.0) == ranked  # off
    far = [(recital, 0.99), (article, 0.60)]  # a recital far closer than any provision keeps its place
    assert [s["chunk_id"] for s, _ in apply_recitals_prior(far, 0.1)] == ["r", "a"]
    facts = {"chunk_id": "j", "heading_path": ["Background"], "doc_type": "judgment"}  # a judgment's facts
    assert apply_recitals_prior([(facts, 0.9), (article, 0.85)], 0.1) == [(facts, 0.9), (article, 0.85)]
