"""Regex fact finders for the fingerprint: document type, date, governing law, NDA direction.

Besides the parties (`parties.py`), look-alike legal documents differ in what kind of
document they are, when, and under which law. These functions find those facts in English
and Italian text with generic rules (title lines, keyword families, written dates,
"governed by the laws of", "foro di"), never with names of particular documents. Pure
functions over strings.
"""

from __future__ import annotations

import re
from datetime import date

from legalsearch.parse.references import MONTHS_EN, MONTHS_IT
from legalsearch.summarize.parties import QUOTES, Party, smart_title

_MONTH_NUMBER = {m.lower(): i + 1 for i, m in enumerate(MONTHS_EN)}
_MONTH_NUMBER.update({m[:3].lower(): i + 1 for i, m in enumerate(MONTHS_EN)})
_MONTH_NUMBER["sept"] = 9
_MONTH_NUMBER.update({m: i + 1 for i, m in enumerate(MONTHS_IT)})
_MONTH = r"(?:" + "|".join(sorted(_MONTH_NUMBER, key=len, reverse=True)) + r")"

# Document types. A title line of the document itself is preferred ("STRATEGIC ALLIANCE
# AGREEMENT"); the keyword families below name it when there is none.
_TYPE_WORD = {
    "en": r"(?:AMENDMENT(?:\s+NO\.?\s*\d+)?(?:\s+TO\s+(?:THE\s+)?(?:[\w&-]+\s+){0,6}?AGREE+MENT)?|AGREE+MENT|CONTRACT|UNDERTAKING|POLICY|NOTICE|STATEMENT|DEED|LEASE|MEMORANDUM"
          r"|LICEN[CS]E|ACT"
          r"|PLAN\s+OF\s+(?:MERGER|REORGANIZATION)|DECLARATION|UNDERSTANDING|ADDENDUM)",
    "it": r"(?:CONTRATTO|ACCORDO|CONVENZIONE|INFORMATIVA(?:\s+(?:SULLA\s+)?PRIVACY|\s+SUL\s+TRATTAMENTO\s+DEI\s+DATI"
          r"(?:\s+PERSONALI)?)?|DECRETO(?:\s+LEGISLATIVO)?|LEGGE|REGOLAMENTO"
          r"|SCRITTURA\s+PRIVATA|ATTO|STATUTO|CAPITOLATO)",
}
TYPE_FAMILIES = {
    "en": (
        ("nda", "Non-Disclosure Agreement", r"non[- \u2010\u2011]?disclosure|confidentiality\s+(?:agreement|undertaking)|\bNDA\b"),
        ("privacy_policy", "Privacy Policy", r"privacy\s+(?:policy|notice|statement)|personal\s+(?:information|data)"),
        ("contract", "Merger Agreement", r"plan\s+of\s+merger|merger\s+agreement"),
        ("contract", "License Agreement", r"licen[cs]e\s+agreement"),
        ("contract", "Services Agreement", r"services?\s+agreement"),
        ("statute", "Statute", r"\bAct\s+\d{4}\b|BE\s+IT\s+ENACTED|\benacts\s+as\s+follows\b"
                               r"|\bACT\s+NO\.\s+\d+\s+OF\s+\d{4}\b|(?m:^[ \t]*\(?Cap\.\s+\d+[A-Z]?\)?(?:[ \t]|$))|\bstatute\b|\bregulation\s+\(e[cu]\)"),
        ("contract", "Agreement", r"\bagreement\b|\bcontract\b"),
    ),
    "it": (
        ("nda", "Accordo di riservatezza", r"riservatezza|non\s+divulgazione"),
        ("privacy_policy", "Informativa privacy", r"informativa|trattamento\s+dei\s+dati\s+personali"),
        ("contract", "Contratto di fornitura", r"contratto\s+di\s+fornitura"),
        ("contract", "Contratto di locazione", r"contratto\s+di\s+locazione|locazione"),
        ("contract", "Contratto di appalto", r"contratto\s+di\s+appalto|appalto"),
        ("contract", "Contratto di licenza", r"contratto\s+di\s+licenza|licenza\s+d'uso"),
        ("contract", "Contratto di agenzia", r"contratto\s+di\s+agenzia"),
        ("contract", "Contratto di servizi", r"contratto\s+di\s+(?:prestazione\s+di\s+)?servizi"),
        ("statute", "Decreto legislativo", r"decreto\s+legislativo|d\.\s?lgs\."),
        ("statute", "Legge", r"\blegge\s+(?:n\.|\d)|gazzetta\s+ufficiale"),
        ("contract", "Contratto", r"\bcontratto\b|\baccordo\b|\bconvenzione\b"),
    ),
}
DOC_TYPE_NAMES = {
    "en": {"nda": "Non-Disclosure Agreement", "privacy_policy": "Privacy Policy", "statute": "Statute",
           "contract": "Contract", "internal_note": "Internal Note"},
    "it": {"nda": "Accordo di riservatezza", "privacy_policy": "Informativa privacy", "statute": "Atto normativo",
           "contract": "Contratto", "internal_note": "Nota interna"},
}


