"""How far is the ranking from the best these chunks allow? Prints figures, not a test.

    python benchmarks/oracle_ranking.py --data ../shared/data/legalbench-rag --index eval-referenced-a5b81e27-f354370cc4ce

Reads every chunk of an index built by `legalsearch eval legalbench` (its doc_id is the benchmark's
file path) and ranks, for each LegalBench-RAG question, the chunks of the gold documents by the
share of their characters that are gold (then by gold characters): the best ranking these chunk
boundaries allow. Prints P / R / DRM mean over k with the harness's own metrics, averaged per
sub-corpus then over the four, beside P@1 / P@8 / P@64. A gap between this and the measured
figures is the ranking's; a low ceiling would be the chunking's.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from statistics import fmean

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from legalsearch.scripts import (  # noqa: E402
    Settings,
    Span,
    Store,
    available_subsets,
    evaluate_query,
    load_benchmark,
    with_mean_over_k,
)

FIELDS = ["doc_id", "char_start", "char_end"]


def chunk_spans(store: Store, index: str) -> dict[str, list[Span]]:
    """doc_id -> the spans of its chunks (one scan of the index)."""
    by_doc: dict[str, list[Span]] = defaultdict(list)
    for hit in store.scan(index, {"match_all": {}}, FIELDS):
        s = hit["_source"]
        by_doc[s["doc_id"]].append(Span(s["doc_id"], int(s["char_start"]), int(s["char_end"])))
    return by_doc


def oracle(chunks: dict[str, list[Span]], gold: list[Span], depth: int = 64) -> list[Span]:
    scored = []
    for file_path in {g.file_path for g in gold}:
        for span in chunks.get(file_path, []):
            inside = sum(max(0, min(span.end, g.end) - max(span.start, g.start)) for g in gold
                         if g.file_path == file_path)
            scored.append((inside / max(1, len(span)), inside, span))
    scored.sort(key=lambda x: (-x[0], -x[1], x[2].start))
    return [span for _, _, span in scored[:depth]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="the LegalBench-RAG folder")
    ap.add_argument("--index", required=True, help="an index built by `legalsearch eval legalbench`")
    args = ap.parse_args()

    chunks = chunk_spans(Store(Settings()), args.index)
    keys = ("precision@mean", "recall@mean", "drm@mean", "precision@1", "precision@8", "precision@64")
    per_subset: dict[str, dict[str, float]] = {}
    for subset in available_subsets(args.data):
        queries = load_benchmark(args.data, [subset])
        rows = []
        for q in queries:
            if not any(g.file_path in chunks for g in q.gold):
                continue  # a question over documents this index does not hold
            rows.append(with_mean_over_k(evaluate_query(oracle(chunks, list(q.gold)), q.gold)))
        if rows:
            per_subset[subset] = {k: fmean(r[k] for r in rows) for k in keys}
    print(f"index {args.index}: {sum(len(v) for v in chunks.values())} chunks, oracle ranking (values in %)")
    for k in keys:
        cells = ", ".join(f"{s} {100 * v[k]:.2f}" for s, v in per_subset.items())
        print(f"  {k:15} {100 * fmean(v[k] for v in per_subset.values()):6.2f}   ({cells})")


if __name__ == "__main__":
    main()
