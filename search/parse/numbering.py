"""Label arithmetic: what comes after "(h)", "21A", "1-bis", "iv"; numbering sanity checks.

Used by the structure parser (to tell a real "(b)" heading from a wrapped line that starts
with one) and after OCR (to flag "Art. 7" followed by "Art. 5").
"""

from __future__ import annotations

import re

from legalsearch.documents.models import StructureNode

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_ROMAN_RE = re.compile(r"^(?=[ivxlc]+$)c{0,3}(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
_LATIN_SUFFIXES = ("bis", "ter", "quater", "quinquies", "sexies", "septies", "octies")
_NUMERIC_RE = re.compile(
    r"^(\d+(?:\.\d+)*)(?:-?([A-Z]{1,2}|[a-z])|-(bis|ter|quater|quinquies|sexies|septies|octies)|-(\d{1,3}))?$")

KIND_ABBREVIATIONS = {"article": "art", "section": "section", "clause": "clause", "book": "book", "part": "part",
                      "chapter": "chapter", "division": "division", "subdivision": "subdivision",
                      "schedule": "schedule", "definitions": "clause"}


def is_roman(label: str) -> bool:
    """True for a well-formed roman numeral ("iv", "XII"); case-insensitive."""
    return bool(label) and bool(_ROMAN_RE.match(label.lower()))


def roman_value(label: str) -> int:
    """Value of a roman numeral (assumes `is_roman`)."""
    total, prev = 0, 0
    for ch in reversed(label.lower()):
        value = _ROMAN[ch]
        total = total - value if value < prev else total + value
        prev = max(prev, value)
    return total


def alpha_value(label: str) -> int:
    """Position of a letter label: a=1, z=26, aa=27 (doubled letters), A=1."""
    low = label.lower()
    if len(set(low)) == 1:
        return (ord(low[0]) - 96) + 26 * (len(low) - 1)
    return -1


def split_numeric(label: str) -> tuple[tuple[int, ...], str] | None:
    """Split "14.3" -> ((14, 3), ""), "21A" -> ((21,), "A"), "1-bis" -> ((1,), "bis"), "3-2" -> ((3,), "2")."""
    match = _NUMERIC_RE.match(label)
    if not match:
        return None
    parts = tuple(int(p) for p in match.group(1).split("."))
    return parts, (match.group(2) or match.group(3) or match.group(4) or "")


def _suffix_rank(suffix: str) -> int:
    if not suffix:
        return 0
    if suffix in _LATIN_SUFFIXES:
        return _LATIN_SUFFIXES.index(suffix) + 1
    if suffix.isdigit():
        return int(suffix)  # an inserted article "3-2"
    return alpha_value(suffix)


def follows_numeric(prev: str, new: str, max_gap: int = 3) -> bool:
    """Whether `new` can be the next sibling of `prev` ("14.2" -> "14.3", "21" -> "21A")."""
    a, b = split_numeric(prev), split_numeric(new)
    if not a or not b or len(a[0]) != len(b[0]) or a[0][:-1] != b[0][:-1]:
        return False
    (pa, sa), (pb, sb) = a, b
    if pa[-1] == pb[-1]:
        return _suffix_rank(sb) > _suffix_rank(sa)
    return 0 < pb[-1] - pa[-1] <= max_gap


def follows_letter(prev: str, new: str, roman: bool, max_gap: int = 2) -> bool:
    """Whether letter/roman label `new` can follow `prev` ("h" -> "i", "iii" -> "iv")."""
    if roman:
        if not (is_roman(prev) and is_roman(new)):
            return False
        return 0 < roman_value(new) - roman_value(prev) <= max_gap
    va, vb = alpha_value(prev), alpha_value(new)
    return va > 0 and 0 < vb - va <= max_gap


def numeric_key(label: str | None) -> tuple[tuple[int, ...], int] | None:
    """Sortable key of a numeric-ish label, or None when it is not one ("B", "IV" -> roman)."""
    if not label:
        return None
    split = split_numeric(label)
    if split:
        return split[0], _suffix_rank(split[1])
    if is_roman(label):
        return (roman_value(label),), 0
    return None


def check_numbering(tree: StructureNode) -> list[str]:
    """Flags for sibling articles / sections / clauses whose numbers go back or repeat.

    Returns flags such as "numbering_jump:art 7->5" and "numbering_repeat:section 4";
    typical of OCR misreads ("8" for "3") and of pages scanned out of order.
    """
    flags: list[str] = []
    for node in tree.walk():
        last: dict[str, tuple[str, tuple]] = {}
        for child in node.children:
            abbr = KIND_ABBREVIATIONS.get(child.kind)
            key = numeric_key(child.label)
            if abbr is None or key is None:
                continue
            if abbr in last:
                prev_label, prev_key = last[abbr]
                if key == prev_key:
                    flags.append(f"numbering_repeat:{abbr} {child.label}")
                elif key < prev_key:
                    flags.append(f"numbering_jump:{abbr} {prev_label}->{child.label}")
            last[abbr] = (child.label, key)
    return flags
