"""The numbers Word draws in front of its numbered paragraphs, written back into the text.

A contract drafted in Word numbers its clauses with a multi-level list ("1.", "1.1", "(a)"),
often tied to the heading styles. Those numbers are not characters of the paragraph: Word
computes them from numbering.xml when it draws the page, so a reader of the paragraphs' text gets
"DEFINITIONS" and "The Supplier shall ..." with no "1." or "14.3" in front, and neither the
structure parser nor a question about "clause 14.3" can find the clause. Here each paragraph's
list (its own `w:numPr`, else its style's, through `w:basedOn`) and level are looked up, the
counters run as Word runs them (a level restarts after a higher one; lists of one abstract
definition share their counters unless a `w:startOverride` restarts them), and the label is
formatted from the level's `w:lvlText` ("%1.%2", "(%3)", "Article %1") and `w:numFmt`.
Bullets and levels formatted `none` give no label.
"""

from __future__ import annotations

from dataclasses import dataclass, field

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@dataclass(slots=True)
class Level:
    start: int = 1
    fmt: str = "decimal"
    text: str = "%1."
    restart: bool = True
    legal: bool = False  # w:isLgl: every level's number shown in decimal
    suffix: str = " "


@dataclass(slots=True)
class ListDef:
    key: str  # whose counters: the abstract definition's, or the num's own after a startOverride
    abstract: str = ""  # the abstract definition's id (its levels may be tied to paragraph styles)
    levels: dict[int, Level] = field(default_factory=dict)
    starts: dict[int, int] = field(default_factory=dict)  # w:startOverride per level


def _val(element, tag: str, default: str | None = None) -> str | None:
    child = element.find(W + tag) if element is not None else None
    return child.get(W + "val", default) if child is not None else default


def _level(element) -> Level:
    level = Level()
    start = _val(element, "start")
    level.start = int(start) if start and start.lstrip("-").isdigit() else 1
    level.fmt = _val(element, "numFmt", "decimal") or "decimal"
    level.text = _val(element, "lvlText", "") or ""
    level.restart = _val(element, "lvlRestart", "1") != "0"
    level.legal = element.find(W + "isLgl") is not None and _val(element, "isLgl", "1") not in ("0", "false")
    level.suffix = {"tab": " ", "space": " ", "nothing": ""}.get(_val(element, "suff", "tab") or "tab", " ")
    return level


