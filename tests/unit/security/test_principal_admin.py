"""Who a search runs for and what may be named a group, without a node; the client-side error
messages of TLS / 401 / 403 failures, with credentials never in them."""

from __future__ import annotations

import pytest
from legalsearch.config import Settings, split_credentials
from legalsearch.errors import (
    AuthenticationError,
    NodeError,
    PermissionDeniedError,
    SecurityError,
    StoreError,
    TLSError,
)
from legalsearch.security.admin import check_groups, check_user
from legalsearch.security.principal import Principal
from legalsearch.store import Store
from opensearchpy import exceptions as ex


@pytest.mark.parametrize("url, clean, user, password", [
    ("https://alice:s3cr%40t@example.org:9200/", "https://example.org:9200/", "alice", "s3cr@t"),
    ("http://localhost:9200", "http://localhost:9200", None, None),
    ("https://bob@[::1]:9200", "https://[::1]:9200", "bob", None),
])
def test_credentials_are_split_out_of_urls(url, clean, user, password):
    assert split_credentials(url) == (clean, user, password)


def test_settings_never_keep_credentials_in_the_url(monkeypatch):
    monkeypatch.setenv("OPENSEARCH_URL", "https://carol:TopSecret-1@db.example:9200")
    settings = Settings()
    assert settings.opensearch_url == "https://db.example:9200"
    assert settings.opensearch_user == "carol" and settings.opensearch_password.get_secret_value() == "TopSecret-1"
    assert "TopSecret" not in repr(settings)


@pytest.mark.parametrize("good", ["litigation-team", "deal_team.2026", "G1"])
def test_group_names_that_are_safe_in_a_dls_query(good):
    assert check_groups([good, good]) == [good]


@pytest.mark.parametrize("bad", ['a"b', "a\\b", "two words", "-lead", "", "x" * 65, "admin", "ALL_ACCESS", "public",
                                 "legalsearch_reader", "kibana_user", 'g1"],"x":["'])
def test_group_names_that_could_break_or_widen_the_dls_query_are_refused(bad):
    with pytest.raises(SecurityError):
        check_groups([bad])


def test_admin_and_the_service_account_are_not_managed_by_users_commands():
    for name in ("admin", "legalsearch-service"):
        with pytest.raises(SecurityError, match="managed by legalsearch"):
            check_user(name)
    assert check_user("admin", managed=False) == "admin"


def test_requested_groups_only_narrow_the_verified_ones():
    alice = Principal("alice", ("deal-team", "litigation-team"))
    assert alice.restrict(()) == ("deal-team", "litigation-team")
    assert alice.restrict(("litigation-team",)) == ("litigation-team",)
    assert alice.restrict(("board", "litigation-team")) == ("litigation-team",)
    assert alice.restrict(("board",)) == ()  # public only, never "board"
    assert Principal("bob", ()).restrict(("litigation-team",)) == ()
    assert Principal("admin", None).restrict(("board",)) == ("board",)  # the admin may read all anyway


SECRET = "Hunter2-very-secret"


@pytest.fixture
def store(tmp_path):
    settings = Settings(node_home=tmp_path / "node", opensearch_url=f"https://eve:{SECRET}@127.0.0.1:9",
                        request_timeout=1)
    return Store(settings)


def _raising(error):
    def fn():
        raise error
    return fn


@pytest.mark.parametrize("error, kind, words", [
    (ex.SSLError("N/A", "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer "
                 "certificate (_ssl.c:1006)", None), TLSError, "OPENSEARCH_CA_CERTS"),
    (ex.SSLError("N/A", "certificate verify failed: certificate has expired (_ssl.c:1006)", None), TLSError,
     "expired"),
    (ex.SSLError("N/A", "IP address mismatch, certificate is not valid for '127.0.0.1'", None), TLSError,
     "another host name"),
    (ex.ConnectionError("N/A", "Failed to establish a new connection: [Errno 111] Connection refused", None),
     NodeError, "Is the node running"),
    (ex.AuthenticationException(401, "Unauthorized", None), AuthenticationError, "wrong password or unknown user"),
    (ex.AuthorizationException(403, "security_exception", {"error": {"root_cause": [{
        "type": "security_exception", "reason": "no permissions for [indices:data/read/search]"}]}}),
     PermissionDeniedError, "no permissions for [indices:data/read/search]"),
    (ex.RequestError(400, "search_phase_execution_exception", {"error": {"root_cause": [{
        "type": "illegal_argument_exception",
        "reason": "hybrid query must be a top level query and cannot be wrapped into other queries"}]}}),
     StoreError, "--user NAME"),
])
def test_failures_become_one_line_errors_that_say_what_to_do(store, error, kind, words):
    with pytest.raises(kind) as caught:
        store._call("search x", _raising(error))
    message = str(caught.value)
    assert words in message and "\n" not in message
    assert SECRET not in message and "eve:" not in message
    assert store.url == "https://127.0.0.1:9"


