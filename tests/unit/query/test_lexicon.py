"""Clause concepts: plain-words questions in English and Italian -> clause headings in both."""

import pytest
from legalsearch.query.lexicon import CONCEPTS, concepts_in, title_terms


@pytest.mark.parametrize(
    ("question", "concept"),
    [
        ("Which law governs the Kestrel NDA?", "governing_law"),
        ("Quale legge regola il contratto?", "governing_law"),
        ("Which court hears disputes under the supply contract?", "jurisdiction"),
        ("Quale tribunale è competente?", "jurisdiction"),
        ("How long do the obligations last?", "term"),
        ("Il contratto di licenza con Kestrel: quanto dura?", "term"),
        ("Can we end the agreement early?", "termination"),
        ("Larchmont può sciogliere il contratto?", "termination"),
        ("Is Corvane on the hook for lost profits?", "liability"),
        ("Can they cut off our log-ins when we stop paying?", "suspension"),
        ("Can we hire away their engineers?", "non_solicitation"),
        ("clausole vessatorie firmate due volte", "specific_approval"),
        ("quali clausole sono state approvate specificamente?", "specific_approval"),
        ("Which onerous clauses did the contractor sign twice?", "specific_approval"),
    ],
)
def test_concepts_in_questions(question, concept):
    assert concept in [c.name for c in concepts_in(question)]


def test_the_words_that_name_the_document_are_not_the_topic():
    # "confidentiality agreement" / "accordo di riservatezza" name the NDA, not its confidentiality clause
    assert [c.name for c in concepts_in("The confidentiality agreement with Pemberton: which court?")] == [
        "jurisdiction"]
    assert [c.name for c in concepts_in("Quale legge regola l'accordo di riservatezza con Pemberton?")] == [
        "governing_law"]


def test_title_terms_carry_both_languages():
    terms = title_terms("Which law governs it?")
    assert "governing law" in terms and "legge applicabile" in terms
    assert title_terms("Allegato C del contratto Tecnoluce") == []  # a section citation, no topic


def test_every_concept_names_headings_in_english_and_italian():
    italian = ("à", "è", "ione", "zza", "mento", "legge", "foro", "durata", "recesso", "penal", "dati", "premess",
               "rimedi", "oggetto", "cessione", "manleva", "consegn", "verifich", "garanzi", "storno", "esclusiv",
               "licenza", "comunicazioni", "definizioni", "annunci", "ambito", "obbligh", "conservazione", "prezzi",
               "volume", "sospensione", "sicurezza", "subappalto", "livelli", "crediti", "riservatezza", "controll",
               "conoscenze", "rappresentanti", "campioni", "concorrenza", "proprietà", "assicurazione", "forza",
               "codice", "restituzione", "approvazione", "eccezioni", "responsabilità", "corrispettivi")
    for concept in CONCEPTS:
        assert any(any(w in h.lower() for w in italian) for h in concept.headings), concept.name


def test_a_concept_may_name_the_label_ingest_gives_its_clause():
    # the double-signature clause often has no heading of its own; ingest labels it (search.parse.labels)
    from legalsearch.parse.labels import LABELS
    from legalsearch.query.bodies import TITLE_FIELDS

    assert "clause_labels" in TITLE_FIELDS
    terms = title_terms("clausole vessatorie firmate due volte")
    assert "double_signature_1341" in terms and "double_signature_1341" in LABELS
    assert "approvazione specifica" in terms and "specific approval" in terms
    assert "double_signature_1341" not in title_terms("Which court hears disputes?")
