"""Cross-references: "subject to clause 14.3", "section 21(1) or (4)", "Schedule 2",
"salvo quanto previsto all'art. 7", "artt. 1341 e 1342 c.c.", "Allegato B".

Extraction is pure text (one regex per language); resolution maps internal references to
the target node of the structure tree and then to the chunk ids that cover it.

Target normalization (what `CrossRef.target` holds):
- a unit label as the document writes it: "14.3", "21A", "7", "1-bis";
- a sub-unit in parentheses after it: "21(4)" (section 21 subsection 4), "16.1(c)",
  "3(2)" (art. 3 comma 2), "2(3)" for "paragraph 3 of Schedule 2";
- relative references ("subsection (2)", "comma 1", "paragraph (b)") have kind
  "paragraph" / "comma" and a bare target ("2", "1", "b"); they resolve inside the unit
  the reference sits in.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import re

from legalsearch.documents.models import CrossRef, StructureNode

_LATIN = r"bis|ter|quater|quinquies|sexies|septies|octies"
_SUB = r"(?:\s?\((?:[a-z]{1,4}|[A-Z]{1,2}|\d{1,3}[A-Z]?)\))"
_EN_LABEL = rf"(?:\d{{1,3}}(?:\.\d{{1,3}}){{0,4}}(?!\d)[A-Z]{{0,2}}(?![a-z]){_SUB}*|{_SUB}+|[A-Z]{{1,2}}\b|[IVX]{{1,5}}\b)"
_EN_RE = re.compile(
    r"(?<![\w.])(?P<kw>(?i:sub-?clauses?|sub-?sections?|clauses?|sections?|articles?|paragraphs?|schedules?"
    r"|annex(?:es)?|exhibits?|appendix|appendices|parts?)(?![A-Za-z])|ss?\.|§§?)"
    rf"[ \t]*(?P<labels>{_EN_LABEL}(?:(?:\s*,\s*|\s+(?:and|or|to|and/or)\s+|\s*[-–]\s*){_EN_LABEL})*)"
)
_EN_OWNER = re.compile(
    r"\s*(?:of|under|to)\s+(?P<owner>(?:this|these|that)\s+[A-Z]?\w+|(?:the\s+)?[A-Z][\w’'&\-]*"
    r"(?:\s+(?:[A-Z][\w’'&\-]*|of|and|for|on|\d{4}|\(\w+\)))*)"
)
_EN_NESTED = re.compile(r"\s*(?:of|to|in)\s+(?:the\s+)?(?P<kw>(?i:schedule|annex|exhibit|appendix|part))\s+(?P<label>[A-Z0-9]{1,4})\b")
_IT_LABEL = rf"(?:\d{{1,4}}(?:[- ]?(?:{_LATIN})\b)?(?:\.\d{{1,3}})?|[A-Z]\b)"
_IT_COMMA = rf"\s*,\s*comma\s*\d+(?:-?(?:{_LATIN}))?"
_IT_ITEM_TAIL = rf"(?:\s*\([^()\n]{{1,60}}\))?(?:{_IT_COMMA})?(?:\s*\([^()\n]{{1,60}}\))?"
"""What may follow an article number in a list: a caption in brackets and its own comma ("artt. 4,
comma 2 (divieto di sospensione), 6 (clausola risolutiva) e 8, comma 3")."""
_IT_RE = re.compile(
    r"(?<![\w])(?P<kw>(?i:artt?\.|articol[oi]|comm[ai]|allegat[oi]|paragraf[oi]))"
    rf"[ \t]*(?P<labels>{_IT_LABEL}{_IT_ITEM_TAIL}"
    rf"(?:(?:\s*,\s*|\s+(?i:e|ed|o)\s+|\s*[-–]\s*){_IT_LABEL}{_IT_ITEM_TAIL})*)"
    r"(?P<seguenti>\s+e\s+(?:seguenti|ss\.))?"
)
_IT_CODES = [
    (re.compile(r"(?i)\s*,?\s*(?:del\s+)?(?:c\.\s?c\.|cod\.\s?civ\.|codice civile)"), "c.c."),
    (re.compile(r"(?i)\s*,?\s*(?:del\s+)?(?:c\.p\.c\.|codice di procedura civile)"), "c.p.c."),
    (re.compile(r"(?i)\s*,?\s*(?:del\s+)?(?:c\.p\.|codice penale)"), "c.p."),
    (re.compile(r"\s*,?\s*(?:del(?:la)?\s+)?[Cc]ostituzione"), "Cost."),
    (re.compile(r"\s*,?\s*(?:del\s+)?(?:[Dd]\.\s?[Ll]gs\.?|[Dd]ecreto [Ll]egislativo)\s*(?:n\.\s*)?(\d+)/(\d{4})"), "d.lgs."),
    (re.compile(r"\s*,?\s*(?:della\s+)?(?:[Ll]\.|[Ll]egge)\s*(?:n\.\s*)?(\d+)/(\d{4})"), "l."),
    (re.compile(r"\s*,?\s*(?:del\s+)?(?:Regolamento\s*\(UE\)\s*(?:n\.\s*)?(\d{4})/(\d+)|GDPR)"), "GDPR"),
    # any other act named after the article: "art. 64-quater della legge 22 aprile 1941, n. 633"
    (re.compile(r"\s*,?\s*(?:della|del|dello|dell')\s*(?:[Ll]egge|[Dd]ecreto|D\.\s?[Ll]gs|D\.P\.R|[Rr]egolamento"
                r"|[Dd]irettiva|[Cc]onvenzione|[Tt]rattato|[Cc]odice|[Tt]esto [Uu]nico|T\.U\.)"), "legge"),
]
# "... (Amendment) Act 2025, s.2": a reference written after the name of another act
_EN_ACT_BEFORE = re.compile(r"\b(?P<act>(?:[A-Z][\w()’'-]*\s+){0,8}(?:Act|Regulations?|Order|Directive)\s+\d{4}),?\s*$")
_EN_KINDS = (
    ("sub-clause", "clause"), ("subclause", "clause"), ("subsection", "paragraph"), ("sub-section", "paragraph"),
    ("clause", "clause"), ("section", "section"), ("s.", "section"), ("ss.", "section"), ("§", "section"),
    ("article", "article"), ("paragraph", "paragraph"), ("schedule", "schedule"), ("annex", "annex"),
    ("exhibit", "annex"), ("append", "annex"), ("part", "part"),
)
_IT_KINDS = {"art": "article", "artt": "article", "articol": "article", "comm": "comma", "allegat": "annex",
             "paragraf": "paragraph", "lett": "paragraph"}
_LABEL_SPLIT = re.compile(r"(\s*,\s*|\s+(?i:and|or|to|and/or|e|ed|o)\s+|\s*[-–]\s*(?!(?:" + _LATIN + r")\b))")
_RANGE_SEPARATORS = frozenset({"to", "-", "–"})
_MAX_RANGE = 30
_GENERIC_OWNERS = frozenset({"agreement", "contract", "parties", "party", "deed", "company"})
# a document that amends another ("This First Amendment (the "Amendment") ... amends the Master
# Services Agreement ... (the "Agreement")"): there "clause 4.2 of the Agreement" is the amended
# agreement's clause, not its own; "clause 3 of this Amendment" stays its own
_AMENDMENT_WORDS = (r"(?:amendment|addendum|variation|side\s+letter|supplemental\s+(?:agreement|deed)"
                    r"|(?:atto|accordo)\s+(?:modificativo|integrativo)|modifica)")
_AMENDMENT_TITLE = re.compile(r"(?i)^\W*(?:[a-z]+\s+){0,3}" + _AMENDMENT_WORDS + r"\b")
_THIS_AMENDMENT = re.compile(r"(?i)\b(?:this|the\s+present|il\s+presente|la\s+presente)\s+(?:[a-z]+\s+){0,3}"
                             + _AMENDMENT_WORDS + r"\b")
_AMENDS = re.compile(r"(?i)\b(?:amend(?:s|ing|ed)?|modif(?:y|ies|ying)|modific\w*|var(?:y|ies|ying|ied)"
                     r"|variations?|supplement(?:s|ing|al)?|integra(?:re|no|to|ta|ti|te|tivo|zione|zioni)?"
                     r"|sostitui(?:to|ta|ti|te|sce|scono|re))\b")


def amends_another(text: str) -> bool:
    """Whether the document amends another (an amendment, addendum, variation, atto modificativo):
    its title or a "this Amendment" says what it is, and its opening says that it amends."""
    head = text[:3000]
    first = next((line for line in head.splitlines() if line.strip()), "")
    return bool((_AMENDMENT_TITLE.match(first) or _THIS_AMENDMENT.search(head)) and _AMENDS.search(head))


MONTHS_EN = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
             "october", "november", "december")
