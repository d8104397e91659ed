"""Store.bulk over opensearch-py's streaming_bulk retries: what the ingest report counts (requests,
items refused with 429, items sent again, backoff) and the ids of what failed for good.

A node cannot be made to refuse writes on demand without reconfiguring it (the cluster tests do
it on their own nodes: tests/integration/cluster/test_cluster_faults.py), so this stand-in client
answers `_bulk` from a script; the retry logic under test is the real helper's."""

from __future__ import annotations

import json

import pytest
from legalsearch.config import Settings
from legalsearch.errors import BulkError, StoreError
from legalsearch.store import BulkStats, Store
from legalsearch.store import opensearch as store_module
from opensearchpy.exceptions import TransportError
from opensearchpy.serializer import JSONSerializer


class _Transport:
    serializer = JSONSerializer()


class ScriptedClient:
    """Answers each bulk request with the next entry of `script`: a set of ids to refuse with 429,
    a dict {id: (status, error type)} of items to fail otherwise, "all" for a whole request
    refused with HTTP 429, or an HTTP status to raise."""

    transport = _Transport()

    def __init__(self, script):
        self.script = list(script)
        self.sent: list[list[str]] = []

    def bulk(self, body, **kwargs):
        lines = [json.loads(line) for line in body.splitlines() if line]
        actions = [line for line in lines if set(line) <= {"index", "delete", "create", "update"} and
                   isinstance(next(iter(line.values())), dict) and "_id" in next(iter(line.values()))]
        ids = [next(iter(a.values()))["_id"] for a in actions]
        self.sent.append(ids)
        step = self.script.pop(0) if self.script else set()
        if step == "all":
            raise TransportError(429, "rejected_execution_exception", {"error": "too many requests"})
        if isinstance(step, int):
            raise TransportError(step, "illegal_argument_exception", {"error": "bad"})
        refused = {"status": 429, "error": {"type": "rejected_execution_exception", "reason": "queue full"}}
        if isinstance(step, dict):
            items = [{"index": {"_id": i, "_index": "i", **({"status": step[i][0], "error": {
                "type": step[i][1], "reason": f"{step[i][1]} on {i}"}} if i in step else {"status": 201})}} for i in ids]
            return {"errors": True, "items": items}
        items = [{"index": {"_id": i, **(refused if i in step else {"status": 201})}} for i in ids]
        return {"errors": bool(step), "items": items}


@pytest.fixture
def fast_backoff(monkeypatch):
    monkeypatch.setattr(store_module, "BULK_BACKOFF_S", 0.01)
    monkeypatch.setattr(store_module, "BULK_MAX_BACKOFF_S", 0.02)
    monkeypatch.setattr(store_module, "BULK_RETRIES", 2)


def _store(tmp_path, script) -> tuple[Store, ScriptedClient]:
    store = Store(Settings(node_home=tmp_path / "node", opensearch_url="https://127.0.0.1:1"))
    client = ScriptedClient(script)
    store._client = client
    return store, client


def _actions(*ids):
    return [{"_op_type": "index", "_index": "i", "_id": i, "text": i} for i in ids]


def test_refused_items_are_sent_again_and_counted(tmp_path, fast_backoff):
    store, client = _store(tmp_path, [{"b", "c"}, {"c"}, set()])
    stats = BulkStats()
    assert store.bulk(_actions("a", "b", "c"), stats=stats) == 3
    assert client.sent == [["a", "b", "c"], ["b", "c"], ["c"]]  # only the refused ones again
    assert (stats.requests, stats.rejected, stats.retried, stats.failed) == (3, 2 + 1, 2 + 1, 0)
    assert stats.backoff_s >= 0.01 + 0.02  # waited 0.01 s, then 0.02 s (doubled, at the maximum)
    assert store.bulk_stats == stats


