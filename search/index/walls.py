"""Ethical walls by index: text that is not public lives in indices only its ACL groups may open.

Document-level security on OpenSearch 2.19.1 does not hold for every request shape (a `global`
aggregation with `top_hits`, `_msearch`, inline templates and `scripted_metric` read documents
the role's DLS hides: docs/security.md, "DLS limits measured"). An index a user may not open is
a boundary for every shape, so every chunk and registry record that is not public is written to
a *walled* index of its ACL group set, beside the public one of its generation:

    NAME--chunks-v1-g2                      public chunks (alias NAME)
    NAME--walled-chunks-v1-g2--<set hash>   chunks whose acl is exactly that group set
    NAME--walled-docs-v1-g2--<set hash>     their registry records

One walled index per group *set* (not per group, not per matter): a chunk lives in exactly one
index, so a search over several never sees it twice and fusion needs no de-duplication; a set
is what a document's `acl` names, so a matter team is one set, and a thousand matters are a
thousand small one-shard indices (capped: `MAX_WALLS`). The walled names lie outside the reader
role's patterns (`*--chunks-v*`, `*--docs-v*`), so `legalsearch_reader` can never open them.

Each walled index of the live generation carries one alias per group of its set,
`NAME--acl--<group slug>` (chunks) and `NAME-docs--acl--<group slug>` (records), and each group
has a role `legalsearch_acl_<group>` whose only index pattern is `*--acl--<group slug>`, mapped
to the backend role of the same name. The security plugin resolves an alias pattern to the
indices behind it (measured on 2.19.1: the concrete index is readable through the pattern, and
403 as soon as the alias is removed), so the permission follows the aliases: a blue/green swap
moves them to the new generation, and the kept one is unreadable to every group at once. The
group role carries the reader's DLS as a second line. The search service account reads walled
indices through `legalsearch_walls_service` (mapped to it by user name), a role of its own so
that the three legalsearch roles keep their shape.

Group names become part of alias and role names: lowercase letters are all an alias may hold,
so the slug is the lowercased name plus 8 hex of the exact name's SHA-256 (two groups differing
in case never share an alias); a group with `--` is refused (it could end like another group's
alias pattern).
"""

from __future__ import annotations

import hashlib
import re
import time
import urllib.parse
from dataclasses import dataclass

from legalsearch.documents.errors import MetadataError
from legalsearch.errors import IngestError, PermissionDeniedError, StoreError
from legalsearch.index import schema
from legalsearch.security.roles import (
    GROUP_ROLE_PREFIX,
    READER_DLS,
    SERVICE_USER,
    WALLED_CHUNK_PATTERN,
    WALLED_DOCS_PATTERN,
)
from legalsearch.store import Store

WALLED = "walled-"
ACL_ALIAS = "--acl--"
SERVICE_WALLS_ROLE = "legalsearch_walls_service"
WALLS_ROLES_VERSION = "w1"
MAX_WALLS = 1000
"""Walled index pairs per generation of a logical index: each is one primary shard (and a
replica on a cluster), and a node holds `cluster.max_shards_per_node` (1000 by default) shards
of every index together; past this, ingest refuses a document that would open one more."""

GROUP_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class Wall:
    """One walled pair of a generation: the chunks and records of exactly `groups`."""

    chunks: str
    docs: str
    groups: tuple[str, ...]


def check_group(group: str) -> str:
    if not GROUP_RE.match(group) or "--" in group:
        raise MetadataError(f"invalid ACL group {group!r}: use letters, digits, '.', '_' and '-' (at most 64, starting "
                            "with a letter or digit, no '--'); it names the group's walled index alias and role")
    return group


def placement(source: dict) -> tuple[str, ...] | None:
    """None for a public chunk or record (the public index), else its sorted ACL group set (its
    wall; an empty set is readable by administrators only)."""
    if source.get("public"):
        return None
    return tuple(sorted({check_group(g) for g in source.get("acl") or ()}))


def set_hash(groups: tuple[str, ...]) -> str:
    return hashlib.sha256("\n".join(sorted(set(groups))).encode()).hexdigest()[:12]


def slug(group: str) -> str:
    return f"{group.lower()}-{hashlib.sha256(group.encode()).hexdigest()[:8]}"


def _split(concrete: str) -> tuple[str, str]:
    """(logical name, "chunks-v1-g2") of a public concrete index."""
    parsed = schema.parse_concrete(concrete)
    if parsed is None:
        raise IngestError(f"{concrete!r} is not a legalsearch chunks or docs index")
    name = parsed[0]
    return name, concrete[len(name) + 2:]


def walled_name(concrete: str, groups: tuple[str, ...]) -> str:
    """NAME--chunks-v1-g2 -> NAME--walled-chunks-v1-g2--<hash of the group set>."""
    name, rest = _split(concrete)
    return f"{name}--{WALLED}{rest}--{set_hash(groups)}"


def walled_pattern(concrete: str) -> str:
    """Every walled index of the generation of `concrete` (and of its kind)."""
    name, rest = _split(concrete)
    return f"{name}--{WALLED}{rest}--*"


