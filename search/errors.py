"""One small error hierarchy for the whole package, and the warnings said once per process.

Every error says what happened and what to do next; the CLI turns them into exit code 1.
"""

import logging

log = logging.getLogger(__name__)
_warned: set[str] = set()


def warn_once(key: str, message: str) -> None:
    """Log `message` as a warning the first time `key` is seen in this process (an unsecured
    cluster, TLS verification off): said once, not on every request."""
    if key not in _warned:
        _warned.add(key)
        log.warning(message)


class LegalSearchError(Exception):
    """Base class of every error legalsearch raises on purpose."""


class ConfigError(LegalSearchError):
    """A setting is missing or malformed."""


class NodeError(LegalSearchError):
    """The local OpenSearch node could not be installed, started or reached."""


class StoreError(LegalSearchError):
    """OpenSearch answered with an error (wrapped at the client edge)."""


class BulkError(StoreError):
    """Some items of a bulk request failed; carries the failing ids and, per item, the node's
    answer (`store.opensearch.refusal`: id, index, status, type, reason)."""

    def __init__(self, message: str, failed_ids: list[str], errors: list[dict]):
        super().__init__(message)
        self.failed_ids = failed_ids
        self.errors = errors


class IngestError(LegalSearchError):
    """A document could not be ingested."""


class EmbedError(LegalSearchError):
    """An embedding endpoint failed (after its retries) or answered something unusable (wrong
    dimensions, wrong count): the run stops before anything of the batch is written."""


class NotFoundError(LegalSearchError):
    """What was asked for does not exist, or not for this caller (an index, a document): the
    service answers 404."""


class QueryError(LegalSearchError):
    """A search request is malformed (bad date, unknown mode, ...)."""


class TLSError(NodeError):
    """The TLS handshake failed: an untrusted CA, an expired or wrong-host certificate."""


class AuthenticationError(StoreError):
    """OpenSearch did not accept the credentials (HTTP 401: wrong password or unknown user)."""


class PermissionDeniedError(StoreError):
    """The authenticated user lacks a permission (HTTP 403)."""


class SecurityError(LegalSearchError):
    """A security setting or request is invalid (a bad group name, a cluster without the plugin)."""


class ModelError(StoreError):
    """An embedding model inside OpenSearch (ml-commons: connector, remote model, the embedding
    server it calls) could not be registered, deployed or called."""
