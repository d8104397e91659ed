"""Query latency per mode on an ingested LegalBench-RAG index: p50 / p95 of the OpenSearch search
stage for bm25, knn, hybrid RRF and hybrid + e5 rerank, with plain BM25 as the reference ratio.
Query embedding is reported separately. A benchmark that prints figures, not a test.

    python benchmarks/query_latency.py --index eval-referenced-XXXX --data ../shared/data/legalbench-rag
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from search.config import Settings
from search.embed import Embedders
from search.evaluation.legalbench import load_benchmark
from search.query.models import SearchRequest
from search.query.service import SearchService
from search.store import Store

CASES = [  # routing off in the plain modes, so each row times one OpenSearch search
    ("bm25", {"mode": "bm25", "routing": "off"}),
    ("knn", {"mode": "knn", "routing": "off"}),
    ("hybrid rrf", {"mode": "hybrid", "fusion": "rrf", "routing": "off"}),
    ("hybrid normalization", {"mode": "hybrid", "fusion": "normalization", "routing": "off"}),
    ("hybrid rrf + e5 rerank", {"mode": "hybrid", "fusion": "rrf", "routing": "off", "rerank": "e5"}),
    ("default (norm. + routing auto)", {}),
]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--queries", type=int, default=100, help="queries per mode (spread over sub-corpora)")
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--cold-rerank", action="store_true",
                        help="empty embedding cache for the reranker (otherwise chunk embeddings cached by earlier "
                             "runs make e5 rescoring nearly free)")
    args = parser.parse_args()
    settings = Settings().model_copy(update={"log_searches": False})
    if args.cold_rerank:
        import tempfile

        settings = settings.model_copy(update={"cache_dir": Path(tempfile.mkdtemp(prefix="ls-latency-"))})
    service = SearchService(settings, Store(settings), Embedders(settings))
    queries = load_benchmark(args.data, limit_per_subset=max(1, args.queries // 4))
    texts = [q.query for q in queries][: args.queries]
    service.search(SearchRequest(query=texts[0], index=args.index, k=args.k))  # warm models and caches
    rows = {}
    for label, params in CASES:
        search, embed, rerank, total = [], [], [], []
        for text in texts:
            r = service.search(SearchRequest(query=text, index=args.index, k=args.k, expand_xrefs=False, **params))
            search.append(r.timings_ms["search"])
            embed.append(r.timings_ms.get("embed", 0.0))
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


if __name__ == "__main__":
    sys.exit(main())