def with_walls(concrete: str) -> str:
    """`concrete` and every walled index of its generation and kind, as one index expression (a
    wildcard: walls made later count)."""
    return f"{concrete},{walled_pattern(concrete)}"


def wall_indices(found) -> list[str]:
    """The chunks and docs indices of some walls, in order."""
    return [i for w in found for i in (w.chunks, w.docs)]


def all_walled_pattern(name: str) -> str:
    """Every walled index of NAME, all generations and kinds."""
    return f"{name}--{WALLED}*"


def group_alias(name: str, kind: str, group: str) -> str:
    return f"{schema.alias_name(name, kind)}{ACL_ALIAS}{slug(group)}"


def walled_body(kind: str, name: str, dim: int, meta: dict, groups: tuple[str, ...], live: bool) -> dict:
    """A walled index: the public index's mappings, analysis and meta, plus its group set; the
    group aliases only when it belongs to the live generation (a reindex target gets them at the
    swap)."""
    body = schema.index_body(kind, name, dim, {**meta, "acl_groups": list(groups)}, alias=False)
    if live:
        body["aliases"] = {group_alias(name, kind, g): {} for g in groups}
    return body


def aliases_for(name: str, wall: Wall) -> list[tuple[str, str]]:
    """(index, alias) pairs a live wall carries."""
    return [(index, group_alias(name, kind, g)) for kind, index in (("chunks", wall.chunks), ("docs", wall.docs))
            for g in wall.groups]


# --------------------------------------------------------------------------- reading walls


def list_walls(store: Store, chunks: str, docs: str) -> list[Wall]:
    """The walls of the generation of (`chunks`, `docs`), from the walled indices' `_meta`
    (one GET with a filter_path: a thousand walls are a few KB, not their mappings)."""
    found: dict[tuple[str, ...], dict[str, str]] = {}
    # a docs name that is no concrete index (an index without its registry) has no walls of its own
    kinds = (("chunks", chunks), *((("docs", docs),) if schema.parse_concrete(docs) else ()))
    for kind, concrete in kinds:
        for index, groups in _walled_meta(store, walled_pattern(concrete)).items():
            found.setdefault(groups, {})[kind] = index
    return [Wall(v["chunks"], v.get("docs") or v["chunks"].replace(f"--{WALLED}chunks-v", f"--{WALLED}docs-v", 1), g)
            for g, v in sorted(found.items()) if "chunks" in v]


def _walled_meta(store: Store, pattern: str) -> dict[str, tuple[str, ...]]:
    path = f"/{urllib.parse.quote(pattern, safe='*,-_.')}?filter_path=*.mappings._meta.legalsearch.acl_groups" \
           "&allow_no_indices=true&ignore_unavailable=true"
    status, body = store.call("GET", path)
    if status == 403:
        raise PermissionDeniedError(f"no permission to list the walled indices {pattern}")
    if status >= 300:
        return {}
    return {index: tuple(sorted((b.get("mappings", {}).get("_meta", {}).get("legalsearch", {}) or {})
                                .get("acl_groups") or ()))
            for index, b in (body or {}).items()}


MAX_TARGET_CHARS = 3000
"""An index expression longer than this is not sent as it is: OpenSearch refuses a request line
over `http.max_initial_line_length` (4 KB by default; measured: a user in 100 groups lists 101
indices, 5.6 KB, and gets 400 too_long_http_line_exception)."""


def readable(public: str, walls: list[Wall], groups: tuple[str, ...] | None, kind: str) -> str:
    """The index expression a search may read: the public index, plus the walls that share a
    group with `groups` (every wall when `groups` is None: an unrestricted administrator).

    Exactly those indices: as a list, or, when the list is too long, as the generation's wall
    pattern minus the walls left out. Where both exceed `MAX_TARGET_CHARS` (a user in hundreds of
    groups), the wall pattern: the search then opens every wall of the generation, and the
    user's groups inside every sub-query are what keep the others out (docs/security.md)."""
    of = (lambda w: w.chunks) if kind == "chunks" else (lambda w: w.docs)
    picked = [of(w) for w in walls if groups is None or set(w.groups) & set(groups)]
    left = [of(w) for w in walls if not (groups is None or set(w.groups) & set(groups))]
    if not picked:
        return public
    pattern = walled_pattern(public)
    for form in (",".join([public, *picked]), ",".join([public, pattern, *(f"-{i}" for i in left)])):
        if len(form) <= MAX_TARGET_CHARS:
            return form
    return f"{public},{pattern}"


def through_aliases(public: str, groups: tuple[str, ...]) -> str:
    """What a connection as a reader itself (which may not list walls) reads: the public index
    and its groups' live aliases (a wildcard each, so a group without a wall is no error)."""
    parsed = schema.parse_concrete(public)
    if parsed is None:
        return public
    return ",".join([public, *(f"{group_alias(parsed[0], parsed[1], g)}*" for g in groups)])


# --------------------------------------------------------------------------- roles


def group_role_name(group: str) -> str:
    return f"{GROUP_ROLE_PREFIX}{group}"


