"""The query side's boundary records: what a caller asks (`SearchRequest`, built once from the
CLI options or the Python API's keywords) and what comes back (`SearchResponse`, the CLI's
`--json` contract). The choices offered by the CLI come from the constants here."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal, get_args

from legalsearch.query.fusion import DEFAULT_RANK_CONSTANT
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

Mode = Literal["hybrid", "bm25", "knn"]
Fusion = Literal["rrf", "normalization"]
Normalization = Literal["min_max", "l2"]
RoutingNames = Literal["off", "first", "only"]
Routing = Literal["off", "filter", "boost", "auto"]
Rerank = Literal["off", "e5", "clause", "e5+clause", "cross-encoder"]
Embedding = Literal["python", "engine"]
Placement = Literal["end", "inline"]  # where cross-referenced clauses go (search.query.expand)
MODES: tuple[str, ...] = get_args(Mode)
FUSIONS: tuple[str, ...] = get_args(Fusion)
ROUTINGS: tuple[str, ...] = get_args(Routing)
RERANKERS: tuple[str, ...] = get_args(Rerank)
BI_ENCODER_RERANKERS: tuple[str, ...] = ("e5", "clause", "e5+clause")
"""The rerankers that embed chunks (cached, so `legalsearch index warm-rerank` can embed ahead)."""
EMBEDDINGS: tuple[str, ...] = get_args(Embedding)
PLACEMENTS: tuple[str, ...] = get_args(Placement)
# A matter date: "2026-01-01", a date, or the datetime click's DateTime option gives.
Day = Annotated[date | None, BeforeValidator(lambda v: v.date() if isinstance(v, datetime) else v)]


class Filters(BaseModel):
    """What narrows the candidates: the same clauses sit inside every sub-query, the routing
    search and every expansion. `doc_keys` is set by document routing, never by a caller."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    as_of: Day = None
    jurisdictions: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()
    doc_types: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    doc_keys: tuple[str, ...] = ()


REQUEST_FILTERS = tuple(name for name in Filters.model_fields if name != "doc_keys")
"""The filter fields a request carries (the same names in both models)."""


