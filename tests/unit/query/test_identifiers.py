import pytest
from legalsearch.query.identifiers import parse_identifiers, section_labels


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What is the liability cap in clause 14.3?", [("clause", "14.3")]),
        ("Housing Act 1988 section 21 notice requirements", [("section", "21")]),
        ("compliance conditions in s.21A", [("section", "21a")]),
        ("s. 8 grounds for possession", [("section", "8")]),
        ("§ 21 notices", [("section", "21")]),
        ("recesso ai sensi dell'art. 5", [("article", "5")]),
        ("cosa prevede l'articolo 7?", [("article", "7")]),
        ("il comma 1-bis dell'art. 5", [("article", "5")]),
        ("what does 14.3 cap?", [("section", "14.3")]),
        ("fees in Schedule 2", [("schedule", "2")]),
        ("listino prezzi nell'Allegato B", [("annex", "b")]),
        ("Can a landlord end a tenancy without giving a reason?", []),
        # an inserted article of a code keeps its "-N"; after a plural keyword "-N" is a range
        ("What does Article 134-2 of the Civil Code provide?", [("article", "134-2")]),
        ("item (iv) of Article 9-2(2)", [("article", "9-2")]),
        ("Articles 38-44 were repealed", [("article", "38")]),
        ("artt. 1341-1342 c.c.", [("article", "1341")]),
        ("section 5-2023 notice", [("section", "5")]),
        ("fees of 1,000.50 euros on 12.03.2024", []),
        # a subsection cites its section ("subsection 5(1)" is in section 5); a paragraph written
        # right after its article ("l'articolo 9, paragrafo 3") is part of it, not section 3
        ("What does subsection 5(1) prohibit?", [("section", "5")]),
        ("the period in sub-section 12(3)", [("section", "12")]),
        ("sub-section (2) of section 15", [("section", "15")]),
        ("Cosa prevede l'articolo 9, paragrafo 3?", [("article", "9")]),
        ("Article 5 paragraph 2 and paragraph 7", [("article", "5"), ("paragraph", "7")]),
        ("paragraph 12 of the judgment", [("paragraph", "12")]),
        ("the subsections of the Act", []),
        # an inserted Italian article written with a space or run together is the same unit
        ("Cosa prevede l'articolo 12 bis?", [("article", "12-bis")]),
        ("art. 3bis e art. 3 ter", [("article", "3-bis"), ("article", "3-ter")]),
        ("l'art. 7 bisogna leggerlo", [("article", "7")]),
    ],
)
def test_parse_identifiers(query, expected):
    assert [(r.kind, r.label) for r in parse_identifiers(query)] == expected


def test_external_codes_are_not_section_labels():
    refs = parse_identifiers("clausole approvate ai sensi dell'art. 1341 c.c. e art. 5")
    assert [(r.label, r.external) for r in refs] == [("1341", True), ("5", False)]
    assert section_labels(refs) == ["5"]


def test_duplicates_collapse():
    assert len(parse_identifiers("clause 14.3 and again clause 14.3")) == 1


@pytest.mark.parametrize("query", [
    "A photo editing app took 12.99 from my card with no email beforehand. Do I get it back?",
    "it's been taking 9.99 every month for four months",
    "The streaming service costs € 7.50 a month now",
    "Can they raise the rent by 4.5% in the first year?",
    "Mi hanno chiesto una penale di 1.500 euro",
    "The gym is 2.5 km from my new flat",
    "Is a fee of 3.25 allowed?",
])
def test_an_amount_or_a_measure_is_no_clause_number(query):
    # a plain-language question's prices, rates and distances: a cited "12.99" sends the search to every
    # document's Article 12 and turns routing off
    assert parse_identifiers(query) == []


def test_a_bare_clause_number_beside_an_amount_is_still_one():
    assert [(r.kind, r.label) for r in parse_identifiers("Does 14.3 cap the 12.99 a month fee?")] == [("section", "14.3")]
    assert [(r.kind, r.label) for r in parse_identifiers("clause 12.99 of the price list")] == [("clause", "12.99")]
