"""Documents held in memory (an application's own DMS export): text plus the same metadata a
sidecar would carry, validated by the same model, parsed by the same code as files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from legalsearch.documents.errors import MetadataError
from legalsearch.documents.models import ParsedDocument
from legalsearch.load.document import build_document
from legalsearch.load.metadata import merge_metadata
from pydantic import BaseModel, ConfigDict, Field


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


def load_memory_document(document: Document) -> ParsedDocument:
    """Validate and parse an in-memory document (MetadataError names the document and field)."""
    if not document.text.strip():
        raise MetadataError(f"{document.label}: the text is empty")
    meta = merge_metadata(document.text, Path(document.doc_id), None, document.metadata,
                          source=f"{document.label} (in memory)")
    # The fingerprint is the text and the metadata as given: what an application re-sends
    # unchanged is skipped on the next run, as an unchanged file is.
    given = json.dumps(document.metadata, sort_keys=True, default=str)
    sha = hashlib.sha256(document.text.encode("utf-8") + b"\0" + given.encode("utf-8")).hexdigest()
    return build_document(document.text, meta, source_path=document.label, doc_sha256=sha)
