"""The second stage's arithmetic: blending reranker and fused scores, ensembles, bad names."""

from __future__ import annotations

import numpy as np
import pytest
from legalsearch.errors import ConfigError
from legalsearch.query.rerank import EmbedderRescorer, EnsembleRescorer, Rerankers, clause_text, rerank


class Fixed:
    """A scorer with given scores (the arithmetic under test is the blend, not a model)."""

    def __init__(self, name, scores):
        self.name, self._scores = name, scores

    def score(self, query, sources):
        return list(self._scores)


SOURCES = [{"chunk_id": c} for c in "abcd"]


def ids(ranked):
    return [s["chunk_id"] for s, _ in ranked]


def test_weight_one_orders_by_the_reranker_alone_and_ties_keep_the_first_stage_order():
    ranked, _ = rerank(Fixed("x", [0.1, 0.9, 0.9, 0.5]), "q", SOURCES, [4, 3, 2, 1], 1.0)
    assert ids(ranked) == ["b", "c", "d", "a"]
    assert [score for _, score in ranked] == [0.9, 0.9, 0.5, 0.1]


def test_a_blend_min_max_normalises_both_scales():
    # fused 10, 9, 0, 5 -> 1, .9, 0, .5; reranker 0, 1, .8, .2 (already 0..1) -> at 0.5 each:
    # a .5, b .95, c .4, d .35
    ranked, _ = rerank(Fixed("x", [0.0, 1.0, 0.8, 0.2]), "q", SOURCES, [10, 9, 0, 5], 0.5)
    assert ids(ranked) == ["b", "a", "c", "d"]
    # a reranker on another scale (x100) blends the same way
    ranked100, _ = rerank(Fixed("x", [0.0, 100.0, 80.0, 20.0]), "q", SOURCES, [10, 9, 0, 5], 0.5)
    assert ids(ranked100) == ids(ranked)
    # a small share leaves the fused order; the score shown stays the reranker's
    ranked, _ = rerank(Fixed("x", [0.0, 1.0, 0.8, 0.2]), "q", SOURCES, [10, 9, 0, 5], 0.05)
    assert ids(ranked) == ["a", "b", "d", "c"] and ranked[0][1] == 0.0


def test_an_ensemble_gives_its_members_equal_shares():
    ensemble = EnsembleRescorer([Fixed("e5", [1.0, 0.0, 0.5, 0.0]), Fixed("clause", [0.0, 10.0, 5.0, 0.0])])
    assert ensemble.name == "e5+clause"
    ranked, _ = rerank(ensemble, "q", SOURCES, [0, 0, 0, 1], 0.6)
    # members normalised: (1, 0, .5, 0) and (0, 1, .5, 0); fused (0, 0, 0, 1)
    # a .3, b .3, c .3, d .4 -> d first, then a, b, c in first-stage order
    assert ids(ranked) == ["d", "a", "b", "c"]
    assert [s for _, s in ranked][0] == pytest.approx(0.0)  # d: the mean of its raw member scores
    assert ensemble.score("q", SOURCES) == pytest.approx([0.5, 5.0, 2.75, 0.0])


def test_mismatched_first_stage_scores_are_refused():
    with pytest.raises(ValueError, match="3 first-stage scores for 4 sources"):
        rerank(Fixed("x", [1, 2, 3, 4]), "q", SOURCES, [1, 2, 3], 0.5)


def test_clause_text_leaves_the_summary_out():
    source = {"summary": "NDA between A and B", "heading_path": ["5 Term", "5.1"], "text": "Two years."}
    assert clause_text(source) == "5 Term > 5.1\nTwo years."
    assert clause_text({"text": "Only text."}) == "Only text."


def test_unknown_or_incomplete_rerankers_are_config_errors():
    rerankers = Rerankers(embedders=None)
    with pytest.raises(ConfigError, match="unknown reranker 'bm25'"):
        rerankers.get("bm25")
    with pytest.raises(ConfigError, match="unknown reranker 'e5\\+cross-encoder'"):
        rerankers.get("e5+cross-encoder")
    with pytest.raises(ConfigError, match="needs the index's metadata"):
        rerankers.get("clause")