MONTHS_IT = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
             "ottobre", "novembre", "dicembre")
_MONTH = "|".join(MONTHS_EN + MONTHS_IT)
_DAY = r"(?P<d>\d{1,2})(?:st|nd|rd|th|°|º)?"
_WRITTEN_DATE = (rf"(?:{_DAY}\s+(?P<m>{_MONTH}),?\s+(?P<y>(?:19|20)\d{{2}})"
                 rf"|(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y2>(?:19|20)\d{{2}})"
                 rf"|(?P<d3>\d{{1,2}})[./](?P<m3>\d{{1,2}})[./](?P<y3>(?:19|20)\d{{2}}))")
_EFFECT = re.compile(
    r"(?i)\b(?:take[s]?\s+effect|shall\s+(?:be\s+)?(?:come\s+)?effective|(?:become|becomes|is|are|be)\s+effective"
    r"|with\s+effect|effective|con\s+(?:efficacia|effetto|decorrenza)|a\s+(?:decorrere|far\s+data)"
    r"|(?:ha|hanno|avrà|avranno|acquista|acquistano)\s+(?:efficacia|effetto)|entra(?:no)?\s+in\s+vigore"
    r"|decorr(?:e|ono|eranno)|(?:amendment\s+)?effective\s+date\s*(?::|-|is|shall\s+be|means)?|data\s+di\s+efficacia\s*:?)"
    r"(?:\s+(?:as\s+(?:of|from)|on\s+and\s+from|from|on|as\s+at|dal(?:l['’])?|dalla|il|al|a\s+partire\s+dal))?"
    r"(?:\s+(?:the\s+)?(?:date\s+of\s+)?)?\s*" + _WRITTEN_DATE)


