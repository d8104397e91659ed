"""Stage 1, load: files (txt, md, html, docx, pdf; scanned pdf via OCR) and their metadata
(sidecar or JSONL manifest) -> `ParsedDocument` (text, metadata, structure tree, flags).

    doc = load_document("samples/corpus/master-services-agreement.txt")
    files = discover_documents([Path("samples/corpus")])
"""

from legalsearch.load.discover import discover_documents
from legalsearch.load.extract import SUPPORTED_EXTENSIONS
from legalsearch.load.files import (
    BatchResult,
    LoadFailure,
    build_document,
    load_document,
    load_documents,
    peek_language,
)
from legalsearch.load.memory import load_memory_document
from legalsearch.load.metadata import build_meta, infer_metadata, read_manifest, read_sidecar

__all__ = [
    "SUPPORTED_EXTENSIONS", "BatchResult", "LoadFailure", "build_document", "build_meta", "discover_documents",
    "infer_metadata", "load_document", "load_documents", "load_memory_document", "peek_language", "read_manifest", "read_sidecar",
]
