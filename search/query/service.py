"""The query flow: identifiers + filters -> (routing) -> one hybrid query through a fusion
pipeline -> (rerank) -> cross-reference expansion -> hits with citations -> retrieval log."""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime

from search.config import Settings
from search.errors import LegalSearchError
from search.indexing import indices, schema
from search.indexing.embeddings import EmbeddingCache, get_embedder
from search.query import builder, citations, expand, pipelines
from search.query.identifiers import parse_identifiers
from search.query.models import Hit, SearchRequest, SearchResponse
from search.query.rerank import get_reranker, rerank
from search.store import Store

log = logging.getLogger(__name__)
IDENTIFIER_WEIGHT = 0.5  # normalization fusion: share of the exact section-label list when the query cites one


def pipeline_for(req: SearchRequest, n_subqueries: int) -> tuple[str, dict]:
    if req.fusion == "rrf":
        return pipelines.rrf_pipeline_name(req.rank_constant), pipelines.rrf_pipeline_body(req.rank_constant)
    weights = tuple(req.weights)
    if n_subqueries == 3 and len(weights) == 2:
        scale = 1.0 - IDENTIFIER_WEIGHT
        weights = (weights[0] * scale, weights[1] * scale, IDENTIFIER_WEIGHT)
    elif n_subqueries == 1:
        weights = (1.0,)
    return (pipelines.normalization_pipeline_name(req.normalization, weights),
            pipelines.normalization_pipeline_body(req.normalization, weights))


def effective_routing(routing: str, refs) -> str:
    """"auto" restricts the search to the routed documents unless the query cites a section
    ("s.21A", "clause 14.3", "Schedule 1"): then the exact label decides where to look, and
    cutting the search down to the documents whose title and summary match best could cut away
    the one that holds the section (measured on the gold set, docs/results.md)."""
    if routing != "auto":
        return routing
    return "off" if any(not r.external for r in refs) else "filter"


def filters_for(req: SearchRequest) -> builder.Filters:
    return builder.Filters(
        as_of=req.as_of, jurisdictions=req.jurisdictions, doc_ids=req.doc_ids, doc_types=req.doc_types,
        languages=req.languages, groups=req.groups,
    )


