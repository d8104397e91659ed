import pytest
from legalsearch.errors import QueryError
from legalsearch.query import fusion


def test_rrf_rank_constant_sits_inside_parameters():
    body = fusion.rrf_pipeline_body(40)
    processor = body["phase_results_processors"][0]["score-ranker-processor"]
    assert processor["combination"] == {"technique": "rrf", "parameters": {"rank_constant": 40}}
    assert fusion.rrf_pipeline_name(40) == "legalsearch-rrf-v1-k40"


def test_normalization_weights_named_and_checked():
    body = fusion.normalization_pipeline_body("l2", (0.3, 0.7))
    processor = body["phase_results_processors"][0]["normalization-processor"]
    assert processor["normalization"] == {"technique": "l2"}
    assert processor["combination"]["parameters"]["weights"] == [0.3, 0.7]
    assert fusion.normalization_pipeline_name("l2", (0.3, 0.7)) == "legalsearch-norm-v1-l2-030-070"


@pytest.mark.parametrize("weights", [(0.5, 0.6), (1.2, -0.2), (1.0,)])
def test_bad_weights(weights):
    with pytest.raises(QueryError):
        fusion.normalization_pipeline_body("min_max", weights)


def test_bad_technique_and_rank_constant():
    with pytest.raises(QueryError):
        fusion.normalization_pipeline_body("z_score", (0.5, 0.5))
    with pytest.raises(QueryError):
        fusion.rrf_pipeline_body(0)


@pytest.mark.parametrize(
    ("kinds", "title_weight", "expected"),
    [
        (("bm25", "knn"), 0.0, (0.3, 0.7)),
        (("bm25", "knn", "identifier"), 0.0, (0.15, 0.35, 0.5)),
        (("bm25", "knn", "title"), 0.3, (0.21, 0.49, 0.3)),  # 0.3 x 0.7, 0.7 x 0.7, 0.3
        (("bm25", "knn", "identifier", "title"), 0.2, (0.09, 0.21, 0.5, 0.2)),  # 0.3 x 0.3, 0.7 x 0.3
        (("knn",), 0.0, (1.0,)),
    ],
)
def test_list_weights(kinds, title_weight, expected):
    weights = fusion.list_weights(kinds, (0.3, 0.7), title_weight)
    assert weights == pytest.approx(expected)
    assert sum(weights) == pytest.approx(1.0)


def test_pipeline_names_keep_two_places_unless_more_are_needed():
    assert fusion.pipeline_for("normalization", 60, "min_max", (0.3, 0.7), ("bm25", "knn"))[0] == (
        "legalsearch-norm-v1-minmax-030-070")
    name, _ = fusion.pipeline_for("normalization", 60, "min_max", (0.3, 0.7), ("bm25", "knn", "title"), 0.25)
    assert name == "legalsearch-norm-v1-minmax-02250-05250-02500"


def test_the_engine_default_pipeline_weighs_three_lists_as_a_cited_section_query():
    from legalsearch.engine.install import search_pipeline_body

    body = search_pipeline_body("MODEL")
    weights = body["phase_results_processors"][0]["normalization-processor"]["combination"]["parameters"]["weights"]
    assert weights == [0.15, 0.35, 0.5]
