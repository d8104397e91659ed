"""Planning decisions that need no node: the BM25 text of a long question."""

from __future__ import annotations

from search.query.plan import MAX_BM25_WORDS, bm25_text


def test_an_ordinary_question_is_searched_as_it_is():
    question = "What is the liability cap in clause 14.3 of the MSA with Northwind?"
    assert bm25_text(question) == (question, None)


def test_a_long_question_keeps_its_first_distinct_words_within_the_clause_budget():
    words = [f"term{i}" for i in range(400)]
    question = "liability cap clause 14.3 " + " ".join(words + words)  # ~6,000 characters, words repeated
    assert len(question) > 5000
    text, warning = bm25_text(question)
    kept = text.split()
    assert len(kept) <= MAX_BM25_WORDS and len(set(k.lower() for k in kept)) == len(kept)
    assert kept[:4] == ["liability", "cap", "clause", "14.3"]  # identifiers stay whole
    assert warning and "BM25 searched its first" in warning and str(len(question)) in warning
    # 8 BM25 fields (9 for routing) x the words kept stay under Lucene's 1024 clauses
    assert 9 * sum(max(1, len(k.split("."))) for k in kept) <= 1024
