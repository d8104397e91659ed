"""Chunkers: "structural" (one unit of legal meaning per chunk) and "recursive" (baseline).

Structural: walk the tree down to the units (article / section / clause / schedule; the
deepest such level that has labels). A unit is one chunk. A unit longer than `max_chars`
is split at its sub-units (commi, (a), (i), ...) packed greedily up to `max_chars`, then
at paragraphs and sentences as a last resort; every piece of a split unit carries the
unit heading in `Chunk.heading` (not in `text`, which is always the exact document slice).
Labelled units are never merged with each other (a repealed "21 [Repealed]" stays its own
chunk, so "section 21" finds it); unlabelled pieces (preamble, recitals, signatures,
paragraphs of an unstructured text) are packed together, and a tiny unlabelled piece
(under `min_chars`, e.g. the "14. LIMITATION OF LIABILITY" heading line before 14.1) is
merged into its neighbour.

Recursive: LangChain's RecursiveCharacterTextSplitter semantics (see recursive.py), with
heading path and section looked up in the tree.

Both then get cross-references resolved to chunk ids, defined terms linked to the chunks
that define them, and clause labels (see `enrich_chunks`).
"""

from __future__ import annotations

import bisect
import dataclasses
from typing import Literal, get_args

from legalsearch.chunk.enrich import enrich_chunks
from legalsearch.chunk.recursive import split_recursive
from legalsearch.documents.errors import DocumentError
from legalsearch.documents.models import CONTAINER_KINDS, Chunk, ParsedDocument, StructureNode, make_chunk_id
from legalsearch.parse.titles import describe_node, unit_name
from legalsearch.parse.tree import STRUCTURAL_KINDS, trim_end

Chunker = Literal["structural", "recursive"]
CHUNKERS: tuple[str, ...] = get_args(Chunker)
_SENTENCE_SEPARATORS = ("\n\n", "\n", ". ", "; ", ", ", " ", "")


@dataclasses.dataclass(slots=True)
class _Piece:
    """A chunk in the making: a span plus the nodes that give its path and section."""

    start: int
    end: int
    chain: list[StructureNode]  # ancestors (document excluded) down to the unit
    unit: StructureNode | None
    sub: StructureNode | None = None
    heading: str | None = None
    labelled: bool = True
    loose: bool = False  # an intro or a bare paragraph: may join a labelled neighbour when tiny

    @property
    def size(self) -> int:
        return self.end - self.start


def chunk_document(
    doc: ParsedDocument,
    chunker: str = "structural",
    max_chars: int = 1800,
    recursive_size: int = 500,
    *,
    min_chars: int = 200,
) -> list[Chunk]:
    """Cut a parsed document into chunks with exact offsets, paths, references and labels.

    Args:
        doc: the parsed document.
        chunker: "structural" or "recursive".
        max_chars: structural: a unit longer than this is split at its sub-units.
        recursive_size: recursive: chunk size in characters (500 in the papers).
        min_chars: structural: unlabelled pieces shorter than this join a neighbour.

    Returns:
        Chunks in document order; `doc.text[c.char_start:c.char_end] == c.text`.
    """
    if chunker == "structural":
        pieces = _structural(doc.tree, doc.text, max_chars, min_chars, doc.meta.language,
                             unit_name(doc.meta.doc_type, doc.text, doc.meta.language))
    elif chunker == "recursive":
        pieces = [_locate(doc.tree, s, e) for s, e in split_recursive(doc.text, chunk_size=recursive_size)]
    else:
        raise DocumentError(f"unknown chunker {chunker!r}; use one of: {', '.join(CHUNKERS)}")
    return enrich_chunks(doc, _to_chunks(doc, pieces))


# -- structural ------------------------------------------------------------------------


def _structural(tree: StructureNode, text: str, max_chars: int, min_chars: int, language: str,
                name: str | None = None) -> list[_Piece]:
    return _container(tree, [], text, max_chars, min_chars, language, name)


def _is_structural(node: StructureNode) -> bool:
    return node.kind in STRUCTURAL_KINDS


