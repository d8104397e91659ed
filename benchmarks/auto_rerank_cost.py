"""What the default second stage (`rerank: auto`) costs a question. A benchmark that prints
figures, not a test.

For each question of a gold set, the defaults with the second stage off and on (`auto`), in
alternating order, wall time as the caller sees it (planning, the search, the deeper search when
the fused list lies in one document, the clause rescorer, expansion). The clause embeddings are
first read from an EMPTY embedding cache (a fresh cache folder: what the first questions on a
newly ingested long document meet), then again from the filled one (every later question).
Also: how many questions searched deeper and how many the clause rescorer reordered.

    python benchmarks/auto_rerank_cost.py --index r5-code --gold evaluation/gold/round5/code-gold.jsonl
    # the cache as an ingest left it (`--warm-clauses`, the default, embeds long documents' clauses):
    python benchmarks/auto_rerank_cost.py --index r5-code --gold evaluation/gold/round5/code-gold.jsonl --use-cache
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from legalsearch.scripts import Embedders, SearchRequest, SearchService, Settings, Store


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--index", required=True)
    p.add_argument("--gold", type=Path, required=True, help="A gold set (JSONL: query, as_of, groups).")
    p.add_argument("--queries", type=int, default=45)
    p.add_argument("--use-cache", action="store_true",
                   help="The first pass reads the settings' embedding cache as it is (e.g. as the ingest left it), "
                        "not an empty one.")
    args = p.parse_args()

    items = [json.loads(line) for line in args.gold.read_text().splitlines() if line.strip()][: args.queries]
    base = Settings()
    with tempfile.TemporaryDirectory(prefix="auto-rerank-cache-") as tmp:
        cold_dir = Path(tmp)
        for sub in ("onnx",):  # the exported models, not the vectors
            if (base.cache_dir / sub).exists():
                (cold_dir / sub).symlink_to(base.cache_dir / sub)
        settings = base.model_copy(update={"log_searches": False,
                                           "cache_dir": base.cache_dir if args.use_cache else cold_dir})
        service = SearchService(settings, Store(settings), Embedders(settings))
        service.search(SearchRequest(query="warm-up", index=args.index, rerank="off"))  # models loaded
        first = "auto, cache as found" if args.use_cache else "auto, empty cache"
        rows: dict[str, list[float]] = {"off": [], first: [], "auto, filled cache": []}
        deeper = reordered = 0
        for round_name in (first, "auto, filled cache"):
            for n, item in enumerate(items):
                fields = {"as_of": item.get("as_of"), "groups": tuple(item.get("groups") or ())}
                order = ("off", "auto") if n % 2 else ("auto", "off")
                for method in order:
                    req = SearchRequest(query=item["query"], index=args.index, rerank=method, **fields)
                    t = time.perf_counter()
                    response = service.search(req)
                    ms = (time.perf_counter() - t) * 1000
                    if method == "off":
                        if round_name == first:
                            rows["off"].append(ms)
                        continue
                    rows[round_name].append(ms)
                    if round_name == first:
                        deeper += "search_deeper" in response.timings_ms
                        reordered += response.rerank is not None
    print(f"index {args.index}, {len(items)} questions of {args.gold}: searched deeper {deeper}, "
          f"reordered by the clause rescorer {reordered}")
    print("| run | p50 ms | p95 ms | mean ms |")
    print("| --- | ---: | ---: | ---: |")
    for name, values in rows.items():
        print(f"| {name} | {pct(values, 0.5):.1f} | {pct(values, 0.95):.1f} | {statistics.fmean(values):.1f} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
