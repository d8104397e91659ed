"""Human names of structure nodes for heading paths: "Section 21 – Recovery ...", "Art. 5", "comma 2"."""

from __future__ import annotations

from legalsearch.documents.models import StructureNode
from legalsearch.parse.doctypes import cites_other_documents
from legalsearch.parse.headings import KEYWORDS, unit_word


def describe_node(node: StructureNode, language: str = "en", limit: int | None = 80,
                  unit_name: str | None = None) -> str:
    """Short human label of a node for heading paths: "Section 21 – Recovery ...", "comma 2".

    `unit_name` names the bare-numbered units of this document ("Paragraph" in a judgment,
    "Section" in a statute whose "2 Interpretation" is a definitions unit), see `unit_name`."""
    kind, label = node.kind, node.label
    if kind in ("comma",):
        return f"comma {label}"
    if kind == "paragraph":
        return label if label else (node.title or "paragraph")  # a definition entry: its term
    if kind in ("heading", "definitions") and not label and node.title:
        return _shorten(node.title, limit)  # an unnumbered heading is its own name: "GOVERNING LAW"
    if kind in ("preamble", "recitals", "signature", "contents") and not label:
        name = node.heading.split(":")[0].strip() if node.heading else kind.capitalize()
        return _shorten(name, limit)
    word = _heading_word(node, language, unit_name)
    if label and " to " in label and not word.endswith("s"):
        word += "s"  # "Articles 38 to 84 – Deleted"
    text = f"{word} {label}" if label else word
    if node.title:
        text = f"{text} – {node.title}"
    return _shorten(text, limit)


def _shorten(text: str, limit: int | None = 80) -> str:
    return text if limit is None or len(text) <= limit else text[: limit - 1].rstrip() + "…"


_DISPLAY_WORDS = {"section": "Section", "clause": "Clause", "book": "Book", "part": "Part", "chapter": "Chapter",
                  "schedule": "Schedule", "definitions": "Clause"}


def unit_name(doc_type: str | None, text: str, language: str) -> str | None:
    """What the bare-numbered units of a document are called: "Paragraph" in the types that
    discuss other documents (judgments, notes; "Paragrafo" in Italian), else the document's own
    word ("Section" / "Clause", whichever its references use more); None for other Italian
    documents (articles)."""
    if cites_other_documents(doc_type):
        return "Paragrafo" if language == "it" else "Paragraph"
    if language == "it":
        return None
    return unit_word(text, language).capitalize()


def _heading_word(node: StructureNode, language: str, name: str | None = None) -> str:
    if node.heading:
        heading = node.heading
        if heading.startswith("(") and ")" in heading:
            heading = heading[heading.index(")") + 1:]  # "(Caption) Article 1": the word after the caption
        first = (heading.split() or [""])[0]
        low = first.lower()
        if low.endswith("s") and low[:-1] in KEYWORDS and " to " in (node.label or ""):
            low = low[:-1]  # "Articles 38 to 84 Deleted"
        if low in KEYWORDS or low.rstrip(".") + "." in KEYWORDS:
            return {"art.": "Art.", "sec.": "Sec.", "§": "§", "§§": "§"}.get(low, low.capitalize())
    if name and (node.kind in ("clause", "section", "definitions") or (name == "Paragrafo" and node.kind == "article")):
        return name  # an Italian judgment's bare "1." units are articles to the parser, paragraphs to a reader
    if node.kind in ("article", "definitions") and language == "it":
        return "Art."
    if node.kind == "article":
        return "Article"
    return _DISPLAY_WORDS.get(node.kind, node.kind.capitalize())