def effective_date(text: str) -> tuple[str, str] | None:
    """When an amendment's changes take effect, as its text states it ("The amendments below take
    effect on 1 October 2024", "con efficacia dal 1° luglio 2025", "a decorrere dal 01/07/2025"):
    (ISO date, the words read), the earliest when several are stated; None when the text states none
    (the signing date is not guessed: "the Agreement dated 4 March 2024" is the amended one's)."""
    found: list[tuple[str, str]] = []
    for m in _EFFECT.finditer(text):
        g = m.groupdict()
        if g["m"] or g["m2"]:
            month = (g["m"] or g["m2"]).lower()
            number = (MONTHS_EN.index(month) if month in MONTHS_EN else MONTHS_IT.index(month)) + 1
            day, year = int(g["d"] or g["d2"]), int(g["y"] or g["y2"])
        else:
            day, number, year = int(g["d3"]), int(g["m3"]), int(g["y3"])  # day first, as both languages write it
        try:
            found.append((dt.date(year, number, day).isoformat(), " ".join(m.group(0).split())))
        except ValueError:
            continue
    return min(found) if found else None


AMENDED_OWNERS = frozenset({"agreement", "contract", "original agreement", "principal agreement",
                             "existing agreement", "master agreement", "deed", "lease", "underlease",
                             "licence", "license"})


def names_amended(code: str | None) -> bool:
    """Whether an external reference's `code` is the instrument an amendment amends ("clause 4.2
    of the Agreement", "l'art. 5 del Contratto"), as `extract_references` writes it there."""
    return bool(code) and (code.lower() in AMENDED_OWNERS or code == "Contratto")
_IT_AMENDED = re.compile(r"\s*,?\s*(?:del|dell')\s*(?:[Cc]ontratto|[Aa]ccordo)(?:\s+(?:originario|di\s+\w+))?")
_UNIT_KINDS = frozenset({"article", "section", "clause", "definitions"})


def extract_references(text: str, language: str = "en", tree: StructureNode | None = None,
                       cites_others: bool = False) -> list[CrossRef]:
    """Find cross-references written in `text`.

    Args:
        text: the document text.
        language: "en" or "it".
        tree: when given, matches that start a heading ("Section 6.2 Operation ...",
            "Art. 5 – Durata") are not references and are skipped.
        cites_others: the document discusses other instruments (a judgment, a note: see
            `search.parse.doctypes`): its clause / article / section / schedule references are
            to those instruments (external, code "cited document"); only "paragraph N" is its own.

    Returns:
        One `CrossRef` per referenced label, in text order (a list "artt. 5, 7 e 12"
        gives three, all with the raw text of the whole list; a range "clauses 3 to 8" gives
        3, 4, ..., 8).
    """
    heading_starts = _heading_starts(text, tree) if tree is not None else set()
    amending = amends_another(text)
    refs = (_extract_it(text, heading_starts, amending) if language == "it"
            else _extract_en(text, heading_starts, amending))
    if cites_others:
        refs = [dataclasses.replace(r, external=True, code=r.code or "cited document")
                if not r.external and r.kind not in ("paragraph", "comma") else r for r in refs]
    refs.sort(key=lambda r: (r.char_start, r.char_end))
    return refs


