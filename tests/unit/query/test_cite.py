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
