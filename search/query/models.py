"""The query side's boundary records: what a caller asks and what comes back (CLI contract)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from search.query.pipelines import DEFAULT_RANK_CONSTANT


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    query: str
    index: str = "legalsearch"
    k: int = Field(10, ge=1, le=200)
    mode: Literal["hybrid", "bm25", "knn"] = "hybrid"
    # Measured default (docs/results.md): min-max normalization weighting k-NN 0.7 / BM25 0.3 beat
    # equal-weight RRF on LegalBench and on the gold set; OpenSearch 2.19 rejects RRF weights.
    fusion: Literal["rrf", "normalization"] = "normalization"
    rank_constant: int = Field(DEFAULT_RANK_CONSTANT, ge=1)
    normalization: Literal["min_max", "l2"] = "min_max"
    weights: tuple[float, ...] = (0.3, 0.7)
    as_of: date | None = None
    jurisdictions: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()
    doc_types: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    routing: Literal["off", "filter", "boost", "auto"] = "auto"
    routing_docs: int = Field(3, ge=1, le=100)
    rerank: Literal["off", "e5", "cross-encoder"] = "off"
    rerank_model: str | None = None
    rerank_depth: int = Field(50, ge=1, le=500)
    rerank_threshold: float | None = None
    expand_xrefs: bool = True
    expand_definitions: bool = False
    candidates: int | None = Field(None, ge=1, le=1000)

    @field_validator("query")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("the query is empty")
        return v


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
    score: float | None = Field(None, description="rerank score when a reranker ran; fused scores are not shown")


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
