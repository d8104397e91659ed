"""What `make demo` shows: the sample corpus ingested, then questions that exercise each failure
mode legalsearch removes (identifiers, plain-English questions, versions, Italian cross-references,
access control)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "corpus"

EXAMPLES: list[tuple[str, dict]] = [
    ("identifier: the liability cap in clause 14.3, not 14.2",
     {"query": "What is the liability cap in clause 14.3?", "k": 3}),
    ("conceptual, before the repeal (as of 2025-06-01)",
     {"query": "Can a landlord end a tenancy without giving a reason?", "as_of": date(2025, 6, 1), "k": 3}),
    ("the same question after the repeal (as of 2026-06-01)",
     {"query": "Can a landlord end a tenancy without giving a reason?", "as_of": date(2026, 6, 1), "k": 3}),
    ("Italian: withdrawal, with the penalty it points to (art. 5 -> art. 7)",
     {"query": "Come può il cliente recedere dal contratto di fornitura e cosa deve pagare?", "k": 2}),
    ("access control: a caller without groups", {"query": "settlement strategy on the liability cap", "k": 3}),
    ("access control: the litigation team",
     {"query": "settlement strategy on the liability cap", "k": 3, "groups": ("litigation-team",)}),
]


def run(client: Any, index: str, echo: Callable[[str], None], embedder: str = "e5") -> None:
    """Ingest the sample corpus and answer the examples through `client` (a `search.LegalSearch`)."""
    echo(f"==> ingesting {SAMPLES} into index {index!r} (embedder {embedder}; re-runs skip unchanged files)")
    report = client.ingest([SAMPLES], index=index, embedder=embedder)
    s = report.summary()
    echo(f"    {s['documents']} documents ({s['ingested']} ingested, {s['unchanged']} unchanged, "
         f"{s['failed']} failed), {s['chunks']} chunks written")
    for failure in s["failures"]:
        echo(f"    FAILED {failure['path']}: {failure['error']}")
    for title, params in EXAMPLES:
        response = client.search(params["query"], index=index, **{k: v for k, v in params.items() if k != "query"})
        filters = ", ".join(f"{k}={v}" for k, v in params.items() if k not in ("query", "k"))
        echo(f"\n==> {title}\n    query: {params['query']}" + (f"   [{filters}]" if filters else ""))
        if response.not_found:
            echo(f"    not found: {response.not_found_reason}")
        for hit in response.hits:
            via = "" if hit.via == "retrieval" else f"   (via {hit.via})"
            snippet = " ".join(hit.text.split())[:150]
            echo(f"    {hit.rank}. {hit.citation}{via}\n       {snippet}...")
    echo(f"\nTry your own: legalsearch search \"...\" --index {index}   (add --json for the full contract, "
         f"`legalsearch explain` for the ranks behind each hit)")
