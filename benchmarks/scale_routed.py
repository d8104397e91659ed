"""Scale, as `legalsearch search` runs by default: document routing first, then the chunk search
restricted to the routed documents. A benchmark that prints figures, not a test.

    python benchmarks/scale.py --data ../shared/data/legalbench-rag --out out/scale     # grows the index
    python benchmarks/scale_routed.py --data ../shared/data/legalbench-rag --index scale-float

`benchmarks/scale.py` times one OpenSearch search per mode with routing off: the engine's cost of
a question over the whole index. Here the same index gets what ingestion would have written beside
it, a document registry (`<index>-docs`): one record per document copy, the base document's
registry record (title, parties, summary, profile, opening) under the copy's doc_key with the copy's
ACL and validity (as scale.py drew them) and its routing vector plus the same kind of noise. Then
every question runs with the search defaults (routing auto: the documents it names, else the top
3), filters on (as_of + groups), and the latency is the routing search plus the chunk search
(`timings_ms`: routing + search; the question embedding excluded, as in scale.py). The copies
share their names (a copy of "Kenway's NDA" is still Kenway's), so a name names every copy: the
registry search returns up to 3 of them; that is the look-alike case at its worst.

`--names-removed`: the same questions with the sentence that names their document cut off
("Consider the Non-Disclosure Agreement between CopAcc and ToP Mentors; Does the document ..." ->
"Does the document ..."): questions that name no document, which routing sends to the documents
its ranking by title, summary and profile puts first (the latency only: the copies make the
right document unknowable). Either way a second table gives the whole search as a user meets it
(`timings_ms.total` less the question's embeddings: routing, search, the deeper search and the
clause rescorer of `rerank: auto`, relevance).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import scale  # noqa: E402  (the sibling benchmark: the same copies, metadata and queries)
from legalsearch.scripts import (  # noqa: E402
    Embedders,
    SearchRequest,
    SearchService,
    Settings,
    Store,
    load_benchmark,
    schema,
)

MODES = {label: params for label, params in scale.MODES.items() if label != "knn"}  # BM25 and the hybrids


def registry_actions(store: Store, base_docs: str, target: str, base: scale.Base, copies: int, noise: float):
    """One registry record per (base document, copy) present in the chunks index."""
    records = {h["_source"]["doc_id"]: h["_source"] for h in store.scan(base_docs, {"match_all": {}})}
    first_row = {}
    for row, source in enumerate(base.sources):
        first_row.setdefault(source["doc_id"], row)
    present = [d for d in records if d in first_row]
    rng = np.random.default_rng(17)
    for copy in range(copies):
        meta = scale.metadata(base, np.array([copy * base.n + first_row[d] for d in present], dtype=np.int64))
        for j, doc_id in enumerate(present):
            source = dict(records[doc_id])
            new_id = f"{doc_id}~{copy}"
            vector = np.asarray(source["vector"], dtype=np.float32)
            if copy:
                g = rng.standard_normal(vector.shape).astype(np.float32)
                vector = vector + g * (noise * np.linalg.norm(vector) / np.linalg.norm(g))
            vector /= np.linalg.norm(vector)
            group = int(meta["group"][j])
            source.update({
                "doc_id": new_id, "doc_key": f"{new_id}:{source.get('version')}", "public": bool(meta["public"][j]),
                "acl": [] if group < 0 else [f"group-{group}"], "valid_from": scale._day(meta["valid_from"][j]),
                "valid_to": scale._day(meta["valid_to"][j]), "vector": vector.tolist(), "chunk_ids": [],
            })
            yield {"_op_type": "index", "_index": target, "_id": source["doc_key"], "_source": source}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="LegalBench-RAG directory")
    parser.add_argument("--index", default="scale-float", help="an index grown by benchmarks/scale.py")
    parser.add_argument("--config", type=Path, default=scale.REPO / "evaluation" / "configs" / "default.json",
                        help="the configuration whose evaluation index holds the base chunks (as scale.py)")
    parser.add_argument("--base-index", help="the index the chunks were copied from (as scale.py's --base-index)")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--noise", type=float, default=0.25)
    parser.add_argument("--names-removed", action="store_true",
                        help="cut the 'Consider <document>;' sentence off every question: questions naming no document")
    parser.add_argument("--bm25-stop-words-off", action="store_true",
                        help="every search with the experimental bm25_stop_words=false (the analysers' stop words left out)")
    parser.set_defaults(base_like=None)
    args = parser.parse_args()

    settings = Settings().model_copy(update={"log_searches": False})
    store = Store(settings)
    service = SearchService(settings, store, Embedders(settings))
    base_index, base = scale.load_base(args, service)
    chunks = schema.concrete_name(args.index, "chunks")
    size = store.count(chunks)
    copies = -(-size // base.n)
    docs = schema.concrete_name(args.index, "docs")
    if not store.client.indices.exists(index=docs):
        meta = scale.index_body(args.index, "float", service.embedders.for_index(service.index_meta(base_index)))
        body = schema.index_body("docs", args.index, scale.DIM, meta["mappings"]["_meta"]["legalsearch"])
        store.create_index(docs, body)
        store.bulk(registry_actions(store, service.target(base_index)[1], docs, base, copies, args.noise),
                   chunk_size=500)
        store.refresh(docs)
    print(f"{args.index}: {size:,} chunks, {store.count(docs):,} documents in the registry ({copies} copies of "
          f"{base.n:,} base chunks); load average {os.getloadavg()[0]:.1f}")

    queries = load_benchmark(args.data, limit_per_subset=max(1, args.queries // 4))[: args.queries]
    texts = [without_names(q.query) if args.names_removed else q.query for q in queries]
    common = {"index": args.index, "k": 10, "expand_xrefs": False, "as_of": scale.AS_OF, "groups": (scale.GROUP,),
              **({"bm25_stop_words": False} if args.bm25_stop_words_off else {})}
    times: dict[str, list[float]] = {m: [] for m in MODES}
    whole: dict[str, list[float]] = {m: [] for m in MODES}
    routed_counts = []
    for i, text in enumerate(texts):
        for label, params in MODES.items():
            r = service.search(SearchRequest(query=text, **common, **params))
            if i >= 5:  # the first questions warm the caches
                t = r.timings_ms
                times[label].append(t.get("routing", 0.0) + t["search"])
                whole[label].append(t["total"] - t.get("embed", 0.0) - t.get("embed_focused", 0.0))
                routed_counts.append(len(r.routed_docs))
    kind = "naming no document (the 'Consider ...;' sentence cut off)" if args.names_removed else "as written"
    if args.bm25_stop_words_off:
        kind += ", bm25_stop_words=false"
    print(f"{len(texts) - 5} questions per mode, {kind}, defaults (routing auto, names only), filters as_of "
          f"{scale.AS_OF} + [{scale.GROUP}], k = 10; routed documents per question: mean {np.mean(routed_counts):.2f}"
          f"; load average {os.getloadavg()[0]:.1f}; {dt.datetime.now(dt.UTC):%H:%M} UTC")
    for title, values_of in (("routing + search", times), ("the whole search less the embeddings", whole)):
        print(f"\n{title}\n\n| mode | p50 ms | p95 ms | p95 / bm25 p95 |")
        print("|---|---:|---:|---:|")
        bm25_p95 = scale.pct(values_of["bm25"], 0.95)
        for label, values in values_of.items():
            print(f"| {label} | {scale.pct(values, 0.5):.1f} | {scale.pct(values, 0.95):.1f} | "
                  f"{scale.pct(values, 0.95) / bm25_p95:.2f} |")


def without_names(question: str) -> str:
    """The question less its opening sentence when that sentence names the document ("Consider
    the ... of Fiverr; does it ..." -> "does it ..."); any other question as it is."""
    head, sep, rest = question.partition(";")
    return rest.strip() if sep and head.lower().startswith("consider") and rest.strip() else question


if __name__ == "__main__":
    sys.exit(main())