def _container(node: StructureNode, chain: list[StructureNode], text: str, max_chars: int,
               min_chars: int, language: str, name: str | None = None) -> list[_Piece]:
    own_chain = chain if node.kind == "document" else chain + [node]
    pieces: list[_Piece] = []
    if node.kind != "document" and node.children:
        intro_end = trim_end(text, node.char_start, node.children[0].char_start)
        if intro_end > node.char_start:
            parts = _text_parts(text, node.char_start, intro_end, max_chars, None)
            heading = (" > ".join(describe_node(n, language, limit=None, unit_name=name) for n in own_chain)
                       if len(parts) > 1 else None)
            pieces.extend(_Piece(s, e, own_chain, node, heading=heading, labelled=False, loose=True)
                          for s, e, _ in parts)
    for child in node.children:
        if _is_structural(child) and any(_is_structural(g) for g in child.children):
            pieces.extend(_container(child, own_chain, text, max_chars, min_chars, language, name))
        elif _is_structural(child):
            pieces.extend(_unit(child, own_chain, text, max_chars, language=language, name=name))
        else:  # a paragraph straight under a container: parties, unstructured text
            loose = _unit(child, own_chain, text, max_chars, labelled=False, language=language, name=name)
            for piece in loose:
                piece.loose = True
            pieces.extend(loose)
    return _merge_small(pieces, max_chars, min_chars)


def _unit(node: StructureNode, chain: list[StructureNode], text: str, max_chars: int,
          labelled: bool = True, language: str = "en", name: str | None = None) -> list[_Piece]:
    # an unnumbered heading with a body is a unit of its own too (never packed with its
    # neighbours); a bare heading line ("APPROVED JUDGMENT" before "Introduction") joins the next
    titled = node.kind in ("heading", "definitions") and bool(node.title)
    bare = titled and node.char_end - node.char_start <= len(node.heading or "") + 2
    # a table of contents is kept apart from the preamble it follows (labelled "contents" in enrich)
    labelled = labelled and (node.label is not None or (titled and not bare) or node.kind == "contents")
    unit_chain = chain + [node]
    if node.char_end - node.char_start <= max_chars:
        return [_Piece(node.char_start, node.char_end, unit_chain, node, labelled=labelled, loose=bare)]
    parts = _sub_parts(node, text, max_chars)
    packed: list[tuple[int, int, StructureNode | None]] = []
    for start, end, sub in parts:
        if packed and end - packed[-1][0] <= max_chars:
            packed[-1] = (packed[-1][0], end, packed[-1][2])
        else:
            packed.append((start, end, sub))
    heading = " > ".join(describe_node(n, language, limit=None, unit_name=name) for n in unit_chain
                         if n.label is not None or _is_structural(n))
    return [_Piece(s, e, unit_chain, node, sub=sub, heading=heading, labelled=labelled) for s, e, sub in packed]


def _sub_parts(node: StructureNode, text: str, max_chars: int) -> list[tuple[int, int, StructureNode | None]]:
    """Split a node at its children; text that is still too long at sentences."""
    parts: list[tuple[int, int, StructureNode | None]] = []
    intro_end = node.children[0].char_start if node.children else node.char_end
    intro_end = trim_end(text, node.char_start, intro_end)
    if intro_end > node.char_start:
        parts.extend(_text_parts(text, node.char_start, intro_end, max_chars, None))
    for child in node.children:
        if child.char_end - child.char_start <= max_chars:
            parts.append((child.char_start, child.char_end, child))
        elif child.children:
            sub_parts = _sub_parts(child, text, max_chars)
            parts.extend((s, e, sub if sub is not None else child) for s, e, sub in sub_parts)
        else:
            parts.extend(_text_parts(text, child.char_start, child.char_end, max_chars, child))
    return parts


def _text_parts(text: str, start: int, end: int, max_chars: int,
                sub: StructureNode | None) -> list[tuple[int, int, StructureNode | None]]:
    if end - start <= max_chars:
        return [(start, end, sub)]
    spans = split_recursive(text, start, end, max_chars, _SENTENCE_SEPARATORS, keep_separator="end")
    return [(s, e, sub) for s, e in spans]


