"""The query side's boundary records: what a caller asks (`SearchRequest`) and what comes back
(`SearchResponse`, the CLI's `--json` contract).

`SearchRequest` is the one definition of a search. Its options are grouped (filters, fusion,
routing, rerank, expansion); each option is declared once here, with its default, bounds and
description, and every surface derives from it: the Python API's keywords, the CLI options of
`search` / `context` / `explain` (legalsearch.cli.options), the profiles (legalsearch.query.profiles),
the evaluation configurations and the generated docs. Each option also has a flat name (`routing_docs`,
`rerank_depth`, `expand_xrefs`, ...): flat keyword arguments and `--set key=value` use it.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal, get_args

from legalsearch.query.fusion import DEFAULT_RANK_CONSTANT
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

Mode = Literal["hybrid", "bm25", "knn"]
Fusion = Literal["rrf", "normalization"]
Normalization = Literal["min_max", "l2"]
RoutingNames = Literal["off", "first", "only"]
Routing = Literal["off", "filter", "boost", "auto"]
Rerank = Literal["auto", "off", "e5", "clause", "e5+clause", "cross-encoder"]
Embedding = Literal["python", "engine"]
Placement = Literal["end", "inline"]  # where cross-referenced clauses go (legalsearch.query.expand)
MODES: tuple[str, ...] = get_args(Mode)
FUSIONS: tuple[str, ...] = get_args(Fusion)
ROUTINGS: tuple[str, ...] = get_args(Routing)
RERANKERS: tuple[str, ...] = get_args(Rerank)
BI_ENCODER_RERANKERS: tuple[str, ...] = ("e5", "clause", "e5+clause")
"""The rerankers that embed chunks (cached, so `legalsearch index warm-rerank` can embed ahead)."""
AUTO_RERANK = "clause"
AUTO_RERANK_WEIGHT = 0.7
AUTO_RERANK_LEXICAL = 0.2
"""What `rerank: auto` (the default) runs when the whole fused list lies in one long document: the
clause rescorer, blended 0.7 with 0.2 of a BM25 over the clauses' own text (when the question is in
the document's language; else 0) and the rest, 0.1, of the fused score (docs/results.md, "The clause
rescorer inside one long document" and "The clause's own words beside it")."""
EMBEDDINGS: tuple[str, ...] = get_args(Embedding)
DEFAULT_ABSTAIN = 0.02
"""The default abstention threshold on `Hit.relevance` (docs/results.md, "Relevance and abstention":
the lower of the two fits' suggestions, since a refused answerable question costs more than an
off-topic one left unflagged)."""
PLACEMENTS: tuple[str, ...] = get_args(Placement)
BEYOND_LIMIT = "beyond the limit of chunks added per hit (--xref-limit)"
"""The reason an unfollowed reference gives when the expansion's `limit` left it out: the caller can
raise the limit; the other reasons (external, unresolved, filtered) no option changes."""
# A matter date: "2026-01-01", a date, or the datetime click's DateTime option gives.
Day = Annotated[date | None, BeforeValidator(lambda v: v.date() if isinstance(v, datetime) else v)]


def option(default: Any, description: str, *, flat: str | None = None, cli: str | None = None,
           everyday: bool = False, metavar: str | None = None, **bounds: Any) -> Any:
    """A request option: a pydantic Field whose extra keys tell the surfaces how to show it.

    Args:
        default: the default (the only place it is written).
        description: what it does, as `--help`, the OpenAPI schema and docs/python.md show it.
        flat: its flat name (keyword argument, `--set` key, profile key) when it is not the field's own.
        cli: the CLI flag(s) ("--doc-id", "--xrefs/--no-xrefs"); None: `--<flat name with hyphens>`.
        everyday: shown by `search --help` (the others only by `--help-all`).
        metavar: the placeholder the CLI shows.
        **bounds: pydantic constraints (ge, le, ...).
    """
    extra = {k: v for k, v in {"flat": flat, "cli": cli, "everyday": everyday or None,
                                 "metavar": metavar}.items() if v is not None}
    return Field(default, description=description, json_schema_extra=extra or None, **bounds)


def _keywords(value):
    if isinstance(value, str):
        value = (value,)
    return tuple(value or ())


