import pytest
from legalsearch.query.cite import cite, format_heading


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("Art. 5 – Durata e recesso", "Art. 5 (Durata e recesso)"),
        ("14. Limitation of liability", "14. Limitation of liability"),
        ("Section 21: Recovery of possession", "Section 21 (Recovery of possession)"),
    ],
)
def test_format_heading(heading, expected):
    assert format_heading(heading) == expected


def test_citation_with_version_section_and_page():
    source = {"doc_title": "NDA ACME-Fornitore", "version": "2.1", "section": "5",
              "heading_path": ["Art. 5 – Durata e recesso"], "page": 3}
    assert cite(source) == "NDA ACME-Fornitore v2.1, Art. 5 (Durata e recesso), p. 3"


def test_citation_keeps_the_sub_unit_after_the_labelled_unit():
    source = {"doc_title": "Housing Act 1988", "version": "2019", "section": "21",
              "heading_path": ["Part I", "21 Recovery of possession", "(4)"], "page": None}
    assert cite(source) == "Housing Act 1988 v2019, 21 Recovery of possession, (4)"


def test_a_huge_title_is_cut_in_the_citation_not_in_the_hit():
    from legalsearch.query.cite import MAX_CITED_CHARS

    title = "Master Services Agreement " * 8000  # 200,000 characters
    citation = cite({"doc_title": title, "version": "1", "heading_path": ["Clause 1 – " + "x" * 5000],
                     "section": "1"})
    assert len(citation) < 3 * MAX_CITED_CHARS and citation.startswith("Master Services Agreement")
    assert "…" in citation and "\n" not in citation
    assert cite({"doc_title": "NDA", "version": "2"}) == "NDA v2"  # short titles untouched
