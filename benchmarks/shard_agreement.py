"""Shards that agree at scale (issue 27, deliverable 4): the top 10 of one shard against three
shards spread over a local 3-node cluster, for the same rows, at 10k, 16,349 and 100k chunks.
A benchmark that prints figures and writes them under --out, not a test.

    python benchmarks/shard_agreement.py --data ../shared/data/legalbench-rag \
        --base-index eval-referenced-a5b81e27-f354370cc4ce --out out/shard-agreement \
        --sizes 10000,16349,100000 --queries 100 --keep-cluster
    python benchmarks/shard_agreement.py ... --sizes 100000 --variants 3,3g   # adds the grouped index

The rows are benchmarks/scale.py's (its `Base`, `actions` and `grow`: the real LegalBench chunks
read from the evaluation index, copied under new ids with their own metadata, vectors = the
real embedding + noise). Both indices get exactly the same rows (the same generator), one with
`number_of_shards: 1` and one with 3 (no replicas: agreement is about how documents fall into
shards). The 3-shard index's shards are on the three nodes of the cluster (--cluster-urls, or a
cluster this script starts on ports 9271-9273 / 9371-9373 with 512 MiB heap per node (`--heap`) and stops
at the end unless --keep-cluster).

Every question runs in every mode through the product's SearchService, as scale.py sends them
(filters on: as_of and groups; routing and expansion off, k = 10), on both indices.

**Agreement is tie-aware.** From 16,349 rows on, the texts repeat (row r is copy r // 16,349 of
base chunk r % 16,349): copies of one text with the same document length tie exactly in BM25
inside a shard, and their order among ties (and so which copy's `_id` makes the top 10) depends
on the shard. So two top-10 lists are compared by their texts (a fingerprint of the chunk text),
not by `_id`:

- identical texts: the share of questions whose top-10 text multisets are identical;
- same order up to ties: the share whose lists of texts are identical once each list is ordered
  by (score rounded to 4 significant digits, text) - ties broken the same way on both sides;
- overlap@10 by text: mean |A & B| / 10 over the text multisets;
- same top-1 text;
- rank-1 score difference: mean and max |s1 - s3| / s1 of the rank-1 scores (for BM25 this is
  the local-statistics effect itself; k-NN scores do not depend on the shard);
- and, for contrast, overlap@10 by `_id` (what an earlier attempt measured: wrong with copies).

--variants 3g adds a third index, 3 shards with every copy of a base document routed with the
base document (`_routing` "doc" for "doc~c"): each shard then holds all copies of a third of the
documents, as distinct documents fall into shards, instead of a third of every document's
copies (the product's routing by doc_id spreads the copies of one text over the shards, which
makes the shards' term statistics alike by construction). The two bracket a real corpus.

Sizes up to 16,349 hold no copies (10k: the first 10,000 base chunks by chunk id, a real corpus
subset; 16,349: the whole corpus once); at 100k every text is there 6 or 7 times, so every
term's document frequency is (close to) a multiple of the copy count: see docs/results.md for
what that means for the conclusion.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scale  # noqa: E402  (the sibling benchmark: the same rows, metadata and queries)
from legalsearch.scripts import (  # noqa: E402
    Embedders,
    SearchRequest,
    SearchService,
    Settings,
    Store,
    cluster,
    load_benchmark,
    schema,
)

REPO = Path(__file__).resolve().parent.parent
MODES = {
    "bm25": {"mode": "bm25"},
    "knn": {"mode": "knn"},
    "hybrid rrf": {"mode": "hybrid", "fusion": "rrf"},
    "hybrid norm. (default)": {"mode": "hybrid", "fusion": "normalization"},
}
RAW_BM25 = "bm25 list alone, per-shard statistics"
MODES[RAW_BM25] = {"mode": "bm25"}
"""The BM25 sub-query of the product's BM25 plan (its first list, with the filters) sent alone with
query_then_fetch, as a hybrid query scores it: raw BM25 scores from each shard's own term
statistics, the effect the issue asks about, without the fusion on top."""


def raw_bm25(service: SearchService, req: SearchRequest) -> list[dict]:
    query = service.plan(req).body["query"]
    query = query["hybrid"]["queries"][0] if "hybrid" in query else query
    body = {"size": req.k, "_source": ["text"], "query": query}
    r = service.store.client.search(index=req.index, body=body, params={
        "search_type": "query_then_fetch", "allow_partial_search_results": "false"})
    return [{"id": h["_id"], "fp": fingerprint(h["_source"]["text"]), "score": h["_score"]} for h in r["hits"]["hits"]]


# ----------------------------------------------------------------------------- agreement (pure)


def fingerprint(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _round(score: float | None, digits: int = 4) -> float:
    return float(f"{score:.{digits}g}") if score is not None else 0.0


def canonical(hits: list[dict]) -> list[str]:
    """The texts of a top-k list with ties broken by text: ordered by (rounded score desc, text)."""
    return [h["fp"] for h in sorted(hits, key=lambda h: (-_round(h["score"]), h["fp"]))]


def agreement(pairs: list[tuple[list[dict], list[dict]]], k: int = 10) -> dict:
    """Tie-aware agreement of (one shard, three shards) top-k lists; each hit {"id", "fp", "score"}."""
    n = len(pairs)
    same_set = same_order = first = 0
    text_overlap = id_overlap = 0.0
    diffs: list[float] = []
    for a, b in pairs:
        ca, cb = Counter(h["fp"] for h in a), Counter(h["fp"] for h in b)
        same_set += ca == cb
        same_order += canonical(a) == canonical(b)
        text_overlap += sum((ca & cb).values()) / max(len(a), len(b), 1)
        id_overlap += len({h["id"] for h in a} & {h["id"] for h in b}) / max(len(a), len(b), 1)
        first += bool(a and b and a[0]["fp"] == b[0]["fp"]) or (not a and not b)
        if a and b and a[0]["score"]:
            diffs.append(abs(a[0]["score"] - b[0]["score"]) / abs(a[0]["score"]))
    return {
        "questions": n, "identical_texts": same_set / n, "same_order_up_to_ties": same_order / n,
        "overlap_by_text": text_overlap / n, "same_top1_text": first / n, "overlap_by_id": id_overlap / n,
        "rank1_score_rel_diff_mean": sum(diffs) / len(diffs) if diffs else None,
        "rank1_score_rel_diff_max": max(diffs) if diffs else None,
    }


# ----------------------------------------------------------------------------- the run


VARIANTS = {
    "1": (1, "copy"),        # the reference: one shard
    "3": (3, "copy"),        # three shards, the product's routing (by doc_id: each copy its own document)
    "3g": (3, "document"),   # three shards, every copy of a base document routed with it (see --variants)
}


@contextlib.contextmanager
def grouped_routing():
    """scale.grow with every copy of a base document routed by the base document's id ("doc~3"
    -> "doc"): each shard then holds every copy of a third of the 72 documents, as a corpus of
    distinct documents falls into shards, instead of a third of every document's copies."""
    original = scale.actions

    def actions(*args, **kwargs):
        for action in original(*args, **kwargs):
            action["_routing"] = action["_routing"].rsplit("~", 1)[0]
            yield action

    scale.actions = actions
    try:
        yield
    finally:
        scale.actions = original