def _numbers(value):
    # "0.3,0.7" as typed on the command line or in --set
    if isinstance(value, str):
        try:
            return tuple(float(x) for x in value.split(",") if x.strip())
        except ValueError as e:
            raise ValueError(f"expected comma-separated numbers, got {value!r}") from e
    return value


Keywords = Annotated[tuple[str, ...], BeforeValidator(_keywords)]


class Options(BaseModel):
    """A group of request options: frozen, unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Filters(Options):
    """What narrows the candidates: the same clauses sit inside every sub-query, the routing
    search and every expansion. `doc_keys` is set by document routing, never by a caller."""

    as_of: Day = option(None, "Matter date: only text valid on that date (valid_from <= date < valid_to).",
                        cli="--as-of", everyday=True, metavar="YYYY-MM-DD")
    jurisdictions: Keywords = option((), "Only these jurisdictions (e.g. UK, IT).", cli="--jurisdiction",
                                     everyday=True, metavar="J")
    doc_ids: Keywords = option((), "Only these documents (their doc_id).", cli="--doc-id", everyday=True,
                               metavar="ID")
    doc_types: Keywords = option((), "Only these document types (nda, contract, statute, privacy_policy, ...).",
                                 cli="--doc-type", everyday=True, metavar="TYPE")
    languages: Keywords = option((), "Only these languages (en, it).", cli="--language", everyday=True,
                                 metavar="LANG")
    groups: Keywords = option(
        (), "ACL groups whose restricted text is searched besides public text. For a verified user (--user) it "
        "can only narrow the user's own groups (default: all of them); as the admin, the groups to view as "
        "(none: public text only).", cli="--group", everyday=True, metavar="GROUP")
    doc_keys: tuple[str, ...] = Field((), description="Set by document routing: the documents searched.")

    @field_validator("doc_types", mode="after")
    @classmethod
    def _doc_type_keywords(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        # doc_types are stored as lower-case keywords (open types included): "Judgment" finds them
        return tuple("_".join(str(v).strip().lower().split()) for v in value)


class FusionOptions(Options):
    """How the BM25, k-NN, identifier and clause-title lists become one ranking, and the priors
    applied to the fused scores."""

    technique: Fusion = option(
        "normalization", "normalization: the normalization-processor (min-max, weighted arithmetic mean); rrf: "
        "the score-ranker-processor (reciprocal rank fusion). Normalization weighting k-NN 0.7 / BM25 0.3 ranks "
        "better on LegalBench-RAG and the gold sets; OpenSearch 2.19 refuses RRF weights.", flat="fusion")
    rank_constant: int = option(DEFAULT_RANK_CONSTANT, "The RRF rank constant (also used by document routing).",
                                ge=1)
    weights: Annotated[tuple[float, ...], BeforeValidator(_numbers)] = option(
        (0.3, 0.7), "Normalization: the BM25 and k-NN weights (summing to 1), e.g. 0.3,0.7.", metavar="BM25,KNN")
    title_weight: float = option(
        0.3, "Share of the clause-title list: the question's topic ('which law governs it') matched against "
        "clause headings in English and Italian; 0 turns it off. The stored templates leave it out.",
        ge=0.0, lt=1.0)
    current_prior: float = option(
        0.5, "With no as_of: taken off the fused score of a chunk whose text is not in force today (valid_to on "
        "or before it, or valid_from after it), so today's text of a section ranks first; the other versions are "
        "still found, and a warning names them. 0 turns it off.", ge=0.0, le=10.0)
    recitals_prior: float = option(
        0.1, "Taken off the fused score of a chunk of recitals ('Whereas:', 'considerando quanto segue:', "
        "'Premesso che'): the reasons an act or a contract gives restate its rules in a few words, and the "
        "operative provision nearly as close to the question ranks before them; 0 turns it off.", ge=0.0, le=10.0)


class RoutingOptions(Options):
    """Document routing: rank documents first (title, parties, summary, profile), then restrict or
    boost the chunk search to them."""

    mode: Routing = option(
        "auto", "filter: search only the routed documents; boost: rank their chunks higher; auto: filter, "
        "unless the question cites a section (then only the documents it names); off: no routing.",
        flat="routing")
    docs: int = option(3, "Documents routing keeps.", flat="routing_docs", ge=1, le=100)
    prior: float = option(
        0.5, "Added to the fused score of the chunks of the first routed document (less for the next ones), so "
        "the document the question names comes first; 0 turns it off.", flat="routing_prior", ge=0.0, le=10.0)
    unsure_prior: float = option(
        0.02, "The routing prior among look-alike documents (all routed ones of one type in one language, e.g. "
        "three Acts) when routing's lists disagree on the first one (it is not first by BM25, by k-NN and by "
        "subject alike) and no name decided it: the chunks' own scores then order them, and the prior only "
        "breaks their near ties. The routing prior or more turns it off.", flat="routing_unsure_prior", ge=0.0, le=10.0)
    languages: bool = option(
        True, "In a corpus of several languages, rank documents by BM25 within each language (their scores are "
        "not comparable across languages) and by k-NN across them.", flat="routing_languages")
    names: RoutingNames = option(
        "only", "Documents the question names by a word written like a name that few documents carry in their "
        "title, parties, summary, opening or profile ('Consider Seeed's NDA', 'our NDA with Kestrel'; never "
        "'Does' or 'our'): the only ones routed ('only'), routed before the others ('first'), or not looked "
        "for ('off').", flat="routing_names")
    subjects: bool = option(
        True, "Also search the document whose subject the question asks about: the question's vector against "
        "each document's title, type and outline (its profile; embedded once per process and cached); the best "
        "takes one more routing place, last, when routing left it out. In a registry of at most 300 documents.",
        flat="routing_subjects")
    cross_language: int = option(
        3, "For a routed document in another language than the question's (a BM25 cannot match across "
        "languages; or one routing left out, routing_cross_language_unrouted): that language is also searched "
        "alone, in the same round trip (over its documents the question is about, by routing_subjects, then "
        "those routing kept), and the best of its chunks take the "
        "last N places of the top k (never one of the first 7) or, when the question's subject points to that "
        "language (routing_cross_language_margin), the N places after the first. 0 turns it off.",
        flat="routing_cross_language", ge=0, le=50)
    cross_language_subject: bool = option(
        True, "Those places come after the first when the question's subject points to a document in that "
        "language (false: always the last ones; for a corpus that holds the same text in two languages, where "
        "the other version of the article asked about then takes places 2 to 4).",
        flat="routing_cross_language_subject")
    cross_language_margin: float = option(
        0.02, "The subject points to that language when its best document by subject is within this much of the "
        "subject list's first (cosine; e5 scores the same text about 0.01 lower in the other language; 0: only "
        "when the first is in that language). Another multilingual model may want another margin.",
        flat="routing_cross_language_margin", ge=0.0, le=2.0)
    cross_language_unrouted: bool = option(
        True, "Also when routing kept no document in another language: that language is searched alone over "
        "its documents the question is about (routing_subjects) when its best one is within "
        "routing_cross_language_margin of the subject list's first, and takes the last places (routing's "
        "judgement stands first: the subject list alone is too weak a sign for places 2 to 4).",
        flat="routing_cross_language_unrouted")
    cross_language_translations: bool = option(
        True, "A document whose own text in the question's language routing keeps is not searched again in "
        "its language: the same type, the same day in force and an official number in both titles "
        "('Regulation (EU) 2026/877', 'Regolamento (UE) 2026/877'). false: every such version is searched too.",
        flat="routing_cross_language_translations")
    cross_language_glossary: bool = option(
        True, "That search of the other language alone also reads, with BM25, the other language's words for "
        "the question's legal terms (a glossary of general English-Italian legal vocabulary: 'penalty' -> "
        "'penale', 'recesso' -> 'withdrawal'): a BM25 across languages matches only names and numbers. So "
        "does the search of the one document a question names when it is in the other language (the first "
        "two words of each term). "
        "Not with `embedding: engine` (the engine's neural query reads the same text). false: the question's own "
        "words alone.",
        flat="routing_cross_language_glossary")
    cited: bool = option(
        True, "When the question cites a section ('section 21', 'clause 14.3') and names no document, the "
        "document that carries the label and matches the question's subject best (routing's ranking) gets the "
        "routing prior when it is the only one of its kind that carries it; every document is still searched.", flat="routing_cited")
    focus_named: bool = option(
        True, "When the question names one document ('Consider Seeed's NDA; does it allow copies?'), search "
        "inside it without the clause that names it ('does it allow copies?').", flat="focus_named")


class RerankOptions(Options):
    """The optional second stage over the fused shortlist."""

    method: Rerank = option(
        "auto", "auto (the default): a fused list that lies in one document is searched again, twice the depth "
        "deep; when the document fills that list (a long statute or contract, whose hundreds of sibling articles "
        "carry one summary) the clause rescorer reorders it, blended 0.7 with 0.2 of a BM25 over the clauses' own "
        "text (when the question is in the document's language) and 0.1 of the fused score; any "
        "other list is final as fused. e5 (offline multilingual "
        "bi-encoder), clause (the index's embedder on the clause alone, without the document summary), "
        "e5+clause (both, equal shares), cross-encoder (a model you provide with rerank_model), or off. "
        "`--profile rescore` is LegalBench's tuned setting.", flat="rerank", cli="--rerank", everyday=True)
    model: str | None = option(None, "Local directory (or loadable name) of a CrossEncoder, or an API reranker: "
                               "cohere:URL?model=NAME / jina:URL?model=NAME (docs/models.md).", flat="rerank_model",
                               metavar="PATH")
    depth: int = option(50, "How many fused candidates the reranker reorders; the rest keep their order.",
                        flat="rerank_depth", ge=1, le=500)
    weight: float = option(
        1.0, "The reranker's share of the order over the shortlist: 1 orders by the reranker alone; 0.4 blends "
        "0.4 x its score with 0.6 x the fused score (each min-max normalised). `rerank: auto` blends 0.7 "
        "whatever this says.", flat="rerank_weight", gt=0.0,
        le=1.0)
    lexical: float = option(
        0.0, "A share of the order given to a BM25 of the question over the shortlist's own text (the chunk as "
        "the document has it: no heading path or document summary; analysed in the document's language), taken "
        "from the fused score's share: with rerank_weight 0.7 and 0.2 here the fused score keeps 0.1. Only when "
        "the question is in the language of the shortlist's documents. `rerank: auto` uses 0.2 whatever this "
        "says.", flat="rerank_lexical", ge=0.0, le=1.0)
    neighbours: float = option(
        0.0, "After a reranker, each hit gains this share of the best score among its neighbours in the "
        "shortlist (the chunks right before and after it in its document).", flat="rerank_neighbours", ge=0.0,
        le=1.0)
    threshold: float | None = option(None, "Drop hits the reranker scores below this; none left: not_found.",
                                     flat="rerank_threshold")

    @model_validator(mode="after")
    def _shares(self) -> RerankOptions:
        if self.method != "auto" and self.weight + self.lexical > 1.0 + 1e-9:
            raise ValueError(f"rerank_weight {self.weight} + rerank_lexical {self.lexical} exceed 1: the fused score "
                             "keeps the rest of the order, so the two together may be 1 at most")
        return self


class ExpansionOptions(Options):
    """Cross-reference expansion: the clauses the hits point to, fetched under the same filters."""

    xrefs: bool = option(True, "Fetch the clauses the hits cite.", flat="expand_xrefs", cli="--xrefs/--no-xrefs")
    definitions: bool = option(False, "Also fetch the definitions of the defined terms the hits use.",
                               flat="expand_definitions", cli="--definitions/--no-definitions")
    limit: int | None = option(
        5, "At most N chunks added after each hit (what changes the clause first, then the first chunk of each "
        "clause it cites); the references past it are listed as unfollowed. A merger agreement's clause that cites "
        "'Sections 4.1 through 4.25' would otherwise bring 25 clauses and more.", flat="expand_limit",
        cli="--xref-limit", ge=0, le=100)
    placement: Placement = option(
        "end", "Where the added clauses go: after the k retrieved hits ('end': the first k places stay the "
        "ranking) or right after the hit that cites each ('inline').", flat="expand_placement", cli="--xrefs-at")


class ExperimentalOptions(Options):
    """Options no profile or shipped configuration uses: kept for experiments, shown only by
    `--help-all`, and free to change or go."""

    normalization: Normalization = option("min_max", "The normalization technique of the fusion pipeline "
                                          "(min_max or l2); the priors apply to min_max only.")
    candidates: int | None = option(
        None, "Candidates each sub-query fetches (default: enough for k, the reranker and the priors).", ge=1,
        le=1000)
    routing_weights: Annotated[tuple[float, float] | None, BeforeValidator(_numbers)] = option(
        None, "BM25,k-NN weights of the document ranking (min-max); unset: reciprocal rank fusion.",
        metavar="BM25,KNN")
    routing_knn: int = option(3, "Documents the k-NN list of routing ranks.", ge=1, le=1000)
    routing_topics: bool = option(False, "Also match the question's clause topics against document outlines.")
    subject_kinds: bool = option(
        False, "Routing weighs the kind of document the question names by its words ('contract', 'the Act', "
        "'the board', 'informativa'; English and Italian): routed documents of that kind first, the subject document "
        "the best of that kind, and the best document of an asked kind no routed document is of in one more place.")
    open_places: int = option(
        0, "Of the top k, the last N places are left open to every document: the search is not restricted to the "
        "routed documents, which fill the first k - N places (with the routing prior), and the rest go to the best "
        "remaining chunks by fused score alone, routed or not. Applies where routing restricts the search; 0: off.",
        ge=0, le=50)
    bm25_stop_words: bool = option(True, "BM25 reads the question's stop words (false: the words the English and "
                                   "Italian analysers drop are left out of every field, also those that keep them).")


GROUPS: dict[str, type[Options]] = {
    "filters": Filters, "fusion": FusionOptions, "routing": RoutingOptions, "rerank": RerankOptions,
    "expansion": ExpansionOptions, "experimental": ExperimentalOptions,
}
"""The request's option groups, by field name."""

