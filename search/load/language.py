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
"""What a text gets when the detector cannot tell (digits, signatures, a few words)."""


@cache
def _detector():
    from lingua import IsoCode639_1, LanguageDetectorBuilder

    codes = [getattr(IsoCode639_1, code.upper()) for code in LANGUAGES]
    return LanguageDetectorBuilder.from_iso_codes_639_1(*codes).build()


def detect_language(text: str) -> str:
    """ISO 639-1 code of the language of `text`'s first `DETECT_CHARS` characters, one of
    `LANGUAGES`; `DEFAULT_LANGUAGE` when the text gives too little to tell."""
    found = _detector().detect_language_of(text[:DETECT_CHARS])
    return DEFAULT_LANGUAGE if found is None else found.iso_code_639_1.name.lower()
