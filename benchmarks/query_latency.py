"""Query latency. A benchmark that prints figures, not a test.

Per mode (default): p50 / p95 of the OpenSearch search stage for bm25, knn, hybrid RRF and hybrid
+ e5 rerank, with plain BM25 as the reference ratio; query embedding reported separately; then the
defaults with the second stage of evaluation/configs/round5 (clause alone, and e5+clause).

With --engine (docs/engine.md): the hybrid query with the question embedded in this process
("python": our embedder + a `knn` sub-query) against the question embedded INSIDE OpenSearch by the
index's remote model ("engine": `neural`, `legalsearch search --embedding engine`) and the stored
template run by raw opensearch-py ("template": what any other client does). Routing off, k = 10,
no expansion, no retrieval log. The three run query by query in rotating order (machine load hits
each alike), after warm-up queries; wall time as the caller sees it, embedding included. Needs
`legalsearch pipelines install --index NAME` first.

    python benchmarks/query_latency.py --index eval-referenced-XXXX --data ../shared/data/legalbench-rag
    python benchmarks/query_latency.py --index demo --gold evaluation/gold/sample-gold.jsonl --engine --rounds 2
    python benchmarks/query_latency.py --index cnli --data ../shared/data/legalbench-rag --subset contractnli --engine
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from legalsearch.scripts import (
    Embedders,
    Filters,
    SearchRequest,
    SearchService,
    Settings,
    Store,
    load_benchmark,
    parse_identifiers,
    templates,
)

CASES = [  # routing off in the plain modes, so each row times one OpenSearch search
    ("bm25", {"mode": "bm25", "routing": "off"}),
    ("knn", {"mode": "knn", "routing": "off"}),
    ("hybrid rrf", {"mode": "hybrid", "fusion": "rrf", "routing": "off"}),
    ("hybrid normalization", {"mode": "hybrid", "fusion": "normalization", "routing": "off"}),
    ("hybrid rrf + e5 rerank", {"mode": "hybrid", "fusion": "rrf", "routing": "off", "rerank": "e5"}),
    ("default (norm. + routing auto)", {}),
    ("default + clause rescoring", {"rerank": "clause", "rerank_depth": 32, "rerank_weight": 0.8,
                                    "rerank_neighbours": 0.2}),
    ("default + e5+clause (rescore)", {"rerank": "e5+clause", "rerank_depth": 32, "rerank_weight": 0.8,
                                       "rerank_neighbours": 0.2}),
]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def questions(args) -> list[tuple[str, dict]]:
    """(question, filters as SearchRequest fields) from the gold set or LegalBench-RAG."""
    if args.gold:
        items = [json.loads(line) for line in args.gold.read_text().splitlines() if line.strip()]
        return [(i["query"], {"as_of": i.get("as_of"), "groups": tuple(i.get("groups") or ())}) for i in items]
    subsets = [args.subset] if args.subset else None
    queries = load_benchmark(args.data, subsets, limit_per_subset=args.queries if args.subset else max(1, args.queries // 4))
    return [(q.query, {}) for q in queries][: args.queries]


def modes(service: SearchService, index: str):
    """The hybrid search three ways; each returns the ranked chunk ids (checked to agree)."""
    client = service.store.client  # raw opensearch-py for the template: no legalsearch code on that path

    def python(question, fields):
        req = SearchRequest(query=question, index=index, k=10, routing="off", expand_xrefs=False, **fields)
        return [h.chunk_id for h in service.search(req).hits]

    def engine(question, fields):
        req = SearchRequest(query=question, index=index, k=10, routing="off", expand_xrefs=False, embedding="engine",
                            **fields)
        return [h.chunk_id for h in service.search(req).hits]

    def template(question, fields, params_cache={}):  # noqa: B006 - params are computed once per question
        key = (question, json.dumps(fields, default=str))
        if key not in params_cache:
            filters = Filters(**{k: v for k, v in fields.items() if v})
            params_cache[key] = templates.template_params(question, filters, parse_identifiers(question), 10)
        answer = client.search_template(index=index, body={"id": templates.HYBRID_TEMPLATE, "params": params_cache[key]})
        return [h["_id"] for h in answer["hits"]["hits"]]

    return {"python": python, "engine": engine, "template": template}


def engine_comparison(service: SearchService, args, items) -> None:
    runs = modes(service, args.index)
    names = list(runs)
    for question, fields in items[:10]:  # warm-up: models, connections, caches
        for run in runs.values():
            run(question, fields)
    times: dict[str, list[float]] = {n: [] for n in names}
    same = differ = 0
    for r in range(args.rounds):
        for i, (question, fields) in enumerate(items):
            got = {}
            for j in range(len(names)):
                name = names[(i + j + r) % len(names)]
                start = time.perf_counter()
                got[name] = runs[name](question, fields)
                times[name].append((time.perf_counter() - start) * 1000)
            if got["python"] == got["engine"] == got["template"]:
                same += 1
            else:
                differ += 1
    n = len(times["python"])
    print(f"{n} hybrid searches per mode ({len(items)} questions x {args.rounds} rounds) on index {args.index}, "
          f"k=10, routing off; wall ms as the caller sees it, embedding included")
    print(f"{'mode':<58} {'p50':>7} {'p95':>7} {'paired diff p50 vs python':>26}")
    labels = {"python": "python: embed in this process + knn (SearchService)",
              "engine": "engine: neural, model inside OpenSearch (SearchService)",
              "template": "template: raw opensearch-py GET _search/template"}
    for name in names:
        diffs = [a - b for a, b in zip(times[name], times["python"], strict=True)]
        print(f"{labels[name]:<58} {pct(times[name], .5):>7.1f} {pct(times[name], .95):>7.1f} "
              f"{statistics.median(diffs):>+26.1f}")
    print(f"same top-10 in all three modes: {same}/{same + differ}")


def mode_table(service: SearchService, args, items) -> None:
    texts = [q for q, _ in items]
    service.search(SearchRequest(query=texts[0], index=args.index, k=args.k))  # warm models and caches
    rows = {}
    for label, params in CASES:
        search, embed, rerank, total = [], [], [], []
        for text in texts:
            r = service.search(SearchRequest(query=text, index=args.index, k=args.k, expand_xrefs=False, **params))
            search.append(r.timings_ms["search"])
            embed.append(r.timings_ms.get("embed", 0.0) + r.timings_ms.get("embed_focused", 0.0))
            rerank.append(r.timings_ms.get("rerank", 0.0))
            total.append(r.timings_ms["total"])
        rows[label] = (search, embed, rerank, total)
    base = statistics.median(rows["bm25"][0])
    print(f"{len(texts)} queries per mode on index {args.index}, k={args.k}; times in ms; "
          f"rerank cache {'cold' if args.cold_rerank else 'warm'}")
    print(f"{'mode':<31} {'search p50':>10} {'p95':>8} {'x bm25':>7} {'embed p50':>10} {'rerank p50':>11} {'total p50':>10} {'p95':>8}")
    for label, (search, embed, rerank, total) in rows.items():
        print(f"{label:<31} {pct(search, .5):>10.1f} {pct(search, .95):>8.1f} {pct(search, .5) / base:>7.2f} "
              f"{pct(embed, .5):>10.1f} {pct(rerank, .5):>11.1f} {pct(total, .5):>10.1f} {pct(total, .95):>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", required=True)
    parser.add_argument("--data", type=Path, help="LegalBench-RAG folder (benchmarks/ + corpus/)")
    parser.add_argument("--subset", default=None, help="one LegalBench-RAG subset (default: all, spread)")
    parser.add_argument("--gold", type=Path, help="a gold-set JSONL instead of LegalBench-RAG (with its as_of / groups)")
    parser.add_argument("--queries", type=int, default=100, help="queries per mode")
    parser.add_argument("--rounds", type=int, default=1, help="--engine: passes over the questions")
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--engine", action="store_true", help="hybrid: Python-side vs engine-side query embedding")
    parser.add_argument("--torch-threads", type=int, default=None,
                        help="torch threads of this process (the embedding server uses LEGALSEARCH_EMBED_SERVER_THREADS, 1)")
    parser.add_argument("--cold-rerank", action="store_true",
                        help="empty embedding cache for the reranker (otherwise chunk embeddings cached by earlier "
                             "runs make e5 rescoring nearly free)")
    args = parser.parse_args()
    if not args.gold and not args.data:
        parser.error("give --data (LegalBench-RAG) or --gold (a gold-set JSONL)")
    settings = Settings().model_copy(update={"log_searches": False})
    if args.cold_rerank:
        import tempfile

        settings = settings.model_copy(update={"cache_dir": Path(tempfile.mkdtemp(prefix="ls-latency-"))})
    if args.torch_threads:
        import torch

        torch.set_num_threads(args.torch_threads)
    store = Store(settings)
    service = SearchService(settings, store, Embedders(settings))
    items = questions(args)[: args.queries]
    if args.engine:
        engine_comparison(service, args, items)
    else:
        mode_table(service, args, items)


if __name__ == "__main__":
    sys.exit(main())
