"""The retrievers' shared logic: metadata filter dicts onto request options, and the hits a
retriever returns (exactly the retrieved ones, cited passages in their metadata)."""

from __future__ import annotations

import pytest
from legalsearch.errors import QueryError
from legalsearch.integrations import filter_options, results, search_options
from legalsearch.query.models import Hit


def test_filter_values_scalars_lists_and_operators_map_onto_the_request_fields():
    assert filter_options({"doc_id": "a", "doc_types": ["statute", "nda"], "language": {"$in": ["it"]},
                           "group": {"$eq": "litigation-team"}, "as_of": "2025-06-01"}) == {
        "doc_ids": ("a",), "doc_types": ("statute", "nda"), "languages": ("it",), "groups": ("litigation-team",),
        "as_of": "2025-06-01"}
    assert filter_options({"doc_id": "a", "doc_ids": ["b", "a"]}) == {"doc_ids": ("a", "b")}
    assert filter_options(None) == {}


@pytest.mark.parametrize(("bad", "message"), [
    ({"author": "x"}, "unknown filter key 'author'; accepted keys: as_of, doc_id, doc_ids, doc_type"),
    ({"doc_id": {"$ne": "x"}}, "only a value, a list"),
    ({"doc_id": {"$in": "x"}}, r"\$in takes a list"),
    ({"as_of": ["2025-01-01", "2026-01-01"]}, "takes one date"),
])
def test_a_filter_we_cannot_apply_is_an_error_not_ignored(bad, message):
    with pytest.raises(QueryError, match=message):
        filter_options(bad)


def test_the_call_overrides_the_defaults_and_both_may_carry_a_filter():
    options = search_options({"k": 3, "filter": {"doc_id": "a"}}, {"k": 5, "filter": {"jurisdiction": "UK"}})
    assert options == {"k": 5, "doc_ids": ("a",), "jurisdictions": ("UK",)}


def _hit(rank, chunk_id, via="retrieval", score=None):
    return Hit(rank=rank, chunk_id=chunk_id, doc_id="d", doc_title="D", version="1", char_start=0, char_end=4,
               text=f"text of {chunk_id}", citation=f"D {chunk_id}", via=via, score=score, fused_score=score)


def test_retrievers_return_the_retrieved_hits_with_their_cited_passages_in_metadata():
    hits = [_hit(1, "a", score=0.9), _hit(2, "b", score=0.5), _hit(3, "x", "xref:a"), _hit(4, "y", "definition:b")]
    plain = results(hits, include_xrefs=False)
    assert [h.chunk_id for h, _ in plain] == ["a", "b"]
    assert [[x["chunk_id"] for x in meta["xrefs"]] for _, meta in plain] == [["x"], ["y"]]
    assert plain[0][1]["score"] == 0.9 and plain[0][1]["xrefs"][0]["text"] == "text of x"
    assert "text" not in plain[0][1]
    extra = results(hits, include_xrefs=True)
    assert [h.chunk_id for h, _ in extra] == ["a", "b", "x", "y"] and "xrefs" not in extra[2][1]
