"""Extractive candidates: the document's opening and its most central sentence.

Both copy text from the document, so they never state anything the document does not say;
neither needs a model.
"""

from __future__ import annotations

import re

import numpy as np
from legalsearch.documents.models import ParsedDocument
from legalsearch.summarize.base import DEFAULT_TARGET, DEFAULT_TOLERANCE, fit_summary, opening_text

# Sentence ends: ". " / "; " before a capital, or a line break. Abbreviations ("Inc. The")
# split too; a short fragment is then simply not a candidate.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[\"\u201c(\[]?[A-Z0-9])|\n+")
_WORD = re.compile(r"[^\W\d_]{2,}")
_IT_STOP_WORDS = frozenset(
    "il lo la i gli le un uno una di a da in con su per tra fra e ed o che non del dello della"
    " dei degli delle al allo alla ai agli alle dal dalla dai dalle nel nello nella nei negli"
    " nelle sul sulla sui sulle si come anche ogni sono è essere sia suo sua suoi sue loro"
    " questo questa quale quali cui qualsiasi presente ove".split()
)


class OpeningSummarizer:
    """The document's first ~150 characters of meaningful text (the SAC paper's baseline).

    Blank lines and page furniture (exhibit labels, page numbers, "Execution Copy") are
    skipped; the text is cut at a word boundary.
    """

    name = "opening"

    def __init__(self, target: int = DEFAULT_TARGET, tolerance: int = DEFAULT_TOLERANCE):
        self.target = target
        self.tolerance = tolerance

    def settings_key(self) -> str:
        return f"opening:v1:{self.target}:{self.tolerance}"

    def summarize(self, doc: ParsedDocument) -> str:
        return fit_summary(opening_text(doc.text, self.target + self.tolerance + 1), self.target, self.tolerance)


class CentroidSummarizer:
    """The sentence closest to the document's TF-IDF centroid (cosine), trimmed to the target.

    Sentences are fitted with a TF-IDF model of the document itself (sublinear tf, English
    or Italian stop words). When the most central sentence is shorter than
    `target - tolerance`, the next most central ones are appended.
    """

    name = "centroid"

    def __init__(self, target: int = DEFAULT_TARGET, tolerance: int = DEFAULT_TOLERANCE,
                 max_sentences: int = 4000):
        self.target = target
        self.tolerance = tolerance
        self.max_sentences = max_sentences

    def settings_key(self) -> str:
        return f"centroid:v1:{self.target}:{self.tolerance}:{self.max_sentences}"

    def summarize(self, doc: ParsedDocument) -> str:
        sentences = candidate_sentences(doc.text, self.max_sentences)
        if not sentences:
            return fit_summary(opening_text(doc.text, self.target + self.tolerance + 1), self.target, self.tolerance)
        order = rank_by_centrality(sentences, doc.meta.language)
        picked: list[str] = []
        for index in order:
            picked.append(sentences[index])
            if sum(len(s) + 1 for s in picked) >= self.target - self.tolerance:
                break
        return fit_summary(" ".join(picked), self.target, self.tolerance)


def candidate_sentences(text: str, max_sentences: int) -> list[str]:
    """Sentences of 40-600 characters that are mostly words (no TOC lines, no addresses)."""
    out = []
    for raw in _SENTENCE_END.split(text):
        sentence = " ".join(raw.split())
        if not 40 <= len(sentence) <= 600:
            continue
        words = _WORD.findall(sentence)
        if len(words) < 6 or sum(len(w) for w in words) < 0.6 * len(sentence):
            continue
        out.append(sentence)
        if len(out) >= max_sentences:
            break
    return out


def rank_by_centrality(sentences: list[str], language: str) -> list[int]:
    """Indices of `sentences`, most central first (ties: earlier sentence first)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    stop_words = sorted(_IT_STOP_WORDS) if language == "it" else "english"
    vectorizer = TfidfVectorizer(sublinear_tf=True, stop_words=stop_words, token_pattern=r"(?u)\b[^\W\d_]{2,}\b")
    try:
        matrix = vectorizer.fit_transform(sentences)
    except ValueError:  # only stop words: no vocabulary
        return list(range(len(sentences)))
    centroid = np.asarray(matrix.mean(axis=0)).ravel()
    norm = np.linalg.norm(centroid)
    if norm == 0:
        return list(range(len(sentences)))
    scores = matrix @ (centroid / norm)  # rows are already L2-normalized: this is the cosine
    return sorted(range(len(sentences)), key=lambda i: (-round(float(scores[i]), 12), i))
