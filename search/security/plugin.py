"""The local node's security plugin (docs/security.md): its TLS and opensearch.yml settings, its
configuration files, and the admin-certificate calls that bring the roles up to date.

Before a start, `prepare` makes the secrets (`search.security.secrets`), copies the node's
certificate into `config/certs/` and writes `config/opensearch-security/*.yml` (JSON, which the
plugin's YAML reader accepts); the plugin loads those once, into its `.opendistro_security`
index, on the first start (`allow_default_init_securityindex`). After the node is healthy,
`bootstrap` brings the roles (`search.security.roles`) and the service account up to date over
the REST API with the admin certificate, so an upgrade of the role definitions reaches a node
whose security index already exists.

The audit log and the login limits (`audit_config`, `auth_failure_listeners`): the plugin writes
failed logins, refused requests and the reads of every legalsearch index (document ids only,
`read_metadata_only`) to `legalsearch-audit-YYYY.MM.dd`; ten wrong passwords for one user name
within a minute block that name for a minute (its right password too), and an address other than
the loopback is blocked after 50. The storage type is a static setting of opensearch.yml (read at
start); the rest lives in the security index and `bootstrap` brings it up to date after every
start, so a node installed before keeps its data and gets both on its next start.
"""

from __future__ import annotations

import base64
import json
import logging
import shutil
import ssl
import urllib.error
import urllib.request
from pathlib import Path

import bcrypt
from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.security import pki
from legalsearch.security.roles import (
    ADMIN_USER,
    READER_ROLE,
    SERVICE_ROLE,
    SERVICE_USER,
    WALLED_CHUNK_PATTERN,
    WALLED_DOCS_PATTERN,
    roles,
)
from legalsearch.security.secrets import Secrets, ensure_secrets, secrets_of

log = logging.getLogger(__name__)

# The audit index name, a date pattern quoted as the plugin's DateTimeFormat wants it
AUDIT_INDEX_SETTING = "'legalsearch-audit-'YYYY.MM.dd"

# Login limits (config.yml auth_failure_listeners). By user name against the internal user
# database: the 11th try after 10 wrong passwords within a minute is refused, even with the right
# password, until the block expires; the admin certificate is never blocked. By address, looser,
# and never for the loopback: every local client (the tests, the CLI, the service) comes from
# 127.0.0.1 and one user's typos must not lock all of them out.
LOGIN_ALLOWED_TRIES = 10
LOGIN_WINDOW_S = 60
LOGIN_BLOCK_S = 60
ADDRESS_ALLOWED_TRIES = 50

# --------------------------------------------------------------------------- node configuration


def opensearch_settings(settings: Settings, salt: str | None = None) -> dict:
    """The plugins.security.* block of opensearch.yml (paths relative to the config folder)."""
    if not settings.node_security:
        return {"plugins.security.disabled": True}
    block = {
        "plugins.security.ssl.transport.pemcert_filepath": "certs/node.pem",
        "plugins.security.ssl.transport.pemkey_filepath": "certs/node-key.pem",
        "plugins.security.ssl.transport.pemtrustedcas_filepath": "certs/ca.pem",
        "plugins.security.ssl.transport.enforce_hostname_verification": False,
        "plugins.security.ssl.http.enabled": True,
        "plugins.security.ssl.http.pemcert_filepath": "certs/node.pem",
        "plugins.security.ssl.http.pemkey_filepath": "certs/node-key.pem",
        "plugins.security.ssl.http.pemtrustedcas_filepath": "certs/ca.pem",
        "plugins.security.allow_default_init_securityindex": True,
        "plugins.security.authcz.admin_dn": [pki.ADMIN_DN],
        "plugins.security.nodes_dn": [pki.NODE_DN],
        "plugins.security.restapi.roles_enabled": ["all_access", "security_rest_api_access"],
        "plugins.security.system_indices.enabled": True,
        "plugins.security.system_indices.indices": [".opendistro-*", ".plugins-*"],
        # the audit log, in this cluster (static: read at start; what it records is audit_config)
        "plugins.security.audit.type": "internal_opensearch",
        "plugins.security.audit.config.index": AUDIT_INDEX_SETTING,
        # lets `bootstrap` bring auth_failure_listeners to a node whose security index exists
        # (PATCH /_plugins/_security/api/securityconfig); the REST API is the admin's only
        # (restapi.roles_enabled above)
        "plugins.security.unsupported.restapi.allow_securityconfig_modification": True,
    }
    if salt:
        block["plugins.security.compliance.salt"] = salt
    return block