def _heading_starts(text: str, tree: StructureNode) -> set[int]:
    """Where each node's heading starts; for a captioned article ("(Fundamental Principles)\n
    Article 1") also where its "Article 1" starts, after the caption."""
    starts = set()
    for node in tree.walk():
        starts.add(node.char_start)
        if node.heading and node.heading.startswith("("):
            close = text.find(")", node.char_start, node.char_start + 200)
            if close > 0:
                pos = close + 1
                while pos < len(text) and text[pos] in " \t\n":
                    pos += 1
                starts.add(pos)
    return starts


def _extract_en(text: str, heading_starts: set[int], amending: bool = False) -> list[CrossRef]:
    refs: list[CrossRef] = []
    consumed = 0
    for match in _EN_RE.finditer(text):
        if match.start() in heading_starts or match.start() < consumed:
            continue
        kind = _en_kind(match.group("kw").lower())
        labels = _split_labels(match.group("labels"))
        if not labels:
            continue
        end = match.end()
        external, code, nested = False, None, None
        nested_match = _EN_NESTED.match(text, end)
        owner = None if nested_match else _EN_OWNER.match(text, end)
        if nested_match:
            nested = (_en_kind(nested_match.group("kw").lower()), nested_match.group("label"))
            end = nested_match.end()
        elif owner:
            name = owner.group("owner").strip()
            low = name.lower()
            if low.startswith(("this ", "these ", "that ")):
                end = owner.end()
            elif name[:1].isupper() or low.startswith("the "):
                name = re.sub(r"^the\s+", "", name)
                if name and name[0].isupper() and (name.lower() not in _GENERIC_OWNERS
                                                   or amending and name.lower() in AMENDED_OWNERS):
                    external, code, end = True, name, owner.end()
        if not external:
            before = _EN_ACT_BEFORE.search(text, max(0, match.start() - 80), match.start())
            if before:  # "(Amendment) Act 2025, s.2": a section of that act
                external, code = True, before.group("act")
        raw = text[match.start():end]
        consumed = end
        for label in labels:
            if nested and not external:
                refs.append(CrossRef(raw, nested[0], f"{nested[1]}({label.strip('()')})", False, None,
                                     match.start(), end))
            elif kind == "paragraph" and label.startswith("("):
                refs.append(CrossRef(raw, "paragraph", label.strip("()"), external, code, match.start(), end))
            else:
                refs.append(CrossRef(raw, kind, label, external, code, match.start(), end))
    return refs


def _extract_it(text: str, heading_starts: set[int], amending: bool = False) -> list[CrossRef]:
    refs: list[CrossRef] = []
    for match in _IT_RE.finditer(text):
        if match.start() in heading_starts:
            continue
        stem = re.match(r"[a-z]+", match.group("kw").lower()).group(0)
        stem = "articol" if stem.startswith("articol") else "comm" if stem.startswith("comm") else \
            "allegat" if stem.startswith("allegat") else "paragraf" if stem.startswith("paragraf") else stem
        kind = _IT_KINDS.get(stem, "article")
        body = re.sub(r"\s*\([^()\n]{1,60}\)", "", match.group("labels"))
        # each article's own comma, kept with it: "4, comma 2, 6 e 8, comma 3" -> 4 (2), 6, 8 (3)
        body = re.sub(rf"\s*,\s*comma\s*(\d+(?:-?(?:{_LATIN}))?)", r"§\1", body)
        labels, commi = [], {}
        for part, separator in _parts(body):
            part, _, comma = part.partition("§")
            label = _normalize_it(part)
            if not label:
                continue
            if separator in _RANGE_SEPARATORS and labels:
                labels.extend(_between(labels[-1], label))
            labels.append(label)
            if comma:
                commi[len(labels) - 1] = comma
        end = match.end()
        external, code = False, None
        for pattern, name in _IT_CODES:
            found = pattern.match(text, end)
            if found:
                external, end = True, found.end()
                code = f"{name} {found.group(1)}/{found.group(2)}" if name in ("d.lgs.", "l.") else \
                    ("Regolamento (UE) " + f"{found.group(1)}/{found.group(2)}" if name == "GDPR" and found.group(1)
                     else name)
                break
        if not external and amending:
            found = _IT_AMENDED.match(text, end)
            if found:  # "l'art. 5 del Contratto" in an atto modificativo: the amended contract's
                external, code, end = True, "Contratto", found.end()
        raw = text[match.start():end]
        for i, label in enumerate(labels):
            target = f"{label}({commi[i]})" if i in commi and kind == "article" else label
            refs.append(CrossRef(raw, kind, target, external, code, match.start(), end))
        # a caption in brackets inside the list may cite too: "10, comma 2 (in deroga all'art. 1495 c.c.)"
        for caption in re.finditer(r"\(([^()\n]{1,60})\)", match.group("labels")):
            inner = match.start("labels") + caption.start(1)
            refs += [dataclasses.replace(r, char_start=r.char_start + inner, char_end=r.char_end + inner)
                     for r in _extract_it(caption.group(1), set(), amending)]
    return refs


