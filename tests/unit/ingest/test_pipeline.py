"""The ingest pipeline's logic (search.ingest.pipeline, the write stage of search.ingest.run): order,
an error in a worker thread raised in the caller, bounded queues, and a document whose bulk item
failed reported with that item while the others are written. Pure logic: no node, no model."""

from __future__ import annotations

import threading
import time

import pytest
from legalsearch.errors import BulkError, NodeError
from legalsearch.ingest import run as ingest_run
from legalsearch.ingest.pipeline import pipelined
from legalsearch.ingest.report import DocReport, IngestReport


def test_items_reach_the_sink_in_order_through_three_threads():
    threads, out = set(), []

    def middle(x):
        threads.add(threading.current_thread().name)
        return x * 10

    def sink(x):
        threads.add(threading.current_thread().name)
        time.sleep(0.001 * (x % 3))  # uneven work must not reorder
        out.append(x)

    pipelined(iter(range(50)), middle, sink, depth=2)
    assert out == [x * 10 for x in range(50)]
    assert threading.current_thread().name in threads and "pipeline-sink" in threads


def test_the_queues_are_bounded():
    produced, sunk = [], []
    release = threading.Event()

    def produce():
        for i in range(100):
            produced.append(i)
            yield i

    def sink(x):
        release.wait(5)
        sunk.append(x)

    worker = threading.Thread(target=lambda: pipelined(produce(), lambda x: x, sink, depth=2))
    worker.start()
    time.sleep(0.5)
    # one in the sink, two queued before it, one in the middle, two queued before that, one being made
    assert len(produced) <= 7, len(produced)
    release.set()
    worker.join(10)
    assert sunk == list(range(100))


@pytest.mark.parametrize("stage", ["produce", "middle", "sink"])
def test_an_error_in_any_stage_stops_the_run_and_is_raised_in_the_caller(stage):
    sunk = []

    def produce():
        for i in range(1000):
            if stage == "produce" and i == 5:
                raise NodeError("the node went away")
            yield i

    def middle(x):
        if stage == "middle" and x == 5:
            raise NodeError("the node went away")
        return x

    def sink(x):
        if stage == "sink" and x == 5:
            raise NodeError("the node went away")
        sunk.append(x)

    before = threading.active_count()
    with pytest.raises(NodeError, match="went away"):
        pipelined(produce(), middle, sink)
    assert threading.active_count() == before  # nothing left running
    assert sunk == list(range(len(sunk))) and len(sunk) <= 5


def test_the_producer_generator_is_closed_when_the_run_stops():
    closed = threading.Event()

    def produce():
        try:
            yield from range(1000)
        finally:
            closed.set()

    with pytest.raises(ValueError, match="bad"):
        pipelined(produce(), lambda x: (_ for _ in ()).throw(ValueError("bad")) if x == 3 else x, lambda x: None)
    assert closed.is_set()


class _Doc:
    def __init__(self, doc_id):
        self.meta = type("M", (), {"doc_id": doc_id})()


class _Writer:
    """Refuses one document's bulk items as the IndexWriter does (after rolling it back)."""

    def __init__(self, refuse: str):
        self.refuse, self.written = refuse, []

    def write(self, doc_id, record, sources):
        if doc_id == self.refuse:
            raise BulkError("1 of 3 bulk items failed; first: b:1:0001: mapper_parsing_exception; rolled back",
                            ["b:1:0001"], [{"id": "b:1:0001", "status": 400, "type": "mapper_parsing_exception",
                                            "reason": "bad"}])
        self.written.append(doc_id)


def test_a_document_with_a_refused_bulk_item_is_reported_with_it_and_the_others_are_written(monkeypatch):
    monkeypatch.setattr(ingest_run.records, "chunk_source", lambda doc, chunk, **kw: {"over_window": False})
    monkeypatch.setattr(ingest_run.records, "doc_source", lambda doc, **kw: {})
    monkeypatch.setattr(ingest_run, "document_profile", lambda doc: {})
    report = IngestReport(index="x", options={"chunker": "structural"})
    chunk = type("C", (), {"chunk_id": "c"})()
    pending = [ingest_run._Pending(_Doc(d), [chunk] * 2, "", ["t", "t"], DocReport(path=d)) for d in "abc"]
    batch = ingest_run._Embedded(pending, [None] * 9, [1] * 6)
    writer, ticks = _Writer("b"), []
    embedder = type("E", (), {"max_tokens": 256})()
    ingest_run._write(batch, writer, embedder, "key", report, ticks.append)
    assert writer.written == ["a", "c"]
    assert [p.report.status for p in pending] == ["ingested", "failed", "ingested"]
    assert pending[1].report.refused[0]["type"] == "mapper_parsing_exception"
    assert "rolled back" in pending[1].report.error and "b:1:0001" in pending[1].report.error
    assert ticks == [1, 1, 1]


def test_the_ingest_batch_follows_the_device_and_an_endpoints_concurrency():
    from legalsearch.embed import device

    cpu = type("E", (), {"device": device.for_onnx("cpu", "device=", [], False)})()
    gpu = type("E", (), {"device": device.for_onnx("auto", "auto", ["CUDAExecutionProvider"], True)})()
    remote = type("E", (), {"device": device.REMOTE, "batch_size": 64, "concurrency": 8})()
    assert ingest_run.ingest_batch(cpu) == 256
    assert ingest_run.ingest_batch(gpu) == 1024
    assert ingest_run.ingest_batch(remote) == 512
