"""Party names in a preamble: "by and between X and Y", defined aliases, cover pages.

What tells look-alike legal documents apart is who signed, above all. `find_parties` reads
the opening of English and Italian documents with generic rules (preamble anchors such as
"by and between" / "tra", defined-party aliases such as ("Parent") / (di seguito
"Fornitore"), corporate suffixes), never with names of particular documents; the filters
in `_clean_name` reject what only looks like a name (shouted sentences, addresses, dates,
defined terms such as "Confidential Information").
"""

from __future__ import annotations

import dataclasses
import re

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
          r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto"
          r"|settembre|ottobre|novembre|dicembre)")
_SUFFIX = (r"(?:Inc|Incorporated|Corp|Corporation|Co|Company|Ltd|Limited|LLC|L\.L\.C|LLP|LP|L\.P|PLC|plc|GmbH"
           r"|AG|SA|S\.A|SE|NV|N\.V|BV|B\.V|S\.p\.A|S\.r\.l|S\.a\.s|S\.n\.c|S\.c\.a\.r\.l|Pty|SAS|SARL|KG|AB"
           r"|DAC|PLLC|ULC|Pte|PTE|ASA|KK|OY|Oyj|SpA|Srl|S\.L|S\.A\.S"
           r"|INC|CORP|CORPORATION|COMPANY|LTD|LIMITED|S\.P\.A|S\.R\.L|SPA|SRL)\.?")
SUFFIX_PATTERN = _SUFFIX  # corporate suffixes ("Inc.", "Ltd", "S.p.A."), for other modules
# A capitalized token, a domain-like name ("deltathree.com") or "(Proprietary)"; never a
# capitalized conjunction of a cover page ("AND").
_TOKEN = (r"(?:(?!(?i:and|or|by|between|among|tra|fra|dated|whereas|this|of|the)\b|(?:E|ED)\b)[A-Z0-9][\w.&'\u2019@/-]*"
          r"|[a-z][\w-]*\.(?:com|net|org|io)|\((?:Proprietary|Pty)\))")
_CONNECTOR = r"(?:of|&|de|du|der|van|von|la|le|del|della|di|for|the|y|und)"
_NAME = re.compile(rf"{_TOKEN}(?:[ \t\u00a0]+(?:{_CONNECTOR}[ \t\u00a0]+)?{_TOKEN}){{0,9}}(?:,?[ \t]+{_SUFFIX})*")
QUOTES = "\"\u201c\u201d'\u2018\u2019"
_QUOTE = QUOTES
_ALIAS = re.compile(
    rf"\(\s*(?:(?:the|this|each|collectively|together|jointly|individually|hereinafter|hereafter|referred\s+to"
    rf"|as|di\s+seguito|in\s+seguito|anche|solo|breviter|per\s+brevit\u00e0|denominat[oa]|il|lo|la|l'|i|gli|le)"
    rf"[\s,:]*)*"
    rf"[{_QUOTE}]([^{_QUOTE}()]{{1,40}})[{_QUOTE}][^()]{{0,60}}\)",
    re.IGNORECASE,
)
_ANCHORS = {
    "en": re.compile(r"(?i:\bby\s+and\s+(?:between|among)\b|\bbetween\b|\bamong\b|\bin\s+favou?r\s+of\b"
                     r"|\bentered\s+into\s+by\b|\bmade\s+by\b)|\bPARTIES\b|\bParties:"),
    "it": re.compile(r"(?i:\btra\b|\bfra\b|\bcon\s+la\s+presente\s+scrittura\b)|\bPARTI\b|\bParti:"),
}
_STOP = re.compile(
    r"\b(?:WHEREAS|Whereas|RECITALS|Recitals|BACKGROUND|Background\b|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H"
    r"|NOW,?\s+THEREFORE|Now,?\s+[Tt]herefore|IN\s+CONSIDERATION|In\s+consideration|TABLE\s+OF\s+CONTENTS"
    r"|agree\s+as\s+follows|PREMESS[OE]|Premess[oe]|[Ss]i\s+conviene|convengono|stipulano)"
)
_LEAD = re.compile(
    r"(?:[\s,;:.\-\u2013]+|(?:and|AND|e|ed|&|between|BETWEEN|among|AMONG|tra|fra|by|BY)\b|\(\s*\d{1,2}\s*\)"
    r"|\b\d{1,2}\.(?=\s)|\([a-z]\)|\b[a-z]\)"
    r"|(?:the|The|THE)\s+(?=[A-Z])|(?:[Ll]a\s+)?[Ss]ociet\u00e0\s+|[Ii]l\s+[Ss]ig(?:\.|nor)\s*|[Ll]a\s+[Ss]ig\.ra\s*"
    r"|(?:Mr|Ms|Mrs|Dr|Dott|Avv)\.?\s+)*"
)
_ROLES = frozenset(
    "company parent merger sub purchaser buyer seller target acquiror acquirer licensor licensee employer executive"
    " employee consultant contractor subcontractor supplier customer client distributor reseller agent manufacturer"
    " vendor recipient discloser lender borrower landlord tenant lessor lessee franchisor franchisee provider"
    " service provider partner sponsor investor guarantor bank disclosing party receiving party disclosing"
    " receiving holdings member university institution fornitore committente cliente locatore conduttore"
    " appaltatore licenziante licenziatario acquirente venditore mandante mandatario agente distributore"
    " parte divulgante parte ricevente societ\u00e0 incorporante incorporanda owner manager candidate seller buyer"
    " participant intern student writer producer organiser organizer counterparty signatory".split()
) | frozenset(("merger sub", "disclosing party", "receiving party", "service provider", "parte divulgante",
               "parte ricevente", "acquisition sub"))
