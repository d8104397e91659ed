"""A calibrated relevance for each hit, and abstention: "no passage answers" told from "a passage".

The fused, reranker and BM25 scores order the hits of one response; they say nothing of whether
the best of them answers the question ("best recipe for tiramisu?" over a contract corpus still
has a first hit). `Hit.relevance` is a probability-like signal in [0, 1] that the passage answers
the question, comparable across questions and indices, computed after the ranking (it changes no
order) from features the search has or gets with two small requests:

* ``cosine``: the raw cosine between the question's vector and the passage's stored vector (the
  same vector the k-NN list ranks by; one k-NN query filtered to the hits);
* ``coverage``: the IDF-weighted share of the question's content terms (the index's own analyzer
  on the ``embedded_text`` field, function words left out) that the passage's text and heading
  carry; ``doc_coverage``: the same over its document summary and title;
* ``absent``: the IDF-weighted share of the question's content terms that no chunk of the index
  carries at all (a question about tiramisu over contracts);
* ``cited``: 1 when the question cites the hit's section ("clause 14.3"), else 0.

The terms and document frequencies come from ``_mtermvectors`` requests with artificial documents
(the question with the index's term statistics, asked beside the first stage; each passage not
analysed before, `TermsCache`); the cosines from one filtered k-NN query (asked with the
expansion). A logistic model per embedder (the cosine scales of
MiniLM and e5 differ) turns the features into the probability; its coefficients are versioned
JSON files in ``legalsearch/query/calibration/`` (``<embedder>.json``), fitted by
``benchmarks/fit_relevance.py`` on the gold sets' labelled pairs (expected passage: positive,
the other top-10 hits: negative) and off-topic questions (every hit negative).

A response is ``not_found`` when no retrieved hit reaches the request's ``abstain`` threshold
(0 turns abstention off); the hits are kept.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from legalsearch.errors import ConfigError
from legalsearch.index.terms import (  # noqa: F401 (the relevance API: what features reads)
    TERMS,
    TERMS_FIELD,
    TermsCache,
    analysed,
    document_text,
    passage_terms,
    passage_text,
    passage_texts,
    question_statistics,
)
from legalsearch.query.identifiers import QueryRef, normalize_label
from legalsearch.query.plan import citation_words, function_words

FEATURES: tuple[str, ...] = ("cosine", "coverage", "doc_coverage", "absent", "cited")
"""The features of a hit, in the order the calibration's coefficients follow."""

def idf(df: int, n: int) -> float:
    """BM25's inverse document frequency (never negative): a term no chunk carries weighs most."""
    return math.log(1.0 + (n - df + 0.5) / (df + 0.5))


def content_terms(terms: Mapping[str, int], n: int) -> dict[str, float]:
    """The question's analysed terms (term -> document frequency) as term -> IDF weight, without
    function and citation words ("what", "does", "clause", "art": no topic) or one-letter tokens."""
    stop = function_words() | citation_words()
    return {t: idf(df, n) for t, df in terms.items() if len(t) > 1 and t not in stop}


def coverage(weights: Mapping[str, float], terms: set[str] | frozenset[str]) -> float:
    """The IDF-weighted share of the question's content terms that `terms` carries (0 with none)."""
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    return sum(w for t, w in weights.items() if t in terms) / total


def absent_share(weights: Mapping[str, float], terms: Mapping[str, int]) -> float:
    """The IDF-weighted share of the question's content terms that no chunk of the index carries."""
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    return sum(w for t, w in weights.items() if terms.get(t, 0) == 0) / total


def cites(source: Mapping, refs: Sequence[QueryRef]) -> float:
    """1.0 when one of the question's own identifiers (not an external act's) is the hit's section."""
    section = source.get("section")
    if not section:
        return 0.0
    label = normalize_label(str(section))
    return 1.0 if any(not r.external and r.label == label for r in refs) else 0.0


@dataclass(frozen=True)
class Calibration:
    """A fitted logistic model: relevance = sigmoid(intercept + sum(coef[f] * feature f))."""

    embedder: str
    version: int
    coef: dict[str, float]
    intercept: float
    fitted: dict = field(default_factory=dict, compare=False)

    def probability(self, features: Mapping[str, float]) -> float:
        z = self.intercept + sum(self.coef.get(name, 0.0) * float(features.get(name, 0.0)) for name in FEATURES)
        if z >= 0:
            return 1.0 / (1.0 + math.exp(-z))
        e = math.exp(z)
        return e / (1.0 + e)

    @classmethod
    def from_dict(cls, data: Mapping, where: str = "calibration") -> Calibration:
        """Raises ConfigError for a file that is not a calibration of these features."""
        try:
            coef = {str(k): float(v) for k, v in dict(data["coef"]).items()}
            unknown = set(coef) - set(FEATURES)
            if unknown:
                raise ConfigError(f"{where}: unknown features {sorted(unknown)}; known: {', '.join(FEATURES)}")
            return cls(embedder=str(data["embedder"]), version=int(data["version"]), coef=coef,
                       intercept=float(data["intercept"]), fitted=dict(data.get("fitted") or {}))
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(f"{where}: not a relevance calibration ({type(e).__name__}: {e}); it needs "
                              "embedder, version, coef, intercept") from e


