"""Runner orchestration with a small in-memory retriever, and the configuration files."""

import json
from pathlib import Path

import pytest
from legalsearch.errors import ConfigError
from legalsearch.evaluation.gold import GoldItem, score_gold
from legalsearch.evaluation.legalbench import BenchQuery
from legalsearch.evaluation.metrics import EvaluationError, Span
from legalsearch.evaluation.runner import (
    EvalConfig,
    config_fingerprint,
    load_config,
    load_configs,
    run_gold,
    run_legalbench,
)
from legalsearch.query import profiles

CONFIG_DIR = Path(__file__).resolve().parents[3] / "evaluation" / "configs"


class TableRetriever:
    """Answers from a fixed table and records every call (the behaviour under test is the
    runner's cutting and averaging, not retrieval)."""

    def __init__(self, table: dict[str, list[Span]]):
        self.table = table
        self.calls: list[tuple[str, int]] = []

    def retrieve(self, query: str, k: int) -> list[Span]:
        self.calls.append((query, k))
        return self.table[query][:k]


QUERIES = [
    BenchQuery("nli-0000", "nli", "q1", (Span("nli/a.txt", 0, 100),)),
    BenchQuery("nli-0001", "nli", "q2", (Span("nli/b.txt", 0, 100),)),
    BenchQuery("pqa-0000", "pqa", "q3", (Span("pqa/p.txt", 0, 50),)),
]
TABLE = {
    "q1": [Span("nli/a.txt", 0, 100), Span("nli/x.txt", 0, 100)],  # right, then wrong doc
    "q2": [Span("nli/x.txt", 0, 100), Span("nli/b.txt", 50, 150)],  # wrong doc, then half
    "q3": [Span("pqa/p.txt", 0, 100)],  # one span, half of it gold
}


def test_run_legalbench_queries_once_at_max_k_and_averages_subsets_equally():
    retriever = TableRetriever(TABLE)
    aggregates, rows = run_legalbench(QUERIES, retriever, ks=(1, 2), budgets=(100,), progress=False)
    assert retriever.calls == [("q1", 2), ("q2", 2), ("q3", 2)]
    nli, pqa, avg = aggregates["nli"], aggregates["pqa"], aggregates["average"]
    assert nli["recall@1"] == pytest.approx((1.0 + 0.0) / 2)
    assert nli["recall@2"] == pytest.approx((1.0 + 50 / 100) / 2)
    assert nli["drm@1"] == pytest.approx((0.0 + 1.0) / 2)
    assert nli["precision@2"] == pytest.approx((100 / 200 + 50 / 200) / 2)
    assert pqa["precision@1"] == pytest.approx(50 / 100)
    # subsets weigh the same: nli has two queries, pqa one
    assert avg["recall@1"] == pytest.approx(((1.0 + 0.0) / 2 + 50 / 50) / 2)
    assert avg["recall@mean"] == pytest.approx((avg["recall@1"] + avg["recall@2"]) / 2)
    assert avg["n_queries"] == 3 and nli["n_queries"] == 2
    # budget 100 keeps only the first span
    assert nli["recall@budget100"] == pytest.approx((1.0 + 0.0) / 2)
    assert rows[1]["query_id"] == "nli-0001"
    assert rows[1]["retrieved"][1] == {"file_path": "nli/b.txt", "start": 50, "end": 150}
    assert rows[1]["metrics"]["recall@2"] == pytest.approx(50 / 100)


def test_run_legalbench_cuts_a_retriever_that_returns_too_many():
    class Greedy:
        def retrieve(self, query, k):
            return [Span("nli/x.txt", i, i + 1) for i in range(k + 5)]

    _, rows = run_legalbench(QUERIES[:1], Greedy(), ks=(1, 4), budgets=(), progress=False)
    assert len(rows[0]["retrieved"]) == 4


def test_run_legalbench_rejects_non_spans_and_no_queries():
    class Wrong:
        def retrieve(self, query, k):
            return [("nli/a.txt", 0, 10)]

    with pytest.raises(EvaluationError, match="must return Span"):
        run_legalbench(QUERIES, Wrong(), ks=(1,), progress=False)
    with pytest.raises(EvaluationError, match="no queries"):
        run_legalbench([], TableRetriever({}), progress=False)


def test_run_gold_feeds_score_gold():
    class Searcher:
        def search(self, item, k):
            return [{"rank": 1, "doc_id": "lease", "section": "14.3", "via": "retrieval"}][:k]

    item = GoldItem.model_validate(
        {"id": "g", "query": "q", "type": "identifier", "language": "en",
         "expected": [{"doc_id": "lease", "section": "Clause 14.3"}]}
    )  # fmt: skip
    results = run_gold([item], Searcher(), k=10, progress=False)
    assert score_gold([item], results)["overall"]["mrr"] == 1.0