def test_the_ssl_error_is_not_reported_as_an_unreachable_node(store):
    with pytest.raises(TLSError) as caught:
        store._call("x", _raising(ex.SSLError("N/A", "certificate verify failed: unable to get local issuer", None)))
    assert "Is the node running" not in str(caught.value)


def test_the_log_records_who_searched_and_the_groups_actually_searched():
    from legalsearch.index import schema
    from legalsearch.query.log import record
    from legalsearch.query.models import SearchRequest, SearchResponse

    req = SearchRequest(query="settlement", groups=("litigation-team", "board"))
    rec = record(req, SearchResponse(query="settlement", hits=[], not_found=True), "2026-01-01T00:00:00.000Z",
                 user="alice", groups=("litigation-team",))
    assert rec["user"] == "alice" and rec["groups"] == ["litigation-team"]
    assert rec["groups_requested"] == ["litigation-team", "board"] and rec["groups_dropped"] == ["board"]
    assert set(rec) <= set(schema.mapping_json("log")["mappings"]["properties"])  # the strict mapping takes it


def test_a_refused_password_names_the_variables_it_came_from(store, monkeypatch):
    monkeypatch.setattr(store.client.transport, "perform_request",
                        lambda *a, **kw: _raising(ex.AuthenticationException(401, "Unauthorized", None))())
    with pytest.raises(AuthenticationError) as own:
        store.authinfo()  # the connection's own identity: eve from OPENSEARCH_URL / OPENSEARCH_USER
    assert "OPENSEARCH_USER / OPENSEARCH_PASSWORD" in str(own.value) and "LEGALSEARCH_" not in str(own.value)
    with pytest.raises(AuthenticationError) as end_user:
        store.authinfo(("alice", "wrong"))
    assert "LEGALSEARCH_USER / LEGALSEARCH_PASSWORD" in str(end_user.value) and SECRET not in str(end_user.value)


class _Answers:
    """A stand-in for the node's authinfo answer (the decision is pure; test_security.py runs it on the node)."""

    url = "https://127.0.0.1:9"

    def __init__(self, info: dict):
        self.info = info

    def authinfo(self, credentials=None):
        return self.info


@pytest.mark.parametrize("roles", [["legalsearch_auditor"], [], ["own_index"]])
def test_an_end_user_without_the_reader_role_may_not_search(roles):
    from legalsearch.security.principal import Authenticator
    from pydantic import SecretStr

    auth = Authenticator(_Answers({"user_name": "carol", "roles": roles, "backend_roles": ["litigation-team"]}),
                         "carol", SecretStr("pw"))
    with pytest.raises(SecurityError, match="does not hold the legalsearch_reader role"):
        auth.principal()
    reader = Authenticator(_Answers({"user_name": "bob", "roles": ["legalsearch_reader"], "backend_roles": []}),
                           "bob", SecretStr("pw"))
    assert reader.principal() == Principal("bob", ())


def test_node_status_calls_a_refused_password_refused_not_unreachable(store, monkeypatch):
    from legalsearch import status

    monkeypatch.setattr(store.client.transport, "perform_request",
                        lambda *a, **kw: _raising(ex.AuthenticationException(401, "Unauthorized", None))())
    report = status.node_status(store)
    assert report["reachable"] and report["authenticated"] is False
    text = status.render(report)
    assert "refused the credentials" in text and "not reachable" not in text and SECRET not in text
