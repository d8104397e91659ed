"""Cross-references, defined terms, clause labels and the 1341-1342 c.c. double signature."""

from __future__ import annotations

import pytest
from legalsearch.parse import (
    double_signature,
    extract_definitions,
    extract_references,
    label_clauses,
    unresolved_refs,
)
from sample_corpus import by_section


def refs_of(chunk, target):
    return [r for r in chunk.xrefs if r.target == target]


def test_italian_art_5_points_to_art_7_chunks(chunks):
    acme = chunks["contratto-fornitura-acme.txt"]
    [art5], art7 = by_section(acme, "5"), by_section(acme, "7")
    [ref] = refs_of(art5, "7")
    assert (ref.raw, ref.kind, ref.external, ref.resolved_section) == ("art. 7", "article", False, "7")
    assert ref.resolved_chunk_ids == [c.chunk_id for c in art7]
    assert ref.char_start == art5.char_start + art5.text.index("art. 7")


def test_civil_code_articles_stay_external(chunks):
    approval = next(c for c in chunks["contratto-fornitura-acme.txt"] if "1341" in c.text)
    external = [r for r in approval.xrefs if r.external]
    assert [(r.target, r.code, r.raw) for r in external] == [
        ("1341", "c.c.", "artt. 1341 e 1342 c.c."), ("1342", "c.c.", "artt. 1341 e 1342 c.c.")]
    assert all(r.resolved_chunk_ids == [] and r.resolved_section is None for r in external)
    [art7] = by_section(chunks["contratto-fornitura-acme.txt"], "7")
    assert {(r.target, r.code) for r in art7.xrefs if r.external} == {("1382", "c.c."), ("1456", "c.c.")}


def test_allegato_b_and_comma_references_resolve(chunks):
    beta = chunks["contratto-servizi-beta.txt"]
    [allegato_b] = by_section(beta, "B")
    [art4] = by_section(beta, "4")
    [ref_b] = refs_of(art4, "B")
    assert (ref_b.kind, ref_b.resolved_chunk_ids) == ("annex", [allegato_b.chunk_id])
    [art7] = by_section(beta, "7")
    [ref] = refs_of(art7, "3(2)")  # "art. 3, comma 2"
    assert (ref.resolved_section, ref.resolved_chunk_ids) == ("3", [c.chunk_id for c in by_section(beta, "3")])


def test_relative_comma_reference_resolves_inside_its_article(chunks):
    [art7] = by_section(chunks["contratto-fornitura-acme.txt"], "7")
    [ref] = refs_of(art7, "1")  # "Superato il limite di cui al comma 1"
    assert (ref.kind, ref.resolved_section, ref.resolved_chunk_ids) == ("comma", "7", [art7.chunk_id])


def test_english_references_resolve_to_clause_and_schedule_chunks(chunks):
    msa = chunks["master-services-agreement.txt"]
    [c42] = by_section(msa, "4.2")
    [ref] = refs_of(c42, "14.3")  # "subject to clause 14.3"
    assert ref.resolved_chunk_ids == [by_section(msa, "14.3")[0].chunk_id]
    [c162] = by_section(msa, "16.2")
    [nested] = refs_of(c162, "2(4)")  # "paragraph 4 of Schedule 2"
    assert (nested.kind, nested.raw, nested.resolved_section) == ("schedule", "paragraph 4 of Schedule 2", "2")
    [c141] = by_section(msa, "14.1")
    [act] = [r for r in c141.xrefs if r.external]
    assert (act.target, act.code) == ("2", "Supply of Goods and Services Act 1982")


def test_statute_subsection_reference_points_to_the_sub_chunk(chunks):
    statute = chunks["housing-act-1988.v2019.txt"]
    [s21a] = by_section(statute, "21A")
    first, second = by_section(statute, "21")
    refs = refs_of(s21a, "21(1)") + refs_of(s21a, "21(4)")  # "section 21(1) or (4)"
    assert [r.resolved_chunk_ids for r in refs] == [[first.chunk_id], [second.chunk_id]]


def test_unresolved_internal_references_are_reported(docs, chunks):
    missing = unresolved_refs(docs["master-services-agreement.txt"], chunks["master-services-agreement.txt"])
    assert [(r.kind, r.target) for r in missing] == [("schedule", "3")]  # clause 9.1 cites a Schedule 3 that is absent