def test_items_still_refused_after_the_last_retry_fail_with_their_ids(tmp_path, fast_backoff):
    store, _ = _store(tmp_path, [{"b"}, {"b"}, {"b"}])
    stats = BulkStats()
    with pytest.raises(BulkError, match="1 of 2 bulk items failed; first: b: queue full") as caught:
        store.bulk(_actions("a", "b"), stats=stats)
    assert caught.value.failed_ids == ["b"]
    # three tries of "b": each refused, two sent again, then it failed for good
    assert (stats.requests, stats.rejected, stats.retried, stats.failed) == (3, 3, 2, 1)


def test_a_whole_request_refused_with_429_counts_each_item(tmp_path, fast_backoff):
    store, client = _store(tmp_path, ["all", set()])
    stats = BulkStats()
    assert store.bulk(_actions("a", "b"), stats=stats) == 2
    assert client.sent == [["a", "b"], ["a", "b"]]
    assert (stats.requests, stats.rejected, stats.retried, stats.failed) == (2, 2, 2, 0)

    store, _ = _store(tmp_path, ["all", "all", "all"])
    stats = BulkStats()
    with pytest.raises(BulkError) as caught:
        store.bulk(_actions("a", "b"), stats=stats)
    assert caught.value.failed_ids == ["a", "b"]
    assert (stats.requests, stats.rejected, stats.retried, stats.failed) == (3, 6, 4, 2)


def test_other_refusals_are_not_retried(tmp_path, fast_backoff):
    store, client = _store(tmp_path, [400])
    with pytest.raises(StoreError, match="HTTP 400") as caught:
        store.bulk(_actions("a"))
    assert not isinstance(caught.value, BulkError) and len(client.sent) == 1
    assert store.bulk_stats.retried == 0 and store.bulk_stats.requests == 1


def test_chunks_are_sent_one_by_one(tmp_path, fast_backoff):
    store, client = _store(tmp_path, [set(), {"c"}, set()])
    assert store.bulk(_actions("a", "b", "c"), chunk_size=2) == 3
    assert client.sent == [["a", "b"], ["c"], ["c"]]


UNAVAILABLE = (503, "unavailable_shards_exception")


def test_items_answered_503_are_sent_again_and_counted(tmp_path, fast_backoff):
    """A shard without a started primary (a replica being promoted): the items go again."""
    store, client = _store(tmp_path, [{"b": UNAVAILABLE, "c": UNAVAILABLE}, {"c": UNAVAILABLE}, set()])
    stats = BulkStats()
    assert store.bulk(_actions("a", "b", "c"), stats=stats) == 3
    assert client.sent == [["a", "b", "c"], ["b", "c"], ["c"]]
    assert (stats.sent, stats.written, stats.failed, stats.retried, stats.requests) == (3, 3, 0, 3, 3)
    assert stats.failed_by_reason == {} and stats.backoff_s >= 0.01 + 0.02


def test_every_item_not_written_is_reported_with_its_reason(tmp_path, fast_backoff):
    """A refusal that is not retryable fails at once; a 503 that stays fails after the retries;
    sent == written + failed, and the error names each failed item with the node's reason."""
    store, client = _store(tmp_path, [{"b": (400, "mapper_parsing_exception"), "c": UNAVAILABLE},
                                      {"c": UNAVAILABLE}, {"c": UNAVAILABLE}])
    stats = BulkStats()
    with pytest.raises(BulkError, match="2 of 4 bulk items failed; first: b: mapper_parsing_exception on b") as caught:
        store.bulk(_actions("a", "b", "c", "d"), stats=stats)
    assert client.sent == [["a", "b", "c", "d"], ["c"], ["c"]]  # "b" not again: a 400 stays a 400
    assert caught.value.failed_ids == ["b", "c"]
    assert [(e["id"], e["status"], e["type"]) for e in caught.value.errors] == [
        ("b", 400, "mapper_parsing_exception"), ("c", 503, "unavailable_shards_exception")]
    assert (stats.sent, stats.written, stats.failed) == (4, 2, 2)
    assert stats.sent == stats.written + stats.failed
    assert stats.failed_by_reason == {"400 mapper_parsing_exception": 1, "503 unavailable_shards_exception": 1}
    assert store.bulk_stats == stats
