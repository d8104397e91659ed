"""Structure parser: headings of contracts, statutes and Italian contratti -> a node tree.

Candidates are found and judged in `search.parse.headings`; accepted headings are nested here
with a stack: keyword levels have fixed ranks (part > chapter > article > section > clause >
1 > 1.1 > 1.1.1), list styles nest in order of appearance. Offsets are exact; a text without
headings becomes a list of paragraphs.
"""

from __future__ import annotations

import dataclasses
import itertools
import re

from legalsearch.documents.models import CONTAINER_KINDS, StructureNode
from legalsearch.parse.headings import HEADING_RE, HeadingJudge, OpenNode, inline_first_paragraph, unit_word

STRUCTURAL_KINDS = frozenset(
    {*CONTAINER_KINDS, "article", "section", "clause", "schedule", "recitals", "definitions", "preamble", "signature",
     "contents", "heading"}
)


def parse_structure(text: str, language: str = "en") -> StructureNode:
    """Parse headings into a tree of `StructureNode`s with exact character offsets.

    Args:
        text: the full extracted document text.
        language: "en" or "it" (decides how bare numbers are named: Italian "1." inside an
            article is a comma; English "14.3" is a clause or a section, whichever word the
            document itself uses more in its references).

    Returns:
        The root node (kind "document", 0..len(text)). Without any heading the children
        are the text's paragraphs (kind "paragraph").
    """
    root = OpenNode("document", None, None, None, 0, "root", -1.0)
    stack: list[OpenNode] = [root]
    state = HeadingJudge(text, language, unit_word(text, language))
    for match in HEADING_RE.finditer(text):
        node = state.judge(match, stack)
        for opened in state.contents:
            _attach(opened, stack)
        state.contents = []
        if node is not None:
            _attach(node, stack)
            first = inline_first_paragraph(text, node)
            if first is not None:
                _attach(first, stack)
    if not root.children:
        return paragraph_tree(text)
    _add_preamble(root, text)
    return _definition_entries(_freeze(root, text, len(text)), text)


def structural_units(tree: StructureNode):
    """The labelled (or titled, unnumbered) structural units of a tree, in document order."""
    return (node for node in tree.walk()
            if node.kind in STRUCTURAL_KINDS and (node.label is not None or (node.kind == "heading" and node.title)))


def has_structure(tree: StructureNode) -> bool:
    """True when the parser found at least two labelled (or titled, unnumbered) structural units."""
    return next(itertools.islice(structural_units(tree), 1, None), None) is not None


def _attach(node: OpenNode, stack: list[OpenNode]) -> None:
    if node.dynamic:
        for i in range(len(stack) - 1, 0, -1):
            entry = stack[i]
            if not entry.dynamic:
                break
            if entry.style == node.style:
                for closed in stack[i:]:
                    closed.end = node.start
                del stack[i:]
                break
    else:
        while len(stack) > 1:
            top = stack[-1]
            if top.dynamic or top.special or top.rank >= node.rank:
                top.end = node.start
                stack.pop()
            else:
                break
    stack[-1].children.append(node)
    stack.append(node)


def _add_preamble(root: OpenNode, text: str) -> None:
    first = root.children[0].start
    lead = text[:first]
    stripped = lead.lstrip(" \t\n\r\ufeff\f")
    if stripped.strip():
        begin = len(lead) - len(stripped)
        preamble = OpenNode("preamble", None, None, None, begin, "special", 0, special=True, end=first)
        root.children.insert(0, preamble)


def _freeze(node: OpenNode, text: str, parent_end: int) -> StructureNode:
    end = node.end if node.end >= 0 else parent_end
    if node.kind != "document":
        end = trim_end(text, node.start, end)
    children = []
    for i, child in enumerate(node.children):
        if child.end < 0:
            child.end = node.children[i + 1].start if i + 1 < len(node.children) else end
        children.append(_freeze(child, text, end))
    return StructureNode(node.kind, node.label, node.title, node.heading, node.start, end, children)


# a statute's unquoted definition, one a line: "inspector means an individual designated ..." (Canada),
# "analyst includes ...", "review officer has the meaning assigned ..."; lower case, so a sentence
# ("The Minister may ...") or a quoted contract definition ('"Agreement" means') is none
_DEFINITION_LINE = re.compile(r"(?m)^[ \t]*(?P<term>[a-z][a-z\-' ]{0,60}?)(?:,[^\n]{0,80}?,)?[ \t]+"
                              r"(?:means|includes|has the (?:same )?meaning)\b")
_DEFINITION_LINES_MIN = 3


def _definition_entries(tree: StructureNode, text: str) -> StructureNode:
    """Each unquoted definition line of a definitions unit as an entry of its own (an unlabelled
    paragraph titled by its term), when the unit has at least three and a list item runs over one:
    "(d) a recall ..." of the definition of "incident" then ends where "inspector means ..." starts,
    instead of holding every definition after it."""
    children = [_definition_entries(c, text) for c in tree.children]
    # a node nothing changed under is kept as it is (most trees have no definitions unit to split)
    same = all(a is b for a, b in zip(children, tree.children, strict=True))
    node = tree if same else dataclasses.replace(tree, children=children)
    if node.kind != "definitions" or not children:
        return node
    lines = [m for m in _DEFINITION_LINE.finditer(text, node.char_start, node.char_end)
             if m.start("term") > node.char_start]
    if len(lines) < _DEFINITION_LINES_MIN:
        return node
    starts = [m.start("term") for m in lines]
    if not any(c.char_start < p < c.char_end for c in children for p in starts):
        return node  # no item runs over a definition: the unit reads right as it is
    entries = []
    for i, m in enumerate(lines):
        end = trim_end(text, m.start("term"), starts[i + 1] if i + 1 < len(starts) else node.char_end)
        inner = [_cut(c, end) for c in children if m.start("term") <= c.char_start < end]
        entries.append(StructureNode("paragraph", None, m.group("term").strip(), None, m.start("term"), end,
                                     [c for c in inner if c is not None]))
    before = [_cut(c, trim_end(text, node.char_start, starts[0])) for c in children if c.char_start < starts[0]]
    return dataclasses.replace(node, children=[c for c in before if c is not None] + entries)


def _cut(node: StructureNode, end: int) -> StructureNode | None:
    """`node` ending at `end` at the latest, its children too."""
    if node.char_start >= end:
        return None
    if node.char_end <= end:
        return node
    kept = [c for c in (_cut(child, end) for child in node.children) if c is not None]
    return dataclasses.replace(node, char_end=end, children=kept)


def trim_end(text: str, start: int, end: int) -> int:
    """`end` moved back over trailing whitespace, never before `start`."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def paragraph_tree(text: str) -> StructureNode:
    """The text's paragraphs (blank-line separated, else lines) under a document node."""
    separator = re.compile(r"\n[ \t]*\n\s*") if "\n\n" in text or re.search(r"\n[ \t]+\n", text) else re.compile(r"\n\s*")
    children = []
    pos = 0
    for match in separator.finditer(text):
        _append_paragraph(children, text, pos, match.start())
        pos = match.end()
    _append_paragraph(children, text, pos, len(text))
    return StructureNode("document", None, None, None, 0, len(text), children)


def _append_paragraph(children: list[StructureNode], text: str, start: int, end: int) -> None:
    while start < end and text[start] in " \t\n\r\f\ufeff":
        start += 1
    end = trim_end(text, start, end)
    if end > start:
        children.append(StructureNode("paragraph", None, None, None, start, end, []))
