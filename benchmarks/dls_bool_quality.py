"""What a DLS-restricted client loses with the `legalsearch-bool` template (BM25 + neural in a bool
should: a `hybrid` query fails under document-level security on OpenSearch 2.19) against the
`legalsearch-hybrid` template, on the gold set. A benchmark that prints figures, not a test.

Every form runs through raw opensearch-py with the stored templates (run `legalsearch pipelines
install --index NAME` first); the bool form runs as the admin with the question's groups AND as a
reader user holding exactly those groups (DLS enforced by the engine), and the two must agree.

    python benchmarks/dls_bool_quality.py --index demo [--json docs/results/engine/dls_bool.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid
from pathlib import Path

from legalsearch import StoreError
from legalsearch.scripts import (
    Filters,
    Settings,
    Store,
    admin,
    connection,
    load_gold,
    parse_identifiers,
    score_gold,
    secrets,
    templates,
)
from opensearchpy import OpenSearch

GOLD = Path(__file__).resolve().parents[1] / "evaluation" / "gold" / "sample-gold.jsonl"


def raw_client(settings: Settings, user: str | None = None, password: str | None = None) -> OpenSearch:
    conn = connection(settings)
    return OpenSearch(hosts=[conn.url], http_auth=(user or conn.user, password or conn.password),
                      ca_certs=str(conn.ca_certs) if conn.ca_certs else None, timeout=120)


def retried(action, *args):
    """`action(*args)`, again after a version conflict: the node keeps every user in one security
    document, and another client's user change at the same moment makes ours fail with HTTP 409."""
    for attempt in range(10):  # jittered, so that two clients retrying do not collide again
        try:
            return action(*args)
        except StoreError as e:
            if "version conflict" not in str(e) or attempt == 9:
                raise
            time.sleep(random.uniform(0.1, 0.4) * (attempt + 1))


def hits(result: dict) -> list[dict]:
    return [{"rank": i, "chunk_id": h["_id"], "doc_id": h["_source"]["doc_id"], "version": h["_source"].get("version"),
             "section": h["_source"].get("section"), "via": "retrieval"}
            for i, h in enumerate(result["hits"]["hits"], start=1)]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--index", default="demo")
    p.add_argument("--gold", type=Path, default=GOLD)
    p.add_argument("-k", type=int, default=10)
    p.add_argument("--json", type=Path, default=None, help="write the summaries and per-question ids here")
    args = p.parse_args()
    settings = Settings()
    store = Store(settings)
    client = raw_client(settings)
    items = load_gold(args.gold)

    # one reader per distinct group set of the gold set, removed at the end (uuid-named: the node is shared)
    run = uuid.uuid4().hex[:8]
    readers: dict[tuple[str, ...], tuple[str, str]] = {}
    for groups in sorted({tuple(i.groups or ()) for i in items}):
        name, password = f"bench-reader-{run}-{len(readers)}", secrets.make_password()
        retried(admin.users_add, store, name, password, list(groups), ("reader",))
        readers[groups] = (name, password)
    as_user = {g: raw_client(settings, *cred) for g, cred in readers.items()}

    forms = {"hybrid, routing off": {}, "hybrid, routing as the CLI (route template)": {}, "bool (admin + groups)": {},
             "bool (as the reader, DLS)": {}}
    disagree = []
    try:
        for item in items:
            groups = tuple(item.groups or ())
            refs = parse_identifiers(item.query)
            params = templates.template_params(item.query, Filters(as_of=item.as_of, groups=groups), refs, args.k)
            run = lambda c, tid, prm, index=args.index: c.search_template(index=index, body={"id": tid, "params": prm})  # noqa: E731
            forms["hybrid, routing off"][item.id] = hits(run(client, templates.HYBRID_TEMPLATE, params))
            routed = dict(params)
            if "section" not in params:  # routing "auto": off when the question cites a section
                route = run(client, templates.ROUTE_TEMPLATE, {**params, "k": 3}, f"{args.index}-docs")
                keys = [h["_source"]["doc_key"] for h in route["hits"]["hits"]]
                if keys:
                    routed["doc_key"] = keys
            forms["hybrid, routing as the CLI (route template)"][item.id] = hits(
                run(client, templates.HYBRID_TEMPLATE, routed))
            forms["bool (admin + groups)"][item.id] = hits(run(client, templates.BOOL_TEMPLATE, params))
            forms["bool (as the reader, DLS)"][item.id] = hits(run(as_user[groups], templates.BOOL_TEMPLATE, params))
            if ([h["chunk_id"] for h in forms["bool (admin + groups)"][item.id]]
                    != [h["chunk_id"] for h in forms["bool (as the reader, DLS)"][item.id]]):
                disagree.append(item.id)
    finally:
        for name, _ in readers.values():
            retried(admin.users_remove, store, name)

    scores = {name: score_gold(items, results) for name, results in forms.items()}
    print(f"gold set {args.gold.name}: {len(items)} questions, index {args.index}, k={args.k}")
    print(f"{'form':<46} {'hit@1':>6} {'hit@5':>6} {'hit@10':>6} {'MRR':>6} {'must_not':>8}")
    for name, s in scores.items():
        o = s["overall"]
        hit1 = sum(r["first_rank"] == 1 for r in s["per_item"] if r["scored"]) / o["n_scored"]
        print(f"{name:<46} {hit1:>6.3f} {o['hit@5']:>6.3f} {o['hit@10']:>6.3f} {o['mrr']:>6.3f} "
              f"{o['must_not_violations']:>8}")
    print("by question type (MRR): " + "; ".join(
        f"{t}: " + ", ".join(f"{s['by_type'][t]['mrr']:.3f}" for s in scores.values())
        for t in scores["bool (admin + groups)"]["by_type"]))
    print(f"bool as admin with the reader's groups vs as the reader under DLS: "
          f"{len(items) - len(disagree)}/{len(items)} identical top-{args.k}" + (f" (differ: {disagree})" if disagree else ""))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({name: {"overall": s["overall"], "by_type": s["by_type"]}
                                         for name, s in scores.items()} | {"dls_disagree": disagree}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
