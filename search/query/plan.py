"""Planning a search: everything decided before the fused query runs, in one record that
`search`, `explain` and the evaluation share (they plan through `SearchService.plan`).

The pure decisions live here: which documents routing may restrict to, how many candidates
to fetch, whether the query needs a vector.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from legalsearch.query.identifiers import QueryRef
from legalsearch.query.models import Filters, SearchRequest


@dataclass(frozen=True)
class SearchPlan:
    """A request made concrete: identifiers parsed, filters (with routing applied), the query
    vector, the request body and the fusion pipeline that will rank it."""

    request: SearchRequest
    meta: dict                      # the index's _meta (embedder, chunker, ...)
    refs: tuple[QueryRef, ...]      # identifiers the query cites
    filters: Filters                # as searched: the request's filters + routed doc_keys
    routing: str                    # effective routing: off | filter | boost | prior
    routed: tuple[str, ...]         # doc_keys routing ranked first
    vector: list[float] | None
    body: dict                      # the search request body (a hybrid query or a single one)
    pipeline: tuple[str, dict] | None  # (name, body) of the fusion pipeline; None for one list
    timings: dict[str, float] = field(default_factory=dict)
    user: str | None = None         # the verified caller (search.security.principal), for the log
    prior: float = 0.0              # routing prior weight applied to the fused list (0: none)
    kinds: tuple[str, ...] = ()     # the fused lists, in body order: bm25, knn, identifier, title
    chunks_index: str = ""          # the concrete indices searched (one generation: the meta's)
    docs_index: str = ""
    warnings: tuple[str, ...] = ()  # e.g. a question too long for BM25, shortened
    named_by: tuple[str, ...] = ()  # the question's rare words that named the routed documents
    focused: str | None = None      # what was searched inside the one named document (focus_named)
    current: tuple[str, float] | None = None  # (today, weight): no as_of, text no longer in force ranks lower
    open_places: int = 0            # of the top k, places left open to every document (open_places)
    across: tuple[str, dict] | None = None  # (language, body): a routed document's language searched alone
    across_after: int | None = None  # the places its chunks come after (language_places); None: the last ones
    across_docs: tuple[str, ...] = ()  # the documents it searches, in the routing prior's order; (): `routed`
    glossary: tuple[str, tuple[str, ...]] | None = None  # (language, words): what BM25 read of the glossary
    recitals: float = 0.0           # taken off a recital's fused score (recitals_prior; 0: none)
    unsure: bool = False            # routing's lists disagreed on the first document (routing_agreed)

    @property
    def index(self) -> str:
        return self.chunks_index or self.request.index


MAX_BM25_WORDS = 80
"""Lucene refuses a query of more than 1024 clauses (maxClauseCount): BM25 over 8 fields (the
routing search: 11, with the document profile) makes one clause per field and word, and a
~6,000-character question fails with too_many_nested_clauses (measured: 130 distinct words
already failed the 9-field routing search). So BM25 reads at most this many words of a
question: its distinct words, in order (11 x 80 = 880 clauses, room left for the filters and
the clause-title list)."""


MAX_QUERY_REFS = 16
"""Identifiers of a question used for the exact section-label sub-query (3 clauses each)."""


def bm25_text(query: str) -> tuple[str, str | None]:
    """The text BM25 searches, and a warning when a long question had to be shortened."""
    pieces = query.split()
    if sum(_words(p) for p in pieces) <= MAX_BM25_WORDS:
        return query, None
    kept, seen, words = [], set(), 0
    for piece in pieces:
        key = piece.strip(".,;:!?()[]{}\"'«»“”").lower()
        if not key or key in seen:
            continue
        if words + _words(piece) > MAX_BM25_WORDS:
            break
        seen.add(key)
        kept.append(piece)
        words += _words(piece)
    warning = (f"the question is long ({len(query)} characters, {len(pieces)} words): BM25 searched its first "
               f"{len(kept)} distinct words (OpenSearch allows 1024 query clauses); k-NN embeds it whole. "
               "Shorten the question for a full match.")
    return " ".join(kept), warning


def _words(piece: str) -> int:
    # what the standard tokenizer may split a whitespace-separated piece into (an upper bound)
    return max(1, len(re.findall(r"\w+", piece)))


def effective_routing(routing: str, refs) -> str:
    """"auto" restricts the search to the routed documents unless the query cites a section
    ("s.21A", "clause 14.3", "Schedule 1"): then the exact label decides where to look, and
    cutting the search down to the documents whose title and summary match best could cut away
    the one that holds the section (measured on the gold set). "prior" mode (every document
    searched, the routed ones preferred by the routing prior) is not part of "auto" for cited
    sections: a wrongly routed document then outranks the cited section, and the identifier and
    cross-reference questions of the gold sets gain nothing. A question that cites a section and
    names its document by a rare word ("articolo 13.2 licenza Kestrel") is still restricted to the
    documents it names (`SearchService.plan`)."""
    if routing != "auto":
        return routing
    return "off" if any(not r.external for r in refs) else "filter"


def needs_vector(req: SearchRequest) -> bool:
    """k-NN needs the query vector, and so does routing (it ranks documents by vector too)."""
    return req.mode in ("hybrid", "knn") or req.routing.mode != "off"


def candidate_size(req: SearchRequest, prior: float = 0.0, places: int = 0) -> int:
    """How many fused candidates to fetch: k, or more when a reranker or a caller wants a deeper
    list, or when the routing prior re-sorts them (twice k, so a lower-fused chunk of the best
    document can move up into the top k). A reranker's shortlist is the top half of the fused list
    (twice its depth): the top of a longer fused list is steadier, and then the shortlist is the
    same whatever k asks for (measured on LegalBench: k = 10 and k = 64 rerank nearly the same
    shortlist). With places left open to unrouted documents (`open_places`), every document is
    searched and four times k are fetched, so that the routed documents still fill their places. (The
    current-text prior re-sorts only what is fetched: the versions of one section come together.)
    `rerank: auto` fetches no more: only a list that lies in one document is searched again, deeper
    (`service.auto_rerank`)."""
    return max(req.k, req.experimental.candidates or 0, 2 * req.rerank.depth if req.rerank.method not in ("off", "auto") else 0,
               min(2 * req.k, 400) if prior else 0, min(4 * req.k, 400) if places else 0)


def routing_prior(req: SearchRequest, routing: str, routed: tuple[str, ...]) -> float:
    """The weight of the routing prior for this plan: when routing restricted the search to
    more than one document (or ranked them without restricting: "prior"), and the fused
    scores are min-max normalized (hybrid, normalization fusion): the prior is in those units
    (0..1), and would swamp reciprocal-rank scores (~0.016) or mean little to raw BM25 ones."""
    if not min_max_fused(req):
        return 0.0
    if routing == "prior" or (routing == "filter" and len(routed) > 1):
        return req.routing.prior
    return 0.0


def routing_agreed(scores: Sequence[float], lists: int, rank_constant: int, subject_first: str | None,
                   first: str | None) -> bool:
    """Whether routing's lists agree on its first document: it is first in every list it was ranked
    by (its reciprocal-rank score is `lists` / (rank_constant + 1): BM25 within its language, and
    k-NN) and, when there is a subject list, first there too (`subject_first`). Rank fusion of two
    lists over a few documents carries almost no margin (first by BM25 and second by k-NN, or the
    other way round, are one score), so agreement is the margin it has: three Acts on neighbouring
    subjects are ordered by near ties (round 12), and a prior that follows a tie decides the ranking
    against the chunks' own evidence. None for `first`: nothing routed (agreed)."""
    if first is None or not scores:
        return True
    if abs(scores[0] - lists / (rank_constant + 1)) > 1e-6:
        return False
    return subject_first is None or subject_first == first