@cache
def load_calibration(embedder: str) -> Calibration:
    """The shipped calibration of an embedder (legalsearch/query/calibration/<embedder>.json).

    Raises:
        ConfigError: no calibration for this embedder, or a malformed file.
    """
    name = re.sub(r"[^\w.-]", "_", embedder or "")
    folder = resources.files("legalsearch.query").joinpath("calibration")
    path = folder.joinpath(f"{name}.json")
    if not name or not path.is_file():
        shipped = sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))
        raise ConfigError(f"no relevance calibration for the embedder {embedder!r} (shipped: {', '.join(shipped)}); "
                          "fit one with benchmarks/fit_relevance.py")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}: invalid JSON: {e}") from e
    return Calibration.from_dict(data, str(path))


def statistics_index(index: str) -> str:
    """The index whose analyzer and term statistics relevance reads: the first (public) one of
    what a search read (comma-joined walls included)."""
    return index.split(",")[0]


def cosines(store, index: str, vector: Sequence[float], chunk_ids: Sequence[str]) -> dict[str, float]:
    """The raw cosine between `vector` and the stored vector of each chunk, by chunk_id: one k-NN
    query filtered to those chunks (exact over so few; the engine's cosinesimil score is
    (1 + cosine) / 2). Faster than reading the vectors back (`knn.derived_source` rebuilds them)."""
    ids = list(dict.fromkeys(chunk_ids))
    if not ids:
        return {}
    return cosines_of(store.search(index, cosine_body(vector, ids)))


def cosine_body(vector: Sequence[float], ids: Sequence[str]) -> dict:
    """The filtered k-NN query of `cosines` (its ids distinct, at least one)."""
    return {"size": len(ids), "_source": False,
            "query": {"knn": {"vector": {"vector": list(vector), "k": len(ids), "filter": {"ids": {"values": list(ids)}}}}}}


def cosines_of(answer: dict) -> dict[str, float]:
    """The raw cosines (by chunk_id) in the answer to a `cosine_body` query."""
    return {h["_id"]: 2.0 * float(h["_score"]) - 1.0 for h in answer["hits"]["hits"]}


def features(store, index: str, question: str, vector: Sequence[float] | None, sources: Sequence[Mapping],
             refs: Sequence[QueryRef] = (), cos: Mapping[str, float] | None = None,
             stats: tuple[dict[str, int], int] | None = None) -> list[dict[str, float]]:
    """The features of each source (FEATURES), in order. `index`: what the search read (comma-joined
    walls included); term statistics come from its first (public) index (`statistics_index`). `cos`: the cosines by
    chunk_id when they were asked already (a `cosine_body` query over these sources, or more);
    `stats`: `question_statistics` of the question, when it was asked already."""
    if not sources:
        return []
    if cos is None:
        cos = cosines(store, index, vector, [s["chunk_id"] for s in sources]) if vector is not None else {}
    # the question's statistics in the same request as the unknown texts, unless asked already
    asked, carried = analysed(store, statistics_index(index), question if stats is None else None,
                               passage_texts(sources), TERMS)
    terms, n = stats if stats is not None else asked
    weights = content_terms(terms, max(n, 1))
    absent = absent_share(weights, terms)
    out = []
    for i, source in enumerate(sources):
        out.append({
            "cosine": round(cos.get(source["chunk_id"], 0.0), 6),
            "coverage": round(coverage(weights, carried[i]), 6),
            "doc_coverage": round(coverage(weights, carried[len(sources) + i]), 6),
            "absent": round(absent, 6),
            "cited": cites(source, refs),
        })
    return out


def not_found_reason(best: float | None, threshold: float) -> str:
    """Why a response abstains: 'no passage answers: best relevance 0.008 < 0.02'."""
    shown = "none" if best is None else f"{best:.3f}"
    return f"no passage answers: best relevance {shown} < {threshold:g}"


def abstains(relevances: Sequence[float | None], threshold: float) -> tuple[bool, float | None]:
    """(whether no relevance reaches `threshold`, the best relevance); never with threshold 0, nor
    when no relevance is known (no hits: `not_found` says so already; none computed: a warning)."""
    known = [r for r in relevances if r is not None]
    if not known or threshold <= 0:  # nothing to judge by (no hits, or no relevance computed)
        return False, max(known) if known else None
    best = max(known)
    return best < threshold, best
