"""Format loaders: file bytes -> extracted text, page spans, origin and flags.

Text files keep Python's universal-newline reading (`open(path, encoding=...).read()`),
BOM included, so offsets match what any other Python reader of the same file sees (the
LegalBench-RAG spans are computed that way).
"""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

from legalsearch.documents.errors import DocumentError
from legalsearch.documents.models import PageSpan
from legalsearch.load.docx_numbering import Counters, Numbering, W, format_number
from legalsearch.load.ocr import SCANNED_CHARS_PER_PAGE, ocr_pdf_pages, tesseract_languages
from legalsearch.load.pages import continues, dehyphenate, strip_page_edges

SUPPORTED_EXTENSIONS = (".txt", ".md", ".html", ".htm", ".docx", ".pdf")
_WESTERN_ENCODINGS = ["cp1252", "iso8859_15", "latin_1", "mac_roman", "cp850", "utf_16", "utf_32"]
_BLOCK_TAGS = ("p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article",
               "table", "ul", "ol", "blockquote", "pre", "header", "footer", "title", "dt", "dd")


@dataclasses.dataclass(frozen=True, slots=True)
class Extraction:
    """What a loader got out of a file."""

    text: str
    pages: list[PageSpan]
    origin: str = "digital"
    flags: list[str] = dataclasses.field(default_factory=list)


def extract_file(path: Path, data: bytes, language: str | None = None) -> Extraction:
    """Pick the loader by extension and extract the text of one file.

    Args:
        path: the file (named in errors).
        data: its bytes (already read, so that the caller hashes the same bytes).
        language: "en" / "it" hint for OCR; None tries English and Italian together.

    Raises:
        DocumentError: unsupported extension, undecodable or corrupt file.
    """
    suffix = path.suffix.lower()
    if suffix in (".txt", ".md"):
        return extract_text_file(path, data)
    if suffix in (".html", ".htm"):
        return extract_html(path, data)
    if suffix == ".docx":
        return extract_docx(path, data)
    if suffix == ".pdf":
        return extract_pdf(path, data, language)
    raise DocumentError(
        f"{path}: unsupported file type {suffix or '(none)'}; supported: {', '.join(SUPPORTED_EXTENSIONS)}"
    )


def decode_bytes(path: Path, data: bytes) -> tuple[str, list[str]]:
    """Decode text bytes: UTF-8 first; a file that is mostly UTF-8 with a few invalid bytes (a bad
    copy-paste, a truncated write) stays UTF-8 with U+FFFD for those bytes and a flag; else the
    encoding charset-normalizer detects."""
    if b"\x00" in data[:8192] and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DocumentError(f"{path}: looks like a binary file (NUL bytes), not text; convert it or remove it")
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    lenient = _mostly_utf8(data)
    if lenient is not None:
        text, bad = lenient
        return text, [f"encoding:utf-8-with-{bad}-invalid-bytes-replaced"]
    from charset_normalizer import from_bytes

    # the documents are English or Italian: prefer Western European code pages, where short
    # texts are otherwise easily mistaken for cp1250 / cp1257 ("così" -> "coś")
    best = from_bytes(data, cp_isolation=_WESTERN_ENCODINGS).best() or from_bytes(data).best()
    if best is None or best.encoding is None:
        raise DocumentError(f"{path}: cannot detect the text encoding; re-save the file as UTF-8")
    return str(best), [f"encoding:{best.encoding}"]


