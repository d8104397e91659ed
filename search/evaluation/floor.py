"""The plain-BM25 floor (issue 28): Okapi BM25 over each document's own natural units, a baseline
nobody tuned, scored beside any configuration on the same questions (`eval gold --baseline
bm25-units`, `eval legalbench --baseline bm25-units`).

What it is, in full:

* **Units** (:func:`split_units`): each document's text cut at its own headings by a few regular
  expressions of this module (NOT the structure parser, so that the floor does not share the
  parser's bugs). Article-level keyword headings at the start of a line ("Art. 7", "Articolo 3",
  "ARTICLE IV", "Section 5.02", "Clause 9", "§ 4"; also after two spaces inside a line, where a
  text export ran the lines together) when the document has at least two of them, with the
  dotted numbered headings under them ("6.1 Efforts ...") when there are two or more, but not
  their plain numbered paragraphs (the commi "1. Il Fornitore ..."); else numbered headings ("14.3 The Supplier ...", "5 Security of tenure", "1. DEFINITIONS");
  schedules and annexes ("SCHEDULE 2", "Allegato B", "Exhibit A") start a unit in both cases.
  A heading counts only when what follows the label is the end of the line, punctuation, or a
  word that does not start in lower case ("Section 8.1 is satisfied" is a reference, not a
  heading), nor by a bracket ("Section 17(3)" cites a subsection). A document with neither is cut into blank-line paragraphs (into its lines when it has
  no blank line: the LegalBench privacy policies and NDAs). A unit of at most three short lines
  that ends without punctuation (a heading standing alone: "1. DEFINITIONS", "WHO WE ARE",
  "SCHEDULE 2\nFEES") joins the next unit and gives it its label. The text before the first heading is one unit. No size limit: a unit is as long as the
  document's own article (the MAUD sections run to tens of thousands of characters).
* **Tokens** (:func:`tokenize`): lower case, ``\\w+`` runs (Unicode), Snowball stems (nltk) in the
  unit's document language (English or Italian); no stop words, no synonyms. A question is
  tokenized once per language present in the collection and each unit is scored with the tokens of
  its own language (a question in one language meets a document in the other only through the words
  they share: that is part of the floor).
* **Scoring** (:class:`BM25`): Okapi BM25, k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) /
  (df + 0.5)) (Lucene's), each distinct question term once; statistics over every unit of the
  collection; filters remove units after scoring, as a filter clause does in OpenSearch (they do
  not change the statistics). Ties break by document order.
* **Filters it respects**: ``as_of`` (a version is searched only when ``valid_from <= as_of <
  valid_to``, the product's rule) and access (a unit is searched only when its document is public or
  its acl names one of the question's groups, the product's rule). **What it ignores**: titles,
  summaries and every other metadata field (only a unit's own text is indexed), routing, fusion,
  cross-reference expansion, the text-in-force prior (with no ``as_of`` every version competes),
  rescoring, translation.
* **Hits** (:func:`span_hits`): a unit (or any retrieved span) hits an expected passage when they
  share a document (and version) and their character overlap is at least half of the shorter of
  the two: a unit inside the passage, or a unit holding most of the passage (an article whose
  clause was asked), counts; a unit that only grazes it does not. Gold passages are located by
  :class:`GoldPassages`: the characters of the document version's chunks that carry the passage's
  section label (the structural chunker, 1,800 characters, the labels the gold sets are written
  against and checked with), or the whole version when the passage gives no section. LegalBench
  passages are its character spans.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from math import log
from pathlib import Path
from statistics import fmean, median
from typing import Any

from legalsearch.evaluation.metrics import Span

BASELINES = ("bm25-units",)
"""The baselines `eval gold` / `eval legalbench --baseline` know."""
FLOOR_NAME = "bm25-units"
K1 = 1.2
B = 0.75
HIT_SHARE = 0.5
"""A span hits a passage when their overlap is at least this share of the shorter of the two."""
GOLD_CHUNKER, GOLD_MAX_CHARS = "structural", 1800

# --------------------------------------------------------------------------- units

_ARTICLE = re.compile(
    r"(?:^|(?<=[ \t]{2}))[ \t]*(?:ARTICOLO|Articolo|ARTICLE|Article|ART\.|Art\.|SECTION|Section|SEC\.|Sec\.|CLAUSE|Clause|§+)"
    r"[ \t]*([0-9]+[A-Za-z]{0,3}(?:[.\-][0-9]+[A-Za-z]?)*|[IVXLC]+)\b\.?(?P<after>[^\n]{0,40})",
    re.MULTILINE,
)
_SCHEDULE = re.compile(
    r"^[ \t]*(?:SCHEDULE|Schedule|ANNEX|Annex|ALLEGATO|Allegato|APPENDIX|Appendix|EXHIBIT|Exhibit)"
    r"[ \t]+([0-9]+[A-Za-z]{0,2}|[A-Z]{1,2}|[IVXLC]+)\b\.?(?P<after>[^\n]{0,40})",
    re.MULTILINE,
)
_NUMBERED = re.compile(
    r"^[ \t]*([0-9]{1,3}[A-Z]{0,2}(?:\.[0-9]{1,3}[A-Za-z]?)*)\.?(?P<after>[ \t]+[^\n]{0,40}|[ \t]*$)",
    re.MULTILINE,
)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n\s*")


def _is_heading(m: re.Match) -> bool:
    """The label is followed by the end of the line, punctuation, or a word not in lower case;
    not by a bracket ("Section 17(3)" cites a subsection)."""
    if m.group("after").startswith("("):
        return False
    after = m.group("after").lstrip(" \t")
    return not after or not after[0].islower()


def _numbered_heading(m: re.Match) -> bool:
    after = m.group("after")
    if not after.strip():
        return False  # a number alone on a line (a page number) is no heading
    first = after.lstrip(" \t")[0]
    return first.isupper() or first in "[(\"“'‘"


def _starts(text: str) -> tuple[list[tuple[int, str]], str]:
    """(offset, label) of each unit start and the kind of split ('headings' or 'paragraphs')."""
    articles = [(m.start(), m.group(1)) for m in _ARTICLE.finditer(text) if _is_heading(m)]
    schedules = [(m.start(), m.group(1)) for m in _SCHEDULE.finditer(text) if _is_heading(m)]
    numbered = [(m.start(), m.group(1)) for m in _NUMBERED.finditer(text) if _numbered_heading(m)]
    if len(articles) >= 2:
        # under article headings, numbered lines are their paragraphs ("1. Il Fornitore ...", the
        # commi) unless they carry dotted numbers (MAUD's "ARTICLE VI" then "6.1 Efforts ...")
        dotted = [(at, label) for at, label in numbered if "." in label]
        starts = articles + schedules + (dotted if len(dotted) >= 2 else [])
    else:
        starts = (numbered if len(numbered) >= 2 else []) + schedules
    if starts:
        return sorted(set(starts)), "headings"
    return [], "paragraphs"


def _paragraphs(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Blank-line paragraphs of text[start:end] (its lines when it has no blank line)."""
    chunk = text[start:end]
    breaks = list(_PARAGRAPH_BREAK.finditer(chunk))
    if breaks:
        cuts = [0] + [m.end() for m in breaks]
    else:
        cuts = [0] + [m.end() for m in re.finditer(r"\n", chunk)]
    spans = [(start + a, start + b) for a, b in zip(cuts, cuts[1:] + [len(chunk)], strict=True)]
    return [(a, b) for a, b in spans if text[a:b].strip()]


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _lone_heading(text: str) -> bool:
    """A heading standing alone: at most three short lines, the last without closing punctuation."""
    lines = text.split("\n")
    return len(lines) <= 3 and all(len(line) <= 80 for line in lines) and not re.search(r"[.;:!?)\]]$", text)


