"""Embedding speed and agreement per embedder build: passage throughput (chunks/s, wall and CPU),
query embedding latency (p50 / p95, one query at a time as `search` does), load time, and how
close each build's vectors are to a reference build on the same real texts.
A benchmark that prints figures, not a test.

    python benchmarks/embedding.py --data ../shared/data/legalbench-rag minilm-torch minilm
    python benchmarks/embedding.py --data ... --threads 2 --compare minilm:minilm-torch e5-onnx e5

Texts: real chunks as ingestion embeds them (structural chunks of LegalBench-RAG documents with
their title-fingerprint summary and heading; --chunks of them, drawn evenly from the referenced
corpus) plus the Italian sample contracts, and real LegalBench questions. Each build runs in its
own fresh process (so one model's threads or imports cannot slow another); the machine's load
average is printed with every line: on a shared machine, compare builds measured together.
--compare A:B prints cosine (mean / min) and top-10 neighbour agreement of A's vectors against B's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent


def real_texts(data: Path, n_chunks: int, n_queries: int, seed: int = 3, subsets: list[str] | None = None,
               per_subset: int | None = None, chunk_chars: int = 824) -> tuple[list[str], list[str]]:
    from legalsearch.scripts import (
        benchmark_file_path,
        chunk_document,
        corpus_files,
        get_summarizer,
        load_benchmark,
        load_document,
        records,
        title_from_filename,
    )

    queries = load_benchmark(data, subsets, limit_per_subset=per_subset)
    files = corpus_files(data, "referenced", queries)
    summarizer = get_summarizer("title-fingerprint")
    texts = []
    for path in files:
        meta = {"doc_id": benchmark_file_path(data, path), "title": title_from_filename(path), "public": True}
        doc = load_document(path, manifest_entry=meta)
        summary = summarizer.summarize(doc)
        texts += [records.embedded_text(c, summary) for c in chunk_document(doc, "structural", max_chars=chunk_chars)]
    for path in sorted((REPO / "samples" / "corpus").glob("contratto-*.txt")):
        doc = load_document(path)
        summary = summarizer.summarize(doc)
        texts += [records.embedded_text(c, summary) for c in chunk_document(doc, "structural", max_chars=chunk_chars)]
    rng = random.Random(seed)
    chosen = rng.sample(texts, min(n_chunks, len(texts)))
    questions = [q.query for q in rng.sample(queries, min(n_queries, len(queries)))]
    return chosen, questions


CHILD = r"""
import json, os, resource, sys, time
import numpy as np
started = time.perf_counter()
from legalsearch.scripts import Embedders, Settings
name, texts_file, out, reps, threads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
data = json.loads(open(texts_file).read())
name, _, query = name.partition("+")  # NAME+key=value+...: ONNX Runtime settings of this run
tweaks = dict(kv.split("=") for kv in query.split("+") if kv)
settings = Settings().model_copy(update={"embed_threads": threads, "embed_parallel": tweaks.pop("parallel", "intra")})
if "@" in name:  # model@variant: any ONNX quantization variant (search.embed.export.VARIANTS)
    from legalsearch.scripts import export
    model, variant = name.split("@")
    embedder = Embedders(settings).load(f"{model}/onnx-{variant}/r{export.RECIPE_VERSION}")
else:
    embedder = Embedders(settings).get(name)
for key, value in tweaks.items():  # batch_tokens, max_batch (search.embed.onnxrt.OnnxEmbedder)
    if not hasattr(embedder, key):
        sys.exit(f"{embedder.build} has no setting {key!r}")
    setattr(embedder, key, int(value))
load_s = time.perf_counter() - started
embedder.embed_passages(data["chunks"][:16])
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
walls, cpus = [], []
for _ in range(reps):
    w, c = time.perf_counter(), cpu()
    vectors = embedder.embed_passages(data["chunks"])
    walls.append(time.perf_counter() - w); cpus.append(cpu() - c)
for q in data["queries"][:5]:
    embedder.embed_query(q)
latency, qvecs = [], []
for q in data["queries"]:
    w = time.perf_counter(); qvecs.append(embedder.embed_query(q)); latency.append((time.perf_counter() - w) * 1000)
