"""Defined terms: where a document defines "Confidential Information", and who uses it.

English: `"Confidential Information" means ...`, `“X” shall mean`, `The term "X" as used
herein means`, `(the "Agreement")`, `(each a "Party" and together the "Parties")`.
Italian: `per "Informazioni Riservate" si intende ...`, `"X": indica`,
`(di seguito, il "Fornitore")`. Quotes may be straight, curly or « ».
Inside a definitions unit (given the tree), also the unquoted forms that start a line, as UK
drafting writes them (in bold, which plain text loses): `Business Day: a day other than ...`,
`1.2 Fees means the fees in Schedule 2`, `(b) Servizi: i servizi descritti ...`, and the rows of a
definitions table as a .docx reads them (`Business Day | a day other than ...`).
"""

from __future__ import annotations

import re
from collections import defaultdict

from legalsearch.documents.models import Definition, StructureNode

_TERM = r"[\"“«](?P<term>[A-Z0-9][^\"“”«»\n]{0,78}?)[\"”»]"
_EMPHASIS = r"(?:\*\*|__)?"  # Markdown bold around the term: **"Confidential Information"** means
_EN_MEANS = re.compile(
    _TERM + _EMPHASIS + r"\s*(?:\([^()\n]{0,60}\)\s*)?,?\s*(?:as used (?:herein|in this \w+),?\s*)?(?:shall\s+)?"
    r"(?:means?\b|has the meaning|have the meanings?|includes?\b|refers? to|is defined|shall have the meaning)"
)
_IT_MEANS = re.compile(
    r"(?i:per)\s+" + _EMPHASIS + _TERM + _EMPHASIS + r"\s+si\s+intend(?:e|ono)|" + _TERM.replace("term>", "term2>")
    + _EMPHASIS + r"\s*(?::|indica\b|significa\b|si intende\b|designa\b|si intendono\b)"
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
_UNQUOTED_TERM = r"(?P<term>[A-Z][\w’'&/-]*(?:[ ](?:(?:of|and|or|the|in|to|for|on|by|di|del|della|dei|e)[ ])*[A-Z][\w’'&/-]*){0,5})"
_LINE_LABEL = r"(?m)^[ \t]*(?:(?:\d{1,3}(?:\.\d{1,3}){0,3}\.?|\(?[a-z]{1,4}\)|\(?\d{1,3}\))[ \t]+)?"
# "Business Day: a day ...", "Services means ...", or a definitions table's row "Business Day | a day ..."
_EN_UNQUOTED = re.compile(_LINE_LABEL + _EMPHASIS + _UNQUOTED_TERM + _EMPHASIS
                          + r"(?:[ \t]*[:|][ \t]+(?=\S)|[ \t]+(?:means?|shall mean|has the meaning|includes?)\b)")
_IT_UNQUOTED = re.compile(_LINE_LABEL + _EMPHASIS + _UNQUOTED_TERM + _EMPHASIS
                          + r"(?:[ \t]*[:|][ \t]+(?=\S)|[ \t]+(?:indica|significa|si intende|si intendono|designa)\b)")
_NOT_TERMS = frozenset(
    "In This The These Where Unless Save Except Notwithstanding For Any Each If Nel Nei Ai Il La Le Per Salvo "
    "Se Ove Qualora Ogni Note Nota Example Esempio".split())
_QUOTED = re.compile(r"[\"“«]([A-Z0-9][^\"“”«»\n]{0,78}?)[\"”»]")
_WORD = re.compile(r"[A-Z0-9][\w’'\-]*")


def extract_definitions(text: str, language: str = "en", tree: StructureNode | None = None) -> list[Definition]:
    """Defined terms of a document, in order of their (first) definition.

    Returns one `Definition` per term (the first place it is defined); its offsets are
    those of the quoted term. With `tree`, the unquoted forms inside its definitions units too.
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
    unquoted = _IT_UNQUOTED if language == "it" else _EN_UNQUOTED
    for node in _definition_units(tree):
        for match in unquoted.finditer(text, node.char_start, node.char_end):
            term = match.group("term")
            line_end = text.find("\n", match.start("term"))
            line = text[match.start("term"):line_end if line_end >= 0 else len(text)]
            if (term.split()[0] in _NOT_TERMS or term.isupper() or not _used_as_a_term(text, term)
                    or text.count(line) > 1):  # "Source: ACME INC., 10-Q" above every page: a running line
                continue
            add(term, match.start("term"))
    return sorted(found.values(), key=lambda d: d.char_start)


def _used_as_a_term(text: str, term: str) -> bool:
    """Whether `term` occurs once at least other than as a line's label ("Business Day: ..." and
    "... on each Business Day"; not "Source:" above every page of an export)."""
    pattern = re.compile(r"(?<![\w])" + re.escape(term) + r"(?![\w])(?![ \t]*:)")
    return pattern.search(text) is not None


def _definition_units(tree: StructureNode | None) -> list[StructureNode]:
    """The outermost definitions units of a tree (none without a tree)."""
    if tree is None:
        return []
    found, stack = [], [tree]
    while stack:
        node = stack.pop()
        if node.kind == "definitions":
            found.append(node)
        else:
            stack.extend(node.children)
    return sorted(found, key=lambda n: n.char_start)


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