def look_alikes(routed: Sequence[str], kinds: Mapping[str, tuple[str | None, str | None]]) -> bool:
    """Whether the routed documents are look-alikes: more than one, all of one type and one language
    (`kinds`: doc_key -> (doc_type, language), each known). Among them the chunks' own scores are
    comparable evidence (one BM25 language, one embedding space), so when routing's lists disagree
    the chunks may decide; across languages or kinds they are not, and the prior's order stands."""
    found = [kinds.get(key) for key in routed]
    return len(found) > 1 and all(kind and kind[0] and kind[1] for kind in found) and len(set(found)) == 1


def unsure_prior(req: SearchRequest, prior: float, agreed: bool) -> float:
    """The routing prior's weight: when routing's lists disagree on the first of look-alike
    documents (`routing_agreed`, `look_alikes`), `routing_unsure_prior` (never more than the
    prior); else the prior."""
    return prior if agreed else min(prior, req.routing.unsure_prior)


def apply_routing_prior(ranked: list[tuple[dict, float]], routed: tuple[str, ...], weight: float
                        ) -> list[tuple[dict, float]]:
    """Add `weight` x (n - i) / n to the fused score of a chunk whose document was routed i-th of
    n (1 for the first; a document routing did not rank gets nothing) and re-sort, ties by the
    fused order: chunks of the document that best matches the question by title, parties and
    summary come first, unless another document's chunk is better by more than the difference
    (look-alike NDAs: the clause of the NDA the question names, not the same clause of its
    sibling)."""
    if not weight or not routed:
        return ranked
    position = {key: i for i, key in enumerate(routed)}
    n = len(routed)

    def bonus(source: dict) -> float:
        i = position.get(source.get("doc_key"))
        return 0.0 if i is None else weight * (n - i) / n

    return _resorted(ranked, bonus)


