"""Throughput of the offline summarizers on a folder of documents.

Usage:
    python benchmarks/summarizers.py CORPUS_DIR [--names opening,fingerprint,...]
        [--out summaries.jsonl] [--chunk-chars 500] [--embed-rate 60]

Loads every .txt file under CORPUS_DIR (loading is not timed), then times each summarizer
over all documents and prints docs/s, characters/s, summary lengths, and the summarizer's
time as a share of embedding the same corpus (characters / chunk_chars chunks at
embed_rate chunks per second), the budget that matters during ingest.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from legalsearch.scripts import get_summarizer

DEFAULT_NAMES = ("opening", "fingerprint", "title-fingerprint", "centroid")


def run(corpus: Path, names: list[str], chunk_chars: int = 500, embed_rate: float = 60.0,
        out: Path | None = None) -> list[dict]:
    """Time each summarizer over the corpus; returns one result row per summarizer."""
    from legalsearch.scripts import load_document

    files = sorted(p for p in corpus.rglob("*.txt") if not p.name.endswith(".meta.json"))
    docs = [load_document(p) for p in files]
    chars = sum(len(d.text) for d in docs)
    embed_seconds = chars / chunk_chars / embed_rate
    rows, summaries = [], {}
    for name in names:
        summarizer = get_summarizer(name)
        summarizer.summarize(docs[0])  # load models once, outside the timing
        start = time.perf_counter()
        results = [summarizer.summarize(d) for d in docs]
        seconds = time.perf_counter() - start
        lengths = [len(s) for s in results]
        rows.append({
            "summarizer": name, "docs": len(docs), "seconds": round(seconds, 2),
            "docs_per_s": round(len(docs) / seconds, 1), "mchars_per_s": round(chars / seconds / 1e6, 2),
            "len_min": min(lengths), "len_median": statistics.median(lengths), "len_max": max(lengths),
            "share_of_embedding": round(seconds / embed_seconds, 4),
        })
        summaries[name] = results
    if out is not None:
        with out.open("w", encoding="utf-8") as handle:
            for i, path in enumerate(files):
                row = {"file": str(path.relative_to(corpus)), **{n: summaries[n][i] for n in names}}
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--names", default=",".join(DEFAULT_NAMES))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--chunk-chars", type=int, default=500)
    parser.add_argument("--embed-rate", type=float, default=60.0)
    args = parser.parse_args(argv)
    rows = run(args.corpus, args.names.split(","), args.chunk_chars, args.embed_rate, args.out)
    for row in rows:
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
