"""Human-readable citations for hits: "NDA ACME-Fornitore v2.1, Art. 5 (Durata e recesso), p. 3"."""

from __future__ import annotations

import re

_TITLE_SEP = re.compile(r"\s+[–—-]\s+|\s*:\s+")
# a citation is one line to read: a title (or a heading) longer than this is cut with "…" (the
# whole title stays in the hit's `doc_title`)
MAX_CITED_CHARS = 200


def shorten(text: str, limit: int = MAX_CITED_CHARS) -> str:
    text = " ".join(text.split()) if len(text) <= 4 * limit else " ".join(text[:4 * limit].split())
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def format_heading(heading: str) -> str:
    """'Art. 5 – Durata e recesso' -> 'Art. 5 (Durata e recesso)'."""
    heading = " ".join(heading.split())
    parts = _TITLE_SEP.split(heading, maxsplit=1)
    if len(parts) == 2 and parts[0] and parts[1]:
        return f"{parts[0]} ({parts[1].rstrip('.')})"
    return heading


def cite(source: dict) -> str:
    title = shorten(source.get("doc_title") or source.get("doc_id") or "?")
    pieces = [f"{title} v{source['version']}" if source.get("version") else title]
    path = [p for p in source.get("heading_path") or [] if p]
    if path:
        # The unit that carries the section label, plus any deeper sub-unit ("(4)", "comma 2").
        label = (source.get("section") or "").lower()
        start = next((i for i, p in enumerate(path) if label and label in p.lower()), len(path) - 1)
        pieces.append(", ".join(shorten(format_heading(p)) for p in path[start:]))
    elif source.get("section"):
        pieces.append(f"§ {source['section']}")
    if source.get("page"):
        pieces.append(f"p. {source['page']}")
    return ", ".join(pieces)