LANGUAGE_PLACES_AFTER = 7
"""The places of the top k that stay the fused list's whatever `routing_cross_language` asks."""

LANGUAGE_PLACES_SUBJECT_AFTER = 1
"""The places that stay the fused list's when the question's subject points to a document in the
other language (`subject_near`, `routing_subjects`): its language's places come right after them
(2 to 4 of 10) instead of last. The fused list's first keeps its place: on the dev halves, places
1-3 moved 26 questions up and 4 same-language ones from 1st to 4th; places 2-4 moved 23 up (from
places 3-5) and one down (2nd -> 3rd)."""


def cross_language_places(req: SearchRequest) -> int:
    """How many of the top k `language_places` gives another language: `routing_cross_language`,
    never one of the first `LANGUAGE_PLACES_AFTER` (3 of 10, 1 of 8, none of 5: with k = 3, one
    place of three took the second clause an Italian question asks about, for an English one)."""
    return max(0, min(req.routing.cross_language, req.k - LANGUAGE_PLACES_AFTER))


def across_documents(routed: Sequence[str], subjects: Sequence[str], language_of: Mapping[str, str | None],
                     language: str, size: int) -> tuple[str, ...]:
    """The documents another language is searched alone over (`SearchPlan.across_docs`), in the
    order its routing prior follows: the first `size` of that language in the subject list (the
    question's vector against each document's profile: the one signal that reads across languages),
    then routing's documents of that language. Routing's BM25 reads the question's own words, so an
    Italian question keeps routing's Italian contracts first and, for English, whichever English
    document shares a word with it; the subject list's English documents are those the question is
    about (round 8 dev: the right document in the top 10 for 34 of 40 cross-language questions, from
    25). () without a subject list: routing's documents, as routed."""
    if not subjects:
        return ()
    mine = [key for key in subjects if language_of.get(key) == language][:size]
    return tuple(dict.fromkeys([*mine, *(key for key in routed if language_of.get(key) == language)]))


OFFICIAL_NUMBER = re.compile(r"(?<![\w/.])\d{1,4}/\d{1,5}(?![\w/])")
"""An official number in a title: "Regulation (EU) 2026/877", "Regolamento (UE) 2026/877", "S.I.
2021/388", "D.Lgs. 196/2003" (a number, a slash, a number; not a date such as 14/03/2025)."""


def edition(source: Mapping) -> tuple[str, str, frozenset[str]]:
    """What identifies a document's text whatever its language (`translations`): its type, the day it
    applies from and the official numbers in its title."""
    return (source.get("doc_type") or "", str(source.get("valid_from") or ""),
            frozenset(OFFICIAL_NUMBER.findall(source.get("title") or "")))


def translations(a: tuple[str, str, frozenset[str]] | None, b: tuple[str, str, frozenset[str]] | None) -> bool:
    """Whether two documents (their `edition`, of two languages) are one text in two languages: the
    same type, the same day in force and an official number in common ("Regulation (EU) 2026/877"
    and "Regolamento (UE) 2026/877", both of 1 March 2027). EU law is published like that in every
    official language; two contracts between the same parties share no official number."""
    return bool(a and b and a[0] and a[2] & b[2] and a[0] == b[0] and a[1] == b[1])


def without_translations(candidates: Sequence[str], routed: Sequence[str], language_of: Mapping[str, str | None],
                         language: str, editions: Mapping[str, tuple | None]) -> tuple[str, ...]:
    """The documents of `language` to search alone (`candidates`) less those whose own text in
    another language routing keeps (`translations`): that text is searched already, and in a
    corpus that holds a regulation in English and Italian, its Italian articles searched alone took
    places 3-5 (before places 2-4) from the English articles an English question asked about (results.md, "one text in
    two languages")."""
    own = [editions.get(key) for key in routed if language_of.get(key) and language_of.get(key) != language]
    return tuple(key for key in candidates if not any(translations(editions.get(key), other) for other in own))


def subject_near(scored: Sequence[tuple[float, str | None]], language: str, margin: float) -> bool:
    """Whether the question's subject points to a document of `language`: the best of that
    language in the subject list (`scored`: cosine, language; best first) is within `margin` of
    the list's first. With the multilingual e5, the same text in the other language scores about
    0.01 lower (a regulation in English and Italian); a margin of 0.02 moved 14 dev-half questions
    up (8th -> 3rd, mostly) and one down (3rd -> 5th), where 0.04 and more cost five same-language
    questions their place in the top 5 (results.md, "within a margin")."""
    if not scored:
        return False
    best = max((score for score, lang in scored if lang == language), default=None)
    return best is not None and best >= scored[0][0] - margin