INTERNAL: frozenset[tuple[str, str]] = frozenset({("filters", "doc_keys")})
"""Options no caller sets (routing sets them at plan time)."""


class SearchRequest(BaseModel):
    """One search: the question, where to search, how many hits, and the option groups.

    Flat keyword arguments keep working and mean the same: `SearchRequest(query=q, as_of="2026-01-01",
    routing_docs=5, rerank="e5")` is `SearchRequest(query=q, filters={"as_of": ...}, routing={"docs": 5},
    rerank={"method": "e5"})`. `flat()` gives every option by its flat name.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    query: str = Field(description="The question, in plain words or citing a section ('clause 14.3').")
    index: str = option("legalsearch", "The index (alias) to search; the client's default index (LEGALSEARCH_INDEX) "
                        "when not given.", cli="--index", everyday=True, metavar="NAME")
    k: int = option(10, "Hits to return.", cli="-k", everyday=True, metavar="N", ge=1, le=200)
    mode: Mode = option("hybrid", "hybrid: BM25 + k-NN fused inside OpenSearch; bm25 or knn alone.")
    embedding: Embedding = option(
        "python", "Where the question is embedded: in this process, or inside OpenSearch by the index's remote "
        "model ('engine': `neural` sub-queries, as the stored templates do; needs `legalsearch pipelines install`).")
    abstain: float = option(
        DEFAULT_ABSTAIN, "not_found when no retrieved hit's relevance (the calibrated probability that it answers "
        "the question) reaches this; the hits are still returned, and `context` adds nothing to the prompt. 0 "
        "turns abstention off.", cli="--abstain", metavar="P", ge=0.0, le=1.0)
    highlight: bool = option(
        False, "Mark the words of each hit that matched the question: OpenSearch `highlight` on the chunk text "
        "(English or Italian analysis by the passage's language); `highlights` gives their offsets in `text`.",
        cli="--highlight/--no-highlight")
    filters: Filters = Filters()
    fusion: FusionOptions = FusionOptions()
    routing: RoutingOptions = RoutingOptions()
    rerank: RerankOptions = RerankOptions()
    expansion: ExpansionOptions = ExpansionOptions()
    experimental: ExperimentalOptions = ExperimentalOptions()

    @model_validator(mode="before")
    @classmethod
    def _nest_flat_names(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        return nest(data)

    @field_validator("query")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("the query is empty")
        return v

    @field_validator("filters")
    @classmethod
    def _no_doc_keys(cls, v: Filters) -> Filters:
        if v.doc_keys:
            raise ValueError("filters.doc_keys is set by document routing, not by a caller (use doc_ids)")
        return v

    def flat(self) -> dict[str, Any]:
        """Every option by its flat name (query and internal options left out)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in TOP_LEVEL}
        for (group, field), flat_name in _FLAT_OF.items():
            out[flat_name] = getattr(getattr(self, group), field)
        return out

    def replace(self, **options: Any) -> SearchRequest:
        """A copy with some options changed (flat or grouped names), validated again."""
        return SearchRequest.model_validate({**self.flat(), "query": self.query, **options})


