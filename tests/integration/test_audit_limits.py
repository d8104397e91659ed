"""The security plugin's audit log and login limits on the real node (issue 24, item 5): ten wrong
passwords block the eleventh try of that user name (its own user, made here; the admin and the
other users go on), and the audit index, read by an auditor, records a failed login and a read of
a privileged chunk.

The block's expiry (a minute) is polled in a thread while the rest of the suite runs and asserted
when the session ends (`when_the_session_ends`), so the suite does not wait on it.

Both need a node started with this version's opensearch.yml (`plugins.security.audit.type`,
read at start) and brought up to date by `bootstrap`; a node started before answers that its
audit API is off, and these tests then fail with a message that says to restart it (`legalsearch
node stop && legalsearch node start`): a node without its audit log is a failure, not a skip."""

from __future__ import annotations

import base64
import threading
import time
import uuid

import pytest
from legalsearch.index import walls
from legalsearch.security import plugin, roles
from legalsearch.security.secrets import make_password
from opensearchpy import OpenSearch

from tests.integration.conftest import user_store
from tests.integration.test_engine import raw_client
from tests.integration.test_security import PRIVILEGED


@pytest.fixture(scope="module")
def raw(settings, opensearch_url) -> OpenSearch:
    return raw_client(settings, opensearch_url)


def _configured(raw: OpenSearch) -> tuple[dict, dict]:
    """(audit config, auth_failure_listeners) of the node; fails on a node started before them."""
    try:
        audit = raw.transport.perform_request("GET", "/_plugins/_security/api/audit")
    except Exception as e:  # noqa: BLE001 (any refusal means the same: the node has no audit API on)
        pytest.fail(f"the node's audit log is off (started before this version's opensearch.yml; restart it: "
                    f"legalsearch node stop && legalsearch node start): {e}")
    listeners = raw.transport.perform_request("GET", "/_plugins/_security/api/securityconfig")
    return audit["config"], listeners["config"]["dynamic"].get("auth_failure_listeners") or {}


def _status(raw: OpenSearch, user: str, password: str) -> int:
    """The HTTP status of one authinfo call with these credentials (401: refused)."""
    header = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
    try:
        raw.transport.perform_request("GET", "/_plugins/_security/authinfo", headers={"Authorization": header})
        return 200
    except Exception as e:  # noqa: BLE001
        return int(getattr(e, "status_code", 0) or 0)


@pytest.fixture(scope="session")
def when_the_session_ends(store):
    """Checks that wait for time to pass (a login block's expiry, a minute) poll in a thread of
    their own while the rest of the suite runs, and are asserted when the session ends: a failure
    is an error in this fixture's teardown, with the check's message. Each check is bounded."""
    checks: list[tuple[threading.Thread, dict]] = []

    def add(poll, what: str) -> None:
        outcome: dict = {"what": what}

        def run() -> None:
            try:
                outcome.update(poll())
            except Exception as e:  # noqa: BLE001 (reported at the session's end, with its message)
                outcome.update(ok=False, why=f"{type(e).__name__}: {e}")

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        checks.append((thread, outcome))

    yield add
    failed = []
    for thread, outcome in checks:
        thread.join(plugin.LOGIN_BLOCK_S + 60)
        if not outcome.get("ok"):
            failed.append(f"{outcome['what']}: {outcome.get('why', 'still running')}")
    assert not failed, failed


@pytest.fixture
def own_user(store):
    """A user of its own, removed when the checks on it end (`removed` is set by the one that does)."""
    from legalsearch.security import admin

    name, password = f"lockme-{uuid.uuid4().hex[:8]}", make_password()
    admin.users_add(store, name, password, (), ("reader",))
    state = {"removed": False}
    yield name, password, state
    if not state["removed"]:
        admin.users_remove(store, name)