def detect_doc_type(opening_lines: list[str], language: str = "en") -> str | None:
    """The document's own type phrase (its title line, or "This X Agreement"), else a family name."""
    type_word = _TYPE_WORD.get(language, _TYPE_WORD["en"])
    for index, line in enumerate(opening_lines[:8]):
        line = re.sub(r"\([^()]*\)", " ", line)  # ("Agreement") and other asides
        match = re.search(rf"(?i)\b{type_word}(?:\s+{type_word})*\b", line)
        if not match or line[:1] in QUOTES or (index > 0 and re.match(r"(?i)act\b", match.group(0))):
            continue
        # The title ends with its type word, unless "... and Plan of Merger" / "di fornitura" follows.
        end = _TYPE_TAIL.match(line, match.end())
        phrase = line[: end.end()]
        words = phrase.split()
        if len(words) > 10 or len(phrase) > 90 or _SENTENCE_WORDS & {w.lower() for w in words}:
            continue
        capitalized = sum(1 for w in words if w[:1].isupper() or not w[:1].isalpha())
        if capitalized < 0.6 * len(words):
            continue
        return _display_type(phrase, language)
    head = " ".join(opening_lines)[:1500]
    phrase_word = type_word.replace("|ACT", "")  # "Securities Act" inside a sentence is no title
    phrase = re.search(
        rf"((?:[A-Z][\w\u2019'-]*[ \t]+(?:(?:and|of|&|for|di|per|e)[ \t]+)?){{0,6}}(?i:{phrase_word})"
        rf"(?:[ \t]+(?i:and|of|di)[ \t]+(?:Plan[ \t]+of[ \t]+Merger|[A-Z][\w-]*))?)\b", head)
    if phrase:
        text = re.split(r"\s+(?:This|THIS|The|THE)\s+", phrase.group(1))[0]
        first = re.search(rf"(?i)\b{phrase_word}(?:\s+{phrase_word})*\b", text)
        text = text[: first.end()] if first else text
        if len(text.split()) >= 2:
            return _display_type(text, language)
    return family_name(head, language)


# What may follow a type word in a title: "... and Plan of Merger", "di fornitura", "Act 1988".
_TYPE_TAIL = re.compile(r"(?i)(?:\s+(?:and|of|di|del|della|per|e)\s+(?:plan\s+of\s+merger|[\w-]+))*"
                        r"(?:(?<=act)\s+(?:of\s+)?\d{4})?")
_SENTENCE_WORDS = frozenset(
    "if you we do not please our your is are to will shall may by in with this these that questo il presente"
    " si prega".split()
)


