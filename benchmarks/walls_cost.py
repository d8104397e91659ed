"""What walls by index cost (search.index.walls): hybrid latency for a user who may read 1, 10
and 100 walled indices against today's single index, the top-k of a public-only user on both,
and ingest throughput with and without walls. A benchmark that prints figures, not a test.

    python benchmarks/walls_cost.py --walls 100 --rounds 3

The corpus: samples/corpus (or `--corpus DIR`) plus `--walls` synthetic matter notes, each private to its own group
`bench-m<i>` (so `--walls` walled index pairs). The single index ("before walls") is the same
chunks and records copied, ACL fields as they are, into one chunks and one docs index, as every
index was laid out before walls.

Queries (the sample gold questions, routing off so that both layouts run the same body): for a
user in 0, 1, 10 and 100 groups, the service plans the search (the user's password checked,
its walls listed) and the fused hybrid query (normalization pipeline) is timed on the user's
index list ("walls") and, the same body, on the single index ("single"), interleaved. The
plan (authinfo, listing walls) is timed apart. For the user in no group the top-k of both is
compared.

Ingest: the same documents into fresh indices, once all public (one index, as before walls),
once with their ACLs (walls made as they come), alternating; embedding and summary caches are
warm (a first run fills them), so the figure is the parse + wall creation + bulk work.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

from legalsearch import Document, LegalSearch
from legalsearch.scripts import Settings, Store, admin, indices, schema, secrets, walls

REPO = Path(__file__).resolve().parents[1]
WORDS = ("indemnity", "liability", "termination", "notice", "payment", "fees", "warranty", "confidential",
         "breach", "remedy", "damages", "supplier", "customer", "renewal", "audit", "insurance", "escrow",
         "settlement", "strategy", "jurisdiction", "arbitration", "licence", "software", "privileged")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def matters(n: int, public: bool) -> list[Document]:
    rnd = random.Random(7)
    docs = []
    for i in range(n):
        clauses = [f"{j}. {rnd.choice(WORDS).title()}\nThe {' '.join(rnd.choices(WORDS, k=18))}." for j in range(1, 5)]
        meta = {"public": True} if public else {"public": False, "acl": [f"bench-m{i}"]}
        docs.append(Document(text=f"MATTER {i} NOTE\n\n" + "\n\n".join(clauses), doc_id=f"matter-{i}",
                             title=f"Matter {i} strategy note", language="en", **meta))
    return docs


def ingest(client: LegalSearch, name: str, corpus: Path, docs: list[Document], public: bool) -> float:
    """chunks/s of one ingest of `corpus` (all public when `public`) plus `docs`."""
    start = time.perf_counter()
    override = (lambda path: {"public": True, "acl": []}) if public else None
    report = client.ingest([corpus, *docs], index=name, embedder="minilm",
                           metadata_override=override)
    seconds = time.perf_counter() - start
    summary = report.summary()
    assert summary["failed"] == 0, summary["failures"]
    return summary["chunks"] / seconds


def single_copy(store: Store, name: str, single: str) -> tuple[str, str]:
    """NAME's live public and walled chunks and records copied into one pair of indices."""
    meta = indices.concrete_meta(store, indices.require(store, name))
    out = []
    for kind in schema.KINDS:
        concrete = schema.concrete_name(single, kind)
        store.create_index(concrete, schema.index_body(kind, single, int(meta["dim"]), meta))
        for page in store.stream(indices.all_live(store, name, kind), {"match_all": {}}):
            store.bulk([{"_op_type": "index", "_index": concrete, "_id": h["_id"], "_source": h["_source"],
                         **({"_routing": h["_routing"]} if h.get("_routing") else {})} for h in page])
        store.refresh(concrete)
        out.append(concrete)
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--walls", type=int, default=100, help="synthetic matters, one group and one wall each")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--queries", type=int, default=40)
    parser.add_argument("--ingest-rounds", type=int, default=2)
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--corpus", type=Path, default=REPO / "samples" / "corpus",
                        help="the documents ingested beside the matter notes (default: samples/corpus)")
    args = parser.parse_args()

    settings = Settings().model_copy(update={"log_searches": False})
    client = LegalSearch(settings)
    store = client.store
    if store.authinfo() is None:
        sys.exit(f"{store.url} has no security plugin: walls need a secured node")
    run = uuid.uuid4().hex[:6]
    name, single = f"bench-walls-{run}", f"bench-single-{run}"
    made_users: list[str] = []
    made_indices = [name]
    try:
        docs = matters(args.walls, public=False)
        # (the single index keeps every ACL field: its BM25 statistics count the private chunks too,
        # which the public index no longer holds; that is all that can move a public user's ranking)
        print(f"ingest of {args.corpus} + {args.walls} matter notes ({args.walls} walls) ...", file=sys.stderr)
        ingest(client, name, args.corpus, docs, public=False)  # also fills the caches for the timed ingests
        chunks, docs_index = single_copy(store, name, single)

        questions = [json.loads(line)["query"] for line in
                     (REPO / "evaluation" / "gold" / "sample-gold.jsonl").read_text().splitlines() if line.strip()]
        questions = questions[: args.queries]
        results = {}
        for n in (0, 1, 10, 100):
            if n > args.walls or (n and n > args.walls):
                continue
            user, password = f"bench-walls-{run}-{n}", secrets.make_password()
            admin.users_add(store, user, password, [f"bench-m{i}" for i in range(n)])
            made_users.append(user)
            service = client.as_user(user, password).service
            times = {"plan": [], "walls": [], "single": []}
            same = total = 0
            overlap: list[float] = []
            for text in questions[:3]:  # warm-up
                plan = service.plan(client.request(text, index=name, k=args.k, routing="off"))
            for r in range(args.rounds):
                for i, text in enumerate(questions):
                    t = time.perf_counter()
                    plan = service.plan(client.request(text, index=name, k=args.k, routing="off"))
                    times["plan"].append((time.perf_counter() - t) * 1000 - plan.timings.get("embed", 0.0))
                    pipeline = service.pipelines.ensure(*plan.pipeline) if plan.pipeline else None
                    ids = {}
                    for label in (("walls", "single") if (i + r) % 2 else ("single", "walls")):
                        index = plan.index if label == "walls" else chunks
                        t = time.perf_counter()
                        hits = service.store.search(index, plan.body, pipeline=pipeline)["hits"]["hits"]
                        times[label].append((time.perf_counter() - t) * 1000)
                        ids[label] = [h["_id"] for h in hits[: args.k]]
                    if n == 0 and r == 0:
                        total += 1
                        same += ids["walls"] == ids["single"]
                        overlap.append(len(set(ids["walls"]) & set(ids["single"])) / max(1, len(ids["single"])))
            form = ("list" if "*" not in plan.index else "pattern minus others" if ",-" in plan.index
                    else "pattern (groups filter only)")
            results[n] = {k: (statistics.median(v), pct(v, 0.95)) for k, v in times.items()}
            results[n]["form"] = form
            if n == 0:
                results[n]["same_topk"] = f"{same}/{total}"
                results[n]["overlap"] = statistics.mean(overlap) if overlap else 0.0

        rates = {"one index (all public)": [], "walls": []}
        for r in range(args.ingest_rounds):
            for label in (list(rates) if r % 2 == 0 else list(rates)[::-1]):
                fresh = f"bench-walls-{run}-i{r}-{'w' if label == 'walls' else 'p'}"
                made_indices.append(fresh)
                rates[label].append(ingest(client, fresh, args.corpus, matters(args.walls, public=label != "walls"),
                                           public=label != "walls"))
                indices.delete(store, fresh)

        print(f"\n{args.walls} walls; {len(questions)} questions x {args.rounds} rounds, k={args.k}, hybrid "
              "normalization, routing off (ms; the query embedding is not in 'plan')")
        print("| user's groups (walls read) | indices searched | as | walls p50 | walls p95 | single p50 | single p95 "
              "| plan p50 | plan p95 |")
        print("|---:|---:|---|---:|---:|---:|---:|---:|---:|")
        for n, row in results.items():
            print(f"| {n} | {1 + n} | {row['form']} | {row['walls'][0]:.1f} | {row['walls'][1]:.1f} | {row['single'][0]:.1f} | "
                  f"{row['single'][1]:.1f} | {row['plan'][0]:.1f} | {row['plan'][1]:.1f} |")
        print(f"\npublic-only user: the same top-{args.k} (ids in order) on walls and on the single index for "
              f"{results[0]['same_topk']} questions; mean top-{args.k} set overlap {results[0]['overlap']:.2f}")
        print("\ningest (chunks/s, warm caches): " + "; ".join(
            f"{label} {' / '.join(f'{x:.1f}' for x in v)} (median {statistics.median(v):.1f})"
            for label, v in rates.items()))
    finally:
        for user in made_users:
            admin.users_remove(store, user)
        for index in made_indices:
            indices.delete(store, index)
        for kind in schema.KINDS:
            store.delete_index(schema.concrete_name(single, kind))
        for i in range(args.walls):  # the benchmark's group roles
            group = f"bench-m{i}"
            store.security_api("remove role", "DELETE", f"roles/{walls.group_role_name(group)}", missing=None)
            store.security_api("remove mapping", "DELETE", f"rolesmapping/{walls.group_role_name(group)}",
                               missing=None)


if __name__ == "__main__":
    main()
