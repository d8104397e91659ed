"""Generate samples/corpus/scanned-amendment.pdf: an image-only PDF (no text layer).

It exercises the OCR path: the loader finds < 25 characters per page in the text layer,
rasterizes the page with `pdftoppm -r 300` and reads it with Tesseract.

Run from the repository root:
    python samples/make_scanned_pdf.py
Needs Pillow and the DejaVu fonts (Debian: fonts-dejavu-core).
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

DPI = 200
PAGE_INCHES = (8.27, 11.69)  # A4
MARGIN = int(1.0 * DPI)
FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
)
OUTPUT = Path(__file__).resolve().parent / "corpus" / "scanned-amendment.pdf"

LETTER = [
    ("title", "AMENDMENT No. 1 TO THE MASTER SERVICES AGREEMENT"),
    ("body", "Date: 10 December 2024"),
    ("body", 'Between ACME ANALYTICS LIMITED (the "Customer") and NORTHWIND CLOUD SERVICES LTD '
             '(the "Supplier").'),
    ("body", 'This letter amends the Master Services Agreement dated 3 March 2024 between the '
             'Customer and the Supplier (the "Agreement") with effect from 1 January 2025.'),
    ("body", '1. Clause 14.3 of the Agreement is amended by replacing the words "100% of the Fees '
             'paid" with "150% of the Fees paid", so that the general liability cap is raised.'),
    ("body", "2. In Schedule 2, the availability target in paragraph 1 is increased from 99.9% to "
             "99.95% of the time in each calendar month."),
    ("body", "3. All other terms of the Agreement remain unchanged and in full force and effect."),
    ("body", "Signed for and on behalf of ACME ANALYTICS LIMITED: Jane Whitfield, Director"),
    ("body", "Signed for and on behalf of NORTHWIND CLOUD SERVICES LTD: Tom Okafor, Director"),
]


def find_font() -> str:
    for candidate in FONT_CANDIDATES:
        if Path(candidate).is_file():
            return candidate
    sys.exit("no DejaVu font found: apt-get install fonts-dejavu-core")


def render_page() -> Image.Image:
    width, height = int(PAGE_INCHES[0] * DPI), int(PAGE_INCHES[1] * DPI)
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    font_path = find_font()
    body = ImageFont.truetype(font_path, int(11 * DPI / 72))
    title = ImageFont.truetype(font_path.replace("Serif.ttf", "Serif-Bold.ttf"), int(12 * DPI / 72))
    chars_per_line = 68
    y = MARGIN
    for style, paragraph in LETTER:
        font = title if style == "title" else body
        for line in textwrap.wrap(paragraph, chars_per_line):
            draw.text((MARGIN, y), line, font=font, fill=0)
            y += int(font.size * 1.45)
        y += int(body.size * 0.9)
    # a clean scan: pure black on white, stored as 1-bit so the PDF stays small
    return page.point(lambda v: 0 if v < 160 else 255).convert("1")


def main() -> None:
    page = render_page()
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    page.save(OUTPUT, "PDF", resolution=DPI)
    print(f"wrote {OUTPUT} ({OUTPUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
