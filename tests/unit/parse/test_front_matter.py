"""What the front matter and the page furniture of a contract are not: headings that hold clauses.
Addresses in a parties block, a "PARTIES" heading, a running line repeated on every page."""

from __future__ import annotations

from legalsearch.parse import parse_structure

PARTIES = """SERVICES AGREEMENT

This Agreement is dated 3 March 2025.

PARTIES

Orbis Hosting Ltd
12 Quay Street
Leeds LS1 4AB

Calder Retail plc
200 Aldersgate Street, 4th Floor
London EC1A 4HD

1. SERVICES
The Supplier hosts the shop.

2. FEES
The Customer pays monthly.
"""


def top(tree):
    return [(n.kind, n.label or n.title) for n in tree.children]


def test_an_address_is_no_section_and_parties_hold_no_clause():
    tree = parse_structure(PARTIES, "en")
    # before: "Section 12 – Quay Street", "Section 200 – Aldersgate Street", clauses 1-2 under PARTIES
    assert top(tree) == [("preamble", None), ("heading", "PARTIES"), ("section", "1"), ("section", "2")]


def test_a_statute_section_in_sequence_keeps_its_street_like_title():
    text = ("HIGHWAYS (EXAMPLE) ACT 2025\n\n1 Interpretation\nIn this Act, the authority is the council.\n\n"
            "2 Closing a road\nThe authority may close a road for works.\n\n3 Duties on a public square\n"
            "The authority keeps each public square clean.\n")
    assert [n.label for n in parse_structure(text, "en").children][1:] == ["1", "2", "3"]  # after the preamble


def test_a_line_repeated_on_every_page_is_no_heading():
    footer = "Source: NORTHWIND TRADING COMPANY INC, 10-K, 9/11/2003"
    rest = ("the goods are inspected at the depot within two Business Days of delivery, and any shortfall or damage "
            "found then is credited against the next invoice.")
    # a page break inside each clause, the footer then the clause's second half (as an export writes it)
    text = (f"SUPPLY AGREEMENT\n\n1. DELIVERY\nThe Supplier delivers weekly and\n\n{footer}\n\n{rest}\n\n"
            f"2. PRICE\nThe prices are fixed for a year and\n\n{footer}\n\n{rest}\n\n"
            f"3. TERM\nThe Agreement lasts three years and\n\n{footer}\n\n{rest}\n")
    tree = parse_structure(text, "en")
    assert [n.kind for n in tree.children] == ["preamble", "section", "section", "section"]
    assert not any(n.title == footer for n in tree.walk())


NDA_TIGHT = """MUTUAL NON-DISCLOSURE AGREEMENT

This Agreement is made between Orbis Ltd and Calder plc on 3 March 2025.

Confidential Information
Confidential Information means any information disclosed by one party to the other in any form.

Obligations of the Recipient
The Recipient keeps the Confidential Information secret and uses it only for the Purpose stated above.

Term and Termination
This Agreement lasts three years and either party may end it on thirty days' written notice at any time.
"""


def test_title_case_headings_right_above_their_paragraphs():
    # no number, no blank line under the title: before, the whole NDA was one preamble
    tree = parse_structure(NDA_TIGHT, "en")
    assert [n.title for n in tree.children if n.kind == "heading"] == [
        "Confidential Information", "Obligations of the Recipient", "Term and Termination"]
    # done once or twice it may be a name above an address: not enough to read titles
    two = NDA_TIGHT.rsplit("\n\nTerm and Termination", 1)[0] + "\n"
    assert not any(n.kind == "heading" for n in parse_structure(two, "en").walk())


SCHEDULE = """SUPPLY AGREEMENT

1. DEFINITIONS
1.1 In this agreement the Services are those in Schedule 1.

2. SERVICE LEVELS
2.1 The Supplier meets the service levels in Part 2 of Schedule 1.
2.2 Service credits are calculated under paragraph 3 of Schedule 1.

SCHEDULE 1 SERVICES

Part 1 Description

1. The Supplier delivers fresh produce every Tuesday.

Part 2 Service levels

2. At least 98% of deliveries arrive before 9 am.

3. For each late delivery the Customer receives a credit of 2% of the monthly charges.
"""


def test_a_point_of_a_schedules_part_is_found_by_its_number():
    from legalsearch.chunk import chunk_document
    from legalsearch.documents.models import DocumentMeta
    from legalsearch.load import build_document

    doc = build_document(SCHEDULE, DocumentMeta(doc_id="supply", title="Supply Agreement", language="en",
                                                doc_type="contract"))
    chunks = chunk_document(doc, "structural")
    refs = {r.raw: r.resolved_chunk_ids for c in chunks for r in c.xrefs}
    point3 = next(c for c in chunks if c.heading_path[-2:] == ["Part 2 – Service levels", "Section 3"])
    # before: the whole schedule (every chunk of it); the Part that holds point 3 is not its direct child
    assert refs["paragraph 3 of Schedule 1"] == [point3.chunk_id]
    part2 = [c.chunk_id for c in chunks if "Part 2 – Service levels" in c.heading_path]
    assert refs["Part 2 of Schedule 1"] == part2


def test_a_question_is_a_heading():
    # a privacy notice written as questions: before, no heading at all (a line ending "?" was prose)
    from pathlib import Path

    text = (Path(__file__).parent / "data" / "privacy-faq.txt").read_text(encoding="utf-8")
    assert [n.title for n in parse_structure(text, "en").children if n.kind == "heading"] == [
        "What data do we collect?", "Why do we use it?", "How long do we keep it?", "Who can I contact?"]
    # a question inside a paragraph is not: it has no blank line under it, or a short body
    prose = "NOTICE\n\nWhy does this matter?\nBecause it does.\n\nThe end of the notice is here.\n"
    assert not any(n.kind == "heading" for n in parse_structure(prose, "en").walk())