# Words never found in a party name: verbs and function words of shouted sentences,
# address words, the agreement itself.
_NOT_IN_NAMES = frozenset(
    "hereby herein hereto agree agrees agreed follows that all any shall will be is are to in with may not which"
    " who such as at on it its their we you our your acknowledge expressly provided under each other from into"
    " these those has have if no must should would agreement contract accordo contratto undertaking street road"
    " boulevard avenue drive suite floor via piazza corso viale insert name there here where when effective"
    " dated".split()
)
# First or last words of defined terms ("Confidential Materials", "Non-Public Information").
_TERM_FIRST = frozenset("confidential non proprietary".split())
_TERM_LAST = frozenset("information materials material data documents products services purpose transaction".split())
# Words that alone never make a party name (a name made only of them is rejected).
_GENERIC = frozenset(
    "agreement agreements this the party parties effective date whereas now therefore confidential information"
    " disclosing receiving recipient company individual undersigned name address between and of exhibit"
    " schedule article section page execution copy version dated inc ltd llc corporation limited state"
    " contratto accordo parte parti societ\u00e0 data sede tra di e il la purpose subject matter period"
    " business entity type principal print title sign signature organization telephone fax email e-mail"
    " website country city postcode non-disclosure nda mutual merger plan services service first second part"
    " full person legal definitions interpretation board members committee public information transaction"
    " business or".split()
)


@dataclasses.dataclass(frozen=True, slots=True)
class Party:
    """A party named in the preamble, with its defined role when the role is a role word."""

    name: str
    role: str | None = None


def find_parties(opening: str, language: str = "en", max_parties: int = 4) -> list[Party]:
    """Parties named in a preamble: after an anchor ("by and between", "among", "tra"),
    each name before a defined alias ("ISA", "Parent") or separated by "and" / "e".

    The first anchor yielding at least two names wins; otherwise the one with most names.
    Names written in capitals are title-cased ("DSP GROUP, INC." -> "DSP Group, Inc.").
    """
    best: list[Party] = []
    for anchor in _ANCHORS.get(language, _ANCHORS["en"]).finditer(opening):
        window = opening[anchor.end(): anchor.end() + 1200]
        stop = _STOP.search(window)
        if stop:
            window = window[: stop.start()]
        parties = _dedupe([p for p in _parties_in(window) if not _common_noun(p.name, opening)])[:max_parties]
        if len(parties) >= 2:
            return parties
        if len(parties) > len(best):
            best = parties
    if len(best) < 2:
        described = _dedupe(best + [p for p in _described_parties(opening) if not _common_noun(p.name, opening)])
        described = described[:max_parties]
        if len(described) > len(best):
            best = described
    return best


def _common_noun(name: str, text: str) -> bool:
    """A one-word capitalized "name" the text also writes in lower case ("Candidate", "Owner")."""
    if " " in name or not name[:1].isupper() or not name[1:].islower():
        return False
    return re.search(rf"\b{re.escape(name.lower())}\b", text) is not None


