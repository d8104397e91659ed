"""Shared fixtures. Integration tests get one real OpenSearch node per session:
OPENSEARCH_URL if set; else a testcontainers OpenSearch when a Docker engine answers; else the
project's own local node (installed and started if needed). A missing node is a failure, never
a skip."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples" / "corpus"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "/tests/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


def _docker_answers() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=3)
        return bool(client.ping())
    except Exception:  # no engine, no socket, no permission: all mean "no Docker here"
        return False


@pytest.fixture(scope="session")
def settings():
    from search.config import Settings

    return Settings()


@pytest.fixture(scope="session")
def embedders():
    """The models of the test session, loaded once (as the LegalSearch client does per process)."""
    from search.embed import Embedders

    return Embedders()


@pytest.fixture(scope="session")
def opensearch_url(settings):
    from search.node import probe

    if settings.opensearch_url:
        url = settings.opensearch_url
        if not any(probe.wait_for_health(u.strip(), timeout=30) for u in url.split(",")):  # one or several nodes
            pytest.fail(f"OPENSEARCH_URL={url} does not answer with a yellow/green cluster")
        yield url
        return
    if os.environ.get("LEGALSEARCH_TEST_DOCKER", "auto") != "off" and _docker_answers():
        from testcontainers.opensearch import OpenSearchContainer

        from search.config import OPENSEARCH_VERSION

        with OpenSearchContainer(f"opensearchproject/opensearch:{OPENSEARCH_VERSION}") as container:
            config = container.get_config()
            yield f"http://{config['host']}:{config['port']}"
        return
    from search.node import process

    state = process.start(settings)
    yield state.url


@pytest.fixture(scope="session")
def store(settings, opensearch_url):
    from search.store import Store

    return Store(settings, url=opensearch_url)


@pytest.fixture(scope="session")
def run_ingest(settings, store, embedders):
    """ingest(paths, options, **kw) on the session's store and models."""
    from search.ingest import file_sources, ingest

    def run(paths, options, **kw):
        return ingest(file_sources(list(paths)), settings, options, store=store, embedders=embedders, **kw)

    return run


@pytest.fixture
def index_name(store):
    """A fresh uuid-named index name per test, deleted afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    from search.index import indices

    store.delete_index(name)
    indices.delete(store, name)
