"""A document's routing profile: the names a person uses for it that its title may not carry.

Questions name documents loosely: by a party's short name ("our NDA with Kestrel"), by its
trading name ("Kestrel Robotics"), by where the counterparty is ("the Scottish clinical research
company"), by what it is in the other language ("the confidentiality agreement" for an
"Accordo di riservatezza", "the supply contract" for a "Contratto di fornitura"), or by what it
covers (a statute by its sections' topics). The profile collects those words, in both
languages, from the metadata and the text; document routing searches it beside the title,
parties and summary. It is never embedded into the chunks, so it changes no chunk vector.

Pure functions, no model: quoted names and trading names from the opening, places of
incorporation with their adjectives, the type and title words in English and Italian, the
headings of the document's units (its outline), and the opening of its purpose / recitals.
"""

from __future__ import annotations

import re

from legalsearch.documents.models import ParsedDocument, StructureNode
from legalsearch.summarize.parties import QUOTES, is_role_word

PROFILE_VERSION = 1
"""Bumped when what the profile holds changes (it is part of the ingest settings key)."""

_OPENING_CHARS = 6000
_OUTLINE_CHARS = 1500
_PURPOSE_CHARS = 500

# a defined short name in parentheses after a party: ("Kestrel"), (the "Supplier"), (di seguito "Tecnoluce")
_QUOTED = re.compile(rf"\((?:[^(){QUOTES}\n]{{0,30}})[{QUOTES}]([A-Z][^{QUOTES}()\n]{{1,40}})[{QUOTES}][^()\n]{{0,20}}\)")
_ALIAS_CHARS = 3000
_TRADE = re.compile(
    r"(?i:trad(?:es|ing) (?:under the name|as)|known as|operating as|doing business as|d/b/a|t/a|con il marchio"
    r"|sotto il marchio|con la denominazione|nota come)\s*[" + QUOTES + r"]?([A-Z][\w&.' -]{1,40}?)[" + QUOTES + r",;.)]")
_GENERIC = frozenset(p.strip() for p in (
    "agreement; contract; party; parties; effective date; commencement date; confidential information; purpose; "
    "discloser; recipient; representatives; affiliate; affiliates; business day; business days; services; software; "
    "documentation; platform; contratto; parte; parti; data di efficacia; informazioni riservate; scopo; servizi; "
    "prodotti; allegato; premesse; accordo; licenza; piattaforma; software; documentazione").split(";"))

# place -> the words people use for it (English and Italian names, adjectives)
_PLACES = {
    "italy": "Italy Italian Italia italiano italiana", "italia": "Italy Italian Italia italiano italiana",
    "england": "England English Inghilterra inglese UK British", "wales": "Wales Welsh Galles",
    "scotland": "Scotland Scottish Scots Scozia scozzese UK British",
    "united kingdom": "United Kingdom UK British Regno Unito britannico",
    "netherlands": "Netherlands Dutch Holland Olanda olandese Paesi Bassi",
    "norway": "Norway Norwegian Norvegia norvegese", "sweden": "Sweden Swedish Svezia svedese",
    "denmark": "Denmark Danish Danimarca danese", "finland": "Finland Finnish Finlandia finlandese",
    "germany": "Germany German Germania tedesco tedesca", "france": "France French Francia francese",
    "spain": "Spain Spanish Spagna spagnolo spagnola", "ireland": "Ireland Irish Irlanda irlandese",
    "switzerland": "Switzerland Swiss Svizzera svizzero svizzera", "belgium": "Belgium Belgian Belgio belga",
    "luxembourg": "Luxembourg Lussemburgo lussemburghese", "austria": "Austria Austrian austriaco",
    "united states": "United States US USA American Stati Uniti americano statunitense",
    "delaware": "Delaware United States American", "new york": "New York United States American",
    "california": "California United States American", "canada": "Canada Canadian canadese",
    "japan": "Japan Japanese Giappone giapponese", "china": "China Chinese Cina cinese",
    "india": "India Indian indiano", "singapore": "Singapore", "israel": "Israel Israeli israeliano",
    "australia": "Australia Australian australiano",
}
_CITIES = {
    "torino": "Torino Turin", "turin": "Torino Turin", "milano": "Milano Milan", "milan": "Milano Milan",
    "roma": "Roma Rome", "rome": "Roma Rome", "firenze": "Firenze Florence", "venezia": "Venezia Venice",
    "napoli": "Napoli Naples", "genova": "Genova Genoa", "padova": "Padova Padua",
}
_JURISDICTIONS = {
    "IT": "italy", "GB": "united kingdom", "GB-ENG": "england", "GB-SCT": "scotland", "GB-WLS": "wales",
    "NL": "netherlands", "NO": "norway", "DE": "germany", "FR": "france", "ES": "spain", "IE": "ireland",
    "CH": "switzerland", "BE": "belgium", "LU": "luxembourg", "AT": "austria", "US": "united states",
    "US-NY": "new york", "US-DE": "delaware", "US-CA": "california", "SE": "sweden", "DK": "denmark",
}
_PLACE_RE = re.compile(r"\b(" + "|".join(sorted(map(re.escape, _PLACES | _CITIES), key=len, reverse=True)) + r")\b",
                       re.IGNORECASE)