def auth_failure_listeners() -> dict:
    """config.yml `auth_failure_listeners`: the login limits (constants above)."""
    common = {"time_window_seconds": LOGIN_WINDOW_S, "block_expiry_seconds": LOGIN_BLOCK_S,
              "max_blocked_clients": 100_000, "max_tracked_clients": 100_000}
    return {
        "internal_authentication_backend_limiting": {
            "type": "username", "authentication_backend": "intern", "allowed_tries": LOGIN_ALLOWED_TRIES, **common},
        "ip_rate_limiting": {"type": "ip", "allowed_tries": ADDRESS_ALLOWED_TRIES,
                             "ignore_hosts": ["127.0.0.1", "::1"], **common},
    }


def audit_config(log_index: str) -> dict:
    """audit.yml `config` (PUT /_plugins/_security/api/audit/config): failed logins and refused
    requests (the plugin's default categories less AUTHENTICATED / GRANTED_PRIVILEGES, which would
    log every search), and who read which document of the chunk, docs and log indices. No request
    bodies and no Authorization header: a body can hold a user's new password or a privileged
    question; the audit log keeps who, when, what index, which ids."""
    quiet = ["AUTHENTICATED", "GRANTED_PRIVILEGES"]
    return {
        "enabled": True,
        "audit": {
            "enable_rest": True, "disabled_rest_categories": quiet,
            "enable_transport": True, "disabled_transport_categories": quiet,
            "ignore_users": [], "ignore_requests": [], "resolve_bulk_requests": False, "log_request_body": False,
            "resolve_indices": True, "exclude_sensitive_headers": True,
        },
        "compliance": {
            "enabled": True, "internal_config": True, "external_config": False,
            "read_metadata_only": True,
            # a read is logged when it touches a watched field: one every record carries (with
            # "*" each event would list all 400 fields of a chunk, its vector's dimensions included).
            # Watched: the walled (privileged) chunks and records and the retrieval log (questions
            # can be privileged). Not the public chunks every reader may open: one event per hit
            # of every search filled the plugin's audit queue under load ("Could not submit audit
            # message"), and a failed login then reached the log tens of minutes late.
            "read_watched_fields": {WALLED_CHUNK_PATTERN: ["doc_id"], WALLED_DOCS_PATTERN: ["doc_id"],
                                    log_index: ["query"], f"{log_index}-*": ["query"]},
            "read_ignore_users": [], "write_metadata_only": True, "write_log_diffs": False,
            "write_watched_indices": [], "write_ignore_users": [],
        },
    }


def on_behalf_of(found: Secrets) -> dict:
    """config.yml `on_behalf_of`: the node issues and verifies bearer tokens for its users
    (`POST /_plugins/_security/api/generateonbehalfoftoken`, at most 5 minutes each; the search
    service takes them, docs/service.md), with the keys of the secrets folder."""
    return {"enabled": True, **found.token_keys()}


def _meta(kind: str) -> dict:
    return {"_meta": {"type": kind, "config_version": 2}}


def _bcrypt(password: str, existing: str | None) -> str:
    if existing and bcrypt.checkpw(password.encode(), existing.encode()):
        return existing
    return bcrypt.hashpw(password.encode(), bcrypt.gensalt(12)).decode()


def security_files(found: Secrets, log_index: str, existing: dict | None = None) -> dict[str, dict]:
    """config/opensearch-security/*.yml: what the plugin loads on the first start only."""
    existing = existing or {}
    hashes = {user: (existing.get(user) or {}).get("hash") for user in (ADMIN_USER, SERVICE_USER)}
    return {
        "config.yml": _meta("config") | {"config": {"dynamic": {
            "http": {"anonymous_auth_enabled": False, "xff": {"enabled": False}},
            "authc": {"basic_internal_auth_domain": {
                "description": "HTTP basic auth against the internal user database",
                "http_enabled": True, "transport_enabled": True, "order": 0,
                "http_authenticator": {"type": "basic", "challenge": True},
                "authentication_backend": {"type": "intern"},
            }},
            "authz": {},
            "auth_failure_listeners": auth_failure_listeners(),
            "on_behalf_of": on_behalf_of(found),
        }}},
        "audit.yml": _meta("audit") | {"config": audit_config(log_index)},
        "internal_users.yml": _meta("internalusers") | {
            ADMIN_USER: {"hash": _bcrypt(found.admin_password(), hashes[ADMIN_USER]), "reserved": True,
                         "backend_roles": [], "description": "legalsearch administrator"},
            SERVICE_USER: {"hash": _bcrypt(found.service_password(), hashes[SERVICE_USER]), "reserved": False,
                           "backend_roles": [], "opendistro_security_roles": [SERVICE_ROLE],
                           "description": "legalsearch search service"},
        },
        # all_access goes to the admin USER, never to a backend role: groups are backend roles, so
        # a group named like a privilege must never grant one.
        "roles_mapping.yml": _meta("rolesmapping") | {"all_access": {
            "reserved": False, "users": [ADMIN_USER], "backend_roles": [], "hosts": [],
            "description": "legalsearch administrator"}},
        "roles.yml": _meta("roles") | roles(log_index),
        "action_groups.yml": _meta("actiongroups"),
        "tenants.yml": _meta("tenants"),
        "nodes_dn.yml": _meta("nodesdn"),
        "allowlist.yml": _meta("allowlist") | {"config": {"enabled": False, "requests": {}}},
    }


