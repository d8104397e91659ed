"""Documents held in memory (an application's own DMS export, `search.documents.Document`): text
plus the same metadata a sidecar would carry, validated by the same model, parsed by the same code
as files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from legalsearch.documents.errors import MetadataError
from legalsearch.documents.models import Document, ParsedDocument
from legalsearch.load.files import build_document
from legalsearch.load.metadata import merge_metadata


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
