"""Same answers on a cluster? The top k of every search mode for every gold question, on two
indices (e.g. one node vs a cluster, one shard vs three): how many lists are identical, the
mean overlap of the two top-k sets and the top-1 agreement. A benchmark that prints figures,
not a test (tests/integration/cluster asserts the configurations that must be identical).

    python benchmarks/cluster_answers.py --a http://127.0.0.1:9200 --index-a samples \
        --b http://127.0.0.1:9201,http://127.0.0.1:9202 --index-b samples
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from legalsearch.scripts import (
    Embedders,
    SearchRequest,
    SearchService,
    Settings,
    Store,
    indices,
    load_gold,
    parse_identifiers,
)

REPO = Path(__file__).resolve().parent.parent
MODES = [
    ("hybrid normalization (default)", {"mode": "hybrid", "fusion": "normalization"}),
    ("hybrid rrf", {"mode": "hybrid", "fusion": "rrf"}),
    ("bm25 (routing off)", {"mode": "bm25", "routing": "off"}),
    ("knn (routing off)", {"mode": "knn", "routing": "off"}),
]


def top(service: SearchService, index: str, item, k: int, fields: dict) -> list[str]:
    req = SearchRequest(query=item.query, index=index, k=k, as_of=item.as_of, groups=tuple(item.groups),
                        expand_xrefs=False, **fields)
    return [h.chunk_id for h in service.search(req, write_log=False).hits]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", required=True, help="URL(s) of the first node or cluster")
    parser.add_argument("--index-a", required=True)
    parser.add_argument("--b", required=True, help="URL(s) of the second")
    parser.add_argument("--index-b", required=True)
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--gold", type=Path, default=REPO / "evaluation" / "gold" / "sample-gold.jsonl")
    args = parser.parse_args()
    settings = Settings().model_copy(update={"log_searches": False})
    embedders = Embedders()
    sides = []
    for url, index in ((args.a, args.index_a), (args.b, args.index_b)):
        store = Store(settings, url=url)
        info = indices.info(store, index)
        sides.append((SearchService(settings, store, embedders), index, f"{info['shards']} shard(s) on "
                      f"{len(store.nodes())} node(s)"))
        model = embedders.get(info["meta"]["embedder"])
        if not hasattr(model.embed_query, "cache_info"):  # each question embedded once, for both sides
            model.embed_query = functools.lru_cache(maxsize=None)(model.embed_query)
    items = load_gold(args.gold)
    print(f"{len(items)} gold questions, top {args.k}: A = {sides[0][2]}, B = {sides[1][2]}\n")
    print("| mode | questions | identical top-k | mean overlap@k | same top-1 | identical, questions without identifiers |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, fields in MODES:
        same = overlap = first = plain = plain_same = 0
        for item in items:
            a, b = (top(svc, index, item, args.k, fields) for svc, index, _ in sides)
            same += a == b
            overlap += len(set(a) & set(b)) / max(len(a), len(b), 1)
            first += a[:1] == b[:1]
            if not parse_identifiers(item.query):
                plain += 1
                plain_same += a == b
        n = len(items)
        print(f"| {label} | {n} | {same} ({same / n:.0%}) | {overlap / n:.3f} | {first / n:.0%} | {plain_same} of {plain} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
