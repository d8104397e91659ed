"""Word's automatic numbering written back into a .docx's text (search.load.docx_numbering): the
"1." / "14.3" / "(a)" that Word draws are not characters of the paragraphs, so without this a
Word contract has no clause numbers for the parser or for "clause 14.3"."""

from __future__ import annotations

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.load import load_document
from legalsearch.load.docx_numbering import format_number

from tests.office_files import numbered_docx

CONTRACT = [
    ("Title", None, "MASTER SERVICES AGREEMENT"),
    (None, None, "This Agreement is made between Orbis Ltd and Calder plc."),
    ("Heading 1", None, "DEFINITIONS"),
    ("Heading 2", None, "In this Agreement, Services means the services in Schedule 1."),
    ("Heading 2", None, "Fees means the fees in Schedule 2."),
    ("Heading 1", None, "LIABILITY"),
    ("Heading 2", None, "Each party's total liability in a Contract Year is capped at the fees paid in it."),
    ("Heading 2", None, "Neither party is liable for:"),
    (None, (1, 2), "loss of profit;"),
    (None, (1, 2), "loss of data."),
    (None, (3, 0), "a bullet point carries no number"),
    ("Heading 1", None, "TERMINATION"),
    ("Heading 2", None, "Either party may terminate on ninety days' written notice."),
    (None, (2, 0), "SERVICES"),
    (None, None, "The Supplier provides the hosting services."),
    (None, (2, 0), "FEES"),
    (None, None, "The Customer pays GBP 4,000 a month."),
]


def test_word_numbers_are_written_into_the_text(tmp_path):
    path = tmp_path / "msa.docx"
    numbered_docx(path, CONTRACT)
    doc = load_document(path)
    lines = doc.text.split("\n\n")
    assert lines[2:11] == [
        "1. DEFINITIONS", "1.1 In this Agreement, Services means the services in Schedule 1.",
        "1.2 Fees means the fees in Schedule 2.", "2. LIABILITY",
        "2.1 Each party's total liability in a Contract Year is capped at the fees paid in it.",
        "2.2 Neither party is liable for:", "(a) loss of profit;", "(b) loss of data.",
        "a bullet point carries no number"]
    assert "3.1 Either party may terminate on ninety days' written notice." in lines
    assert "Schedule 1 SERVICES" in lines and "Schedule 2 FEES" in lines
    assert "docx_numbers:12" in doc.flags


def test_a_word_contract_has_its_clauses(tmp_path):
    path = tmp_path / "msa.docx"
    numbered_docx(path, CONTRACT)
    chunks = chunk_document(load_document(path), min_chars=0)
    sections = [c.section for c in chunks if c.section]
    assert {"1", "2.1", "2.2", "3.1"} <= set(sections)
    cap = next(c for c in chunks if c.section == "2.1")
    assert "capped at the fees paid" in cap.text and "liability_cap" in cap.clause_labels


def test_a_restarted_list_counts_from_its_start(tmp_path):
    path = tmp_path / "two-lists.docx"
    numbered_docx(path, [("Heading 1", None, "FIRST"), ("Heading 1", None, "SECOND"),
                         (None, (4, 0), "RESTARTED"), (None, (4, 0), "AGAIN")])
    text = load_document(path).text.split("\n\n")
    assert text == ["1. FIRST", "2. SECOND", "1. RESTARTED", "2. AGAIN"]


@pytest.mark.parametrize("value,fmt,shown", [
    (1, "lowerLetter", "a"), (27, "lowerLetter", "aa"), (3, "upperLetter", "C"), (4, "lowerRoman", "iv"),
    (14, "upperRoman", "XIV"), (7, "decimalZero", "07"), (12, "decimal", "12"), (3, "ordinalText", "3"),
])
def test_number_formats(value, fmt, shown):
    assert format_number(value, fmt) == shown
