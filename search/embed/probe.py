"""`legalsearch models test SPEC`: load an embedder, measure it, check that it round-trips.

What it reports: the build (the canonical specification), dimensions, window, whether vectors
are unit length, passages per second over `n` synthetic clauses (one call, the embedder's own
batching and concurrency), one question's latency, and the round trip: the same texts embedded
again one at a time must give the same vectors (cosine >= `min_cosine`: 0.99, as dynamic int8
quantization varies a little with the batch, >= 0.996 measured), and a clause must be
nearer its own paraphrase than the other clauses (a model that answers noise fails).
"""

from __future__ import annotations

import time

import numpy as np
from legalsearch.embed.models import Embedder

_SUBJECTS = ("the lessee", "the supplier", "the licensee", "the employer", "the borrower", "the contractor")
_DUTIES = ("shall pay the rent on the first day of each month", "shall keep all confidential information secret",
           "may terminate this agreement on ninety days' written notice", "shall indemnify the other party for losses",
           "shall maintain insurance of at least one million euros", "shall deliver the goods within thirty days")


def clauses(n: int) -> list[str]:
    """`n` distinct short contract clauses (no corpus needed)."""
    return [f"Clause {i + 1}. {_SUBJECTS[i % len(_SUBJECTS)].capitalize()} {_DUTIES[(i // len(_SUBJECTS)) % len(_DUTIES)]}"
            f" under section {i + 1} of this agreement." for i in range(n)]


def probe(embedder: Embedder, n: int = 64, min_cosine: float = 0.99) -> dict:
    texts = clauses(n)
    start = time.perf_counter()
    vectors = embedder.embed_passages(texts)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    question = embedder.embed_query("Who may terminate the agreement and with how much notice?")
    query_ms = (time.perf_counter() - start) * 1000
    again = np.stack([embedder.embed_passages([t])[0] for t in texts[:8]])
    cosine = float(np.min(np.sum(vectors[:8] * again, axis=1) /
                          (np.linalg.norm(vectors[:8], axis=1) * np.linalg.norm(again, axis=1))))
    norms = np.linalg.norm(vectors, axis=1)
    paraphrase = embedder.embed_queries([texts[0].replace("Clause 1. ", "").replace("shall pay", "must pay")])[0]
    nearest = int(np.argmax(vectors @ paraphrase))
    checks = {
        "dimensions": bool(vectors.shape == (n, embedder.dim) and question.shape == (embedder.dim,)),
        "unit_length": bool(np.allclose(norms, 1.0, atol=1e-3)),
        "round_trip": cosine >= min_cosine,
        # the nearest clause has the paraphrased clause's party and duty (only its number may differ)
        "paraphrase_nearest": nearest % len(_SUBJECTS) == 0 and (nearest // len(_SUBJECTS)) % len(_DUTIES) == 0,
    }
    return {
        "build": embedder.build, "dim": int(embedder.dim), "max_tokens": int(embedder.max_tokens),
        "passages": n, "seconds": round(seconds, 3), "passages_per_s": round(n / seconds, 1) if seconds else None,
        "query_ms": round(query_ms, 1), "round_trip_min_cosine": round(cosine, 6), "checks": checks,
        "ok": all(checks.values()),
    }