@dataclass(frozen=True)
class Unit:
    """One natural unit: ``text[start:end]`` of a document version, with its heading label (or None)."""

    doc_id: str
    version: str
    start: int
    end: int
    label: str | None
    language: str = "en"

    def __len__(self) -> int:
        return self.end - self.start


def split_units(text: str) -> list[tuple[int, int, str | None]]:
    """The natural units of a document as (start, end, label), in order, covering every non-blank
    character once (see the module docstring for the rules)."""
    starts, _ = _starts(text)
    raw: list[tuple[int, int, str | None]] = []
    if starts:
        bounds = [(0, None)] + starts if starts[0][0] > 0 else starts
        for (a, label), (b, _) in zip(bounds, bounds[1:] + [(len(text), None)], strict=True):
            raw.append((a, b, label))
    else:
        raw = [(a, b, None) for a, b in _paragraphs(text, 0, len(text))]
    units: list[tuple[int, int, str | None]] = []
    pending: tuple[int, str | None] | None = None  # a lone heading waiting for its body
    for a, b, label in raw:
        a, b = _trim(text, a, b)
        if a >= b:
            continue
        if pending is not None:
            a, label = pending[0], pending[1] if pending[1] is not None else label
            pending = None
        if _lone_heading(text[a:b]):
            pending = (a, label)
            continue
        units.append((a, b, label))
    if pending is not None:  # a heading at the very end stays a unit of its own
        a = pending[0]
        units.append((a, _trim(text, a, len(text))[1], pending[1]))
    return units


