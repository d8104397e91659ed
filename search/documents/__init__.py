"""Legal document understanding: load, parse structure, chunk, link references and terms.

Pure Python (no OpenSearch). The main entry points:

    doc = load_document("samples/corpus/master-services-agreement.txt")
    chunks = chunk_document(doc, "structural")      # or "recursive" (the papers' baseline)
    inspect_document(path) / render_inspection(...)  # what the parser saw

See docs/documents.md.
"""

from search.documents.chunking import CHUNKERS, chunk_document, enrich_chunks
from search.documents.definitions import extract_definitions, find_term_uses
from search.documents.errors import DocumentError, MetadataError
from search.documents.inspect import inspect_document, render_inspection
from search.documents.labels import (
    LABELS,
    check_double_signature,
    double_signature,
    double_signature_flags,
    label_clauses,
)
from search.documents.loaders import SUPPORTED_EXTENSIONS
from search.documents.metadata import build_meta, infer_metadata, read_manifest, read_sidecar
from search.documents.models import (
    Chunk,
    CrossRef,
    Definition,
    DocumentMeta,
    PageSpan,
    ParsedDocument,
    StructureNode,
    make_chunk_id,
    to_jsonable,
)
from search.documents.numbering import check_numbering
from search.documents.pipeline import (
    BatchResult,
    LoadFailure,
    build_document,
    discover_documents,
    load_document,
    load_documents,
)
from search.documents.references import extract_references, resolve_references, unresolved_refs
from search.documents.splitter import split_recursive
from search.documents.structure import describe_node, has_structure, parse_structure

__all__ = [
    "CHUNKERS", "LABELS", "SUPPORTED_EXTENSIONS",
    "BatchResult", "Chunk", "CrossRef", "Definition", "DocumentError", "DocumentMeta", "LoadFailure",
    "MetadataError", "PageSpan", "ParsedDocument", "StructureNode",
    "build_document", "build_meta", "check_double_signature", "check_numbering", "chunk_document",
    "describe_node", "discover_documents", "double_signature", "double_signature_flags", "enrich_chunks",
    "extract_definitions", "extract_references", "find_term_uses", "has_structure", "infer_metadata",
    "inspect_document", "label_clauses", "load_document", "load_documents", "make_chunk_id",
    "parse_structure", "read_manifest", "read_sidecar", "render_inspection", "resolve_references",
    "split_recursive", "to_jsonable", "unresolved_refs",
]
