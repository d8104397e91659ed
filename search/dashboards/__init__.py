"""OpenSearch Dashboards saved objects: `fields` (index-pattern fields from a mapping), `objects`
(the saved-object builders and NDJSON export), `checks` (which fields the objects use)."""

from legalsearch.dashboards.checks import aggregated_fields, referenced_fields
from legalsearch.dashboards.fields import FieldSpec, dashboards_type, mapping_fields
from legalsearch.dashboards.objects import (
    DEFAULT_CHUNKS_ALIAS,
    DEFAULT_LOG_INDEX,
    MIGRATION_VERSIONS,
    saved_objects,
    to_ndjson,
    write_ndjson,
)

__all__ = [
    "DEFAULT_CHUNKS_ALIAS", "DEFAULT_LOG_INDEX", "MIGRATION_VERSIONS", "FieldSpec", "aggregated_fields", "dashboards_type",
    "mapping_fields", "referenced_fields", "saved_objects", "to_ndjson", "write_ndjson",
]
