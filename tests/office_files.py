"""Office files built for tests: a PDF with a real text layer, a .docx numbered by Word's own lists."""

from __future__ import annotations

import docx
from docx.oxml import parse_xml


def text_pdf(pages: list[list[str]]) -> bytes:
    """A minimal PDF with a real text layer (Helvetica), one list of lines per page."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    kids = []
    for lines in pages:
        ops = ["BT", "/F1 11 Tf", "14 TL", "72 770 Td"]
        for line in lines:
            ops.append("(" + line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ") Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream.decode('latin-1')}\nendstream")
        content_id = len(objects)
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents {content_id} 0 R "
                       "/Resources << /Font << /F1 3 0 R >> >> >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _lvl(ilvl: int, fmt: str, text: str, start: int = 1, style: str | None = None) -> str:
    pstyle = f'<w:pStyle w:val="{style}"/>' if style else ""
    return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>{pstyle}'
            f'<w:lvlText w:val="{text}"/><w:suff w:val="tab"/></w:lvl>')


def numbered_docx(path, rows, extra_nums: str = "") -> None:
    """A .docx whose clauses are numbered by Word: rows of (style or None, (numId, ilvl) or None, text).
    List 1: "1." / "1.1" / "(a)", Heading 1 and Heading 2 tied to its first two levels through their
    styles; list 2: "Schedule 1"; list 3: bullets; list 4: list 1 restarted at 1 (startOverride)."""
    document = docx.Document()
    numbering = document.part.numbering_part.element
    for child in list(numbering):
        numbering.remove(child)
    numbering.append(parse_xml(f'<w:abstractNum {NS} w:abstractNumId="10">'
                               + _lvl(0, "decimal", "%1.", style="Heading1") + _lvl(1, "decimal", "%1.%2", style="Heading2")
                               + _lvl(2, "lowerLetter", "(%3)") + "</w:abstractNum>"))
    numbering.append(parse_xml(f'<w:abstractNum {NS} w:abstractNumId="11">' + _lvl(0, "decimal", "Schedule %1")
                               + "</w:abstractNum>"))
    numbering.append(parse_xml(f'<w:abstractNum {NS} w:abstractNumId="12">' + _lvl(0, "bullet", "\u2022")
                               + "</w:abstractNum>"))
    for num_id, abstract in ((1, 10), (2, 11), (3, 12)):
        numbering.append(parse_xml(f'<w:num {NS} w:numId="{num_id}"><w:abstractNumId w:val="{abstract}"/></w:num>'))
    numbering.append(parse_xml(f'<w:num {NS} w:numId="4"><w:abstractNumId w:val="10"/>'
                               '<w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'))
    for style_name, ilvl in (("Heading 1", 0), ("Heading 2", 1)):
        style = document.styles[style_name]
        ppr = style.element.get_or_add_pPr()
        ppr.append(parse_xml(f'<w:numPr {NS}><w:ilvl w:val="{ilvl}"/><w:numId w:val="1"/></w:numPr>'))
    for style, numbered, text in rows:
        paragraph = document.add_paragraph(text, style=style)
        if numbered:
            num_id, ilvl = numbered
            paragraph._p.get_or_add_pPr().append(
                parse_xml(f'<w:numPr {NS}><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'))
    document.save(path)