class SearchService:
    """Answers SearchRequests against one node; caches index metadata and models per process."""

    def __init__(self, settings: Settings, store: Store | None = None):
        self.settings = settings
        self.store = store or Store(settings)
        self._meta: dict[str, dict] = {}
        self._cache: EmbeddingCache | None = None

    def index_meta(self, index: str) -> dict:
        if index not in self._meta:
            self._meta[index] = indices.require_meta(self.store, index)
        return self._meta[index]

    def _vector_cache(self) -> EmbeddingCache:
        if self._cache is None:
            self._cache = EmbeddingCache(self.settings.cache_dir / "embeddings.sqlite")
        return self._cache

    def _search(self, index: str, body: dict, req: SearchRequest) -> tuple[list[dict], str | None]:
        n = len(builder.sub_queries(body))
        if "hybrid" not in body["query"]:
            return [h["_source"] for h in self.store.search(index, body)["hits"]["hits"]], None
        name, pipeline_body = pipeline_for(req, n)
        pipelines.ensure_pipeline(self.store, name, pipeline_body)
        result = self.store.search(index, body, pipeline=name)
        return [h["_source"] for h in result["hits"]["hits"]], name

    def route(self, req: SearchRequest, vector, filters: builder.Filters) -> list[str]:
        """The doc_keys of the best documents for the query (title, parties, summary)."""
        body = builder.routing_body(req.query, vector, filters, req.routing_docs)
        name, pipeline_body = pipelines.rrf_pipeline_name(req.rank_constant), pipelines.rrf_pipeline_body(req.rank_constant)
        pipelines.ensure_pipeline(self.store, name, pipeline_body)
        result = self.store.search(schema.alias_name(req.index, "docs"), body, pipeline=name)
        return [h["_source"]["doc_key"] for h in result["hits"]["hits"]]

    def search(self, req: SearchRequest, write_log: bool | None = None) -> SearchResponse:
        t_start = time.perf_counter()
        timings: dict[str, float] = {}
        meta = self.index_meta(req.index)
        refs = parse_identifiers(req.query)
        filters = filters_for(req)

        vector = None
        if req.mode in ("hybrid", "knn") or req.routing != "off":  # routing ranks documents by vector too
            t = time.perf_counter()
            vector = get_embedder(meta.get("embedder", "minilm")).embed_query(req.query).tolist()
            timings["embed"] = _ms(t)

        routed: list[str] = []
        boost: tuple[str, ...] = ()
        routing = effective_routing(req.routing, refs)
        if routing != "off":
            t = time.perf_counter()
            routed = self.route(req, vector, filters)
            timings["routing"] = _ms(t)
            if routing == "filter" and routed:
                filters = builder.Filters(**{**filters.__dict__, "doc_keys": tuple(routed)})
            elif routing == "boost":
                boost = tuple(routed)

        size = max(req.k, req.candidates or 0, req.rerank_depth if req.rerank != "off" else 0)
        body = builder.search_body(req.mode, text=req.query, vector=vector, filters=filters, size=size,
                                   refs=refs, boost_doc_keys=boost)
        t = time.perf_counter()
        sources, pipeline_name = self._search(req.index, body, req)
        timings["search"] = _ms(t)

        scores: dict[str, float] = {}
        reason = None
        if req.rerank != "off" and sources:
            reranker = get_reranker(req.rerank, req.rerank_model or self.settings.rerank_model,
                                    self._vector_cache())
            shortlist = sources[: req.rerank_depth]
            ranked, seconds = rerank(reranker, req.query, shortlist)
            timings["rerank"] = round(seconds * 1000, 2)
            sources = [s for s, _ in ranked] + sources[req.rerank_depth:]
            scores = {s["chunk_id"]: sc for s, sc in ranked}
            if req.rerank_threshold is not None:
                kept = [s for s in sources if scores.get(s["chunk_id"], float("-inf")) >= req.rerank_threshold]
                if not kept:
                    reason = f"all candidates scored below the rerank threshold {req.rerank_threshold}"
                sources = kept
        sources = sources[: req.k]
        if not sources and reason is None:
            reason = "no passage matched the query under the given filters (validity date, jurisdiction, access)"

        t = time.perf_counter()
        expansion = expand.expand(self.store, req.index, sources, filters, xrefs=req.expand_xrefs,
                                  definitions=req.expand_definitions)
        if req.expand_xrefs or req.expand_definitions:
            timings["expand"] = _ms(t)

        hits = [_hit(rank, src, via, scores.get(src["chunk_id"]) if via == "retrieval" else None)
                for rank, (src, via) in enumerate(expansion.ordered, start=1)]
        timings["total"] = _ms(t_start)
        response = SearchResponse(
            query=req.query, hits=hits, not_found=not hits, not_found_reason=reason if not hits else None,
            identifiers=[f"{r.kind} {r.label}" + (" (external)" if r.external else "") for r in refs],
            routed_docs=routed, unfollowed_refs=expansion.unfollowed, mixed_versions=_mixed_versions(hits),
            timings_ms=timings, mode=req.mode, pipeline=pipeline_name,
            rerank=None if req.rerank == "off" else req.rerank,
        )
        if self.settings.log_searches if write_log is None else write_log:
            self._log(req, response)
        return response

    def _log(self, req: SearchRequest, response: SearchResponse) -> None:
        from search.query import retrieval_log

        try:
            retrieval_log.write(self.store, self.settings.log_index, req, response)
        except LegalSearchError as e:  # the log must never fail a search
            log.warning("retrieval log not written: %s", e)


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def _hit(rank: int, source: dict, via: str, score: float | None) -> Hit:
    return Hit(
        rank=rank, chunk_id=source["chunk_id"], doc_id=source["doc_id"], doc_title=source.get("doc_title") or "",
        version=source.get("version") or "", valid_from=source.get("valid_from"), valid_to=source.get("valid_to"),
        jurisdiction=source.get("jurisdiction"), section=source.get("section"),
        heading_path=source.get("heading_path") or [], page=source.get("page"), source_path=source.get("source_path"),
        char_start=source["char_start"], char_end=source["char_end"], text=source["text"],
        citation=citations.cite(source), via=via, language=source.get("language"), doc_type=source.get("doc_type"),
        clause_labels=source.get("clause_labels") or [], score=score,
    )


def _mixed_versions(hits: list[Hit]) -> list[str]:
    versions: dict[str, set[str]] = {}
    for h in hits:
        versions.setdefault(h.doc_id, set()).add(h.version)
    return sorted(d for d, v in versions.items() if len(v) > 1)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
