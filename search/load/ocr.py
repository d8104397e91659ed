"""OCR of scanned PDFs: rasterize with poppler's `pdftoppm -r 300`, read with Tesseract.

The pages read are kept on disk (`<cache dir>/ocr`, one JSON file per scan), keyed by the file's
bytes, the Tesseract languages, the resolution and Tesseract's version: a re-ingest (`--force`, a
changed sidecar, a new summarizer) reads a scan it has read before at once, and a new scan or
another Tesseract reads it again. Delete the folder to read every scan afresh.

Needs the system packages `poppler-utils`, `tesseract-ocr`, `tesseract-ocr-eng` and
`tesseract-ocr-ita` (the project set-up installs them). A missing tool is a
`DocumentError` that says so, never a silent empty document.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

from legalsearch.documents.errors import DocumentError

SCANNED_CHARS_PER_PAGE = 25
OCR_DPI = 300
OCR_CACHE_VERSION = 1
"""Part of every cache key: a change to how pages are read (rasterization, clean-up) bumps it."""
_SETUP_HINT = ("install the OCR tools (apt-get install poppler-utils tesseract-ocr tesseract-ocr-eng "
               "tesseract-ocr-ita; the project set-up does this)")


def tesseract_languages(language: str | None) -> str:
    """Tesseract language string for a document language ("it" -> "ita+eng")."""
    return {"en": "eng", "it": "ita+eng"}.get(language or "", "eng+ita")


def check_ocr_tools() -> None:
    """Raise `DocumentError` unless pdftoppm and tesseract (with eng and ita) are installed."""
    if shutil.which("pdftoppm") is None:
        raise DocumentError(f"pdftoppm not found: {_SETUP_HINT}")
    try:
        import pytesseract

        languages = set(pytesseract.get_languages(config=""))
    except Exception as e:  # pytesseract raises its own TesseractNotFoundError / OSError
        raise DocumentError(f"tesseract not available ({e.__class__.__name__}): {_SETUP_HINT}") from e
    missing = {"eng", "ita"} - languages
    if missing:
        raise DocumentError(f"tesseract lacks language data {sorted(missing)}: {_SETUP_HINT}")


@cache
def tesseract_version() -> str:
    import pytesseract

    return str(pytesseract.get_tesseract_version())


def default_cache_dir() -> Path:
    """Where read scans are kept: the settings' cache folder (LEGALSEARCH_CACHE_DIR), `ocr/`."""
    from legalsearch.config import Settings

    return Settings().cache_dir / "ocr"


def cache_key(data: bytes, lang: str) -> str:
    digest = hashlib.sha256(data)
    digest.update(f"|{lang}|{OCR_DPI}|tesseract {tesseract_version()}|v{OCR_CACHE_VERSION}".encode())
    return digest.hexdigest()


def _cached(file: Path) -> list[str] | None:
    try:
        pages = json.loads(file.read_text(encoding="utf-8"))["pages"]
    except (OSError, ValueError, KeyError, TypeError):  # none yet, or a file cut short: read the scan again
        return None
    return pages if isinstance(pages, list) and all(isinstance(t, str) for t in pages) else None


def _keep(file: Path, pages: list[str]) -> None:
    """Written whole or not at all (a temporary file renamed); a cache that cannot be written
    costs a second reading, never the ingest."""
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_name(f".{file.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"pages": pages}, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, file)
    except OSError:
        pass


def ocr_pdf_pages(path: Path, language: str | None = None, data: bytes | None = None) -> list[str]:
    """OCR every page of a scanned PDF (`data`: its bytes, when read already); returns the text of
    each page, in order. A scan read before (same bytes, languages, resolution and Tesseract)
    comes from `default_cache_dir()`.

    Raises:
        DocumentError: tools missing, rasterization failed, or no text recognized.
    """
    check_ocr_tools()
    lang = tesseract_languages(language)
    file = default_cache_dir() / f"{cache_key(path.read_bytes() if data is None else data, lang)}.json"
    pages = _cached(file)
    if pages is None:
        pages = _read_pages(path, lang)
        _keep(file, pages)
    return pages


def _read_pages(path: Path, lang: str) -> list[str]:
    import pytesseract
    from PIL import Image

    with tempfile.TemporaryDirectory(prefix="legalsearch-ocr-") as tmp:
        prefix = Path(tmp) / "page"
        result = subprocess.run(
            ["pdftoppm", "-r", str(OCR_DPI), "-gray", "-png", str(path), str(prefix)],
            capture_output=True, text=True, timeout=600, check=False,
        )
        images = sorted(Path(tmp).glob("page*.png"))
        if result.returncode != 0 or not images:
            raise DocumentError(f"{path}: could not rasterize the scanned PDF for OCR "
                                f"(pdftoppm: {result.stderr.strip() or 'no pages'}); check the file")
        texts = []
        for image_path in images:
            with Image.open(image_path) as image:
                texts.append(pytesseract.image_to_string(image, lang=lang).replace("\f", "").rstrip())
    if not any(t.strip() for t in texts):
        raise DocumentError(f"{path}: OCR recognized no text; check the scan quality (300 dpi, upright pages)")
    return texts