def language_places_after(req: SearchRequest, subject_in_language: bool) -> int | None:
    """Where another language's places start (`language_places`' `after`): right after the first
    `LANGUAGE_PLACES_SUBJECT_AFTER` when the question's subject points to that language
    (`subject_near`: the multilingual embedding, the only bridge between the languages, says the
    question is about a document in it; with the subject list's first alone, on the dev halves 8
    questions ranked their document higher, 6 of them 8th -> 3rd, and none lower; places 2-4 since),
    else None (the last places)."""
    if not subject_in_language:
        return None
    return min(LANGUAGE_PLACES_SUBJECT_AFTER, req.k - cross_language_places(req))


LANGUAGE_PLACE = "_language_place"
"""The key `language_places` sets on the copy of a source it placed: the language searched alone
(`Hit.language_place`; its score is from that search, not the fused one)."""


def language_places(ranked: list[tuple[dict, float]], alone: list[tuple[dict, float]], places: int, k: int,
                    after: int | None = None, language: str | None = None) -> list[tuple[dict, float]]:
    """The last `places` of the top k (or the `places` after the first `after`) given to the best
    chunks of another language fused alone (`alone`, with the routing prior) that those first
    places of `ranked` do not hold; then the rest of `ranked`. Each placed chunk is a copy of its
    source marked with `language` (`LANGUAGE_PLACE`). For a routed document in another language than the question's ("I
    already bought products from this company: may it email me offers?" asked of an Italian
    privacy notice): a BM25 cannot match across languages and a multilingual embedding puts a
    passage in the question's own language closer, so in one list fused by min-max its chunks sit
    below every clause of the question's language, whatever the routing prior adds. Searched in
    their language alone they are fused against each other, and the best of them are shown. (Their
    scores in place of that language's in the fused list, when that document is routed first,
    put them first on the dev halves and cost a regulation in two languages 2 of 30 held-out
    questions at hit@5: the other language's version of the same article came first.)"""
    if not places or not alone:
        return ranked
    head = ranked[:max(0, k - places if after is None else min(after, k - places))]
    chosen = [({**src, LANGUAGE_PLACE: language}, score)
              for src, score in _placed(head, alone)[len(head):len(head) + places]]
    return _placed(head, chosen, ranked[len(head):])


def _placed(first: list[tuple[dict, float]], *rest: list[tuple[dict, float]]) -> list[tuple[dict, float]]:
    """`first`, then each of `rest` in turn without the chunks already placed: a list whose first
    places were given out (open places, another language's places), the rest in its own order."""
    placed = list(first)
    taken = {src.get("chunk_id") for src, _ in placed}
    for ranked in rest:
        for src, score in ranked:
            if src.get("chunk_id") not in taken:
                placed.append((src, score))
                taken.add(src.get("chunk_id"))
    return placed


def cited_prior_docs(ranked: list[str], carrying: dict[str, str]) -> list[str]:
    """The documents that get the routing prior for a cited section of no named document:
    `ranked` is routing's order by the question's subject, `carrying` the documents (doc_key ->
    doc_type) that hold a cited label. The document routing ranks first (its versions that carry
    the label, in routing's order), when it carries the label and is the only document of its
    kind that does:

    * a statute's section 21 against "21. Notices" of three NDAs and an MSA is a choice of
      subject, which routing makes well;
    * where routing's first document does not carry the label, the question is about that
      document and cites a section of another ("How does our internal note use the data
      protection cap to get around clause 14.3?"): no prior (the note's paragraph fell from 5th
      out of the top 10 when the MSA, which carries 14.3, got it; sample gold set);
    * "art. 5" of two Italian contracts is a choice between look-alikes, which the label and the
      question's words make better than a ranking by title and summary (the supply contract's
      art. 5 fell from 1st to 3rd when the prior chose; sample gold set).

    None otherwise."""
    if not ranked:
        return []
    doc_id = ranked[0].rsplit(":", 1)[0]
    versions = [key for key in ranked if key in carrying and key.rsplit(":", 1)[0] == doc_id]
    if not versions:
        return []
    kind = carrying[versions[0]]
    if any(t == kind and key.rsplit(":", 1)[0] != doc_id for key, t in carrying.items()):
        return []
    return versions


def min_max_fused(req: SearchRequest) -> bool:
    """Whether the fused scores are min-max units (hybrid, normalization fusion), where a prior of
    0.5 means half the score range."""
    return req.mode == "hybrid" and req.fusion.technique == "normalization" and req.experimental.normalization == "min_max"


def _resorted(ranked: list[tuple[dict, float]], adjust) -> list[tuple[dict, float]]:
    """`ranked` with `adjust(source)` added to each fused score, re-sorted; ties keep the fused order."""
    rescored = [(src, score + adjust(src), i) for i, (src, score) in enumerate(ranked)]
    return [(src, score) for src, score, _ in sorted(rescored, key=lambda x: (-x[1], x[2]))]