def test_ten_wrong_passwords_block_the_eleventh_try_of_that_user_only(settings, opensearch_url, raw, own_user,
                                                                      people, store, when_the_session_ends):
    _, listeners = _configured(raw)
    limiter = listeners.get("internal_authentication_backend_limiting")
    assert limiter and limiter["allowed_tries"] == plugin.LOGIN_ALLOWED_TRIES, listeners
    assert limiter["block_expiry_seconds"] == plugin.LOGIN_BLOCK_S, listeners
    assert "127.0.0.1" in (listeners.get("ip_rate_limiting") or {}).get("ignore_hosts", []), listeners
    name, password, state = own_user
    assert _status(raw, name, password) == 200
    for _ in range(plugin.LOGIN_ALLOWED_TRIES):
        assert _status(raw, name, "not-the-password") == 401
    assert _status(raw, name, password) == 401  # blocked: the right password is refused too
    assert _status(raw, *people["bob"]) == 200  # another user, same address: not blocked
    assert raw.transport.perform_request("GET", "/_plugins/_security/authinfo")["user_name"] == roles.ADMIN_USER
    # The block lasts block_expiry_seconds, then the right password works again: polled (bounded)
    # while the rest of the suite runs, asserted when the session ends (`when_the_session_ends`).
    blocked_at = time.monotonic()
    state["removed"] = True  # the check removes the user when it ends

    def unblocked() -> dict:
        from legalsearch.security import admin

        client = raw_client(settings, opensearch_url)
        deadline = blocked_at + plugin.LOGIN_BLOCK_S + 15
        try:
            while _status(client, name, password) != 200:
                if time.monotonic() > deadline:
                    return {"ok": False, "why": f"{name} still blocked after {plugin.LOGIN_BLOCK_S + 15} s"}
                time.sleep(1)
            return {"ok": True}
        finally:
            admin.users_remove(store, name)

    when_the_session_ends(unblocked, f"the login block of {name} expires")


def test_the_audit_log_records_a_failed_login_and_a_privileged_read_for_the_auditor(
        settings, opensearch_url, raw, sample_index, people, store):
    audit, _ = _configured(raw)
    assert audit["enabled"] and audit["compliance"]["read_metadata_only"]
    stranger = f"nobody-{uuid.uuid4().hex[:8]}"
    assert _status(raw, stranger, "wrong") == 401
    index = sample_index[0]
    # the privileged note lives in the litigation team's wall; alice reads it through her group's alias
    walled = walls.group_alias(index, "chunks", "litigation-team")
    privileged = store.search(walled, {"size": 1, "_source": ["chunk_id"], "query": {"term": {"doc_id": PRIVILEGED}}})
    [hit] = privileged["hits"]["hits"]
    alice = user_store(settings, opensearch_url, *people["alice"])
    assert alice.search(walled, {"query": {"ids": {"values": [hit["_id"]]}}})["hits"]["hits"]  # a read she may make
    auditor = user_store(settings, opensearch_url, *people["carol"])
    pattern = roles.AUDIT_INDEX_PATTERN  # dynamically mapped by the plugin: text with a .keyword
    wanted = {
        "failed login": {"bool": {"filter": [{"term": {"audit_category.keyword": "FAILED_LOGIN"}},
                                             {"term": {"audit_request_effective_user.keyword": stranger}}]}},
        "privileged read": {"bool": {"filter": [
            {"term": {"audit_category.keyword": "COMPLIANCE_DOC_READ"}},
            {"term": {"audit_trace_doc_id.keyword": hit["_id"]}},
            {"term": {"audit_request_effective_user.keyword": people["alice"][0]}}]}},
    }
    found: dict[str, dict] = {}
    deadline = time.monotonic() + 60  # the plugin writes its events from a thread pool, then refresh (1 s)
    while set(found) != set(wanted):
        assert time.monotonic() < deadline, f"not in {pattern} after 60 s: {sorted(set(wanted) - set(found))}"
        for what, query in wanted.items():
            hits = auditor.search(pattern, {"size": 1, "query": query})["hits"]["hits"]
            if hits:
                found[what] = hits[0]["_source"]
        time.sleep(0.5)
    read = found["privileged read"]
    assert any(i.startswith(index) for i in read.get("audit_trace_indices") or [read.get("audit_trace_index")])
    assert "Authorization" not in str(found["failed login"].get("audit_request_headers") or {})
    # the audit log is the auditor's: a reader may not read it
    from legalsearch.errors import PermissionDeniedError

    with pytest.raises(PermissionDeniedError):
        alice.search(pattern, {"size": 1})
