"""Records passed between the document stages.

`DocumentMeta` is the ingest boundary (sidecars, manifests, the CLI), so it is a strict
pydantic model, and so is `Document`, a document an application hands over in memory (text plus
the sidecar's metadata fields). The records produced by parsing (`PageSpan`, `StructureNode`, `CrossRef`,
`Chunk`, `ParsedDocument`) are frozen slotted dataclasses: plain typed values, cheap to
build by the thousand, never mutated (stages return new values with
`dataclasses.replace`). `to_jsonable` turns any of them into JSON-ready dicts.

Offsets are always Python character offsets into `ParsedDocument.text`, end exclusive.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from datetime import date
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

DOC_TYPES = ("contract", "nda", "statute", "privacy_policy", "internal_note", "judgment", "other")
"""The doc_types with special handling (summaries, the 1341-1342 c.c. check, routing names).
Any other value (judgment, guidance, regulation, memo, policy, ...) is kept as a keyword."""
_DOC_TYPE_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_warned_doc_types: set[str] = set()
log = logging.getLogger(__name__)
Language = Literal["en", "it", "fr", "de", "es", "pt", "nl"]
"""What a document's language may be (ISO 639-1). English and Italian have their own analyzers and
parsing rules; the others are recognised so that a French or German document is not called English,
and are read with the English rules (both analyzers index every text; a non-English document makes
`--embedder auto` choose the multilingual model)."""
LANGUAGES: tuple[str, ...] = get_args(Language)
CONTAINER_KINDS = ("book", "part", "chapter", "division", "subdivision")
"""The levels that group units and hold no text of their own: a unit is never their parent."""
CONTENTS_LABEL = "contents"
"""The clause label of a table of contents' chunks: kept in the index (Dashboards shows them), kept
out of every search (`query.bodies.NOT_CONTENTS`)."""
NODE_KINDS = (
    "document", "book", "part", "chapter", "division", "subdivision", "article", "section", "clause", "paragraph", "comma",
    "schedule", "recitals", "definitions", "preamble", "signature", "contents", "heading",
)
REF_KINDS = ("section", "clause", "article", "schedule", "annex", "paragraph", "comma", "part")


# OpenSearch ids are at most 512 bytes; a chunk id is `doc_id:version:NNNN` (records.doc_key too)
MAX_DOC_ID_BYTES = 256
MAX_VERSION_BYTES = 64


class DocumentMeta(BaseModel):
    """Document-level metadata, copied onto every chunk at indexing time.

    A document with an empty `acl` and `public=False` is readable by nobody: public
    access must be stated explicitly.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    doc_id: str
    title: str
    doc_type: str = "other"
    language: Language = "en"
    jurisdiction: str | None = None
    version: str = "1"
    valid_from: date | None = None
    valid_to: date | None = None
    parties: list[str] = []
    signed_at: date | None = None
    acl: list[str] = []
    public: bool = False
    tags: list[str] = []
    inferred: list[str] = []

    @field_validator("valid_from", "valid_to", "signed_at", mode="before")
    @classmethod
    def _iso_date(cls, value: Any) -> Any:
        # Only ISO dates ("2019-01-01"): pydantic's lax mode would also take unix
        # timestamps and "2019-01-01T10:00", which in a sidecar are always mistakes.
        if value is None or isinstance(value, date):
            return value
        if not isinstance(value, str):
            raise ValueError(f"expected an ISO date string YYYY-MM-DD, got {value!r}")
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            raise ValueError(f"malformed date {value!r}; write it as YYYY-MM-DD") from None

    @field_validator("doc_type")
    @classmethod
    def _open_doc_type(cls, value: str) -> str:
        # Open: a firm's own types (judgment, guidance, memo, ...) are kept as keywords, so a
        # document is never lost for its type; the known ones keep their special handling.
        normalized = "_".join(value.strip().lower().split())
        if not _DOC_TYPE_RE.match(normalized):
            raise ValueError(
                f"doc_type {value!r} is not a keyword: use letters, digits, '_' or '-' (at most 64), "
                f"e.g. one of {', '.join(DOC_TYPES)} or your own such as 'lease'"
            )
        if normalized not in DOC_TYPES and normalized not in _warned_doc_types:
            _warned_doc_types.add(normalized)
            log.warning("doc_type %r is not one of the known types (%s): kept as a keyword, without the "
                        "special handling of the known ones", normalized, ", ".join(DOC_TYPES))
        return normalized

    @field_validator("doc_id", "title", "version")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("doc_id", "version")
    @classmethod
    def _fits_an_id(cls, value: str, info) -> str:
        # Both go into every OpenSearch _id (`doc_id:version:0001`), which the engine caps at 512
        # bytes: a longer one would fail the bulk request of its whole batch, not just this file.
        limit = MAX_DOC_ID_BYTES if info.field_name == "doc_id" else MAX_VERSION_BYTES
        size = len(value.encode("utf-8"))
        if size > limit:
            raise ValueError(f"is {size} bytes long; at most {limit} (UTF-8): it is part of every OpenSearch id of "
                             "the document")
        return value

    @model_validator(mode="after")
    def _valid_range(self) -> DocumentMeta:
        if self.valid_from and self.valid_to and self.valid_to < self.valid_from:
            raise ValueError(
                f"valid_to {self.valid_to} is before valid_from {self.valid_from}"
            )
        return self

    def public_by_default(self, public_if_no_acl: bool) -> DocumentMeta:
        """This metadata as `ingest --public` reads it: with `public_if_no_acl`, a document whose
        metadata names no acl and says nothing of `public` is public; an explicit "public": false
        stands."""
        if public_if_no_acl and not self.acl and "public" not in self.model_fields_set:
            return self.model_copy(update={"public": True})
        return self


