"""OCR of scanned PDFs: rasterize with poppler's `pdftoppm -r 300`, read with Tesseract.

Needs the system packages `poppler-utils`, `tesseract-ocr`, `tesseract-ocr-eng` and
`tesseract-ocr-ita` (the project set-up installs them). A missing tool is a
`DocumentError` that says so, never a silent empty document.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from legalsearch.documents.errors import DocumentError

SCANNED_CHARS_PER_PAGE = 25
OCR_DPI = 300
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


def ocr_pdf_pages(path: Path, language: str | None = None) -> list[str]:
    """OCR every page of a scanned PDF; returns the text of each page, in order.

    Raises:
        DocumentError: tools missing, rasterization failed, or no text recognized.
    """
    from PIL import Image

    check_ocr_tools()
    import pytesseract

    lang = tesseract_languages(language)
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
