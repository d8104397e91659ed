"""The legalsearch accounts and roles on the security plugin (docs/security.md): pure data, written
to the node by `search.security.plugin` (first start, `bootstrap`) and to an external cluster by
`search.security.admin.init`.

The roles (`roles()`):
- `legalsearch_reader`: end users. Read the chunk and docs indices under document-level
  security: public chunks plus those whose `acl` names one of the user's backend roles
  (`${user.roles}`), whichever client asks (Dashboards, curl, aggregations). No retrieval log.
- `legalsearch_service`: the search service. No DLS (a `hybrid` query cannot run under DLS on
  2.19: neural-search #1303); it applies the groups the plugin verified for the end user inside
  every sub-query. It writes the retrieval log but cannot read it.
- `legalsearch_auditor`: reads the retrieval log and the security plugin's audit log, nothing else.
"""

from __future__ import annotations

ADMIN_USER = "admin"
SERVICE_USER = "legalsearch-service"
READER_ROLE = "legalsearch_reader"
SERVICE_ROLE = "legalsearch_service"
AUDITOR_ROLE = "legalsearch_auditor"
GROUP_ROLE_PREFIX = "legalsearch_acl_"
"""The role of each ACL group's walls is this prefix + the group (legalsearch.index.walls)."""
ROLES_VERSION = "v4"  # bump when a role body changes: `bootstrap` then rewrites it on every node
PLUGIN = "opensearch-security"
CHUNK_PATTERN = "*--chunks-v*"
# The plugin's audit log (search.security.plugin.audit_config): one index a day, read by the
# auditor role only
AUDIT_INDEX_PATTERN = "legalsearch-audit-*"
DOCS_PATTERN = "*--docs-v*"
WALLED_CHUNK_PATTERN = "*--walled-chunks-v*"
WALLED_DOCS_PATTERN = "*--walled-docs-v*"
"""The walled indices (legalsearch.index.walls): restricted text, outside the reader's patterns."""

# Embedding a question inside OpenSearch (`neural` queries, the stored templates; docs/engine.md) is
# an ml-commons predict call made as the searching user. Only predict: registering, deploying or
# changing models and connectors stays with the admin.
ML_PREDICT = "cluster:admin/opensearch/ml/predict"

# `${user.roles}` expands to the user's backend roles, each double-quoted, comma-separated
# ("g1","g2"), or to nothing (`[]`: public chunks only). The plugin pastes them in UNESCAPED,
# which is why group names are restricted to [A-Za-z0-9._-] (search.security.admin).
READER_DLS = ('{"bool":{"should":[{"term":{"public":true}},{"terms":{"acl":[${user.roles}]}}],'
              '"minimum_should_match":1}}')


def roles(log_index: str) -> dict[str, dict]:
    """The three role bodies (PUT /_plugins/_security/api/roles/<name>)."""
    logs = [log_index, f"{log_index}-*"]
    return {
        READER_ROLE: {
            "description": f"legalsearch {ROLES_VERSION}: end user; chunks and docs under ACL document-level "
                           "security; no retrieval log",
            # security:obo/create: a reader may ask the node for a bearer token of its own (docs/service.md)
            "cluster_permissions": ["cluster_composite_ops_ro", "cluster:admin/search/pipeline/get", ML_PREDICT,
                                    "security:obo/create"],
            "index_permissions": [{
                "index_patterns": [CHUNK_PATTERN, DOCS_PATTERN],
                "dls": READER_DLS,
                "allowed_actions": ["read", "indices:admin/get"],  # admin/get: the index _meta (embedder)
            }],
        },
        SERVICE_ROLE: {
            "description": f"legalsearch {ROLES_VERSION}: search service; hybrid search with the end user's "
                           "verified groups inside every sub-query; writes (cannot read) the retrieval log",
            "cluster_permissions": [
                "cluster_composite_ops_ro",             # msearch / mget / scroll
                "cluster:admin/search/pipeline/get",    # fusion pipelines are looked up before a search...
                "cluster:admin/search/pipeline/put",    # ...and created for new weights (not secret)
                "indices:data/write/bulk",              # a single-document index() is checked as a bulk
                ML_PREDICT,                             # `neural` sub-queries (--embedding engine)
            ],
            "index_permissions": [
                {"index_patterns": [CHUNK_PATTERN, DOCS_PATTERN], "allowed_actions": ["read", "indices:admin/get"]},
                {"index_patterns": logs, "allowed_actions": [
                    "indices:admin/get", "indices:admin/create", "indices:admin/mapping/put",
                    "indices:data/write/index", "indices:data/write/bulk[s]",
                ]},
            ],
        },
        AUDITOR_ROLE: {
            "description": f"legalsearch {ROLES_VERSION}: auditor; reads the retrieval log and the security audit "
                           "log only",
            "cluster_permissions": ["cluster_composite_ops_ro"],
            "index_permissions": [{"index_patterns": [*logs, AUDIT_INDEX_PATTERN],
                                   "allowed_actions": ["read", "indices:admin/get"]}],
        },
    }
