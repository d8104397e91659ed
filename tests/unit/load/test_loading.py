"""Loaders (txt, html, docx, pdf, scanned pdf via real Tesseract), discovery and batch errors."""

from __future__ import annotations

import json
import shutil

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.documents.errors import DocumentError
from legalsearch.documents.models import DocumentMeta
from legalsearch.load import build_document, discover_documents, load_document, load_documents
from legalsearch.parse import check_numbering, parse_structure
from sample_corpus import CORPUS

from tests.office_files import text_pdf


def test_corrupt_pdf_is_a_clear_error(tmp_path):
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4\n this is not really a pdf \x00\x01\x02")
    with pytest.raises(DocumentError) as caught:
        load_document(bad)
    assert "broken.pdf" in str(caught.value) and "re-export" in str(caught.value)


def test_binary_junk_with_a_text_extension_is_refused(tmp_path):
    junk = tmp_path / "junk.txt"
    junk.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(DocumentError, match=r"junk\.txt: looks like a binary file"):
        load_document(junk)


def test_a_bad_file_never_stops_the_batch(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("1. SCOPE\n\nThe Supplier provides the services.\n", encoding="utf-8")
    (tmp_path / "bad.pdf").write_bytes(b"%PDF-1.7 garbage")
    result = load_documents([tmp_path / "bad.pdf", good, tmp_path / "missing.txt"])
    assert [d.source_path for d in result.documents] == [str(good)]
    assert [(e.path.rsplit("/", 1)[-1], "bad.pdf" in e.error or "no such file" in e.error)
            for e in result.errors] == [("bad.pdf", True), ("missing.txt", True)]


def test_legacy_encoding_is_detected_and_flagged(tmp_path):
    path = tmp_path / "nota.txt"
    text = ("Art. 1 – Oggetto\n1. Il prezzo è di € 1.200 e la società è responsabile della consegna, "
            "perché così è stato convenuto tra le parti.\n")
    path.write_bytes(text.encode("cp1252"))
    doc = load_document(path)
    assert doc.text == text
    assert any(f.startswith("encoding:") for f in doc.flags)


def test_mostly_utf8_with_a_few_bad_bytes_stays_utf8_and_is_flagged(tmp_path):
    path = tmp_path / "contratto.txt"
    text = ("Art. 1 – Oggetto\n1. Il prezzo è di € 1.200 e la società è responsabile della consegna, "
            "perché così è stato convenuto tra le parti.\n") * 20
    data = text.encode("utf-8")
    cut = data.index(b"consegna") + 3
    path.write_bytes(data[:cut] + b"\x92\xff" + data[cut:])  # a cp1252 apostrophe and junk, pasted in
    doc = load_document(path)
    assert "encoding:utf-8-with-2-invalid-bytes-replaced" in doc.flags
    assert "\ufffd\ufffd" in doc.text and doc.text.replace("\ufffd", "") == text  # every accented word intact
    assert "Ã" not in doc.text  # no mojibake (cp1252 read of UTF-8 bytes)


def test_windows_newlines_are_read_like_python_text_mode(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"1. ONE\r\n\r\nFirst.\r\n2. TWO\r\nSecond.\r\n")
    doc = load_document(path)
    assert doc.text == path.read_text(encoding="utf-8")  # universal newlines: "\r\n" -> "\n"
    assert [c.section for c in chunk_document(doc, min_chars=0)] == ["1", "2"]


def test_html_blocks_become_lines(tmp_path):
    path = tmp_path / "policy.html"
    path.write_text("<html><head><title>x</title><style>p{}</style></head><body><h1>Privacy Policy</h1>"
                    "<h2>1. Data we collect</h2><p>We collect your <b>name</b>.</p>"
                    "<h2>2. Your rights</h2><ul><li>Access</li><li>Deletion</li></ul></body></html>",
                    encoding="utf-8")
    doc = load_document(path)
    # a heading element keeps its level as Markdown writes it, which the parser reads
    assert doc.text == ("# Privacy Policy\n\n## 1. Data we collect\n\nWe collect your name.\n\n## 2. Your rights\n\n"
                        "Access\n\nDeletion")
    assert (doc.meta.doc_type, [n.label for n in doc.tree.children[1:]]) == ("privacy_policy", ["1", "2"])
    assert doc.meta.title == "Privacy Policy"


def test_html_headings_without_numbers_are_headings(tmp_path):
    path = tmp_path / "notice.html"
    path.write_text("<html><body><h1>Ortivo Privacy Notice</h1><p>How Ortivo uses personal data.</p>"
                    "<h2>Children</h2><p>Not for children under 16.</p><h2>Your rights</h2><p>Ask us.</p>"
                    "</body></html>", encoding="utf-8")
    doc = load_document(path)
    assert [n.title for n in doc.tree.children if n.kind == "heading"] == ["Children", "Your rights"]


def test_docx_paragraphs_and_tables(tmp_path):
    import docx

    document = docx.Document()
    document.add_heading("SUPPLY AGREEMENT", level=1)
    document.add_paragraph("1. PRICE")
    document.add_paragraph("The price is set out in the table below.")
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "Widget", "£10"
    document.add_paragraph("2. DELIVERY")
    document.add_paragraph("Delivery is within 30 days.")
    path = tmp_path / "supply.docx"
    document.save(path)
    doc = load_document(path)
    assert "Widget | £10" in doc.text
    assert [(n.kind, n.label) for n in doc.tree.children] == [("preamble", None), ("section", "1"), ("section", "2")]


def test_pdf_text_layer_gives_pages(tmp_path):
    path = tmp_path / "two-pages.pdf"
    path.write_bytes(text_pdf([["1. TERM", "This Agreement lasts two years from signature."],
                               ["2. TERMINATION", "Either party may terminate this Agreement on notice."]]))
    doc = load_document(path)
    assert (doc.origin, [p.page for p in doc.pages]) == ("digital", [1, 2])
    assert doc.text[doc.pages[1].char_start:].startswith("2. TERMINATION")
    chunk_list = chunk_document(doc, min_chars=0)
    assert [(c.section, c.page) for c in chunk_list] == [("1", 1), ("2", 2)]
    assert chunk_list[1].clause_labels == ["termination"]


@pytest.fixture(scope="module")
def ocr_cache(tmp_path_factory):
    """An empty cache folder for the module (LEGALSEARCH_CACHE_DIR): the scans are read for real."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("cache")
        patch.setenv("LEGALSEARCH_CACHE_DIR", str(folder))
        yield folder / "ocr"


@pytest.fixture(scope="module")
def whole_corpus(ocr_cache):
    """The sample corpus loaded once, the scanned PDF through real OCR (about 7 s: read by two tests)."""
    if shutil.which("tesseract") is None or shutil.which("pdftoppm") is None:
        pytest.fail("tesseract / pdftoppm missing: run the project set-up (apt-get install poppler-utils "
                    "tesseract-ocr tesseract-ocr-eng tesseract-ocr-ita) before the unit tests")
    assert not ocr_cache.exists()
    return load_documents([p for p, _ in discover_documents([CORPUS])])


def test_scanned_pdf_goes_through_real_ocr(whole_corpus):
    path = CORPUS / "scanned-amendment.pdf"
    assert b"/Font" not in path.read_bytes()  # image only: no text layer to cheat with
    [doc] = [d for d in whole_corpus.documents if d.origin == "ocr"]
    assert doc.origin == "ocr" and "ocr" in doc.flags
    for words in ("AMENDMENT No. 1", "Clause 14.3", "150% of the Fees paid", "NORTHWIND"):
        assert words in doc.text, words
    assert [(c.section, c.page) for c in chunk_document(doc) if c.section] == [("1", 1), ("2", 1), ("3", 1)]
    assert not any(f.startswith("numbering_") for f in doc.flags)


def test_a_scan_read_before_comes_from_the_cache(whole_corpus, ocr_cache, monkeypatch):
    from legalsearch.load import ocr

    path = CORPUS / "scanned-amendment.pdf"
    [first] = [d for d in whole_corpus.documents if d.origin == "ocr"]
    [kept] = list(ocr_cache.glob("*.json"))  # the one scan, read once
    read = []
    monkeypatch.setattr(ocr, "_read_pages", lambda p, lang: read.append(lang) or ["ANOTHER READING"])
    again = load_document(path)
    assert read == [] and again.text == first.text and again.origin == "ocr"  # not read again
    # another language is another reading, kept beside the first
    assert ocr.ocr_pdf_pages(path, "it") == ["ANOTHER READING"] and read == ["ita+eng"]
    assert len(list(ocr_cache.glob("*.json"))) == 2
    # a kept file cut short is read again, and replaced whole
    kept.write_text('{"pages": ["AMEND', encoding="utf-8")
    assert load_document(path).text.startswith("ANOTHER READING") and len(read) == 2
    assert json.loads(kept.read_text(encoding="utf-8")) == {"pages": ["ANOTHER READING"]}


def test_numbering_that_jumps_back_after_ocr_is_flagged():
    text = "Art. 5 – Durata\n1. Tre anni.\n\nArt. 7 – Penale\n1. Dieci euro.\n\nArt. 5 – Foro\n1. Milano.\n"
    assert check_numbering(parse_structure(text, "it")) == ["numbering_jump:art 7->5"]
    doc = build_document(text, DocumentMeta(doc_id="s", title="S", language="it"), origin="ocr")
    assert "numbering_jump:art 7->5" in doc.flags and doc.origin == "ocr"


def test_discovery_skips_sidecars_hidden_and_unsupported_files(tmp_path):
    (tmp_path / "a.txt").write_text("A", encoding="utf-8")
    (tmp_path / "a.meta.json").write_text(json.dumps({"doc_id": "a", "title": "A"}), encoding="utf-8")
    (tmp_path / "b.txt.meta.json").write_text("{}", encoding="utf-8")
    (tmp_path / ".hidden.txt").write_text("H", encoding="utf-8")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "notes.txt").write_text("N", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.md").write_text("C", encoding="utf-8")
    found = discover_documents([tmp_path])
    assert [p.relative_to(tmp_path).as_posix() for p, _ in found] == ["a.txt", "sub/c.md"]


def test_the_sample_corpus_loads_completely(whole_corpus):
    result = whole_corpus
    assert result.errors == []
    assert len(result.documents) == 10  # 9 text samples + the scanned PDF
    assert {d.origin for d in result.documents} == {"digital", "ocr"}


def test_peek_language_reads_the_language_without_loading(tmp_path):
    from legalsearch.load import peek_language

    assert peek_language(CORPUS / "contratto-fornitura-acme.txt") == "it"
    assert peek_language(CORPUS / "nda-acme-globex.txt") == "en"
    assert peek_language(CORPUS / "scanned-amendment.pdf") in ("en", None)  # a scan: only OCR could tell
    plain = tmp_path / "accordo.txt"
    plain.write_text("Il presente accordo è concluso tra le parti, e la durata del contratto è di un anno. " * 5)
    assert peek_language(plain) == "it"
    assert peek_language(plain, {"language": "en"}) == "en"  # the manifest's word stands
    (tmp_path / "short.txt").write_text("NDA")
    assert peek_language(tmp_path / "short.txt") is None  # too little text to tell
    assert peek_language(tmp_path / "missing.txt") is None  # loading reports the missing file


def test_auto_embedder_is_minilm_for_english_and_e5_once_a_document_is_not():
    from legalsearch.ingest.run import Source, choose_embedder

    def source(label, language):
        return Source(label, lambda: None, lambda: language)

    english = [source("a.txt", "en"), source("b.txt", None)]
    assert choose_embedder("auto", None, english) == ("minilm", "auto: every document is in English")
    name, why = choose_embedder("auto", None, [*english, source("c.txt", "it")])
    assert name == "e5" and "c.txt" in why and "'it'" in why
    # an existing index keeps its model; an explicit name is kept as given
    assert choose_embedder("auto", {"embedder": "e5"}, english)[0] == "e5"
    assert choose_embedder("auto", {"embedder": "minilm", "embedder_build": "minilm/torch"},
                           [source("c.txt", "it")])[0] == "minilm"
    assert choose_embedder("minilm", None, [source("c.txt", "it")]) == ("minilm", "asked for")


def test_docx_tabs_and_line_breaks_are_text(tmp_path):
    # manual numbering "14.3<tab>The Supplier ...": the tab is an element of its own, not a character
    # of the run's text; without it the label runs into the clause ("14.3The Supplier")
    import docx

    document = docx.Document()
    for label, text in (("14.", "PAYMENT"), ("14.1", "The Customer pays within thirty days."),
                        ("14.2", "The Supplier delivers weekly.")):
        paragraph = document.add_paragraph()
        paragraph.paragraph_format.tab_stops.add_tab_stop(docx.shared.Cm(1.5))  # a tab stop is no text
        paragraph.add_run(label).add_tab()
        paragraph.add_run(text)
    paragraph = document.add_paragraph()
    paragraph.add_run("Orbis Ltd").add_break()
    paragraph.add_run("Quay House, Leeds")
    path = tmp_path / "tabs.docx"
    document.save(path)
    doc = load_document(path)
    assert doc.text.split("\n\n") == ["14.\tPAYMENT", "14.1\tThe Customer pays within thirty days.",
                                      "14.2\tThe Supplier delivers weekly.", "Orbis Ltd\nQuay House, Leeds"]
    assert {"14.1", "14.2"} <= {c.section for c in chunk_document(doc, min_chars=0)}


def test_html_ordered_lists_carry_the_numbers_a_browser_draws(tmp_path):
    # a terms page numbered by <ol>: the "1." / "2." are drawn by the browser, not in the text
    page = ("<html><body><h1>Terms of Service</h1><p>These terms apply to the Ortivo app.</p><ol>"
            "<li><strong>Accounts</strong><p>You must be 16 or over to open an account.</p>"
            "<ol type='a'><li>one account per person;</li><li>no shared logins.</li></ol></li>"
            "<li><strong>Payments</strong><p>Subscriptions renew every month until cancelled.</p></li>"
            "<li value='5'><strong>Termination</strong><p>We may close an account that breaks these terms.</p></li>"
            "</ol><ol start='3' type='i' reversed><li>three</li><li>two</li></ol>"
            "<ol style='list-style: none'><li>not numbered</li></ol><ul><li>a bullet</li></ul></body></html>")
    path = tmp_path / "terms.html"
    path.write_text(page)
    doc = load_document(path)
    blocks = doc.text.split("\n\n")
    assert "1. Accounts\nYou must be 16 or over to open an account." in blocks
    assert {"a. one account per person;", "b. no shared logins.", "iii. three", "ii. two", "not numbered",
            "a bullet"} <= set(blocks)
    assert "5. Termination\nWe may close an account that breaks these terms." in blocks
    assert "html_numbers:7" in doc.flags
    sections = [c.section for c in chunk_document(doc, min_chars=0) if c.section]
    assert sections[:3] == ["1", "2", "5"]


def test_docx_clauses_inside_content_controls_are_read(tmp_path):
    # a template wraps clauses in content controls (w:sdt): before, their text was dropped
    import docx
    from docx.oxml import parse_xml

    document = docx.Document()
    document.add_paragraph("SERVICES AGREEMENT")
    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    document.element.body.insert(1, parse_xml(
        f'<w:sdt {ns}><w:sdtPr/><w:sdtContent><w:p><w:r><w:t>1. TERM</w:t></w:r></w:p>'
        '<w:p><w:r><w:t>This Agreement lasts two years.</w:t></w:r></w:p></w:sdtContent></w:sdt>'))
    document.add_paragraph("2. FEES")
    path = tmp_path / "template.docx"
    document.save(path)
    assert load_document(path).text.split("\n\n") == ["SERVICES AGREEMENT", "1. TERM", "This Agreement lasts two years.",
                                                       "2. FEES"]