class SearchRequest(BaseModel):
    """One search, as the CLI options and the Python API name it (field names = option names)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    query: str
    index: str = "legalsearch"
    k: int = Field(10, ge=1, le=200)
    mode: Mode = "hybrid"
    # Measured default (docs/results.md): min-max normalization weighting k-NN 0.7 / BM25 0.3 beat
    # equal-weight RRF on LegalBench and on the gold set; OpenSearch 2.19 rejects RRF weights.
    fusion: Fusion = "normalization"
    rank_constant: int = Field(DEFAULT_RANK_CONSTANT, ge=1)
    normalization: Normalization = "min_max"
    weights: tuple[float, ...] = (0.3, 0.7)
    # Measured defaults (docs/results.md, "Round 2"): the clause-title list at 0.3 and the routing
    # prior at 0.5 together raise precision and recall on LegalBench and hold DRM under 10 %, and
    # lift both gold sets. The stored templates render these two as 0 (search.query.templates).
    title_weight: float = Field(0.3, ge=0.0, lt=1.0,
                                description="share of the clause-title list (question topic -> clause headings, EN/IT)")
    as_of: Day = None
    jurisdictions: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()
    doc_types: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    routing: Routing = "auto"
    routing_docs: int = Field(3, ge=1, le=100)
    routing_prior: float = Field(0.5, ge=0.0, le=10.0,
                                 description="added to the fused score of the chunks of higher-routed documents")
    # not tuned: the routing prior's size, in the same min-max units (docs/results.md, round 6)
    current_prior: float = Field(
        0.5, ge=0.0, le=10.0, description="with no as_of: taken off the fused score of a chunk whose text is not "
        "in force today (valid_to on or before it, or valid_from after it), so the text in force ranks first; 0 "
        "turns it off")
    routing_weights: tuple[float, float] | None = Field(
        None, description="BM25 / k-NN weights of the document ranking (min-max); None: reciprocal rank fusion")
    routing_knn: int = Field(3, ge=1, le=1000, description="documents the k-NN list of routing ranks")
    routing_topics: bool = Field(False, description="match the question's clause topics against document outlines")
    routing_languages: bool = Field(
        True, description="in a corpus of several languages, rank documents by BM25 within each language (one list "
        "per language; their scores are not comparable) and by k-NN across them")
    # "only" measured best (docs/results.md, round 3): ContractNLI over 95 look-alike NDAs DRM
    # 52.95 -> 0.00, and on LegalBench's referenced scope P / R / DRM all improve
    routing_names: RoutingNames = Field(
        "only", description="documents the question names by a rare word written like a name, found in their "
        "title, parties, summary, opening or profile: "
        "routed first ('first'), the only ones routed ('only'), or not looked for ('off')")
    # measured (docs/results.md, round 4): LegalBench recall 54.18 -> 57.25 and precision 9.75 -> 10.31,
    # DRM unchanged; the round-2 gold set unchanged (its questions rarely name in a clause of their own)
    focus_named: bool = Field(
        True, description="when the question names one document (routing_names 'only'), search inside it "
        "without the clauses that name it ('Consider Seeed's NDA; does it allow copies?' -> "
        "'does it allow copies?')")
    rerank: Rerank = "off"
    rerank_model: str | None = None
    rerank_depth: int = Field(50, ge=1, le=500)
    rerank_weight: float = Field(
        1.0, gt=0.0, le=1.0, description="the reranker's share of the order over the shortlist: 1 orders by the "
        "reranker alone; below 1 blends its score with the fused score (each min-max normalised)")
    rerank_neighbours: float = Field(
        0.0, ge=0.0, le=1.0, description="after a reranker: each hit gains this share of the best score among "
        "its neighbours in the shortlist (the chunks right before and after it in its document)")
    rerank_threshold: float | None = None
    expand_xrefs: bool = True
    expand_definitions: bool = False
    expand_limit: int | None = Field(None, ge=0, le=100, description="at most N chunks added after each hit")
    expand_placement: Placement = Field(
        "end", description="where the added clauses go: after the k retrieved hits ('end': the first k places "
        "stay the ranking) or right after the hit that cites each ('inline')")
    candidates: int | None = Field(None, ge=1, le=1000)
    # Where the question is embedded: in this process ("python"), or inside OpenSearch by the
    # index's remote query model ("engine": `neural` sub-queries; `legalsearch pipelines install`).
    embedding: Embedding = "python"

    @field_validator("query")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("the query is empty")
        return v

    @field_validator("doc_types", mode="before")
    @classmethod
    def _doc_type_keywords(cls, value):
        # doc_types are stored as lower-case keywords (open types included): "Judgment" finds them
        if isinstance(value, str):
            value = (value,)
        return tuple("_".join(str(v).strip().lower().split()) for v in value or ())

    @field_validator("weights", "routing_weights", mode="before")
    @classmethod
    def _weights(cls, value):
        # "0.3,0.7" as typed on the command line
        if isinstance(value, str):
            try:
                return tuple(float(x) for x in value.split(",") if x.strip())
            except ValueError as e:
                raise ValueError(f"expected comma-separated numbers, got {value!r}") from e
        return value

    @property
    def filters(self) -> Filters:
        """The request's filters (routing adds `doc_keys` to a copy at plan time)."""
        return Filters(**{name: getattr(self, name) for name in REQUEST_FILTERS})


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
    score: float | None = Field(
        None, description="rerank_score when a reranker ran over the response (None for a hit below its "
        "rerank_depth), else fused_score: an order within one response, not a calibrated confidence")
    fused_score: float | None = Field(
        None, description="the engine's fused relevance score after the routing and current-text priors (min-max "
        "units in the default hybrid search, BM25 or k-NN scores in those modes); None for a passage that "
        "cross-reference or definition expansion added (via xref:... / definition:...), which was not retrieved")
    rerank_score: float | None = Field(
        None, description="the reranker's own score, when one ran over this hit (the top rerank_depth); with "
        "rerank_weight below 1 the order follows the blend, so these need not descend; None otherwise")


class SearchResponse(BaseModel):
    query: str
    hits: list[Hit]
    not_found: bool
    not_found_reason: str | None = None
    identifiers: list[str] = []
    routed_docs: list[str] = []
    unfollowed_refs: list[dict] = []
    mixed_versions: list[str] = []
    timings_ms: dict[str, float] = {}
    mode: str = "hybrid"
    pipeline: str | None = None
    rerank: str | None = None
    warnings: list[str] = Field([], description="what the search had to change, e.g. a question too long for BM25")


CONTRACT_FIELDS = {
    "query": True, "not_found": True, "not_found_reason": True, "hits": {"__all__": {
        "rank", "chunk_id", "doc_id", "doc_title", "version", "valid_from", "valid_to", "jurisdiction", "section",
        "heading_path", "page", "source_path", "char_start", "char_end", "text", "citation", "via", "score", "fused_score",
        "rerank_score"}},
    "identifiers": True, "routed_docs": True, "unfollowed_refs": True, "mixed_versions": True, "timings_ms": True,
    "mode": True, "pipeline": True, "rerank": True, "warnings": True,
}
"""What `legalsearch search --json` prints of a SearchResponse (the CLI output contract)."""
