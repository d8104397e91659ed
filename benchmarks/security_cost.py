"""What security costs: hybrid query latency and ingest throughput on a secured node (TLS, the
security plugin, document-level security) against an unsecured one, on the same LegalBench-RAG
structural index. A benchmark that prints figures, not a test.

    # a second, unsecured node beside the local (secured) one:
    LEGALSEARCH_NODE_HOME=/tmp/plain-node LEGALSEARCH_NODE_PORT=9212 LEGALSEARCH_NODE_SECURITY=false \\
        legalsearch node start
    python benchmarks/security_cost.py --data ../shared/data/legalbench-rag --subset contractnli \\
        --plain-url http://127.0.0.1:9212

Both nodes get the same index (structural chunks, title-fingerprint summaries, MiniLM, the
`structural-sac-hybrid-normalization` configuration), with half the documents private to the
group `bench-a` and half public. Ingest: a first (warm-up) run fills the embedding and summary
caches, then fresh indices are ingested on both nodes in alternation, so the figures are the
parse + bulk-index work where TLS and the plugin could cost (embedding, the dominant cold cost,
is the same on both). Queries, interleaved query by query, the embedding time subtracted:

- plain:          hybrid on the unsecured node, ACL groups applied by this client;
- secure admin:   the same over TLS as the admin (authentication, no DLS);
- secure user:    what `legalsearch search --user` does: the user's password checked by the plugin
                  (authinfo), then the hybrid query as the service account with the user's groups;
- DLS bool plain / DLS bool user: bool[match, knn] (the only combined form a DLS user can run on
                  2.19) as the admin on the plain node vs as the user itself under DLS.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from pathlib import Path

from legalsearch import LegalSearch, SearchRequest, Settings
from legalsearch.scripts import (
    Embedders,
    IngestOptions,
    SearchService,
    Store,
    admin,
    benchmark_file_path,
    corpus_files,
    file_sources,
    indices,
    ingest,
    load_benchmark,
    secrets,
    title_from_filename,
)
from pydantic import SecretStr

GROUP = "bench-a"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def ingest_into(settings: Settings, store: Store, embedders: Embedders, data: Path, files, name: str) -> dict:
    def metadata(path: Path) -> dict:
        doc_id = benchmark_file_path(data, path)
        private = sum(map(ord, doc_id)) % 2 == 0
        return {"doc_id": doc_id, "title": title_from_filename(path), "public": not private,
                **({"acl": [GROUP]} if private else {})}

    options = IngestOptions(index=name, chunker="structural", summarizer="title-fingerprint", embedder="minilm")
    start = time.perf_counter()
    report = ingest(file_sources(list(files), metadata_override=metadata), settings, options, store=store,
                    embedders=embedders)
    summary = report.summary()
    summary["wall_s"] = time.perf_counter() - start
    assert summary["failed"] == 0, summary["failures"]
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--subset", default="contractnli")
    parser.add_argument("--scope", choices=["referenced", "all"], default="all",
                        help="all: every document of the sub-corpus, not only those its queries cite")
    parser.add_argument("--plain-url", required=True, help="an unsecured node (LEGALSEARCH_NODE_SECURITY=false)")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3, help="query rounds (and ingest rounds)")
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--keep", action="store_true", help="keep the indices and the user afterwards")
    args = parser.parse_args()

    settings = Settings().model_copy(update={"log_searches": False})
    plain_settings = settings.model_copy(update={"opensearch_url": args.plain_url, "opensearch_user": None,
                                                 "opensearch_password": None})
    secure = Store(settings)  # the local node (or OPENSEARCH_URL) as its admin
    plain = Store(plain_settings)
    if secure.authinfo() is None:
        sys.exit(f"{secure.url} has no security plugin: point OPENSEARCH_URL (or the local node) at a secured one")
    if plain.authinfo() is not None:
        sys.exit(f"{args.plain_url} has the security plugin on: start it with LEGALSEARCH_NODE_SECURITY=false")
    embedders = Embedders()
    queries = load_benchmark(args.data, subsets=[args.subset])
    files = [p for p in corpus_files(args.data, args.scope, queries) if p.parent.name == args.subset]
    texts = [q.query for q in queries][: args.queries]
    run = uuid.uuid4().hex[:6]

    # ----------------------------------------------------------------- ingest
    print(f"warm-up ingest of {len(files)} {args.subset} documents (fills the embedding / summary caches) ...",
          file=sys.stderr)
    index = f"bench-sec-{run}"
    warm = ingest_into(settings, secure, embedders, args.data, files, index)
    ingest_into(plain_settings, plain, embedders, args.data, files, index)
    rates: dict[str, list[float]] = {"plain": [], "secure": []}
    for r in range(args.rounds):
        for label, store, s in (("plain", plain, plain_settings), ("secure", secure, settings))[:: 1 if r % 2 else -1]:
            name = f"bench-sec-{run}-i{r}"
            summary = ingest_into(s, store, embedders, args.data, files, name)
            rates[label].append(summary["chunks"] / summary["wall_s"])
            indices.delete(store, name)

    # ----------------------------------------------------------------- queries
    user, password = f"bench-{run}", secrets.make_password()
    admin.users_add(secure, user, password, [GROUP])
    base = LegalSearch(settings)
    base.embedders = embedders
    as_user = base.as_user(user, password)
    services = {
        "plain": SearchService(plain_settings, plain, embedders),
        "secure admin": SearchService(settings, secure, embedders),
        "secure user": as_user.service,
    }
    groups = {"plain": (GROUP,), "secure admin": (GROUP,), "secure user": ()}
    user_store = Store(settings.model_copy(update={"opensearch_user": user, "opensearch_password": SecretStr(password)}))
    model = embedders.get("minilm")
    for text in texts[:5]:  # warm every path (models, pipelines, the plugin's auth cache)
        for label, service in services.items():
            service.search(SearchRequest(query=text, index=index, k=args.k, groups=groups[label]))
    times: dict[str, list[float]] = {label: [] for label in [*services, "DLS bool plain", "DLS bool user"]}
    for r in range(args.rounds):
        for i, text in enumerate(texts):
            order = list(services)
            order = order[(i + r) % len(order):] + order[: (i + r) % len(order)]
            for label in order:
                t = time.perf_counter()
                response = services[label].search(SearchRequest(query=text, index=index, k=args.k,
                                                                groups=groups[label], expand_xrefs=False))
                times[label].append((time.perf_counter() - t) * 1000 - response.timings_ms.get("embed", 0.0)
                                     - response.timings_ms.get("embed_focused", 0.0))
            vector = model.embed_query(text).tolist()
            body = {"size": args.k, "_source": ["chunk_id"], "query": {"bool": {"should": [
                {"match": {"embedded_text": text}}, {"knn": {"vector": {"vector": vector, "k": args.k}}}]}}}
            acl = {"bool": {"should": [{"term": {"public": True}}, {"terms": {"acl": [GROUP]}}],
                            "minimum_should_match": 1}}
            plain_body = {**body, "query": {"bool": {**body["query"]["bool"], "filter": [acl]}}}
            for label, store, b in (("DLS bool plain", plain, plain_body), ("DLS bool user", user_store, body)):
                t = time.perf_counter()
                store.search(index, b)
                times[label].append((time.perf_counter() - t) * 1000)

    if not args.keep:
        indices.delete(secure, index)
        indices.delete(plain, index)
        admin.users_remove(secure, user)

    print(f"\n{args.subset}: {len(files)} documents, {warm['chunks']} chunks (structural, title-fingerprint, MiniLM); "
          f"half private to {GROUP}")
    print(f"ingest, warm caches, {args.rounds} rounds per node (chunks/s, median): "
          f"plain {statistics.median(rates['plain']):.1f}, secure {statistics.median(rates['secure']):.1f} "
          f"(ratio {statistics.median(rates['secure']) / statistics.median(rates['plain']):.3f}); "
          f"rounds: plain {[round(x, 1) for x in rates['plain']]}, secure {[round(x, 1) for x in rates['secure']]}")
    print(f"queries: {len(texts)} x {args.rounds} rounds, k={args.k}, routing auto, normalization 0.3/0.7, "
          "times in ms without query embedding")
    print(f"{'path':<16} {'p50':>7} {'p95':>7} {'x plain p50':>12} {'x plain p95':>12}")
    for label, values in times.items():
        ref = times["DLS bool plain" if label.startswith("DLS") else "plain"]
        print(f"{label:<16} {pct(values, .5):>7.1f} {pct(values, .95):>7.1f} {pct(values, .5) / pct(ref, .5):>12.2f} "
              f"{pct(values, .95) / pct(ref, .95):>12.2f}")


if __name__ == "__main__":
    sys.exit(main())
