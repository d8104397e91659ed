"""The local node's security pieces without a node: certificates, secrets, the plugin's files."""

from __future__ import annotations

import datetime as dt
import json
import stat

import bcrypt
import pytest
from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.security import pki, plugin
from legalsearch.security import roles as role_module
from legalsearch.security.plugin import opensearch_settings, prepare
from legalsearch.security.roles import AUDITOR_ROLE, READER_ROLE, SERVICE_ROLE, SERVICE_USER, roles
from legalsearch.security.secrets import ensure_secrets, local_credentials


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def settings(tmp_path):
    return Settings(node_home=tmp_path / "node", opensearch_url=None)


def test_pki_is_made_once_with_private_keys_and_the_dns_the_plugin_compares(tmp_path):
    made = pki.ensure_pki(tmp_path)
    first = {p: p.read_bytes() for p in (made.ca, made.node, made.admin, made.node_key)}
    for key in (made.ca_key, made.node_key, made.admin_key):
        assert _mode(key) == 0o600 and b"BEGIN PRIVATE KEY" in key.read_bytes()  # PKCS#8
    assert _mode(made.ca) == 0o644
    pki.ensure_pki(tmp_path)
    assert {p: p.read_bytes() for p in first} == first  # idempotent
    node = pki.load_cert(made.node)
    assert node.subject.rfc4514_string() == pki.NODE_DN == "CN=legalsearch-node,OU=node,O=legalsearch"
    san = node.extensions.get_extension_for_class(pki.x509.SubjectAlternativeName).value
    assert {str(v) for v in san.get_values_for_type(pki.x509.IPAddress)} == {"127.0.0.1"}
    node.verify_directly_issued_by(pki.load_cert(made.ca))


def test_a_certificate_near_expiry_is_reissued_and_the_ca_kept(tmp_path):
    made = pki.ensure_pki(tmp_path)
    ca_key, ca_cert = pki.serialization.load_pem_private_key(made.ca_key.read_bytes(), None), pki.load_cert(made.ca)
    soon = dt.datetime.now(dt.UTC) + dt.timedelta(days=3)
    key, cert = pki.issue(ca_key, ca_cert, pki.NODE_NAME, server=True, hosts=pki.HOSTS, not_after=soon)
    made.node.write_bytes(cert.public_bytes(pki.serialization.Encoding.PEM))
    pki.ensure_pki(tmp_path)
    assert pki.load_cert(made.node).not_valid_after_utc > soon + dt.timedelta(days=300)
    assert pki.load_cert(made.ca) == ca_cert


def test_secrets_outside_the_node_home_kept_across_runs(settings):
    found = ensure_secrets(settings)
    assert found.folder == settings.node_home.with_name("node-secrets")
    assert _mode(found.folder) == 0o700
    for path in (found.admin_password_file, found.service_password_file, found.salt_file):
        assert _mode(path) == 0o600
    password = found.admin_password()
    assert len(password) == 24 and password != found.service_password()
    assert ensure_secrets(settings).admin_password() == password
    assert local_credentials(settings) == ("admin", password)
    assert local_credentials(settings, "service")[0] == SERVICE_USER


def test_secrets_inside_the_node_home_are_refused(tmp_path):
    inside = Settings(node_home=tmp_path / "node", secrets_dir=tmp_path / "node" / "secrets")
    with pytest.raises(NodeError, match="inside the node home"):
        ensure_secrets(inside)


def test_the_plugin_files_map_all_access_to_the_admin_user_only(settings, tmp_path):
    found = prepare(settings, tmp_path / "config")
    folder = tmp_path / "config" / "opensearch-security"
    mapping = json.loads((folder / "roles_mapping.yml").read_text())
    assert mapping["all_access"]["users"] == ["admin"] and mapping["all_access"]["backend_roles"] == []
    users = json.loads((folder / "internal_users.yml").read_text())
    assert set(users) - {"_meta"} == {"admin", SERVICE_USER}
    assert bcrypt.checkpw(found.admin_password().encode(), users["admin"]["hash"].encode())
    assert found.admin_password() not in (folder / "internal_users.yml").read_text()
    assert _mode(tmp_path / "config" / "certs" / "node-key.pem") == 0o600
    hashes = users["admin"]["hash"]
    prepare(settings, tmp_path / "config")  # a re-run keeps a hash that still matches
    assert json.loads((folder / "internal_users.yml").read_text())["admin"]["hash"] == hashes


