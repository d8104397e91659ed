"""Survey the parser and chunkers on a corpus of .txt files (e.g. LegalBench-RAG).

    python benchmarks/survey.py /work/shared/data/legalbench-rag/corpus

Prints, per sub-corpus (first-level folder): documents, share with structure found,
chunk-size distribution for both chunkers, and parse+chunk throughput. Every chunk's
offsets are checked (`text[start:end] == chunk.text`); a mismatch fails the run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from legalsearch.scripts import DocumentMeta, build_document, chunk_document, has_structure, infer_language


def survey(root: Path, max_chars: int = 1800, recursive_size: int = 500) -> dict:
    """Measure structure detection, chunk sizes and speed over every .txt under `root`."""
    files = sorted(root.rglob("*.txt"))
    if not files:
        raise SystemExit(f"no .txt files under {root}")
    stats: dict[str, dict] = defaultdict(lambda: {"docs": 0, "structured": 0, "chars": 0,
                                                  "structural": [], "recursive": []})
    timing = {"chars": 0, "parse_chunk_s": 0.0, "recursive_s": 0.0}
    for path in files:
        sub = path.relative_to(root).parts[0] if len(path.relative_to(root).parts) > 1 else "."
        text = path.read_text(encoding="utf-8")
        meta = DocumentMeta(doc_id=path.stem[:60] or "doc", title=path.stem, language=infer_language(text))
        started = time.perf_counter()
        doc = build_document(text, meta, source_path=str(path))
        structural = chunk_document(doc, "structural", max_chars=max_chars)
        middle = time.perf_counter()
        recursive = chunk_document(doc, "recursive", recursive_size=recursive_size)
        finished = time.perf_counter()
        for chunk in structural + recursive:
            if text[chunk.char_start:chunk.char_end] != chunk.text:
                raise SystemExit(f"offset mismatch in {path} chunk {chunk.chunk_id}")
        entry = stats[sub]
        entry["docs"] += 1
        entry["structured"] += has_structure(doc.tree)
        entry["chars"] += len(text)
        entry["structural"].extend(c.char_end - c.char_start for c in structural)
        entry["recursive"].extend(c.char_end - c.char_start for c in recursive)
        timing["chars"] += len(text)
        timing["parse_chunk_s"] += middle - started
        timing["recursive_s"] += finished - middle
    return {"subcorpora": dict(stats), "timing": timing, "files": len(files)}


def distribution(sizes: list[int]) -> dict:
    """count, mean, p50, p90, max of chunk sizes (characters)."""
    if not sizes:
        return {"count": 0, "mean": 0, "p50": 0, "p90": 0, "max": 0}
    ordered = sorted(sizes)
    return {
        "count": len(ordered),
        "mean": round(statistics.fmean(ordered)),
        "p50": ordered[len(ordered) // 2],
        "p90": ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))],
        "max": ordered[-1],
    }


def render(result: dict) -> str:
    """The survey as a Markdown table."""
    lines = [
        "| sub-corpus | docs | chars | structure found | structural chunks: count / mean / p50 / p90 / max "
        "| recursive chunks: count / mean / p50 / p90 / max |",
        "|---|---|---|---|---|---|",
    ]
    every = {"docs": 0, "structured": 0, "chars": 0, "structural": [], "recursive": []}
    for name, entry in sorted(result["subcorpora"].items()):
        lines.append(_row(name, entry))
        for key in ("docs", "structured", "chars"):
            every[key] += entry[key]
        every["structural"] += entry["structural"]
        every["recursive"] += entry["recursive"]
    lines.append(_row("**all**", every))
    timing = result["timing"]
    rate = timing["chars"] / timing["parse_chunk_s"] if timing["parse_chunk_s"] else 0.0
    rate_rec = timing["chars"] / timing["recursive_s"] if timing["recursive_s"] else 0.0
    lines += [
        "",
        f"parse + structural chunking (with references, terms, labels): {timing['chars']:,} chars in "
        f"{timing['parse_chunk_s']:.2f} s = {rate / 1e6:.2f} M chars/s",
        f"recursive chunking (with references, terms, labels): {timing['recursive_s']:.2f} s = "
        f"{rate_rec / 1e6:.2f} M chars/s",
    ]
    return "\n".join(lines)


def _row(name: str, entry: dict) -> str:
    def fmt(sizes: list[int]) -> str:
        d = distribution(sizes)
        return f"{d['count']} / {d['mean']} / {d['p50']} / {d['p90']} / {d['max']}"

    share = entry["structured"] / entry["docs"] if entry["docs"] else 0.0
    return (f"| {name} | {entry['docs']} | {entry['chars']:,} | {entry['structured']}/{entry['docs']} "
            f"({share:.0%}) | {fmt(entry['structural'])} | {fmt(entry['recursive'])} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/survey.py", description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, help="folder of .txt files (sub-folders = sub-corpora)")
    parser.add_argument("--max-chars", type=int, default=1800)
    parser.add_argument("--recursive-size", type=int, default=500)
    args = parser.parse_args(argv)
    print(render(survey(args.root, args.max_chars, args.recursive_size)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
