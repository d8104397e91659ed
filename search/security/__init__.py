"""Security over the OpenSearch security plugin (docs/security.md): who a search runs for
(`principal`) and the administration of users and groups (`admin`). The node side (TLS, secrets,
role definitions) is `search.node.security`."""
