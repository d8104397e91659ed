"""The search service: legalsearch over HTTP (`legalsearch serve`), so that any client (curl, a
browser's `fetch`, a Java or TypeScript service) gets the same ranking the Python API and
`legalsearch search --json` give, not the reduced one of the stored templates (docs/engine.md).

It sits at the level of the CLI, above `legalsearch.client`: every request is one call of a
`LegalSearch` client made for the verified caller (`as_user`), and every body is one of the
models the Python API returns (docs/service.md).
"""
