"""One version of one document as a reader sees it: its text, rebuilt from its chunks, with the
offsets of every passage, so that a hit's `char_start` / `char_end` open the document at the
passage (the service's `GET /v1/documents/{doc_id}`, `LegalSearch.document`).

The registry keeps only a document's opening, and the source file may not be where the index
is read; the chunks hold the text (`doc.text[c.char_start:c.char_end] == c.text`, see
legalsearch.chunk.chunker), so the text is laid out from them. What no chunk holds (the
whitespace the chunker trims between clauses) is filled with blanks of the same length, so that
every offset stays the document's own; `gaps` counts those characters.

The chunks are read under the caller's ACL clause (the one every search carries): a caller who
may not read a document gets "no such document", never a title, a version or a count.
"""

from __future__ import annotations

from datetime import date

from legalsearch.errors import NotFoundError
from legalsearch.query import bodies
from legalsearch.query.cite import cite
from legalsearch.store import Store
from pydantic import BaseModel

FIELDS = ["chunk_id", "doc_id", "doc_title", "version", "valid_from", "valid_to", "jurisdiction", "doc_type",
          "language", "section", "heading_path", "page", "char_start", "char_end", "text", "position",
          "section_title", "heading"]
MAX_CHUNKS = 10_000
"""The most chunks a document view reads (OpenSearch's default result window)."""


class Passage(BaseModel):
    """One chunk's place in the document text."""

    chunk_id: str
    char_start: int
    char_end: int
    section: str | None = None
    heading_path: list[str] = []
    page: int | None = None
    citation: str


class VersionInfo(BaseModel):
    version: str
    valid_from: date | None = None
    valid_to: date | None = None
    in_force: bool = False


class DocumentView(BaseModel):
    doc_id: str
    title: str
    version: str
    valid_from: date | None = None
    valid_to: date | None = None
    jurisdiction: str | None = None
    doc_type: str | None = None
    language: str | None = None
    text: str
    gaps: int = 0
    passages: list[Passage]
    versions: list[VersionInfo]
    focus: Passage | None = None


def _day(value) -> date | None:
    return date.fromisoformat(value[:10]) if isinstance(value, str) and value else value or None


def in_force(valid_from: date | None, valid_to: date | None, day: date) -> bool:
    return (valid_from is None or valid_from <= day) and (valid_to is None or day < valid_to)


def pick_version(versions: list[VersionInfo], wanted: str | None) -> VersionInfo:
    """The version asked for; else the one in force today; else the one that starts last."""
    if wanted is not None:
        found = next((v for v in versions if v.version == wanted), None)
        if found is None:
            raise NotFoundError(f"no version {wanted!r} of this document; versions: "
                                f"{', '.join(v.version for v in versions)}")
        return found
    current = [v for v in versions if v.in_force]
    pool = current or versions
    return max(pool, key=lambda v: (v.valid_from or date.min, v.version))


def assemble(sources: list[dict], version: str | None = None, chunk_id: str | None = None,
             today: date | None = None) -> DocumentView:
    """The view of one document from its chunks' `_source`s (every version's; pure).

    Raises:
        NotFoundError: no chunks, an unknown version, or a chunk_id that is not this document's.
    """
    if not sources:
        raise NotFoundError("no such document")
    today = today or date.today()
    if chunk_id is not None:
        wanted = next((s for s in sources if s.get("chunk_id") == chunk_id), None)
        if wanted is None:
            raise NotFoundError(f"no passage {chunk_id!r} in this document")
        if version is not None and wanted.get("version") != version:
            raise NotFoundError(f"passage {chunk_id!r} is in version {wanted.get('version')!r}, not {version!r}")
        version = wanted.get("version")
    by_version: dict[str, list[dict]] = {}
    for s in sources:
        by_version.setdefault(str(s.get("version")), []).append(s)
    versions = []
    for name, chunks in by_version.items():
        first = chunks[0]
        frm, to = _day(first.get("valid_from")), _day(first.get("valid_to"))
        versions.append(VersionInfo(version=name, valid_from=frm, valid_to=to, in_force=in_force(frm, to, today)))
    versions.sort(key=lambda v: (v.valid_from or date.min, v.version))
    chosen = pick_version(versions, version)
    chunks = sorted(by_version[chosen.version], key=lambda s: (s["char_start"], s.get("position") or 0))
    text, gaps = _layout(chunks)
    passages = [Passage(chunk_id=s["chunk_id"], char_start=s["char_start"], char_end=s["char_end"],
                        section=s.get("section"), heading_path=list(s.get("heading_path") or ()), page=s.get("page"),
                        citation=cite(s)) for s in chunks]
    first = chunks[0]
    return DocumentView(
        doc_id=first["doc_id"], title=first.get("doc_title") or first["doc_id"], version=chosen.version,
        valid_from=chosen.valid_from, valid_to=chosen.valid_to, jurisdiction=first.get("jurisdiction"),
        doc_type=first.get("doc_type"), language=first.get("language"), text=text, gaps=gaps, passages=passages,
        versions=versions, focus=next((p for p in passages if p.chunk_id == chunk_id), None))


def _layout(chunks: list[dict]) -> tuple[str, int]:
    """The text the chunks cover, at their own offsets; what none covers is blank (a newline
    where the gap allows one, so clauses stay on their own lines)."""
    end = max(s["char_end"] for s in chunks)
    buffer = [" "] * end
    covered = [False] * end
    for s in chunks:
        piece = s.get("text") or ""
        start = s["char_start"]
        for i, ch in enumerate(piece[: s["char_end"] - start]):
            buffer[start + i] = ch
            covered[start + i] = True
    gaps = 0
    i = 0
    while i < end:
        if covered[i]:
            i += 1
            continue
        j = i
        while j < end and not covered[j]:
            j += 1
        gaps += j - i
        buffer[i] = "\n"
        if j - i > 1:
            buffer[j - 1] = "\n"
        i = j
    return "".join(buffer), gaps


def read(store: Store, chunks_index: str, doc_id: str, groups: tuple[str, ...], *, version: str | None = None,
         chunk_id: str | None = None) -> DocumentView:
    """The view of `doc_id` in `chunks_index` as a caller holding `groups` may read it.

    Raises:
        NotFoundError: nothing of that document the caller may read (or no such version / passage).
    """
    query = {"bool": {"filter": [{"term": {"doc_id": doc_id}}, bodies.acl_clause(groups)]}}
    # one search, not a scroll: the service account may search but not scroll, and a document's
    # chunks (all its versions) stay far below the result window
    found = store.search(chunks_index, {"size": MAX_CHUNKS, "query": query, "_source": FIELDS})
    sources = [hit["_source"] for hit in found["hits"]["hits"]]
    if not sources:
        raise NotFoundError(f"no document {doc_id!r} that you may read in this index")
    return assemble(sources, version=version, chunk_id=chunk_id)