def _parties_in(window: str) -> list[Party]:
    aliases = [m for m in _ALIAS.finditer(window)]
    parties: list[Party] = []
    if aliases:
        start = 0
        for alias in aliases:
            name = _leading_name(window[start: alias.start()])
            if name:
                parties.append(Party(name, defined_role(alias.group(1))))
            start = alias.end()
        tail = window[start:]
        if re.match(r"[\s,;]*(?:and|AND|e)\b", tail):
            name = _leading_name(tail)
            if name:
                parties.append(Party(name))
        return parties
    pos = 0
    while len(parties) < 6:
        lead = _LEAD.match(window, pos)
        match = _NAME.match(window, lead.end())
        name = _clean_name(match.group(0), _whole_line(window, match)) if match else None
        if not name:
            break
        parties.append(Party(name))
        pos = match.end()
        follow = re.match(r"[ \t]*(?:,[ \t]*)?(?:\n\s*)*(?:(?:and|AND|e|&)\b|;|\n)", window[pos:])
        if follow:
            continue
        # Skip a descriptor (", a company registered in England and Wales, ...") up to the
        # "and" that follows a comma, a parenthesis or a postcode.
        nxt = re.search(r"(?:[,;)\]\d]\s*|\n\s*)(?:and|AND|e)\b(?=\s+(?:the\s+|la\s+)?[A-Z0-9])",
                        window[pos: pos + 300])
        if not nxt:
            break
        pos += nxt.start()
    return parties


def _leading_name(segment: str) -> str | None:
    lead = _LEAD.match(segment)
    match = _NAME.match(segment, lead.end())
    return _clean_name(match.group(0), _whole_line(segment, match)) if match else None


def _whole_line(text: str, match: re.Match) -> bool:
    """True when the name fills its line (a cover page: "DSP GROUP, INC.,")."""
    before = text[: match.start()].rpartition("\n")[2]
    after = text[match.end():].partition("\n")[0]
    return not re.search(r"[^\W_]", re.sub(r"(?i)\b(?:and|by|between|among|e|tra)\b", "", before + after))


_DESCRIBED = re.compile(
    rf"({_NAME.pattern}),?\s+(?:an?\s+(?:[\w.-]+\s+){{0,5}}?(?:corporation|company|limited\s+liability\s+company"
    rf"|partnership|limited\s+partnership|public\s+limited\s+company|banking\s+corporation|national\s+association"
    rf"|non-?profit|association|university|organi[sz]ation|agency)\b"
    rf"|con\s+sede\s+(?:legale\s+)?in\b|(?:having|with)\s+(?:its|a)\s+(?:principal|registered)\b)"
)


def _described_parties(opening: str) -> list[Party]:
    """Fallback: "X, a Delaware corporation", "X, con sede in ...", "X, having its principal ...\"."""
    out = []
    for match in _DESCRIBED.finditer(opening[:3000]):
        if re.search(r"\b(?:an?|the|of|in)\s+$", opening[max(0, match.start() - 5): match.start()]):
            continue  # "a Delaware Corporation, having its principal ..." describes, it does not name
        name = _clean_name(match.group(1))
        if name:
            out.append(Party(name))
    return out


def _clean_name(raw: str, whole_line: bool = False) -> str | None:
    name = " ".join(raw.split()).strip(" ,;:")
    # A sentence end inside the run ("Background. The") ends the name; "Inc. " or "P. A." do not.
    for stop in re.finditer(r"(\S+)\.\s", name):
        if not re.fullmatch(rf"{_SUFFIX}|[A-Z]|[A-Z][a-z]?|Mr|Mrs|Ms|Dr|St|No|Sp", stop.group(1)):
            name = name[: stop.end(1)]
            break
    suffix = re.search(rf"[ ,]+{_SUFFIX}(?:[ ,]+{_SUFFIX})*(?=[\s,]|$)", name)
    if suffix:
        name = name[: suffix.end()]
    if not re.search(rf"(?:\b{_SUFFIX}|\.com)$", name):
        name = name.rstrip(".")
    words = re.findall(r"[^\W\d_]+|\d+", name.lower())
    letters = sum(c.isalpha() for c in name)
    if (not words or len(name) < 2 or letters < 2 or letters < sum(c.isdigit() for c in name)
            or all(w in _GENERIC or _is_role(w) or w.isdigit() or len(w) == 1 for w in words)
            or all(re.fullmatch(_SUFFIX, w, re.IGNORECASE) for w in name.replace(",", " ").split())
            or any(w in _NOT_IN_NAMES for w in words) or words[0].isdigit()
            or words[0] in _TERM_FIRST or words[-1] in _TERM_LAST
            or _is_date_like(name) or len(words) > 10):
        return None
    if name.isupper() and len(name) > 3:
        if not (suffix or whole_line or len(words) <= 5):
            return None  # a shouted sentence, not a name
        name = smart_title(name)
    return name