def family_name(text: str, language: str = "en") -> str | None:
    """The first keyword family the text matches ("Privacy Policy", "Contratto di fornitura")."""
    for _, name, pattern in TYPE_FAMILIES.get(language, TYPE_FAMILIES["en"]):
        if re.search(pattern, text, re.IGNORECASE):
            return name
    return None


def type_family(type_name: str, language: str = "en") -> str | None:
    """The DocumentMeta doc_type a type phrase belongs to ("Mutual NDA" -> "nda")."""
    for family, _, pattern in TYPE_FAMILIES.get(language, TYPE_FAMILIES["en"]):
        if re.search(pattern, type_name, re.IGNORECASE):
            return family
    return None


def _display_type(phrase: str, language: str) -> str:
    phrase = re.sub(r"(?i)^(?:this|the|il|lo|la|l')\s+", "", " ".join(phrase.split())).strip(" .,:;")
    words = re.findall(r"[^\W\d_]{2,}", phrase)
    if words and sum(w.isupper() for w in words) > len(words) / 2:
        phrase = phrase[:1] + phrase[1:].lower() if language == "it" else smart_title(phrase)
    if language != "it":
        phrase = re.sub(r"(?<=\S)\s+(And|Of|For|The|To)\b", lambda m: " " + m.group(1).lower(), phrase)
    if phrase.isupper() and " " not in phrase:
        phrase = phrase.capitalize()
    phrase = phrase[:1].upper() + phrase[1:]
    if len(phrase) > 80:
        phrase = phrase[:80].rsplit(" ", 1)[0].rstrip(" ,;")
    return phrase


