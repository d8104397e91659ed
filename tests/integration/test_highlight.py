"""The matched words of each hit (`highlight`): OpenSearch `highlight` on the chunk text, turned
into offsets in the hit's text, on the real node and the sample corpus."""

from __future__ import annotations

import re

from legalsearch.query.models import SearchRequest
from legalsearch.query.plan import function_words


def _words(hit) -> list[str]:
    return [hit.text[s:e] for s, e in hit.highlights]


def test_highlights_are_offsets_of_the_questions_words(service, sample_index):
    index = sample_index[0]
    response = service.search(SearchRequest(query="What is the liability cap in clause 14.3?", index=index, k=5,
                                            highlight=True))
    top = response.hits[0]
    assert top.section == "14.3"
    words = [w.lower() for w in _words(top)]
    # the analysed question's words, in the passage, at the offsets given
    assert "liability" in words and "14.3" in words
    stop = function_words()
    for hit in response.hits:
        for start, end in hit.highlights:
            assert 0 <= start < end <= len(hit.text)
            assert hit.text[start:end].strip() == hit.text[start:end]
            assert hit.text[start:end].lower() not in stop  # "the", "in", "is" are never marked
        assert hit.highlights == sorted(hit.highlights)
    assert response.timings_ms["highlight"] >= 0
    # without the option: no highlights, and the same ranking
    plain = service.search(SearchRequest(query="What is the liability cap in clause 14.3?", index=index, k=5))
    assert [h.chunk_id for h in plain.hits] == [h.chunk_id for h in response.hits]
    assert all(h.highlights == [] for h in plain.hits) and "highlight" not in plain.timings_ms


def test_italian_passages_are_highlighted_with_italian_analysis(service, sample_index):
    index = sample_index[0]
    response = service.search(SearchRequest(query="Quale penale è prevista per il ritardo nella consegna?",
                                            index=index, k=3, highlight=True))
    italian = [h for h in response.hits if h.language == "it" and h.via == "retrieval"]
    assert italian
    # legal_it stems "penale" / "penali" alike: the plural in the text is marked for the singular asked
    marked = {w.lower() for h in italian for w in _words(h)}
    assert any(re.fullmatch(r"penal[ei]", w) for w in marked), marked
    assert not marked & {"il", "per", "è", "nella"}
