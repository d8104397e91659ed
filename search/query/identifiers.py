"""References written in a query ("section 21", "s.21A", "clause 14.3", "art. 7", "Allegato B").

Embeddings lose them and BM25 alone confuses "21" with "21A" or "14.3" with "14.2"; these are
matched exactly against the chunks' section labels instead (see `search.query.bodies.identifier_query`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# an inserted article of a code ("Article 134-2", "Article 667-2") keeps its "-N"; after a plural
# keyword ("Articles 38-44") the "-N" is a range, and the first number is the reference
_LATIN_SUFFIX = r"[- ]?(?:bis|ter|quater|quinquies|sexies)\b"  # "12-bis", "12 bis", "3bis"
_NUM = rf"\d+(?:{_LATIN_SUFFIX}|[A-Z]?(?:\.\d+[A-Z]?)*(?:{_LATIN_SUFFIX}|-\d{{1,3}}(?![\d.]))?)"
_PLURAL = re.compile(r"(?i)^(?:sections|clauses|articles|articoli|artt|paragraphs|ss)\b")
_INSERTED = re.compile(r"^(\d+)-\d{1,3}$")
_PATTERNS = [
    # kind, regex (group "label"); order matters: longer keywords first
    # "subsection 5(1)", "sub-section 12(3)": a part of section 5, which is the unit cited
    ("section", r"\bsub-?sections?\s*(?P<label>\d+[A-Z]?(?:\.\d+)?)(?=\s*\()"),
    ("section", rf"(?:\b(?:sections?|secs?\.?|ss?\.\s?)|§+\s?)\s*(?P<label>{_NUM})"),
    ("clause", rf"\b(?:clauses?|cl\.)\s*(?P<label>{_NUM})"),
    ("article", rf"\b(?:articles?|articol[oi]|artt?\.?|art)\s*(?P<label>{_NUM})"),
    ("paragraph", rf"\b(?:paragraphs?|para\.?|paragrafo)\s*(?P<label>{_NUM})"),
    ("schedule", r"\b(?:schedules?)\s+(?P<label>\d+|[A-Z])\b"),
    ("annex", r"\b(?:annex(?:es)?|allegat[oi]|exhibits?|appendix)\s+(?P<label>\d+|[A-Z])\b"),
    ("part", r"\b(?:part)\s+(?P<label>\d+|[IVX]+)\b"),
]
_COMPILED = [(kind, re.compile(rx, re.IGNORECASE)) for kind, rx in _PATTERNS]
# "14.3" alone, with a dotted number, is an identifier in legal questions ("what does 14.3 cap?")
_BARE_DOTTED = re.compile(r"(?<![\w.,])(?P<label>\d{1,3}\.\d{1,3}(?:\.\d{1,3})*)(?![\w,]|\.\d)")
# ... but not an amount or a measure of a plain-language question: "took 12.99 from my card",
# "€ 9.99 a month", "a 4.5% increase", "1.500 euro" (Italian thousands), "2.5 km", "1.5 million"
_AMOUNT_BEFORE = re.compile(
    r"(?i)(?:[€$£¥]|\b(?:eur|usd|gbp|chf)|\b(?:took|paid|pay|pays|paying|charged?|charging|costs?|priced?|fee of"
    r"|addebitat[oi]|pagat[oi]|pago|paghiamo|costa|costano|prezzo di))\s*$")
_AMOUNT_AFTER = re.compile(
    r"(?i)\s*(?:%|percent\b|per\s?cent\b|per\s?cento\b|€|euros?\b|eur\b|dollars?\b|usd\b|pounds?\b|gbp\b"
    r"|sterling\b|chf\b|francs?\b|k\b|m\b|bn\b|million\b|billion\b|thousand\b|mila\b|milion[ei]\b|miliard[oi]\b"
    r"|km\b|kms\b|kg\b|kilos?\b|kilomet(?:re|er)s?\b|met(?:re|er)s?\b|m2\b|m²|sq\.?\s?m\b|mq\b"
    r"|hours?\b|days?\b|weeks?\b|months?\b|years?\b|ore\b|giorni\b|settimane\b|mesi\b|anni\b|times\b|volte\b"
    r"|(?:a|per|every|each|al|all'|ogni)\s*(?:month|year|week|mese|anno|settimana)\b)")
# ", paragrafo 3" right after "l'articolo 9": a paragraph of that article, not a unit of its own
_OF_THE_UNIT_BEFORE = re.compile(r"\s*,?\s*")
# Codes cited externally: "art. 1341 c.c.", "section 21 of the Housing Act 1988" stay identifiers
# but are not sections of the document asked about when followed by a code abbreviation.
_EXTERNAL_CODE = re.compile(r"^\s*(?:c\.c\.|c\.p\.c\.|c\.p\.|cod\.|codice)", re.IGNORECASE)


@dataclass(frozen=True)
class QueryRef:
    kind: str
    label: str
    raw: str
    external: bool = False


def normalize_label(label: str) -> str:
    """Labels as the section keyword field stores them (its normalizer lowercases)."""
    label = label.strip().rstrip(".").replace(" ", "")
    label = re.sub(r"-?(bis|ter|quater|quinquies|sexies)$", r"-\1", label, flags=re.IGNORECASE)  # "12 bis", "12bis"
    return label.lower()


def parse_identifiers(query: str) -> list[QueryRef]:
    """All references in `query`, in order, without duplicates."""
    found: list[tuple[int, QueryRef]] = []
    taken: list[tuple[int, int]] = []
    units: list[int] = []  # where each article / section / clause reference ends
    for kind, rx in _COMPILED:
        for m in rx.finditer(query):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            if kind == "paragraph" and any(_OF_THE_UNIT_BEFORE.fullmatch(query, e, m.start()) for e in units):
                taken.append((m.start(), m.end()))
                continue
            if kind in ("section", "clause", "article"):
                units.append(m.end())
            external = bool(_EXTERNAL_CODE.match(query[m.end():]))
            label = normalize_label(m.group("label"))
            if _PLURAL.match(m.group(0).strip()) and _INSERTED.match(label):
                label = _INSERTED.match(label).group(1)
            found.append((m.start(), QueryRef(kind, label, m.group(0).strip(), external)))
            taken.append((m.start(), m.end()))
    for m in _BARE_DOTTED.finditer(query):
        if any(s <= m.start() < e for s, e in taken):
            continue
        if _AMOUNT_BEFORE.search(query, 0, m.start()) or _AMOUNT_AFTER.match(query, m.end()):
            continue  # a price, a rate or a measure, not a clause number
        found.append((m.start(), QueryRef("section", normalize_label(m.group("label")), m.group(0))))
    seen: set[tuple[str, str]] = set()
    refs = []
    for _, ref in sorted(found, key=lambda x: x[0]):
        if (ref.kind, ref.label) not in seen:
            seen.add((ref.kind, ref.label))
            refs.append(ref)
    return refs


def section_labels(refs: list[QueryRef]) -> list[str]:
    """Labels to match against `section` (internal references only)."""
    return list(dict.fromkeys(r.label for r in refs if not r.external))
