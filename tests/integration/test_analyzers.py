"""The legal analyzers through the real node's _analyze (the tokens OpenSearch really indexes)."""

from __future__ import annotations

import pytest
from legalsearch.index import schema


@pytest.fixture(scope="module")
def analysis_index(store):
    name = "test-analyzers-legal"
    store.delete_index(name)
    store.create_index(name, {"settings": {"index": {"analysis": schema.analysis_settings()}}})
    yield name
    store.delete_index(name)


@pytest.mark.parametrize(
    ("analyzer", "text", "tokens"),
    [
        ("legal_en", "clause 14.3 terminated", ["claus", "14.3", "termin"]),
        ("legal_en", "s.21A notices", ["s", "21a", "notic"]),
        ("legal_en", "section 1.2.3(a)", ["section", "1.2.3"]),  # "a" is an English stopword
        ("legal_it", "art. 1341 c.c.", ["art", "1341", "c.c"]),
        ("legal_it", "comma 1-bis dell'art. 5", ["comma", "1bis", "art", "5"]),
        ("legal_it", "salvo quanto previsto all'art. 7", ["salvo", "previst", "art", "7"]),
        ("legal_it", "Allegato B", ["allegat", "b"]),
        ("legal_exact", "Allegato B", ["allegato", "b"]),
        ("legal_exact", "all’art. 7 comma 2-ter", ["all", "art", "7", "comma", "2ter"]),
    ],
)
def test_legal_tokens(store, analysis_index, analyzer, text, tokens):
    assert store.analyze({"analyzer": analyzer, "text": text}, index=analysis_index) == tokens