def prepare(settings: Settings, config_dir: Path) -> Secrets:
    """Everything a secured start needs in the distribution's config folder. Idempotent."""
    found = ensure_secrets(settings)
    certs = config_dir / "certs"
    certs.mkdir(parents=True, exist_ok=True)
    for source in (found.pki.ca, found.pki.node, found.pki.node_key):
        shutil.copyfile(source, certs / source.name)
        (certs / source.name).chmod(0o600)
    folder = config_dir / "opensearch-security"
    folder.mkdir(parents=True, exist_ok=True)
    users_file = folder / "internal_users.yml"
    try:
        existing = json.loads(users_file.read_text()) if users_file.is_file() else None
    except ValueError:
        existing = None
    for name, body in security_files(found, settings.log_index, existing).items():
        (folder / name).write_text(json.dumps(body, indent=2) + "\n")
        (folder / name).chmod(0o600)
    return found


# --------------------------------------------------------------------------- talking to the node


def admin_ssl_context(settings: Settings) -> ssl.SSLContext:
    """Verifies the node against the local CA and presents the admin certificate (super-admin)."""
    found = Secrets(settings.node_secrets)
    context = ssl.create_default_context(cafile=str(found.pki.ca))
    context.load_cert_chain(str(found.pki.admin), str(found.pki.admin_key))
    return context


def _request(settings: Settings, url: str, method: str, path: str, body=None,
             basic: tuple[str, str] | None = None) -> tuple[int, dict]:
    headers = {"Content-Type": "application/json"}
    if basic:
        headers["Authorization"] = "Basic " + base64.b64encode(f"{basic[0]}:{basic[1]}".encode()).decode()
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url.rstrip("/") + path, data=data, method=method, headers=headers)
    if not url.startswith("https"):
        context = None  # a node started with LEGALSEARCH_NODE_SECURITY=false
    else:
        context = admin_ssl_context(settings) if basic is None else ssl.create_default_context(
            cafile=str(Secrets(settings.node_secrets).pki.ca))
    try:
        with urllib.request.urlopen(request, context=context, timeout=30) as response:  # noqa: S310 (local node)
            return response.status, json.loads(response.read().decode() or "{}")
    except urllib.error.HTTPError as e:
        text = e.read().decode(errors="replace")
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, {"message": text}
    except (urllib.error.URLError, OSError) as e:
        raise NodeError(f"cannot reach the local node at {url} for its security set-up: {e}") from e


def admin_request(settings: Settings, url: str, method: str, path: str, body=None) -> tuple[int, dict]:
    """One REST call to the local node with the admin certificate: (HTTP status, JSON body)."""
    return _request(settings, url, method, path, body)


def initialized(settings: Settings, url: str) -> bool:
    """True once the plugin has loaded its security index (before that its REST API answers
    500 / 503 "Security index not initialized", even to the admin certificate)."""
    try:
        status, _ = _request(settings, url, "GET", f"/_plugins/_security/api/roles/{READER_ROLE}")
    except NodeError:
        return False
    return status in (200, 404)


def bootstrap(settings: Settings, url: str) -> list[str]:
    """Bring the legalsearch roles and the service account up to date (admin certificate, REST):
    a role changed by hand (its DLS dropped, say) is put back on the next start. Returns what was
    changed; a node set up by this version changes nothing."""
    found = Secrets(settings.node_secrets)
    api = "/_plugins/_security/api"
    changed = []
    for name, body in roles(settings.log_index).items():
        status, current = _request(settings, url, "GET", f"{api}/roles/{name}")
        if status != 200 or _role_key(current.get(name, {})) != _role_key(body):
            _checked(_request(settings, url, "PUT", f"{api}/roles/{name}", body), f"write role {name}")
            changed.append(f"role {name}")
    status, _ = _request(settings, url, "GET", "/_plugins/_security/authinfo",
                         basic=(SERVICE_USER, found.service_password()))
    if status != 200:
        body = {"password": found.service_password(), "backend_roles": [], "opendistro_security_roles": [SERVICE_ROLE],
                "description": "legalsearch search service"}
        _checked(_request(settings, url, "PUT", f"{api}/internalusers/{SERVICE_USER}", body),
                 f"create the {SERVICE_USER} account")
        changed.append(f"user {SERVICE_USER}")
    changed += _bootstrap_audit_and_limits(settings, url)
    status, _ = _request(settings, url, "GET", "/_plugins/_security/authinfo",
                         basic=(ADMIN_USER, found.admin_password()))
    if status == 401:
        log.warning("the node does not accept the admin password in %s (changed elsewhere?): set it again with "
                    "`legalsearch users passwd admin`", found.admin_password_file)
    if changed:
        log.info("security configuration updated: %s", ", ".join(changed))
    return changed


