"""A text's language, by lingua's n-gram models (lingua-language-detector).

The detector knows only the languages a document may carry (`documents.models.LANGUAGES`): fewer
candidates make it faster and keep it from naming a language no stage knows. It is built once, on
first use; lingua then loads each language's model the first time it needs it (about 0.2 s).
"""

from __future__ import annotations

from functools import cache

from legalsearch.documents.models import LANGUAGES

DETECT_CHARS = 20_000
"""How much of a text the language is read from (its opening; a document's language is settled long
before, and a long appendix in another language does not outvote it)."""

DEFAULT_LANGUAGE = "en"
"""What a text gets when the detector cannot tell (digits, signatures, no letters)."""

RULE_LANGUAGES = ("en", "it")
"""The languages with their own parsing rules and analyzers."""

OTHER_LANGUAGE_CONFIDENCE = 0.75
"""How sure lingua must be to name a language with no rules of its own: a clause of French or German
scores 0.98 or more, while a few English words with code in them ("splitmix64 of uint64s:
deterministic per-document metadata.") can come out Portuguese at 0.53. Below it the likelier of
English and Italian is named, as before lingua."""


@cache
def _detector():
    from lingua import IsoCode639_1, LanguageDetectorBuilder

    codes = [getattr(IsoCode639_1, code.upper()) for code in LANGUAGES]
    return LanguageDetectorBuilder.from_iso_codes_639_1(*codes).build()


def detect_language(text: str) -> str:
    """ISO 639-1 code of the language of `text`'s first `DETECT_CHARS` characters, one of
    `LANGUAGES` (another than English or Italian only when lingua is `OTHER_LANGUAGE_CONFIDENCE`
    sure of it); `DEFAULT_LANGUAGE` when the text gives nothing to tell by."""
    values = [(c.language.iso_code_639_1.name.lower(), c.value)
              for c in _detector().compute_language_confidence_values(text[:DETECT_CHARS])]
    if not values or values[0][1] <= 0:
        return DEFAULT_LANGUAGE
    best, confidence = values[0]
    if best in RULE_LANGUAGES or confidence >= OTHER_LANGUAGE_CONFIDENCE:
        return best
    return max((v for v in values if v[0] in RULE_LANGUAGES), key=lambda v: v[1], default=(DEFAULT_LANGUAGE, 0))[0]
