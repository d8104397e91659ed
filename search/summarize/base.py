"""The summarizer protocol, the length control every summarizer shares, and the opening.

SAC prepends one short summary to every chunk, so a summary must be short (the SAC paper's
best setting is ~150 characters) and must end cleanly: `fit_summary` trims at a clause or
word boundary and never leaves a dangling "and", comma or open parenthesis.
"""

from __future__ import annotations

import re
from typing import Protocol, runtime_checkable

from legalsearch.documents.models import ParsedDocument

DEFAULT_TARGET = 150
DEFAULT_TOLERANCE = 20

# Lines that carry no content: exhibit labels, page numbers, rules, "Execution Copy", a
# table-of-contents heading. Matched against a whole stripped line, case-insensitively.
_FURNITURE = re.compile(
    r"(?ix)^(?:"
    r"exhibits?\s+[\w.()-]+(?:\s+execution\s+(?:copy|version))?"
    r"|execution\s+(?:copy|version)|conformed\s+copy|final\s+(?:copy|version)|draft"
    r"|(?:strictly\s+)?(?:private\s+and\s+)?confidential"
    r"|page\s+\d+(?:\s+of\s+\d+)?|pagina\s+\d+(?:\s+di\s+\d+)?"
    r"|[-\u2013\s]*\d{1,4}[-\u2013\s]*|-?\s*[ivxlc]{1,6}\s*-?"
    r"|table\s+of\s+contents|indice|sommario"
    r"|[\W_]+"
    r")$"
)
# The same furniture glued to the start of a line ("Exhibit 10.1    STRATEGIC ALLIANCE ...").
_LEADING_FURNITURE = re.compile(
    r"(?i)^\s*(?:exhibits?\s+[\w.()-]+\s+|execution\s+(?:copy|version)\s+|\ufeff)+"
)
# The legend of SEC filings ("Certain confidential information ... has been omitted and filed
# separately with the Securities and Exchange Commission pursuant to Rule 406 ...").
_SEC_LEGEND = re.compile(
    r"(?is)(?:\[\s*\*+\s*\]\s*=\s*)?[^.]{0,300}?\b(?:omitted|confidential\s+treatment)\b.{0,400}?"
    r"\bsecurities\s+(?:and\s+exchange\s+commission|exchange\s+act|act)\b[^.]{0,200}\.(?:\s*as\s+amended\.)?"
)
_DANGLING_WORDS = frozenset(
    "a an and as at between by for from in of on or the to with among e ed o di da del della"
    " dei delle il la le lo gli tra fra per con su nel nella al alla".split()
)
_TAIL_JUNK = " \t,;:-\u2013\u2014/([{\"'\u201c\u2018&*\u00a7"


@runtime_checkable
class Summarizer(Protocol):
    """Turns a parsed document into one short summary string.

    `settings_key()` names everything that changes the output (candidate, length target,
    model, prompt version), so that cached summaries are reused only when they would be
    identical.
    """

    name: str

    def settings_key(self) -> str: ...

    def summarize(self, doc: ParsedDocument) -> str: ...


def normalize_space(text: str) -> str:
    """Collapse every run of whitespace (newlines, tabs, NBSP) into one space."""
    return " ".join(text.replace("\ufeff", " ").split())


def fit_summary(text: str, target: int = DEFAULT_TARGET, tolerance: int = DEFAULT_TOLERANCE) -> str:
    """Fit a summary to `target` characters (at most `target + tolerance`).

    Whitespace is collapsed. A longer text is cut at the last clause boundary ("; ", ", ",
    ". ") that leaves at least `target - tolerance` characters, else at the last word
    boundary; a single over-long word is cut hard. The tail is cleaned of punctuation
    junk, dangling function words ("and", "of", "tra") and an unclosed parenthesis.
    Shorter texts are returned cleaned, never padded.

    Raises:
        ValueError: target is not positive or tolerance is negative.
    """
    if target <= 0 or tolerance < 0:
        raise ValueError(f"target must be > 0 and tolerance >= 0 (got {target}, {tolerance})")
    text = normalize_space(text)
    limit = target + tolerance
    if len(text) > limit:
        text = _cut(text, limit, max(1, target - tolerance))
    return _clean_tail(text, max(1, target - tolerance), limit)


def _cut(text: str, limit: int, floor: int) -> str:
    window = text[: limit + 1]
    clause = max((m.start() + 1 for m in re.finditer(r"[;,.:](?= )", window) if floor <= m.start() + 1 <= limit),
                 default=-1)
    if clause > 0:
        return window[:clause]
    space = window.rfind(" ")
    return window[:space] if space > 0 else text[:limit]


def _clean_tail(text: str, floor: int, limit: int) -> str:
    previous = None
    while text and text != previous:
        previous = text
        text = text.rstrip(_TAIL_JUNK)
        head, _, last = text.rpartition(" ")
        if head and last.lower() in _DANGLING_WORDS:
            text = head
        if text.count("(") > text.count(")"):
            cut = text.rfind("(")
            if cut >= floor or len(text) >= limit:
                text = text[:cut]
            elif cut >= 0 and text[-1:].isalnum():
                text += ")"
    for opening, closing in (("\u201c", "\u201d"), ('"', '"')):
        unbalanced = text.count(opening) > text.count(closing) if opening != closing else text.count('"') % 2
        if unbalanced:
            if len(text) < limit:
                text += closing
            else:
                text = text[: text.rfind(opening)].rstrip(_TAIL_JUNK)
    return text


def meaningful_lines(text: str, max_chars: int = 4000) -> list[str]:
    """The first lines of `text` that carry content: no blank lines, no page furniture.

    Only the first `max_chars` characters are read; every line is whitespace-collapsed and
    stripped of a leading exhibit label.
    """
    lines = []
    for raw in text[:max_chars].splitlines():
        if "ecurities" in raw or "ECURITIES" in raw:
            raw = _SEC_LEGEND.sub(" ", raw)
        line = normalize_space(_LEADING_FURNITURE.sub("", raw))
        if line and not _FURNITURE.match(line):
            lines.append(line)
    return lines


def opening_text(text: str, min_chars: int, max_chars: int = 4000) -> str:
    """Meaningful lines joined by spaces until at least `min_chars` characters are collected."""
    out: list[str] = []
    size = 0
    for line in meaningful_lines(text, max_chars):
        out.append(line)
        size += len(line) + 1
        if size >= min_chars:
            break
    return " ".join(out)