def _bootstrap_audit_and_limits(settings: Settings, url: str) -> list[str]:
    """The audit configuration and the login limits, put where they differ from ours. A node
    started before opensearch.yml carried the audit type and the config-modification switch
    refuses (its next start applies them): a warning, never a failed start."""
    api = "/_plugins/_security/api"
    changed = []
    status, current = _request(settings, url, "GET", f"{api}/audit")
    want = audit_config(settings.log_index)
    watched = ((current.get("config") or {}).get("compliance") or {}).get("read_watched_fields") if status == 200 else None
    if status == 200 and (not covers(current.get("config") or {}, want)
                          or set(watched or {}) != set(want["compliance"]["read_watched_fields"])):
        _checked(_request(settings, url, "PUT", f"{api}/audit/config", want), "write the audit configuration")
        changed.append("audit configuration")
    elif status != 200:
        log.warning("the node's audit log cannot be configured (HTTP %s: %s): it was started without "
                    "plugins.security.audit.type; restart it (`legalsearch node stop` then `node start`) to turn the "
                    "audit log on", status, current.get("message") or current.get("reason") or current)
    status, current = _request(settings, url, "GET", f"{api}/securityconfig")
    dynamic = ((current.get("config") or {}).get("dynamic") or {}) if status == 200 else {}
    tokens = secrets_of(settings)
    if status == 200 and tokens is not None and tokens.token_keys_file.is_file() and not covers(
            dynamic.get("on_behalf_of") or {}, {"enabled": True}):
        status_obo, body = _request(settings, url, "PATCH", f"{api}/securityconfig", [
            {"op": "add", "path": "/config/dynamic/on_behalf_of", "value": on_behalf_of(tokens)}])
        if status_obo < 300:
            changed.append("bearer tokens")
        else:
            log.warning("the node refused the bearer-token configuration (HTTP %s: %s)", status_obo,
                        body.get("message") or body.get("reason") or body)
    listeners = auth_failure_listeners()
    if status == 200 and not covers(dynamic.get("auth_failure_listeners") or {}, listeners):
        status, body = _request(settings, url, "PATCH", f"{api}/securityconfig", [
            {"op": "add", "path": "/config/dynamic/auth_failure_listeners", "value": listeners}])
        if status < 300:
            changed.append("login limits")
        else:
            log.warning("the node refused the login limits (HTTP %s: %s): restart it (`legalsearch node stop` then "
                        "`node start`) so that it reads the opensearch.yml that allows them", status,
                        body.get("message") or body.get("reason") or body)
    return changed


def covers(have, want) -> bool:
    """True when `have` (the plugin's answer, which adds defaults) holds every value of `want`;
    lists compare as sets (the plugin may reorder categories)."""
    if isinstance(want, dict):
        return isinstance(have, dict) and all(key in have and covers(have[key], value) for key, value in want.items())
    if isinstance(want, list):
        return isinstance(have, list) and sorted(map(json.dumps, have)) == sorted(map(json.dumps, want))
    return have == want


def _role_key(role: dict) -> tuple:
    """What a role grants, comparable between our body and the plugin's answer (which adds
    reserved / static flags and empty fls / masked_fields lists)."""
    return (role.get("description"), tuple(sorted(role.get("cluster_permissions") or ())), tuple(
        (tuple(p.get("index_patterns") or ()), p.get("dls") or "", tuple(p.get("fls") or ()),
         tuple(p.get("masked_fields") or ()), tuple(sorted(p.get("allowed_actions") or ())))
        for p in role.get("index_permissions") or ()))


def _checked(answer: tuple[int, dict], what: str) -> dict:
    status, body = answer
    if status >= 300:
        raise NodeError(f"the security plugin refused to {what} (HTTP {status}): "
                        f"{body.get('message') or body.get('reason') or body}")
    return body