def current_prior(req: SearchRequest, today: str) -> tuple[str, float] | None:
    """(today, weight) when a search with no `as_of` should rank the text in force today above
    text that is not (`apply_current_prior`); None when the request gives a day (the filters then
    keep the versions in force on it), turns it off, or the scores are not min-max units."""
    if req.filters.as_of is not None or not req.fusion.current_prior or not min_max_fused(req):
        return None
    return today, req.fusion.current_prior


def not_in_force(source: dict, today: str) -> bool:
    """Whether a chunk's text is not in force on `today` (ISO day): no longer (valid_to <= today)
    or not yet (valid_from > today); the convention of the `as_of` filter. The bounds may be ISO
    strings (a chunk's source) or dates (a hit)."""
    valid_to, valid_from = source.get("valid_to"), source.get("valid_from")
    return bool(valid_to and str(valid_to)[:10] <= today) or bool(valid_from and str(valid_from)[:10] > today)


def apply_current_prior(ranked: list[tuple[dict, float]], current: tuple[str, float] | None
                        ) -> list[tuple[dict, float]]:
    """Take `weight` off the fused score of every chunk whose text is not in force today and
    re-sort, ties by the fused order: with no date asked, the 2026 text of a section comes before
    its 2019 text, which is still found (a repealed section, a question about the old law) but no
    longer outranks today's; so does a contract that is signed but not yet in force."""
    if not current or not any(not_in_force(src, current[0]) for src, _ in ranked):
        return ranked
    today, weight = current
    return _resorted(ranked, lambda src: -weight if not_in_force(src, today) else 0.0)


_RECITALS_HEADING = re.compile(r"(?i)^(?:whereas|recitals|background|premess[oe]|considerando)\b")


def recitals_prior(req: SearchRequest) -> float:
    """The weight of the recitals prior for this request: in min-max units, as the other priors."""
    return req.fusion.recitals_prior if min_max_fused(req) else 0.0


def apply_recitals_prior(ranked: list[tuple[dict, float]], weight: float) -> list[tuple[dict, float]]:
    """Take `weight` off the fused score of a chunk of recitals (its heading path opens with
    "Whereas", "considerando quanto segue", "Premesso", "BACKGROUND"): the reasons of an act or a
    contract, which restate every rule in a few words, after the operative provision that is nearly
    as close. A judgment's "Background" is its facts, a heading like any other (the parser reads it
    so), and keeps its score."""
    if not weight:
        return ranked

    def is_recital(source: dict) -> bool:
        path = source.get("heading_path") or []
        return bool(path) and source.get("doc_type") != "judgment" and bool(_RECITALS_HEADING.match(path[0]))

    if not any(is_recital(src) for src, _ in ranked):
        return ranked
    return _resorted(ranked, lambda src: -weight if is_recital(src) else 0.0)


# ----------------------------------------------------------------- what documents are about

MAX_SUBJECT_DOCS = 300
"""The subject list of routing (`SearchService.subject_ranking`) reads every document's profile
the caller may see in one request and compares them in Python: up to this many documents (a
larger registry is ranked without it)."""


def subject_text(source: dict) -> str:
    """What a document is about, as the subject list embeds it: its title, its type and its
    profile (the type's names in both languages, the headings of its units, its purpose; see
    search.summarize.profile). The document vector of the registry embeds the title, parties and
    summary, which name a document ("Mutual NDA - Acme / Globex") but rarely say what it covers:
    "Can my child sign up for the app?" reads nothing of a privacy notice's "Children" section
    there, nor "deposit rules before a section 21 notice" of a Housing Act's "Tenancy deposit
    requirements"."""
    parts = [source.get("title") or "", (source.get("doc_type") or "").replace("_", " "), source.get("profile") or ""]
    return "\n".join(p for p in parts if p)


def with_subject(routed: list[str], subjects: list[str]) -> list[str]:
    """Routing's documents, and after them the first document of the subject list when routing
    left it out: one more place, last (the smallest routing prior), so that the document the
    question's subject points to is always searched, and routing's own places, which the engine's
    lists and the names decide, are never taken from it. (As a list of the rank fusion, in full or
    at half share, the subject list took routing places from the right document: a document's
    outline also lists the clause topics every contract has, "Disputes", "Law and forum", so
    "Which court handles disputes under the warehouse lease?" ranked the distribution agreement's
    outline first; measured on the round-3 gold set, docs/results.md.)"""
    if not subjects or subjects[0] in routed:
        return list(routed)
    return [*routed, subjects[0]]


# ----------------------------------------------------------------- documents the question names

MAX_NAMING_WORDS = 40
"""Distinct question words whose document frequency routing asks for (one aggregation each)."""