def plausible_name(name: str, text: str = "") -> str | None:
    """`name` cleaned when it can be a party name (not generic, a date, a sentence), else None."""
    cleaned = _clean_name(name, whole_line=True)
    if cleaned is None or (text and _common_noun(cleaned, text)):
        return None
    return cleaned


def dedupe_parties(parties: list[Party]) -> list[Party]:
    """Public form of the de-duplication used by `find_parties`."""
    return _dedupe(parties)


def _is_date_like(name: str) -> bool:
    return bool(re.match(rf"(?i){_MONTH}\b|\d{{1,2}}\s+{_MONTH}\b|(?:19|20)\d\d$", name)
                or re.search(rf"(?i)\b{_MONTH}\s+\d", name))


def defined_role(alias: str) -> str | None:
    """The alias when it is a role word ("Parent", "Licensee", "Fornitore"), else None."""
    alias = " ".join(alias.split()).strip(" .,")
    if not _is_role(alias):
        return None
    return smart_title(alias) if alias.isupper() and len(alias) > 3 else alias


def is_role_word(word: str) -> bool:
    """True for role words ("Licensee", "Sellers", "Fornitore") that name a party's part, not the party."""
    return _is_role(word)


def _is_role(word: str) -> bool:
    word = word.lower()
    return word in _ROLES or (word.endswith("s") and word[:-1] in _ROLES)


def _dedupe(parties: list[Party]) -> list[Party]:
    """Drop repeated names and names that begin a longer one ("AdvanIDe" of "AdvanIDe Europe GmbH")."""
    keys = [re.sub(r"\W+", "", party.name.lower()) for party in parties]
    out = []
    seen: set[str] = set()
    for key, party in zip(keys, parties, strict=True):
        if not key or key in seen or any(other != key and other.startswith(key) for other in keys):
            continue
        seen.add(key)
        out.append(party)
    return out


# Acronyms stay in capitals: up to three letters (except common words), words without a
# vowel ("MDHHS"), dotted ("N.V.").
_KEEP_UPPER = re.compile(r"^(?:[A-Z]{1,3}|[B-DF-HJ-NP-TV-XZ]+|[A-Z]\.(?:[A-Z]\.)+|LLC|LLP|PLC|USA|N\.V\.|S\.P\.A\.|S\.R\.L\.)[.,]?$")
_SHORT_WORDS = frozenset("SUB NON BIG WEB GAS AIR SKY NEW ONE TWO BAY SUN RED TOP NET WAY OIL SEA CAR".split())
_TITLE_SPECIAL = {"INC.": "Inc.", "INC": "Inc.", "CORP.": "Corp.", "CORP": "Corp.", "LTD.": "Ltd.", "LTD": "Ltd.",
                  "CO.": "Co.", "AND": "and", "OF": "of", "THE": "the", "S.P.A.": "S.p.A.", "S.R.L.": "S.r.l.",
                  "SPA": "S.p.A.", "SRL": "S.r.l.", "DI": "di", "DEL": "del", "DELLA": "della", "E": "e", "NON": "Non",
                  "SUB": "Sub", "TO": "to", "FOR": "for"}


def smart_title(text: str) -> str:
    """Title-case a name written in capitals, keeping acronyms ("DSP GROUP, INC." -> "DSP Group, Inc.")."""
    if " " not in text.strip():
        return text  # one capitalized token is an acronym ("WECC"), not a shouted word
    words = []
    for i, word in enumerate(text.split()):
        core = word.rstrip(",")
        tail = word[len(core):]
        if core in _TITLE_SPECIAL and (i > 0 or core not in ("AND", "OF", "THE", "DI", "E", "TO", "FOR")):
            core = _TITLE_SPECIAL[core]
        elif not _KEEP_UPPER.match(core) or core.rstrip(".,") in _SHORT_WORDS:
            core = "-".join(part[:1].upper() + part[1:].lower() for part in core.split("-"))
        words.append(core + tail)
    return " ".join(words)
