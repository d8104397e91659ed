"""A local OpenSearch node without Docker: `artifacts` (Maven coordinates and downloads),
`assembly` (install the distribution), `process` (start, stop, state), `probe` (health over HTTP)."""
