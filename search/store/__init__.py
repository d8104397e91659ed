"""The store: the one package that talks to OpenSearch.

    opensearch   the adapter (`OpenSearchStore`, `Connection`): the only module that imports opensearch-py
    connection   where and as whom to connect: OPENSEARCH_URL and its credentials, or the local node's
    hints        what an OpenSearch error means and what to do next (pure)

`Store` is the adapter connected as the settings say; it is built once where a command starts
(the `LegalSearch` client) and handed down.
"""

from __future__ import annotations

from functools import partial

from legalsearch.config import Settings
from legalsearch.store.connection import connection, resolve_url
from legalsearch.store.opensearch import BulkStats, Connection, Identity, OpenSearchStore, msearch_error


class Store(OpenSearchStore):
    """An OpenSearch client connected to `url` (default: OPENSEARCH_URL, else the local node).

    `identity` picks the local node's account when no credentials are configured: "admin"
    (ingest, index admin), "service" (searches for a verified end user) or "admin-certificate"."""

    def __init__(self, settings: Settings, url: str | None = None, identity: Identity = "admin"):
        super().__init__(settings, partial(connection, settings, url, identity))
        self.identity = identity


__all__ = ["BulkStats", "Connection", "Identity", "OpenSearchStore", "Store", "connection", "msearch_error", "resolve_url"]