np.save(out + ".passages.npy", vectors); np.save(out + ".queries.npy", np.stack(qvecs))
n = len(data["chunks"])
latency.sort()
print(json.dumps({"name": name, "build": embedder.build, "load_s": load_s, "chunks": n,
                  "chunks_per_s": [n / w for w in walls], "cpu_ms_per_chunk": [c / n * 1000 for c in cpus],
                  "query_p50_ms": latency[len(latency) // 2], "query_p95_ms": latency[int(len(latency) * .95)],
                  "torch_imported": "torch" in sys.modules, "load_average": os.getloadavg()[0]}))
"""


def run_build(name: str, texts_file: Path, out: Path, reps: int, threads: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", CHILD, name, str(texts_file), str(out / name), str(reps), str(threads)],
                          env=env, capture_output=True, text=True, timeout=7200)
    if proc.returncode != 0:
        raise SystemExit(f"{name} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def agreement(out: Path, a: str, b: str) -> str:
    pa, pb = np.load(out / f"{a}.passages.npy"), np.load(out / f"{b}.passages.npy")
    qa, qb = np.load(out / f"{a}.queries.npy"), np.load(out / f"{b}.queries.npy")
    cos = (pa * pb).sum(axis=1)
    qcos = (qa * qb).sum(axis=1)
    top_a, top_b = np.argsort(-(qa @ pa.T), axis=1)[:, :10], np.argsort(-(qb @ pb.T), axis=1)[:, :10]
    overlap = np.mean([len(set(x) & set(y)) / 10 for x, y in zip(top_a, top_b, strict=True)])
    top1 = np.mean(top_a[:, 0] == top_b[:, 0])
    return (f"{a} vs {b}: passage cosine mean {cos.mean():.4f} / min {cos.min():.4f}; query cosine min "
            f"{qcos.min():.4f}; top-10 neighbour overlap {overlap:.3f}, same top-1 {top1:.3f} "
            f"({len(pa)} chunks, {len(qa)} queries)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("builds", nargs="+", help="embedder names (minilm, minilm-torch, e5, e5-onnx, ...) or "
                        "MODEL@VARIANT for another ONNX quantization (minilm@int8-opt-pc); an ONNX one may add "
                        "run settings: e5-onnx+batch_tokens=4096+max_batch=16+parallel=data")
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--chunks", type=int, default=512)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--subset", action="append", help="only these LegalBench sub-corpora (default: all)")
    parser.add_argument("--per-subset", type=int, default=None, metavar="N",
                        help="read only N LegalBench questions per sub-corpus (default: all); the chunks come "
                             "from the documents they cite (a quick run: --subset privacy_qa --per-subset 1)")
    parser.add_argument("--chunk-chars", type=int, default=824,
                        help="structural chunk limit in characters: 824 as ingestion cuts for MiniLM (256 tokens), "
                        "1848 for e5 (512 tokens)")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1, help="run the builds this many times, interleaved")
    parser.add_argument("--threads", type=int, default=0, help="embed_threads (0: every usable core)")
    parser.add_argument("--compare", action="append", default=[], metavar="A:B")
    parser.add_argument("--out", type=Path, default=None, help="keep vectors here (default: a temporary folder)")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="ls-embed-"))
    out.mkdir(parents=True, exist_ok=True)
    chunks, queries = real_texts(args.data, args.chunks, args.queries, subsets=args.subset,
                                 per_subset=args.per_subset, chunk_chars=args.chunk_chars)
    texts_file = out / "texts.json"
    texts_file.write_text(json.dumps({"chunks": chunks, "queries": queries}))
    lengths = sorted(len(t) for t in chunks)
    print(f"{len(chunks)} real chunks (characters p10 / p50 / p90: {lengths[len(lengths) // 10]} / "
          f"{lengths[len(lengths) // 2]} / {lengths[9 * len(lengths) // 10]}), {len(queries)} questions; "
          f"{os.cpu_count()} CPUs, threads {args.threads or 'all usable'}")
    results: dict[str, list[dict]] = {b: [] for b in args.builds}
    for _ in range(args.rounds):
        for build in args.builds:
            r = run_build(build, texts_file, out, args.reps, args.threads)
            results[build].append(r)
            print(f"  {build:<13} {r['build']:<32} load {r['load_s']:.2f} s, "
                  f"chunks/s {' '.join(f'{x:.1f}' for x in r['chunks_per_s'])}, "
                  f"CPU {statistics.median(r['cpu_ms_per_chunk']):.0f} ms/chunk, query p50 {r['query_p50_ms']:.1f} / "
                  f"p95 {r['query_p95_ms']:.1f} ms, torch imported {r['torch_imported']}, "
                  f"load average {r['load_average']:.1f}", flush=True)
    print("\nmedians over rounds and repetitions:")
    for build, rs in results.items():
        rate = statistics.median(x for r in rs for x in r["chunks_per_s"])
        cpu = statistics.median(x for r in rs for x in r["cpu_ms_per_chunk"])
        p50 = statistics.median(r["query_p50_ms"] for r in rs)
        p95 = statistics.median(r["query_p95_ms"] for r in rs)
        load = statistics.median(r["load_s"] for r in rs)
        print(f"  {build:<13} {rate:6.1f} chunks/s  {cpu:5.0f} CPU-ms/chunk  query p50 {p50:6.1f} ms  p95 {p95:6.1f} ms  "
              f"load {load:.2f} s")
    for pair in args.compare:
        a, b = pair.split(":")
        print(agreement(out, a, b))
    started = time.strftime("%Y-%m-%d %H:%M")
    print(f"({started}; load average now {os.getloadavg()[0]:.1f}; vectors in {out})")


if __name__ == "__main__":
    sys.exit(main())
