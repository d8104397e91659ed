"""Store.security_api: a write refused for a concurrent write of the security configuration (409
"version conflict") is tried again; other errors and reads are not. The plugin's answers are
stood in for (a unit test has no node); tests/integration/test_security.py runs the real API."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from legalsearch.config import Settings
from legalsearch.errors import StoreError
from legalsearch.store import Store
from legalsearch.store.opensearch import SECURITY_WRITE_ATTEMPTS
from opensearchpy.exceptions import ConflictError, TransportError

CONFLICT = '{"status":"CONFLICT","message":"[internalusers]: version conflict, required seqNo [1]"}'


def _store(tmp_path, answers):
    calls = []

    def perform_request(method, path, body=None):
        calls.append(method)
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    store = Store(Settings(node_home=tmp_path / "node", opensearch_url="https://127.0.0.1:1"))
    store._client = SimpleNamespace(transport=SimpleNamespace(perform_request=perform_request))
    return store, calls


def test_a_conflicting_write_is_tried_again(tmp_path):
    store, calls = _store(tmp_path, [ConflictError(409, CONFLICT, CONFLICT)] * 2 + [{"status": "CREATED"}])
    assert store.security_api("create user x", "PUT", "internalusers/x", {}) == {"status": "CREATED"}
    assert calls == ["PUT"] * 3


def test_it_gives_up_after_a_few_tries_and_never_retries_other_errors(tmp_path):
    store, calls = _store(tmp_path, [ConflictError(409, CONFLICT, CONFLICT)] * SECURITY_WRITE_ATTEMPTS)
    with pytest.raises(StoreError, match="version conflict"):
        store.security_api("create user x", "PUT", "internalusers/x", {})
    assert len(calls) == SECURITY_WRITE_ATTEMPTS
    store, calls = _store(tmp_path, [TransportError(400, "bad", "bad request"), {}])
    with pytest.raises(StoreError):
        store.security_api("create user x", "PUT", "internalusers/x", {})
    assert calls == ["PUT"]
