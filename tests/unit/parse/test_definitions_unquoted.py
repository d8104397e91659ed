"""Definitions written without quotes, as UK drafting writes them in bold (plain text loses the bold):
read inside a definitions unit only."""

from __future__ import annotations

from legalsearch.chunk import chunk_document
from legalsearch.documents.models import DocumentMeta
from legalsearch.load import build_document
from legalsearch.parse import parse_structure
from legalsearch.parse.definitions import extract_definitions

TEXT = """SERVICES AGREEMENT

1. DEFINITIONS AND INTERPRETATION

1.1 In this Agreement the following definitions apply:

Business Day: a day other than a Saturday, Sunday or public holiday in England.

Charges: the charges payable by the Customer for the Services, as set out in Schedule 2.

Confidential Information means all information disclosed by one party to the other.

1.2 Services means the services described in Schedule 1.

Note: headings do not affect interpretation.

Source: ACME HOLDINGS INC., 10-Q, 11/8/2018

2. SERVICES

2.1 The Supplier supplies the Services on each Business Day.

2.2 The Customer pays the Charges monthly and keeps the Confidential Information secret.

Payment: the Customer pays within 30 days of each Payment date.

Source: ACME HOLDINGS INC., 10-Q, 11/8/2018
"""


def test_unquoted_definitions_inside_the_definitions_unit():
    terms = [d.term for d in extract_definitions(TEXT, "en", parse_structure(TEXT, "en"))]
    # "Note:" is a note, "Source:" a line repeated above the pages, "Payment:" outside the unit
    assert terms == ["Business Day", "Charges", "Confidential Information", "Services"]
    assert extract_definitions(TEXT, "en") == []  # without the tree: the quoted forms only


def test_an_italian_unquoted_definition():
    text = ("CONTRATTO DI SERVIZI\n\nArt. 1 – Definizioni\n1. Nel presente contratto:\n(a) Servizi: i servizi "
            "descritti nell'Allegato A;\n(b) Canone: il corrispettivo mensile.\n\nArt. 2 – Oggetto\n"
            "Il Fornitore presta i Servizi e il Cliente paga il Canone.\n")
    terms = [d.term for d in extract_definitions(text, "it", parse_structure(text, "it"))]
    assert terms == ["Servizi", "Canone"]


def test_the_chunks_that_use_an_unquoted_term_point_to_its_definition():
    doc = build_document(TEXT, DocumentMeta(doc_id="msa", title="Services Agreement", language="en",
                                            doc_type="contract"))
    chunks = {c.section: c for c in chunk_document(doc, "structural") if c.section}
    defining = chunks["1.1"].chunk_id
    assert {"Business Day", "Charges", "Confidential Information"} <= set(chunks["1.1"].defined_terms)
    assert "Business Day" in chunks["2.1"].uses_terms and defining in chunks["2.1"].definition_chunk_ids
    assert {"Charges", "Confidential Information"} <= set(chunks["2.2"].uses_terms)


def test_a_word_definitions_table():
    # a two-column definitions table, as the .docx loader writes its rows
    text = ("SUPPLY AGREEMENT\n\n1. DEFINITIONS\n\nIn this Agreement:\n\nBusiness Day | a day other than a Saturday or "
            "Sunday\n\nDelivery Point | the Customer's depot at Avonmouth\n\n2. DELIVERY\n\nThe Supplier delivers to "
            "the Delivery Point on each Business Day.\n\nPrice | Quantity\n")
    terms = [d.term for d in extract_definitions(text, "en", parse_structure(text, "en"))]
    assert terms == ["Business Day", "Delivery Point"]  # "Price | Quantity" is outside the definitions