TOP_LEVEL: tuple[str, ...] = ("index", "k", "mode", "embedding", "highlight", "abstain")
"""The options that sit on the request itself, outside any group."""


def _flat_names() -> dict[tuple[str, str], str]:
    out = {}
    for group, model in GROUPS.items():
        for field, info in model.model_fields.items():
            if (group, field) in INTERNAL:
                continue
            extra = info.json_schema_extra or {}
            out[(group, field)] = extra.get("flat", field)
    return out


_FLAT_OF: dict[tuple[str, str], str] = _flat_names()
FLAT: dict[str, tuple[str, str]] = {flat: path for path, flat in _FLAT_OF.items()}
"""Flat option name -> (group, field): `routing_docs` -> ("routing", "docs")."""
assert len(FLAT) == len(_FLAT_OF), "two options share a flat name"

REQUEST_FILTERS = tuple(field for (group, field) in _FLAT_OF if group == "filters")
"""The filter fields a request carries (the same names flat and in `Filters`)."""


def nest(options: dict[str, Any]) -> dict[str, Any]:
    """Flat option names (and dotted ones: "routing.docs") moved into their groups; grouped values
    (dicts or option models) merged with them. Unknown names are left for validation to refuse.

    Raises:
        ValueError: a group given both as a value and through its options in a conflicting way.
    """
    out: dict[str, Any] = {}
    grouped: dict[str, dict[str, Any]] = {}
    for key, value in options.items():
        if key in GROUPS and isinstance(value, (dict, Options)):
            base = value.model_dump(exclude_unset=True) if isinstance(value, Options) else dict(value)
            grouped.setdefault(key, {}).update(base)
        elif "." in key and key.split(".", 1)[0] in GROUPS:
            group, field = key.split(".", 1)
            grouped.setdefault(group, {})[field] = value
        elif key in FLAT:
            group, field = FLAT[key]
            grouped.setdefault(group, {})[field] = value
        else:
            out[key] = value
    for group, values in grouped.items():
        out[group] = values
    return out