def _merge_small(pieces: list[_Piece], max_chars: int, min_chars: int) -> list[_Piece]:
    # 1) pack runs of unlabelled pieces (preamble, parties, recitals, loose paragraphs)
    packed: list[_Piece] = []
    for piece in pieces:
        last = packed[-1] if packed else None
        if (last is not None and not last.labelled and not piece.labelled and last.heading is None
                and piece.heading is None and piece.end - last.start <= max_chars):
            last.end = piece.end
            last.loose = last.loose and piece.loose
        else:
            packed.append(piece)
    # 2) a tiny unlabelled piece joins the next piece (a heading line joins its first clause),
    #    or else the previous one
    out: list[_Piece] = []
    i = 0
    while i < len(packed):
        piece = packed[i]
        nxt = packed[i + 1] if i + 1 < len(packed) else None
        if piece.loose and not piece.labelled and piece.size < min_chars and piece.heading is None:
            if nxt is not None and nxt.end - piece.start <= max_chars and (nxt.heading is None or nxt.sub is None):
                nxt.start = piece.start
                i += 1
                continue
            if out and piece.end - out[-1].start <= max_chars and out[-1].heading is None:
                out[-1].end = piece.end
                i += 1
                continue
        out.append(piece)
        i += 1
    return out


# -- recursive -----------------------------------------------------------------------------
def _locate(tree: StructureNode, start: int, end: int) -> _Piece:
    chain: list[StructureNode] = []
    node = tree
    while True:
        child = next((c for c in node.children if c.char_start <= start < c.char_end), None)
        if child is None:
            break
        chain.append(child)
        node = child
    unit = next((n for n in reversed(chain) if _is_structural(n)), None)
    structural_chain = [n for n in chain if _is_structural(n)]
    sub = chain[-1] if chain and not _is_structural(chain[-1]) else None
    return _Piece(start, end, structural_chain, unit, sub=sub, labelled=unit is not None)


# -- records -------------------------------------------------------------------------------
def _to_chunks(doc: ParsedDocument, pieces: list[_Piece]) -> list[Chunk]:
    text, meta = doc.text, doc.meta
    name = unit_name(meta.doc_type, text, meta.language)
    page_starts = [p.char_start for p in doc.pages]
    chunks: list[Chunk] = []
    for piece in pieces:
        start, end = piece.start, piece.end
        while start < end and text[start] in " \t\n\r\f\ufeff":
            start += 1
        end = trim_end(text, start, end)
        if end <= start:
            continue
        path = [describe_node(n, meta.language, unit_name=name) for n in piece.chain
                if n.label is not None or _is_structural(n)]
        path.extend(describe_node(sub, meta.language, unit_name=name) for sub in _sub_chain(piece, start))
        unit = _section_node(piece)
        chunks.append(Chunk(
            chunk_id=make_chunk_id(meta.doc_id, meta.version, len(chunks)),
            position=len(chunks),
            doc_id=meta.doc_id,
            version=meta.version,
            heading_path=path,
            section=unit.label if unit is not None else None,
            section_title=_section_title(piece),
            char_start=start,
            char_end=end,
            text=text[start:end],
            page=doc.pages[bisect.bisect_right(page_starts, start) - 1].page if doc.pages else None,
            heading=piece.heading,
        ))
    return chunks


def _sub_chain(piece: _Piece, start: int) -> list[StructureNode]:
    """The sub-units a sub-chunk starts in (["(b)", "(i)"], ["comma 2"]); [] for whole units."""
    if piece.unit is None or piece.sub is None:
        return []
    chain: list[StructureNode] = []
    node = piece.unit
    while True:
        child = next((c for c in node.children if c.char_start <= start < c.char_end), None)
        if child is None or _is_structural(child):
            return chain or [piece.sub]
        chain.append(child)
        node = child


def _section_node(piece: _Piece) -> StructureNode | None:
    for node in reversed(piece.chain):
        if node.label is not None and _is_structural(node):
            return node
    return None


def _section_title(piece: _Piece) -> str | None:
    """The nearest title on the path; an article without a title of its own (nor a caption)
    has none: its chapter's or section's title would weigh on every article under it."""
    for i in range(len(piece.chain) - 1, -1, -1):
        node = piece.chain[i]
        if node.title:
            return node.title
        if (node.kind == "article" and node is piece.unit and i > 0
                and piece.chain[i - 1].kind in ("section", *CONTAINER_KINDS)):
            return None
    return None
