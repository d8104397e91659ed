"""The embedding server's process started, found again and stopped: a real `python -m
legalsearch.embedserver` that loads the e5 models (no OpenSearch node). An integration test: it
starts a server and loads real models (moved out of `make unit`, which covers pure logic)."""

from __future__ import annotations

import pytest
from legalsearch import embedserver
from legalsearch.config import Settings

from tests.integration import webserver


@pytest.fixture
def free_port():
    return webserver.free_port()


def test_the_server_process_starts_once_answers_and_stops(tmp_path, free_port):
    settings = Settings(node_home=tmp_path / "node", embed_port=free_port, embed_models="e5", opensearch_url=None)
    state = embedserver.start(settings)
    try:
        assert state.url == f"http://127.0.0.1:{free_port}"
        health = embedserver.wait_ready(settings, timeout=120)
        assert health["status"] == "ok" and health["models"] == ["e5-query", "e5-passage", "e5"]
        assert embedserver.start(settings).pid == state.pid  # idempotent
        assert embedserver.endpoint(settings) == state.url
    finally:
        assert embedserver.stop(settings)
    assert embedserver.running(settings) is None
    assert embedserver.health(state.url, timeout=1)[0] == 0
    assert not embedserver.stop(settings)
