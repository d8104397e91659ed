"""Heading candidates and how each is judged (the first half of the structure parser).

One regex pass finds heading candidates at "soft line starts" (start of a line, or after a
run of 3+ spaces: MAUD-style text puts "Section 6.2" mid-line after wide gaps). Each
candidate is then judged here: keyword headings ("Section 21", "Art. 5 – Durata",
"SCHEDULE 2") need a heading-like continuation; bare numbers ("14.3", "21A", "1-bis")
and list markers ("(a)", "(iv)", "a)") must either look like a heading or continue the
numbering already open (so "10 Business Days" at the start of a wrapped line, "1. January"
and "1.000,00" stay prose). `search.parse.tree` nests what is accepted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from legalsearch.documents.models import CONTAINER_KINDS
from legalsearch.parse.doctypes import PARTY_ROLE, is_judgment_layout
from legalsearch.parse.numbering import (
    alpha_value,
    follows_letter,
    follows_numeric,
    is_roman,
    roman_value,
    split_numeric,
)

_LATIN = r"bis|ter|quater|quinquies|sexies|septies|octies"


KEYWORDS = {
    "book": "book", "libro": "book", "part": "part", "parte": "part", "titolo": "part", "chapter": "chapter",
    "capo": "chapter",
    "division": "division", "subdivision": "subdivision",
    "article": "article", "articolo": "article", "art.": "article",
    "section": "section", "sec.": "section", "§": "section", "sezione": "section", "clause": "clause",
    "schedule": "schedule", "annex": "schedule", "exhibit": "schedule", "appendix": "schedule",
    "attachment": "schedule", "allegato": "schedule",
}


_KW_ALT = "|".join(
    sorted({w.upper() for w in KEYWORDS} | {w.capitalize() for w in KEYWORDS}, key=len, reverse=True)
).replace(".", r"\.")


HEADING_RE = re.compile(
    r"(?m)(?:^|(?<=[ \t]{3}))[ \t\ufeff]*(?:\#{1,6}[ \t]+)?(?:\*\*|__)?(?:"
    r"(?P<special>WHEREAS|Whereas|RECITALS|Recitals|BACKGROUND|Background|PREMESSE|Premesse|PREMESSO|Premesso"
    r"|CONSIDERANDO QUANTO SEGUE|[Cc]onsiderando quanto segue"
    r"|IN WITNESS WHEREOF|In [Ww]itness [Ww]hereof|LETTO, CONFERMATO E SOTTOSCRITTO|Letto, confermato e sottoscritto"
    r"|Signed by|SIGNED by|Signed for and on behalf|SIGNED for and on behalf|This Agreement has been entered into"
    r"|Ai sensi e per gli effetti|Ai sensi degli|APPROVAZIONE SPECIFICA|Approvazione specifica"
    r"|TABLE OF CONTENTS|Table of Contents|CONTENTS|Contents|INDICE|SOMMARIO"
    r"|ARRANGEMENT OF (?:SECTIONS|CLAUSES|ARTICLES|REGULATIONS|RULES|PARAGRAPHS)"
    r"|Arrangement of (?:Sections|Clauses|Articles|Regulations|Rules|Paragraphs))\b"
    # "Articles 38 to 84 Deleted": a run of repealed units, one unit (judged by _range)
    r"|(?P<range>Articles|ARTICLES|Sections|SECTIONS|§§)[ \t]*(?P<rfrom>\d{1,4}(?:-\d{1,3})?)[ \t]*"
    r"(?:to|through|-|–)[ \t]*(?P<rto>\d{1,4}(?:-\d{1,3})?)(?![\d.])"
    # labels: "5", "14.3", "21A", "1-bis", an inserted article "3-2" / "667-2", "1044", "IV", "B"
    rf"|(?P<kw>{_KW_ALT})[ \t]*(?P<kwlabel>\d{{1,4}}(?:\.\d{{1,3}}){{0,3}}(?:(?:[A-Z]{{1,2}}|[a-z])(?![A-Za-z]))?"
    rf"(?:[- ]?(?:{_LATIN})(?![a-z]))?(?:-\d{{1,3}}(?![\d.]))?|[IVXLC]{{1,7}}(?![A-Za-z])|[A-Z](?![A-Za-z]))"
    rf"|(?P<dec>\d{{1,3}}(?:\.\d{{1,3}}){{0,4}})(?P<suf>[A-Z]{{1,2}}|-?(?:{_LATIN}))?(?P<dp>[.)])?(?=[ \t\n]|—\(|$)"
    r"|\([ ]?(?P<par>[a-z]{1,4}|[A-Z]{1,4}|\d{1,3}[A-Z]{0,2})[ ]?\)(?=[ \t\n]|$)"
    r"|(?P<rpar>[a-z]{1,3})\)(?=[ \t])"
    r"|(?P<ldot>[A-Z]|[a-z]|[IVX]{2,5}|[ivx]{2,5})\.(?=[ \t])"
    # a judgment's paragraph number in brackets: "[12] The appellant says ..." (judged by _bracketed)
    r"|\[(?P<brk>\d{1,3})\](?=[ \t])"
    # an unnumbered heading line ("GOVERNING LAW", "How we use your information"): only its first
    # letter is consumed, so candidates later on the same line are still found; judged by _plain
    r"|(?P<plain>(?=[A-Z][^\n]{2,119}(?:\n|$))[A-Z])"
    r")"
)


_SOFT_END_RE = re.compile(r"\n|[ \t]{3}")


_SENTENCE_BREAK_RE = re.compile(r"[.:](?=\s+[\"“(A-Z0-9])")


_MONTHS = re.compile(
    r"(?i)(january|february|march|april|may|june|july|august|september|october|november|december"
    r"|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre)\b"
)


_DEFINITIONS_TITLE = re.compile(
    r"(?i)^(definitions?|defined terms|interpretation|definizioni|definizioni e interpretazione)\b"
)


_STOPWORDS = frozenset(
    "a an and as at by for from in into of on or the to with e ed di del della dei delle degli il "
    "lo la le gli per tra fra da dal dalla al alla ai agli un una".split()
)


_FIXED_RANKS = {"schedule": 0, "book": 5, "part": 10, "chapter": 20, "division": 22, "subdivision": 24, "article": 30,
                "section": 40, "clause": 45}
# An unnumbered heading nests under keyword units ("Section 5" > "EXCEPTIONS") and groups the bare
# numbered units after it (a judgment's "Issue 3: ..." > paragraphs 13-17); it closes a bare-numbered
# clause ("24.6 counterparts" is not the parent of "GOVERNING LAW").
_PLAIN_RANK = 49
_FIRST_UNIT = re.compile(r"(?:(?:ARTICLE|Article|ARTICOLO|Articolo|ART\.|Art\.|CLAUSE|Clause|SECTION|Section)\s+)?"
                         r"(?:1|I)(?:\.(?!\d)|\)|\s)")


_TOC_MAX_CHARS = 40_000
# where a table of contents' entry ends: a line break, a page number ("Definitions    2", "..... 14")
_TOC_ENTRY_END = re.compile(r"\n|\s\d{1,3}(?=[ \t]{2,}|[ \t]*\n|[ \t]*$)|\.{3,}\s*\d+|\bPage\b")
_TOC_MAX_ENTRY = 300
# "Contents" above "(2) The notice of violation shall ..." is a Canadian marginal note, not a table
_NEXT_LINE_MARKER = re.compile(r"\s*\n\s*\(\w{1,4}\)")


_MARKDOWN_HEADING = re.compile(r"[ \t]*(#{1,6})[ \t]+")


# the front matter's own headings, which hold the parties or the date, never a clause
_FRONT_MATTER = re.compile(
    r"(?i)(?:the\s+)?parties|between|dated?|agreed terms|it is agreed(?: as follows)?:?|operative provisions"
    r"|(?:le\s+)?parti|tra|fra|tra le parti|si conviene e si stipula(?: quanto segue)?:?")


# a street's name after its number ("12 Quay Street", "200 Aldersgate St"): an address line
_STREET = re.compile(
    r"(?i)\b(?:street|st|road|rd|avenue|ave|lane|drive|boulevard|blvd|crescent|terrace|gardens|wharf|quay|parade"
    r"|mews|square|highway)\.?(?:,|$)")


# a judgment's operative part: "P.Q.M." / "PER QUESTI MOTIVI" on a line of its own
_OPERATIVE_PART = re.compile(r"[ \t]*(?:P\.[ ]?Q\.[ ]?M\.?|PER QUESTI MOTIVI|Per questi motivi)[ \t]*")


# a word cut short by its full stop ("L'art. 9", "n. 4512", "cfr. art. 7"): no sentence ends there;
# lower case or capitalised only ("SEC. The United States Securities ..." is a defined term's title)
_ABBREVIATIONS = ("art artt n nn no nos comma lett cfr pag pagg p pp par parr para paras sec sez ss cl cod ch vol fig "
                  "reg dir cass").split()
_ABBREVIATION_END = re.compile(
    r"(?:^|[\s'’(])(?:" + "|".join(sorted({w for a in _ABBREVIATIONS for w in (a, a.capitalize())}, key=len, reverse=True))
    + r"|ART|ARTT)$")


_DELETED_WORDS = frozenset({"deleted", "repealed", "omitted", "abrogated", "reserved", "abrogati", "abrogato"})


# a caption line in parentheses right above an article: "(Fundamental Principles)"
_CAPTION_RE = re.compile(r"[ \t]*\((?P<caption>[A-Z][^()\n]{1,118})\)[ \t]*\n[ \t]*$")


# statutes with a marginal note on the line above every section and subsection, no blank line
# between: Canada ("Danger to human health or safety\n5 (1) No manufacturer ...", the number bare
# before its text) and Singapore / Malaysia ("Interpretation\n2.—(1) In this Act ...")
_MARGINAL_UNIT = re.compile(
    r"(?m)^[ \t]*[A-Z][^\n]{0,79}[^\s.;:,—]\n[ \t]*\d{1,3}(?:\.\d{1,2})?(?:[ \t]+|\.—)\(1\)[ \t]*[A-Z]")
_MARGINAL_MIN = 3


# a unit's line in that layout: "5 (1) No manufacturer ...", "1 This Act may be cited ...", "2.—(1) In ..."
_MARGINAL_LINE = re.compile(r"[ \t]*\d{1,3}(?:\.\d{1,2})?(?:\.—\(1\)[ \t]*|\.?[ \t]+(?:\(1\)[ \t]+)?)[A-Z]")


# a title ended by a full stop and a dash, the text right after it (India's Acts: "10. Issue of
# receipts.—(1) Every warehouseman ...", "4. Liability of warehouseman.—The warehouseman ...")
_DASH_TITLE = re.compile(r"(?P<title>[A-Z][^\n—]{0,118}?[^\s.])\.[ \t]?—")


# a paragraph marker where a title would be: "Article 1  (1) Private rights ..."
_MARKER_START = re.compile(r"\((?:\d{1,3}[A-Z]{0,2}|[a-z]{1,4}|[A-Z]{1,4})\)(?=[ \t]|$)")


_KW_LINE = re.compile(
    r"(?m)^[ \t]*(?P<word>ARTICLE|Article|ARTICOLO|Articolo|Art\.|ART\.|SECTION|Section|SEZIONE|Sezione)[ \t]+"
    r"(?P<label>\d[\w.-]*|[IVXLC]+\b)")


@dataclass(slots=True)
class OpenNode:
    """A node while the tree is being built (mutable; frozen at the end)."""

    kind: str
    label: str | None
    title: str | None
    heading: str | None
    start: int
    style: str
    rank: float
    dynamic: bool = False
    special: bool = False
    end: int = -1
    label_raw: str = ""
    head_end: int = -1  # where the heading's own text ends (a caption above it included)
    children: list[OpenNode] = field(default_factory=list)


class HeadingJudge:
    """Judges heading candidates; remembers numbering per style and the table of contents."""

    def __init__(self, text: str, language: str, unit_word: str):
        self.text = text
        self.language = language
        self.unit_word = unit_word
        self.last_by_style: dict[str, str] = {}
        self.toc_keys: set[tuple[str, str]] | None = None
        self.toc_start = 0
        self.toc_heading = ""  # the "Contents" line of the table being read
        self.toc_entries_end = -1  # where the line of its last numbered entry ends
        self.toc_lines: set[str] = set()  # its numbered lines ("8. Requirement to register."), as written
        # a table of contents just closed by the body's first heading seen again: a "contents" node
        # (to the end of its last numbered entry), and a preamble node for what follows it up to that
        # heading, if anything does, for `parse_structure` to attach before that heading (a table is
        # navigation, not clauses; the Act's title and long title after it are text)
        self.contents: list[OpenNode] = []
        self.seen_recitals = False
        self.heading_end = 0
        self.ranks = keyword_ranks(text)
        # UK statutory instruments ("1.—(1) These Regulations ..."): a caption line names the unit below
        self.line_captions = bool(re.search(r"(?m)^\d{1,3}\.—\(1\)", text))
        # Canadian statutes: a marginal note above each section and subsection (`_MARGINAL_UNIT`)
        self.marginal = len(_MARGINAL_UNIT.findall(text)) >= _MARGINAL_MIN
        # a judgment: "Introduction" / "SVOLGIMENTO DEL PROCESSO" holds paragraphs 1-3, "Background"
        # is a heading (a contract's recitals are not in a judgment), a party's name is no heading
        self.judgment = is_judgment_layout(text)
        # a line repeated verbatim 3+ times is a page's running header or footer ("Source: ACME INC.,
        # 10-K, 9/11/2003" in an export, "EXECUTION VERSION"), never a heading that holds the clauses
        # after it (a PDF's are removed at load; a text file keeps its text as it is)
        counts = Counter(line.strip() for line in text.split("\n") if len(line.strip()) > 3)
        self.running_lines = {line for line, n in counts.items() if n >= 3}
        self.tight_titles = _tight_titles(text)
        self.unit_start = 0  # where the last accepted heading starts (a judgment's quotations are read from it)

    def judge(self, match: re.Match, stack: list[OpenNode]) -> OpenNode | None:
        text = self.text
        start = match.start()
        while text[start] in " \t\ufeff#*_":  # Markdown: "## 3. Term", "**1. Definitions**"
            start += 1
        groups = match.groupdict()
        if start < self.heading_end:
            return None  # inside the text of the heading just accepted ("ARTICLE 1\nDEFINITIONS")
        if self.judgment and _open_quotation(text[self.unit_start:start]):
            return None  # a judgment quoting the contract: '"14.1 Each party's total liability ...'
        node = self._judge(match, start, stack, groups)
        if node is not None and node.title is None and self.toc_lines and self.toc_keys is None:
            self._title_from_contents(node, start)
        if node is not None:
            self.unit_start = start
            if node.title and node.title[-1:] in "*_":
                node.title = node.title.rstrip("*_ ").rstrip(".:") or None  # "**1. Definitions**"
        if node is not None and node.head_end >= 0:
            self.heading_end = node.head_end
        elif node is not None and node.heading:
            self.heading_end = start + len(node.heading)
        return node

    def _judge(self, match: re.Match, start: int, stack: list[OpenNode], groups: dict) -> OpenNode | None:
        if groups["special"]:
            return self._special(match, start, stack)
        if self.toc_keys is not None and start - self.toc_start > _TOC_MAX_CHARS:
            self.toc_keys = None
        if groups["range"]:
            node = self._range(match, start)
        elif groups["kw"]:
            node = self._keyword(match, start, stack)
        elif groups["dec"]:
            node = self._decimal(match, start, stack)
        elif groups["plain"]:
            node = self._plain(start, stack)
        elif groups["brk"]:
            node = self._bracketed(match, start, stack)
        else:
            node = self._marker(match, start, stack)
        if self.toc_keys is None:
            return node
        # a numbered line is an entry ("4. Grant of certificate.", "1 Short title ..... 1", judged a
        # heading or not); a title line ("THE WAREHOUSING ACT, 2019") is not
        entry_end = None if groups["plain"] else _line_stop(self.text, start)
        if entry_end is not None:
            self.toc_lines.add(self.text[start:entry_end].strip())
        if node is None:
            self.toc_entries_end = entry_end or self.toc_entries_end
            return None
        key = _toc_key(node)
        if key in self.toc_keys:  # the body restarts: first heading seen twice
            end = min(self.toc_entries_end, start)  # a page number "2" read as a heading ends it on its line
            if not node.dynamic and len(self.toc_keys) >= 2 and self.toc_start < end \
                    and _reads_as_table(self.text, self.toc_start, end):
                self.contents = [OpenNode("contents", None, None, self.toc_heading, self.toc_start, "special", 0,
                                          special=True)]
                after = min(_skip_space(self.text, end), start)
                if after < start:  # the title, long title and enacting words between the table and the body
                    self.contents.append(OpenNode("preamble", None, None, None, after, "special", 0, special=True))
            self.toc_keys = None
            return node
        self.toc_keys.add(key)
        self.toc_entries_end = entry_end or self.toc_entries_end
        return None

    def _title_from_contents(self, node: OpenNode, start: int) -> None:
        """A body heading whose whole line the table of contents lists ("8. Requirement to register."
        in a Kenyan Act's arrangement of sections, then again over section 8's text) is titled by
        that line, in sentence case though it is: a table lists titles, not sentences."""
        end = _line_stop(self.text, start)
        line = self.text[start:end].rstrip()
        label = node.heading or ""
        if line.strip() in self.toc_lines and label and line.startswith(label):
            title = line[len(label):].strip(" \t.:")
            if title and len(title) <= 120:
                node.title, node.heading, node.head_end = title, line, start + len(line)

    # -- candidates -------------------------------------------------------------------
    def _special(self, match: re.Match, start: int, stack: list[OpenNode]) -> OpenNode | None:
        word = match.group("special")
        rest, rest_end = _rest_of_line(self.text, match.end())
        upper = word.upper()
        if upper in ("TABLE OF CONTENTS", "CONTENTS", "INDICE", "SOMMARIO") or upper.startswith("ARRANGEMENT OF"):
            if self.toc_keys is None and len(rest) <= 30 and not _NEXT_LINE_MARKER.match(self.text, rest_end):
                self.toc_keys, self.toc_start, self.toc_entries_end = set(), start, -1
                self.toc_heading = clean_heading(self.text[start:rest_end])
            return None  # "TABLE OF CONTENTS (continued)" atop the table's next page: the same table
        self.toc_keys = None
        if upper.startswith(("AI SENSI", "APPROVAZIONE SPECIFICA")):
            window = self.text[match.end():match.end() + 200]
            if "1341" not in window:
                return None
            top = stack[-1]
            if (upper.startswith("AI SENSI") and top.kind == "signature" and top.heading
                    and top.heading.upper().startswith("APPROVAZIONE") and start - top.start < 400):
                return None  # the body of the "Approvazione specifica ..." heading just opened
            return OpenNode("signature", None, None, clean_heading(self.text[start:rest_end]), start, "special", 0,
                         special=True)
        if upper.startswith(("IN WITNESS", "LETTO", "SIGNED", "THIS AGREEMENT")):
            if len(stack) > 1 and stack[1].kind == "signature":
                return None  # one signature block, however many "Signed by" lines
            return OpenNode("signature", None, None, clean_heading(self.text[start:rest_end]), start, "special", 0,
                         special=True)
        if self.judgment:
            return self._plain(start, stack)  # "Background" above paragraphs 3-5 of a judgment
        if self.seen_recitals:
            return None
        if upper in ("RECITALS", "BACKGROUND", "PREMESSE") and len(rest.strip(":. ")) > 0:
            return None  # "Background information is ..." is prose, not the recitals heading
        self.seen_recitals = True
        heading_end = start + len(word) if upper in ("WHEREAS", "PREMESSO") else rest_end
        return OpenNode("recitals", None, None, clean_heading(self.text[start:heading_end]), start, "special", 0,
                     special=True)

    def _keyword(self, match: re.Match, start: int, stack: list[OpenNode]) -> OpenNode | None:
        text = self.text
        word = match.group("kw").lower()
        kind = KEYWORDS[word]
        label = _normalize_label(match.group("kwlabel"))
        pos = match.end()
        number = re.match(r"\d+", label)
        if number and len(number.group(0)) == 4 and word not in ("article", "articolo", "art.", "§"):
            return None  # "Section 2021 ..." is a year; only codes number articles / § past 999
        if kind == "schedule" and re.search(r"-\d+$", label):
            label = label[:label.rindex("-")]  # "Exhibit 1-1" is page 1 of Exhibit 1
            pos = match.start("kwlabel") + len(label)
        if label[-1:].islower() and label[-2:-1].isdigit() and kind not in ("article", "section"):
            return None  # "Exhibit 10d": only articles and sections are inserted as "3a"
        nxt = text[pos] if pos < len(text) else "\n"
        if not (nxt.isspace() or nxt in ".:-–—)"):
            return None  # "Section 4.1(b) of ...", "Article 9, as ..."
        if kind == "schedule" and "." in label:
            return None  # SEC filing numbers: "Exhibit 10.1"
        if self._wrapped(start):
            return None
        title, title_end, heading_like = _title_after(text, pos, keyword=True)
        if title is None and not heading_like:
            return None
        depth = label.count(".") + 1 if label[:1].isdigit() else 1
        rank = self.ranks[kind] + (0 if kind == "schedule" else min(depth - 1, 3))
        head_end = max(title_end, pos)
        caption = _caption_above(text, start) if kind in ("article", "section") else None
        if caption is not None:
            # "(Fundamental Principles)\nArticle 1 ...": the caption names the article below it
            start, caption_title = caption
            title = title or caption_title
        if title and _DEFINITIONS_TITLE.match(title) and kind in ("article", "section", "clause"):
            kind = "definitions"
        heading = clean_heading(text[start:head_end])
        return OpenNode(kind, label, title, heading, start, f"kw:{kind}", rank,
                        head_end=head_end if caption is not None or "(1)" in text[head_end:head_end + 8] else -1)

    def _range(self, match: re.Match, start: int) -> OpenNode | None:
        """"Articles 38 to 84 Deleted": one empty unit labelled "38 to 84", not a heading."""
        rest, rest_end = _rest_of_line(self.text, match.end())
        status = rest.strip(" \t.:-–—[]()")
        if status.lower() not in _DELETED_WORDS:
            return None
        word = match.group("range").lower()
        kind = "section" if word in ("sections", "§§") else "article"
        label = f"{match.group('rfrom')} to {match.group('rto')}"
        end = start + len(match.group(0)) + len(rest.rstrip())
        heading = clean_heading(self.text[start:end])
        return OpenNode(kind, label, status.capitalize(), heading, start, f"kw:{kind}", self.ranks[kind],
                        head_end=end)

    def _decimal(self, match: re.Match, start: int, stack: list[OpenNode]) -> OpenNode | None:
        text = self.text
        number, suffix = match.group("dec"), match.group("suf") or ""
        parts = number.split(".")
        if any(len(p) == 3 and i > 0 for i, p in enumerate(parts)) or parts[0].startswith("0"):
            return None  # "1.000" is an amount, "0.5" a quantity
        label = number + (("-" + suffix.lstrip("-")) if suffix.lstrip("-") in _LATIN.split("|") else suffix)
        pos = match.end()
        rest_start = _skip_blanks(text, pos)
        if rest_start < len(text) and (text[rest_start].islower() or _MONTHS.match(text, rest_start)):
            return None
        if self._wrapped(start):
            return None
        if self.marginal and not match.group("dp"):
            margin = _line_caption_above(text, start, marginal=True)
            if margin is not None:
                return self._marginal_unit(label, pos, margin, stack)
        depth = len(parts)
        style = f"dec{depth}"
        if self.judgment and not self._judgment_sequence(label, parts):
            return None
        continues = self._continues_decimal(label, depth, stack)
        title, title_end, heading_like = _title_after(text, pos, keyword=False)
        if not continues and not heading_like:
            return None
        if not match.group("dp") and depth == 1 and not suffix and not heading_like:
            return None  # a bare "12 " needs a heading-like line (statute style "21 Recovery ...")
        if not match.group("dp") and depth == 1 and not continues and title and _STREET.search(title):
            return None  # "12 Quay Street" / "200 Aldersgate Street" in a parties block: an address
        kind = self._decimal_kind(label, depth, stack)
        rank = 50 + depth
        article = self._next_article(label, stack) if kind in ("comma", "article") and title else None
        if article is not None:
            # "ARTICOLO 3 - DURATA" ... "4 - Recesso": a titled 4 right after article 3, which has no
            # comma 3 of its own, is article 4 written without its keyword, not comma 4 of article 3
            kind, rank = "article", article.rank
        if kind in ("comma", "paragraph") and not (title and title.isupper()):
            title, title_end = None, pos
        if title and _DEFINITIONS_TITLE.match(title) and kind in ("article", "section", "clause"):
            kind = "definitions"
        self.last_by_style[style] = label
        head_end = max(title_end, pos)
        caption = (_line_caption_above(text, start, marginal=self.marginal)
                   if (self.line_captions or self.marginal) and depth == 1 and kind not in ("comma", "paragraph")
                   else None)
        if caption is not None:
            # UK statutory instruments: "Citation and commencement\n1.—(1) These Regulations ..."
            start, caption_title = caption
            title = title or caption_title
        heading = clean_heading(text[start:head_end])
        inline = text.startswith("—(1)", pos) or text.startswith(" (1)", pos)
        dashed = title is not None and text.startswith("—", head_end)  # "10. Issue of receipts.—(1) ..."
        return OpenNode(kind, label, title, heading, start, style, rank,
                        head_end=pos if inline else (head_end if caption is not None or dashed else -1))

    def _marginal_unit(self, label: str, pos: int, margin: tuple[int, str], stack: list[OpenNode]) -> OpenNode:
        """A section of a Canadian statute: its bare number (`label`, "5" or an inserted "5.1", all
        siblings) ending at `pos`, its marginal note (`margin`: where the note's line starts, and the
        note) for title and start, so the note belongs to the section below it."""
        start, note = margin
        kind = "definitions" if _DEFINITIONS_TITLE.match(note) else self._decimal_kind(label, 1, stack)
        self.last_by_style["dec1"] = label
        return OpenNode(kind, label, note, clean_heading(self.text[start:pos]), start, "dec1", 51, head_end=pos)

    def _marker(self, match: re.Match, start: int, stack: list[OpenNode]) -> OpenNode | None:
        groups = match.groupdict()
        if groups["par"]:
            raw, form = groups["par"], "par"
        elif groups["rpar"]:
            raw, form = groups["rpar"], "rpar"
        else:
            raw, form = groups["ldot"], "ldot"
            rest_start = _skip_blanks(self.text, match.end())
            if rest_start >= len(self.text) or not self.text[rest_start].isupper() or self._wrapped(start):
                return None
        if raw[0].isdigit():
            style = f"{form}:num"
            first_ok = split_numeric(raw) is not None and split_numeric(raw)[0] == (1,) and not raw[1:].isalpha()
            open_node = _open_of_style(stack, style)
            if not (first_ok or (open_node and follows_numeric(open_node.label_raw, raw))):
                return None
        else:
            style, ok = _letter_style(raw, form, stack)
            if not ok:
                return None
        label = f"({raw})" if form == "par" else f"{raw})" if form == "rpar" else f"{raw}."
        title = None
        title_end = match.end()
        inline = _inline_title(self.text, match.end())
        if inline:
            title, title_end = inline
        margin = (_line_caption_above(self.text, start, marginal=True)
                  if self.marginal and form == "par" and raw[0].isdigit() else None)
        if margin is not None:  # "Exception\n(2) Subsection (1) does not apply ...": the note names (2)
            start, title = margin[0], title or margin[1]
        heading = clean_heading(self.text[start:title_end])
        return OpenNode("paragraph", label, title, heading, start, style, 90, dynamic=True, label_raw=raw)

    def _bracketed(self, match: re.Match, start: int, stack: list[OpenNode]) -> OpenNode | None:
        """A judgment's paragraph "[12]" at a line start, in sequence from "[1]" (elsewhere "[1]"
        is a footnote or a citation, and is left to the text)."""
        text = self.text
        if not self.judgment or text[text.rfind("\n", 0, start) + 1:start].strip():
            return None
        label = match.group("brk")
        prev = self.last_by_style.get("brk")
        if not (label == "1" or (prev is not None and int(label) == int(prev) + 1)):
            return None
        self.last_by_style["brk"] = label
        kind = self._decimal_kind(label, 1, stack)
        return OpenNode(kind, label, None, clean_heading(text[start:match.end()]), start, "dec1", 51)

    def _plain(self, start: int, stack: list[OpenNode]) -> OpenNode | None:
        """An unnumbered heading: a short line of its own, in capitals ("GOVERNING LAW", "RETURN OF
        MATERIALS") or, between blank lines, in sentence case before a longer paragraph ("How we
        use your information", "Issue 3: independent development"). Not the document's title
        line, not inside a signature block, not a line of a hard-wrapped paragraph."""
        text = self.text
        line_start = text.rfind("\n", 0, start) + 1
        marked = _MARKDOWN_HEADING.fullmatch(text, line_start, start)
        if (text[line_start:start].strip() and not marked) or not text[:line_start].strip():
            return None  # mid-line (after a wide gap), or the document's own title line
        if any(entry.kind == "signature" for entry in stack):
            return None  # names and addresses under "Signed by ..."
        end = _line_stop(text, start)
        line = text[start:end].rstrip()
        if line.strip() in self.running_lines:
            return None
        if self.marginal and _heads_marginal_unit(text, line, end):
            # "Interpretation" above "Definitions" above "2 (1) ...": the group heading of a Canadian
            # statute, which holds the sections after it
            return OpenNode("heading", None, line.strip(), clean_heading(line), start, "plain", _PLAIN_RANK)
        if marked and len(line) <= 120:
            # "## How we use your information": the writer said it is a heading, and how deep
            # ("#" above "##" above "###"), all of them above the bare-numbered units they hold
            level = len(marked.group(1))
            kind = "definitions" if _DEFINITIONS_TITLE.match(line) else "heading"
            title = line.strip().rstrip("#").strip()
            return OpenNode(kind, None, title, clean_heading(title), line_start, "plain",
                            _PLAIN_RANK - (7 - level) * 0.1)
        if self.judgment and _OPERATIVE_PART.fullmatch(line):
            # "P.Q.M." (per questi motivi): the court's order below it
            return OpenNode("heading", None, line.strip(), clean_heading(line), start, "plain", _PLAIN_RANK)
        words = line.split()
        if not 1 <= len(words) <= 12 or line[-1] in ",;:" or "__" in line or "..." in line:
            return None
        letters = [c for c in line if c.isalpha()]
        if len(letters) < 3 or len(letters) < 0.6 * len(line.replace(" ", "")):
            return None
        blank_before = _blank_line_before(text, line_start)
        blank_after = end >= len(text) or _blank_line_after(text, end)
        if all(c.isupper() for c in letters):
            if not (blank_before or _previous_line(text, line_start).rstrip()[-1:] in (".", ";", ":")):
                return None
        elif line_start in self.tight_titles:
            pass  # "Payment Terms" right above its paragraph, as a document does it three times or more
        else:
            # a question is a heading too ("What data do we collect?", "Was there a material breach?")
            if not (blank_before and blank_after) or len(words) > 10 or line[-1] in ".!" or _MONTHS.match(line):
                return None
            body_start = _skip_space(text, end)
            body_end = text.find("\n", body_start)
            body = text[body_start:body_end if body_end >= 0 else len(text)]
            if len(body) < max(80, 2 * len(line)):
                return None
        body_start = _skip_space(text, end)
        if body_start >= len(text):
            return None  # a last line with nothing under it
        if self.judgment and PARTY_ROLE.fullmatch(text[body_start:_line_stop(text, body_start)]):
            return None  # "ORTOFRUTTA BERICA S.R.L." above "attrice": a party, not a heading
        kind = "definitions" if _DEFINITIONS_TITLE.match(line) else "heading"
        # "AGREED TERMS" right before "1. DEFINITIONS" introduces the numbering, it does not hold
        # it: a divider that the next heading closes (so clause paths stay "Clause 14 > 14.3");
        # a judgment's "Introduction" holds its paragraphs 1-3 as "The issues" holds 6-9
        # "PARTIES" / "BETWEEN" above the parties block is front matter: it holds no clause either
        divider = not self.judgment and (bool(_FIRST_UNIT.match(text, body_start))
                                         or bool(_FRONT_MATTER.fullmatch(line.strip())))
        return OpenNode(kind, None, line.strip(), clean_heading(line), start, "plain", _PLAIN_RANK,
                        special=divider)

    # -- helpers ------------------------------------------------------------------------
    def _next_article(self, label: str, stack: list[OpenNode]) -> OpenNode | None:
        """The innermost open article when bare `label` is the number after its own and it holds
        no comma numbered just before it (its own commi would run 1, 2, 3 ... inside it); else None."""
        article = next((e for e in reversed(stack) if e.kind == "article"), None)
        if article is None or not (article.label or "").isdigit() or not label.isdigit():
            return None
        previous = str(int(label) - 1)
        if int(label) != int(article.label) + 1 or any(c.kind == "comma" and c.label == previous
                                                         for c in article.children):
            return None
        return article

    def _judgment_sequence(self, label: str, parts: list[str]) -> bool:
        """A judgment's own numbers run 1, 2, 3 ... (and "7.1" only under paragraph 7; none where its
        paragraphs are "[1]", "[2]"): a "14.1" or "14. LIMITATION" set out inside paragraph 2 is the
        contract it quotes, not paragraph 14."""
        if "brk" in self.last_by_style:
            return False  # paragraphs "[1]", "[2]": a "1." is a list or a quotation inside one
        prev = self.last_by_style.get("dec1")
        if len(parts) > 1:
            return prev is not None and parts[0] == prev
        return prev is None if label == "1" else prev is not None and follows_numeric(prev, label)

    def _continues_decimal(self, label: str, depth: int, stack: list[OpenNode]) -> bool:
        split = split_numeric(label)
        if split is None:
            return False
        parts, suffix = split
        if parts[-1] == 1 and not suffix:
            return True
        prev = self.last_by_style.get(f"dec{depth}")
        if prev and follows_numeric(prev, label):
            return True
        if depth > 1:
            for entry in reversed(stack):
                if entry.style == f"dec{depth - 1}" or (entry.style.startswith("kw:") and entry.label):
                    parent = split_numeric(entry.label or "")
                    return bool(parent) and parent[0] == parts[:-1] and parts[-1] <= 2
        return False

    def _decimal_kind(self, label: str, depth: int, stack: list[OpenNode]) -> str:
        # the node this heading will hang under once _attach has closed what it closes
        anchor = next((e for e in reversed(stack) if not e.dynamic and not e.special and e.rank < 50 + depth),
                      None)
        if anchor is not None and anchor.kind == "document":
            anchor = None
        if self.language == "it":
            if anchor is not None and anchor.kind in ("article", "definitions") and anchor.style.startswith("kw"):
                return "comma"
            if anchor is not None and anchor.kind == "schedule":
                return "paragraph"
            return "article" if depth == 1 else "comma"
        if anchor is None or anchor.kind in CONTAINER_KINDS:
            return self.unit_word
        if anchor.kind == "schedule":
            return "paragraph"
        if anchor.style.startswith("kw") and anchor.kind in ("section", "clause", "definitions", "article"):
            parent = split_numeric(anchor.label or "")
            own = split_numeric(label)
            if anchor.kind == "article" and depth == 1 and self.ranks["section"] < self.ranks["article"]:
                return "paragraph"  # "Article 3\n1. Producers shall ..." where sections group articles
            if anchor.kind == "article" or (parent and own and parent[0] == own[0][:-1]):
                return self.unit_word
            return "paragraph"
        return self.unit_word

    def _wrapped(self, start: int) -> bool:
        """True when `start` begins a hard-wrapped continuation line of a sentence."""
        text = self.text
        if start == 0 or text[start - 1] != "\n":
            j = start - 1
            while j >= 0 and text[j] in " \t":
                j -= 1
            if j < 0 or text[j] != "\n":
                return False
            start = j + 1
        if start < 2 or text[start - 2] == "\n":
            return False
        prev_start = text.rfind("\n", 0, start - 1) + 1
        prev_line = text[prev_start:start - 1].rstrip()
        return len(prev_line) >= 60 and (prev_line[-1].islower() or prev_line[-1] == ",")


_TIGHT_TITLE = re.compile(
    r"(?m)(?:\A|\n[ \t]*\n)(?P<line>[A-Z][^\n.!?:;,]{2,60})\n(?P<body>[A-Z\"“(][^\n]{59,})")


def _tight_titles(text: str) -> set[int]:
    """Where a title-case line sits right above a long first line of its paragraph, blank line
    before, none after ("Payment Terms\nThe Customer pays ..."), when the document does it three
    times or more (once may be a name above an address); the starts of those lines."""
    found = set()
    for match in _TIGHT_TITLE.finditer(text):
        line = match.group("line").strip()
        words = line.split()
        if 1 <= len(words) <= 8 and _title_case_ratio(line) >= 0.7 and not _MONTHS.match(line):
            found.add(match.start("line"))
    return found if len(found) >= 3 else set()


def _reads_as_table(text: str, start: int, end: int) -> bool:
    """True when text[start:end] is entries all through: a line break or a page number at most
    `_TOC_MAX_ENTRY` characters apart. A body whose first headings the parser missed ("ARTICLE I
    OFFICES Section 1.01 ..." inline in a long line, found again only at "ARTICLE V") reads as
    prose somewhere, and stays text that searches find."""
    pos = start
    for match in _TOC_ENTRY_END.finditer(text, start, end):
        if match.start() - pos > _TOC_MAX_ENTRY:
            return False
        pos = match.end()
    return end - pos <= _TOC_MAX_ENTRY


# one entry of a table of contents, as a chunk of one that the parser did not see as a table reads
# ("Section 3.1   Organization; Good Standing    11  Section 3.2 ...", "4.12 Environmental Matters 14",
# "9 TERM ........ 9"): a number, a title, a page number, then the next entry or the line's end
_ENTRY_LABEL = r"(?:(?:ARTICLE|Article|SECTION|Section|CLAUSE|Clause|SCHEDULE|Schedule|EXHIBIT|Exhibit)\s+)?" \
               r"(?:\d{1,3}(?:\.\d{1,3}){0,3}|[IVXL]{1,6})\.?"
_ANNEXES = r"(?:EXHIBITS?|Exhibits?|SCHEDULES?|Schedules?|ANNEX(?:ES)?|Annex(?:es)?)\b"
_CONTENTS_ENTRY = re.compile(
    rf"(?<!\S){_ENTRY_LABEL}[ \t]+(?=[A-Z(“\"])[^\n]{{1,160}}?[ \t](?:\d{{1,3}}|[ivxl]{{1,6}}|[A-Z]-\d{{1,2}})"
    rf"(?=[ \t]+(?:{_ENTRY_LABEL}[ \t]|-[ivxl\d]{{1,5}}-|{_ANNEXES})|[ \t]*(?:\n|$))")
# what a table holds besides its entries: its heading, "Page", "(continued)", a Part's or an
# Article's own title ("ARTICLE IV", "ARTICLE V  COVENANTS RELATING TO CONDUCT OF BUSINESS"), a page's
# number ("ii" alone on its line, "-iv-"), the list of exhibits and schedules ("Exhibit A – Form of
# Voting Agreement")
_CONTENTS_FURNITURE = re.compile(
    r"TABLE OF CONTENTS|Table of Contents|CONTENTS|Contents|\(continued\)|\bPage\b|\bCLAUSE\b"
    r"|^[ \t]*(?:ARTICLE|Article|PART|Part|SECTION)[ \t]+[\dIVXL]+\b[^\n.;]{0,100}$"
    r"|(?:ARTICLE|Article)[ \t]+[\dIVXL]+\.?[ \t]+[A-Z][A-Z ,;&'’-]{2,100}(?=\s)"
    r"|^[ \t]*(?:\d{1,3}|[ivxl]{1,5})[ \t]*$|-[ivxl\d]{1,5}-"
    rf"|{_ANNEXES}(?:[ \t]+[A-Z\d]{{1,3}}(?:-\d+)?[ \t]*[-–—][ \t]*[^\n]{{1,120}}?(?=[ \t]+{_ANNEXES}|[ \t]*\n|$))?", re.M)
# an entry the chunk boundary cut: its end at the chunk's start ("Board Packages 77 Section 5.21 ..."),
# its start at the chunk's end ("Section 6.01 Conditions to Obligations of Each")
_CUT_ENTRY = 160
_CUT_HEAD = re.compile(rf"[^\n]{{0,{_CUT_ENTRY}}}\s\d{{1,3}}\s*")
_CONTENTS_MIN_ENTRIES = 4
_CONTENTS_MAX_REST = 0.2
_CONTENTS_MAX_HEAD = 40  # letters and digits above the first entry ("VERICEL CORPORATION May 6, 2019")
_LETTER = re.compile(r"[^\W_]")


def reads_as_contents(text: str) -> bool:
    """True when `text` (a chunk) is entries of a table of contents nearly all through: at least
    `_CONTENTS_MIN_ENTRIES` "number, title, page number" entries, at most `_CONTENTS_MAX_REST` of
    its letters and digits outside them, the table's own lines and the entries cut at its two ends,
    and at most `_CONTENTS_MAX_HEAD` of them above the first entry. For the tables the parser did
    not read as one (entries run on in one long line, each "Section 3.1 ... 11" line taken for a
    heading): a contract's title page or its first clause in the same chunk keeps it searchable."""
    entries = list(_CONTENTS_ENTRY.finditer(text))
    if len(entries) < _CONTENTS_MIN_ENTRIES:
        return False
    head, tail = text[:entries[0].start()], text[entries[-1].end():]
    head = "" if _CUT_HEAD.fullmatch(head) else _CONTENTS_FURNITURE.sub(" ", head)
    if len(_LETTER.findall(head)) > _CONTENTS_MAX_HEAD:
        return False  # a title page above the table: the parties and the date stay searchable
    tail = "" if len(tail.strip()) <= _CUT_ENTRY and "\n\n" not in tail.strip() else tail
    body = "".join(text[a.end():b.start()] for a, b in zip(entries, entries[1:], strict=False))
    rest = _CONTENTS_FURNITURE.sub(" ", body + "\n" + tail)
    return len(_LETTER.findall(head + rest)) <= _CONTENTS_MAX_REST * len(_LETTER.findall(text))


def _toc_key(node: OpenNode) -> tuple[str, ...]:
    """What a table of contents and the body share for one heading: kind and label ("Part 1"); for
    a Chapter, Division or Subdivision, whose numbers restart in each Part ("Division 1—Preliminary"
    under Part 2, "Division 1—Rent" under Part 3; "Capo I" in each Titolo of an Italian law), its
    title too, without the contents' dot leaders and page number ("Rent ........ 14")."""
    if node.kind in ("chapter", "division", "subdivision"):
        return node.kind, node.label or "", (node.title or "").rstrip(" .0123456789").lower()
    return node.kind, node.label or node.title or ""


def _blank_line_before(text: str, line_start: int) -> bool:
    if line_start == 0:
        return True
    prev_start = text.rfind("\n", 0, line_start - 1) + 1
    return not text[prev_start:line_start].strip()


def _blank_line_after(text: str, line_end: int) -> bool:
    nxt = text.find("\n", line_end + 1)
    return not text[line_end + 1:nxt if nxt >= 0 else len(text)].strip()


def _previous_line(text: str, line_start: int) -> str:
    if line_start == 0:
        return ""
    return text[text.rfind("\n", 0, line_start - 1) + 1:line_start - 1]


def _open_quotation(text: str) -> bool:
    """True when a quotation opened in `text` is not closed by its end (straight quotes pair up;
    curly ones count open against close)."""
    return text.count('"') % 2 == 1 or text.count("\u201c") > text.count("\u201d")


def _line_stop(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\n\r\f":
        pos += 1
    return pos


def _letter_style(raw: str, form: str, stack: list[OpenNode]) -> tuple[str, bool]:
    case = "upper" if raw.isupper() else "lower"
    alpha_style, roman_style = f"{form}:alpha:{case}", f"{form}:roman:{case}"
    open_alpha = _open_of_style(stack, alpha_style)
    open_roman = _open_of_style(stack, roman_style)
    if alpha_value(raw) > 0 and open_alpha and follows_letter(open_alpha.label_raw, raw, roman=False):
        return alpha_style, True
    if is_roman(raw):
        if open_roman and follows_letter(open_roman.label_raw, raw, roman=True):
            return roman_style, True
        if roman_value(raw) == 1:
            return roman_style, True
        if len(raw) > 1:
            return roman_style, False
    if alpha_value(raw) == 1:
        return alpha_style, True
    return alpha_style, False


def _open_of_style(stack: list[OpenNode], style: str) -> OpenNode | None:
    for entry in reversed(stack):
        if not entry.dynamic:
            return None
        if entry.style == style:
            return entry
    return None


def _rest_of_line(text: str, pos: int) -> tuple[str, int]:
    found = _SOFT_END_RE.search(text, pos, pos + 400)
    end = found.start() if found else min(len(text), pos + 400)
    return text[pos:end], end


def _skip_blanks(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def _title_after(text: str, pos: int, keyword: bool) -> tuple[str | None, int, bool]:
    """Find the title after a heading label: (title, end offset of title, heading-like?)."""
    begin = pos
    if keyword and text.startswith(")", pos):
        begin += 1  # "Art. 1) Oggetto"
    while begin < len(text) and text[begin] in " \t.:-–—":
        begin += 1
    rest, rest_end = _rest_of_line(text, begin)
    dashed = _DASH_TITLE.match(rest)
    if dashed and len(dashed.group("title").split()) <= 14 and not _SENTENCE_BREAK_RE.search(dashed.group("title")):
        return dashed.group("title"), begin + dashed.end() - 1, True
    if not rest.strip():
        # the title may be on the next soft line ("ARTICLE 1\nDEFINITIONS", MAUD gaps)
        nxt = begin
        while nxt < len(text) and text[nxt] in " \t\n":
            nxt += 1
        if nxt >= len(text) or text.count("\n", begin, nxt) > 2 or _starts_marker(text, nxt):
            return None, pos, True
        rest, rest_end = _rest_of_line(text, nxt)
        begin = nxt
        stripped = rest.strip()
        if stripped and len(stripped) <= 120 and _title_like(stripped, whole_line=True):
            if stripped[:1] == "(" and stripped[-1:] == ")" and stripped.count("(") == 1:
                stripped = stripped[1:-1].strip()  # an Italian law's "Art. 1" over "(Oggetto e finalità)"
            return stripped.rstrip(".:"), begin + len(rest.rstrip()), True
        inline = _inline_title(text, begin)
        if inline:
            return inline[0], inline[1], True
        return None, pos, True
    if keyword and rest[:1] == "(" and not _MARKER_START.match(rest):
        close = rest.find(")")
        if 0 < close <= 80:
            return rest[1:close].strip(), begin + close + 1, True
    stripped = rest.rstrip()
    if keyword and _MARKER_START.match(stripped):
        return None, pos, True  # "Article 1  (1) Private rights ...": paragraph (1) follows the label
    at_line_end = rest_end >= len(text) or text[rest_end] == "\n"
    if at_line_end and _continues_on_next_line(text, stripped, rest_end):
        at_line_end = False  # hard-wrapped prose: "1. Clause 14.3 of the Agreement is amended by the"
    if len(stripped) <= 120 and not _SENTENCE_BREAK_RE.search(stripped.rstrip(".")):
        # a whole sentence after the label is the unit's text, not its title ("Article 122  A
        # voidable act may not be rescinded after it has been ratified.")
        sentence = (stripped[-1:] in ".;:" and len(stripped.split()) >= 6 and _title_case_ratio(stripped) < 0.7
                    and not stripped.isupper())
        if _title_like(stripped, whole_line=at_line_end) or (keyword and at_line_end and not sentence):
            return stripped.rstrip(".:").strip(), begin + len(stripped), True
        if keyword and sentence and at_line_end:
            return None, pos, True
    inline = _inline_title(text, begin)
    if inline:
        return inline[0], inline[1], True
    if keyword and stripped[:1].isupper() and not _MONTHS.match(stripped):
        return None, pos, True
    return None, pos, False


def _continues_on_next_line(text: str, line: str, line_end: int) -> bool:
    """True when the next line reads as the rest of this line's sentence."""
    nxt = line_end + 1
    if nxt >= len(text) or text[nxt] == "\n" or line[-1:] in ".;:!?" or line.isupper():
        return False
    first = text[nxt:nxt + 1]
    if first.islower():
        return True
    return len(line) >= 60 and not _starts_marker(text, nxt)


def _starts_marker(text: str, pos: int) -> bool:
    match = HEADING_RE.match(text, pos)
    return bool(match) and not match.group("special") and not match.group("plain")


def _inline_title(text: str, pos: int) -> tuple[str, int] | None:
    """"LICENSE. Subject to ..." / "Access and Investigation. During ..." -> the short title."""
    begin = _skip_blanks(text, pos)
    window = text[begin:begin + 100]
    found = _SENTENCE_BREAK_RE.search(window)
    while found and _ABBREVIATION_END.search(window, 0, found.start()):
        found = _SENTENCE_BREAK_RE.search(window, found.end())  # "L'art. 9 delle ...": not a title
    if not found:
        return None
    prefix = window[:found.start()].strip()
    if not prefix or "\n" in prefix or len(prefix.split()) > 10 or not prefix[0].isupper():
        return None
    if prefix.isupper() or _title_case_ratio(prefix) >= 0.7:
        return prefix, begin + found.start() + 1
    return None


def _title_like(line: str, whole_line: bool) -> bool:
    if not line or not (line[0].isupper() or line[0] in "\"“[(" or line[0].isdigit()):
        return False
    letters = [c for c in line if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        return True
    words = line.split()
    if _title_case_ratio(line) >= 0.7 and len(words) <= 14:
        return True
    return whole_line and len(words) <= 14 and line[-1] not in ".;,:—"


def _title_case_ratio(line: str) -> float:
    words = [w.strip("\"“”(),;:'’") for w in line.split()]
    content = [w for w in words if w and w.lower() not in _STOPWORDS and w[0].isalpha()]
    if not content:
        return 0.0
    return sum(1 for w in content if w[0].isupper()) / len(content)


def inline_first_paragraph(text: str, node: OpenNode) -> OpenNode | None:
    """Paragraph "(1)" written on the heading's own line ("Article 1  (1) Private rights ..."),
    which the line-start scan cannot see; "(2)" on the next line then continues it."""
    if node.head_end < 0 or not node.style.startswith(("kw:", "dec")):
        return None
    pos = _skip_blanks(text, node.head_end)
    if text.startswith("—", pos):
        pos += 1  # "1.—(1) These Regulations ..."
    found = re.compile(r"\((1)\)(?=[ \t])").match(text, pos)
    if not found:
        return None
    return OpenNode("paragraph", "(1)", None, "(1)", pos, "par:num", 90, dynamic=True, label_raw="1",
                    head_end=found.end())


def keyword_ranks(text: str) -> dict[str, int]:
    """Ranks of the keyword levels in this document: the fixed ones, except that "Section"
    ranks above "Article" where sections group articles (a civil code's "Section 1 Capacity
    to Hold Rights" before "Article 3", an EU regulation's "SECTION 2" before "Article 7"):
    most section headings are followed by an article heading, and no section label is a
    decimal ("Section 6.1" under "ARTICLE 6" is a contract's own sub-unit)."""
    ranks = dict(_FIXED_RANKS)
    kinds: list[tuple[str, str]] = []
    for match in _KW_LINE.finditer(text):
        word = match.group("word").lower()
        kinds.append(("section" if word.startswith(("sec", "sez")) else "article", match.group("label")))
    sections = [label for kind, label in kinds if kind == "section"]
    articles = sum(1 for kind, _ in kinds if kind == "article")
    if not sections or articles < 2 or any("." in label.rstrip(".") for label in sections):
        return ranks
    before_article = sum(1 for (kind, _), (nxt, _) in zip(kinds, kinds[1:], strict=False)
                         if kind == "section" and nxt == "article")
    if before_article > 0.5 * len(sections):
        ranks["section"] = 25
    return ranks


def _line_caption_above(text: str, start: int, marginal: bool = False) -> tuple[int, str] | None:
    """(start, caption) of a short unpunctuated caption line, after a blank line, right above a
    numbered unit ("Citation and commencement" above "1.—(1) ..."). `marginal`: a Canadian
    statute's marginal note, with no blank line before it, up to 10 words, and it may end in a
    parenthesis ("Definitions (consumer product)")."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip() or line_start < 2:
        return None
    cap_start = text.rfind("\n", 0, line_start - 1) + 1
    caption = text[cap_start:line_start - 1].strip()
    if (not caption or not caption[0].isupper() or len(caption.split()) > (10 if marginal else 8)
            or caption[-1] in (".;,:—" if marginal else ".;,:—)")
            or not (marginal or _blank_line_before(text, cap_start)) or caption.isupper()
            or _starts_marker(text, cap_start)):
        return None
    return cap_start + (len(text[cap_start:line_start]) - len(text[cap_start:line_start].lstrip())), caption


def _heads_marginal_unit(text: str, line: str, end: int) -> bool:
    """True when `line` (ending at `end`) is a short title line whose next line is a marginal note
    and the line after that a bare-numbered unit of a Canadian statute (`_MARGINAL_LINE`)."""
    words = line.split()
    if not 1 <= len(words) <= 8 or line.rstrip()[-1:] in ".;,:—" or line.isupper():
        return False
    note_start = end + 1
    note_end = _line_stop(text, note_start)
    if note_end >= len(text):
        return False
    unit_start = note_end + 1
    return (_line_caption_above(text, unit_start, marginal=True) is not None
            and bool(_MARGINAL_LINE.match(text, unit_start)))


def _caption_above(text: str, start: int) -> tuple[int, str] | None:
    """(start, caption) of a "(Caption)" line right above the heading at `start`, if any."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():
        return None
    lookback = text.rfind("\n", 0, max(0, line_start - 1))
    found = _CAPTION_RE.match(text, lookback + 1, line_start)
    if not found:
        return None
    caption = found.group("caption").strip()
    if len(caption.split()) > 16 or caption[-1:] in ".;,:":
        return None
    return found.start("caption") - 1, caption


def unit_word(text: str, language: str) -> str:
    if language == "it":
        return "article"
    clause = len(re.findall(r"\b[Cc]lauses? \d", text))
    section = len(re.findall(r"\b[Ss]ections? \d", text))
    return "clause" if clause > section else "section"


def _normalize_label(label: str) -> str:
    label = label.strip()
    match = re.match(rf"^(\d[\d.]*)[- ]?({_LATIN})$", label)
    if match:
        return f"{match.group(1)}-{match.group(2)}"
    return label


def clean_heading(heading: str) -> str:
    return " ".join(heading.split())
