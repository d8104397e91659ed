"""A paginated document's pages joined (search.load.pages): running headers, footers and page
numbers out, a sentence cut by a page break carried on; nothing else touched."""

from __future__ import annotations

from legalsearch.chunk import chunk_document
from legalsearch.load import load_document
from legalsearch.load.pages import continues, dehyphenate, strip_page_edges

from tests.office_files import text_pdf

HEADER = "MASTER SERVICES AGREEMENT - EXECUTION VERSION"


def test_running_header_footer_and_page_numbers_go():
    pages = [f"{HEADER}\nMASTER SERVICES AGREEMENT\n1. TERM\nIt lasts two years.\nPage 1 of 3\nConfidential",
             f"{HEADER}\n2. FEES\nThe Customer pays monthly.\nPage 2 of 3\nConfidential",
             f"{HEADER.lower()}\n3. NOTICES\nNotices are in writing.\n- 3 -\nCONFIDENTIAL"]
    cleaned, removed = strip_page_edges(pages)
    # the first page keeps its header (the title); every footer and the later headers go
    assert cleaned == [f"{HEADER}\nMASTER SERVICES AGREEMENT\n1. TERM\nIt lasts two years.",
                       "2. FEES\nThe Customer pays monthly.", "3. NOTICES\nNotices are in writing."]
    assert removed == 8


def test_only_the_edges_and_only_what_repeats():
    # "Confidential" inside the text of a page is kept; "Section 5" / "Section 6" at page tops differ
    pages = ["Section 5\nConfidential\nThe Recipient keeps it secret.\nAcme Ltd",
             "Section 6\nThe term is two years.\nConfidential information is defined above.\nAcme Ltd"]
    cleaned, removed = strip_page_edges(pages)
    assert cleaned == ["Section 5\nConfidential\nThe Recipient keeps it secret.",
                       "Section 6\nThe term is two years.\nConfidential information is defined above."]
    assert removed == 2  # "Acme Ltd" at the foot of both pages
    assert strip_page_edges(["One page only.\n1"]) == (["One page only.\n1"], 0)


def test_a_sentence_cut_by_the_page_break_continues():
    assert continues("Each party's liability is capped at the fees paid", "in that Contract Year.")
    assert continues("4. LIABILITY", "Each party's liability is capped.")  # a heading at the foot of a page
    assert not continues("The Customer pays monthly.", "3. NOTICES")
    assert not continues("The Customer pays monthly", "")


def test_a_clause_over_a_page_break_stays_one_clause(tmp_path):
    path = tmp_path / "msa.pdf"
    path.write_bytes(text_pdf([
        [HEADER, "MASTER SERVICES AGREEMENT", "1. TERM", "This Agreement lasts two years unless",
         "Page 1 of 3", "Confidential"],
        [HEADER, "terminated earlier under clause 3.", "2. LIABILITY",
         "Each party's total liability in a Contract Year is capped at the fees paid", "Page 2 of 3", "Confidential"],
        [HEADER, "in that Contract Year. Neither party is liable for loss of profit.", "3. TERMINATION",
         "Either party may terminate on ninety days' written notice.", "Page 3 of 3", "Confidential"],
    ]))
    doc = load_document(path)
    assert "page_edges_removed:8" in doc.flags and "Page 2 of 3" not in doc.text
    assert [p.page for p in doc.pages] == [1, 2, 3]
    assert doc.text[doc.pages[1].char_start:].startswith("terminated earlier")
    chunks = {c.section: c for c in chunk_document(doc, min_chars=0) if c.section}
    assert list(chunks) == ["1", "2", "3"]  # no running header heading over clauses 2 and 3
    assert chunks["1"].heading_path == ["Clause 1 – TERM"]
    assert "unless\nterminated earlier under clause 3." in chunks["1"].text
    assert "loss of profit" in chunks["2"].text and "loss of profit" not in chunks["3"].text
    assert "Confidential" not in chunks["2"].text and HEADER not in chunks["3"].text


def test_words_broken_at_a_line_end_are_joined():
    text = ("The Recipient shall not use the informa-\ntion except for the Purpose. This non-\ndisclosure "
            "agreement binds third-\nparty advisers. Anglo-\nItalian law applies. Every cross-border "
            "transfer is logged.\nLa clausola di riserva-\ntezza resta valida. See pages 12-\n14. A cross-\nborder deal.")
    joined, count = dehyphenate(text)
    assert joined == ("The Recipient shall not use the information except for the Purpose. This non-disclosure "
                      "agreement binds third-party advisers. Anglo-\nItalian law applies. Every cross-border "
                      "transfer is logged.\nLa clausola di riservatezza resta valida. See pages 12-\n14. "
                      "A cross-border deal.")
    assert count == 5
    assert dehyphenate("No breaks here.\nNone at all.") == ("No breaks here.\nNone at all.", 0)
