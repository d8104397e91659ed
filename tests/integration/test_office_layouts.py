"""Documents as firms keep them, on the real node: a Word contract numbered by Word's own lists, and
a PDF with a running header, page footers and a clause cut by a page break. The clause a question
cites is found by its number, and the clause cut by the page break is returned whole."""

from __future__ import annotations

from legalsearch.query.models import SearchRequest

from tests.integration.conftest import ingested_index
from tests.office_files import numbered_docx, text_pdf

HEADER = "SUPPLY AGREEMENT - EXECUTION VERSION"

WORD = [
    ("Title", None, "HOSTING SERVICES AGREEMENT"),
    (None, None, "This Agreement is made between Orbis Hosting Ltd and Calder Retail plc."),
    ("Heading 1", None, "SERVICES"),
    ("Heading 2", None, "Orbis hosts the Customer's online shop in its Leeds data centre."),
    ("Heading 2", None, "Orbis keeps the shop available 99.9 per cent of each month."),
    ("Heading 1", None, "LIABILITY"),
    ("Heading 2", None, "Each party's total liability in a year is capped at the fees paid in that year."),
    ("Heading 2", None, "Orbis is not liable for the Customer's lost sales during a scheduled maintenance window."),
]

PDF = [
    [HEADER, "SUPPLY AGREEMENT", "This Agreement is made between Marlowe Foods Ltd and Penrose Farms Ltd.",
     "1. DELIVERY", "Penrose delivers the produce to the Marlowe depot in Bristol every Tuesday unless",
     "Page 1 of 2", "Confidential"],
    [HEADER, "Marlowe asks in writing for another day at least a week before.", "2. PRICE",
     "Marlowe pays the prices in the current price list within thirty days of delivery.",
     "Page 2 of 2", "Confidential"],
]


def _search(service, index, query):
    return service.search(SearchRequest(query=query, index=index, expand_xrefs=False, k=5))


def test_word_numbers_and_pdf_page_edges(store, run_ingest, service, tmp_path):
    numbered_docx(tmp_path / "hosting-orbis.docx", WORD)
    (tmp_path / "supply-marlowe.pdf").write_bytes(text_pdf(PDF))
    with ingested_index(store, run_ingest, "test-office", [tmp_path], embedder="minilm", public_if_no_acl=True) \
            as (index, report):
        assert (report.summary()["ingested"], report.summary()["failed"]) == (2, 0)
        # "clause 2.2" exists only because Word's numbering was written into the text
        res = _search(service, index, "What does clause 2.2 of the Orbis hosting agreement say?")
        top = res.hits[0]
        assert (top.doc_id, top.section) == ("hosting-orbis", "2.2")
        assert top.text.startswith("2.2 Orbis is not liable")
        # the delivery clause cut by the page break comes back whole, with no header or footer inside
        res = _search(service, index, "Can Marlowe ask Penrose to deliver on another day than Tuesday?")
        delivery = next(h for h in res.hits if h.doc_id == "supply-marlowe" and h.section == "1")
        assert "every Tuesday unless\nMarlowe asks in writing for another day" in delivery.text
        assert "Page 1 of 2" not in delivery.text and HEADER not in delivery.text
        assert all(h.section in ("1", "2", None) for h in res.hits if h.doc_id == "supply-marlowe")
        assert not any(HEADER in p for h in res.hits for p in h.heading_path)
