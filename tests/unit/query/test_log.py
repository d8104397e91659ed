"""The retrieval log's mapping is strict: every field a search record can carry must be mapped, or
OpenSearch refuses the record (the log then goes unwritten, with a warning)."""

from __future__ import annotations

import re
from pathlib import Path

from legalsearch.index import schema

QUERY = Path(__file__).resolve().parents[3] / "search" / "query"


def test_every_timing_the_query_side_records_is_mapped_in_the_log():
    written = {m for path in QUERY.glob("*.py") for m in re.findall(r'timings\["(\w+)"\]', path.read_text())}
    assert {"embed", "embed_focused", "routing", "search", "total"} <= written  # the scan finds them
    mapped = schema.log_index_body()["mappings"]["properties"]["took_ms"]["properties"]
    assert written <= set(mapped), sorted(written - set(mapped))
