"""What the cross-language places cost (`routing_cross_language`, issue 28): the defaults with the
option at its default and at 0, question by question in alternating order (machine load hits both
alike), after one warm-up pass. A benchmark that prints figures, not a test.

Prints how many questions sent the second search (a routed document in another language than the
question's), and p50 / p95 of the search's wall time as the caller sees it with the option on and off.

    python benchmarks/cross_language_cost.py evaluation/gold/round2/round2-gold.jsonl:s-r2 \\
        evaluation/gold/round3/round3-gold.jsonl:s-r3
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from legalsearch.scripts import Embedders, SearchRequest, SearchService, Settings, Store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", metavar="GOLD:INDEX", help="a gold file and the index it is asked of")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="the first N questions of each set only (default: all)")
    args = parser.parse_args()
    settings = Settings()
    service = SearchService(settings, Store(settings), Embedders(settings))
    questions = []
    for pair in args.sets:
        gold, index = pair.rsplit(":", 1)
        with open(gold, encoding="utf-8") as fh:
            questions += [(json.loads(line)["query"], index) for line in fh if line.strip()][: args.limit]
    on = SearchRequest(query="q").routing.cross_language
    for query, index in questions:  # warm: embeddings, pipelines, the registry's languages
        service.search(SearchRequest(query=query, index=index, k=args.k), write_log=False)
    times: dict[int, list[float]] = {on: [], 0: []}
    sent = 0
    for query, index in questions:
        for value in (0, on):
            req = SearchRequest(query=query, index=index, k=args.k, routing_cross_language=value)
            start = time.perf_counter()
            service.search(req, write_log=False)
            times[value].append((time.perf_counter() - start) * 1000)
        sent += service.plan(SearchRequest(query=query, index=index, k=args.k)).across is not None
    print(f"{len(questions)} questions; the second search sent for {sent}")
    for value in (on, 0):
        xs = times[value]
        print(f"routing_cross_language={value}: p50 {statistics.median(xs):.1f} ms, "
              f"p95 {statistics.quantiles(xs, n=20)[18]:.1f} ms")
    service.close()


if __name__ == "__main__":
    main()
