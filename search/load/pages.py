"""A paginated document's pages made one text: running headers, footers and page numbers out, and
a sentence that runs over a page break joined again.

A PDF exported from a word processor repeats a header ("MASTER SERVICES AGREEMENT - EXECUTION
VERSION") and a footer ("Page 3 of 12", "Confidential") on every page, and breaks clauses where
the page ends. Joined as they come, a capitalised header between blank lines reads as a heading:
it closes the clause the page break cut, and the rest of that clause ("in that Contract Year.
Neither party is liable for loss of profit.") is filed under the next clause. Here:

- a line is a running line when it sits in the top or bottom `_ZONE` non-empty lines of at least
  half the pages (two at least), the same after case and spacing are folded; a page-number line
  ("Page 3 of 12", "- 3 -", "3", "Pagina 3 di 12", "3/12") counts as one on any page;
- only the run of such lines at each edge of a page goes, never a line further in; the first
  page keeps its header lines, which are the document's title lines as often as not;
- a page whose last kept line ends without a full stop (or colon, semicolon, question or
  exclamation mark) continues on the next page: the two are joined by one newline (a wrapped
  line), else by a blank line (a paragraph break) as before.

- a word a typesetter broke at a line end ("termi-\nnation", "riserva-\ntezza") is joined again
  ("termination"), so BM25 and the question see one word; a compound the document writes with
  its hyphen on one line elsewhere ("non-disclosure"), or whose first part is a usual compound
  prefix ("self-", "third-"), keeps the hyphen and loses only the line break. A break before a
  capital ("Anglo-\nItalian") or a digit is left alone.

Pure functions; the PDF loader (text layer or OCR) calls them when it joins the pages.
"""

from __future__ import annotations

import re
from collections import Counter

_ZONE = 3
"""How many non-empty lines at the top and at the bottom of a page may be header or footer."""

_PAGE_NUMBER = re.compile(
    r"(?i)[-–—\s]*(?:(?:page|pagina|pag\.|p\.)\s*)?\d{1,4}(?:\s*(?:of|di|/|de)\s*\d{1,4})?[-–—\s]*")


def _key(line: str) -> str:
    return " ".join(line.lower().split())


def _zones(lines: list[str]) -> tuple[list[int], list[int]]:
    """Indices of the first and the last `_ZONE` non-empty lines."""
    filled = [i for i, line in enumerate(lines) if line.strip()]
    return filled[:_ZONE], filled[-_ZONE:]


def running_keys(pages: list[list[str]]) -> set[str]:
    """The folded lines that repeat in the top or bottom zone of at least half the pages (2+)."""
    if len(pages) < 2:
        return set()
    counts: Counter[str] = Counter()
    for lines in pages:
        top, bottom = _zones(lines)
        counts.update({_key(lines[i]) for i in (*top, *bottom)})
    need = max(2, (len(pages) + 1) // 2)
    return {key for key, n in counts.items() if n >= need and key}


def _removable(line: str, running: set[str]) -> bool:
    return _key(line) in running or bool(_PAGE_NUMBER.fullmatch(line.strip()))


def strip_page_edges(pages: list[str]) -> tuple[list[str], int]:
    """Each page without its running header / footer lines and page numbers; how many lines went."""
    if len(pages) < 2:
        return list(pages), 0  # a running line needs two pages to run over
    split = [page.split("\n") for page in pages]
    running = running_keys(split)
    cleaned, removed = [], 0
    for number, lines in enumerate(split):
        top, bottom = _zones(lines)
        drop: set[int] = set()
        if number > 0:  # the first page's header lines are kept (the title, as often as not)
            for i in top:
                if not _removable(lines[i], running):
                    break
                drop.add(i)
        for i in reversed(bottom):
            if not _removable(lines[i], running):
                break
            drop.add(i)
        removed += len(drop)
        cleaned.append("\n".join(line for i, line in enumerate(lines) if i not in drop))
    return cleaned, removed


def continues(previous: str, following: str) -> bool:
    """True when the page `previous` ends mid-sentence and `following` has text to carry it on."""
    last = previous.rstrip()
    return bool(last) and bool(following.strip()) and last[-1] not in ".:;!?"


_BROKEN_WORD = re.compile(r"(?<![\w-])([^\W\d_]{1,40})-[ \t]*\n[ \t]*([^\W\d_][^\W\d_]*)")

_COMPOUND_PREFIXES = frozenset(
    "non self third co cross ex multi anti pre post sub inter intra vice well long short full part "
    "semi quasi pro counter over under sotto extra auto".split())


def dehyphenate(text: str) -> tuple[str, int]:
    """`text` with its line-end word breaks joined, the two lines made one (see the module's
    notes); how many were joined."""
    if "-\n" not in text and not re.search(r"-[ \t]+\n", text):
        return text, 0
    inline = set(re.findall(r"[^\W\d_]+-[^\W\d_]+", text.lower()))  # the compounds it writes on one line
    joined = 0

    def join(match: re.Match) -> str:
        nonlocal joined
        first, second = match.group(1), match.group(2)
        if not second[0].islower():
            return match.group(0)  # "Anglo-\nItalian", a list's dash before a capital: left alone
        joined += 1
        if first.lower() in _COMPOUND_PREFIXES or f"{first}-{second}".lower() in inline:
            return f"{first}-{second}"
        return first + second

    return _BROKEN_WORD.sub(join, text), joined