def test_neighbours_lift_the_chunk_next_to_a_likely_one():
    # b sits right after a (the best) in doc D; c is as good as b but alone in doc E
    sources = [
        {"chunk_id": "a", "doc_id": "D", "char_start": 0, "char_end": 100},
        {"chunk_id": "c", "doc_id": "E", "char_start": 101, "char_end": 200},
        {"chunk_id": "b", "doc_id": "D", "char_start": 101, "char_end": 200},
        {"chunk_id": "d", "doc_id": "D", "char_start": 500, "char_end": 600},
    ]
    plain, _ = rerank(Fixed("x", [1.0, 0.5, 0.5, 0.0]), "q", sources, None, 1.0)
    assert ids(plain) == ["a", "c", "b", "d"]
    lifted, _ = rerank(Fixed("x", [1.0, 0.5, 0.5, 0.0]), "q", sources, None, 1.0, neighbours=0.2)
    # a: 1 + .2 x .5 (b); b: .5 + .2 x 1 (a); c: .5 (E has no neighbour); d: 0 (500 is no neighbour)
    assert ids(lifted) == ["a", "b", "c", "d"]
    assert [s for _, s in lifted] == [1.0, 0.5, 0.5, 0.0]  # the reranker's own scores


def test_a_lexical_share_is_taken_from_the_fused_share():
    # reranker (1, 0, 0, 0); lexical BM25 (0, 0, 4, 2) -> (0, 0, 1, .5); fused (0, 1, 0, 0)
    # at weight .5 and lexical .3 (fused .2): a .5, b .2, c .3, d .15
    ranked, _ = rerank(Fixed("x", [1.0, 0.0, 0.0, 0.0]), "q", SOURCES, [0, 1, 0, 0], 0.5,
                       lexical=[0.0, 0.0, 4.0, 2.0], lexical_weight=0.3)
    assert ids(ranked) == ["a", "c", "b", "d"]
    assert [s for _, s in ranked] == [1.0, 0.0, 0.0, 0.0]  # the score shown stays the reranker's
    # no lexical scores, or a zero share: the two-way blend exactly
    two_way, _ = rerank(Fixed("x", [1.0, 0.0, 0.0, 0.0]), "q", SOURCES, [0, 1, 0, 0], 0.5)
    assert ids(rerank(Fixed("x", [1.0, 0.0, 0.0, 0.0]), "q", SOURCES, [0, 1, 0, 0], 0.5, lexical=None,
                      lexical_weight=0.3)[0]) == ids(two_way) == ["a", "b", "c", "d"]
    assert ids(rerank(Fixed("x", [1.0, 0.0, 0.0, 0.0]), "q", SOURCES, [0, 1, 0, 0], 0.5,
                      lexical=[0.0, 0.0, 4.0, 2.0], lexical_weight=0.0)[0]) == ids(two_way)


def test_lexical_shares_that_leave_nothing_coherent_are_refused():
    with pytest.raises(ValueError, match="exceed 1"):
        rerank(Fixed("x", [1, 2, 3, 4]), "q", SOURCES, [1, 2, 3, 4], 0.9, lexical=[1, 2, 3, 4], lexical_weight=0.2)
    with pytest.raises(ValueError, match="3 lexical scores for 4 sources"):
        rerank(Fixed("x", [1, 2, 3, 4]), "q", SOURCES, [1, 2, 3, 4], 0.5, lexical=[1, 2, 3], lexical_weight=0.2)


class Counting:
    """An embedder that embeds each text as its length along one axis, and counts the questions."""

    cache_key = "counting"

    def __init__(self):
        self.questions = 0

    def embed_query(self, text):
        self.questions += 1
        return np.array([1.0, 0.0], dtype=np.float32)

    def embed_passages(self, texts):
        return np.array([[float(len(t)), 1.0] for t in texts], dtype=np.float32)


def test_a_bi_encoder_reads_the_search_s_own_question_vector_instead_of_embedding_it_again():
    embedder = Counting()
    rescorer = EmbedderRescorer("clause", embedder, lambda s: s["text"])
    sources = [{"chunk_id": "a", "text": "abc"}, {"chunk_id": "b", "text": "abcdef"}]
    fresh = rescorer.score("q", sources)
    assert embedder.questions == 1
    known = (embedder, "q", [1.0, 0.0])
    assert rescorer.score("q", sources, known) == fresh and embedder.questions == 1  # not embedded again
    # another text, or another embedder's vector: embedded as before
    rescorer.score("other question", sources, known)
    rescorer.score("q", sources, (Counting(), "q", [1.0, 0.0]))
    assert embedder.questions == 3
    ranked, _ = rerank(rescorer, "q", sources, known=known)
    assert ids(ranked) == ["b", "a"] and embedder.questions == 3
