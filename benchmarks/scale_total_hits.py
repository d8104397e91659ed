"""Does `track_total_hits: false` speed up a large index? A benchmark that prints figures, not a test.

    python benchmarks/scale_total_hits.py --data ../shared/data/legalbench-rag --index scale-float --queries 60

On an index grown by benchmarks/scale.py: each question in bm25 / hybrid RRF / hybrid norm. (routing
off, filters as in scale.py), once with OpenSearch's default total-hit count (up to 10,000) and once
with `track_total_hits: false` (block-max WAND may skip from the first hit), in a shuffled order;
prints p50 / p95 of the round trip and how often the top 10 are the same.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scale  # noqa: E402  (the same filters and percentiles)
from legalsearch.scripts import Embedders, SearchRequest, SearchService, Settings, Store, load_benchmark  # noqa: E402

MODES = {label: params for label, params in scale.MODES.items() if label != "knn"}  # BM25 and the hybrids
VARIANTS = ("default", "track_total_hits false")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="LegalBench-RAG directory")
    parser.add_argument("--index", default="scale-float", help="an index grown by benchmarks/scale.py")
    parser.add_argument("--queries", type=int, default=60)
    args = parser.parse_args()
    settings = Settings().model_copy(update={"log_searches": False})
    service = SearchService(settings, Store(settings), Embedders(settings))
    texts = [q.query for q in load_benchmark(args.data, limit_per_subset=max(1, args.queries // 4))][: args.queries]
    common = {"index": args.index, "k": 10, "routing": "off", "expand_xrefs": False, "as_of": scale.AS_OF,
              "groups": (scale.GROUP,)}
    plans = {(t, m): service.plan(SearchRequest(query=t, **common, **p)) for t in texts for m, p in MODES.items()}
    for t in texts[:5]:  # warm the caches and the pipelines
        for m in MODES:
            service.run(plans[(t, m)])
    times: dict[tuple[str, str], list[float]] = {(m, v): [] for m in MODES for v in VARIANTS}
    same = total = 0
    rng = random.Random(3)
    for t in texts:
        for m in MODES:
            order = list(VARIANTS)
            rng.shuffle(order)
            ids = {}
            for v in order:
                body = dict(plans[(t, m)].body)
                if v != "default":
                    body["track_total_hits"] = False
                t0 = time.perf_counter()
                ranked = service.run(plans[(t, m)], body)
                times[(m, v)].append((time.perf_counter() - t0) * 1000)
                ids[v] = [source["chunk_id"] for source, _ in ranked]
            total += 1
            same += ids[VARIANTS[0]] == ids[VARIANTS[1]]
    print(f"index {args.index}, {len(texts)} questions, load average {os.getloadavg()[0]:.1f}; "
          f"same top-10 in {same}/{total}")
    print("| mode | default p50 | p95 | track_total_hits false p50 | p95 |")
    print("|---|---:|---:|---:|---:|")
    for m in MODES:
        a, b = times[(m, VARIANTS[0])], times[(m, VARIANTS[1])]
        print(f"| {m} | {scale.pct(a, .5):.1f} | {scale.pct(a, .95):.1f} | {scale.pct(b, .5):.1f} | "
              f"{scale.pct(b, .95):.1f} |")


if __name__ == "__main__":
    sys.exit(main())