class Numbering:
    """The list definitions of one document (numbering.xml) and the styles' numbering (styles.xml)."""

    def __init__(self, numbering_xml, styles_xml):
        self.abstract: dict[str, dict[int, Level]] = {}
        self.raw_nums: dict[str | None, str | None] = {}
        self.level_style: dict[str, dict[str, int]] = {}
        self.style_link: dict[str, str] = {}  # abstract id -> the numbering style it links to
        self.nums: dict[str, ListDef] = {}
        self.style_num: dict[str, tuple[str | None, int | None]] = {}
        self.style_base: dict[str, str] = {}
        if styles_xml is not None:
            for style in styles_xml.iter(W + "style"):
                sid = style.get(W + "styleId")
                base = _val(style, "basedOn")
                if sid and base:
                    self.style_base[sid] = base
                numpr = style.find(f"{W}pPr/{W}numPr")
                if sid and numpr is not None:
                    ilvl = _val(numpr, "ilvl")
                    self.style_num[sid] = (_val(numpr, "numId"), int(ilvl) if ilvl and ilvl.isdigit() else None)
        if numbering_xml is None:
            return
        level_style: dict[str, dict[str, int]] = {}
        for abstract in numbering_xml.iter(W + "abstractNum"):
            aid = abstract.get(W + "abstractNumId")
            levels = {}
            for lvl in abstract.iter(W + "lvl"):
                ilvl = int(lvl.get(W + "ilvl", "0"))
                levels[ilvl] = _level(lvl)
                pstyle = _val(lvl, "pStyle")
                if pstyle:
                    level_style.setdefault(aid, {})[pstyle] = ilvl
            self.abstract[aid] = levels
            link = _val(abstract, "numStyleLink")
            if link:
                self.style_link[aid] = link
        self.level_style = level_style
        self.raw_nums = {num.get(W + "numId"): _val(num, "abstractNumId") for num in numbering_xml.iter(W + "num")}
        for num in numbering_xml.iter(W + "num"):
            nid = num.get(W + "numId")
            aid = _val(num, "abstractNumId")
            if nid is None or aid is None:
                continue
            aid = self._resolve_link(aid)
            definition = ListDef(key=f"a{aid}", abstract=aid, levels=dict(self.abstract.get(aid, {})))
            for override in num.iter(W + "lvlOverride"):
                ilvl = int(override.get(W + "ilvl", "0"))
                start = _val(override, "startOverride")
                if start is not None and start.lstrip("-").isdigit():
                    definition.starts[ilvl] = int(start)
                    definition.key = f"n{nid}"
                lvl = override.find(W + "lvl")
                if lvl is not None:
                    definition.levels[ilvl] = _level(lvl)
                    definition.key = f"n{nid}"
            self.nums[nid] = definition

    def _resolve_link(self, aid: str) -> str:
        """An abstract definition that only points at a numbering style (`w:numStyleLink`): the
        definition that style's list uses."""
        link = self.style_link.get(aid)
        if not link or any(lvl.text for lvl in self.abstract.get(aid, {}).values()):
            return aid
        num_id, _ = self.style_num.get(link, (None, None))
        target = self.raw_nums.get(num_id) if num_id is not None else None
        return target if target and target != aid else aid

    def of_paragraph(self, paragraph) -> tuple[ListDef, int] | None:
        """The list and level of a `w:p` element, None when it is not numbered."""
        numpr = paragraph.find(f"{W}pPr/{W}numPr")
        num_id, ilvl = (None, None)
        if numpr is not None:
            num_id = _val(numpr, "numId")
            level = _val(numpr, "ilvl")
            ilvl = int(level) if level and level.isdigit() else None
        style = _val(paragraph.find(W + "pPr"), "pStyle")
        seen = set()
        while num_id is None and style and style not in seen:
            seen.add(style)
            num_id, style_level = self.style_num.get(style, (None, None))
            if num_id is not None:
                if ilvl is None:
                    ilvl = style_level
                if ilvl is None:
                    definition = self.nums.get(num_id)
                    ilvl = self.level_style.get(definition.abstract, {}).get(style, 0) if definition else 0
                break
            style = self.style_base.get(style)
        if num_id is None or num_id == "0" or num_id not in self.nums:
            return None
        return self.nums[num_id], ilvl or 0


class Counters:
    """Word's running counters: one set per list key."""

    def __init__(self):
        self.values: dict[str, dict[int, int]] = {}

    def label(self, definition: ListDef, ilvl: int) -> str:
        """The label of the next paragraph at `ilvl` of `definition` ("" for bullets)."""
        counters = self.values.setdefault(definition.key, {})
        level = definition.levels.get(ilvl, Level())
        start = definition.starts.get(ilvl, level.start)
        counters[ilvl] = counters.get(ilvl, start - 1) + 1
        for deeper in [k for k in counters if k > ilvl]:
            if definition.levels.get(deeper, Level()).restart:
                del counters[deeper]
        if level.fmt in ("bullet", "none") or not level.text:
            return ""
        out = level.text
        for k in range(9, -1, -1):
            token = f"%{k + 1}"
            if token in out:
                shown = definition.levels.get(k, Level())
                value = counters.get(k, definition.starts.get(k, shown.start))
                out = out.replace(token, format_number(value, "decimal" if level.legal and k != ilvl
                                                       else shown.fmt))
        return out.strip() + level.suffix if out.strip() else ""


def format_number(value: int, fmt: str) -> str:
    """A counter in a Word number format (decimal, decimalZero, lower/upper letter and roman)."""
    if fmt in ("lowerLetter", "upperLetter"):
        n = max(value, 1)
        letter = chr(ord("a") + (n - 1) % 26)
        letters = letter * ((n - 1) // 26 + 1)  # Word repeats the letter: y, z, aa, bb
        return letters.upper() if fmt == "upperLetter" else letters
    if fmt in ("lowerRoman", "upperRoman"):
        roman = _roman(max(value, 1))
        return roman if fmt == "upperRoman" else roman.lower()
    if fmt == "decimalZero":
        return f"{value:02d}"
    return str(value)


def _roman(value: int) -> str:
    out = ""
    for number, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                            (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while value >= number:
            out += letters
            value -= number
    return out