# --------------------------------------------------------------------------- tokens and BM25

_WORD = re.compile(r"\w+", re.UNICODE)
_STEMMER_LANGUAGES = {"en": "english", "it": "italian"}


@cache
def _stemmer(language: str):
    from nltk.stem.snowball import SnowballStemmer

    return SnowballStemmer(_STEMMER_LANGUAGES.get(language, "english"))


def tokenize(text: str, language: str = "en") -> list[str]:
    """Lower-cased ``\\w+`` runs, Snowball-stemmed in `language` ("en" or "it"; others: English)."""
    stem = _stemmer(language).stem
    return [stem(w) for w in _WORD.findall(text.lower())]


class BM25:
    """Okapi BM25 (k1 1.2, b 0.75, Lucene's idf) over token lists, with an inverted index.

    Args:
        documents: one token list per unit.
        languages: the language of each unit (the question is tokenized in each), default all "en".
    """

    def __init__(self, documents: Sequence[Sequence[str]], languages: Sequence[str] | None = None,
                 k1: float = K1, b: float = B):
        self.k1, self.b = k1, b
        self.n = len(documents)
        self.languages = list(languages) if languages is not None else ["en"] * self.n
        if len(self.languages) != self.n:
            raise ValueError(f"{len(self.languages)} languages for {self.n} documents")
        self.lengths = [len(d) for d in documents]
        self.avgdl = fmean(self.lengths) if self.n and sum(self.lengths) else 1.0
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, tokens in enumerate(documents):
            for term, tf in Counter(tokens).items():
                self.postings.setdefault(term, []).append((i, tf))

    def idf(self, term: str) -> float:
        df = len(self.postings.get(term, ()))
        return log(1.0 + (self.n - df + 0.5) / (df + 0.5))

    def scores(self, terms_by_language: Mapping[str, Iterable[str]]) -> dict[int, float]:
        """Unit index -> score, for units that share a term with the question (each unit scored
        with the question's terms of its own language; each distinct term once)."""
        out: dict[int, float] = {}
        for language, terms in terms_by_language.items():
            for term in set(terms):
                idf = self.idf(term)
                for i, tf in self.postings.get(term, ()):
                    if self.languages[i] != language:
                        continue
                    norm = tf + self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avgdl)
                    out[i] = out.get(i, 0.0) + idf * tf * (self.k1 + 1) / norm
        return out

    def top(self, terms_by_language: Mapping[str, Iterable[str]], k: int, allowed=None) -> list[tuple[int, float]]:
        """The best k (unit index, score), best first; `allowed(i)` filters after scoring."""
        scored = [(i, s) for i, s in self.scores(terms_by_language).items() if allowed is None or allowed(i)]
        scored.sort(key=lambda x: (-x[1], x[0]))
        return scored[:k]


# --------------------------------------------------------------------------- hits


