"""Documents as firms keep them, on the real node: a Word contract numbered by Word's own lists, a
PDF with a running header, page footers and a clause cut by a page break, a Markdown notice with
unnumbered "##" sections and an HTML page numbered by <ol>. The clause a question cites is found by
its number, the clause cut by the page break is returned whole, a notice's section is its own hit."""

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


NOTICE_MD = """# Ortivo Privacy Notice

This notice explains how Ortivo, the allotment booking app, uses personal data.

## What we collect

We collect your name, your email address and the plots you book.

## Children

Ortivo is not meant for children under 16. We do not knowingly collect data about children, and we delete
an account we learn belongs to a child.

## Your rights

You may ask us for a copy of your data, or ask us to correct or delete it.
"""

TERMS_HTML = ("<html><body><h1>Ortivo Terms of Use</h1><p>These terms apply to the Ortivo app.</p><ol>"
              "<li><strong>Bookings</strong><p>A plot is booked for one season at a time.</p></li>"
              "<li><strong>Cancellation</strong><p>A booking cancelled 14 days before the season starts is "
              "refunded in full.</p></li></ol></body></html>")


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


def test_markdown_and_html_headings_and_lists(store, run_ingest, service, tmp_path):
    (tmp_path / "ortivo-privacy.md").write_text(NOTICE_MD)
    (tmp_path / "ortivo-terms.html").write_text(TERMS_HTML)
    with ingested_index(store, run_ingest, "test-markup", [tmp_path], embedder="minilm", public_if_no_acl=True) \
            as (index, report):
        assert (report.summary()["ingested"], report.summary()["failed"]) == (2, 0)
        # the notice's "## Children" is a section of its own (before: the whole notice one chunk)
        res = _search(service, index, "Can a child under 16 use the Ortivo app?")
        top = next(h for h in res.hits if h.doc_id == "ortivo-privacy")
        assert top.heading_path == ["Children"] and "not meant for children under 16" in top.text
        # the terms' <ol> items are sections 1 and 2 (the browser's numbers, written in)
        res = _search(service, index, "What does section 2 of the Ortivo terms of use say?")
        assert (res.hits[0].doc_id, res.hits[0].section) == ("ortivo-terms", "2")
        assert "refunded in full" in res.hits[0].text


TENANCY_ACT = """RETAIL TENANCIES ACT 2023
No. 12, 2023

Contents
Part 1—Preliminary 1
1 Short title ..................................... 1
2 Security bonds held by the Commissioner ...................... 1
Part 2—Ending a lease 2
3 Notice to end a lease for repairs ...................... 2
4 Return of the security bond ...................... 3

Part 1—Preliminary
1 Short title
This Act is the Retail Tenancies Act 2023.
2 Security bonds held by the Commissioner
A landlord who takes a security bond pays it to the Commissioner within 14 days.
Part 2—Ending a lease
3 Notice to end a lease for repairs
A landlord may end a lease for repairs by giving the tenant six months' written notice.
4 Return of the security bond
The Commissioner returns the security bond to the tenant within 10 days of the lease ending.
"""


def test_a_contents_table_is_kept_but_never_a_hit(store, run_ingest, service, tmp_path):
    (tmp_path / "retail-tenancies-act.txt").write_text(TENANCY_ACT)
    with ingested_index(store, run_ingest, "test-contents", [tmp_path], embedder="minilm", public_if_no_acl=True) \
            as (index, report):
        assert (report.summary()["ingested"], report.summary()["failed"]) == (1, 0)
        # the table lists every title the question uses; the section that answers wins, the table is no hit
        for mode in ("hybrid", "bm25"):
            res = service.search(SearchRequest(query="When is the security bond returned after the lease ends?",
                                               index=index, mode=mode, expand_xrefs=False, k=10))
            assert res.hits and res.hits[0].section == "4"
            assert all("......" not in h.text and "contents" not in h.clause_labels for h in res.hits)
        # it stays in the index, labelled, for whoever browses it (OpenSearch Dashboards)
        stored = store.search(index, {"query": {"term": {"clause_labels": "contents"}}})["hits"]["hits"]
        assert [h["_source"]["text"].splitlines()[0] for h in stored] == ["Contents"]
