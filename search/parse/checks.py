"""The structure parser's own checks, and the fallback when the structure it found is doubtful.

`parse_checked` parses, checks the tree and, when a check fails, returns a tree it can trust
instead, with flags that say why (they end up in `ParsedDocument.flags`, so in `legalsearch
inspect` and in the ingest report):

- `structure_doubt:sentence_titles:N`: N units (a third or more of the titled ones, at least 3)
  whose "title" reads as the first sentence of their text (8+ words, mostly lower case). Repair:
  those titles are dropped (a first sentence weighs 1.5x in BM25 as a title).
- `structure_doubt:nesting:A>B,B>A`: units nested both ways (sections inside articles and
  articles inside sections), or a part / chapter inside an article, section or clause.
- `structure_doubt:giant_unit:art 13`: a unit at least 100 times the median size of its
  siblings of the same kind (at least 5 of them) and of 10,000 characters or more: the
  headings after it were missed.
- `structure_doubt:numbering:N`: among siblings of one kind, N numbers that go back, repeat or
  skip more than 20 (at least 3, and a quarter of the steps or more); a return to "1" (or
  "4.1") starts a new list (an attachment's own numbering) and does not count.

Fallback for nesting, a giant unit, or numbering so bad that half the steps are wrong (then
`structure_doubt:numbering_severe` is added; a milder numbering doubt is only said, the units
are still used): `structure_fallback:units:<kind>`, the outermost units of the
document's main kind (article, section or clause: the most numerous) in document order, flat
under the document, each to the start of the next, with their paragraph markers; when those
hold a giant unit too or are fewer than 2, `structure_fallback:paragraphs`:
the text's paragraphs, as for a text without headings.
"""

from __future__ import annotations

import statistics

from legalsearch.documents.models import CONTAINER_KINDS, StructureNode
from legalsearch.parse.numbering import KIND_ABBREVIATIONS, numeric_key
from legalsearch.parse.tree import paragraph_tree, parse_structure

UNIT_KINDS = ("article", "section", "clause", "definitions")
_CONTAINERS = CONTAINER_KINDS
_GIANT_RATIO = 100
_GIANT_MIN_SIBLINGS = 5
_SKIP = 20
_GIANT_MIN_CHARS = 10_000
_SEVERE_SHARE = 0.5
_NESTING_KINDS = ("article", "section", "clause", *_CONTAINERS)  # definitions: either kind


def parse_checked(text: str, language: str = "en") -> tuple[StructureNode, list[str]]:
    """`parse_structure`, then the checks; a doubtful tree is replaced by a trusted one.

    Returns:
        (tree, flags): flags are `structure_doubt:*` for each failed check and one
        `structure_fallback:*` when the tree was replaced.
    """
    tree = parse_structure(text, language)
    return check_structure(tree, text)


def check_structure(tree: StructureNode, text: str) -> tuple[StructureNode, list[str]]:
    """Run the checks on a parsed tree; return the tree to use and the flags."""
    flags: list[str] = []
    sentence = sentence_titles(tree)
    if sentence:
        flags.append(f"structure_doubt:sentence_titles:{len(sentence)}")
        tree = _drop_titles(tree, {id(n) for n in sentence})
    numbering = numbering_doubt(tree)
    if numbering:
        flags.append(numbering)
    structural = [f for f in (nesting_doubt(tree), giant_doubt(tree)) if f]
    if numbering_doubt(tree, share=_SEVERE_SHARE):
        structural.append("structure_doubt:numbering_severe")
    if not structural:
        return tree, flags  # a few numbers out of order: said, the units are still used
    flags.extend(structural)
    units = flat_units(tree, text)
    if units is not None and not giant_doubt(units):
        kind = next(c.kind for c in units.children if c.kind in UNIT_KINDS)
        return units, flags + [f"structure_fallback:units:{kind}"]
    return paragraph_tree(text), flags + ["structure_fallback:paragraphs"]


# -- checks ----------------------------------------------------------------------------------


def sentence_titles(tree: StructureNode) -> list[StructureNode]:
    """Units whose title is a first sentence, when they are a third or more of the titled ones."""
    titled = [n for n in tree.walk() if n.kind in UNIT_KINDS and n.title]
    doubtful = [n for n in titled if _is_sentence(n.title)]
    if len(doubtful) >= 3 and len(doubtful) * 3 >= len(titled):
        return doubtful
    return []


