"""Scale: one index grown to 10k, 100k and 1M chunks on one node, measured at each size.
A benchmark that prints figures, not a test.

    python benchmarks/scale.py --data ../shared/data/legalbench-rag --out out/scale
    python benchmarks/scale.py --data ... --out out/scale --sizes 10000,100000 --encoders float,sq
    python benchmarks/scale.py --data ... --out out/scale --experiments    # the settings, one by one
    python benchmarks/scale.py --data ... --config evaluation/configs/embedders/default-minilm-onnx.json \
        --check-ids 7f749c2,94ce1b9 --resume-at 300000 --sizes 1000000   # ids a changed base repeats (no node)

The documents are copies: every chunk of the LegalBench-RAG corpus (referenced scope, chunked,
summarized and embedded by the product, read from the evaluation index of the default
configuration, which is built first if missing) is reused under new ids, one copy per document
per round. Each copy gets its own metadata (validity dates, ACL group or public) and its vector is
the real embedding plus small Gaussian noise (relative norm --noise, i.e. cosine ~0.97 to the
original), renormalised: the vector distribution is realistic, the texts repeat.

At each size: indexing rate (bulk, with refresh off and no replicas during the load, restored
after), disk (per Lucene file type, so the vector structures are separated), JVM heap and the
node's off-heap memory (resident anonymous memory beyond the heap, and resident index files),
and query latency p50 / p95 for bm25, knn, hybrid RRF and hybrid normalization with filters
(as_of + groups) on, as `legalsearch search` sends them (routing and expansion off, so each row
times one OpenSearch search). HNSW float vectors are compared with the Lucene scalar-quantized
encoder (--encoders float,sq): recall@10 of the filtered k-NN list against exact search (numpy
over the same filtered vectors), memory and latency.

Long runs are bounded and resumable: --hours stops the growth (what was indexed stays), the
state file in --out records every finished size, and a second run continues where it stopped.

Every row is accounted for: a row's id is a function of the row number and the base (row ->
copy row // n, chunk row % n), so an index is only grown from the base it was started with (its
fingerprint is in the index's _meta; another base is refused: with 16,166 base chunks up to 300k
and 16,349 after, the 1M run of 2026-12-01 re-sent 3,422 ids it had written and counted
996,578), rows are sent as `create` (an id sent twice is a refused item, never an overwrite),
and each growth prints rows sent / written / refused (with the node's reasons) and stops unless
the index counts exactly what it held plus what was written.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import random
import struct
import sys
import time
from pathlib import Path

import numpy as np
from legalsearch.scripts import (
    BulkError,
    BulkStats,
    Embedders,
    Filters,
    SearchRequest,
    SearchService,
    Settings,
    Store,
    bodies,
    build_index,
    corpus_files,
    indices,
    load_benchmark,
    load_config,
    plan,
    schema,
)
from legalsearch.scripts import bulk as bulk_settings

REPO = Path(__file__).resolve().parent.parent
DIM = 384
AS_OF = dt.date(2025, 6, 1)
GROUP = "group-3"
N_GROUPS = 20
EPOCH = dt.date(2014, 1, 1)
MODES = {
    "bm25": {"mode": "bm25"},
    "knn": {"mode": "knn"},
    "hybrid rrf": {"mode": "hybrid", "fusion": "rrf"},
    "hybrid norm.": {"mode": "hybrid", "fusion": "normalization"},
}


# ----------------------------------------------------------------------------- the documents


class Base:
    """The real chunks: their `_source` (without the vector), their vectors, their document."""

    def __init__(self, sources: list[dict], vectors: np.ndarray):
        self.sources = sources
        self.vectors = vectors
        docs = sorted({s["doc_id"] for s in sources})
        self.doc_index = np.array([docs.index(s["doc_id"]) for s in sources], dtype=np.int64)
        self.n = len(sources)
        self.keys = [(s["doc_id"], s.get("version"), s["position"]) for s in sources]
        digest = hashlib.sha256("\n".join(f"{d}:{v}:{p}" for d, v, p in self.keys).encode()).hexdigest()
        self.fingerprint = f"{self.n}:{digest[:16]}"  # what the ids of every row depend on


def load_base(args, service: SearchService) -> tuple[str, Base]:
    config = load_config(args.config)
    queries = load_benchmark(args.data)
    files = corpus_files(args.data, "referenced", queries)
    if args.base_index:  # an existing index, read as it is (nothing ingested)
        name = args.base_index
    else:
        name, _ = build_index(config, service, args.data, files, "referenced", progress=True)
    keep = None
    if args.base_like:  # the chunks the copies of an existing scale index were made of (copy 0 is them)
        copy0 = service.store.scan(schema.concrete_name(args.base_like, "chunks"),
                                   {"wildcard": {"doc_id": "*~0"}}, ["doc_id", "position"])
        keep = {(h["_source"]["doc_id"].rsplit("~", 1)[0], int(h["_source"]["position"])) for h in copy0}
    sources, vectors = [], []
    for hit in service.store.scan(name, {"match_all": {}}):
        source = hit["_source"]
        if keep is not None and (source["doc_id"], int(source["position"])) not in keep:
            continue
        vectors.append(np.asarray(source.pop("vector"), dtype=np.float32))
        sources.append(source)
    order = sorted(range(len(sources)), key=lambda i: sources[i]["chunk_id"])
    print(f"base: {len(sources):,} real chunks of {len({s['doc_id'] for s in sources})} documents from index {name}")
    return name, Base([sources[i] for i in order], np.stack([vectors[i] for i in order]))


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 of uint64s: deterministic per-document metadata."""
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def metadata(base: Base, rows: np.ndarray) -> dict[str, np.ndarray]:
    """Per row: public, ACL group (-1: none), valid_from / valid_to in days since EPOCH (-1: open).
    One draw per (document, copy): every chunk of a copy shares its document's metadata."""
    copy = rows // base.n
    doc = base.doc_index[rows % base.n]
    with np.errstate(over="ignore"):
        h = _mix(doc.astype(np.uint64) * np.uint64(1_000_003) + copy.astype(np.uint64))
    public = (h % np.uint64(10)) < np.uint64(6)
    group = np.where(public, -1, ((h >> np.uint64(8)) % np.uint64(N_GROUPS)).astype(np.int64))
    valid_from = ((h >> np.uint64(16)) % np.uint64(12 * 365)).astype(np.int64)
    closed = ((h >> np.uint64(32)) % np.uint64(10)) < np.uint64(3)
    valid_to = np.where(closed, valid_from + 365 * (1 + ((h >> np.uint64(40)) % np.uint64(6)).astype(np.int64)), -1)
    return {"public": public, "group": group, "valid_from": valid_from, "valid_to": valid_to}


