"""Defined terms: where a document defines "Confidential Information", and who uses it.

English: `"Confidential Information" means ...`, `“X” shall mean`, `The term "X" as used
herein means`, `(the "Agreement")`, `(each a "Party" and together the "Parties")`.
Italian: `per "Informazioni Riservate" si intende ...`, `"X": indica`,
`(di seguito, il "Fornitore")`. Quotes may be straight, curly or « ».
"""

from __future__ import annotations

import re
from collections import defaultdict

from legalsearch.documents.models import Definition

_TERM = r"[\"“«](?P<term>[A-Z0-9][^\"“”«»\n]{0,78}?)[\"”»]"
_EN_MEANS = re.compile(
    _TERM + r"\s*(?:\([^()\n]{0,60}\)\s*)?,?\s*(?:as used (?:herein|in this \w+),?\s*)?(?:shall\s+)?"
    r"(?:means?\b|has the meaning|have the meanings?|includes?\b|refers? to|is defined|shall have the meaning)"
)
_IT_MEANS = re.compile(
    r"(?i:per)\s+" + _TERM + r"\s+si\s+intend(?:e|ono)|" + _TERM.replace("term>", "term2>")
    + r"\s*(?::|indica\b|significa\b|si intende\b|designa\b|si intendono\b)"
)
_PAREN = re.compile(r"\((?P<inner>[^()]{0,160})\)")
_EN_PAREN_LEAD = re.compile(
    r"^\s*(?:(?:the|each|a|an|collectively|together|jointly|individually|hereinafter|herein|referred to as|"
    r"or|and|as|called|below|after|in this agreement|,)\s*)*[\"“«]"
)
_IT_PAREN_LEAD = re.compile(
    r"^\s*(?:(?:di seguito|in seguito|qui di seguito|d'ora in(?:nanzi| poi)|anche solo|in breve|breviter|"
    r"congiuntamente|singolarmente|anche|denominat[oaei]|definit[oaei])[\s,]*)*"
    r"(?:il|lo|la|i|gli|le|l'|l’)?\s*[\"“«]"
)
_QUOTED = re.compile(r"[\"“«]([A-Z0-9][^\"“”«»\n]{0,78}?)[\"”»]")
_WORD = re.compile(r"[A-Z0-9][\w’'\-]*")


def extract_definitions(text: str, language: str = "en") -> list[Definition]:
    """Defined terms of a document, in order of their (first) definition.

    Returns one `Definition` per term (the first place it is defined); its offsets are
    those of the quoted term.
    """
    found: dict[str, Definition] = {}

    def add(term: str, start: int) -> None:
        term = term.strip()
        if len(term) < 2 or term in found or not any(c.isalpha() for c in term):
            return
        found[term] = Definition(term, start, start + len(term))

    means = _IT_MEANS if language == "it" else _EN_MEANS
    for match in means.finditer(text):
        group = "term" if match.group("term") else "term2"
        add(match.group(group), match.start(group))
    lead = _IT_PAREN_LEAD if language == "it" else _EN_PAREN_LEAD
    for match in _PAREN.finditer(text):
        inner = match.group("inner")
        if ("\"" not in inner and "“" not in inner and "«" not in inner) or not lead.match(inner):
            continue
        for quoted in _QUOTED.finditer(inner):
            add(quoted.group(1), match.start("inner") + quoted.start(1))
    return sorted(found.values(), key=lambda d: d.char_start)


def find_term_uses(text: str, terms: list[str]) -> dict[str, list[int]]:
    """Offsets where each defined term occurs (case-sensitive, whole words).

    Looks up capitalized words in a dictionary of terms keyed by their first word instead
    of one huge regex alternation: linear in the text, whatever the number of terms.
    """
    by_first: dict[str, list[str]] = defaultdict(list)
    for term in terms:
        first = _WORD.match(term)
        if first:
            by_first[first.group(0)].append(term)
    for candidates in by_first.values():
        candidates.sort(key=len, reverse=True)
    uses: dict[str, list[int]] = defaultdict(list)
    size = len(text)
    for word in _WORD.finditer(text):
        candidates = by_first.get(word.group(0))
        if not candidates:
            continue
        pos = word.start()
        if pos and (text[pos - 1].isalnum() or text[pos - 1] == "_"):
            continue
        for term in candidates:
            end = pos + len(term)
            if text.startswith(term, pos) and (end >= size or not (text[end].isalnum() or text[end] == "_")):
                uses[term].append(pos)
                break
    return dict(uses)