_INCORPORATED = re.compile(
    r"(?i:incorporated|registered|organi[sz]ed|established|existing|con sede(?: legale)?|costituita|registrata"
    r"|registered office|principal (?:place of business|office)|governed by the laws? of|legge)[^.;\n]{0,80}")

# what a document is called, in both languages (type words and title words)
_NAMES = {
    "nda": "NDA non-disclosure agreement confidentiality agreement secrecy agreement accordo di riservatezza "
           "patto di riservatezza",
    "contract": "contract agreement contratto accordo",
    "statute": "act statute law legislation legge normativa",
    "privacy_policy": "privacy policy privacy notice data protection notice informativa privacy "
                      "informativa sul trattamento dei dati",
    "internal_note": "internal note memo memorandum legal note nota interna parere",
    "judgment": "judgment judgement ruling decision case court sentenza pronuncia causa",
}
_TITLE_WORDS = [
    (r"\bfornitur\w*|\bsupply\b", "supply fornitura purchase"),
    (r"\blicen[zcs]\w*", "licence license licenza software licence"),
    (r"\bservizi\b|\bservices?\b", "services servizi"),
    (r"\bhosting\b|\bdata cent(?:er|re)\b", "hosting data center servizi di hosting"),
    (r"\briservatezza\b|\bnon-disclosure\b|\bconfidentiality\b|\bnda\b", "NDA confidentiality riservatezza"),
    (r"\bsubscription\b|\bsaas\b|\bplatform\b|\babbonamento\b|\bpiattaforma\b",
     "subscription SaaS platform abbonamento piattaforma"),
    (r"\bquadro\b|\bframework\b|\bmaster\b", "framework master quadro"),
    (r"\bdistribu\w*", "distribution distribuzione"),
    (r"\bagenzia\b|\bagency\b", "agency agenzia"),
    (r"\blocazione\b|\blease\b", "lease locazione"),
    (r"\bappalto\b|\bworks\b", "works appalto"),
    (r"\bconsulen\w*|\bconsult\w*", "consultancy consulenza"),
    (r"\bemployment\b|\blavoro\b", "employment lavoro"),
    (r"\bmerger\b|\bfusione\b|\bacquisi\w*", "merger acquisition fusione acquisizione"),
]
_TITLE_WORDS_RE = [(re.compile(rx, re.IGNORECASE), words) for rx, words in _TITLE_WORDS]


def document_profile(doc: ParsedDocument) -> str:
    """Routing words for a document, one kind per line (aliases, places, names, outline, purpose)."""
    meta = doc.meta
    opening = doc.text[:_OPENING_CHARS]
    lines = [
        " ".join(dict.fromkeys(aliases(opening))),
        " ".join(dict.fromkeys(places(opening, meta.jurisdiction))),
        names(meta.doc_type, meta.title),
        outline(doc.tree, doc.text),
        purpose(doc.tree, doc.text),
    ]
    return "\n".join(line for line in lines if line)


def aliases(opening: str) -> list[str]:
    """Short and trading names defined in the opening: ("Kestrel"), trading as "Kestrel Robotics"."""
    opening = opening[:_ALIAS_CHARS]
    found = [m.group(1).strip() for m in _TRADE.finditer(opening)]
    for m in _QUOTED.finditer(opening):
        name = m.group(1).strip()
        low = name.lower()
        if low in _GENERIC or is_role_word(low) or len(name.split()) > 5:
            continue
        found.append(name)
    return found


def places(opening: str, jurisdiction: str | None) -> list[str]:
    """Countries and cities where the parties are incorporated or seated (and the jurisdiction),
    with the words for them in both languages (Norway -> Norwegian, norvegese)."""
    keys = []
    if jurisdiction:
        key = _JURISDICTIONS.get(jurisdiction.upper()) or _JURISDICTIONS.get(jurisdiction.upper().split("-")[0])
        if key:
            keys.append(key)
    for context in _INCORPORATED.finditer(opening):
        keys.extend(m.group(1).lower() for m in _PLACE_RE.finditer(context.group(0)))
    words = []
    for key in dict.fromkeys(keys):
        words.extend((_PLACES.get(key) or _CITIES.get(key, "")).split())
    return words


def names(doc_type: str | None, title: str) -> str:
    """What the document is called in English and Italian: its type, and its title's words."""
    parts = [_NAMES.get(doc_type or "", "")]
    parts += [words for rx, words in _TITLE_WORDS_RE if rx.search(title)]
    return " ".join(p for p in parts if p)


def outline(tree: StructureNode, text: str) -> str:
    """The headings of the document's units, in order ("Maximum payment period; Statutory
    interest; ..."): what it covers, for questions that name a statute by its topic."""
    titles: list[str] = []
    for node in tree.walk():
        if node.title and node.kind not in ("paragraph", "comma"):
            titles.append(node.title.strip())
    joined = "; ".join(dict.fromkeys(titles))
    return joined[:_OUTLINE_CHARS]


def purpose(tree: StructureNode, text: str) -> str:
    """The start of the purpose clause or the recitals (what the deal is about)."""
    for node in tree.walk():
        title = (node.title or node.heading or "").lower()
        if node.kind == "recitals" or re.match(r"(?:purpose|scopo|oggetto|background|premesse)\b", title):
            body = " ".join(text[node.char_start:node.char_end].split())
            return body[:_PURPOSE_CHARS]
    return ""
