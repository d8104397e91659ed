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

--service: the search service (`legalsearch serve`, docs/service.md) against direct Python, each
search the full ranking (`LegalSearch.search`: planning, query embedding, routing, the engine,
expansion), at 1, 8 and 32 clients for --duration seconds each. The service is started as a
subprocess on a free loopback port (or --service-url names a running one on the same node);
reader users `--user-prefix`-1..N are created through the admin API (an existing one gets a new
password), as many as the per-user limit needs: clients / --per-user, rounded up (the service's
default is 4 requests in flight per user, 429 beyond, and a 429 counts as an error). The direct
path runs the same questions on the same index through `LegalSearch.as_user(user, password)`,
the same users: both verify the password with the security plugin on every search (authinfo).
Each client of the service path keeps one keep-alive HTTP connection (httpx). Prints, per path
and client count, searches/s, p50 / p95 / p99 ms and errors, the CPU (cores) of the service
process and of this one, the load average; then the service's overhead per search (its p50
minus the direct p50).

    python benchmarks/load.py --service --index load-samples --duration 20
    python benchmarks/load.py --service --index load-samples --service-url http://127.0.0.1:8730 --clients-list 1,8
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from legalsearch.scripts import (
    Embedders,
    IngestOptions,
    LegalSearch,
    SearchRequest,
    SearchService,
    Settings,
    Store,
    admin,
    file_sources,
    indices,
    ingest,
    load_gold,
    secrets,
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


# --------------------------------------------------------------------------- --service


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int | None = None) -> float | None:
    """CPU time (user + system, every thread) of process `pid` (None: this one); None where
    /proc cannot tell (another OS, a process that is gone)."""
    if pid is None:
        return time.process_time()  # ns resolution (os.times counts 10 ms ticks)
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


def bench_users(store, prefix: str, count: int) -> list[tuple[str, str]]:
    """`count` reader users prefix-1..count with fresh passwords: created, or an existing one's
    password changed (idempotent re-runs). Retried after a 409 (another session writing the
    node's security index at the same moment)."""
    made = []
    for i in range(1, count + 1):
        name, password = f"{prefix}-{i}", secrets.make_password()
        for attempt in range(5):
            try:
                if any(u["user"] == name for u in admin.users_list(store)):
                    admin.users_passwd(store, name, password)
                else:
                    admin.users_add(store, name, password, [], ("reader",))
                break
            except Exception as e:
                if "409" not in str(e) or attempt == 4:
                    raise
                time.sleep(0.5 * (attempt + 1))
        made.append((name, password))
    return made


