"""The node side of the engine: ml-commons settings and connector bodies (pure), and an embedding
server switched off (the real server process: tests/integration/test_embedding_server_process.py)."""

from __future__ import annotations

import pytest
from legalsearch import embedserver
from legalsearch.config import Settings
from legalsearch.node import ml


def test_our_endpoint_replaces_an_older_one_of_ours_and_keeps_the_others():
    old = ml.endpoint_regex("http://127.0.0.1:8720/v1/embeddings")
    cloud = "^https://api\\.openai\\.com/.*$"
    persistent = ml.cluster_settings("http://127.0.0.1:8721", [cloud, old])["persistent"]
    assert persistent["plugins.ml_commons.trusted_connector_endpoints_regex"] == [
        cloud, "^http://127\\.0\\.0\\.1:8721/v1/embeddings$"]
    assert persistent["plugins.ml_commons.connector.private_ip_enabled"] is True
    remote = ml.cluster_settings("https://embed.example.org", [])["persistent"]
    assert "plugins.ml_commons.connector.private_ip_enabled" not in remote  # not switched on for nothing


def test_connectors_name_the_served_model_and_a_timeout_per_side():
    query, passage = (ml.RemoteModel("e5", side, "http://127.0.0.1:8720") for side in ml.SIDES)
    assert (query.name, query.served) == ("legalsearch-e5-query-v1", "e5-query")
    body = ml.connector_body(passage)
    assert body["actions"][0]["url"] == "http://127.0.0.1:8720/v1/embeddings"
    assert body["parameters"] == {"model": "e5-passage"}
    assert (ml.connector_body(query)["client_config"]["read_timeout"], body["client_config"]["read_timeout"]) == (10, 120)
    assert ml.parse_name(query.name) == ("e5", "query") and ml.parse_name("legalsearch-e5-v1") is None


def test_no_server_when_switched_off(tmp_path):
    settings = Settings(node_home=tmp_path / "node", embed_server=False, opensearch_url=None)
    assert embedserver.start(settings) is None and embedserver.wait_ready(settings) is None


def test_api_connectors_point_at_the_provider_with_the_key_only_in_the_credential(monkeypatch):
    from legalsearch.embed import spec as specs

    monkeypatch.setenv("LS_UNIT_KEY", "sk-unit-secret")
    spec = specs.parse("openai:https://api.example.org/v1?model=m&dims=8&send_dims=1&input_type=1&key_env=LS_UNIT_KEY")
    query = ml.ApiModel.from_spec(spec, "query")
    body = ml.connector_body(query)
    assert query.name.startswith("legalsearch-api-") and ml.parse_name(query.name) is None  # never re-pointed at ours
    assert body["actions"][0]["url"] == "https://api.example.org/v1/embeddings"
    assert body["credential"] == {"openAI_key": "sk-unit-secret"}
    assert body["actions"][0]["headers"]["Authorization"] == "Bearer ${credential.openAI_key}"
    assert '"dimensions": 8' in body["actions"][0]["request_body"] and '"input_type": "query"' in body["actions"][0]["request_body"]
    without = {k: v for k, v in body.items() if k != "credential"}
    assert "sk-unit-secret" not in str(without) and "sk-unit-secret" not in repr(query)
    monkeypatch.setenv("LS_UNIT_KEY", "sk-unit-other")  # a changed key changes what is compared
    assert ml.connector_body(ml.ApiModel.from_spec(spec, "query"))["parameters"] != body["parameters"]
    with pytest.raises(ml.ModelError, match="v1"):
        ml.ApiModel.from_spec(specs.parse("cohere:https://api.cohere.com/v2?model=m"), "query")
    persistent = ml.cluster_settings("http://127.0.0.1:8720", [], (query.url, "http://localhost:9/v1/rerank"))["persistent"]
    assert persistent["plugins.ml_commons.trusted_connector_endpoints_regex"][1:] == [
        "^https://api\\.example\\.org/v1/embeddings$", "^http://localhost:9/v1/rerank$"]