def visible(meta: dict[str, np.ndarray]) -> np.ndarray:
    """Rows the filters of every query let through: public or GROUP, valid on AS_OF."""
    day = (AS_OF - EPOCH).days
    acl = meta["public"] | (meta["group"] == int(GROUP.split("-")[1]))
    return acl & (meta["valid_from"] <= day) & ((meta["valid_to"] == -1) | (meta["valid_to"] > day))


def vectors_for(base: Base, start: int, end: int, noise: float, seed: int = 7) -> np.ndarray:
    """Rows [start, end): the base vector plus noise of relative norm `noise` (copy 0 exact),
    in blocks of 1,000 rows with their own seed, so any range is reproducible."""
    out = np.empty((end - start, DIM), dtype=np.float32)
    block = 1000
    for b0 in range(start - start % block, end, block):
        rng = np.random.default_rng((seed, b0 // block))
        g = rng.standard_normal((block, DIM)).astype(np.float32)
        g *= noise / np.linalg.norm(g, axis=1, keepdims=True)
        rows = np.arange(b0, b0 + block)
        v = base.vectors[rows % base.n] + np.where((rows < base.n)[:, None], 0, g)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        lo, hi = max(b0, start), min(b0 + block, end)
        out[lo - start:hi - start] = v[lo - b0:hi - b0]
    return out


def _day(days: int) -> str | None:
    return None if days < 0 else (EPOCH + dt.timedelta(days=int(days))).isoformat()


def row_id(keys: list[tuple], row: int) -> tuple[str, str]:
    """(doc_id, chunk id) of `row` over base chunk `keys` ((doc_id, version, position), in the
    base's order): copy row // n of base chunk row % n. A pure function of the row and the base:
    the same row over another base is another chunk, and may be a row already sent."""
    doc, version, position = keys[row % len(keys)]
    doc_id = f"{doc}~{row // len(keys)}"
    return doc_id, f"{doc_id}:{version}:{position}"


def actions(base: Base, index: str, start: int, end: int, noise: float):
    meta = metadata(base, np.arange(start, end))
    vectors = vectors_for(base, start, end, noise)
    for j, row in enumerate(range(start, end)):
        source = dict(base.sources[row % base.n])
        doc_id, chunk_id = row_id(base.keys, row)
        group = int(meta["group"][j])
        source.update({
            "doc_id": doc_id, "doc_key": f"{doc_id}:{source.get('version')}",
            "chunk_id": chunk_id,
            "public": bool(meta["public"][j]), "acl": [] if group < 0 else [f"group-{group}"],
            "valid_from": _day(meta["valid_from"][j]), "valid_to": _day(meta["valid_to"][j]),
            "vector": vectors[j].tolist(),
        })
        # create, not index: an id sent twice is refused (409), never a silent overwrite
        yield {"_op_type": "create", "_index": index, "_id": chunk_id, "_routing": doc_id, "_source": source}


def row_of(chunk_id: str, base_rows: dict[tuple[str, int], int], n: int) -> int:
    doc_id, _version, position = chunk_id.rsplit(":", 2)
    original, copy = doc_id.rsplit("~", 1)
    return int(copy) * n + base_rows[(original, int(position))]


# ----------------------------------------------------------------------------- the index


def index_body(name: str, encoder: str, embedder, variant: dict | None = None, base: Base | None = None) -> dict:
    """The product's chunks index body, with the encoder and (for --experiments) one setting changed;
    the base's fingerprint in its _meta (`grow` only adds rows from that base)."""
    meta = {"embedder": embedder.name, "model": embedder.model_id, "dim": DIM, "max_tokens": embedder.max_tokens,
            **embedder.describe(), "chunker": "structural", "summarizer": "title-fingerprint",
            "benchmark": "scale: LegalBench chunks copied under new ids, vectors = real embeddings + noise",
            **({"benchmark_base": base.fingerprint} if base is not None else {})}
    body = schema.index_body("chunks", name, DIM, meta)
    vector = body["mappings"]["properties"]["vector"]
    if encoder == "sq":
        vector["method"]["parameters"]["encoder"] = {"name": "sq"}
    elif encoder == "faiss":  # the same HNSW graph parameters in the Faiss engine (native, off-heap)
        vector["method"]["engine"] = "faiss"
    for key, value in (variant or {}).items():
        if key == "vector_doc_values":
            vector["doc_values"] = value
        elif key == "derived_source":
            body["settings"]["index"]["knn.derived_source.enabled"] = value
        elif key == "keyword_doc_values":
            for field in bulk_settings.NO_DOC_VALUES:
                body["mappings"]["properties"][field]["doc_values"] = value
    return body


def grow(store: Store, base: Base, index: str, target: int, noise: float, deadline: float,
         refresh_off: bool = True, progress_every: int = 20_000, tally: dict | None = None) -> tuple[int, float]:
    """Bulk-load rows up to `target` (resuming from what the index holds, if it was grown from this
    base); returns (rows written, seconds). Adds rows sent / written / refused (by reason) to
    `tally`; raises unless the index then counts what it held plus what was written."""
    concrete = schema.concrete_name(index, "chunks")
    store.refresh(concrete)
    start = store.count(concrete)
    if start:
        grown_from = store.client.indices.get_mapping(index=concrete)[concrete]["mappings"].get(
            "_meta", {}).get("legalsearch", {}).get("benchmark_base")
        if grown_from != base.fingerprint:
            raise SystemExit(
                f"{concrete} holds {start:,} rows grown from base {grown_from or '(not recorded)'}; the base is now "
                f"{base.fingerprint} ({base.n:,} chunks): the ids of the next rows would repeat some already "
                "written. Delete the index (and its sizes in the state file) to grow it again")
    if start >= target:
        return 0, 0.0
    stats = BulkStats()
    previous = bulk_settings.begin_bulk(store, concrete) if refresh_off else None
    t0 = time.perf_counter()
    row = start
    error = None
    try:
        while row < target and time.time() < deadline:
            end = min(target, row + progress_every)
            try:
                store.bulk(actions(base, concrete, row, end, noise), chunk_size=500, stats=stats)
            except BulkError as e:  # counted in `stats`; the growth stops: rows are not to be skipped
                error = e
                break
            row = end
            rate = stats.written / (time.perf_counter() - t0)
            print(f"  {index}: {row:,} / {target:,} rows, {rate:.0f} rows/s, load average {os.getloadavg()[0]:.1f}",
                  flush=True)
    finally:
        if previous is not None:
            bulk_settings.end_bulk(store, concrete, previous)
        else:
            store.refresh(concrete)
    seconds = time.perf_counter() - t0
    count = store.count(concrete)
    why = ", ".join(f"{n:,} {reason}" for reason, n in sorted(stats.failed_by_reason.items()))
    print(f"  {index}: rows sent {stats.sent:,}, written {stats.written:,}, refused {stats.failed:,}"
          f"{f' ({why})' if why else ''}; the index counts {count:,} = {start:,} held + {count - start:,}", flush=True)
    if tally is not None:
        for key in ("sent", "written", "failed"):
            tally[key] = tally.get(key, 0) + getattr(stats, key)
        for reason, n in stats.failed_by_reason.items():
            tally.setdefault("failed_by_reason", {})[reason] = tally.get("failed_by_reason", {}).get(reason, 0) + n
    if error is not None:
        raise SystemExit(f"{index}: {error}")
    if stats.sent != stats.written + stats.failed or count != start + stats.written:
        raise SystemExit(f"{index}: rows not accounted for: sent {stats.sent:,}, written {stats.written:,}, refused "
                         f"{stats.failed:,}, but the index counts {count:,} (held {start:,} before)")
    return stats.written, seconds


# ----------------------------------------------------------------------------- measurements


def _lucene_entries(cfe: Path) -> dict[str, int]:
    """File sizes inside a Lucene compound file (.cfe: codec header, vint count, (id, offset, length))."""
    data = cfe.read_bytes()
    pos = 4  # magic

    def vint() -> int:
        nonlocal pos
        value, shift = 0, 0
        while True:
            b = data[pos]
            pos += 1
            value |= (b & 0x7F) << shift
            if b < 0x80:
                return value
            shift += 7

    def string() -> str:
        nonlocal pos
        n = vint()
        s = data[pos:pos + n].decode()
        pos += n
        return s

    string()  # codec name
    pos += 4 + 16  # version, object id
    pos += 1 + data[pos]  # suffix
    entries = {}
    for _ in range(vint()):
        name = string()
        offset, length = struct.unpack("<qq", data[pos:pos + 16])  # Lucene 9+: little-endian
        pos += 16
        entries[name] = length
    return entries


FILE_KINDS = {
    ".vec": "vectors (float)", ".veq": "vectors (quantized)", ".vex": "HNSW graph", ".vem": "vector meta",
    ".vemf": "vector meta", ".vemq": "vector meta", ".fdt": "stored fields (_source)", ".fdx": "stored fields (_source)",
    ".fdm": "stored fields (_source)", ".tim": "terms", ".tip": "terms", ".tmd": "terms", ".doc": "postings",
    ".pos": "postings", ".pay": "postings", ".dvd": "doc values", ".dvm": "doc values", ".nvd": "norms",
    ".nvm": "norms", ".kdd": "points", ".kdi": "points", ".kdm": "points",
}


def disk_breakdown(node_home: Path, uuid: str) -> dict[str, int]:
    """Bytes per kind of Lucene file (compound files opened) for the index's shard 0."""
    directory = node_home / "data" / "nodes" / "0" / "indices" / uuid / "0" / "index"
    sizes: dict[str, int] = {}
    for path in directory.iterdir():
        if path.suffix == ".cfe":
            for name, length in _lucene_entries(path).items():
                kind = FILE_KINDS.get("." + name.rsplit(".", 1)[-1], "other")  # entries: ".fdt", "_Lucene90_0.dvd"
                sizes[kind] = sizes.get(kind, 0) + length
        elif path.suffix not in (".cfs", ".cfe", ".si", ".lock") and not path.name.startswith("segments"):
            kind = FILE_KINDS.get(path.suffix, "other")
            sizes[kind] = sizes.get(kind, 0) + path.stat().st_size
    return sizes


def node_memory(store: Store, pid: int) -> dict[str, float]:
    stats = store.client.nodes.stats(metric="jvm,indices")
    node = next(iter(stats["nodes"].values()))
    heap = node["jvm"]["mem"]
    status = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                status[key] = int(value.split()[0]) * 1024
    except OSError:
        pass
    return {
        "heap_used": heap["heap_used_in_bytes"], "heap_committed": heap["heap_committed_in_bytes"],
        "heap_max": heap["heap_max_in_bytes"], "non_heap_committed": heap.get("non_heap_committed_in_bytes", 0),
        "rss": status.get("VmRSS", 0), "rss_anon": status.get("RssAnon", 0), "rss_file": status.get("RssFile", 0),
        "segments": node["indices"]["segments"]["count"],
    }


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def measure_queries(service: SearchService, index: str, texts: list[str], k: int = 10) -> dict:
    """Each query in every mode (the modes in a shuffled order per query); returns ms lists and
    the k-NN hits (for recall)."""
    times: dict[str, list[float]] = {m: [] for m in MODES}
    knn_hits: list[list[str]] = []
    rng = random.Random(5)
    common = {"index": index, "k": k, "routing": "off", "expand_xrefs": False, "as_of": AS_OF, "groups": (GROUP,)}
    for text in texts[:5]:  # warm caches and the pipelines
        for params in MODES.values():
            service.search(SearchRequest(query=text, **common, **params))
    for text in texts:
        order = list(MODES)
        rng.shuffle(order)
        for label in order:
            r = service.search(SearchRequest(query=text, **common, **MODES[label]))
            times[label].append(r.timings_ms["search"])
            if label == "knn":
                knn_hits.append([h.chunk_id for h in r.hits])
    return {"times": times, "knn_hits": knn_hits}


def exact_top(qvecs: np.ndarray, vectors: np.ndarray, mask: np.ndarray, k: int = 10) -> list[np.ndarray]:
    """Exact top-k rows by cosine among `mask` rows (vectors are unit length), in blocks."""
    best_s = np.full((len(qvecs), 0), -np.inf, dtype=np.float32)
    best_i = np.zeros((len(qvecs), 0), dtype=np.int64)
    for start in range(0, len(vectors), 100_000):
        block = np.asarray(vectors[start:start + 100_000])
        scores = qvecs @ block.T
        scores[:, ~mask[start:start + len(block)]] = -np.inf
        top = np.argpartition(-scores, min(k, scores.shape[1] - 1), axis=1)[:, :k]
        s = np.take_along_axis(scores, top, axis=1)
        best_s = np.concatenate([best_s, s], axis=1)
        best_i = np.concatenate([best_i, top + start], axis=1)
        keep = np.argsort(-best_s, axis=1)[:, :k]
        best_s, best_i = np.take_along_axis(best_s, keep, axis=1), np.take_along_axis(best_i, keep, axis=1)
    return [row[np.isfinite(s)] for row, s in zip(best_i, best_s, strict=True)]


# ----------------------------------------------------------------------------- one size


def measure(args, service: SearchService, base: Base, index: str, size: int, added: int, seconds: float,
            merge_s: float, texts: list[str], qvecs: np.ndarray, vectors_file: Path) -> dict:
    store = service.store
    concrete = schema.concrete_name(index, "chunks")
    settings = store.client.indices.get_settings(index=concrete)[concrete]["settings"]["index"]
    stats = store.client.indices.stats(index=concrete, metric="store,segments,docs")["indices"][concrete]["primaries"]
    home = Path(service.settings.node_home)
    pid = json.loads((home / "node.json").read_text())["pid"]
    result = measure_queries(service, index, texts)
    memory = node_memory(store, pid)
    disk = disk_breakdown(home, settings["uuid"])
    # recall@10 of the filtered k-NN list against exact search over the same filtered rows
    base_rows = {(s["doc_id"], int(s["position"])): i for i, s in enumerate(base.sources)}
    rows = np.arange(size)
    mask = visible(metadata(base, rows))
    vectors = np.load(vectors_file, mmap_mode="r")[:size]
    truth = exact_top(qvecs, vectors, mask)
    recalls = []
    for hits, exact in zip(result["knn_hits"], truth, strict=True):
        got = {row_of(c, base_rows, base.n) for c in hits}
        recalls.append(len(got & set(exact.tolist())) / max(1, min(10, len(exact))))
    times = result["times"]
    bm25_p50, bm25_p95 = pct(times["bm25"], .5), pct(times["bm25"], .95)
    vector_bytes = sum(v for k, v in disk.items() if k.startswith("vectors") or k in ("HNSW graph", "vector meta"))
    return {
        "index": index, "size": size, "docs": stats["docs"]["count"], "visible_share": float(mask.mean()),
        "rows_added": added, "index_seconds": seconds, "rows_per_s": added / seconds if seconds else None,
        "merge_seconds": merge_s, "segments": stats["segments"]["count"],
        "disk_bytes": stats["store"]["size_in_bytes"], "disk": disk, "vector_bytes_per_chunk": vector_bytes / size,
        "memory": memory, "load_average": os.getloadavg()[0],
        "latency_ms": {m: {"p50": pct(v, .5), "p95": pct(v, .95)} for m, v in times.items()},
        "hybrid_over_bm25": {m: {"p50": pct(times[m], .5) / bm25_p50, "p95": pct(times[m], .95) / bm25_p95}
                             for m in ("hybrid rrf", "hybrid norm.")},
        "recall_at_10": float(np.mean(recalls)), "queries": len(texts),
    }


def print_size(r: dict) -> None:
    mib = 1 / (1 << 20)
    m = r["memory"]
    rate = f"{r['rows_per_s']:.0f} chunks/s" if r["rows_per_s"] else "(already indexed)"
    merge = f", force-merge {r['merge_seconds']:.0f} s" if r["merge_seconds"] else ""
    print(f"\n### {r['index']}: {r['size']:,} chunks ({r['docs']:,} in the index; {r['visible_share']:.0%} pass the "
          f"filters; {r['segments']} segments; load average {r['load_average']:.1f})")
    print(f"indexing: {rate} over {r['rows_added']:,} new chunks ({r['index_seconds']:.0f} s"
          f"{merge})")
    if "rows" in r:
        rows = r["rows"]
        print(f"rows: sent {rows.get('sent', 0):,}, written {rows.get('written', 0):,}, refused "
              f"{rows.get('failed', 0):,} ({r['docs']:,} in the index)")
    print(f"disk: {r['disk_bytes'] * mib:,.0f} MiB = {r['disk_bytes'] / r['size']:,.0f} B/chunk; vectors + graph "
          f"{r['vector_bytes_per_chunk']:,.0f} B/chunk ("
          + ", ".join(f"{k} {v / r['size']:,.0f}" for k, v in sorted(r["disk"].items(), key=lambda x: -x[1])) + ")")
    print(f"memory: heap used {m['heap_used'] * mib:,.0f} / committed {m['heap_committed'] * mib:,.0f} MiB; "
          f"off-heap (resident anonymous beyond the heap) {(m['rss_anon'] - m['heap_committed']) * mib:,.0f} MiB; "
          f"resident index files {m['rss_file'] * mib:,.0f} MiB")
    print(f"{'query (filters on)':<16} {'p50 ms':>8} {'p95 ms':>8} {'/ bm25 p50':>11} {'/ bm25 p95':>11}")
    lat, b = r["latency_ms"], r["latency_ms"]["bm25"]
    for mode, v in lat.items():
        print(f"{mode:<16} {v['p50']:>8.1f} {v['p95']:>8.1f} {v['p50'] / b['p50']:>11.2f} {v['p95'] / b['p95']:>11.2f}")
    print(f"k-NN recall@10 against exact search (same filters): {r['recall_at_10']:.3f} over {r['queries']} queries")


# ----------------------------------------------------------------------------- k-NN methods (issue 27)


KNN_METHODS: dict[str, dict] = {
    "k=10 (before issue 27)": {"k": 10},
    "k=100": {"k": 100},
    "ef_search 100": {"k": 10, "ef_search": 100},
    "ef_search 200": {"k": 10, "ef_search": 200},
    "ef_search 400": {"k": 10, "ef_search": 400},
    "exact (script_score)": {"exact": True},
}
"""The filtered k-NN requests compared by `--knn-methods`: the `knn` query's `k` (Lucene's beam
width too), `method_parameters.ef_search`, and exact scoring of every row the filters pass."""


def knn_method_body(vector: np.ndarray, filters, k: int = 10, ef_search: int | None = None,
                    exact: bool = False, size: int = 10) -> dict:
    clauses = bodies.filter_clauses(filters)
    if exact:  # the k-NN plugin's scoring script over the filtered rows (brute force)
        query = {"script_score": {"query": {"bool": {"filter": clauses}}, "script": {
            "source": "knn_score", "lang": "knn",
            "params": {"field": "vector", "query_value": vector.tolist(), "space_type": "cosinesimil"}}}}
    else:
        inner: dict = {"vector": vector.tolist(), "k": k, "filter": {"bool": {"filter": clauses}}}
        if ef_search:
            inner["method_parameters"] = {"ef_search": ef_search}
        query = {"knn": {"vector": inner}}
    return {"size": size, "_source": False, "query": query}


def run_knn_methods(args, service, base, qvecs, state, deadline) -> None:
    """At each size: every method of KNN_METHODS on every engine's index, interleaved (a shuffled
    order per question), recall@10 against numpy exact search and p50 / p95; then Faiss again with
    `index.knn.advanced.filtered_exact_search_threshold` above the filtered count. (The node's
    k-NN plugin has no native libraries: a `faiss` field takes the node down, OPENSEARCH-LOCAL.md
    and k-NN#2808, so --encoders faiss is for a node that has them.)"""
    store = service.store
    embedder = service.embedders.for_index(service.index_meta(args.base_index))
    filters = Filters(as_of=AS_OF, groups=(GROUP,))
    base_rows = {(s["doc_id"], int(s["position"])): i for i, s in enumerate(base.sources)}
    for size in args.sizes:
        concretes = {}
        for encoder in args.encoders:
            index = f"{args.index}-{encoder}"
            concrete = schema.concrete_name(index, "chunks")
            if not store.index_exists(concrete):
                store.create_index(concrete, index_body(index, encoder, embedder, base=base))
            vectors_file = ensure_vectors(args, base, state, size)
            grow(store, base, index, size, args.noise, deadline)
            store.refresh(concrete)
            if store.count(concrete) < size:
                print(f"stopped: --hours reached in {index}; run again to continue")
                return
            concretes[encoder] = concrete
        # the width each index records after an ingest of this size (the size rule), measured as its own row
        recorded = set()
        for concrete in concretes.values():
            indices.tune_knn(store, concrete)
            recorded.add(bodies.knn_ef_search(indices.concrete_meta(store, concrete)))
        methods = dict(KNN_METHODS) | {f"index default (ef_search {w}, size rule)": {"k": 10, "ef_search": w}
                                       for w in sorted(recorded)}
        mask = visible(metadata(base, np.arange(size)))
        truth = exact_top(qvecs, np.load(vectors_file, mmap_mode="r")[:size], mask)
        # then every index with index.knn.advanced.filtered_exact_search_threshold above any
        # filtered count: the k-NN plugin's exact-search switch (for the engines it applies to)
        passes = [("", {}), (" [filtered_exact_search_threshold 10^9]", dict.fromkeys(concretes, 10 ** 9))]
        for suffix, thresholds in passes:
            for encoder, value in thresholds.items():
                store.put_settings(concretes[encoder], {"index.knn.advanced.filtered_exact_search_threshold": value})
            try:
                rows = _measure_methods(store, concretes, qvecs, filters, truth, base_rows, base.n, methods)
            finally:
                for encoder in thresholds:
                    store.put_settings(concretes[encoder], {"index.knn.advanced.filtered_exact_search_threshold": None})
            result = {"size": size, "visible_share": float(mask.mean()), "load_average": os.getloadavg(),
                      "queries": len(qvecs), "methods": rows}
            state["results"][f"knn-methods{suffix}/{size}"] = result
            save(args, state)
            print_methods(result, suffix)


def _measure_methods(store, concretes: dict[str, str], qvecs, filters, truth, base_rows, n,
                     methods: dict[str, dict] = KNN_METHODS) -> dict:
    combos = [(e, m) for e in concretes for m in methods]
    times: dict = {c: [] for c in combos}
    recalls: dict = {c: [] for c in combos}
    rng = random.Random(27)
    for q in qvecs[:5]:  # warm the graphs and the filter caches
        for e, m in combos:
            store.search(concretes[e], knn_method_body(q, filters, **methods[m]))
    for q, exact in zip(qvecs, truth, strict=True):
        order = list(combos)
        rng.shuffle(order)
        for e, m in order:
            t = time.perf_counter()
            r = store.search(concretes[e], knn_method_body(q, filters, **methods[m]))
            times[(e, m)].append((time.perf_counter() - t) * 1000)
            got = {row_of(h["_id"], base_rows, n) for h in r["hits"]["hits"]}
            recalls[(e, m)].append(len(got & set(exact.tolist())) / max(1, min(10, len(exact))))
    return {f"{e} / {m}": {"recall_at_10": float(np.mean(recalls[(e, m)])), "p50": pct(times[(e, m)], .5),
                           "p95": pct(times[(e, m)], .95)} for e, m in combos}


def print_methods(r: dict, suffix: str = "") -> None:
    load = ", ".join(f"{x:.1f}" for x in r["load_average"])
    print(f"\n### filtered k-NN methods{suffix}: {r['size']:,} chunks ({r['visible_share']:.0%} pass the filters; "
          f"{r['queries']} questions; load average {load})")
    print(f"{'engine / method':<44} {'recall@10':>9} {'p50 ms':>8} {'p95 ms':>8}")
    for label, v in r["methods"].items():
        print(f"{label:<44} {v['recall_at_10']:>9.3f} {v['p50']:>8.1f} {v['p95']:>8.1f}")


# ----------------------------------------------------------------------------- BM25 variants (issue 27)


def bm25_variants() -> dict:
    """label -> (question text -> the BM25 sub-query, filters applied by the caller)."""
    en_fields = [f for f in bodies.BM25_FIELDS if ".it" not in f]
    few = ["embedded_text^1.0", "embedded_text.it^1.0", "text.exact^0.5"]

    def mm(fields, kind="most_fields", words=None):
        def build(text, clauses):
            t = plan.bm25_text(text)[0]
            if words is not None:
                t = words(t)
            return {"bool": {"must": [{"multi_match": {"query": t, "fields": fields, "type": kind}}],
                             "filter": clauses}}
        return build

    return {
        "most_fields, 8 fields, <= 80 words (before issue 27)": mm(bodies.BM25_FIELDS),
        "stop words of both analysers dropped (--set bm25_stop_words=false)": mm(bodies.BM25_FIELDS,
                                                                                 words=bodies.without_stop_words),
        "6 fields (no .it sub-fields)": mm(en_fields),
        "3 fields (embedded_text, .it, text.exact)": mm(few),
        "<= 32 words": mm(bodies.BM25_FIELDS, words=lambda t: " ".join(t.split()[:32])),
        "cross_fields, 8 fields": mm(bodies.BM25_FIELDS, "cross_fields"),
    }


def run_bm25_variants(args, service, texts) -> None:
    """Unrouted BM25 sub-queries (the default filters) on the float index at its current size,
    interleaved: p50 / p95, and the top-10 overlap with today's sub-query."""
    store = service.store
    concrete = schema.concrete_name(f"{args.index}-float", "chunks")
    clauses = bodies.filter_clauses(Filters(as_of=AS_OF, groups=(GROUP,)))
    variants = bm25_variants()
    first = next(iter(variants))
    times: dict = {v: [] for v in variants}
    overlap: dict = {v: [] for v in variants}
    errors: dict = {}
    rng = random.Random(12)

    def run(label, text):
        body = {"size": 10, "_source": False, "query": variants[label](text, clauses)}
        t = time.perf_counter()
        r = store.search(concrete, body)
        return (time.perf_counter() - t) * 1000, [h["_id"] for h in r["hits"]["hits"]]

    for text in texts[:5]:
        for label in list(variants):
            try:
                run(label, text)
            except Exception as e:  # a variant the engine rejects is reported, not measured
                errors[label] = str(e)[:200]
                variants.pop(label)
    for text in texts:
        order = list(variants)
        rng.shuffle(order)
        got = {}
        for label in order:
            ms, ids = run(label, text)
            times[label].append(ms)
            got[label] = ids
        for label in variants:
            overlap[label].append(len(set(got[label]) & set(got[first])) / max(1, len(got[first])))
    size = store.count(concrete)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\n### BM25 sub-query variants, unrouted: {size:,} chunks ({len(texts)} questions, filters on; "
          f"load average {load})")
    print(f"{'variant':<58} {'p50 ms':>8} {'p95 ms':>8} {'top-10 overlap':>15}")
    for label in variants:
        print(f"{label:<58} {pct(times[label], .5):>8.1f} {pct(times[label], .95):>8.1f} {np.mean(overlap[label]):>15.2f}")
    for label, e in errors.items():
        print(f"{label}: rejected: {e}")


# ----------------------------------------------------------------------------- main


def ensure_vectors(args, base: Base, state: dict, size: int) -> Path:
    """The first `size` generated vectors in out/vectors.npy, for exact search."""
    vectors_file = args.out / "vectors.npy"
    capacity = max([*args.sizes, args.experiment_size])
    if not vectors_file.exists() or np.load(vectors_file, mmap_mode="r").shape[0] < capacity:
        np.lib.format.open_memmap(vectors_file, mode="w+", dtype=np.float32, shape=(capacity, DIM)).flush()
        state["vectors_written"] = 0
    written = state.setdefault("vectors_written", 0)
    if written < size:
        mm = np.load(vectors_file, mmap_mode="r+")
        for start in range(written, size, 50_000):
            mm[start:min(size, start + 50_000)] = vectors_for(base, start, min(size, start + 50_000), args.noise)
        mm.flush()
        state["vectors_written"] = size
        save(args, state)
    return vectors_file


def _add_rows(a: dict, b: dict) -> dict:
    """Two growths' row counts (`grow`'s tally) added."""
    out = {k: a.get(k, 0) + b.get(k, 0) for k in ("sent", "written", "failed")}
    reasons = dict(a.get("failed_by_reason", {}))
    for reason, n in b.get("failed_by_reason", {}).items():
        reasons[reason] = reasons.get(reason, 0) + n
    return out | ({"failed_by_reason": reasons} if reasons else {})


def run_sizes(args, service, base, texts, qvecs, state, deadline) -> None:
    store = service.store
    embedder = service.embedders.for_index(service.index_meta(args.base_index))
    for size in args.sizes:  # both encoders at one size before the next (the long 1M step) starts
        for encoder in args.encoders:
            index = f"{args.index}-{encoder}"
            concrete = schema.concrete_name(index, "chunks")
            if not store.index_exists(concrete):
                store.create_index(concrete, index_body(index, encoder, embedder, base=base))
            key = f"{encoder}/{size}"
            if key in state["results"]:
                print_size(state["results"][key])
                continue
            if time.time() > deadline:
                print(f"stopped: --hours reached before {key}; run again to continue")
                return
            vectors_file = ensure_vectors(args, base, state, size)
            tally: dict = {}
            added, seconds = grow(store, base, index, size, args.noise, deadline, tally=tally)
            store.refresh(concrete)
            if store.count(concrete) < size:
                partial = state["partial"].setdefault(key, {"added": 0, "seconds": 0.0})
                partial["added"] += added
                partial["seconds"] += seconds
                partial["rows"] = _add_rows(partial.get("rows", {}), tally)
                save(args, state)
                print(f"stopped: --hours reached at {store.count(concrete):,} of {size:,} rows in {index}; "
                      "run again to continue")
                return
            merge_s = 0.0
            if args.force_merge:
                t = time.perf_counter()
                bulk_settings.force_merge(store, concrete, args.force_merge)
                merge_s = time.perf_counter() - t
            partial = state["partial"].pop(key, None)
            if partial:  # a run stopped by --hours inside this size: count its rows and seconds too
                added, seconds = added + partial["added"], seconds + partial["seconds"]
                tally = _add_rows(partial.get("rows", {}), tally)
            result = measure(args, service, base, index, size, added, seconds, merge_s, texts, qvecs, vectors_file)
            result["rows"] = tally  # sent / written / failed (by reason) by the growth to this size
            state["results"][key] = result
            save(args, state)
            print_size(result)


EXPERIMENTS = {
    "product defaults (vector stored once, refresh off during the load, force-merged to 1 segment)": {},
    "not force-merged": {"force_merge": False},
    "vectors kept in _source": {"derived_source": False},
    "vector doc values on": {"vector_doc_values": True},
    "keyword doc values off where unused": {"keyword_doc_values": False},
    "refresh 1 s during the load": {"refresh_during_load": True},
    "k-NN graph build threads 2 (knn.algo_param.index_thread_qty)": {"knn_threads": 2},
    "before issue 12 (vectors in _source, vector doc values, refresh 1 s)": {
        "derived_source": False, "vector_doc_values": True, "refresh_during_load": True},
}
LOAD_ONLY = ("refresh_during_load", "force_merge", "knn_threads")


def run_experiments(args, service, base, texts, qvecs, state, deadline) -> None:
    """Each setting alone on a fresh index of --experiment-size chunks: rate, disk, latency."""
    store = service.store
    embedder = service.embedders.for_index(service.index_meta(args.base_index))
    size = args.experiment_size
    vectors_file = ensure_vectors(args, base, state, size)
    for label, variant in EXPERIMENTS.items():
        key = f"experiment/{label}"
        if key in state["results"]:
            print(f"\n## {label}")
            print_size(state["results"][key])
            continue
        if time.time() > deadline:
            return
        index = f"{args.index}-exp"
        concrete = schema.concrete_name(index, "chunks")
        store.delete_index(concrete)
        settings_variant = {k: v for k, v in variant.items() if k not in LOAD_ONLY}
        store.create_index(concrete, index_body(index, "float", embedder, settings_variant, base=base))
        if "knn_threads" in variant:
            store.client.cluster.put_settings(body={"transient": {"knn.algo_param.index_thread_qty": variant["knn_threads"]}})
        try:
            added, seconds = grow(store, base, index, size, args.noise, float("inf"),
                                  refresh_off=not variant.get("refresh_during_load"))
        finally:
            if "knn_threads" in variant:
                store.client.cluster.put_settings(body={"transient": {"knn.algo_param.index_thread_qty": None}})
        store.refresh(concrete)
        merge_s = 0.0
        if variant.get("force_merge", True):
            t = time.perf_counter()
            bulk_settings.force_merge(store, concrete, 1)
            merge_s = time.perf_counter() - t
        print(f"\n## {label}")
        result = measure(args, service, base, index, size, added, seconds, merge_s, texts, qvecs, vectors_file)
        state["results"][key] = result
        save(args, state)
        print_size(result)
        store.delete_index(concrete)


def _rows(r: dict) -> dict[str, str]:
    """One column of the markdown report: a finished measurement's figures, by row label."""
    mib = 1 / (1 << 20)
    m, lat, disk = r["memory"], r["latency_ms"], r["disk"]
    resident_vectors = sum(v for k, v in disk.items() if k in ("HNSW graph", "vector meta")) + disk.get(
        "vectors (quantized)", disk.get("vectors (float)", 0))
    rows = {
        "indexing (chunks/s)": f"{r['rows_per_s']:.0f}" if r.get("rows_per_s") else "–",
        "segments": str(r["segments"]),
        "disk (MiB; B/chunk)": f"{r['disk_bytes'] * mib:,.0f}; {r['disk_bytes'] / r['size']:,.0f}",
        "vectors + graph on disk (B/chunk)": f"{r['vector_bytes_per_chunk']:,.0f}",
        "vectors + graph searched (B/chunk)": f"{resident_vectors / r['size']:,.0f}",
        "heap used (MiB)": f"{m['heap_used'] * mib:,.0f}",
        "off-heap anonymous (MiB)": f"{(m['rss_anon'] - m['heap_committed']) * mib:,.0f}",
        "resident index files (MiB)": f"{m['rss_file'] * mib:,.0f}",
    }
    for mode, v in lat.items():
        rows[f"{mode} p50 / p95 (ms)"] = f"{v['p50']:.1f} / {v['p95']:.1f}"
    for mode, v in r["hybrid_over_bm25"].items():
        rows[f"{mode} / bm25 (p50, p95)"] = f"{v['p50']:.2f}, {v['p95']:.2f}"
    rows["k-NN recall@10 vs exact"] = f"{r['recall_at_10']:.3f}"
    rows["load average"] = f"{r['load_average']:.1f}"
    return rows


def report(state: dict) -> str:
    """Markdown: a table per size (encoders side by side), then the setting experiments."""
    out = []
    by_size: dict[int, dict[str, dict]] = {}
    for key, r in state["results"].items():
        group, _, _ = key.partition("/")
        if group != "experiment":
            by_size.setdefault(r["size"], {})[group] = r
    names = {"float": "HNSW float32", "sq": "HNSW Lucene scalar-quantized (int7)"}
    for size in sorted(by_size):
        columns = {names.get(e, e): _rows(r) for e, r in sorted(by_size[size].items())}
        out.append(f"\n### {size:,} chunks\n")
        out.append("| | " + " | ".join(columns) + " |")
        out.append("|---|" + "---:|" * len(columns))
        for label in next(iter(columns.values())):
            out.append(f"| {label} | " + " | ".join(c.get(label, "–") for c in columns.values()) + " |")
    experiments = {k.split("/", 1)[1]: _rows(r) for k, r in state["results"].items() if k.startswith("experiment/")}
    if experiments:
        labels = ["indexing (chunks/s)", "segments", "disk (MiB; B/chunk)", "heap used (MiB)",
                  "hybrid norm. p50 / p95 (ms)", "knn p50 / p95 (ms)"]
        out.append("\n### Settings, one at a time\n")
        out.append("| setting | " + " | ".join(labels) + " |")
        out.append("|---|" + "---:|" * len(labels))
        for name, rows in experiments.items():
            out.append(f"| {name} | " + " | ".join(rows[label] for label in labels) + " |")
    return "\n".join(out)


_CHUNK_IDS = """
import json, sys
from pathlib import Path
pkg = "legalsearch" if Path("search/scripts.py").exists() else "search"
imp = lambda m: __import__(f"{pkg}.{m}", fromlist=["_"])
lb, runner, options, harness = (imp(m) for m in ("evaluation.legalbench", "evaluation.runner", "ingest.options",
                                                 "evaluation.harness"))
data, config_path, out = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
config = runner.load_config(config_path)
opts = options.IngestOptions(index="x", chunker=config.chunker, chunk_size=config.chunk_size,
                             summarizer=config.summarizer or "none", embedder=config.embedder)
limit = opts.chunk_limit(imp("embed").Embedders(imp("config").Settings()).get(config.embedder).max_tokens)
ids = []
for f in lb.corpus_files(data, "referenced", lb.load_benchmark(data)):
    meta = {"doc_id": harness.benchmark_file_path(data, f), "title": harness.title_from_filename(f), "public": True}
    doc = imp("load").load_document(f, manifest_entry=meta)
    ids += [[c.chunk_id, c.doc_id, c.version, c.position]
            for c in imp("chunk").chunk_document(doc, opts.chunker, max_chars=limit, recursive_size=limit)]
out.write_text(json.dumps(ids))
"""


def base_keys_at(commit: str, data: Path, config: Path) -> list[tuple]:
    """The base chunk keys (doc_id, version, position, in load_base's order) that the evaluation
    index of `config` held when built by the code of `commit`: its tree is extracted and the
    corpus loaded and chunked by that code in a subprocess (no model, no node)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="scale-ids-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        out = Path(tmp) / "ids.json"
        subprocess.run([sys.executable, "-c", _CHUNK_IDS, str(data.resolve()), str(tree / config.resolve().relative_to(REPO)),
                        str(out)], cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True)
        rows = json.loads(out.read_text())
    return [(d, v, p) for _, d, v, p in sorted(rows)]


def check_ids(args) -> None:
    """--check-ids A,B: the ids a growth to the last of --sizes sends when it grew to --resume-at
    over the base of commit A's code and then resumed over commit B's (pure computation)."""
    first, second = args.check_ids.split(",")
    a, b = base_keys_at(first, args.data, args.config), base_keys_at(second, args.data, args.config)
    total, cut = args.sizes[-1], args.resume_at
    seen = {row_id(a, r)[1] for r in range(cut)}
    resumed = [row_id(b, r)[1] for r in range(cut, total)]
    again = sum(i in seen for i in resumed)
    print(f"base at {first}: {len(a):,} chunks; at {second}: {len(b):,} chunks")
    print(f"rows [0, {cut:,}) over the first, [{cut:,}, {total:,}) over the second: {total:,} rows sent, "
          f"{len(seen | set(resumed)):,} distinct ids, {again:,} ids sent a second time (an `index` overwrote "
          f"them; a `create` is refused)")


def save(args, state: dict) -> None:
    tmp = args.out / "state.json.tmp"
    tmp.write_text(json.dumps(state, indent=1, default=str))
    os.replace(tmp, args.out / "state.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, required=True, help="LegalBench-RAG directory")
    parser.add_argument("--out", type=Path, default=REPO / "out" / "scale", help="state, vectors, results")
    parser.add_argument("--config", type=Path, default=REPO / "evaluation" / "configs" / "default.json",
                        help="the evaluation config whose index provides the real chunks and vectors")
    parser.add_argument("--base-index", help="read the real chunks from this index instead of the config's "
                        "(built when missing)")
    parser.add_argument("--base-like", metavar="INDEX",
                        help="only the base chunks whose copies INDEX (a scale index) holds, so a size measured "
                             "later matches while --base-index grows")
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--encoders", default="float,sq", help="float (HNSW float32) and/or sq (Lucene scalar-quantized)")
    parser.add_argument("--index", default="scale")
    parser.add_argument("--queries", type=int, default=100, help="LegalBench questions per measurement")
    parser.add_argument("--noise", type=float, default=0.25, help="noise norm relative to the vector (0.25: cos ~0.97)")
    parser.add_argument("--force-merge", type=int, default=0, help="force-merge to N segments after each size (0: no)")
    parser.add_argument("--hours", type=float, default=10.0, help="stop growing after this long (resumable)")
    parser.add_argument("--experiments", action="store_true", help="measure each index setting on its own instead")
    parser.add_argument("--experiment-size", type=int, default=20_000)
    parser.add_argument("--knn-methods", action="store_true",
                        help="compare filtered k-NN methods (k, ef_search, exact) per engine (--encoders float,faiss)")
    parser.add_argument("--native-engines", action="store_true",
                        help="the node's k-NN plugin has its native (faiss) libraries: allow --encoders faiss")
    parser.add_argument("--bm25-variants", action="store_true",
                        help="compare BM25 sub-queries (fields, words) on the float index as it is")
    parser.add_argument("--report", action="store_true", help="print the finished measurements as markdown tables")
    parser.add_argument("--check-ids", metavar="COMMIT_A,COMMIT_B",
                        help="no node: count the ids a growth to the last of --sizes sends twice when it grew to "
                             "--resume-at over the base chunked by COMMIT_A's code, then over COMMIT_B's")
    parser.add_argument("--resume-at", type=int, default=300_000, help="for --check-ids: the size grown first")
    args = parser.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.encoders = [e for e in args.encoders.split(",") if e]
    if "faiss" in args.encoders and not args.native_engines:
        parser.error("--encoders faiss needs a node with the k-NN plugin's native libraries (--native-engines): "
                     "on one without them a faiss field takes the node down (k-NN#2808)")
    if args.report:
        print(report(json.loads((args.out / "state.json").read_text())))
        return
    if args.check_ids:
        check_ids(args)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    deadline = time.time() + args.hours * 3600

    settings = Settings().model_copy(update={"log_searches": False})
    store = Store(settings)
    embedders = Embedders(settings)
    service = SearchService(settings, store, embedders)
    state_file = args.out / "state.json"
    state = json.loads(state_file.read_text()) if state_file.exists() else {"results": {}, "partial": {}}
    state.setdefault("partial", {})
    args.base_index, base = load_base(args, service)
    queries = load_benchmark(args.data, limit_per_subset=max(1, args.queries // 4))
    texts = [q.query for q in queries][: args.queries]
    embedder = embedders.for_index(service.index_meta(args.base_index))
    qvecs = np.stack([embedder.embed_query(t) for t in texts]).astype(np.float32)
    print(f"documents are copies: {base.n:,} real LegalBench chunks reused under new ids; vectors = their real "
          f"{embedder.build} embeddings + Gaussian noise of relative norm {args.noise} (cosine ~"
          f"{1 / (1 + args.noise ** 2) ** 0.5:.3f}), renormalised: the vector distribution is realistic, the "
          f"documents are copies. Filters on every query: as_of {AS_OF}, groups [{GROUP}]. Load average "
          f"{os.getloadavg()[0]:.1f}.")
    if args.bm25_variants:
        run_bm25_variants(args, service, texts)
    elif args.knn_methods:
        run_knn_methods(args, service, base, qvecs, state, deadline)
    elif args.experiments:
        run_experiments(args, service, base, texts, qvecs, state, deadline)
    else:
        run_sizes(args, service, base, texts, qvecs, state, deadline)


if __name__ == "__main__":
    sys.exit(main())
