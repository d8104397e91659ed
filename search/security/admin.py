"""Users and ACL groups over the security plugin's REST API (`legalsearch users ...`, `groups ...`).

An end user is an internal user whose ACL groups are its backend roles and who holds the
`legalsearch_reader` role directly; that role's DLS reads the groups with `${user.roles}`. So
granting or revoking a group is one PATCH of the user, effective on the user's next request.
The plugin pastes group names UNESCAPED into the DLS query, which is why `check_groups` allows
only `[A-Za-z0-9._-]` and refuses names that look like privileges.

Mapping LDAP / SAML / OIDC users onto the same groups is configuration of the cluster's
authentication backend, not of these commands: docs/security.md shows how.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from legalsearch.errors import SecurityError
from legalsearch.security.roles import (
    ADMIN_USER,
    AUDITOR_ROLE,
    READER_ROLE,
    SERVICE_ROLE,
    SERVICE_USER,
    roles,
)

if TYPE_CHECKING:
    from legalsearch.store import Store

GROUP_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
USER_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$")
# Backend roles named like a role or a privilege would invite a mapping mistake; refuse them.
RESERVED_GROUPS = frozenset({
    "admin", "all_access", "public", "security_rest_api_access", "kibana_user", "kibana_server", "kibanaserver",
    "readall", "readall_and_monitor", "manage_snapshots", "logstash", "own_index",
    READER_ROLE, SERVICE_ROLE, AUDITOR_ROLE,
})
USER_ROLES = {"reader": READER_ROLE, "auditor": AUDITOR_ROLE}
DASHBOARDS_ROLE = "kibana_user"  # built into the plugin: what a Dashboards login needs besides data access


def check_groups(groups) -> list[str]:
    """Sorted unique group names, or SecurityError naming the first bad one."""
    out = sorted(set(groups))
    for group in out:
        if not GROUP_RE.match(group):
            raise SecurityError(f"invalid group name {group!r}: use letters, digits, '.', '_' and '-' (at most 64, "
                                "starting with a letter or digit); the security plugin puts it into a query as is")
        if group.lower() in RESERVED_GROUPS:
            raise SecurityError(f"{group!r} is reserved (a role or privilege name); choose another group name")
    return out


def check_user(name: str, *, managed: bool = True) -> str:
    if not USER_RE.match(name):
        raise SecurityError(f"invalid user name {name!r}: letters, digits, '.', '_', '@' and '-' (at most 128)")
    if managed and name in (ADMIN_USER, SERVICE_USER):
        raise SecurityError(f"{name!r} is managed by legalsearch itself and cannot be changed this way")
    return name


def _user(store: Store, name: str) -> dict | None:
    found = store.security_api(f"read user {name}", "GET", f"internalusers/{name}", missing=None)
    return found.get(name) if found else None


def _require(store: Store, name: str) -> dict:
    user = _user(store, name)
    if user is None:
        raise SecurityError(f"no such user {name!r} (`legalsearch users list` shows them)")
    return user


# --------------------------------------------------------------------------- roles


def init(store: Store, log_index: str, service_password: str | None = None) -> list[str]:
    """Create or update the legalsearch roles (and, given its password, the service account) on a
    cluster. The local node does this itself at start."""
    done = []
    for name, body in roles(log_index).items():
        store.security_api(f"write role {name}", "PUT", f"roles/{name}", body)
        done.append(f"role {name}")
    if service_password:
        store.security_api(f"write user {SERVICE_USER}", "PUT", f"internalusers/{SERVICE_USER}", {
            "password": service_password, "backend_roles": [], "opendistro_security_roles": [SERVICE_ROLE],
            "description": "legalsearch search service"})
        done.append(f"user {SERVICE_USER}")
    return done


# --------------------------------------------------------------------------- users


def users_add(store: Store, name: str, password: str, groups=(), role_names=("reader",),
              dashboards: bool = False) -> dict:
    """Create an end user (role `reader`, the default) or an auditor with its groups."""
    check_user(name)
    groups = check_groups(groups)
    unknown = sorted(set(role_names) - set(USER_ROLES))
    if unknown:
        raise SecurityError(f"unknown role {unknown[0]!r}: choose from {', '.join(USER_ROLES)}")
    if _user(store, name) is not None:
        raise SecurityError(f"user {name!r} exists: change it with `legalsearch users passwd` or `legalsearch groups "
                            "grant|revoke`, or remove it first")
    security_roles = sorted({USER_ROLES[r] for r in role_names} | ({DASHBOARDS_ROLE} if dashboards else set()))
    body = {"password": password, "backend_roles": groups, "opendistro_security_roles": security_roles,
            "attributes": {}, "description": "legalsearch user"}
    store.security_api(f"create user {name}", "PUT", f"internalusers/{name}", body)
    return {"user": name, "groups": groups, "roles": security_roles}


def users_list(store: Store) -> list[dict]:
    users = store.security_api("list users", "GET", "internalusers")
    return [{"user": name, "groups": sorted(u.get("backend_roles") or []),
             "roles": sorted(u.get("opendistro_security_roles") or []), "reserved": bool(u.get("reserved"))}
            for name, u in sorted(users.items())]


def users_remove(store: Store, name: str) -> bool:
    """Remove a user; False when there was none."""
    check_user(name)
    found = store.security_api(f"remove user {name}", "DELETE", f"internalusers/{name}", missing=None)
    return found is not None


def users_passwd(store: Store, name: str, password: str) -> None:
    """Set a user's password (groups and roles are kept). The reserved `admin` needs a Store
    connected with the admin certificate."""
    check_user(name, managed=name != ADMIN_USER)
    _require(store, name)
    store.security_api(f"change the password of {name}", "PATCH", f"internalusers/{name}",
                       [{"op": "add", "path": "/password", "value": password}])


# --------------------------------------------------------------------------- groups


def _set_groups(store: Store, name: str, groups: list[str]) -> list[str]:
    store.security_api(f"change the groups of {name}", "PATCH", f"internalusers/{name}",
                       [{"op": "add", "path": "/backend_roles", "value": groups}])
    return groups


def groups_grant(store: Store, name: str, groups) -> list[str]:
    """Add groups to a user; returns its groups afterwards."""
    check_user(name)
    wanted = check_groups(groups)
    return _set_groups(store, name, sorted(set(_require(store, name).get("backend_roles") or []) | set(wanted)))


def groups_revoke(store: Store, name: str, groups) -> list[str]:
    """Remove groups from a user; returns its groups afterwards."""
    check_user(name)
    unwanted = set(groups)
    return _set_groups(store, name, sorted(set(_require(store, name).get("backend_roles") or []) - unwanted))


def groups_list(store: Store) -> dict[str, list[str]]:
    """Every group held by a legalsearch reader, with its users."""
    out: dict[str, list[str]] = {}
    for user in users_list(store):
        if READER_ROLE in user["roles"]:
            for group in user["groups"]:
                out.setdefault(group, []).append(user["user"])
    return dict(sorted(out.items()))
