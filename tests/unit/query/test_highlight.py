"""The engine's highlight marks turned into offsets (legalsearch.query.highlight), pure logic."""

from legalsearch.query.highlight import CLOSE, OPEN, field_of, highlight_query, spans_of


def test_marks_become_offsets_in_the_text():
    text = "14.3 The total liability of each party"
    marked = f"{OPEN}14.3{CLOSE} {OPEN}The{CLOSE} total {OPEN}liability{CLOSE} of each party"
    assert spans_of(marked, text) == [(0, 4), (5, 8), (15, 24)]
    assert [text[s:e] for s, e in spans_of(marked, text, frozenset({"the"}))] == ["14.3", "liability"]


def test_a_value_that_is_not_the_text_gives_none():
    assert spans_of(f"{OPEN}cap{CLOSE}", "capped") is None
    assert spans_of("no marks here", "no marks here") == []
    assert spans_of(f"{OPEN}{CLOSE}x", "x") == []  # an empty mark marks nothing


def test_field_by_language_and_the_lexical_lists_only():
    assert field_of("it") == "text.it" and field_of("en") == "text" and field_of(None) == "text"
    body = {"query": {"hybrid": {"queries": [{"match": {"text": "a"}}, {"knn": {}}, {"match": {"section": "1"}},
                                             {"match": {"doc_title": "t"}}]}}}
    query = highlight_query(("bm25", "knn", "identifier", "title"), body, "q")
    assert query == {"bool": {"should": [{"match": {"text": "a"}}, {"match": {"section": "1"}}]}}
    # a k-NN-only search: the question over the text fields
    knn_only = highlight_query(("knn",), {"query": {"knn": {}}}, "liability cap")
    assert knn_only["bool"]["should"][0]["multi_match"]["query"] == "liability cap"