def create(store: Store, name: str, shards: int, embedder, base: scale.Base) -> str:
    concrete = schema.concrete_name(name, "chunks")
    if not store.index_exists(concrete):
        body = scale.index_body(name, "float", embedder, base=base)
        body["settings"]["index"].update(schema.shard_settings(shards, 0))
        store.create_index(concrete, body)
    return concrete


def run_questions(service: SearchService, names: dict[str, str], texts: list[str], k: int = 10) -> dict:
    """mode -> per question, the hits of every index (in the order of `names`); the indices and
    modes in a shuffled order per question."""
    common = {"k": k, "routing": "off", "expand_xrefs": False, "as_of": scale.AS_OF, "groups": (scale.GROUP,)}
    rng = random.Random(27)
    out: dict = {m: [] for m in MODES}
    for text in texts:
        jobs = [(m, s) for m in MODES for s in names]
        rng.shuffle(jobs)
        got: dict = {}
        for mode, shards in jobs:
            req = SearchRequest(query=text, index=names[shards], **common, **MODES[mode])
            if mode == RAW_BM25:
                got[(mode, shards)] = raw_bm25(service, req)
                continue
            r = service.search(req, write_log=False)
            got[(mode, shards)] = [{"id": h.chunk_id, "fp": fingerprint(h.text), "score": h.score} for h in r.hits]
        for mode in MODES:
            out[mode].append([got[(mode, s)] for s in names])
    return out


