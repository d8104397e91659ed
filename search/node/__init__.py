"""A local OpenSearch node without Docker: `artifacts` (Maven coordinates and downloads),
`assembly` (install the distribution), `process` (start, stop, state of the single node; the
per-node opensearch.yml), `cluster` (a local cluster of N nodes of the same distribution),
`probe` (health over HTTP), `ml` (ml-commons settings, remote models). Its security (TLS,
secrets, the plugin's configuration) is `search.security`; its embedding server `search.embedserver`;
the node and the server started together `search.engine.lifecycle`."""
