"""Fusion: the search pipelines that fuse the sub-queries of a `hybrid` query inside OpenSearch
(request bodies, the choice for a request, and their installation on a node).

Names carry a version so a changed definition never silently alters a running deployment:
- `legalsearch-norm-v1-<technique>-<w_bm25>-<w_knn>[-<w_identifier>]`: normalization-processor,
  min_max or l2, arithmetic mean with one weight per sub-query (weights sum to 1). The default:
  min-max, BM25 0.3 / k-NN 0.7, and 0.5 for the exact section-label list when a query cites one
  (the best of the weights compared on LegalBench-RAG and the gold sets).
- `legalsearch-rrf-v1-k<rank_constant>`: score-ranker-processor, reciprocal rank fusion.
- `<either name>-explain`: the same fusion plus neural-search's `hybrid_score_explanation` response
  processor, which `legalsearch explain` runs (with `explain=true`) and no search does.
"""

from __future__ import annotations

from legalsearch.errors import QueryError

DEFAULT_RANK_CONSTANT = 60


def rrf_pipeline_name(rank_constant: int = DEFAULT_RANK_CONSTANT) -> str:
    return f"legalsearch-rrf-v1-k{rank_constant}"


def rrf_pipeline_body(rank_constant: int = DEFAULT_RANK_CONSTANT) -> dict:
    if rank_constant < 1:
        raise QueryError(f"rank_constant must be >= 1, got {rank_constant}")
    return {
        "description": f"legalsearch: reciprocal rank fusion of BM25 and k-NN (rank_constant {rank_constant})",
        "phase_results_processors": [
            {
                "score-ranker-processor": {
                    # rank_constant must sit inside `parameters` (outside it is silently ignored).
                    "combination": {"technique": "rrf", "parameters": {"rank_constant": rank_constant}}
                }
            }
        ],
    }


def normalization_pipeline_name(technique: str = "min_max", weights: tuple[float, ...] = (0.5, 0.5)) -> str:
    places = 2 if all(abs(round(x, 2) - x) < 1e-9 for x in weights) else 4  # "030-070"; finer when needed
    w = "-".join(f"{x:.{places}f}".replace(".", "") for x in weights)
    return f"legalsearch-norm-v1-{technique.replace('_', '')}-{w}"


def normalization_pipeline_body(technique: str = "min_max", weights: tuple[float, ...] = (0.5, 0.5)) -> dict:
    """Weights: one per sub-query (BM25, k-NN[, identifier]), non-negative, summing to 1."""
    if technique not in ("min_max", "l2"):
        raise QueryError(f"normalization technique must be min_max or l2, got {technique!r}")
    if not 2 <= len(weights) <= 5 or abs(sum(weights) - 1.0) > 1e-6 or min(weights) < 0:
        raise QueryError(
            f"weights must be 2 to 5 non-negative numbers (one per sub-query) summing to 1, got {weights}"
        )
    return {
        "description": f"legalsearch: {technique} normalization, arithmetic mean, weights {list(weights)}",
        "phase_results_processors": [
            {
                "normalization-processor": {
                    "normalization": {"technique": technique},
                    "combination": {"technique": "arithmetic_mean", "parameters": {"weights": list(weights)}},
                }
            }
        ],
    }


EXPLANATION_PROCESSOR = "hybrid_score_explanation"
"""neural-search's response processor (2.19+) that writes, into each hit's `_explanation` of a
hybrid query run with `explain=true`, the combination, each sub-query's normalized score and the
sub-query's own Lucene explanation."""


def explain_pipeline(name: str, body: dict) -> tuple[str, dict]:
    """(name, body) of the pipeline that explains the fusion pipeline `name` / `body`: the same
    phase-results processor plus `hybrid_score_explanation`, under a name of its own, so a search
    that names `name` never runs the explanation (nor pays for it)."""
    return f"{name}-explain", {
        **body,
        "description": f"{body.get('description', name)}; explained (hybrid_score_explanation)",
        "response_processors": [{EXPLANATION_PROCESSOR: {}}],
    }


def default_pipelines() -> dict[str, dict]:
    """The pipelines `legalsearch pipelines install` puts on the node."""
    return {
        rrf_pipeline_name(): rrf_pipeline_body(),
        normalization_pipeline_name("min_max", (0.5, 0.5)): normalization_pipeline_body("min_max", (0.5, 0.5)),
        normalization_pipeline_name("l2", (0.5, 0.5)): normalization_pipeline_body("l2", (0.5, 0.5)),
    }


def install_pipelines(store, pipelines: dict[str, dict] | None = None) -> list[str]:
    """Create or update the pipelines (idempotent: PUT replaces the same definition)."""
    pipelines = pipelines or default_pipelines()
    for name, body in pipelines.items():
        store.put_search_pipeline(name, body)
    return list(pipelines)


IDENTIFIER_WEIGHT = 0.5
"""normalization fusion: the share of the exact section-label list when the query cites one."""


def list_weights(kinds: tuple[str, ...], weights: tuple[float, ...], title_weight: float = 0.0) -> tuple[float, ...]:
    """One weight per fused list, in order. `weights` are the BM25 / k-NN shares (0.3 / 0.7); an
    "identifier" list takes IDENTIFIER_WEIGHT and a "title" list `title_weight` of the whole, the
    BM25 and k-NN lists share the rest in their own proportion. Rounded to 4 places (the
    pipeline's name carries them); the largest absorbs the rounding so they sum to 1."""
    if len(kinds) == 1:
        return (1.0,)
    extra = {"identifier": IDENTIFIER_WEIGHT, "title": title_weight}
    base = {"bm25": weights[0], "knn": weights[1]} if len(weights) >= 2 else {"bm25": 0.5, "knn": 0.5}
    present = [k for k in kinds if k in base]
    base_total = sum(base[k] for k in present) or 1.0
    rest = 1.0 - sum(extra.get(k, 0.0) for k in kinds if k not in base)
    raw = [extra[k] if k not in base else rest * base[k] / base_total for k in kinds]
    rounded = [round(w, 4) for w in raw]
    i = max(range(len(rounded)), key=lambda j: rounded[j])
    rounded[i] = round(rounded[i] + 1.0 - sum(rounded), 4)
    return tuple(rounded)


def pipeline_for(fusion: str, rank_constant: int, normalization: str, weights: tuple[float, ...],
                 kinds: tuple[str, ...], title_weight: float = 0.0) -> tuple[str, dict]:
    """The pipeline (name, body) that fuses the lists `kinds` ("bm25", "knn", "identifier",
    "title", in body order) for a request's fusion settings."""
    if fusion == "rrf":
        return rrf_pipeline_name(rank_constant), rrf_pipeline_body(rank_constant)
    if len(kinds) == len(weights) and set(kinds) <= {"bm25", "knn"}:
        final = tuple(weights)
    else:
        final = list_weights(tuple(kinds), tuple(weights), title_weight)
    return normalization_pipeline_name(normalization, final), normalization_pipeline_body(normalization, final)


class FusionPipelines:
    """Makes sure a pipeline exists on the node before a search names it (checked once per
    pipeline for the life of this object, which the search service owns)."""

    def __init__(self, store):
        self.store = store
        self._ready: set[str] = set()

    def ensure(self, name: str, body: dict) -> str:
        if name not in self._ready:
            if not self.store.get_search_pipelines(name):
                self.store.put_search_pipeline(name, body)
            self._ready.add(name)
        return name
