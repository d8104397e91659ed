"""Start-up of a fresh `legalsearch search` process: interpreter, imports, model load, one query.
A benchmark that prints figures, not a test.

    python benchmarks/startup.py --index eval-referenced-XXXX --rounds 7

Each round runs `python cli.py search QUERY --index INDEX --json` as a new process and reports its
wall time and CPU time (user + sys: the load-robust figure on a shared machine), then one
in-process breakdown (imports / client / model load / first query) in a fresh process. The page
cache is warm (an earlier round read the files); the load average is printed with each round.
--python / --repo run another checkout (e.g. the code before a change) the same way.

Questions are embedded by the local node's embedding server when it serves the index's build
(search/embed/served.py); --in-process measures the process that loads the model itself
(LEGALSEARCH_QUERY_EMBED_SERVER=false).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
QUERY = "What is the governing law of this agreement?"

BREAKDOWN = r"""
import json, sys, time
t0 = time.perf_counter()
import legalsearch.cli  # noqa: F401  (what the console script imports)
from legalsearch.scripts import LegalSearch
t1 = time.perf_counter()
client = LegalSearch()
meta = client.service.index_meta(sys.argv[1])
t2 = time.perf_counter()
embedder = getattr(client.embedders, "for_query", getattr(client.embedders, "for_index", None))(meta)
t3 = time.perf_counter()
client.search(sys.argv[2], index=sys.argv[1], k=10)
t4 = time.perf_counter()
print(json.dumps({"imports_s": t1 - t0, "client_and_index_meta_s": t2 - t1, "model_load_s": t3 - t2,
                  "first_query_s": t4 - t3, "torch_imported": "torch" in sys.modules,
                  "embedded_by": getattr(embedder, "url", "this process")}))
"""


EMBED_LATENCY = r"""
import sys, time
from legalsearch.scripts import LegalSearch, load_benchmark
client = LegalSearch()
embedder = client.embedders.for_query(client.service.index_meta(sys.argv[1]))
n = int(sys.argv[3])
texts = [q.query for q in load_benchmark(sys.argv[2], limit_per_subset=max(1, n // 4))][:n]
for t in texts[:5]:
    embedder.embed_query(t)
ms = []
for t in texts:
    t0 = time.perf_counter()
    embedder.embed_query(t)
    ms.append((time.perf_counter() - t0) * 1000)
ms.sort()
print(f"question embedding ({type(embedder).__name__}, {len(ms)} questions): p50 {ms[len(ms) // 2]:.1f} ms, "
      f"p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms")
"""


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", required=True)
    parser.add_argument("--query", default=QUERY)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--python", default=sys.executable, help="interpreter of the checkout to measure")
    parser.add_argument("--repo", type=Path, default=REPO, help="checkout to measure (its cli.py)")
    parser.add_argument("--in-process", action="store_true",
                        help="load the model in the process (no question embedded by the resident server)")
    parser.add_argument("--embed-questions", type=int, default=0, metavar="N",
                        help="also time N LegalBench questions embedded the way searches embed them (--data)")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "legalbench-rag")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(args.repo)}
    if args.in_process:
        env["LEGALSEARCH_QUERY_EMBED_SERVER"] = "false"
    command = [args.python, str(args.repo / "cli.py"), "search", args.query, "--index", args.index, "--json"]
    walls, cpus = [], []
    for i in range(args.rounds + 1):
        cpu0, t0 = _child_cpu(), time.perf_counter()
        out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
        wall, cpu = time.perf_counter() - t0, _child_cpu() - cpu0
        if out.returncode != 0:
            raise SystemExit(f"search failed:\n{out.stderr[-2000:]}")
        if i == 0:
            continue  # warms the page cache
        walls.append(wall)
        cpus.append(cpu)
        print(f"round {i}: wall {wall:.2f} s, cpu {cpu:.2f} s, load average {os.getloadavg()[0]:.1f}", flush=True)
    out = subprocess.run([args.python, "-c", BREAKDOWN, args.index, args.query], env=env, capture_output=True,
                         text=True, timeout=600, cwd=args.repo)
    breakdown = json.loads(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else {"error": out.stderr[-500:]}
    print(f"fresh `legalsearch search` on {args.index} ({args.repo}): median of {args.rounds}: "
          f"wall {statistics.median(walls):.2f} s (min {min(walls):.2f}), "
          f"cpu {statistics.median(cpus):.2f} s (min {min(cpus):.2f}); load average {os.getloadavg()[0]:.1f}")
    print("breakdown (one fresh process): " + ", ".join(
        f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in breakdown.items()))
    if args.embed_questions:
        out = subprocess.run([args.python, "-c", EMBED_LATENCY, args.index, str(args.data), str(args.embed_questions)],
                             env=env, capture_output=True, text=True, timeout=600, cwd=args.repo)
        print(out.stdout.strip().splitlines()[-1] if out.returncode == 0 else out.stderr[-500:])


if __name__ == "__main__":
    sys.exit(main())