def overlap(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def span_hits(span: tuple[int, int], passage: Sequence[tuple[int, int]], share: float = HIT_SHARE) -> bool:
    """Whether a span (same document and version) hits a passage given as disjoint intervals: the
    overlap is positive and at least `share` of the shorter of the span and the passage."""
    common = sum(overlap(span, p) for p in passage)
    shorter = min(span[1] - span[0], sum(e - s for s, e in passage))
    return common > 0 and common >= share * shorter


def merged(intervals: Iterable[tuple[int, int]], gap: int = 0) -> list[tuple[int, int]]:
    """Sorted union of intervals; two closer than `gap` characters are joined."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1] + gap:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def first_hit_rank(retrieved: Sequence[Span], gold: Sequence[Span], share: float = HIT_SHARE) -> int | None:
    """1-based rank of the first retrieved span that hits a gold span (LegalBench: each gold
    snippet is its own passage), or None."""
    by_file: dict[str, list[tuple[int, int]]] = {}
    for g in gold:
        by_file.setdefault(g.file_path, []).append((g.start, g.end))
    for rank, s in enumerate(retrieved, start=1):
        if any(span_hits((s.start, s.end), [g], share) for g in by_file.get(s.file_path, ())):
            return rank
    return None


HIT_KS = (1, 5, 10)


def hit_figures(rows: Sequence[Mapping[str, Any]], ks: Sequence[int] = HIT_KS) -> dict[str, float]:
    """hit@k and MRR (over the whole retrieved list) of LegalBench per-query rows (runner rows:
    ``retrieved`` and ``gold`` as span dicts), by the rule of :func:`span_hits`."""
    ranks = []
    for row in rows:
        retrieved = [Span(d["file_path"], d["start"], d["end"]) for d in row["retrieved"]]
        gold = [Span(d["file_path"], d["start"], d["end"]) for d in row["gold"]]
        ranks.append(first_hit_rank(retrieved, gold))
    if not ranks:
        return {}
    out = {f"hit@{k}": fmean(1.0 if r is not None and r <= k else 0.0 for r in ranks) for k in ks}
    out["mrr"] = fmean(1.0 / r if r else 0.0 for r in ranks)
    return out


# --------------------------------------------------------------------------- collections


@dataclass(frozen=True)
class FloorDocument:
    """A document version as the floor sees it: text and the metadata its filters read."""

    doc_id: str
    version: str
    text: str
    language: str = "en"
    valid_from: date | None = None
    valid_to: date | None = None
    public: bool = True
    acl: tuple[str, ...] = ()

    def in_force(self, day: date) -> bool:
        return (self.valid_from is None or self.valid_from <= day) and (self.valid_to is None or day < self.valid_to)

    def visible(self, groups: Iterable[str]) -> bool:
        return self.public or bool(set(self.acl) & set(groups))


class FloorIndex:
    """Every document's natural units under one BM25."""

    def __init__(self, documents: Sequence[FloorDocument]):
        self.documents = list(documents)
        self.units: list[Unit] = []
        self.owner: list[int] = []  # unit -> index in documents
        tokens: list[list[str]] = []
        for d_index, doc in enumerate(self.documents):
            for start, end, label in split_units(doc.text):
                self.units.append(Unit(doc.doc_id, doc.version, start, end, label, doc.language))
                self.owner.append(d_index)
                tokens.append(tokenize(doc.text[start:end], doc.language))
        self.languages = sorted({doc.language for doc in self.documents}) or ["en"]
        self.bm25 = BM25(tokens, [u.language for u in self.units])

    def search(self, query: str, k: int, as_of: str | date | None = None, groups: Iterable[str] | None = None
               ) -> list[tuple[Unit, float]]:
        """The best k units for `query`; with `as_of`, only versions in force that day; with
        `groups` (not None), only documents that are public or whose acl names one of them."""
        day = date.fromisoformat(as_of) if isinstance(as_of, str) else as_of
        group_set = None if groups is None else set(groups)

        def allowed(i: int) -> bool:
            doc = self.documents[self.owner[i]]
            return (day is None or doc.in_force(day)) and (group_set is None or doc.visible(group_set))

        terms = {language: tokenize(query, language) for language in self.languages}
        return [(self.units[i], s) for i, s in self.bm25.top(terms, k, allowed)]

    def unit_stats(self) -> dict[str, Any]:
        lengths = [len(u) for u in self.units]
        return {"documents": len(self.documents), "units": len(self.units),
                "unit_chars_mean": round(fmean(lengths)) if lengths else 0,
                "unit_chars_median": round(median(lengths)) if lengths else 0,
                "unit_chars_max": max(lengths, default=0)}


class FloorRetriever:
    """LegalBench spans from the floor (a :class:`runner.Retriever`)."""

    def __init__(self, index: FloorIndex):
        self.index = index

    def retrieve(self, query: str, k: int) -> list[Span]:
        return [Span(u.doc_id, u.start, u.end) for u, _ in self.index.search(query, k)]


def legalbench_documents(data_dir: Path, files: Sequence[Path]) -> list[FloorDocument]:
    """The benchmark's documents (ids as the benchmark names them, all public, English)."""
    from legalsearch.evaluation.legalbench import benchmark_file_path, read_document

    return [FloorDocument(benchmark_file_path(data_dir, p), "1", read_document(p)) for p in files]


# --------------------------------------------------------------------------- gold sets


def _day(value: Any) -> date | None:
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


class GoldPassages:
    """Where a gold passage is, in characters: (doc_id, version) -> section label -> intervals.

    Built from documents loaded by the product's loader (text extraction and sidecar metadata)
    and cut by the structural chunker (the labels the gold sets are written against); used only
    to locate the expected passages, never to retrieve."""

    def __init__(self, labelled: Mapping[tuple[str, str], Mapping[str | None, list[tuple[int, int]]]],
                 lengths: Mapping[tuple[str, str], int]):
        self.labelled = labelled
        self.lengths = lengths

    @classmethod
    def from_parsed(cls, parsed: Sequence[Any]) -> GoldPassages:
        from legalsearch.chunk import chunk_document
        from legalsearch.evaluation.gold import normalize_section

        labelled: dict[tuple[str, str], dict[str | None, list[tuple[int, int]]]] = {}
        lengths: dict[tuple[str, str], int] = {}
        for doc in parsed:
            key = (doc.meta.doc_id, doc.meta.version)
            lengths[key] = len(doc.text)
            by_label: dict[str | None, list[tuple[int, int]]] = {}
            for chunk in chunk_document(doc, GOLD_CHUNKER, max_chars=GOLD_MAX_CHARS):
                if chunk.section:
                    by_label.setdefault(normalize_section(chunk.section), []).append((chunk.char_start, chunk.char_end))
            labelled[key] = {label: merged(spans, gap=4) for label, spans in by_label.items()}
        return cls(labelled, lengths)

    def intervals(self, passage: Any, doc_id: str, version: str) -> list[tuple[int, int]] | None:
        """The passage's intervals in one document version, or None when it is not there."""
        from legalsearch.evaluation.gold import normalize_section

        if passage.doc_id != doc_id or (passage.version is not None and str(passage.version) != str(version)):
            return None
        key = (doc_id, str(version))
        if key not in self.lengths:
            return None
        if passage.section is None:
            return [(0, self.lengths[key])]
        return self.labelled[key].get(normalize_section(passage.section))

    def located(self, passage: Any) -> bool:
        """Whether some loaded version holds the passage (a label no chunk carries is not)."""
        return any(self.intervals(passage, d, v) for d, v in self.lengths)

    def matcher(self):
        """A `score_gold` match function: a hit (with char_start / char_end) is the passage when
        :func:`span_hits` says so."""

        def match(passage: Any, hit: Mapping[str, Any]) -> bool:
            if hit.get("char_start") is None or hit.get("char_end") is None:
                return False
            where = self.intervals(passage, str(hit.get("doc_id")), str(hit.get("version")))
            return bool(where) and span_hits((int(hit["char_start"]), int(hit["char_end"])), where)

        return match


def floor_documents(parsed: Sequence[Any], public_if_no_acl: bool = False) -> list[FloorDocument]:
    """FloorDocuments of documents loaded by the product's loader (`ParsedDocument`s); with
    `public_if_no_acl`, read as `ingest --public` reads them (`DocumentMeta.public_by_default`)."""
    metas = [doc.meta.public_by_default(public_if_no_acl) for doc in parsed]
    return [FloorDocument(doc.meta.doc_id, doc.meta.version, doc.text, doc.meta.language,
                          _day(doc.meta.valid_from), _day(doc.meta.valid_to), bool(meta.public),
                          tuple(meta.acl)) for doc, meta in zip(parsed, metas, strict=True)]


class FloorGoldSearcher:
    """Gold questions through the floor, honouring each item's as_of and groups (a
    :class:`runner.GoldSearcher`; hits shaped like the CLI's, with the unit's characters)."""

    def __init__(self, index: FloorIndex):
        self.index = index

    def search(self, item: Any, k: int) -> list[dict[str, Any]]:
        hits = []
        for rank, (unit, score) in enumerate(self.index.search(item.query, k, item.as_of, item.groups or ()), start=1):
            hits.append({"rank": rank, "chunk_id": f"{unit.doc_id}:{unit.version}:u{unit.start}",
                         "doc_id": unit.doc_id, "version": unit.version, "section": unit.label,
                         "char_start": unit.start, "char_end": unit.end, "score": score, "via": "retrieval"})
        return hits


def load_corpus(paths: Sequence[Path], manifest: Path | None = None) -> tuple[list[Any], list[str]]:
    """Load a gold set's corpus with the product's loader: (ParsedDocuments, failures as text)."""
    from legalsearch.load import discover_documents, load_documents

    batch = load_documents(discover_documents([Path(p) for p in paths], manifest=manifest))
    return list(batch.documents), [f"{e.path}: {e.error}" for e in batch.errors]


# --------------------------------------------------------------------------- runs


def floor_legalbench(data_dir: Path, files: Sequence[Path], queries: Sequence[Any], ks: Sequence[int],
                     budgets: Sequence[int], progress: bool = True) -> tuple[dict, list[dict], dict[str, Any]]:
    """The floor over the benchmark documents `files` (the harness's corpus scope): (results,
    per-query rows, index info), shaped like one configuration of `harness.evaluate_legalbench`."""
    import time

    from legalsearch.evaluation.runner import run_legalbench

    started = time.perf_counter()
    index = FloorIndex(legalbench_documents(data_dir, files))
    built = time.perf_counter() - started
    results, rows = run_legalbench(queries, FloorRetriever(index), ks, budgets, progress)
    info = {**index.unit_stats(), "timings_s": {"build": round(built, 1),
                                                "queries": round(time.perf_counter() - started - built, 1)}}
    return results, rows, info


def floor_gold(items: Sequence[Any], parsed: Sequence[Any], k: int = 10, progress: bool = True,
               public_if_no_acl: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """The floor on a gold set over its loaded corpus: (`score_gold` output, info). The info
    says how many expected passages the gold labels locate in the loaded documents (one that is
    not located can be found by neither the floor nor a configuration) and how many documents are
    public (`public_if_no_acl`: as `ingest --public` read them)."""
    from legalsearch.evaluation.gold import score_gold
    from legalsearch.evaluation.runner import run_gold

    documents = floor_documents(parsed, public_if_no_acl)
    index = FloorIndex(documents)
    passages = GoldPassages.from_parsed(parsed)
    results = run_gold(items, FloorGoldSearcher(index), k=k, progress=progress)
    scores = score_gold(items, results, match=passages.matcher())
    expected = [p for item in items for p in item.expected]
    missing = sorted({f"{p.doc_id}#{p.section}" for p in expected if not passages.located(p)})
    info = {**index.unit_stats(), "expected_passages": len(expected), "not_located": missing,
            "public_documents": sum(d.public for d in documents), "documents": len(documents)}
    return scores, info


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.2f}"


def legalbench_floor_table(rows_by_name: Mapping[str, Sequence[Mapping[str, Any]]], queries: Sequence[Any],
                           seed: int = 13) -> str:
    """Markdown: every configuration (the floor among them) on all questions and on the dev and
    held-out halves: P / R / DRM mean over k, R@2000 / 8000 characters (averaged per sub-corpus,
    as the benchmark does), and hit@1 / 5 / 10 and MRR by :func:`hit_figures` (over all questions,
    each weighing the same)."""
    from legalsearch.evaluation.legalbench import split_queries
    from legalsearch.evaluation.runner import AVERAGE, aggregate_rows

    dev, held_out = split_queries(queries, 0.5, seed)
    parts = [("all", {q.query_id for q in queries}), ("dev", {q.query_id for q in dev}),
             ("held-out", {q.query_id for q in held_out})]
    header = ["configuration", "questions", "P@mean", "R@mean", "DRM@mean", "R@2000 chars", "R@8000 chars",
              "hit@1", "hit@5", "hit@10", "MRR"]
    lines = ["| " + " | ".join(header) + " |", "|---|---|" + "---:|" * (len(header) - 2)]
    for part, ids in parts:
        for name, rows in rows_by_name.items():
            part_rows = [r for r in rows if r["query_id"] in ids]
            if not part_rows:
                continue
            avg = aggregate_rows(part_rows)[AVERAGE]
            hits = hit_figures(part_rows)
            cells = [name, f"{part} ({len(part_rows)})"]
            cells += [_pct(avg.get(m)) for m in ("precision@mean", "recall@mean", "drm@mean", "recall@budget2000",
                                                 "recall@budget8000")]
            cells += [_pct(hits.get(m)) for m in ("hit@1", "hit@5", "hit@10", "mrr")]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _slice_figures(rows: Sequence[Mapping[str, Any]]) -> tuple[float, float, float, float]:
    """hit@1 / hit@5 / hit@10 / MRR of scored per-item rows of `score_gold` (by first_rank)."""
    ranks = [r["first_rank"] for r in rows]
    return (fmean(1.0 if r == 1 else 0.0 for r in ranks), fmean(1.0 if r and r <= 5 else 0.0 for r in ranks),
            fmean(1.0 if r and r <= 10 else 0.0 for r in ranks), fmean(1.0 / r if r else 0.0 for r in ranks))


def gold_floor_markdown(scores: Mapping[str, Mapping[str, Any]], floor: str = FLOOR_NAME) -> str:
    """Markdown: hit@1 / 5 / 10 / MRR (%) of the floor and of every configuration, over all scored
    items, by language, query type and failure class; "**below**" marks a slice where a configuration is
    under the floor on hit@5, hit@10 or MRR."""
    if floor not in scores:
        return ""
    per = {name: {r["id"]: r for r in s.get("per_item", ()) if r.get("scored")} for name, s in scores.items()}
    base = per[floor]
    slices: list[tuple[str, list[str]]] = [("all", list(base))]
    for key, label in (("language", "language"), ("type", "type"), ("class", "class")):
        values = sorted({r[key] for r in base.values() if r.get(key)})
        slices += [(f"{label} {v}", [i for i, r in base.items() if r.get(key) == v]) for v in values]
    names = [n for n in scores if n != floor]
    header = ["slice", "n", f"{floor} h@1 / h@5 / h@10 / MRR"] + [f"{n} h@1 / h@5 / h@10 / MRR" for n in names]
    lines = ["| " + " | ".join(header) + " |", "|---|---:|" + "---|" * (len(header) - 2)]
    for label, ids in slices:
        f = _slice_figures([base[i] for i in ids])
        cells = [label, str(len(ids)), " / ".join(f"{100 * x:.1f}" for x in f)]
        for name in names:
            rows = [per[name][i] for i in ids if i in per[name]]
            if len(rows) != len(ids):
                cells.append("–")
                continue
            c = _slice_figures(rows)
            below = any(c[j] < f[j] - 1e-9 for j in (1, 2, 3))
            cells.append(" / ".join(f"{100 * x:.1f}" for x in c) + (" **below**" if below else ""))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
