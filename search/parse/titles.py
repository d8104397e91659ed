"""Human names of structure nodes for heading paths: "Section 21 – Recovery ...", "Art. 5", "comma 2"."""

from __future__ import annotations

from search.documents.models import StructureNode
from search.parse.headings import KEYWORDS


def describe_node(node: StructureNode, language: str = "en", limit: int | None = 80) -> str:
    """Short human label of a node for heading paths: "Section 21 – Recovery ...", "comma 2"."""
    kind, label = node.kind, node.label
    if kind in ("comma",):
        return f"comma {label}"
    if kind == "paragraph":
        return label if label else "paragraph"
    if kind in ("preamble", "recitals", "signature") and not label:
        name = node.heading.split(":")[0].strip() if node.heading else kind.capitalize()
        return _shorten(name, limit)
    word = _heading_word(node, language)
    text = f"{word} {label}" if label else word
    if node.title:
        text = f"{text} – {node.title}"
    return _shorten(text, limit)


def _shorten(text: str, limit: int | None = 80) -> str:
    return text if limit is None or len(text) <= limit else text[: limit - 1].rstrip() + "…"


_DISPLAY_WORDS = {"section": "Section", "clause": "Clause", "part": "Part", "chapter": "Chapter",
                  "schedule": "Schedule", "definitions": "Clause"}


def _heading_word(node: StructureNode, language: str) -> str:
    if node.heading:
        first = node.heading.split()[0]
        if first.lower() in KEYWORDS or first.lower().rstrip(".") + "." in KEYWORDS:
            low = first.lower()
            return {"art.": "Art.", "sec.": "Sec.", "§": "§"}.get(low, low.capitalize())
    if node.kind in ("article", "definitions") and language == "it":
        return "Art."
    if node.kind == "article":
        return "Article"
    return _DISPLAY_WORDS.get(node.kind, node.kind.capitalize())