@dataclasses.dataclass(frozen=True, slots=True)
class PageSpan:
    """Characters of the extracted text that come from one page (1-based)."""

    page: int
    char_start: int
    char_end: int


@dataclasses.dataclass(frozen=True, slots=True)
class StructureNode:
    """One structural unit; `text[char_start:char_end]` is the unit with its sub-units."""

    kind: str
    label: str | None
    title: str | None
    heading: str | None
    char_start: int
    char_end: int
    children: list[StructureNode] = dataclasses.field(default_factory=list)

    def walk(self):
        """Yield this node and all descendants, depth first, in document order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclasses.dataclass(frozen=True, slots=True)
class CrossRef:
    """A reference written in the text ("clause 14.3", "art. 7", "artt. 1341 e 1342 c.c.").

    `target` is normalized: the unit label, with a sub-unit in parentheses
    ("14.3", "21A", "4(3)" for section 4 subsection 3, "5(2)" for art. 5 comma 2,
    "B" for Allegato B). `kind="comma"` / `kind="paragraph"` with a bare target
    ("2") are relative to the unit the reference sits in.
    """

    raw: str
    kind: str
    target: str
    external: bool
    code: str | None
    char_start: int
    char_end: int
    resolved_section: str | None = None
    resolved_chunk_ids: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True, slots=True)
class Definition:
    """A defined term and where its definition is (offsets of the quoted term)."""

    term: str
    char_start: int
    char_end: int


@dataclasses.dataclass(frozen=True, slots=True)
class Chunk:
    """One retrieval unit: `text == document_text[char_start:char_end]`, exactly."""

    chunk_id: str
    position: int
    doc_id: str
    version: str
    heading_path: list[str]
    section: str | None
    section_title: str | None
    char_start: int
    char_end: int
    text: str
    page: int | None
    xrefs: list[CrossRef] = dataclasses.field(default_factory=list)
    defined_terms: list[str] = dataclasses.field(default_factory=list)
    uses_terms: list[str] = dataclasses.field(default_factory=list)
    definition_chunk_ids: list[str] = dataclasses.field(default_factory=list)
    clause_labels: list[str] = dataclasses.field(default_factory=list)
    heading: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A loaded document: extracted text, its structure and where it came from."""

    meta: DocumentMeta
    text: str
    origin: Literal["digital", "ocr"]
    source_path: str
    doc_sha256: str
    pages: list[PageSpan]
    tree: StructureNode
    flags: list[str] = dataclasses.field(default_factory=list)


def make_chunk_id(doc_id: str, version: str, position: int) -> str:
    """Stable chunk id: the same document version always yields the same ids."""
    return f"{doc_id}:{version}:{position:04d}"


def to_jsonable(value: Any) -> Any:
    """Convert records (dataclasses, pydantic models, dates) into JSON-ready values."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, date):
        return value.isoformat()
    return value


class Document(BaseModel):
    """A document to ingest from memory.

    `text` is the document's text; `doc_id` names it; every other field is metadata with the
    sidecar's names and rules (title, doc_type, language, jurisdiction, version, valid_from,
    valid_to, parties, signed_at, acl, public, tags). Missing title / language / doc_type are
    inferred from the text, as for files.

    Example:
        Document(text=export["body"], doc_id="nda-kestrel", title="NDA with Kestrel",
                 acl=["deal-team"], valid_from="2025-03-01")
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    text: str = Field(min_length=1)
    doc_id: str = Field(min_length=1)
    source: str | None = Field(None, description="shown as source_path (default memory:<doc_id>)")

    @property
    def metadata(self) -> dict[str, Any]:
        return {"doc_id": self.doc_id, **(self.model_extra or {})}

    @property
    def label(self) -> str:
        return self.source or f"memory:{self.doc_id}"