NAMING_SHARE = 0.03
"""A word names documents when at most this share of them (or as many as routing searches, at
least 2) carry it: "Seeed", "FNHA", "Kestrel", not "Non-Disclosure", "Agreement", "Receiving"."""

_WORD = re.compile(r"[^\W_](?:[\w&.'’-]*[^\W_])?")
_POSSESSIVE = re.compile(r"['’]s$")
_PERCENT = re.compile(r"\s*(?:%|per\s*cent\b|percent\b|per\s*cento\b)", re.IGNORECASE)
"""What follows a number given as a percentage (`question_words`: an amount names nothing)."""
_AMOUNT = re.compile(r"\d[\d.,]*(?:-(?!(?:bis|ter|quater|quinquies|sexies|septies|octies)$)[a-z]+)+")
"""A number joined to the words of its unit ("15-year-old", "16-week", "30-day"; an amount too),
not to the Latin suffix of an inserted article ("1-bis", "3-bis": labels, parse.numbering)."""
_CITING = re.compile(r"(?:^|[^\w-])([A-Za-z][\w.-]*)[ \t]*$")
"""The word right before a number in the question ("section" of "section 13", "subsection" of
"subsection 12(1)")."""
_CITING_MORE = frozenset({"sub-section", "sub-sections", "subsections", "subparagraph", "subparagraphs",
                          "sub-paragraph", "sub-paragraphs", "sub-clause", "sub-clauses", "subclauses"})
"""Citation words beyond analyzers/function_words.json's, before a label only (`question_words`)."""
_ELISION = re.compile(r"^(?:l|un|dell|all|dall|nell|sull|coll|d|c|quest|quell|tutt)['’](?=\w)", re.IGNORECASE)
"""An Italian article or preposition elided onto a word ("l'Art.", "dell'Agente"): not part of it."""


@cache
def function_words() -> frozenset[str]:
    """English and Italian function words (analyzers/function_words.json, from spaCy's stop-word
    lists): "does", "what", "our", "quale", "entro"... never name a document."""
    return frozenset(w for lang in ("en", "it") for w in _word_lists()[lang])


@cache
def citation_words() -> frozenset[str]:
    """The words of legal citations and document structure, both languages ("art", "c.c",
    "comma", "Section", "Allegato"; analyzers/function_words.json): never a name, in capitals or
    not."""
    return frozenset(_word_lists()["citation"])


@cache
def _word_lists() -> dict:
    return json.loads(resources.files("legalsearch.analyzers").joinpath("function_words.json").read_text(encoding="utf-8"))


def question_words(query: str) -> list[str]:
    """The words of the question that may name a document (possessives cut, >= 2 characters,
    distinct, in order). Whether one does is decided by the corpus (`naming_words`), not by a list
    of names: "Tecnoluce", "CEII" and "Seeed" are words no dictionary holds. What decides what
    cannot be a name:

    * a function word of either language ("Does", "our", "Quale"; analyzers/function_words.json),
      unless, in a question that mixes cases, it is written in capitals ("US", "IT") or with a
      capital where no sentence starts (the app 'Consider "Keep"'s privacy policy');
    * a word of legal citations ("art", "c.c", "comma", "Section", "Allegato"), however written;
      an elided Italian article is cut ("l'Agente" -> "Agente");
    * where the question mixes cases, a word written without a capital or a digit: names are
      written "Kestrel", "CEII", "S.p.A", "KR-Vision"; "pagamenti", "pose-estimation" and
      "workout" are not names even where a small corpus makes them rare. A question typed in one
      case keeps every word but the function words;
    * the plain number a citation word gives ("13" of "section 13", "12" of "subsection 12(1)",
      "7" of "art. 7"): a unit most documents have, which a title or an opening may also carry by
      chance ("[12th March, 2021.]" named an Act for "subsection 12(1)" of another); an inserted
      unit's label ("1751-bis", "12A", "8-bis") is rare and still names;
    * a number given as a percentage ("15%", "150 per cent", "30 per cento"): an amount, which a
      document's title, parties or summary may carry by chance (an address, a date) and which
      then named that document alone (round 6 topics: "more than 15% short of the yearly minimum
      target" was routed to a lease whose summary carries a 15), and a number joined to its unit
      ("My 15-year-old wants to use the garden app", "a 30-day notice"), which named the two
      documents whose openings carry a 15 and the words "year" and "old".
    """
    mixed = written_like_names(query)
    stop, cited = function_words(), citation_words()
    seen: dict[str, str] = {}
    for m in _WORD.finditer(query):
        word = _POSSESSIVE.sub("", _ELISION.sub("", m.group(0)))
        key = word.lower()
        if len(word) < 2 or key in seen or key in cited or (word.isdigit() and _PERCENT.match(query, m.end())) \
                or _AMOUNT.fullmatch(word) or (word.isdigit() and _cites(query[:m.start()], cited)):
            continue
        if mixed and not any(c.isupper() or c.isdigit() for c in word):
            continue
        if key in stop and not (mixed and (word.isupper() or (word[0].isupper() and not _opens_sentence(query, m.start())))):
            continue
        seen[key] = word
    return list(seen.values())[:MAX_NAMING_WORDS]