def _en_kind(word: str) -> str:
    return next((kind for prefix, kind in _EN_KINDS if word.startswith(prefix)), "section")


def _split_labels(body: str) -> list[str]:
    labels: list[str] = []
    main = ""
    for part, separator in _parts(body):
        part = re.sub(r"\s+", "", part)
        if not part:
            continue
        if part.startswith("(") and main:
            labels.append(main + part)
            continue
        if separator in _RANGE_SEPARATORS and labels:
            labels.extend(_between(labels[-1], part))
        labels.append(part)
        main = re.match(r"[^(]*", part).group(0)
    return labels


def _parts(body: str) -> list[tuple[str, str]]:
    """(label text, the separator before it) for a list such as "3, 5 and 8" or "3 to 8"."""
    pieces = _LABEL_SPLIT.split(body)
    out = [(pieces[0], "")]
    for i in range(1, len(pieces) - 1, 2):
        out.append((pieces[i + 1], pieces[i].strip().lower()))
    return out


def _between(first: str, last: str) -> list[str]:
    """The labels strictly inside a range: "3" to "8" -> 4..7; "3.1" to "3.4" -> 3.2, 3.3."""
    a, b = first.split("."), last.split(".")
    if len(a) != len(b) or a[:-1] != b[:-1] or not (a[-1].isdigit() and b[-1].isdigit()):
        return []
    lo, hi = int(a[-1]), int(b[-1])
    if not 0 < hi - lo <= _MAX_RANGE:
        return []
    prefix = ".".join(a[:-1]) + "." if len(a) > 1 else ""
    return [f"{prefix}{n}" for n in range(lo + 1, hi)]


def _normalize_it(label: str) -> str:
    label = label.strip()
    found = re.match(rf"^(\d+)[- ]?({_LATIN})$", label)
    return f"{found.group(1)}-{found.group(2)}" if found else label


@dataclasses.dataclass(frozen=True, slots=True)
class _Target:
    node: StructureNode
    section: str