def start_service(index: str, per_user: int, log_path: Path, wait_s: float = 180.0) -> tuple[subprocess.Popen, str]:
    """`legalsearch serve` on a free loopback port, its searches not logged; waits (bounded) for
    /healthz."""
    import httpx

    port = free_port()
    env = {**os.environ, "LEGALSEARCH_LOG_SEARCHES": "false", "LEGALSEARCH_INDEX": index}
    log = log_path.open("w")
    cli = [sys.executable, "-c", "from legalsearch.cli import main; main()"]  # `legalsearch`, this interpreter's
    proc = subprocess.Popen([*cli, "serve", "--host", "127.0.0.1", "--port",
                             str(port), "--per-user", str(per_user)], stdout=log, stderr=log, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + wait_s
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise SystemExit(f"the service did not start within {wait_s:g} s:\n{log_path.read_text()[-2000:]}")
        time.sleep(0.2)


def timed_cell(make_search, clients: int, seconds: float, questions: list[str], pid: int | None) -> dict:
    """`clients` threads, each set up with make_search(n) (its own connection) and then sending
    the next question (round robin over `questions`) until `seconds` are up. Returns latencies,
    errors, wall time, the CPU of process `pid` and of this one over the cell, the load average."""
    lock = threading.Lock()
    state: dict = {"next": 0}
    results: list[tuple[float, str | None]] = []

    def begin() -> None:  # the barrier's action: runs once, before any client is released
        state["cpu_pid"], state["cpu_self"] = cpu_seconds(pid) if pid else None, cpu_seconds()
        state["t0"] = time.perf_counter()
        state["deadline"] = state["t0"] + seconds

    barrier = threading.Barrier(clients, action=begin)

    def client(n: int) -> None:
        search = make_search(n)
        barrier.wait()
        while time.perf_counter() < state["deadline"]:
            with lock:
                i = state["next"]
                state["next"] += 1
            t0 = time.perf_counter()
            error = None
            try:
                search(questions[i % len(questions)])
            except Exception as e:  # counted and printed: the figure is the error count
                error = f"{type(e).__name__}: {e}"
            with lock:
                results.append(((time.perf_counter() - t0) * 1000, error))

    load_before = os.getloadavg()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - state["t0"]
    cpu_pid = cpu_seconds(pid) if pid else None
    cpu_self = cpu_seconds()
    return {"results": results, "wall_s": wall,
            "service_cpu": round((cpu_pid - state["cpu_pid"]) / wall, 2) if cpu_pid is not None
            and state["cpu_pid"] is not None else None,
            "bench_cpu": round((cpu_self - state["cpu_self"]) / wall, 2),
            "loadavg_before": [round(x, 2) for x in load_before],
            "loadavg_after": [round(x, 2) for x in os.getloadavg()]}


class ServiceError(Exception):
    """A search the service did not answer with 200 (a 429 is one)."""


def service_path(url: str, users: list[tuple[str, str]], index: str, k: int, clients: int):
    """make_search for the service: client n logs in as users[n % len], one keep-alive connection."""
    import httpx

    def make(n: int):
        user = users[n % len(users)]
        http = httpx.Client(base_url=url, auth=user, timeout=120,
                            limits=httpx.Limits(max_connections=1, max_keepalive_connections=1))
        clients.append(http)

        def search(question: str) -> dict:
            answer = http.post("/v1/search", json={"query": question, "index": index, "k": k})
            if answer.status_code != 200:
                raise ServiceError(f"HTTP {answer.status_code}: {answer.text[:200]}")
            return answer.json()

        return search

    return make


def direct_path(by_user: list[LegalSearch], index: str, k: int):
    """make_search for direct Python: client n searches as by_user[n % len] (LegalSearch.as_user)."""
    def make(n: int):
        client = by_user[n % len(by_user)]
        return lambda question: client.search(client.request(question, index=index, k=k))

    return make


def service_main(args) -> int:
    counts = [int(c) for c in args.clients_list.split(",") if c.strip()]
    if not counts or min(counts) < 1:
        raise SystemExit("--clients-list: client counts of at least 1, comma-separated, e.g. 1,8,32")
    settings = Settings().model_copy(update={"log_searches": False})
    base = LegalSearch(settings)
    indices.require_meta(base.store, args.index)  # a clear error for an index that is not there
    questions = [item.query for item in load_gold(args.gold)]
    n_users = math.ceil(max(counts) / args.per_user)
    users = bench_users(base.store, args.user_prefix, n_users)
    by_user = [base.as_user(name, password) for name, password in users]
    http_clients: list = []
    proc = None
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "serve.log"
        try:
            if args.service_url:
                url = args.service_url.rstrip("/")
            else:
                proc, url = start_service(args.index, args.per_user, log_path)
            pid = proc.pid if proc else None
            service = service_path(url, users, args.index, args.k, http_clients)
            direct = direct_path(by_user, args.index, args.k)
            # the same answers on both paths (hit ids of a few questions), and every model and
            # connection warm before a clock starts
            same = 0
            probe = questions[: min(3, len(questions))]
            for question in probe:
                over_http = service(0)(question)
                here = direct(0)(question)
                same += [h["chunk_id"] for h in over_http["hits"]] == [h.chunk_id for h in here.hits]
            warm_n = max(counts)
            timed_cell(service, warm_n, args.warmup, questions, None)
            timed_cell(direct, warm_n, args.warmup, questions, None)
            print(f"{len(questions)} questions, index {args.index}, k {args.k}, {n_users} users "
                  f"({args.per_user} requests in flight each at most), service {url}"
                  + (f" (pid {pid}, started with --per-user {args.per_user})" if pid else " (running)")
                  + f"; the same hits on both paths for {same} of {len(probe)} questions")
            rows = []
            for clients in counts:
                for path, make in (("direct", direct), ("service", service)):
                    cell = timed_cell(make, clients, args.duration, questions, pid if path == "service" else None)
                    latencies = [ms for ms, _ in cell["results"]]
                    errors = [e for _, e in cell["results"] if e]
                    rows.append({
                        "path": path, "clients": clients, "searches": len(latencies), "errors": len(errors),
                        "searches_per_s": round(len(latencies) / cell["wall_s"], 2),
                        "p50_ms": round(pct(latencies, 0.50), 1), "p95_ms": round(pct(latencies, 0.95), 1),
                        "p99_ms": round(pct(latencies, 0.99), 1), "service_cpu": cell["service_cpu"],
                        # CPU of the process that runs the search (the service's; this one's for direct)
                        "cpu_ms_per_search": round(1000 * (cell["service_cpu"] if path == "service" else
                                                           cell["bench_cpu"]) * cell["wall_s"] / len(latencies), 1)
                        if latencies and (path == "direct" or cell["service_cpu"] is not None) else None,
                        "bench_cpu": cell["bench_cpu"], "loadavg_before": cell["loadavg_before"],
                        "loadavg_after": cell["loadavg_after"], "first_errors": errors[:3]})
                    for c in http_clients:
                        c.close()
                    http_clients.clear()
        finally:
            for c in http_clients:
                c.close()
            if proc:
                proc.terminate()
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()

    print("| path | clients | searches | searches/s | p50 ms | p95 ms | p99 ms | errors | service CPU (cores) "
          "| benchmark CPU (cores) | CPU ms per search | load average (1 min) before → after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        cpu = "-" if r["service_cpu"] is None else f"{r['service_cpu']:.2f}"
        print(f"| {r['path']} | {r['clients']} | {r['searches']} | {r['searches_per_s']} | {r['p50_ms']} | "
              f"{r['p95_ms']} | {r['p99_ms']} | {r['errors']} | {cpu} | {r['bench_cpu']:.2f} | "
              f"{'-' if r['cpu_ms_per_search'] is None else r['cpu_ms_per_search']} | "
              f"{r['loadavg_before'][0]} → {r['loadavg_after'][0]} |")
    cells = {(r["path"], r["clients"]): r for r in rows}
    overhead = {c: round(cells[("service", c)]["p50_ms"] - cells[("direct", c)]["p50_ms"], 1) for c in counts}
    print("service overhead per search (service p50 - direct p50): "
          + ", ".join(f"{c} client{'s' if c > 1 else ''} {ms:+.1f} ms" for c, ms in overhead.items()))
    cpu = {c: (cells[("direct", c)]["cpu_ms_per_search"], cells[("service", c)]["cpu_ms_per_search"]) for c in counts}
    if all(s is not None and d is not None for d, s in cpu.values()):
        print("CPU per search, the service process against this one on the direct path (service - direct): "
              + ", ".join(f"{c} client{'s' if c > 1 else ''} {s - d:+.1f} ms" for c, (d, s) in cpu.items()))
    print(f"{os.cpu_count()} CPUs; load average at the end {[round(x, 2) for x in os.getloadavg()]}")
    errors = [e for r in rows for e in r["first_errors"]]
    for e in errors[:5]:
        print(f"  error: {e}", file=sys.stderr)
    if args.json_out:
        with args.json_out.open("a") as f:
            for r in rows:
                f.write(json.dumps({"mode": "service", "index": args.index, **r,
                                    "overhead_p50_ms": overhead[r["clients"]]}) + "\n")
    return 1 if any(r["errors"] for r in rows) else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", required=True, help="an ingested index (e5), e.g. the sample corpus")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (not with --service)")
    parser.add_argument("--queries", type=int, default=800,
                        help="searches in all, a fixed number (not with --service: --duration)")
    parser.add_argument("--ingest", type=Path, default=None, help="re-ingest this corpus while the searches run")
    parser.add_argument("--label", default=None, help="name of this run in the output (default: node count)")
    parser.add_argument("--json-out", type=Path, default=None, help="append the result as one JSON line here")
    parser.add_argument("--gold", type=Path, default=REPO / "evaluation" / "gold" / "sample-gold.jsonl")
    service = parser.add_argument_group("--service: the search service against direct Python")
    service.add_argument("--service", action="store_true",
                         help="compare POST /v1/search of `legalsearch serve` with direct LegalSearch.search")
    service.add_argument("--service-url", default=None,
                         help="a running service on the same node (default: start one on a free loopback port)")
    service.add_argument("--clients-list", default="1,8,32", help="client counts, one timed cell each per path")
    service.add_argument("--duration", type=float, default=20.0, help="seconds per cell")
    service.add_argument("--warmup", type=float, default=5.0, help="seconds of untimed searches per path first")
    service.add_argument("--per-user", type=int, default=4,
                         help="requests in flight per user (the service's --per-user): users = clients / this")
    service.add_argument("--user-prefix", default="load-bench", help="names of the reader users: PREFIX-1..N")
    service.add_argument("-k", "--k", type=int, default=10, help="hits per search")
    parser.add_argument("--ingest-worker", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--stop-file", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ingest_worker:
        ingest_worker(args.ingest_worker, args.index, args.stop_file)
        return 0
    if args.service:
        if args.per_user < 1 or args.duration <= 0:
            parser.error("--per-user must be at least 1 and --duration over 0")
        return service_main(args)

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