_DATE_PATTERNS = (
    re.compile(rf"(?i)\b(\d{{1,2}})(?:st|nd|rd|th|\u00ba)?(?:\s+day)?(?:\s+of)?\s+({_MONTH})\.?,?\s+((?:19|20)\d\d)\b"),
    re.compile(rf"(?i)\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)\b"),
    re.compile(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b"),
)


def _dates(text: str, first_only: bool = False):
    """(pattern index, position, date) of every calendar date written in `text`, pattern by pattern;
    with `first_only`, each pattern's first date only."""
    for index, pattern in enumerate(_DATE_PATTERNS):
        for match in pattern.finditer(text):
            try:
                if index == 0:
                    value = date(int(match.group(3)), _MONTH_NUMBER[match.group(2).lower()], int(match.group(1)))
                elif index == 1:
                    value = date(int(match.group(3)), _MONTH_NUMBER[match.group(1).lower()], int(match.group(2)))
                else:
                    value = date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
            except (ValueError, KeyError):
                continue
            yield index, match.start(), value
            if first_only:
                break


def find_date(text: str) -> date | None:
    """The first calendar date written in `text` ("15 April, 2009", "October 1, 1999",
    "2017-07-12", "12 luglio 2024"); numeric d/m/y dates are skipped as ambiguous."""
    found = [(start, value) for _, start, value in _dates(text, first_only=True)]
    return min(found)[1] if found else None


def find_dates(text: str) -> list[date]:
    """Every calendar date written in `text` (as `find_date` reads them), in the order written."""
    return [value for _, _, value in sorted(_dates(text), key=lambda t: t[1])]


def find_year(text: str) -> str | None:
    """A year written next to "dated" / "made" / "entered" / "stipulato" ("this ___ day of ___, 2004")."""
    match = re.search(r"(?i)\b(?:dated|made|entered|effective|day\s+of|stipulato|sottoscritto|in\s+data)\b"
                      r"[^.\n]{0,40}?\b((?:19|20)\d\d)\b", text)
    return match.group(1) if match else None


def format_date(value: date, language: str = "en") -> str:
    """ "12 Jul 2017" (English) or "12 luglio 2017" (Italian)."""
    if language == "it":
        return f"{value.day} {MONTHS_IT[value.month - 1]} {value.year}"
    return f"{value.day} {MONTHS_EN[value.month - 1][:3].capitalize()} {value.year}"


_PLACE = r"([A-Z][A-Za-z\u00e0-\u00f9'\u2019]+(?:[ \t]+(?:and[ \t]+|of[ \t]+)?[A-Z][A-Za-z\u00e0-\u00f9]+){0,3})"
_LAW_EN = (
    re.compile(r"(?i:\bgovern(?:ed|s|ing)?\b[^.;]{0,120}?\blaws?\s+(?:of|in)\s+(?:the\s+)?"
               r"(?:(?:state|commonwealth|province|republic|kingdom|country)\s+of\s+)?)" + _PLACE),
    re.compile(r"(?i:\blaws\s+of\s+(?:the\s+)?(?:(?:state|commonwealth|province|republic)\s+of\s+)?)"
               + _PLACE + r"(?i:[^.;]{0,40}?\bshall\s+govern)"),
    re.compile(_PLACE + r"(?i:\s+law\s+(?:shall\s+)?govern)"),
)
_LAW_IT = (
    (re.compile(r"(?i:\bforo\s+(?:competente\s+)?(?:esclusivo\s+|esclusivamente\s+competente\s+)?"
                r"(?:(?:sar\u00e0|\u00e8|quello|esclusivamente)\s+)*(?:di|del|della)\s+)([A-Z][a-z\u00e0-\u00f9]+)"),
     "foro di {}"),
    (re.compile(r"(?i:\btribunale\s+di\s+)([A-Z][a-z\u00e0-\u00f9]+)(?i:[^.;]{0,60}?\bcompetente)"), "foro di {}"),
)
_LAW_JUNK = frozenset({"This", "The", "Such", "Any", "Each", "Agreement", "Applicable", "Law", "Laws", "United",
                       "State", "Country", "Jurisdiction", "Party", "Parties", "Disclosing", "Receiving", "Company"})


def find_governing_law(text: str, language: str = "en") -> str | None:
    """ "Michigan law", "England and Wales law", "foro di Milano", "legge italiana" or None."""
    if language == "it":
        for pattern, template in _LAW_IT:
            match = pattern.search(text)
            if match:
                return template.format(match.group(1))
        if re.search(r"(?i)\b(?:legge|diritto|ordinamento)\s+italian[oa]\b", text):
            return "legge italiana"
        return None
    for pattern in _LAW_EN:
        match = pattern.search(text)
        if match:
            place = re.split(r"(?i)\s+(?:applicable|without|as|in|to|excluding|regardless|governing|which|that"
                             r"|and\s+the|and\s+any|and\s+all)\b", match.group(1))[0]
            if place.split()[0] in _LAW_JUNK and place not in ("United States", "United Kingdom"):
                continue
            if place.isupper() and len(place) > 3:
                place = smart_title(place)
            return f"{place} law"
    return None


def nda_direction(opening: str, parties: list[Party]) -> str | None:
    """ "mutual" / "unilateral" for confidentiality agreements, None when unclear."""
    if re.search(r"(?i)\b(?:mutual|reciprocal|two[- ]way|bilateral|reciproc[oa]|bilaterale)\s+(?:non|confidential|nda"
                 r"|disclos|exchange|agreement|accordo|riservatezza)", opening) or re.search(
            r"(?i)\b(?:each|either)\s+party\s+(?:may|will|wishes\s+to|intends\s+to|desires\s+to|has\s+disclosed|"
            r"may\s+be)\s+(?:disclose|furnish|provide|a\s+disclosing|the\s+disclosing)|\bciascuna\s+parte\s+"
            r"(?:potr\u00e0|intende)\s+(?:divulgare|comunicare)", opening):
        return "mutual"
    if re.search(r"(?i)\b(?:unilateral|one[- ]way|unilaterale)\b", opening):
        return "unilateral"
    roles = {(p.role or "").lower() for p in parties}
    if roles & {"disclosing party", "discloser", "parte divulgante"} or roles & {"recipient", "receiving party",
                                                                                  "parte ricevente"}:
        return "unilateral"
    return None
