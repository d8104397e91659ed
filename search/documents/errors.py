"""Errors of the document-understanding stage.

Both subclass the package-wide :class:`search.errors.LegalSearchError`, so the CLI turns
them into exit code 1. Messages always name the file (and the field, for metadata) and
say what to do next.
"""

from legalsearch.errors import LegalSearchError


class DocumentError(LegalSearchError):
    """A file could not be read, decoded, OCR'd or parsed."""


class MetadataError(DocumentError):
    """A sidecar, manifest entry or metadata field is missing or malformed."""