def option_fields() -> list[tuple[str, str | None, str, Any]]:
    """Every caller-facing option: (flat name, group or None, field, pydantic FieldInfo), in
    declaration order (top-level options first)."""
    rows: list[tuple[str, str | None, str, Any]] = [(name, None, name, SearchRequest.model_fields[name])
                                                    for name in TOP_LEVEL]
    for group, model in GROUPS.items():
        for field, info in model.model_fields.items():
            if (group, field) not in INTERNAL:
                rows.append((_FLAT_OF[(group, field)], group, field, info))
    return rows


class Hit(BaseModel):
    rank: int
    chunk_id: str
    doc_id: str
    doc_title: str
    version: str
    valid_from: date | None = None
    valid_to: date | None = None
    jurisdiction: str | None = None
    section: str | None = None
    heading_path: list[str] = []
    page: int | None = None
    source_path: str | None = None
    char_start: int
    char_end: int
    text: str
    citation: str
    via: str = "retrieval"
    language: str | None = None
    doc_type: str | None = None
    clause_labels: list[str] = []
    amended_by: list[str] = Field(
        [], description="the chunks of an amendment in the index that change this passage (an amendment's 'Clause "
        "14.3 of the Agreement is amended ...', linked at ingest: legalsearch.index.links), those the caller may "
        "open and in force on the matter date (as_of) only; with expansion on they follow the hits, via "
        "amended_by:<this chunk_id>")
    language_place: str | None = Field(
        None, description="the language searched alone for this hit's place (routing_cross_language: a routed "
        "document in another language than the question's); its scores are from that search, not the fused one")
    score: float | None = Field(
        None, description="rerank_score when a reranker ran over the response (None for a hit below its "
        "rerank_depth), else fused_score: an order within one response, not a calibrated confidence (see relevance)")
    fused_score: float | None = Field(
        None, description="the engine's fused relevance score after the routing and current-text priors (min-max "
        "units in the default hybrid search, BM25 or k-NN scores in those modes); None for a passage that "
        "cross-reference or definition expansion added (via xref:... / definition:... / amended_by:...), which was "
        "not retrieved")
    highlights: list[tuple[int, int]] = Field(
        [], description="with `highlight`: the [start, end) offsets in `text` of the words that matched the question "
        "(OpenSearch highlight; function words left out); empty otherwise")
    rerank_score: float | None = Field(
        None, description="the reranker's own score, when one ran over this hit (the top rerank_depth); with "
        "rerank_weight below 1 the order follows the blend, so these need not descend; None otherwise")
    relevance: float | None = Field(
        None, description="a calibrated probability (0-1) that the passage answers the question, comparable across "
        "questions and indices (legalsearch.query.relevance: the raw cosine to the question, the share of its "
        "content terms the passage carries, a cited section; a logistic model per embedder); it changes no "
        "order. None where it could not be computed (a warning says why)")
    relevance_features: dict[str, float] = Field(
        {}, description="the features relevance was computed from (not in the --json contract)")


