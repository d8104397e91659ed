"""Document summaries for Summary-Augmented Chunking (SAC): the public entry point.

SAC prepends one ~150-character summary of the whole document to every chunk before
embedding and BM25, so that a chunk of boilerplate ("Confidential Information means ...")
still says which document it comes from; this halves retrievals from a look-alike
document (Document-Level Retrieval Mismatch).

Candidates (`get_summarizer(name, **options)`):
- "none": no summary (the empty string).
- "opening": the first ~150 characters of meaningful text (the SAC paper's baseline).
- "fingerprint": document type, parties, date, governing law, subject (regex + spaCy NER).
- "title-fingerprint": the document's name (title or file name), then the fingerprint.
- "centroid": the sentence closest to the document's TF-IDF centroid.
- "openai": an LLM behind an OpenAI-compatible endpoint (base_url, model, api_key, variant).
All but "openai" run offline and are deterministic. Every candidate accepts `target` and
`tolerance` (characters; defaults 150 and 20).

Example:
    >>> summarizer = get_summarizer("fingerprint")
    >>> with SummaryCache(cache_dir) as cache:
    ...     summary = summarize_cached(summarizer, doc, cache)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from legalsearch.documents.models import ParsedDocument
from legalsearch.errors import ConfigError
from legalsearch.summarize.base import (
    DEFAULT_TARGET,
    DEFAULT_TOLERANCE,
    Summarizer,
    fit_summary,
    meaningful_lines,
    opening_text,
)
from legalsearch.summarize.cache import SummaryCache, summarize_cached
from legalsearch.summarize.extractive import CentroidSummarizer, OpeningSummarizer
from legalsearch.summarize.fingerprint import (
    FingerprintSummarizer,
    TitleFingerprintSummarizer,
    clean_file_name,
    document_name,
    extract_facts,
)
from legalsearch.summarize.llm import (
    EndpointHTTPError,
    EndpointUnreachableError,
    MalformedResponseError,
    OpenAICompatibleSummarizer,
    SummarizerError,
)

__all__ = [
    "DEFAULT_TARGET", "DEFAULT_TOLERANCE", "SUMMARIZERS", "CentroidSummarizer", "EndpointHTTPError",
    "EndpointUnreachableError", "FingerprintSummarizer", "MalformedResponseError", "NoSummarizer",
    "OpenAICompatibleSummarizer", "OpeningSummarizer", "Summarizer", "SummarizerError", "SummaryCache",
    "TitleFingerprintSummarizer", "clean_file_name", "document_name", "extract_facts", "fit_summary",
    "get_summarizer", "meaningful_lines", "opening_text", "summarize_cached",
]


class NoSummarizer:
    """SAC switched off: every summary is the empty string."""

    name = "none"

    def settings_key(self) -> str:
        return "none"

    def summarize(self, doc: ParsedDocument) -> str:
        return ""


def _openai(**options: Any) -> OpenAICompatibleSummarizer:
    missing = [k for k in ("base_url", "model") if not options.get(k)]
    if missing:
        raise ConfigError(f"summarizer 'openai' needs {' and '.join(missing)} "
                          "(e.g. base_url='http://localhost:8000/v1', model='gpt-4o-mini')")
    return OpenAICompatibleSummarizer(**options)


SUMMARIZERS: dict[str, Callable[..., Summarizer]] = {
    "none": NoSummarizer,
    "opening": OpeningSummarizer,
    "fingerprint": FingerprintSummarizer,
    "title-fingerprint": TitleFingerprintSummarizer,
    "centroid": CentroidSummarizer,
    "openai": _openai,
}


def get_summarizer(name: str, **options: Any) -> Summarizer:
    """Build a summarizer by name.

    Args:
        name: one of `SUMMARIZERS` ("none", "opening", "fingerprint", "title-fingerprint",
            "centroid", "openai").
        **options: constructor options; None values are ignored, so callers can pass
            optional CLI settings straight through.

    Raises:
        ConfigError: unknown name (the message lists the choices) or bad options.
    """
    factory = SUMMARIZERS.get((name or "").strip().lower())
    if factory is None:
        raise ConfigError(f"unknown summarizer {name!r}; choose one of {', '.join(SUMMARIZERS)}")
    options = {k: v for k, v in options.items() if v is not None}
    if factory is NoSummarizer:
        return NoSummarizer()
    try:
        return factory(**options)
    except TypeError as e:
        raise ConfigError(f"bad options for summarizer {name!r}: {e}") from e