def test_shipped_configs_load_and_include_the_seven_compared():
    configs = load_configs(CONFIG_DIR)
    assert {c.name for c in configs} >= set(
        [
            "standard-rag",
            "sac-dense",
            "sac-hybrid-rrf",
            "structural-sac-hybrid-rrf",
            "structural-sac-hybrid-rrf-routing",
            "structural-sac-hybrid-rrf-routing-rerank",
            "structural-sac-hybrid-normalization",
        ]
    )
    for path in CONFIG_DIR.glob("*.json"):
        assert load_config(path).name == path.stem
    by_name = {c.name: c for c in configs}
    assert by_name["standard-rag"].summarizer is None and by_name["standard-rag"].request_fields()["mode"] == "knn"
    assert by_name["structural-sac-hybrid-rrf-routing-rerank"].request_fields()["rerank"] == "e5"


def test_unknown_config_key_fails_clearly(tmp_path):
    path = tmp_path / "typo.json"
    path.write_text(
        json.dumps(
            {"name": "typo", "chunker": "recursive", "chunk_size": 500, "mode": "knn", "rerankk": "e5"}
        )
    )
    with pytest.raises(ConfigError, match=r"typo.json(?s:.*)rerankk"):
        load_config(path)


def test_bad_config_value_fails_clearly(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"name": "bad", "chunker": "semantic", "chunk_size": 500, "set": {"mode": "knn"}}))
    with pytest.raises(ConfigError, match="chunker"):
        load_config(path)


def test_load_configs_by_name_and_unknown_name():
    configs = load_configs(CONFIG_DIR, names=["sac-dense", "standard-rag"])
    assert [c.name for c in configs] == ["sac-dense", "standard-rag"]
    with pytest.raises(ConfigError, match="unknown config"):
        load_configs(CONFIG_DIR, names=["nope"])


def test_config_fingerprint_tracks_only_index_fields():
    base = EvalConfig(name="a", chunker="recursive", chunk_size=500, summarizer="fingerprint", set={"mode": "knn"})
    same_index = EvalConfig(name="b", chunker="recursive", chunk_size=500, summarizer="fingerprint", profile="rescore",
                            set={"mode": "hybrid", "routing": "filter"})
    assert config_fingerprint(same_index) == config_fingerprint(base)
    for change in ({"chunker": "structural"}, {"chunk_size": 800}, {"summarizer": None}, {"embedder": "e5"},
                   {"embed_parts": ("heading", "text")}):
        assert config_fingerprint(base.model_copy(update=change)) != config_fingerprint(base)
    assert config_fingerprint(base) == config_fingerprint(base.model_copy())
    assert len(config_fingerprint(base)) == 12
    # embed_parts left at None keeps the fingerprints (and the cached indices) of configs written before it
    assert "embed_parts" not in base.request_fields()
    import hashlib
    import json

    from legalsearch.embed.models import build_for, build_key

    default = load_config(CONFIG_DIR / "default.json")
    legacy = {"chunker": default.chunker, "chunk_size": default.chunk_size, "summarizer": default.summarizer,
              "embedder": build_key(build_for(default.embedder))}
    assert config_fingerprint(default) == hashlib.sha256(json.dumps(legacy, sort_keys=True).encode()).hexdigest()[:12]


def test_request_fields_carry_the_second_stage_to_every_evaluation():
    """`eval legalbench` and `eval gold --config` build their requests from request_fields: the
    reranker, its depth, blend weight and neighbour share must reach the SearchRequest."""
    from legalsearch.query.models import RerankOptions, SearchRequest

    config = load_config(CONFIG_DIR / "round5" / "rescore.json")
    assert config.profile == "rescore" and config.overrides == {}
    req = SearchRequest(query="q", index="i", **config.request_fields())
    assert req.rerank == RerankOptions(method="e5+clause", depth=32, weight=0.8, neighbours=0.2)
    plain = SearchRequest(query="q", index="i", **load_config(CONFIG_DIR / "default.json").request_fields())
    assert plain == SearchRequest(query="q", index="i")


def test_every_configuration_names_its_baseline_and_only_known_options(tmp_path):
    """The files state a profile and the options they change from it; a typo is refused."""
    for path in sorted(CONFIG_DIR.rglob("*.json")):
        raw = json.loads(path.read_text())
        assert raw["profile"] in profiles.names(), path
        load_config(path)
    bad = tmp_path / "typo.json"
    bad.write_text(json.dumps({"name": "typo", "set": {"rerank_dpth": 3}}))
    with pytest.raises(ConfigError, match="rerank_dpth"):
        load_config(bad)
    worse = tmp_path / "bad-value.json"
    worse.write_text(json.dumps({"name": "bad-value", "set": {"rerank_depth": 0}}))
    with pytest.raises(ConfigError, match="rerank.depth"):
        load_config(worse)