def _cites(before: str, cited: frozenset[str]) -> bool:
    """Whether `before` ends with a citation word, so that the number after it is a label."""
    found = _CITING.search(before)
    return found is not None and (found.group(1).lower().rstrip(".") in cited or found.group(1).lower() in _CITING_MORE)


def written_like_names(query: str) -> bool:
    """Whether the question mixes cases, so that its naming words are written like names
    ("Kestrel", "CEII"); typed in one case, any rare word may name ("liability")."""
    return any(c.islower() for c in query) and any(c.isupper() for c in query)


def _opens_sentence(text: str, start: int) -> bool:
    """Whether the word at `start` opens the text or a sentence (after . ? ! ; : or a line break,
    quotes and brackets aside): its capital says nothing there."""
    before = text[:start].rstrip(" \t\"'“”‘’«»([")
    return not before or before[-1] in ".?!;:\n"


def naming_words(df: dict[str, tuple[int, ...]], documents: int, size: int = 2) -> list[str]:
    """The words rare enough to name a document among `documents`; `df`: word -> how many
    documents carry it, read through each analyzer language. A word that no document carries in
    one language's reading is that language's stop word ("the", "il") and names nothing. Rare means
    at most max(2, `size`, 3 % of the documents): a word that three documents of a small corpus
    carry (an NDA, a licence and a note about one counterparty) still narrows routing to the
    `size` = 3 documents it searches anyway."""
    limit = max(2, size, round(NAMING_SHARE * documents))
    return [w for w, counts in df.items() if min(counts) >= 1 and max(counts) <= limit and max(counts) < documents]


_CLAUSE_END = re.compile(r"(?<=[;:])\s+")


_NAME_GAP = re.compile(r"[ \t]{2,}|(?<=\s)['’]s\b")
"""What a taken-out name leaves: a run of spaces, or its possessive ending."""


def focus_question(query: str, naming: list[str]) -> str:
    """The question as searched inside the one document its names chose (`SearchRequest.focus_named`):
    without the clauses that name the document ("Consider the NDA between CEII and NDA; Does the
    document ..." -> "Does the document ..."), or, where no clause of its own names it, without the
    naming words ("How long does Larchmont have to settle a Corvane bill?", named by "Larchmont"
    -> "How long does have to settle a Corvane bill?"). Inside that document the names match every
    chunk alike (each carries the document summary) and the preamble and signature block best, so
    they only blur which clause answers. Words of a clause that does not name the document stay:
    "What is the Target's Representation ..." after "Consider the Agreement between Parent X and
    Target Y;" asks about the Target (LegalBench MAUD). A clause ends at ";" or ":"; the question
    is returned whole when every one of several clauses names (which words are names and which
    the question's own is then unclear: "Target", "Adverse" are rare in document names too), when
    it is typed in one case (every rare word of it may name: "capped", "leak"), or when nothing
    would be left of it."""
    if not naming:
        return query
    words = {w.lower() for w in naming}
    clauses = [c for c in _CLAUSE_END.split(query) if c.strip()]
    kept = [c for c in clauses if not words & {_POSSESSIVE.sub("", m).lower() for m in _WORD.findall(c)}]
    if kept and len(kept) < len(clauses):
        return " ".join(kept)
    if len(clauses) > 1:  # every clause names: which words are the document's and which the question's?
        return query
    if not written_like_names(query):  # typed in one case, every rare word "names": "capped", "leak" are the question
        return query
    unnamed = _NAME_GAP.sub(" ", _WORD.sub(lambda m: "" if _POSSESSIVE.sub("", m.group(0)).lower() in words
                                            else m.group(0), query)).strip()
    return unnamed if _WORD.search(unnamed) else query


def merge_named(named: list[str], routed: list[str], size: int, mode: str) -> list[str]:
    """Routing's documents with the named ones first ("first"), or only the named ones ("only";
    the routed list when none is named)."""
    if not named or mode == "off":
        return routed[:size]
    if mode == "only":
        return named[:size]
    return list(dict.fromkeys(named + routed))[:size]


# ----------------------------------------------------------------- the kind of document asked about

