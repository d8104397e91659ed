"""Pure functions that turn parsed documents and chunks into OpenSearch documents."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from legalsearch.documents.models import Chunk, ParsedDocument

EMBED_PARTS = ("summary", "heading", "text")


def doc_key(doc_id: str, version: str) -> str:
    return f"{doc_id}:{version}"


def heading_line(chunk: Chunk) -> str:
    """The heading context of a chunk: its path, plus the unit heading a sub-chunk repeats."""
    path = " > ".join(chunk.heading_path)
    if chunk.heading and chunk.heading not in path:
        return f"{path} > {chunk.heading}" if path else chunk.heading
    return path


def embedded_text(chunk: Chunk, summary: str, parts: Sequence[str] = EMBED_PARTS) -> str:
    """What is embedded (and indexed for BM25 as `embedded_text`): by default the document
    summary, the heading path and the chunk text, one per line (Summary-Augmented Chunking)."""
    unknown = set(parts) - set(EMBED_PARTS)
    if unknown:
        raise ValueError(f"unknown embed parts {sorted(unknown)}; choose from {EMBED_PARTS}")
    pieces = []
    for part in parts:
        value = {"summary": summary, "heading": heading_line(chunk), "text": chunk.text}[part]
        if value and value.strip():
            pieces.append(value.strip() if part != "text" else value)
    return "\n".join(pieces)


def _iso(value) -> str | None:
    return value.isoformat() if value else None


def document_fields(doc: ParsedDocument) -> dict:
    """Document metadata both the chunk documents and the registry record carry."""
    meta = doc.meta
    return {
        "doc_id": meta.doc_id,
        "doc_key": doc_key(meta.doc_id, meta.version),
        "doc_type": meta.doc_type,
        "language": meta.language,
        "jurisdiction": meta.jurisdiction,
        "version": meta.version,
        "valid_from": _iso(meta.valid_from),
        "valid_to": _iso(meta.valid_to),
        "parties": list(meta.parties),
        "signed_at": _iso(meta.signed_at),
        "origin": doc.origin,
        "doc_sha256": doc.doc_sha256,
        "source_path": doc.source_path,
        "acl": sorted(set(meta.acl)),
        "public": bool(meta.public),
        "tags": list(meta.tags),
    }


def meta_fingerprint(doc: ParsedDocument) -> str:
    """sha256 of the document's metadata: a sidecar-only change (acl, public, validity) is a change."""
    data = json.dumps(doc.meta.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def clause_text(source: dict) -> str:
    """What the clause rescorers embed (`search.query.rerank`): the heading path and the text, no
    document summary. The ingest embeds it ahead for documents long enough for `rerank: auto`."""
    parts = [" > ".join(source.get("heading_path") or []), source.get("text") or ""]
    return "\n".join(p for p in parts if p.strip())


def chunk_source(
    doc: ParsedDocument,
    chunk: Chunk,
    *,
    summary: str,
    embedded: str,
    vector: Sequence[float] | None,
    token_count: int,
    max_tokens: int,
    chunker: str,
    ingested_at: str,
) -> dict:
    """The `_source` of one chunk document (every field of the data model in DESIGN.md)."""
    source = {
        **document_fields(doc),
        "chunk_id": chunk.chunk_id,
        "position": chunk.position,
        "doc_title": doc.meta.title,
        "page": chunk.page,
        "heading_path": list(chunk.heading_path),
        "heading": chunk.heading,
        "section": chunk.section,
        "section_title": chunk.section_title,
        "char_start": chunk.char_start,
        "char_end": chunk.char_end,
        "text": chunk.text,
        "summary": summary,
        "embedded_text": embedded,
        "xrefs": [
            {
                "raw": x.raw, "kind": x.kind, "target": x.target, "external": x.external, "code": x.code,
                "resolved_section": x.resolved_section, "resolved_chunk_ids": list(x.resolved_chunk_ids),
            }
            for x in chunk.xrefs
        ],
        "xref_chunk_ids": sorted({cid for x in chunk.xrefs for cid in x.resolved_chunk_ids} - {chunk.chunk_id}),
        "defined_terms": list(chunk.defined_terms),
        "uses_terms": list(chunk.uses_terms),
        "definition_chunk_ids": list(chunk.definition_chunk_ids),
        "clause_labels": list(chunk.clause_labels),
        "doc_flags": list(doc.flags),
        "token_count": token_count,
        "over_window": token_count >= max_tokens,
        "chunker": chunker,
        "ingested_at": ingested_at,
    }
    if vector is not None:
        source["vector"] = [float(x) for x in vector]
    return source


def doc_source(
    doc: ParsedDocument,
    *,
    summary: str,
    vector: Sequence[float] | None,
    settings_key: str,
    chunk_ids: list[str],
    ingested_at: str,
    opening_chars: int = 1000,
    profile: str = "",
) -> dict:
    """The registry / routing record of one document version (`profile`: the routing words of
    `search.summarize.profile`)."""
    source = {
        **document_fields(doc),
        "title": doc.meta.title,
        "summary": summary,
        "profile": profile,
        "opening": doc.text[:opening_chars],
        "settings_key": settings_key,
        "meta_sha256": meta_fingerprint(doc),
        "chunk_count": len(chunk_ids),
        "chunk_ids": chunk_ids,
        "flags": list(doc.flags),
        "inferred": list(doc.meta.inferred),
        "ingested_at": ingested_at,
    }
    if vector is not None:
        source["vector"] = [float(x) for x in vector]
    return source


def routing_text(doc: ParsedDocument, summary: str) -> str:
    """What the document-level vector embeds: title, parties and summary."""
    parts = [doc.meta.title, ", ".join(doc.meta.parties), summary]
    return "\n".join(p for p in parts if p)
