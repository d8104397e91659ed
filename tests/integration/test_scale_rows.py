"""benchmarks/scale.py accounts for every row it sends, on the real node (issue 27).

The 1M growth of 2026-12-01 sent 1,000,000 rows and the index counted 996,578: the index had
been grown to 300k over a base of 16,166 chunks, and the base had 16,349 when the growth resumed
(the chunker changed in between). A row's id is a function of the row number and the base, so
3,422 rows of the resumed growth got ids already written, and `index` overwrote them. Here the
same thing at small scale, with two real bases (the sample corpus chunked at two limits): the
pure function `row_id` predicts the overwrites, the node counts exactly that many fewer with
`index` (what the old code did); with `create` (the fix) each of them is a refused item with
its reason and sent == written + refused; and `grow` refuses to resume over another base.
"""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from legalsearch.chunk import chunk_document
from legalsearch.errors import BulkError
from legalsearch.load import load_document

from tests.conftest import SAMPLES
from tests.integration.test_scripts import load_module

pytestmark = pytest.mark.integration


def _base(scale, limit: int):
    sources = []
    for path in sorted(SAMPLES.glob("*.txt")):
        for c in chunk_document(load_document(path), "structural", max_chars=limit, recursive_size=limit):
            sources.append({"doc_id": c.doc_id, "version": c.version, "position": c.position,
                            "chunk_id": c.chunk_id, "text": c.text})
    sources.sort(key=lambda s: s["chunk_id"])  # as load_base orders them
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((len(sources), scale.DIM)).astype(np.float32)
    return scale.Base(sources, vectors / np.linalg.norm(vectors, axis=1, keepdims=True))


def _cut_with_overlap(scale, a, b, total: int) -> tuple[int, int]:
    """The first cut (rows over `a` before it, over `b` after) whose growth repeats ids, and how many."""
    for cut in range(a.n, total, 7):
        sent = {scale.row_id(a.keys, r)[1] for r in range(cut)}
        repeated = sum(scale.row_id(b.keys, r)[1] in sent for r in range(cut, total))
        if repeated:
            return cut, repeated
    raise AssertionError("the two bases never repeat an id")


def test_a_growth_resumed_over_another_base_is_refused_and_every_row_counted(store, embedders):
    scale = load_module("scale")
    a, b = _base(scale, 824), _base(scale, 700)  # the same corpus, chunked two ways
    assert a.n != b.n and a.fingerprint != b.fingerprint
    total = 3 * max(a.n, b.n)
    cut, repeated = _cut_with_overlap(scale, a, b, total)
    embedder = embedders.get("minilm")
    names = [f"test-scale-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    concrete = [scale.schema.concrete_name(n, "chunks") for n in names]
    try:
        for name, index in zip(names, concrete, strict=True):
            store.create_index(index, scale.index_body(name, "float", embedder, base=a))
            tally: dict = {}
            written, _ = scale.grow(store, a, name, cut, 0.25, float("inf"), tally=tally)
            assert written == cut == store.count(index)
            assert tally == {"sent": cut, "written": cut, "failed": 0}
        # the fix: grow refuses to resume over another base, and the index is untouched
        with pytest.raises(SystemExit, match="grown from base"):
            scale.grow(store, b, names[0], total, 0.25, float("inf"))
        store.refresh(concrete[0])
        assert store.count(concrete[0]) == cut

        # what the old code did (rows sent with `index`): the node counts `repeated` fewer than sent
        old = [dict(x, _op_type="index") for x in scale.actions(b, concrete[0], cut, total, 0.25)]
        assert store.bulk(old) == total - cut
        store.refresh(concrete[0])
        assert store.count(concrete[0]) == total - repeated < total
        # rows sent with `create` (the fix): each repeated id is a refused item with the node's reason
        stats = scale.BulkStats()
        with pytest.raises(BulkError) as caught:
            store.bulk(scale.actions(b, concrete[1], cut, total, 0.25), stats=stats)
        store.refresh(concrete[1])
        assert (stats.sent, stats.written, stats.failed) == (total - cut, total - cut - repeated, repeated)
        assert stats.failed_by_reason == {"409 version_conflict_engine_exception": repeated}
        assert {e["status"] for e in caught.value.errors} == {409}
        assert store.count(concrete[1]) == cut + stats.written
        print(f"\nbases of {a.n} and {b.n} chunks, cut at {cut} of {total} rows: {repeated} ids repeated; "
              f"old code: index counts {total - repeated}; create: sent {stats.sent}, written {stats.written}, "
              f"refused {stats.failed}")
    finally:
        for index in concrete:
            store.delete_index(index)