def nesting_doubt(tree: StructureNode) -> str | None:
    pairs: set[tuple[str, str]] = set()
    for node in tree.walk():
        for child in node.children:
            if node.kind in _NESTING_KINDS and child.kind in _NESTING_KINDS:
                pairs.add((_family(node.kind), _family(child.kind)))
    bad = sorted(f"{a}>{b}" for a, b in pairs if a != b and ((b, a) in pairs or (a in UNIT_KINDS and b in _CONTAINERS)))
    return f"structure_doubt:nesting:{','.join(bad)}" if bad else None


def giant_doubt(tree: StructureNode) -> str | None:
    for node in tree.walk():
        by_kind: dict[str, list[StructureNode]] = {}
        for child in node.children:
            if child.kind in UNIT_KINDS:
                by_kind.setdefault(_family(child.kind), []).append(child)
        for kind, siblings in by_kind.items():
            if len(siblings) < _GIANT_MIN_SIBLINGS:
                continue
            median = statistics.median(s.char_end - s.char_start for s in siblings) or 1
            for s in siblings:
                size = s.char_end - s.char_start
                if size >= _GIANT_RATIO * median and size >= _GIANT_MIN_CHARS:
                    return f"structure_doubt:giant_unit:{KIND_ABBREVIATIONS.get(kind, kind)} {s.label}"
    return None


def numbering_doubt(tree: StructureNode, share: float = 0.25) -> str | None:
    bad, steps = 0, 0
    for node in tree.walk():
        last: dict[str, tuple] = {}
        for child in node.children:
            key = numeric_key(child.label) if child.kind in _NESTING_KINDS[:3] else None
            if key is None:
                continue
            kind = _family(child.kind)
            if kind in last:
                steps += 1
                prev = last[kind]
                restart = key == ((*key[0][:-1], 1), 0)  # a new list ("1." of an attachment)
                if (key <= prev and not restart) or (len(key[0]) == len(prev[0]) and key[0][-1] - prev[0][-1] > _SKIP):
                    bad += 1
            last[kind] = key
    if bad >= 3 and bad >= share * steps:
        return f"structure_doubt:numbering:{bad}"
    return None


# -- fallback --------------------------------------------------------------------------------


def flat_units(tree: StructureNode, text: str) -> StructureNode | None:
    """The outermost units of the main kind, flat; None when there are fewer than 2."""
    counts: dict[str, int] = {}
    for node in tree.walk():
        if node.kind in ("article", "section", "clause") and node.label is not None:
            counts[node.kind] = counts.get(node.kind, 0) + 1
    if not counts:
        return None
    kind = max(counts, key=lambda k: (counts[k], -UNIT_KINDS.index(k)))
    wanted = (kind, "definitions")
    outer: list[StructureNode] = []
    _outermost(tree, wanted, outer)
    if len(outer) < 2:
        return None
    children: list[StructureNode] = []
    lead_end = _trim(text, 0, outer[0].char_start)
    lead_start = len(text[:lead_end]) - len(text[:lead_end].lstrip())
    if lead_end > lead_start:
        children.append(StructureNode("preamble", None, None, None, lead_start, lead_end, []))
    for i, unit in enumerate(outer):
        end = _trim(text, unit.char_start, outer[i + 1].char_start if i + 1 < len(outer) else len(text))
        kept = [c for c in unit.children if c.kind not in UNIT_KINDS + _CONTAINERS and c.char_end <= end]
        children.append(StructureNode(unit.kind, unit.label, unit.title, unit.heading, unit.char_start, end, kept))
    return StructureNode("document", None, None, None, 0, len(text), children)


def _outermost(node: StructureNode, kinds: tuple[str, ...], out: list[StructureNode]) -> None:
    for child in node.children:
        if child.kind in kinds and child.label is not None:
            out.append(child)
        else:
            _outermost(child, kinds, out)


def _trim(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _family(kind: str) -> str:
    return kind


def _is_sentence(title: str) -> bool:
    words = title.split()
    if len(words) < 8 or title.isupper():
        return False
    content = [w for w in words if w[:1].isalpha() and len(w) > 3]
    lower = sum(1 for w in content if w[0].islower())
    return bool(content) and lower * 2 > len(content)


def _drop_titles(node: StructureNode, ids: set[int]) -> StructureNode:
    title = None if id(node) in ids else node.title
    children = [_drop_titles(c, ids) for c in node.children]
    return StructureNode(node.kind, node.label, title, node.heading, node.char_start, node.char_end, children)
