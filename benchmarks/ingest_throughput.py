"""Ingestion throughput on LegalBench-RAG: chunks/s, docs/s, the split parse / summarize / embed /
index, and peak memory. A benchmark that prints figures, not a test.

    python benchmarks/ingest_throughput.py --data ../shared/data/legalbench-rag --scope referenced

By default it uses a fresh embedding and summary cache (a temporary directory), so the embedding
cost is measured cold (the exported ONNX models are reused: exporting is set-up, not ingest);
--warm reuses ~/.cache/legalsearch.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
import uuid
from pathlib import Path

from legalsearch.scripts import (
    Embedders,
    EvalConfig,
    SearchService,
    Settings,
    Store,
    build_index,
    corpus_files,
    indices,
    load_benchmark,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--scope", choices=["referenced", "all"], default="referenced")
    parser.add_argument("--chunker", choices=["structural", "recursive"], default="structural")
    parser.add_argument("--summarizer", default="title-fingerprint")
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--subset", action="append", help="only these sub-corpora")
    parser.add_argument("--per-subset", type=int, default=None, metavar="N",
                        help="read only N questions per sub-corpus (default: all): with --scope referenced, only the "
                             "documents they cite (a quick run: --subset privacy_qa --per-subset 1)")
    parser.add_argument("--warm", action="store_true", help="reuse the embedding / summary caches")
    parser.add_argument("--keep", action="store_true", help="keep the index afterwards (its name is printed)")
    args = parser.parse_args()

    settings = Settings()
    tmp = None
    if not args.warm:
        tmp = tempfile.TemporaryDirectory(prefix="ls-bench-")
        exports = settings.cache_dir / "onnx"  # the ONNX models are set-up (`models export`), not ingest
        if exports.is_dir():
            (Path(tmp.name) / "onnx").symlink_to(exports, target_is_directory=True)
        settings = settings.model_copy(update={"cache_dir": Path(tmp.name)})
    config = EvalConfig(name=f"bench-{uuid.uuid4().hex[:6]}", chunker=args.chunker, summarizer=args.summarizer,
                        embedder=args.embedder)  # searched with the default profile (hybrid); only its index is built
    queries = load_benchmark(args.data, subsets=args.subset, limit_per_subset=args.per_subset)
    files = corpus_files(args.data, args.scope, queries)
    chars = sum(len(p.read_text(encoding="utf-8")) for p in files)
    store = Store(settings)
    service = SearchService(settings, store, Embedders(settings))
    start = time.perf_counter()
    name, summary = build_index(config, service, args.data, files, f"bench{uuid.uuid4().hex[:6]}", progress=True)
    wall = time.perf_counter() - start
    t = summary["timings_s"]
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    non_embed = t["parse"] + t["summarize"] + t["index"]
    build = service.embedders.get(args.embedder).build
    print(f"corpus: {len(files)} documents, {chars:,} characters ({args.scope}); chunker {args.chunker}, "
          f"summarizer {args.summarizer}, embedder {args.embedder} ({build}, {settings.embed_threads or 'all'} "
          f"threads), cache {'warm' if args.warm else 'cold'}; load average {os.getloadavg()[0]:.1f}")
    print(f"chunks: {summary['chunks']:,}  ({summary['share_at_or_over_window']:.1%} at or over the embedder window)")
    print(f"wall: {wall:.1f} s  ->  {summary['chunks'] / wall:.1f} chunks/s, {len(files) / wall:.2f} docs/s")
    for stage in ("parse", "summarize", "embed", "index"):
        print(f"  {stage:<10} {t[stage]:8.1f} s  {t[stage] / wall:6.1%}")
    print(f"  everything but embedding: {non_embed:.1f} s = {non_embed / wall:.1%} of wall time (goal < 10 %)")
    print(f"peak memory (this process, max RSS): {peak_mib:,.0f} MiB")
    if args.keep:
        print(f"kept index {name}")
    else:
        indices.delete(store, name)
    if tmp:
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())
