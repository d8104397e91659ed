"""The retrieval log's background writer: every record written (flush waits for them), a refused
one reported with its reason and counted, a full queue making the search write its own record;
the record keeps the search's timestamp and fields. A stand-in store records the writes (what
the node stores is tests/integration/test_search.py::test_retrieval_log_record)."""

from __future__ import annotations

import logging
import threading

from legalsearch.errors import StoreError
from legalsearch.query import log as retrieval
from legalsearch.query.models import SearchRequest, SearchResponse


class RecordingStore:
    def __init__(self, refuse: set[str] = frozenset(), gate: threading.Event | None = None):
        self.written: list[tuple[str, dict, str]] = []
        self.refuse = refuse
        self.gate = gate
        self.created = 0

    def index_exists(self, name):
        return self.created > 0

    def create_index(self, name, body, exist_ok=False):
        self.created += 1
        return True

    def put_mapping(self, name, body):
        pass

    def index_document(self, index, doc_id, body, refresh=False):
        if self.gate is not None:
            self.gate.wait(10)
        if body["query"] in self.refuse:
            raise StoreError(f"refused {body['query']}")
        self.written.append((index, body, threading.current_thread().name))


def _search(log: retrieval.RetrievalLog, query: str) -> None:
    log.write(SearchRequest(query=query, index="demo"), SearchResponse(query=query, hits=[], not_found=True),
              user="alice", groups=("team",))


def test_every_record_is_written_off_the_request_path_and_flush_waits_for_them():
    store = RecordingStore()
    log = retrieval.RetrievalLog(store, "log")
    for i in range(50):
        _search(log, f"q{i}")
    assert log.flush(5)
    assert [body["query"] for _, body, _ in store.written] == [f"q{i}" for i in range(50)]  # in order
    assert {thread for _, _, thread in store.written} == {"retrieval-log log"} and store.created == 1
    assert store.written[0][1]["user"] == "alice" and store.written[0][1]["groups"] == ["team"]


def test_a_refused_record_is_reported_and_counted_and_the_writer_goes_on(caplog):
    store = RecordingStore(refuse={"bad"})
    log = retrieval.RetrievalLog(store, "log")
    with caplog.at_level(logging.WARNING, logger="legalsearch.query.log"):
        for query in ("a", "bad", "c"):
            _search(log, query)
        assert log.flush(5)
    assert [body["query"] for _, body, _ in store.written] == ["a", "c"] and log.failed == 1
    assert "a record of 'bad' not written to log: refused bad" in caplog.text


def test_a_full_queue_makes_the_search_write_its_own_record():
    gate = threading.Event()  # holds the writer on its first record
    store = RecordingStore(gate=gate)
    log = retrieval.RetrievalLog(store, "log")
    log._queue.maxsize = 2
    for i in range(3):  # 1 held by the writer, 2 queued: the queue is full
        _search(log, f"q{i}")
        if i == 0:
            while log._queue.qsize():  # the writer took the first
                threading.Event().wait(0.01)
    writer = threading.Thread(target=lambda: _search(log, "mine"))
    writer.start()  # blocks on the gate too: it writes itself
    assert not log.flush(0.05)  # the writer is held: flush says so
    gate.set()
    writer.join(5)
    assert log.flush(5)
    assert sorted(body["query"] for _, body, _ in store.written) == ["mine", "q0", "q1", "q2"]


def test_without_background_the_record_is_written_before_write_returns():
    store = RecordingStore()
    log = retrieval.RetrievalLog(store, "log", background=False)
    _search(log, "now")
    assert [(index, body["query"]) for index, body, _ in store.written] == [("log", "now")]
    assert store.written[0][2] == threading.current_thread().name