def _mostly_utf8(data: bytes) -> tuple[str, int] | None:
    """(text, invalid sequences replaced) when the bytes are UTF-8 but for a few invalid
    sequences: more characters decode as multi-byte UTF-8 than fail. A cp1252 / Latin-1 file has
    (almost) no valid multi-byte sequence, so it is left to the detector."""
    parts, pos, bad = [], 0, 0
    max_bad = max(64, len(data) // 500)  # beyond that it is not "a few bad bytes"
    while True:
        try:
            parts.append(data[pos:].decode("utf-8"))
            break
        except UnicodeDecodeError as e:
            parts.append(data[pos:pos + e.start].decode("utf-8"))
            parts.append("\ufffd")
            bad += 1
            pos += e.end
            if bad > max_bad:
                return None
    text = "".join(parts)
    multibyte = sum(1 for ch in text if ord(ch) > 127) - bad
    return (text, bad) if multibyte > bad else None


def _normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def extract_text_file(path: Path, data: bytes) -> Extraction:
    """Plain text / Markdown; form feeds (\\f) split pages when present."""
    text, flags = decode_bytes(path, data)
    text = _normalize_newlines(text)
    return Extraction(text, _form_feed_pages(text), "digital", flags)


def _form_feed_pages(text: str) -> list[PageSpan]:
    if "\f" not in text:
        return []
    pages, start = [], 0
    for number, match in enumerate(re.finditer("\f", text), start=1):
        pages.append(PageSpan(number, start, match.start()))
        start = match.end()
    pages.append(PageSpan(len(pages) + 1, start, len(text)))
    return pages


def extract_html(path: Path, data: bytes) -> Extraction:
    """HTML: visible text, one line per block element (p, li, h1-h6, tr, br, ...); the numbers a
    browser draws for an ordered list's items written in front of them (`_number_lists`), and a
    heading element's level as Markdown writes it ("## Children"), which the parser reads."""
    from bs4 import BeautifulSoup, NavigableString

    raw, flags = decode_bytes(path, data)
    soup = BeautifulSoup(raw, "html.parser")
    for tag in soup(["script", "style", "noscript", "template", "head"]):
        tag.decompose()
    numbered = _number_lists(soup)
    if numbered:
        flags = [*flags, f"html_numbers:{numbered}"]
    for level in range(1, 7):  # a heading element says it is one: "## How we use your information"
        for tag in soup.find_all(f"h{level}"):
            if tag.get_text(strip=True):
                tag.insert(0, NavigableString("#" * level + " "))
    for tag in soup.find_all(_BLOCK_TAGS):
        tag.insert_before("\n")
        tag.insert_after("\n")
    text = soup.get_text()
    lines = [" ".join(line.split()) for line in _normalize_newlines(text).split("\n")]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")
    return Extraction(text, [], "digital", flags)


_LIST_NONE = re.compile(r"list-style(?:-type)?\s*:\s*none", re.IGNORECASE)


def _number_lists(soup) -> int:
    """Write into each `<li>` of an `<ol>` the label the browser draws for it ("3.", "b.", "iv."):
    its `start`, `reversed` and `type` (1, a, A, i, I), an item's own `value` and `type`; a list
    styled `list-style: none` draws none. A terms page numbered by `<ol>` otherwise has no "3." in
    its text for the parser or for "section 3". How many items were numbered."""
    from bs4 import NavigableString

    formats = {"1": "decimal", "a": "lowerLetter", "A": "upperLetter", "i": "lowerRoman", "I": "upperRoman"}
    count = 0
    for ol in soup.find_all("ol"):
        if _LIST_NONE.search(ol.get("style") or ""):
            continue
        items = ol.find_all("li", recursive=False)
        reverse = ol.has_attr("reversed")
        start = ol.get("start", "")
        value = int(start) if start.lstrip("-").isdigit() else (len(items) if reverse else 1)
        for li in items:
            own = li.get("value", "")
            if own.lstrip("-").isdigit():
                value = int(own)
            fmt = formats.get(li.get("type") or ol.get("type") or "1", "decimal")
            if not _LIST_NONE.search(li.get("style") or ""):
                li.insert(0, NavigableString(f"{format_number(value, fmt)}. "))
                count += 1
            value += -1 if reverse else 1
    return count


def extract_docx(path: Path, data: bytes) -> Extraction:
    """DOCX: paragraphs and table rows in body order, one per line, blank line between blocks; the
    numbers Word draws for numbered paragraphs written in front of them (`load.docx_numbering`,
    flag `docx_numbers:N`)."""
    try:
        import docx

        document = docx.Document(io.BytesIO(data))
    except Exception as e:  # python-docx raises zipfile/lxml/KeyError errors on bad files
        raise DocumentError(f"{path}: not a readable .docx file ({e.__class__.__name__}: {e}); "
                            "re-save it from Word/LibreOffice or convert it to PDF") from e
    numbering = docx_numbering(document)
    counters = Counters()
    blocks: list[str] = []
    numbered = 0
    for element in _body_blocks(document.element.body):
        if element.tag == W + "p":
            text = _run_text(element)
            listed = numbering.of_paragraph(element) if numbering is not None else None
            label = counters.label(*listed) if listed is not None else ""  # an empty one counts, as in Word
            if text.strip():
                numbered += bool(label)
                blocks.append(label + text.strip())
        elif element.tag == W + "tbl":
            for row in element.findall(W + "tr"):  # a table inside a cell stays that cell's text, read once
                cells = [_run_text(cell).strip() for cell in row.findall(W + "tc")]
                if any(cells):
                    blocks.append(" | ".join(cells))
    return Extraction("\n\n".join(blocks), [], "digital", [f"docx_numbers:{numbered}"] if numbered else [])


_WRAPPERS = {W + "sdt", W + "sdtContent", W + "customXml"}


def _body_blocks(element):
    """The paragraphs and tables of a body in order, those inside content controls (`w:sdt`, as
    templates wrap a cover page, a table of contents or whole clauses) and custom XML included."""
    for child in element.iterchildren():
        if child.tag in (W + "p", W + "tbl"):
            yield child
        elif child.tag in _WRAPPERS:
            yield from _body_blocks(child)


_RUN_CHARS = {W + "tab": "\t", W + "br": "\n", W + "cr": "\n", W + "noBreakHyphen": "-"}


def _run_text(element) -> str:
    """The text of a paragraph (or a table cell) as Word shows it: its runs' text, with the tabs and
    line breaks that are elements of their own ("14.3<tab>The Supplier ..." would read
    "14.3The Supplier"); a paragraph's tab stops (`w:pPr/w:tabs/w:tab`) and deleted text are no text."""
    parts = []
    for node in element.iter():
        if node.tag == W + "t":
            parts.append(node.text or "")
        elif node.tag in _RUN_CHARS and node.getparent() is not None and node.getparent().tag == W + "r":
            parts.append(_RUN_CHARS[node.tag])
    return "".join(parts)


def docx_numbering(document) -> Numbering | None:
    """The document's list definitions and its styles' numbering; None when it has no numbering part."""
    try:
        numbering_xml = document.part.numbering_part.element
    except (KeyError, NotImplementedError, AttributeError):
        return None
    try:
        styles_xml = document.styles.element
    except (KeyError, NotImplementedError, AttributeError):
        styles_xml = None
    return Numbering(numbering_xml, styles_xml)


def extract_pdf(path: Path, data: bytes, language: str | None = None) -> Extraction:
    """PDF with a text layer via pypdf; pages with (almost) no text are OCR'd instead.

    Triage: fewer than `SCANNED_CHARS_PER_PAGE` non-space characters per page on average
    means a scan (a text layer of page numbers or a stamp does not count).
    """
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            raise DocumentError(f"{path}: the PDF is encrypted; remove the password and try again")
        texts = [page.extract_text() or "" for page in reader.pages]
    except DocumentError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as e:
        raise DocumentError(f"{path}: corrupt or unreadable PDF ({e.__class__.__name__}: {e}); "
                            "re-export it or provide a text version") from e
    if not texts:
        raise DocumentError(f"{path}: the PDF has no pages")
    visible = sum(len("".join(t.split())) for t in texts)
    if visible / len(texts) < SCANNED_CHARS_PER_PAGE:
        lang = tesseract_languages(language)
        return _join_pages(ocr_pdf_pages(path, language, data), "ocr", ["ocr", f"ocr_lang:{lang}"])
    return _join_pages([_normalize_newlines(t) for t in texts], "digital", [])


def _join_pages(texts: list[str], origin: str, flags: list[str]) -> Extraction:
    """The pages as one text (`search.load.pages`): running headers, footers and page numbers out
    (flag `page_edges_removed:N`), words broken at a line end joined (`dehyphenated:N`), a sentence
    cut by a page break joined by one newline."""
    texts, removed = strip_page_edges(texts)
    if removed:
        flags = [*flags, f"page_edges_removed:{removed}"]
    joined = [dehyphenate(text) for text in texts]
    texts = [text for text, _ in joined]
    breaks = sum(count for _, count in joined)
    if breaks:
        flags = [*flags, f"dehyphenated:{breaks}"]
    parts, pages, pos = [], [], 0
    for number, text in enumerate(texts, start=1):
        text = text.strip("\n")
        if parts:
            separator = "\n" if continues(parts[-1], text) else "\n\n"
            parts.append(separator)
            pos += len(separator)
        pages.append(PageSpan(number, pos, pos + len(text)))
        parts.append(text)
        pos += len(text)
    return Extraction("".join(parts), pages, origin, flags)
