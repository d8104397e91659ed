"""What a document is about, for the fingerprint's last, optional part.

The title when given; for a privacy policy the regimes it names (GDPR, CCPA, ...) and
the data categories it mentions first; otherwise the capitalized terms the document
repeats that are not legal boilerplate ("Calling Card", "Qwik-Fix Pro"). The fingerprint
adds them only while there is room.
"""

from __future__ import annotations

import collections
import re

from legalsearch.documents.models import ParsedDocument
from legalsearch.summarize.base import normalize_space
from legalsearch.summarize.parties import Party, is_role_word

# What a privacy policy covers: the regimes it names, then data categories by first mention.
_PRIVACY_REGIMES = (
    ("GDPR", r"\bGDPR\b|General Data Protection Regulation|2016/679"), ("CCPA", r"\bCCPA\b|\bCPRA\b|California Consumer"),
    ("COPPA", r"\bCOPPA\b|Children's Online Privacy"), ("CalOPPA", r"\bCalOPPA\b"), ("PIPEDA", r"\bPIPEDA\b"),
    ("LGPD", r"\bLGPD\b"), ("HIPAA", r"\bHIPAA\b"), ("Privacy Shield", r"Privacy Shield"),
    ("Codice privacy", r"Codice (?:in materia di protezione dei dati|privacy)|d\.\s?lgs\.?\s*196/2003"),
)
_PRIVACY_DATA = (
    ("location", r"\blocation\b|\bgps\b|geolocation"), ("contacts", r"\bcontacts?\b|address book"),
    ("payment data", r"\bpayment|credit card|billing"), ("health/genetic data", r"\bhealth\b|\bgenetic|\bdna\b"),
    ("camera/microphone", r"\bcamera\b|\bmicrophone\b"), ("messages", r"\bmessages?\b|\bchats?\b"),
    ("photos", r"\bphotos?\b|\bimages?\b"), ("device IDs", r"device (?:id|identifier)|\bIDFA\b|advertising id"),
    ("cookies", r"\bcookies?\b"), ("advertising", r"\badvertis"), ("children", r"\bchildren\b|\bminors?\b"),
)
_PRIVACY_DATA_IT = (
    ("posizione", r"posizione|geolocalizzazione"), ("contatti", r"\bcontatti\b|rubrica"),
    ("pagamenti", r"pagament|carta di credito"), ("dati sanitari", r"\bsalute\b|sanitar|genetic"),
    ("cookie", r"\bcookie"), ("marketing", r"\bmarketing\b|pubblicit"), ("minori", r"\bminori\b"),
)
def document_topics(doc: ParsedDocument, family: str | None, parties: list[Party], language: str,
            said: str = "") -> list[tuple[str, list[str]]]:
    """What the document is about, most telling first: its title when given, what a privacy
    policy covers (regimes named, data categories by first mention), its salient terms."""
    meta = doc.meta
    topics: list[tuple[str, list[str]]] = []
    if "title" not in meta.inferred and meta.title.strip():
        topics.append(("", [normalize_space(meta.title)]))
    if family == "privacy_policy":
        head = doc.text[:20_000]
        regimes = [label for label, pattern in _PRIVACY_REGIMES if re.search(pattern, head)]
        mentions = []
        for label, pattern in _PRIVACY_DATA_IT if language == "it" else _PRIVACY_DATA:
            match = re.search(pattern, head, re.IGNORECASE)
            if match:
                mentions.append((match.start(), label))
        if regimes or mentions:
            topics.append(("copre" if language == "it" else "covers", [*regimes, *(x for _, x in sorted(mentions))]))
    terms = salient_terms(doc.text[:30_000], exclude=" ".join([*(p.name for p in parties), said]))
    if terms:
        topics.append(("termini" if language == "it" else "key terms", terms))
    return topics


_CAPITALIZED = re.compile(
    r"\b[A-Z][\w&'\u2019-]*[a-z0-9][\w&'\u2019-]*(?:[ \t]+(?:(?:of|for|and|&|di|del|della|per)[ \t]+)?"
    r"[A-Z][\w&'\u2019-]*){0,3}"
)
_GENERIC_CAPITALIZED = frozenset(
    "agreement agreements party parties section sections article articles schedule exhibit annex appendix clause"
    " confidential information effective date company disclosing receiving recipient discloser state court courts"
    " term territory products product services service business day days closing purchaser seller buyer parent"
    " merger sub law laws government governmental authority person persons affiliate affiliates subsidiary"
    " subsidiaries notice date board directors material adverse effect representatives purpose the this such any"
    " each all in if no upon for by and or of to at as on with whereas now therefore witness whereof name title"
    " signature signed address telephone email fax page inc llc ltd corp plc co limited non contratto accordo parte parti articolo allegato premesso"
    " january february march april may june july august september october november december"
    " monday tuesday wednesday thursday friday saturday sunday".split()
)


def salient_terms(text: str, exclude: str = "", limit: int = 3) -> list[str]:
    """Capitalized terms the document repeats that are not legal boilerplate ("Calling Card", "HCAI System").

    A term is a run of up to four capitalized words with at least one lowercase letter; it
    counts when none of its words is a generic legal word, a role or already said
    (`exclude`), and, for a single word, when the text never writes it in lower case and
    uses it inside sentences (so "Notwithstanding" drops out). At least two mentions; most
    repeated first, then first seen.
    """
    excluded = {w.lower() for w in re.findall(r"[^\W\d_]+", exclude)}
    prose_lower = set(re.findall(r"\b[a-z][a-z-]*\b", text))
    counts: collections.Counter[str] = collections.Counter()
    first: dict[str, int] = {}
    for match in _CAPITALIZED.finditer(text):
        term = re.sub(r"['\u2019]s$", "", " ".join(match.group(0).split()))
        words = [w.lower() for w in re.findall(r"[^\W\d_]+", term)]
        if not words or any(w in _GENERIC_CAPITALIZED or w in excluded or is_role_word(w) for w in words):
            continue
        if len(words) == 1:
            before = text[max(0, match.start() - 2): match.start()]
            if words[0] in prose_lower or len(words[0]) < 3 or not re.fullmatch(r"[a-z0-9,)] ", before):
                continue
        counts[term] += 1
        first.setdefault(term, match.start())
    ranked = sorted((t for t in counts if counts[t] >= 2), key=lambda t: (-counts[t], first[t]))
    out: list[str] = []
    for term in ranked:
        if not any(term in other or other in term for other in out):
            out.append(term)
        if len(out) >= limit:
            break
    return out
