"""Recursive character splitting on offsets (LangChain `RecursiveCharacterTextSplitter` semantics).

The LegalBench-RAG and Summary-Augmented-Chunking papers use LangChain's splitter with
`chunk_size=500, chunk_overlap=0` and the default separators ["\\n\\n", "\\n", " ", ""] as
their naive baseline. This is a re-implementation that works on (start, end) offsets
instead of strings, so every chunk is an exact slice of the document:

- pick the first separator that occurs in the span (else "");
- cut the span before each non-overlapping occurrence (the separator starts the next
  piece: LangChain's `keep_separator=True`);
- pieces shorter than `chunk_size` are merged greedily (a chunk is closed when adding the
  next piece would exceed `chunk_size`); longer pieces recurse with the next separators;
- each chunk is stripped of surrounding whitespace (`strip_whitespace=True`); empty ones
  are dropped.

So every chunk has at most `chunk_size` characters, chunks never overlap, and what lies
between two consecutive chunks is whitespace only.
"""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_SEPARATORS = ("\n\n", "\n", " ", "")


def split_recursive(
    text: str,
    start: int = 0,
    end: int | None = None,
    chunk_size: int = 500,
    separators: Sequence[str] = DEFAULT_SEPARATORS,
    keep_separator: str = "start",
) -> list[tuple[int, int]]:
    """Split `text[start:end]` into spans of at most `chunk_size` characters.

    Args:
        text: the document text (offsets refer to it).
        start, end: the span to split (default: the whole text).
        chunk_size: maximum characters per chunk.
        separators: tried in order; "" splits between characters.
        keep_separator: "start" (LangChain default: a separator begins the next piece) or
            "end" (it ends the previous piece: better for ". " sentence splitting).

    Returns:
        (char_start, char_end) spans, in order, whitespace-stripped, non-empty.
    """
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    for s, e in _split(text, start, end, list(separators), chunk_size, keep_separator):
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            spans.append((s, e))
    return spans


def _split(text: str, start: int, end: int, separators: list[str], size: int, keep: str) -> list[tuple[int, int]]:
    separator, remaining = separators[-1] if separators else "", []
    for i, candidate in enumerate(separators):
        if candidate == "":
            separator = ""
            break
        if text.find(candidate, start, end) != -1:
            separator, remaining = candidate, separators[i + 1:]
            break
    final: list[tuple[int, int]] = []
    good: list[tuple[int, int]] = []
    for s, e in _cut(text, start, end, separator, keep):
        if e - s < size:
            good.append((s, e))
            continue
        if good:
            final.extend(_merge(good, size))
            good = []
        if not remaining:
            final.append((s, e))
        else:
            final.extend(_split(text, s, e, remaining, size, keep))
    if good:
        final.extend(_merge(good, size))
    return final


def _cut(text: str, start: int, end: int, separator: str, keep: str) -> list[tuple[int, int]]:
    if separator == "":
        return [(k, k + 1) for k in range(start, end)]
    cuts = [start]
    width = len(separator)
    pos = text.find(separator, start, end)
    while pos != -1:
        cuts.append(pos if keep == "start" else pos + width)
        pos = text.find(separator, pos + width, end)
    cuts.append(end)
    return [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]


def _merge(pieces: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    # With chunk_overlap=0 LangChain drops the whole current window when it closes a chunk.
    merged: list[tuple[int, int]] = []
    first, last, total = -1, -1, 0
    for s, e in pieces:
        if total and total + (e - s) > size:
            merged.append((first, last))
            total = 0
        if not total:
            first = s
        last = e
        total += e - s
    if total:
        merged.append((first, last))
    return merged
