"""Abstention through what a client meets: the HTTP API (as an end user) and `legalsearch search
--json`, on the real node, the real e5 model and the sample corpus. An off-topic question comes
back not_found with its hits kept and their relevance low; an answerable one does not; the
context endpoint adds nothing to a prompt when no passage answers."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from legalsearch.query.models import DEFAULT_ABSTAIN

OFF_TOPIC = "best recipe for tiramisu?"
ANSWERABLE = "What is the liability cap in clause 14.3?"


@pytest.fixture(scope="module")
def http(settings, opensearch_url, embedders):
    from fastapi.testclient import TestClient
    from legalsearch import LegalSearch
    from legalsearch.web.app import create_app

    client = LegalSearch(settings.model_copy(update={"log_searches": False}), url=opensearch_url)
    client.embedders = embedders
    with TestClient(create_app(client)) as session:
        yield session


def post(http, people, path: str, **body) -> dict:
    answer = http.post(path, json=body, auth=people["alice"])
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_an_off_topic_question_is_not_found_with_its_hits_kept(http, sample_index, people):
    body = post(http, people, "/v1/search", query=OFF_TOPIC, index=sample_index[0], k=5)
    assert body["not_found"] is True
    assert body["not_found_reason"].startswith("no passage answers: best relevance ")
    assert body["not_found_reason"].endswith(f"< {DEFAULT_ABSTAIN:g}")
    assert len(body["hits"]) == 5  # a RAG app may still show them
    relevances = [h["relevance"] for h in body["hits"]]
    assert all(r is not None and 0.0 <= r < DEFAULT_ABSTAIN for r in relevances), relevances
    # the same search with abstention off: the same hits in the same order, not_found false
    kept = post(http, people, "/v1/search", query=OFF_TOPIC, index=sample_index[0], k=5, abstain=0)
    assert kept["not_found"] is False and kept["not_found_reason"] is None
    assert [h["chunk_id"] for h in kept["hits"]] == [h["chunk_id"] for h in body["hits"]]
    assert [h["relevance"] for h in kept["hits"]] == relevances


def test_an_answerable_question_is_found_and_its_answer_scores_high(http, sample_index, people):
    body = post(http, people, "/v1/search", query=ANSWERABLE, index=sample_index[0], k=5)
    assert body["not_found"] is False and body["not_found_reason"] is None
    top = body["hits"][0]
    assert top["section"] == "14.3" and top["relevance"] >= DEFAULT_ABSTAIN
    retrieved = [h for h in body["hits"] if h["via"] == "retrieval"]
    assert max(h["relevance"] for h in retrieved) == top["relevance"]
    # comparable across questions: the answer scores above every passage of the off-topic question
    off = post(http, people, "/v1/search", query=OFF_TOPIC, index=sample_index[0], k=5)
    assert top["relevance"] > max(h["relevance"] for h in off["hits"])


def test_the_context_adds_nothing_to_the_prompt_when_no_passage_answers(http, sample_index, people):
    off = post(http, people, "/v1/context", query=OFF_TOPIC, index=sample_index[0], budget=2000)
    assert off["not_found"] is True and off["pieces"] == [] and off["prompt"] == "" and off["used_chars"] == 0
    assert off["not_found_reason"].startswith("no passage answers: best relevance ")
    found = post(http, people, "/v1/context", query=ANSWERABLE, index=sample_index[0], budget=2000)
    assert found["not_found"] is False and found["pieces"] and "14.3" in found["prompt"]


def test_the_cli_says_it_plainly_and_its_json_carries_relevance(sample_index, opensearch_url, monkeypatch):
    from legalsearch import cli

    monkeypatch.setenv("OPENSEARCH_URL", opensearch_url)
    monkeypatch.setenv("LEGALSEARCH_LOG_SEARCHES", "false")
    result = CliRunner().invoke(cli.main, ["search", OFF_TOPIC, "--index", sample_index[0], "-k", "3"])
    assert result.exit_code == 0, result.output
    assert "not found: no passage answers: best relevance" in result.output
    assert "nothing in the index answers this question" in result.output
    result = CliRunner().invoke(cli.main, ["search", ANSWERABLE, "--index", sample_index[0], "-k", "3", "--json"])
    data = json.loads(result.output)
    assert data["not_found"] is False and all("relevance" in h for h in data["hits"])
    assert "relevance_features" not in data["hits"][0]  # the contract carries the probability, not the features