def test_headings_are_not_references():
    text = "Art. 5 – Durata e recesso\n1. Salvo quanto previsto all'art. 7, il contratto dura un anno.\n"
    from legalsearch.parse import parse_structure

    refs = extract_references(text, "it", parse_structure(text, "it"))
    assert [r.target for r in refs] == ["7"]


@pytest.mark.parametrize(
    ("text", "language", "terms"),
    [
        ('"Confidential Information" means all information disclosed.', "en", ["Confidential Information"]),
        ("“Services” shall mean the hosted services.", "en", ["Services"]),
        ('The term “Purpose” as used herein means the evaluation.', "en", ["Purpose"]),
        ('ACME Ltd (the "Customer") and Beta Ltd (the "Supplier")', "en", ["Customer", "Supplier"]),
        ('each a "Party" (each a "Party" and together the "Parties")', "en", ["Party", "Parties"]),
        ('per "Informazioni Riservate" si intendono tutte le informazioni', "it", ["Informazioni Riservate"]),
        ('Beta S.r.l. (di seguito, il "Fornitore")', "it", ["Fornitore"]),
        ('(di seguito, congiuntamente, le "Parti")', "it", ["Parti"]),
        ('he said "hello" to them (see "Annex").', "en", []),
    ],
)
def test_extract_definitions_patterns(text, language, terms):
    assert [d.term for d in extract_definitions(text, language)] == terms


def test_defined_terms_are_linked_from_the_chunks_that_use_them(chunks):
    msa = chunks["master-services-agreement.txt"]
    definer = next(c for c in msa if "Confidential Information" in c.defined_terms)
    assert definer.section == "1.1"
    [c121] = by_section(msa, "12.1")
    assert "Confidential Information" in c121.uses_terms
    assert definer.chunk_id in c121.definition_chunk_ids
    acme = chunks["contratto-fornitura-acme.txt"]
    [art2], [art10] = by_section(acme, "2"), by_section(acme, "10")
    assert "Informazioni Riservate" in art2.defined_terms
    assert ("Informazioni Riservate" in art10.uses_terms, art2.chunk_id in art10.definition_chunk_ids) == (True, True)


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Ciascuna Parte può recedere dal contratto con preavviso di novanta giorni.", "it", ["termination"]),
        ("Il Fornitore paga una penale pari allo 0,5% per ogni giorno di ritardo.", "it", ["penalty"]),
        ("Per ogni controversia è competente in via esclusiva il Foro di Milano.", "it", ["forum"]),
        ("Il presente contratto è regolato dalla legge italiana.", "it", ["governing_law"]),
        ("Art. 9 – Limitazione di responsabilità", "it", ["liability_cap"]),
        ("Either party may terminate this Agreement on 30 days' notice.", "en", ["termination"]),
        ("The courts of England and Wales shall have exclusive jurisdiction.", "en", ["forum"]),
        ("This Agreement shall be governed by the laws of the State of New York.", "en", ["governing_law"]),
        ("The total liability of each party shall not exceed the Fees paid.", "en", ["liability_cap"]),
        ("The obligations of confidentiality continue for a period of three (3) years.", "en",
         ["confidentiality_duration"]),
        ("The Supplier shall deliver the goods to the premises.", "en", []),
    ],
)
def test_label_clauses(text, language, expected):
    assert label_clauses(text, language) == expected


def test_labels_on_italian_chunks(chunks):
    acme = chunks["contratto-fornitura-acme.txt"]
    expected = {"5": "termination", "7": "penalty", "9": "liability_cap", "11": "governing_law", "12": "forum"}
    for section, label in expected.items():
        [chunk] = by_section(acme, section)
        assert label in chunk.clause_labels, (section, chunk.clause_labels)


def test_nda_confidentiality_durations_differ(docs, chunks):
    years = {}
    for name in ("nda-acme-globex.txt", "nda-acme-initech.txt", "nda-acme-umbrella.txt"):
        [clause6] = by_section(chunks[name], "6")
        assert "confidentiality_duration" in clause6.clause_labels
        years[name] = clause6.text.split("(")[1].split(")")[0]
    assert years == {"nda-acme-globex.txt": "2", "nda-acme-initech.txt": "3", "nda-acme-umbrella.txt": "5"}


