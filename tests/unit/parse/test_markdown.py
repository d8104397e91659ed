"""Markdown as a Word or Google Docs export writes it: bold clause headings and bold defined terms."""

from __future__ import annotations

from legalsearch.parse import parse_structure
from legalsearch.parse.definitions import extract_definitions

TEXT = """# Mutual Non-Disclosure Agreement

This Agreement is made between Orbis Ltd and Calder plc.

**1. Definitions**

**"Confidential Information"** means any information disclosed by a party.

**Business Day**: a day other than a Saturday or Sunday.

**2. Obligations**

The Recipient keeps the Confidential Information secret for **three years** after each Business Day.

## 3. Term

This Agreement lasts two years.

__4. Governing law__

English law governs this Agreement.
"""


def test_bold_headings_are_headings_and_their_titles_lose_the_markers():
    tree = parse_structure(TEXT, "en")
    units = [(n.kind, n.label, n.title) for n in tree.children if n.label]
    assert units == [("definitions", "1", "Definitions"), ("section", "2", "Obligations"), ("section", "3", "Term"),
                     ("section", "4", "Governing law")]


def test_bold_defined_terms():
    terms = [d.term for d in extract_definitions(TEXT, "en", parse_structure(TEXT, "en"))]
    assert terms == ["Confidential Information", "Business Day"]


def test_markdown_headings_without_numbers_nest_by_their_level():
    # before: no heading at all (a "## " line was read as text), the whole notice one chunk
    text = ("# Terms of Service\n\nThese terms apply to the Ortivo app.\n\n## Accounts\n\n### Who can open one\n\n"
            "You must be 16 or over to open an account.\n\n### Security\n\nYou keep your password secret.\n\n"
            "## Payments\n\nSubscriptions renew every month.\n")
    tree = parse_structure(text, "en")
    outline = [(n.title, [c.title for c in n.children]) for n in tree.children if n.kind == "heading"]
    assert outline == [("Accounts", ["Who can open one", "Security"]), ("Payments", [])]
    accounts = next(n for n in tree.children if n.title == "Accounts")
    assert text[accounts.char_start:].startswith("## Accounts")