def test_roles_dls_only_for_readers_and_the_log_only_for_auditors_and_the_service():
    bodies = roles("legalsearch-log")
    reader, service, auditor = bodies[READER_ROLE], bodies[SERVICE_ROLE], bodies[AUDITOR_ROLE]
    assert "${user.roles}" in reader["index_permissions"][0]["dls"]
    json.loads(reader["index_permissions"][0]["dls"].replace("${user.roles}", '"g1","g2"'))  # valid once expanded
    assert all("legalsearch-log" not in p["index_patterns"] for p in reader["index_permissions"])
    assert not any("dls" in p for p in service["index_permissions"])
    log_rights = next(p for p in service["index_permissions"] if "legalsearch-log" in p["index_patterns"])
    assert "read" not in log_rights["allowed_actions"]  # the service writes the log, never reads it
    assert auditor["index_permissions"] == [{
        "index_patterns": ["legalsearch-log", "legalsearch-log-*", role_module.AUDIT_INDEX_PATTERN],
        "allowed_actions": ["read", "indices:admin/get"]}]
    for role in (reader, service):  # nobody but the auditor reads the audit log
        assert not any(role_module.AUDIT_INDEX_PATTERN in p["index_patterns"] for p in role["index_permissions"])


def test_opensearch_yml_block(settings):
    block = opensearch_settings(settings, salt="0123456789abcdef")
    assert block["plugins.security.ssl.http.enabled"] is True
    assert block["plugins.security.authcz.admin_dn"] == [pki.ADMIN_DN]
    assert block["plugins.security.compliance.salt"] == "0123456789abcdef"
    off = opensearch_settings(settings.model_copy(update={"node_security": False}))
    assert off == {"plugins.security.disabled": True}


def test_audit_log_and_login_limits_are_on_by_default(settings, tmp_path):
    block = plugin.opensearch_settings(settings)
    assert block["plugins.security.audit.type"] == "internal_opensearch"
    assert block["plugins.security.audit.config.index"] == "'legalsearch-audit-'YYYY.MM.dd"
    from legalsearch.node.process import _yml

    assert _yml(block["plugins.security.audit.config.index"]) == '"\'legalsearch-audit-\'YYYY.MM.dd"'  # one scalar
    plugin.prepare(settings, tmp_path / "config")
    folder = tmp_path / "config" / "opensearch-security"
    listeners = json.loads((folder / "config.yml").read_text())["config"]["dynamic"]["auth_failure_listeners"]
    by_name = listeners["internal_authentication_backend_limiting"]
    assert (by_name["type"], by_name["authentication_backend"], by_name["allowed_tries"]) == ("username", "intern", 10)
    assert {"127.0.0.1", "::1"} <= set(listeners["ip_rate_limiting"]["ignore_hosts"])  # local clients never blocked
    audit = json.loads((folder / "audit.yml").read_text())
    assert audit["_meta"]["type"] == "audit" and audit["config"]["enabled"]
    assert "FAILED_LOGIN" not in audit["config"]["audit"]["disabled_rest_categories"]
    assert audit["config"]["audit"]["log_request_body"] is False  # a body can hold a password
    watched = audit["config"]["compliance"]["read_watched_fields"]
    # the privileged records and the retrieval log are watched; the public chunks, which every
    # reader may open, are not (one event per hit filled the plugin's audit queue under load)
    assert set(watched) >= {role_module.WALLED_CHUNK_PATTERN, role_module.WALLED_DOCS_PATTERN, settings.log_index}
    assert role_module.CHUNK_PATTERN not in watched and role_module.DOCS_PATTERN not in watched
    assert all(fields for fields in watched.values())  # an empty list would watch nothing


def test_covers_ignores_the_defaults_the_plugin_adds_and_list_order():
    want = {"a": {"b": ["x", "y"], "c": 1}}
    assert plugin.covers({"a": {"b": ["y", "x"], "c": 1, "extra": True}, "z": 0}, want)
    assert not plugin.covers({"a": {"b": ["x"], "c": 1}}, want)
    assert not plugin.covers({"a": {"b": ["x", "y"], "c": 2}}, want)
    assert not plugin.covers({}, want)
