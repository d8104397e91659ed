"""Planning cost: the defaults against a plain hybrid query, side by side. A benchmark that prints
figures, not a test (issue 27, "Planning at the cost of a search").

For each question, in alternating order (machine load hits both alike), after warm-up questions:

* defaults: `SearchService.search` with no options (routing, focus, expansion, relevance, the
  retrieval log into `--log-index`), wall time as the caller sees it;
* plain: the question embedded by the index's own query embedder, then one raw opensearch-py
  `hybrid` query (a `match` on embedded_text + a `knn` on the vector, k = 10) through a min-max
  (0.3 / 0.7) or RRF pipeline: what a client with no planning does. Wall time, embedding included.

Prints p50 / p95 of each, the ratio defaults / plain, the p50 / p95 of each stage the defaults
report (timings_ms), and the load average before and after. `--dump FILE` writes each question's
ranked hits (chunk_id, via, relevance) as JSON lines, to compare two versions of the code.
`--profile N` then runs the defaults once more over the same questions under cProfile (apart from
the timed runs) and prints the wall time a question and the N functions with the most time of
their own: where the defaults' time goes (the node's answers are `SSLSocket.read`).

    python benchmarks/planning_cost.py --index eval-referenced-XXXX --data ../shared/data/legalbench-rag
    python benchmarks/planning_cost.py --index demo --gold evaluation/gold/round2/round2-gold.jsonl --queries 40
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from legalsearch.scripts import Embedders, SearchRequest, SearchService, Settings, Store, load_benchmark


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def questions(args) -> list[str]:
    """Gold-set questions, or LegalBench-RAG questions of --subset (default ContractNLI and MAUD), spread."""
    if args.gold:
        items = [json.loads(line) for line in args.gold.read_text().splitlines() if line.strip()]
        return [i["query"] for i in items][: args.queries]
    subsets = args.subset or ["contractnli", "maud"]
    per = -(-args.queries // len(subsets))
    by_subset = [[q.query for q in load_benchmark(args.data, [s], limit_per_subset=per)] for s in subsets]
    spread = [q for row in zip(*by_subset, strict=False) for q in row]
    return spread[: args.queries]


def plain_search(service: SearchService, index: str, fusion: str):
    """The plain hybrid query: embed, then one raw opensearch-py search (no legalsearch code on that path)."""
    meta = service.index_meta(index)
    embedder = service.embedders.for_query(meta)
    if fusion == "rrf":  # a plain client's own pipeline (as the OpenSearch documentation writes it)
        name, body = "plan27-plain-rrf", {"phase_results_processors": [{"score-ranker-processor": {
            "combination": {"technique": "rrf", "rank_constant": 60}}}]}
    else:
        name, body = "plan27-plain-min-max", {"phase_results_processors": [{"normalization-processor": {
            "normalization": {"technique": "min_max"},
            "combination": {"technique": "arithmetic_mean", "parameters": {"weights": [0.3, 0.7]}}}}]}
    service.store.client.transport.perform_request("PUT", f"/_search/pipeline/{name}", body=body)
    client = service.store.client
    chunks = service.target(index)[0]

    def run(question: str) -> list[str]:
        vector = [float(x) for x in embedder.embed_query(question)]
        query = {"size": 10, "_source": {"excludes": ["vector", "embedded_text"]},
                 "query": {"hybrid": {"queries": [{"match": {"embedded_text": question}},
                                                  {"knn": {"vector": {"vector": vector, "k": 10}}}]}}}
        answer = client.search(index=chunks, body=query, params={"search_pipeline": name})
        return [h["_id"] for h in answer["hits"]["hits"]]

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", required=True)
    parser.add_argument("--data", type=Path, help="LegalBench-RAG folder (benchmarks/ + corpus/)")
    parser.add_argument("--subset", action="append", help="LegalBench-RAG subset (repeatable; default contractnli, maud)")
    parser.add_argument("--gold", type=Path, help="a gold-set JSONL instead of LegalBench-RAG")
    parser.add_argument("--queries", type=int, default=120)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--fusion", choices=["min_max", "rrf"], default="min_max", help="the plain query's pipeline")
    parser.add_argument("--log-index", default="plan27-bench-log",
                        help="where the defaults write their retrieval log (not the shared one)")
    parser.add_argument("--dump", type=Path, help="write each question's ranked hits here (JSON lines)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="then profile the defaults over the same questions and print the top N functions")
    args = parser.parse_args()
    if not args.gold and not args.data:
        parser.error("give --data (LegalBench-RAG) or --gold (a gold-set JSONL)")
    settings = Settings().model_copy(update={"log_index": args.log_index})
    store = Store(settings)
    service = SearchService(settings, store, Embedders(settings))
    items = questions(args)
    plain = plain_search(service, args.index, args.fusion)

    def defaults(question: str):
        return service.search(SearchRequest(query=question, index=args.index))

    for question in items[: args.warmup]:
        defaults(question)
        plain(question)
    load_before = os.getloadavg()
    times: dict[str, list[float]] = {"defaults": [], "plain": []}
    stages: dict[str, list[float]] = {}
    dumped = []
    for i, question in enumerate(items):
        order = ("defaults", "plain") if i % 2 == 0 else ("plain", "defaults")
        for name in order:
            start = time.perf_counter()
            result = defaults(question) if name == "defaults" else plain(question)
            times[name].append((time.perf_counter() - start) * 1000)
            if name == "defaults":
                for stage, ms in result.timings_ms.items():
                    stages.setdefault(stage, []).append(ms)
                dumped.append({"query": question, "not_found": result.not_found,
                               "hits": [[h.chunk_id, h.via, h.relevance] for h in result.hits]})
    load_after = os.getloadavg()
    profiled = profile(defaults, items, args.profile) if args.profile else None
    if hasattr(service, "close"):  # the retrieval log written off the request path: flushed
        service.close()
    n = len(items)
    print(f"{n} questions on index {args.index} ({args.warmup} warm-up), interleaved; wall ms as the caller sees it")
    print(f"load average (1/5/15 min) before {' '.join(f'{x:.2f}' for x in load_before)}, "
          f"after {' '.join(f'{x:.2f}' for x in load_after)} ({os.cpu_count()} cores)")
    print(f"{'':<52} {'p50':>7} {'p95':>7}")
    print(f"{'defaults (SearchService.search, no options)':<52} {pct(times['defaults'], .5):>7.1f} "
          f"{pct(times['defaults'], .95):>7.1f}")
    print(f"{'plain hybrid (' + args.fusion + ') + question embedding':<52} {pct(times['plain'], .5):>7.1f} "
          f"{pct(times['plain'], .95):>7.1f}")
    print(f"{'ratio defaults / plain':<52} {pct(times['defaults'], .5) / pct(times['plain'], .5):>7.2f} "
          f"{pct(times['defaults'], .95) / pct(times['plain'], .95):>7.2f}")
    print("defaults by stage (timings_ms; a stage counts where it ran):")
    for stage, values in stages.items():
        print(f"  {stage:<20} n={len(values):<4} p50 {pct(values, .5):>7.1f}  p95 {pct(values, .95):>7.1f}")
    if args.dump:
        args.dump.write_text("".join(json.dumps(d) + "\n" for d in dumped))
    if profiled:
        print(profiled, end="")


def profile(defaults, items: list[str], top: int) -> str:
    """The defaults over `items` once more under cProfile: wall ms a question, then the `top`
    functions by their own time (ms a question)."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    for question in items:
        defaults(question)
    profiler.disable()
    wall = (time.perf_counter() - start) * 1000 / len(items)
    stats = pstats.Stats(profiler).stats  # (file, line, name) -> (calls, primitive calls, own s, cumulative s, callers)
    rows = sorted(stats.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
    lines = [f"profiled defaults: {wall:.1f} ms a question (cProfile, which slows the Python side); "
             f"top {top} by own time, ms a question:"]
    for (file, line, name), (calls, _, own, _, _) in rows:
        where = name if file == "~" else f"{Path(file).name}:{line}({name})"
        lines.append(f"  {own * 1000 / len(items):7.2f}  {calls / len(items):7.1f} calls  {where}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
