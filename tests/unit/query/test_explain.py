"""`explain`'s depth is checked before anything runs: a clear QueryError naming the limit, never the
engine's raw "Result window is too large"."""

from __future__ import annotations

import pytest
from legalsearch.errors import QueryError
from legalsearch.query.explain import MAX_DEPTH, explain
from legalsearch.query.models import SearchRequest


@pytest.mark.parametrize("depth", [0, -5, MAX_DEPTH + 1, 100_000])
def test_an_explain_depth_out_of_range_names_the_limit(depth):
    with pytest.raises(QueryError, match=f"between 1 and {MAX_DEPTH} \\(got {depth}\\)"):
        explain(None, SearchRequest(query="notice period"), depth=depth)  # no service: it fails before the search