def test_double_signature_present_in_one_contract(docs, chunks):
    doc, chunk_list = docs["contratto-fornitura-acme.txt"], chunks["contratto-fornitura-acme.txt"]
    result = double_signature(doc, chunk_list)
    assert (result["present"], result["approved_articles"]) == (True, ["5", "7", "12"])
    # art. 9 (limitazione di responsabilità) is onerous but not approved
    assert result["onerous_articles"]["9"] == ["liability_cap"]
    assert (result["uncovered_articles"], result["covered"]) == (["9"], False)
    assert {"1341:approved:5,7,12", "1341:uncovered:9"} <= set(doc.flags)
    labelled = [c.chunk_id for c in chunk_list if "double_signature_1341" in c.clause_labels]
    assert labelled == result["chunk_ids"] and len(labelled) == 1


def test_double_signature_missing_in_the_other(docs, chunks):
    doc, chunk_list = docs["contratto-servizi-beta.txt"], chunks["contratto-servizi-beta.txt"]
    result = double_signature(doc, chunk_list)
    assert (result["present"], result["chunk_ids"]) == (False, [])
    assert set(result["onerous_articles"]) == {"5", "7", "10"}
    assert "1341:missing" in doc.flags
    assert not any("double_signature_1341" in c.clause_labels for c in chunk_list)
    assert not any(f.startswith("1341") for f in docs["master-services-agreement.txt"].flags)


# -- round-2 reference fixes -----------------------------------------------------------------


def _refs(text, language="en", **kw):
    return [(r.kind, r.target, r.external, r.code) for r in extract_references(text, language, **kw)]


def test_third_party_is_not_a_reference_to_part_y():
    assert _refs("THIRD PARTY RIGHTS\n\nA third party has no rights. See Part 2 and PART II.") == [
        ("part", "2", False, None), ("part", "II", False, None)]


def test_upper_case_italian_code_reference_is_external():
    refs = _refs("APPROVAZIONE SPECIFICA AI SENSI DEGLI ARTT. 1341 E 1342 C.C.", "it")
    assert refs == [("article", "1341", True, "c.c."), ("article", "1342", True, "c.c.")]


def test_an_article_of_another_italian_law_is_external():
    [ref] = _refs("in deroga all'art. 64-quater della legge 22 aprile 1941, n. 633, il Licenziatario", "it")
    assert ref[:3] == ("article", "64-quater", True)


def test_ranges_resolve_every_unit_in_between():
    assert [t for _, t, _, _ in _refs("the obligations in clauses 3 to 8 survive")] == ["3", "4", "5", "6", "7", "8"]
    assert [t for _, t, _, _ in _refs("gli artt. 5-7 si applicano", "it")] == ["5", "6", "7"]
    assert [t for _, t, _, _ in _refs("clauses 3.1 to 3.3 and 9")] == ["3.1", "3.2", "3.3", "9"]


def test_a_section_written_after_another_acts_name_is_external():
    [ref] = _refs("[Substituted by the Commercial Payment Practices (Amendment) Act 2025, s.2.]")
    assert ref[2] is True and ref[3].endswith("Act 2025")


def test_citing_documents_refer_to_other_documents_except_for_paragraphs():
    text = "Quillfeather relies on clause 4(c) of the NDA in suit and on article 13.2; see paragraphs 7 to 10."
    refs = _refs(text, cites_others=True)
    assert ("clause", "4(c)", True, "NDA") in refs  # an owner named in the text stays the code
    assert ("article", "13.2", True, "cited document") in refs
    assert [t for k, t, ext, _ in refs if k == "paragraph" and not ext] == ["7", "8", "9", "10"]


def test_each_article_of_a_list_keeps_its_own_comma():
    # the 1341 c.c. approval clause lists articles with their commi and captions
    text = ("Ai sensi degli artt. 1341 e 1342 c.c. il Conduttore approva specificamente gli artt. 4, comma 2 (divieto "
            "di sospensione del pagamento), 6 (clausola risolutiva espressa), 8, comma 3 (migliorie) e 14, comma 2.")
    internal = [r.target for r in extract_references(text, "it") if not r.external]
    assert internal == ["4(2)", "6", "8(3)", "14(2)"]  # before: 4(2), then "comma 3", "comma 14" ...
    assert [r.target for r in extract_references("artt. 5, comma 2 e 7", "it")] == ["5(2)", "7"]
    assert [r.target for r in extract_references("l'art. 5, comma 1-bis, del decreto", "it")] == ["5(1-bis)"]
