"""Load: N concurrent clients send a fixed number of mixed searches (BM25, k-NN, hybrid
normalization, hybrid RRF; with and without filters) to one node or a cluster, optionally while
an ingest runs; prints throughput, p50 / p95 / p99 latency and the error count. A benchmark that
prints figures, not a test.

Every search is planned once before the clock starts (query vector, filters, body, pipeline;
routing off, so one search is one OpenSearch request): the clients measure the engine, not the
query embedding, which costs the same on one node and on a cluster. The concurrent ingest is a
separate process that re-ingests a corpus (--force, 16 chunks per bulk batch) into a scratch
index in a bounded loop, from before the first search until the last one is done.

    legalsearch node start                  # or: legalsearch node start --nodes 3
    legalsearch ingest samples/corpus --index load-samples --embedder e5
    python benchmarks/load.py --index load-samples --clients 8 --queries 800
    python benchmarks/load.py --index load-samples --clients 8 --queries 800 --ingest samples/corpus
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from legalsearch.scripts import (
    Embedders,
    IngestOptions,
    SearchRequest,
    SearchService,
    Settings,
    Store,
    file_sources,
    indices,
    ingest,
    load_gold,
)

REPO = Path(__file__).resolve().parent.parent
MIX = [  # (label, request fields): the four modes, each with and without filters
    ("bm25", {"mode": "bm25"}),
    ("knn", {"mode": "knn"}),
    ("hybrid-norm", {"mode": "hybrid", "fusion": "normalization"}),
    ("hybrid-rrf", {"mode": "hybrid", "fusion": "rrf"}),
]
FILTERS = [{}, {"as_of": "2025-06-01", "languages": ("en",)}, {"groups": ("litigation-team",), "as_of": "2026-01-01"}]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


def plan_all(service: SearchService, index: str, questions: list[str], n: int) -> list[tuple[str, str, dict, str | None]]:
    """n planned searches: (mode label, index, body, pipeline name), in a fixed order."""
    plans = []
    for i in range(n):
        label, fields = MIX[i % len(MIX)]
        extra = FILTERS[(i // len(MIX)) % len(FILTERS)]
        req = SearchRequest(query=questions[i % len(questions)], index=index, k=10, routing="off", expand_xrefs=False,
                            **fields, **extra)
        plan = service.plan(req)
        name = service.pipelines.ensure(*plan.pipeline) if plan.pipeline else None
        plans.append((label, plan.index, plan.body, name))
    return plans


def run_clients(settings: Settings, url: str, plans, clients: int) -> dict:
    """Each client takes the next planned search until none is left; (latency ms, error) per search."""
    lock = threading.Lock()
    cursor = {"next": 0}
    results: list[tuple[str, float, str | None]] = []

    def client() -> None:
        store = Store(settings, url=url)
        while True:
            with lock:
                i = cursor["next"]
                cursor["next"] += 1
            if i >= len(plans):
                return
            label, index, body, pipeline = plans[i]
            t0 = time.perf_counter()
            error = None
            try:
                store.search(index, body, pipeline=pipeline)
            except Exception as e:  # counted and printed: the figure is the error count
                error = f"{type(e).__name__}: {e}"
            with lock:
                results.append((label, (time.perf_counter() - t0) * 1000, error))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    return {"wall_s": wall, "results": results}


def ingest_worker(corpus: Path, index: str, stop_file: Path, max_rounds: int = 50) -> None:
    """The concurrent ingest, in its own process (as an ingest job would be): re-ingest `corpus`
    (--force, 16 chunks per batch, so bulk writes run all along) into `index` until `stop_file`
    exists, `max_rounds` at most; prints "ready" when the models are loaded, a JSON summary at the end."""
    settings = Settings()
    store = Store(settings)
    embedders = Embedders()
    embedders.get("e5")
    print("ready", flush=True)
    done = {"rounds": 0, "documents": 0, "chunks": 0, "failed": 0, "rejected": 0, "seconds": 0.0}
    t0 = time.perf_counter()
    for _ in range(max_rounds):
        if stop_file.exists():
            break
        report = ingest(file_sources([corpus]), settings,
                        IngestOptions(index=index, embedder="e5", force=True, batch_chunks=16),
                        store=store, embedders=embedders)
        s = report.summary()
        done["rounds"] += 1
        done["documents"] += s["ingested"]
        done["chunks"] += s["chunks"]
        done["failed"] += s["failed"]
        done["rejected"] += int(s["bulk"].get("rejected", 0))
    done["seconds"] = round(time.perf_counter() - t0, 1)
    print(json.dumps(done), flush=True)


def start_ingest(corpus: Path, index: str, stop_file: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, __file__, "--ingest-worker", str(corpus), "--index", index,
                             "--stop-file", str(stop_file)], stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()  # blocks until the worker's models are loaded (or it died)
    if line.strip() != "ready":
        raise SystemExit(f"the ingest worker did not start: {line!r}")
    time.sleep(5.0)  # it is writing before the clock starts
    return proc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", required=True, help="an ingested index (e5), e.g. the sample corpus")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--queries", type=int, default=800, help="searches in all (a fixed number)")
    parser.add_argument("--ingest", type=Path, default=None, help="re-ingest this corpus while the searches run")
    parser.add_argument("--label", default=None, help="name of this run in the output (default: node count)")
    parser.add_argument("--json-out", type=Path, default=None, help="append the result as one JSON line here")
    parser.add_argument("--gold", type=Path, default=REPO / "evaluation" / "gold" / "sample-gold.jsonl")
    parser.add_argument("--ingest-worker", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--stop-file", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ingest_worker:
        ingest_worker(args.ingest_worker, args.index, args.stop_file)
        return 0

    settings = Settings().model_copy(update={"log_searches": False})
    store = Store(settings)
    url = store.url
    nodes = len(store.nodes())
    embedders = Embedders()
    model = embedders.get(indices.require_meta(store, args.index).get("embedder", "e5"))
    model.embed_query = functools.lru_cache(maxsize=None)(model.embed_query)  # each question embedded once
    service = SearchService(settings, store, embedders)
    questions = [item.query for item in load_gold(args.gold)]
    plans = plan_all(service, args.index, questions, args.queries)
    run_clients(settings, url, plans[: min(40, len(plans))], args.clients)  # warm caches and connections

    load_before = os.getloadavg()
    ingest_result: dict = {}
    scratch = f"{args.index}-load-ingest"
    worker = None
    with tempfile.TemporaryDirectory() as tmp:
        stop_file = Path(tmp) / "stop"
        if args.ingest:
            worker = start_ingest(args.ingest, scratch, stop_file)
        run = run_clients(settings, url, plans, args.clients)
        load_after = os.getloadavg()
        if worker:
            stop_file.touch()
            out, _ = worker.communicate(timeout=600)  # it finishes the round it is in
            ingest_result = json.loads(out.strip().splitlines()[-1])
            indices.delete(store, scratch)

    latencies = [ms for _, ms, _ in run["results"]]
    errors = [e for _, _, e in run["results"] if e]
    row = {
        "label": args.label or f"{nodes} node{'s' if nodes > 1 else ''}" + (" + ingest" if args.ingest else ""),
        "nodes": nodes, "clients": args.clients, "queries": len(latencies), "errors": len(errors),
        "throughput_qps": round(len(latencies) / run["wall_s"], 1),
        "p50_ms": round(pct(latencies, 0.50), 1), "p95_ms": round(pct(latencies, 0.95), 1),
        "p99_ms": round(pct(latencies, 0.99), 1),
        "by_mode_p50_ms": {label: round(pct([ms for lb, ms, _ in run["results"] if lb == label], 0.5), 1)
                           for label, _ in MIX},
        "ingest": ingest_result or None,
        "loadavg_before": [round(x, 2) for x in load_before], "loadavg_after": [round(x, 2) for x in load_after],
        "cpus": os.cpu_count(),
    }
    print(f"{row['label']}: {row['queries']} searches, {args.clients} clients, {row['throughput_qps']} q/s, "
          f"p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms, p99 {row['p99_ms']} ms, errors {row['errors']}")
    print(f"  p50 by mode: {row['by_mode_p50_ms']}")
    if ingest_result:
        print(f"  concurrent ingest: {ingest_result['rounds']} rounds, {ingest_result['documents']} documents, "
              f"{ingest_result['chunks']} chunks in {ingest_result['seconds']:.0f}s, {ingest_result['failed']} failed, "
              f"{ingest_result['rejected']} bulk items rejected (429) and retried")
    print(f"  load average before {row['loadavg_before']}, after {row['loadavg_after']} ({row['cpus']} CPUs)")
    for e in errors[:5]:
        print(f"  error: {e}", file=sys.stderr)
    if args.json_out:
        with args.json_out.open("a") as f:
            f.write(json.dumps(row) + "\n")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
