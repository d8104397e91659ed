"""Context for an LLM prompt: the best passages for a question, within a character budget.

From the ranked chunks of one search (`SearchService.context`):

1. the retrieved chunks are taken in rank order; a chunk already covered by what is taken
   adds nothing (overlapping hits are deduplicated by character range);
2. a share of the budget (`attach_share`) is kept for what the taken chunks lean on: the
   clauses they cite (the first chunk of each referenced unit) and the definitions of the
   defined terms they use (the defining sentence, not the whole definitions clause), the
   question's own terms first, and the clauses of an amendment that change them (`index.links`),
   a cited clause's own included: clause 3.2 "invoices the fee set out in clause 2.1" brings 2.1 and
   the amendment that replaced the fee of 2.1;
3. what is left is filled with further retrieved chunks;
4. adjacent or overlapping pieces of one document are merged into one piece ("14.2" and "14.3"
   become one passage), and the pieces are ordered by document (best-ranked document first)
   and by position inside it, as a reader expects them.

Every piece keeps its citation and its exact character offsets (each merged part too). Pure
functions over chunk records (the `_source` of the chunks index); the service fetches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from legalsearch.query.cite import cite
from legalsearch.query.expand import amending_chunk_ids, cited_chunk_ids
from pydantic import BaseModel, Field

DEFAULT_BUDGET = 8000
DEFAULT_ATTACH_SHARE = 0.25
MAX_DEFINITIONS = 4
MAX_DEFINITION_CHARS = 500
XREFS_PER_HIT = 2


class ContextPart(BaseModel):
    """One exact slice of a document inside a piece."""

    chunk_id: str
    char_start: int
    char_end: int
    text: str
    section: str | None = None
    heading_path: list[str] = []


class ContextPiece(BaseModel):
    """A passage of one document in the context: one or more adjacent parts, merged."""

    doc_id: str
    doc_title: str
    version: str
    citation: str
    char_start: int = Field(description="start of the first part (offsets into the extracted document text)")
    char_end: int = Field(description="end of the last part")
    text: str = Field(description="the parts' exact texts, joined by a blank line")
    via: str = Field(description='"retrieval", "xref" (a clause a retrieved passage cites), "amended_by" (an '
                     'amendment in the index that changes a retrieved clause) or "definition"')
    rank: int | None = Field(None, description="best search rank among the retrieved parts")
    sections: list[str] = []
    parts: list[ContextPart] = []
    cited_by: list[str] = Field([], description="chunk ids of the retrieved passages that cite this one (or that "
                                "this amendment changes)")
    term: str | None = Field(None, description="the defined term, for a definition")
    valid_from: str | None = Field(None, description="the day its text is in force from, where the index knows it")
    amends: list[str] = Field([], description="for an amendment: the chunk ids of the context's clauses it changes "
                              "(legalsearch.index.links), retrieved or attached")


class ContextResponse(BaseModel):
    """What `legalsearch context --json` prints: the pieces and the prompt text built from them."""

    query: str
    budget: int
    used_chars: int
    pieces: list[ContextPiece]
    prompt: str = Field(description="the pieces rendered for a prompt: [n] citation (chars a-b), then the text")
    not_found: bool = Field(description="true when nothing passes the filters, or no passage answers (no hit's "
                            "relevance reaches the abstain threshold): no pieces, an empty prompt")
    not_found_reason: str | None = None
    routed_docs: list[str] = []
    timings_ms: dict[str, float] = {}


@dataclass
class _Selection:
    """A span chosen for the context, before merging."""

    source: dict
    start: int
    end: int
    via: str
    rank: int | None = None
    cited_by: list[str] = field(default_factory=list)
    term: str | None = None

    @property
    def key(self) -> str:
        return _doc_key(self.source)


class _Coverage:
    """Characters already in the context, per document (merged intervals)."""

    def __init__(self) -> None:
        self._by_doc: dict[str, list[tuple[int, int]]] = {}

    def new_chars(self, key: str, start: int, end: int) -> int:
        covered = sum(max(0, min(end, e) - max(start, s)) for s, e in self._by_doc.get(key, ()))
        return (end - start) - covered

    def add(self, key: str, start: int, end: int) -> None:
        intervals = sorted([*self._by_doc.get(key, []), (start, end)])
        merged: list[tuple[int, int]] = []
        for s, e in intervals:
            if merged and s <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], e))
            else:
                merged.append((s, e))
        self._by_doc[key] = merged


def definition_snippet(source: dict, term: str, limit: int = MAX_DEFINITION_CHARS) -> tuple[int, int] | None:
    """(start, end) document offsets of the sentence that defines `term` inside a defining chunk:
    from the start of the line holding the quoted term to the end of that paragraph (at most
    `limit` characters); None when the chunk does not quote the term."""
    text = source.get("text") or ""
    found = re.search(r"[\"“'‘]" + re.escape(term) + r"[\"”'’]", text)
    if not found:
        return None
    begin = text.rfind("\n", 0, found.start()) + 1
    end = text.find("\n", found.end())
    end = len(text) if end < 0 else end
    end = min(end, begin + limit)
    while end > begin and text[end - 1].isspace():
        end -= 1
    base = int(source["char_start"])
    return base + begin, base + end


def wanted_terms(question: str, hits: Sequence[dict], limit: int = MAX_DEFINITIONS) -> list[str]:
    """The defined terms whose definitions to attach: those the hits use (`uses_terms`, from
    ingest), the ones the question names first, then by the rank of the first hit using them;
    at most `limit`."""
    low = question.lower()
    candidates: list[tuple[int, str]] = []
    for rank, hit in enumerate(hits):
        for term in hit.get("uses_terms") or []:
            candidates.append((0 if term.lower() in low else 1 + rank, term))
    chosen: list[str] = []
    for _, term in sorted(candidates, key=lambda c: c[0]):
        if term not in chosen:
            chosen.append(term)
        if len(chosen) >= limit:
            break
    return chosen


def defining_sources(fetched: Iterable[dict]) -> dict[tuple[str, str], dict]:
    """(document key, defined term) -> the chunk of that document that defines it (`defined_terms`,
    from ingest): look-alike NDAs define "Confidential Information" each in their own words."""
    out: dict[tuple[str, str], dict] = {}
    for source in fetched:
        for term in source.get("defined_terms") or []:
            out.setdefault((_doc_key(source), term), source)
    return out


def _doc_key(source: dict) -> str:
    return source.get("doc_key") or f"{source['doc_id']}:{source.get('version', '')}"


def wanted_ids(question: str, hits: Sequence[dict], xrefs_per_hit: int = XREFS_PER_HIT) -> list[str]:
    """The chunk ids to fetch for the attachments of `hits`: the first chunks of the units each
    hit cites, and the chunks that define the terms the hits use."""
    ids: list[str] = []
    for hit in hits:
        ids.extend(c for c in cited_chunk_ids(hit)[:xrefs_per_hit] if c != hit["chunk_id"])
        ids.extend(amending_chunk_ids(hit)[:xrefs_per_hit])
    terms = set(wanted_terms(question, hits))
    for hit in hits:
        if terms & set(hit.get("uses_terms") or []):
            ids.extend(hit.get("definition_chunk_ids") or [])
    return list(dict.fromkeys(ids))


def amendments_of_attached(hits: Sequence[dict], fetched: dict[str, dict],
                           xrefs_per_hit: int = XREFS_PER_HIT) -> list[str]:
    """The amending chunks of the cited clauses attached to `hits` (`fetched`: what `wanted_ids`
    brought) that were not fetched yet: a second fetch, under the same filters, so that a clause
    attached in its old wording arrives with what changed it, when that is in force."""
    have = set(fetched) | {hit["chunk_id"] for hit in hits}
    ids: list[str] = []
    for hit in hits:
        for cid in cited_chunk_ids(hit)[:xrefs_per_hit]:
            if cid in fetched:
                ids.extend(a for a in amending_chunk_ids(fetched[cid])[:xrefs_per_hit] if a not in have)
    return list(dict.fromkeys(ids))


def select(
    question: str,
    hits: Sequence[dict],
    budget: int,
    *,
    fetched: dict[str, dict] | None = None,
    definition_sources: dict[tuple[str, str], dict] | None = None,
    attach_share: float = DEFAULT_ATTACH_SHARE,
) -> list[_Selection]:
    """Choose what goes into the context (see the module docstring). `hits`: ranked chunk
    sources; `fetched`: referenced chunks by id (already filtered for the caller's access);
    `definition_sources`: defining chunks by (document key, term), see `defining_sources`."""
    fetched = fetched or {}
    definition_sources = definition_sources or {}
    coverage = _Coverage()
    chosen: list[_Selection] = []
    used = 0
    attachments = _attachments(question, hits, fetched, definition_sources)
    primary_budget = budget if not attachments else int(budget * (1.0 - attach_share))
    remaining_hits = list(enumerate(hits, start=1))

    def take(sel: _Selection, limit: int) -> bool:
        nonlocal used
        new = coverage.new_chars(sel.key, sel.start, sel.end)
        if new <= 0:
            return True  # already in the context: nothing to pay
        if used + new > limit:
            room = limit - used
            if chosen or room <= 0:
                return False
            sel.end = sel.start + room  # the first passage alone is larger than the budget: cut it
            new = room
        coverage.add(sel.key, sel.start, sel.end)
        chosen.append(sel)
        used += new
        return True

    def fill(limit: int) -> None:
        left = []
        for rank, hit in remaining_hits:
            if not take(_Selection(hit, int(hit["char_start"]), int(hit["char_end"]), "retrieval", rank), limit):
                left.append((rank, hit))
        remaining_hits[:] = left

    fill(primary_budget)
    taken_ids = {s.source["chunk_id"] for s in chosen}
    for sel in attachments:  # in order: a cited clause before the amendment that changes it
        if (not sel.cited_by or any(c in taken_ids for c in sel.cited_by)) and take(sel, budget):
            taken_ids.add(sel.source["chunk_id"])
    fill(budget)
    return chosen


def _attachments(question: str, hits: Sequence[dict], fetched: dict[str, dict],
                 definition_sources: dict[tuple[str, str], dict]) -> list[_Selection]:
    out: list[_Selection] = []
    for hit in hits:
        for cid in cited_chunk_ids(hit)[:XREFS_PER_HIT]:
            target = fetched.get(cid)
            if target is not None and cid != hit["chunk_id"]:
                out.append(_Selection(target, int(target["char_start"]), int(target["char_end"]), "xref",
                                      cited_by=[hit["chunk_id"]]))
                for aid in amending_chunk_ids(target)[:XREFS_PER_HIT]:  # what changed the cited clause
                    amendment = fetched.get(aid)
                    if amendment is not None and aid != hit["chunk_id"]:
                        out.append(_Selection(amendment, int(amendment["char_start"]), int(amendment["char_end"]),
                                              "amended_by", cited_by=[cid]))
        for cid in amending_chunk_ids(hit)[:XREFS_PER_HIT]:
            target = fetched.get(cid)
            if target is not None:
                out.append(_Selection(target, int(target["char_start"]), int(target["char_end"]), "amended_by",
                                      cited_by=[hit["chunk_id"]]))
    for term in wanted_terms(question, hits):
        users = [h for h in hits if term in (h.get("uses_terms") or [])]
        for key in dict.fromkeys(_doc_key(h) for h in users):
            source = definition_sources.get((key, term))
            span = definition_snippet(source, term) if source is not None else None
            if span is not None:
                cited = [h["chunk_id"] for h in users if _doc_key(h) == key][:3]
                out.append(_Selection(source, span[0], span[1], "definition", cited_by=cited, term=term))
    return out


def merge(selections: Iterable[_Selection], max_gap: int = 2) -> list[ContextPiece]:
    """Merge the selections of one document that touch or overlap (gap of at most `max_gap`
    characters: the blank line between two clauses) into pieces; documents ordered by their best
    rank, pieces by position."""
    by_doc: dict[str, list[_Selection]] = {}
    for sel in selections:
        by_doc.setdefault(sel.key, []).append(sel)
    pieces: list[ContextPiece] = []
    for _key, sels in by_doc.items():
        sels.sort(key=lambda s: (s.start, s.end))
        # no character twice: a selection that starts inside an earlier one (a definition inside a
        # passage's neighbour, an overlapping chunk) keeps only its new characters, so the parts add
        # up to what `select` paid for, within the budget
        reach = -1
        trimmed: list[_Selection] = []
        for sel in sels:
            if sel.end <= reach:
                continue
            if sel.start < reach:
                sel = _Selection(sel.source, reach, sel.end, sel.via, sel.rank, list(sel.cited_by), sel.term)
            trimmed.append(sel)
            reach = max(reach, sel.end)
        group: list[_Selection] = []
        for sel in trimmed:
            if group and sel.start - max(g.end for g in group) <= max_gap and sel.term is None and group[-1].term is None:
                group.append(sel)
            else:
                if group:
                    pieces.append(_piece(group))
                group = [sel]
        if group:
            pieces.append(_piece(group))
    best = {}
    for p in pieces:
        key = f"{p.doc_id}:{p.version}"
        rank = p.rank if p.rank is not None else 10**6
        best[key] = min(best.get(key, 10**6), rank)
    return sorted(pieces, key=lambda p: (best[f"{p.doc_id}:{p.version}"], p.doc_id, p.version, p.char_start))


def _piece(group: list[_Selection]) -> ContextPiece:
    parts: list[ContextPart] = []
    end = -1
    for sel in group:
        start = max(sel.start, end)
        if start >= sel.end:
            continue
        src = sel.source
        offset = start - int(src["char_start"])
        text = (src.get("text") or "")[offset: offset + (sel.end - start)]
        parts.append(ContextPart(chunk_id=src["chunk_id"], char_start=start, char_end=sel.end, text=text,
                                 section=src.get("section"), heading_path=list(src.get("heading_path") or [])))
        end = sel.end
    first = group[0].source
    vias = {s.via for s in group}
    via = next(v for v in ("retrieval", "xref", "amended_by", "definition") if v in vias)
    ranks = [s.rank for s in group if s.rank is not None]
    sections = list(dict.fromkeys(p.section for p in parts if p.section))
    citation = cite(first)
    if len(group) > 1:
        last = group[-1].source
        tail = (last.get("heading_path") or [""])[-1] or (f"§ {last['section']}" if last.get("section") else "")
        if tail and tail not in citation:
            citation = f"{citation} – {tail}"
    if group[0].term:
        citation = f"{citation} (definition of \"{group[0].term}\")"
    return ContextPiece(
        doc_id=first["doc_id"], doc_title=first.get("doc_title") or "", version=str(first.get("version") or ""),
        citation=citation, char_start=parts[0].char_start if parts else group[0].start,
        char_end=parts[-1].char_end if parts else group[0].end, text="\n\n".join(p.text for p in parts), via=via,
        rank=min(ranks) if ranks else None, sections=sections, parts=parts,
        cited_by=sorted({c for s in group for c in s.cited_by}), term=group[0].term,
        valid_from=str(first["valid_from"])[:10] if first.get("valid_from") else None,
    )


def build(question: str, hits: Sequence[dict], budget: int, fetched: dict[str, dict] | None = None,
          attach_share: float = DEFAULT_ATTACH_SHARE) -> list[ContextPiece]:
    """Select and merge: the pieces of a context of `budget` characters (see the module docstring)."""
    fetched = fetched or {}
    pieces = merge(select(question, hits, budget, fetched=fetched,
                          definition_sources=defining_sources(fetched.values()), attach_share=attach_share))
    changes: dict[str, set[str]] = {}  # an amendment's chunk -> the clauses it changes
    for source in [*hits, *fetched.values()]:
        for cid in amending_chunk_ids(source):
            changes.setdefault(cid, set()).add(source["chunk_id"])
    for piece in pieces:
        piece.amends = sorted({c for part in piece.parts for c in changes.get(part.chunk_id, ())})
    return pieces


def render(pieces: Sequence[ContextPiece]) -> str:
    """The pieces as prompt text: "[1] citation (chars a-b)" then the passage, blank line between. An
    amendment says which pieces it changes and from when: "[amends [3], in force from 2025-04-01]"."""
    blocks = []
    number = {part.chunk_id: i for i, piece in enumerate(pieces, start=1) for part in piece.parts}
    for i, piece in enumerate(pieces, start=1):
        tag = "" if piece.via == "retrieval" else f" [{piece.via}]"
        if piece.amends or piece.via == "amended_by":  # retrieved itself, or attached to the clause it changes
            changed = sorted({number[c] for c in piece.amends or piece.cited_by if c in number} - {i})
            tag = " [amendment" + (f" of {', '.join(f'[{n}]' for n in changed)}" if changed else "") \
                + (f", in force from {piece.valid_from}" if piece.valid_from else "") + "]"
        blocks.append(f"[{i}] {piece.citation} (chars {piece.char_start}-{piece.char_end}){tag}\n{piece.text}")
    return "\n\n".join(blocks)


def spans(pieces: Sequence[ContextPiece]) -> list[tuple[str, int, int]]:
    """(doc_id, start, end) of every part, in context order (what the evaluation scores)."""
    return [(p.doc_id, part.char_start, part.char_end) for p in pieces for part in p.parts]
