"""Documents from files: read the file, extract its text (OCR for scans), merge its metadata,
parse its structure and flag what looks wrong.

`load_document` is the single-file entry point; `build_document` does the same from text already
in memory; `load_documents` runs a batch where a bad file is recorded as an error and never stops
the others (`search.load.discover` lists the files).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from legalsearch.documents.errors import DocumentError, MetadataError
from legalsearch.documents.models import DocumentMeta, PageSpan, ParsedDocument
from legalsearch.load.extract import SUPPORTED_EXTENSIONS, extract_file
from legalsearch.load.metadata import build_meta, infer_language, merge_metadata, read_sidecar
from legalsearch.parse.checks import parse_checked
from legalsearch.parse.labels import check_double_signature, double_signature_flags
from legalsearch.parse.numbering import check_numbering
from legalsearch.parse.references import amends_another
from legalsearch.parse.tree import has_structure


@dataclasses.dataclass(frozen=True, slots=True)
class LoadFailure:
    """A file that could not be loaded, and why (the DocumentError message)."""

    path: str
    error: str


@dataclasses.dataclass(frozen=True, slots=True)
class BatchResult:
    """Outcome of `load_documents`: the documents loaded and the files that failed."""

    documents: list[ParsedDocument]
    errors: list[LoadFailure]


def load_document(
    path: str | Path,
    meta: DocumentMeta | None = None,
    manifest_entry: dict[str, Any] | None = None,
) -> ParsedDocument:
    """Load one file: text (OCR for scans), metadata, structure tree and flags.

    Args:
        path: a .txt, .md, .html, .docx or .pdf file.
        meta: explicit metadata; when None, the sidecar (`x.meta.json` or
            `x.txt.meta.json`) and `manifest_entry` are merged and the missing
            title / language / doc_type / doc_id are inferred.
        manifest_entry: metadata fields from a manifest line (its "path" removed).

    Raises:
        DocumentError: the file is missing, unsupported, corrupt or undecodable.
        MetadataError: the metadata is invalid (the message names the file and field).
    """
    path = Path(path)
    if not path.is_file():
        raise DocumentError(f"{path}: no such file")
    if path.suffix.lower() not in SUPPORTED_EXTENSIONS:
        raise DocumentError(f"{path}: unsupported file type {path.suffix or '(none)'}; "
                            f"supported: {', '.join(SUPPORTED_EXTENSIONS)}")
    sidecar = None if meta is not None else read_sidecar(path)
    if meta is None:
        _precheck(path, sidecar, manifest_entry)
    hint = meta.language if meta is not None else (manifest_entry or {}).get("language") or (sidecar or {}).get("language")
    try:
        data = path.read_bytes()
    except OSError as e:
        raise DocumentError(f"{path}: cannot read the file ({e.strerror})") from e
    extraction = extract_file(path, data, hint if hint in ("en", "it") else None)
    if not extraction.text.strip():
        raise DocumentError(f"{path}: no text could be extracted; check the file or provide a text version")
    if meta is None:
        meta = merge_metadata(extraction.text, path, sidecar, manifest_entry)
    return build_document(
        extraction.text, meta, source_path=str(path), doc_sha256=hashlib.sha256(data).hexdigest(),
        pages=extraction.pages, origin=extraction.origin, flags=extraction.flags,
    )


def build_document(
    text: str,
    meta: DocumentMeta,
    *,
    source_path: str = "",
    doc_sha256: str | None = None,
    pages: list[PageSpan] | None = None,
    origin: str = "digital",
    flags: Iterable[str] = (),
) -> ParsedDocument:
    """Parse already-extracted text into a `ParsedDocument` (no file I/O)."""
    tree, structure_flags = parse_checked(text, meta.language)
    all_flags = list(flags) + structure_flags
    if not has_structure(tree):
        all_flags.append("no_structure")
    if origin == "ocr":
        all_flags.extend(check_numbering(tree))
    all_flags.extend(f"inferred:{name}" for name in meta.inferred)
    if amends_another(text):  # its "clause 4.2 of the Agreement" is the amended one's (index.links)
        all_flags.append("amends_another")
    if meta.language == "it" and meta.doc_type in ("contract", "nda", "other"):
        all_flags.extend(double_signature_flags(check_double_signature(text, tree, "it")))
    return ParsedDocument(
        meta=meta,
        text=text,
        origin="ocr" if origin == "ocr" else "digital",
        source_path=source_path,
        doc_sha256=doc_sha256 or hashlib.sha256(text.encode("utf-8")).hexdigest(),
        pages=list(pages or []),
        tree=tree,
        flags=all_flags,
    )


def load_documents(items: Iterable[str | Path | tuple[str | Path, dict[str, Any] | None]]) -> BatchResult:
    """Load many files; a file that fails is recorded in `errors` and the batch goes on.

    Args:
        items: paths, or (path, manifest entry) pairs as returned by `discover_documents`.
    """
    documents: list[ParsedDocument] = []
    errors: list[LoadFailure] = []
    for item in items:
        path, entry = item if isinstance(item, tuple) else (item, None)
        try:
            documents.append(load_document(path, manifest_entry=entry))
        except DocumentError as e:
            errors.append(LoadFailure(str(path), str(e)))
    return BatchResult(documents, errors)


def _precheck(path: Path, sidecar: dict | None, manifest_entry: dict | None) -> None:
    """Validate the given metadata before the (possibly slow, OCR) extraction."""
    if sidecar is None and not manifest_entry:
        return
    fields = dict(sidecar or {})
    fields.update(manifest_entry or {})
    for name in ("doc_id", "title"):
        fields.setdefault(name, "pending")
    source = f"{path} (manifest entry)" if manifest_entry else next(
        (str(p) for p in (path.with_name(path.stem + ".meta.json"), path.with_name(path.name + ".meta.json"))
         if p.is_file()), str(path))
    build_meta(fields, source)


PEEK_BYTES = 64_000
"""What `peek_language` reads of a text file (the language is guessed from the first 20,000 characters)."""

PEEK_PDF_PAGES = 3


def peek_language(path: str | Path, manifest_entry: dict[str, Any] | None = None) -> str | None:
    """A file's language without loading it: the manifest's or sidecar's `language`, else guessed
    (as loading guesses it) from the first characters of its text; for a PDF the text layer of the
    first pages (a scan, which only OCR could read, gives None). None when unreadable: loading will
    report why. Used to choose the embedder of a new index (`--embedder auto`)."""
    path = Path(path)
    try:
        hint = (manifest_entry or {}).get("language") or (read_sidecar(path) or {}).get("language")
    except (DocumentError, MetadataError):
        return None
    if hint:
        return str(hint)
    suffix = path.suffix.lower()
    try:
        if suffix in (".txt", ".md"):
            with path.open("rb") as f:
                data = f.read(PEEK_BYTES)
            text = data.decode("utf-8", errors="ignore")
        elif suffix == ".pdf":
            from pypdf import PdfReader

            reader = PdfReader(str(path), strict=False)
            text = "\n".join((page.extract_text() or "") for page in reader.pages[:PEEK_PDF_PAGES])
        else:
            text = extract_file(path, path.read_bytes()).text
    except Exception:  # noqa: BLE001 - a broken file is reported (with its reason) when it is loaded
        return None
    return infer_language(text) if len("".join(text.split())) >= 40 else None