DOC_KINDS: dict[str, tuple[frozenset[str], re.Pattern]] = {
    kind: (frozenset(types), re.compile(words, re.IGNORECASE)) for kind, types, words in (
        ("legislation", ("statute", "statutory_instrument", "regulation", "act", "law", "code", "decree"),
         r"\b(?:act|statute|statutory|legislation|law|regulations?|code|legge|decreto|normativa|regolamento|codice)\b"),
        ("contract", ("contract", "nda", "lease", "licence", "license", "agreement"),
         r"\b(?:contract|agreement|lease|licen[cs]e|nda|contratto|accordo|locazione|licenza|appalto"
         r"|convenzione)\b"),
        ("privacy_policy", ("privacy_policy",), r"\b(?:privacy (?:policy|notice)|informativa)\b"),
        ("judgment", ("judgment",), r"\b(?:judg(?:e)?ment|ruling|sentenza)\b"),
        ("internal_note", ("internal_note",), r"\b(?:memo|internal note|nota interna|parere)\b"),
        ("board_minutes", ("board_minutes", "minutes"), r"\b(?:board|minutes|verbale|consiglio di amministrazione|cda)\b"),
    )
}
"""Kinds of document a question may ask about by the words it uses for them ("Nel contratto di
distribuzione ...", "before the board approved it"), English and Italian, and the doc_types of
each (the ingest's types; open types named alike). A word of one kind only: "privacy" alone, or
"court", is not read as a kind ("the court" of a contract's forum clause)."""


def question_kinds(query: str) -> tuple[str, ...]:
    """The kinds of document the question's words ask about (DOC_KINDS), in DOC_KINDS' order;
    () when it names none. The words of a cited identifier count too ("section 21 of the Act")."""
    return tuple(kind for kind, (_, words) in DOC_KINDS.items() if words.search(query))


def kind_types(kinds: tuple[str, ...]) -> frozenset[str]:
    """The doc_types of those kinds."""
    return frozenset(t for kind in kinds for t in DOC_KINDS[kind][0])


def with_subject_kinds(routed: list[str], subjects: list[tuple[str, str]], kinds: tuple[str, ...]) -> list[str]:
    """Routing's documents weighed by the kinds of document the question asks about
    (`subject_kinds`); `subjects`: (doc_key, doc_type) of every document, best first by subject
    (`SearchService.subject_ranking`). With no kind asked, `with_subject`. Otherwise:

    * routing's documents of an asked kind come first, the others after them, each in routing's
      order (the routing prior goes to the kind asked about);
    * the subject document is the best, by subject, of the asked kinds: "Nel contratto di
      distribuzione chi approva le pubblicità del distributore?" no longer brings in the
      Distribution Act, whose every heading says "distribution", beside the agreement it asks
      about;
    * for each asked kind that no routed document is of, its best document by subject takes one
      more place, last ("Why was the lease signed before the board approved it?" names the lease;
      the board's minutes answer)."""
    if not kinds:
        return with_subject(routed, [key for key, _ in subjects])
    type_of = dict(subjects)
    asked = kind_types(kinds)
    out = [key for key in routed if type_of.get(key) in asked] + [key for key in routed if type_of.get(key) not in asked]
    best = next((key for key, t in subjects if t in asked), None)
    if best is not None and best not in out:
        out.append(best)
    for kind in kinds:
        types = DOC_KINDS[kind][0]
        if any(type_of.get(key) in types for key in out):
            continue
        extra = next((key for key, t in subjects if t in types), None)
        if extra is not None:
            out.append(extra)
    return out


# ----------------------------------------------------------------- places left open to unrouted documents

def open_places(req: SearchRequest, routing: str, routed: tuple[str, ...]) -> int:
    """How many of the top k places routing leaves open to documents it did not keep
    (`open_places`): when routing restricts the search ("filter") and the option is on; never
    all k, so the routed documents keep the first place. 0 otherwise."""
    if routing != "filter" or not routed or not req.experimental.open_places:
        return 0
    return min(req.experimental.open_places, req.k - 1)


def apply_open_places(ranked: list[tuple[dict, float]], routed: tuple[str, ...], weight: float, places: int,
                      k: int) -> list[tuple[dict, float]]:
    """The fused list of a search over every document (`ranked`, fused order) as routing with
    open places orders it: the first k - `places` places hold the routed documents' chunks, by
    fused score plus the routing prior (what "filter" routing gives); the last `places` places of
    the top k, and every place after it, go to the best of the remaining chunks by their fused
    score alone, routed or not, with no prior: a document routing left out (the privacy notice
    behind four contracts), or a routed one the prior put behind the first (the statute behind
    the agreement), can still reach the top k on its own text. Scores are returned as ordered
    (the routing prior included for the first places only)."""
    if not places or not routed:
        return apply_routing_prior(ranked, routed, weight)
    keys = set(routed)
    boosted = apply_routing_prior([(src, score) for src, score in ranked if src.get("doc_key") in keys], routed, weight)
    return _placed(boosted[:max(0, k - places)], ranked)
