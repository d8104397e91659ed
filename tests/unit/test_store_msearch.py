"""Store.msearch: several searches in one `_msearch` round trip, each sent as `Store.search` sends
it (no partial results, DFS for a plain query, the fusion pipeline inline in its body) and each
answer checked as `search` checks it. A stand-in client records the lines and answers from a
script; the batched path's hits against a real node are tests/integration/test_batched.py."""

from __future__ import annotations

import pytest
from legalsearch.config import Settings
from legalsearch.errors import PermissionDeniedError, StoreError
from legalsearch.store import Store


class MsearchClient:
    def __init__(self, answers):
        self.answers = answers
        self.sent: list[list[dict]] = []

    def msearch(self, body, **kwargs):
        self.sent.append(body)
        return {"responses": self.answers}


def _store(tmp_path, answers) -> tuple[Store, MsearchClient]:
    store = Store(Settings(node_home=tmp_path / "node", opensearch_url="https://127.0.0.1:1"))
    store._client = client = MsearchClient(answers)
    return store, client


HYBRID = {"size": 3, "query": {"hybrid": {"queries": [{"match": {"text": "a"}}, {"match": {"text": "b"}}]}}}
PLAIN = {"size": 0, "query": {"match": {"text": "a"}}}
PIPELINE = {"phase_results_processors": [{"normalization-processor": {}}]}


def test_each_sub_request_is_sent_as_search_sends_it_with_its_pipeline_inline(tmp_path):
    store, client = _store(tmp_path, [{"hits": {"hits": []}}, {"hits": {"hits": [{"_id": "x"}]}}])
    answers = store.msearch([("chunks", HYBRID, PIPELINE), ("docs,walls", PLAIN, None)])
    assert [a["hits"]["hits"] for a in answers] == [[], [{"_id": "x"}]]
    [lines] = client.sent
    assert lines == [{"index": "chunks", "allow_partial_search_results": False}, {**HYBRID, "search_pipeline": PIPELINE},
                     {"index": "docs,walls", "allow_partial_search_results": False,
                      "search_type": "dfs_query_then_fetch"}, PLAIN]
    assert "search_pipeline" not in HYBRID  # the caller's body is not changed


def test_nothing_to_search_sends_nothing(tmp_path):
    store, client = _store(tmp_path, [])
    assert store.msearch([]) == [] and client.sent == []


def test_a_refused_sub_request_raises_as_search_would_or_is_returned(tmp_path):
    refused = {"status": 400, "error": {"root_cause": [{"type": "parsing_exception", "reason": "unknown query [x]"}]}}
    store, _ = _store(tmp_path, [{"hits": {"hits": []}}, refused])
    with pytest.raises(StoreError, match=r"refused to search docs \(HTTP 400\): parsing_exception: unknown query"):
        store.msearch([("chunks", PLAIN, None), ("docs", PLAIN, None)])
    assert store.msearch([("chunks", PLAIN, None), ("docs", PLAIN, None)], refused="return")[1] == refused
    forbidden = {"status": 403, "error": {"type": "security_exception", "reason": "no permissions"}}
    store, _ = _store(tmp_path, [forbidden])
    with pytest.raises(PermissionDeniedError, match="no permissions"):
        store.msearch([("chunks", PLAIN, None)])


def test_an_answer_short_of_the_requests_is_an_error(tmp_path):
    store, _ = _store(tmp_path, [{"hits": {"hits": []}}])
    with pytest.raises(StoreError, match="answered 1 of 2 searches"):
        store.msearch([("chunks", PLAIN, None), ("docs", PLAIN, None)])