def plain_bm25(service: SearchService, index: str, texts: list[str]) -> list[bool]:
    """Per question: is the product's BM25 mode one plain query (sent with DFS: global term
    statistics) or a hybrid of the BM25 list and the clause/heading list (a `hybrid` query, which
    cannot use DFS on 2.19.1: per-shard statistics)? From the product's own plan, no search."""
    common = {"k": 10, "routing": "off", "expand_xrefs": False, "as_of": scale.AS_OF, "groups": (scale.GROUP,)}
    return ["hybrid" not in service.plan(SearchRequest(query=t, index=index, mode="bm25", **common)).body["query"]
            for t in texts]


def split_bm25(rows: dict, lists: dict, plain: list[bool], other: int = 1) -> dict:
    """rows plus the BM25 rows of the plain (DFS) questions and of the fused (no DFS) ones."""
    out = dict(rows)
    for label, want in (("bm25: plain query (DFS)", True), ("bm25: + clause list (hybrid, no DFS)", False)):
        chosen = [(q[0], q[other]) for q, p in zip(lists["bm25"], plain, strict=True) if p == want]
        if chosen:
            out[label] = agreement(chosen)
    return out


def reanalyse(service: SearchService, out: Path, texts: list[str], index: str) -> None:
    """The tables again from the saved lists, with BM25 split by plain / fused questions."""
    plain = plain_bm25(service, index, texts)
    print(f"BM25 mode: {sum(plain)} of {len(plain)} questions are one plain query (DFS), "
          f"{len(plain) - sum(plain)} fuse the clause/heading list (hybrid query, no DFS)")
    for path in sorted(out.glob("pairs-*.json")) + sorted(out.glob("lists-*.json")):
        data = json.loads(path.read_text())
        lists = data["lists"] if "lists" in data else data
        variants = list(data["names"]) if "names" in data else ["1", "3"]
        size = int(path.stem.split("-")[1])
        for i, v in enumerate(variants[1:], start=1):
            rows = {m: agreement([(q[0], q[i]) for q in per_q]) for m, per_q in lists.items()}
            print(f"\n### {path.name}: {size:,} chunks, 1 shard vs {v}\n{table(size, split_bm25(rows, lists, plain, i))}")


