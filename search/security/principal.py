"""Whom a search runs for, and which ACL groups it may read: the one place that decides.

On OpenSearch 2.19 a `hybrid` query fails for a user restricted by document-level security
(neural-search #1303), so searches run as the search service account (no DLS) with the groups
the security plugin verified for the end user inside every sub-query:

1. the end user's own password goes to `GET /_plugins/_security/authinfo` (on every search, so a
   revoked group or a removed user takes effect at once); a wrong one is an AuthenticationError;
2. the user's groups are its backend roles; it must hold the `legalsearch_reader` role (an auditor,
   or a user with no legalsearch role, is refused: the service would otherwise hand it the public
   text its own roles do not let it read);
3. a request's `groups` (`--group`) can only narrow them (intersection), never widen them.

Every other read of the indices (Dashboards, curl, aggregations, the docs index) is the end user's
own and runs under the reader role's DLS, enforced by the engine.

Without an end user the connection's own identity decides: the admin (all_access) may read
everything, so its `groups` filter as given; the service account refuses to search for nobody;
any other user gets its own backend roles (and the engine's DLS). A cluster without the security
plugin enforces nothing: the requested groups are applied by this client only, with one warning.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from legalsearch.errors import SecurityError, warn_once
from legalsearch.security.roles import GROUP_ROLE_PREFIX, READER_ROLE, SERVICE_ROLE
from pydantic import SecretStr

if TYPE_CHECKING:
    from legalsearch.store import Store

log = logging.getLogger(__name__)

UNRESTRICTED_ROLES = frozenset({"all_access"})


@dataclass(frozen=True)
class Principal:
    """The verified caller: `groups` None means it may read everything (admin, or a cluster
    without security where only this client filters)."""

    user: str | None
    groups: tuple[str, ...] | None
    engine_enforced: bool = True

    def restrict(self, requested: tuple[str, ...]) -> tuple[str, ...]:
        """The groups a search filters on: the requested ones the caller holds (all of its
        groups when none are requested)."""
        if self.groups is None:
            return tuple(requested)
        if not requested:
            return self.groups
        kept = tuple(g for g in requested if g in self.groups)
        dropped = sorted(set(requested) - set(kept))
        if dropped:
            log.warning("ignoring --group %s: user %s does not hold %s", ", ".join(dropped), self.user,
                        "it" if len(dropped) == 1 else "them")
        return kept


class Authenticator:
    """Resolves the Principal of each search made through one Store (the service's connection)."""

    def __init__(self, store: Store, user: str | None = None, password: SecretStr | None = None,
                 token: SecretStr | None = None):
        self.store = store
        self.user = user
        self.password = password
        self.token = token
        self._own: Principal | None = None

    def principal(self) -> Principal:
        if self.token is not None:
            return self._bearer()
        if self.user:
            return self._end_user()
        if self._own is None:
            self._own = self._connection_identity()
        return self._own

    def _end_user(self) -> Principal:
        if self.password is None:
            raise SecurityError(f"no password for user {self.user!r}: set LEGALSEARCH_PASSWORD, or pass password= "
                                "to LegalSearch (the CLI asks for it)")
        info = self.store.authinfo((self.user, self.password.get_secret_value()))
        if info is None:
            raise SecurityError(
                f"cannot authenticate user {self.user!r}: the cluster at {self.store.url} has no security plugin. "
                "Drop --user / LEGALSEARCH_USER (ACL is then enforced only by this client), or use a secured cluster")
        return self._reader(info, self.user)

    def _bearer(self) -> Principal:
        """The user of a bearer token the node issued (an on-behalf-of token), verified by the node on
        every search. Such a token carries the user's roles, not its backend roles: the groups are
        those whose walls role the node granted it (`legalsearch_acl_<group>`), which are all the
        groups that have any walled text to read."""
        info = self.store.authinfo(bearer=self.token.get_secret_value() if self.token else "")
        if info is None:
            raise SecurityError(f"cannot verify a bearer token: the cluster at {self.store.url} has no security plugin")
        granted = {r.removeprefix(GROUP_ROLE_PREFIX) for r in info.get("roles") or () if r.startswith(GROUP_ROLE_PREFIX)}
        info = {**info, "backend_roles": sorted(set(info.get("backend_roles") or ()) | granted)}
        return self._reader(info, info.get("user_name"))

    def _reader(self, info: dict, asked: str | None) -> Principal:
        """The principal of an end user the node verified (its authinfo): a reader, or the admin."""
        roles = set(info.get("roles") or ())
        if roles & UNRESTRICTED_ROLES:
            return Principal(info.get("user_name"), None)
        if READER_ROLE not in roles:
            raise SecurityError(
                f"user {info.get('user_name') or asked!r} may not search: it does not hold the {READER_ROLE} role "
                f"(its roles: {', '.join(sorted(roles)) or 'none'}). Grant it with `legalsearch users add NAME --role "
                "reader` or search as a reader")
        return Principal(info.get("user_name"), tuple(sorted(info.get("backend_roles") or ())))

    def _connection_identity(self) -> Principal:
        info = self.store.authinfo()
        if info is None:
            warn_once("unsecured", f"OpenSearch at {self.store.url} has no security plugin: anyone who can reach it "
                      "reads every document, and ACL groups are enforced only by this client (--group). "
                      "Use a secured cluster (docs/security.md).")
            return Principal(None, None, engine_enforced=False)
        name = info.get("user_name")
        roles = set(info.get("roles") or ())
        if roles & UNRESTRICTED_ROLES:
            return Principal(name, None)
        if SERVICE_ROLE in roles:
            raise SecurityError(
                f"{name!r} is the search service account: it searches only for a verified end user. Give one with "
                "--user NAME (or LEGALSEARCH_USER / LEGALSEARCH_PASSWORD; LegalSearch(user=..., password=...))")
        return Principal(name, tuple(sorted(info.get("backend_roles") or ())))
