"""Security over the OpenSearch security plugin (docs/security.md), in one place:

    roles       the legalsearch accounts and roles (pure data)
    secrets     the local node's passwords and salt, in its secrets folder
    pki         the local node's CA and certificates
    plugin      the local node's plugin settings and configuration files, and the admin-certificate
                calls that bring the roles up to date
    principal   whom a search runs for, and which ACL groups it may read
    admin       users and groups over the plugin's REST API

The local node's lifecycle (`search.node`) and the store's connection use the first four;
`principal` and `admin` work through the `Store` they are handed (they never import it), so the
whole package sits below the node and the store.
"""