class ReferenceIndex:
    """Label lookups over one structure tree (the largest node wins a duplicate label,
    so a table-of-contents entry never shadows the real section)."""

    def __init__(self, tree: StructureNode):
        self.tree = tree
        self.units: dict[str, StructureNode] = {}
        self.schedules: dict[str, StructureNode] = {}
        self.parts: dict[str, StructureNode] = {}
        self._spans: list[tuple[int, int, StructureNode]] = []
        for node in tree.walk():
            if node.label is None:
                continue
            book = (self.units if node.kind in _UNIT_KINDS else self.schedules if node.kind == "schedule"
                    else self.parts if node.kind in ("part", "chapter") else None)
            if book is None:
                continue
            key = node.label.lower().rstrip(".")
            old = book.get(key)
            if old is None or (node.char_end - node.char_start) > (old.char_end - old.char_start):
                book[key] = node

    def find(self, ref: CrossRef) -> _Target | None:
        """The node a reference points to, or None (external, or no such label)."""
        if ref.external:
            return None
        if ref.kind in ("comma", "paragraph") and "(" not in ref.target:
            found = self._relative(ref)
            if found is not None or not ref.target[:1].isdigit():
                return found
            # "paragraphs 7 to 10" of a judgment: its numbered paragraphs are its units
        main, subs = _split_target(ref.target)
        book = self.schedules if ref.kind in ("schedule", "annex") else \
            self.parts if ref.kind == "part" else self.units
        node = book.get(main.lower())
        if node is None and "." in main:
            # "articolo 3.3": comma 3.3 of art. 3 (Italian "N.M" commi), or clause 5 for "5.1"
            # when the text numbers its sub-clauses without making them units
            parent = book.get(main.split(".")[0].lower())
            if parent is None:
                return None
            child = _child_labelled(parent, main) or _child_labelled(parent, main.split(".")[-1])
            return _Target(child or parent, parent.label or main)
        if node is None:
            return None
        section = node.label or main
        for sub in subs:
            child = _child_labelled(node, sub)
            if child is None:
                break
            node = child
        return _Target(node, section)

    def _relative(self, ref: CrossRef) -> _Target | None:
        chain = _containing(self.tree, ref.char_start)[1:]  # never the document root
        for holder in reversed(chain):
            child = _child_labelled(holder, ref.target)
            if child is not None:
                unit = next((n for n in reversed(chain) if n.kind in _UNIT_KINDS | {"schedule"} and n.label), holder)
                return _Target(child, unit.label or "")
        return None


def resolve_references(
    refs: list[CrossRef], tree: StructureNode, chunk_spans: list[tuple[int, int, str]]
) -> list[CrossRef]:
    """Return copies of `refs` with `resolved_section` and `resolved_chunk_ids` filled in.

    Args:
        refs: references from `extract_references`.
        tree: the document's structure tree.
        chunk_spans: (char_start, char_end, chunk_id) of the document's chunks, in order.
    """
    index = ReferenceIndex(tree)
    starts = [s for s, _, _ in chunk_spans]
    resolved = []
    for ref in refs:
        target = index.find(ref)
        if target is None:
            resolved.append(ref)
            continue
        ids = _overlapping(chunk_spans, starts, target.node.char_start, target.node.char_end)
        resolved.append(dataclasses.replace(ref, resolved_section=target.section, resolved_chunk_ids=ids))
    return resolved


def _overlapping(spans: list[tuple[int, int, str]], starts: list[int], start: int, end: int) -> list[str]:
    i = max(0, bisect.bisect_right(starts, start) - 1)
    ids = []
    while i < len(spans) and spans[i][0] < end:
        if spans[i][1] > start:
            ids.append(spans[i][2])
        i += 1
    return ids


def _split_target(target: str) -> tuple[str, list[str]]:
    main = re.match(r"[^(]*", target).group(0)
    return main, re.findall(r"\(([^()]+)\)", target[len(main):])


def _child_labelled(node: StructureNode, label: str) -> StructureNode | None:
    """The child of `node` labelled `label`; else, inside a schedule, the first descendant so
    labelled ("paragraph 3 of Schedule 1" where Schedule 1 holds Part 1 and Part 2)."""
    want = label.strip("().").lower()
    for child in node.children:
        if child.label is not None and child.label.strip("().").lower() == want:
            return child
    if node.kind == "schedule":
        for child in node.walk():
            if child is not node and child.kind != "part" and (child.label or "").strip("().").lower() == want:
                return child
    return None


def _containing(tree: StructureNode, pos: int) -> list[StructureNode]:
    chain = []
    node = tree
    while True:
        chain.append(node)
        nxt = next((c for c in node.children if c.char_start <= pos < c.char_end), None)
        if nxt is None:
            return chain
        node = nxt


def unresolved_refs(doc, chunks) -> list[CrossRef]:
    """Internal references of a document's chunks that point to no known section.

    Args:
        doc: the `ParsedDocument` the chunks belong to (kept for symmetry with
            `double_signature(doc, chunks)`; the references travel on the chunks).
        chunks: its chunks from `chunk_document`.

    Returns:
        The internal `CrossRef`s with no `resolved_section`, once per (kind, target, offset).
    """
    seen: set[tuple[str, str, int]] = set()
    missing = []
    for chunk in chunks:
        for ref in chunk.xrefs:
            key = (ref.kind, ref.target, ref.char_start)
            if not ref.external and ref.resolved_section is None and key not in seen:
                seen.add(key)
                missing.append(ref)
    return missing