def table(size: int, rows: dict) -> str:
    lines = [f"| mode ({size:,} chunks) | questions | identical top-10 texts | same order up to ties | "
             "overlap@10 by text | same top-1 text | rank-1 score diff. mean / max | overlap@10 by _id (not tie-aware) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for mode, r in rows.items():
        diff = (f"{r['rank1_score_rel_diff_mean']:.2%} / {r['rank1_score_rel_diff_max']:.2%}"
                if r["rank1_score_rel_diff_mean"] is not None else "-")
        lines.append(f"| {mode} | {r['questions']} | {r['identical_texts']:.1%} | {r['same_order_up_to_ties']:.1%} | "
                     f"{r['overlap_by_text']:.3f} | {r['same_top1_text']:.1%} | {diff} | {r['overlap_by_id']:.3f} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="LegalBench-RAG directory")
    parser.add_argument("--base-index", required=True, help="the evaluation index the real chunks are read from")
    parser.add_argument("--out", type=Path, default=REPO / "out" / "shard-agreement")
    parser.add_argument("--sizes", default="10000,16349,100000")
    parser.add_argument("--queries", type=int, default=120, help="LegalBench questions (a quarter per subset)")
    parser.add_argument("--noise", type=float, default=0.25, help="as scale.py")
    parser.add_argument("--index", default="sh27-agree", help="prefix of the two indices (-s1, -s3)")
    parser.add_argument("--cluster-urls", help="a running cluster of 3 nodes; default: start one (ports 9271-9273)")
    parser.add_argument("--cluster-root", type=Path, help="where the started cluster lives (default NODE_HOME/sh27-cluster)")
    parser.add_argument("--keep-cluster", action="store_true", help="leave the started cluster running")
    parser.add_argument("--variants", default="3",
                        help="indices compared with the 1-shard one: 3 (three shards, the product's routing by "
                             "doc_id) and/or 3g (three shards, every copy of a base document on its shard)")
    parser.add_argument("--reanalyse", action="store_true",
                        help="print the tables again from the lists saved under --out (BM25 split plain / fused)")
    parser.add_argument("--heap", default="512m", help="heap of each node of the started cluster (2g for 1M chunks)")
    parser.add_argument("--hours", type=float, default=2.0, help="stop growing after this long (resumable)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    args.out.mkdir(parents=True, exist_ok=True)
    deadline = time.time() + args.hours * 3600

    settings = Settings().model_copy(update={"log_searches": False})
    embedders = Embedders(settings)
    source = SearchService(settings, Store(settings), embedders)  # the node the evaluation index is on
    spec = None
    if args.cluster_urls:
        urls = args.cluster_urls.split(",")
    else:
        spec = cluster.ClusterSpec(root=args.cluster_root or settings.node_home / "sh27-cluster", nodes=3, name="sh27",
                                   http_port=9271, transport_port=9371, heap=args.heap)
        urls = cluster.start(settings, spec, timeout=900).urls
    try:
        store = Store(settings, url=",".join(urls))
        service = SearchService(settings, store, embedders)
        print(f"cluster: {len(store.nodes())} nodes at {', '.join(urls)}")
        scale_args = argparse.Namespace(config=REPO / "evaluation" / "configs" / "default.json", base_index=args.base_index, base_like=None, data=args.data)
        _, base = scale.load_base(scale_args, source)
        embedder = embedders.for_index(source.index_meta(args.base_index))
        if not hasattr(embedder.embed_query, "cache_info"):  # each question embedded once, for both sides
            embedder.embed_query = functools.lru_cache(maxsize=None)(embedder.embed_query)
        queries = load_benchmark(args.data, limit_per_subset=max(1, args.queries // 4))
        texts = [q.query for q in queries][: args.queries]
        if args.reanalyse:
            reanalyse(service, args.out, texts, f"{args.index}-s1")
            return 0
        variants = ["1", *[v for v in args.variants.split(",") if v != "1"]]
        names = {v: f"{args.index}-s{v}" for v in variants}
        concretes = {v: create(store, n, VARIANTS[v][0], embedder, base) for v, n in names.items()}
        state_file = args.out / "state.json"
        state = json.loads(state_file.read_text()) if state_file.exists() else {"results": {}}
        for size in sizes:
            grown = {}
            for v, name in names.items():
                with grouped_routing() if VARIANTS[v][1] == "document" else contextlib.nullcontext():
                    added, seconds = scale.grow(store, base, name, size, args.noise, deadline)
                grown[v] = {"added": added, "seconds": round(seconds, 1)}
                store.refresh(concretes[v])
            counts = {v: store.count(c) for v, c in concretes.items()}
            if any(c < size for c in counts.values()):
                print(f"stopped at {counts}: --hours reached; run again to continue")
                break
            store.wait_for_index(",".join(concretes.values()), "green", 300)
            layout = {v: {x["node"]: int(x["docs"]) for x in store.shards(c) if x["state"] == "STARTED"}
                      for v, c in concretes.items()}
            t0 = time.perf_counter()
            lists = run_questions(service, names, texts)
            query_s = time.perf_counter() - t0
            copies = size / base.n
            plain = plain_bm25(service, names["1"], texts)
            for i, v in enumerate(variants[1:], start=1):
                rows = split_bm25({m: agreement([(q[0], q[i]) for q in per_q]) for m, per_q in lists.items()},
                                  lists, plain, i)
                key = str(size) if v == "3" else f"{size}/{v}"
                state["results"][key] = {
                    "size": size, "variant": v, "routing": VARIANTS[v][1], "copies": copies, "counts": counts,
                    "layout": layout, "grown": grown, "query_seconds": query_s, "load_average": os.getloadavg(),
                    "agreement": rows, "base": base.fingerprint, "queries": len(texts),
                    "plain_bm25_questions": sum(plain)}
                print(f"\n### {size:,} chunks, 1 shard vs {VARIANTS[v][0]} shards, routing by {VARIANTS[v][1]} "
                      f"({copies:.2f} copies of the {base.n:,} base chunks; docs per node: {layout}; indexing "
                      f"{grown}; questions {query_s:.0f} s; load average {os.getloadavg()[0]:.1f})\n"
                      f"{table(size, rows)}", flush=True)
            (args.out / f"lists-{size}-{'-'.join(variants)}.json").write_text(json.dumps({"names": names, "lists": lists}))
            state_file.write_text(json.dumps(state, indent=2) + "\n")
        ordered = sorted(state["results"].items(), key=lambda kv: (kv[1]["size"], kv[1].get("variant", "3")))
        report = "\n\n".join(f"1 shard vs {VARIANTS[v.get('variant', '3')][0]} shards, routing by "
                               f"{VARIANTS[v.get('variant', '3')][1]}, {v['copies']:.2f} copies\n\n"
                               f"{table(v['size'], v['agreement'])}" for _, v in ordered)
        (args.out / "agreement.md").write_text(report + "\n")
    finally:
        if spec is not None and not args.keep_cluster:
            print(f"stopped {cluster.stop(spec.root)} cluster node(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