class SearchResponse(BaseModel):
    query: str
    hits: list[Hit]
    not_found: bool = Field(description="true when no passage passes the filters (no hits), or when no retrieved "
                            "hit's relevance reaches the request's abstain threshold: nothing answers the question "
                            "(the hits are kept, as the closest passages)")
    not_found_reason: str | None = Field(None, description="why, e.g. 'no passage answers: best relevance 0.008 < "
                                         "0.02'")
    identifiers: list[str] = []
    routed_docs: list[str] = []
    unfollowed_refs: list[dict] = []
    mixed_versions: list[str] = []
    timings_ms: dict[str, float] = {}
    mode: str = "hybrid"
    pipeline: str | None = None
    rerank: str | None = Field(None, description="the second stage of this search: the reranker asked for, or under "
                               "`rerank: auto` 'clause' when it reordered the list of one long document; None when "
                               "none ran")
    warnings: list[str] = Field([], description="what the search had to change, e.g. a question too long for BM25")


CONTRACT_FIELDS = {
    "query": True, "not_found": True, "not_found_reason": True, "hits": {"__all__": {
        "rank", "chunk_id", "doc_id", "doc_title", "version", "valid_from", "valid_to", "jurisdiction", "section",
        "heading_path", "page", "source_path", "char_start", "char_end", "text", "citation", "via", "score", "fused_score",
        "rerank_score", "highlights", "relevance", "language_place", "amended_by"}},
    "identifiers": True, "routed_docs": True, "unfollowed_refs": True, "mixed_versions": True, "timings_ms": True,
    "mode": True, "pipeline": True, "rerank": True, "warnings": True,
}
"""What `legalsearch search --json` prints of a SearchResponse (the CLI output contract)."""


def options_summary() -> str:
    """The request options by group and flat name, for the API's docstrings (generated, so they
    cannot miss one): "index, k, mode, embedding; filters: as_of, ...; fusion: ...".
    """
    by_group: dict[str, list[str]] = {}
    for flat, group, _field, _info in option_fields():
        by_group.setdefault(group or "request", []).append(flat)
    return "; ".join(f"{group}: {', '.join(names)}" for group, names in by_group.items())


def options_table() -> str:
    """Every request option as a markdown table (flat name, group, default, description)."""
    rows = ["| option | group | default | what it does |", "|---|---|---|---|"]
    for flat, group, _field, info in option_fields():
        default = info.get_default()
        shown = "none" if default is None else ("()" if default == () else repr(default))
        text = (info.description or "").replace("|", "\\|")
        rows.append(f"| `{flat}` | {group or '-'} | `{shown}` | {text} |")
    return "\n".join(rows)