def group_role(group: str) -> dict:
    """What a group's members may open beyond the reader role: the live walls of its sets."""
    return {
        "description": f"legalsearch {WALLS_ROLES_VERSION}: members of ACL group {group}; the live walled "
                       "indices of their group sets, under the reader's DLS",
        "cluster_permissions": [],
        "index_permissions": [{"index_patterns": [f"*{ACL_ALIAS}{slug(group)}"], "dls": READER_DLS,
                               "allowed_actions": ["read", "indices:admin/get"]}],
    }


def service_role() -> dict:
    return {
        "description": f"legalsearch {WALLS_ROLES_VERSION}: search service; reads the walled indices (with the "
                       "verified groups inside every sub-query)",
        "cluster_permissions": [],
        "index_permissions": [{"index_patterns": [WALLED_CHUNK_PATTERN, WALLED_DOCS_PATTERN],
                               "allowed_actions": ["read", "indices:admin/get"]}],
    }


class WallRoles:
    """Puts the walls' roles and role mappings (admin connection), once per process and group."""

    def __init__(self, store: Store):
        self.store = store
        self.done: set[str] = set()
        self.secured: bool | None = None

    def ensure(self, groups: tuple[str, ...]) -> None:
        if self.secured is None:
            self.secured = self.store.authinfo() is not None
        if not self.secured:  # a cluster without the security plugin has no roles: walls are layout only
            return
        if SERVICE_WALLS_ROLE not in self.done:
            self._put(SERVICE_WALLS_ROLE, service_role(), {"users": [SERVICE_USER]})
            self.done.add(SERVICE_WALLS_ROLE)
        for group in groups:
            if group not in self.done:
                self._put(group_role_name(group), group_role(group), {"backend_roles": [group]})
                self.done.add(group)

    def _put(self, role: str, body: dict, mapping: dict) -> None:
        """Idempotent; a 409 (another writer of the security index at the same moment) is retried."""
        for attempt in range(5):
            try:
                return self._put_once(role, body, mapping)
            except StoreError as e:
                if "HTTP 409" not in str(e) or attempt == 4:
                    raise
                time.sleep(0.2 * (attempt + 1))

    def _put_once(self, role: str, body: dict, mapping: dict) -> None:
        current = self.store.security_api(f"read role {role}", "GET", f"roles/{role}", missing=None)
        if not current or _grants(current.get(role, {})) != _grants(body):
            self.store.security_api(f"write role {role}", "PUT", f"roles/{role}", body)
        mapped = self.store.security_api(f"read role mapping {role}", "GET", f"rolesmapping/{role}", missing=None)
        have = (mapped or {}).get(role, {})
        if sorted(have.get("users") or []) != sorted(mapping.get("users", [])) or \
                sorted(have.get("backend_roles") or []) != sorted(mapping.get("backend_roles", [])):
            self.store.security_api(f"map role {role}", "PUT", f"rolesmapping/{role}",
                                    {"users": [], "backend_roles": [], "hosts": [], **mapping})


def _grants(role: dict) -> tuple:
    return (role.get("description"), tuple((tuple(p.get("index_patterns") or ()), p.get("dls") or "",
                                            tuple(sorted(p.get("allowed_actions") or ())))
                                           for p in role.get("index_permissions") or ()))


# --------------------------------------------------------------------------- kept generations


def seal_kept(store: Store, name: str, live: set[str]) -> list[str]:
    """Block every read of NAME's concrete indices that are not in `live` (kept generations,
    public and walled): an ACL change made in the live generation must not be undone by a
    kept copy, for any client (`index.blocks.read` holds for search, get, mget, explain,
    term vectors, count and validate alike, whatever the role). `index prune` deletes them."""
    sealed = []
    for index, settings in sorted(store.index_settings(f"{name}--*").items()):
        if index in live or not _ours(name, index):
            continue
        if str(settings.get("index.blocks.read")).lower() != "true":
            store.put_settings(index, {"index": {"blocks.read": True}})
            sealed.append(index)
    return sealed


def _ours(name: str, index: str) -> bool:
    parsed = schema.parse_concrete(index)
    if parsed:
        return parsed[0] == name
    prefix = f"{name}--{WALLED}"
    if not index.startswith(prefix):
        return False
    rest, _, tail = index[len(prefix):].rpartition("--")
    return bool(re.fullmatch(r"[0-9a-f]{12}", tail)) and schema.parse_concrete(f"{name}--{rest}") is not None


def generation_of(name: str, index: str) -> str | None:
    """For a walled index of NAME: the public concrete index of its generation and kind
    ("NAME--chunks-v1-g2"); None for any other index."""
    if not _ours(name, index) or schema.parse_concrete(index):
        return None
    return f"{name}--{index[len(f'{name}--{WALLED}'):].rpartition('--')[0]}"


def walled_indices(store: Store, name: str) -> list[str]:
    """Every walled index of NAME (all generations, both kinds)."""
    return sorted(r["index"] for r in store.indices(all_walled_pattern(name)) if generation_of(name, r["index"]))
