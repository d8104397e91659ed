"""Shared fixtures. Integration tests get one real OpenSearch node per session:
OPENSEARCH_URL if set (with OPENSEARCH_USER / OPENSEARCH_PASSWORD / OPENSEARCH_CA_CERTS for a
secured one); else the project's local node when it runs; else a testcontainers OpenSearch (with
the security plugin on) when a Docker engine answers; else the local node, installed and started.
The local node is secured: its CA and admin password are found in its secrets folder, nothing
to set. A missing node is a failure, never a skip."""

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
    """Marks the integration tests, and runs the unit tests first (they fail fastest), then the
    integration tests, then the three-node cluster's: started last, the cluster's JVMs do not
    boot while the session's node is still settling in after its own start (`make test` starts it
    just before). The cluster tests took 323 s of a whole run when they ran first, 187 s last
    (2026-12-08, this 2-core machine)."""
    for item in items:
        if "/tests/integration/" in str(item.fspath):
            item.add_marker(pytest.mark.integration)

    def stage(item) -> int:
        return 2 if item.get_closest_marker("cluster") else 1 if item.get_closest_marker("integration") else 0

    items.sort(key=stage)  # stable: each stage keeps its collection order


def _docker_answers() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=3)
        return bool(client.ping())
    except Exception:  # no engine, no socket, no permission: all mean "no Docker here"
        return False


@pytest.fixture(scope="session")
def settings():
    from legalsearch.config import Settings

    return Settings()


@pytest.fixture(scope="session")
def embedders(settings):
    """The models of the test session, loaded once (as the LegalSearch client does per process)."""
    from legalsearch.embed import Embedders

    return Embedders(settings)


def _wait_for(settings, url: str, seconds: float = 30.0) -> None:
    import time

    from legalsearch.errors import LegalSearchError
    from legalsearch.store import Store

    deadline = time.monotonic() + seconds
    while True:
        try:
            Store(settings, url=url).health()
            return
        except LegalSearchError as e:
            if time.monotonic() > deadline:
                pytest.fail(f"{url} does not answer with a yellow/green cluster: {e}")
            time.sleep(1)


@pytest.fixture(scope="session")
def opensearch_url(settings):
    from legalsearch.node import process

    if settings.opensearch_url:
        _wait_for(settings, settings.opensearch_url)
        yield settings.opensearch_url
        return
    running = process.local_url(settings)
    if running is None and os.environ.get("LEGALSEARCH_TEST_DOCKER", "auto") != "off" and _docker_answers():
        # Not exercised on the development machine (no Docker there): the official image with its
        # demo certificates, so TLS is not verified; the legalsearch roles are created as on any
        # external cluster (`legalsearch users init`).
        from legalsearch.config import OPENSEARCH_VERSION
        from legalsearch.security import admin
        from legalsearch.security.secrets import make_password
        from legalsearch.store import Store
        from pydantic import SecretStr
        from testcontainers.opensearch import OpenSearchContainer

        password = make_password()
        with OpenSearchContainer(f"opensearchproject/opensearch:{OPENSEARCH_VERSION}", security_enabled=True,
                                 initial_admin_password=password) as container:
            config = container.get_config()
            settings.opensearch_user, settings.opensearch_password = "admin", SecretStr(password)
            settings.opensearch_verify_certs = False
            url = f"https://{config['host']}:{config['port']}"
            _wait_for(settings, url, 120)
            admin.init(Store(settings, url=url), settings.log_index)
            yield url
        return
    from legalsearch.engine import lifecycle

    state = lifecycle.start(settings)  # the node and its embedding server
    yield state.url


@pytest.fixture(scope="session")
def store(settings, opensearch_url):
    from legalsearch.store import Store

    return Store(settings, url=opensearch_url)


@pytest.fixture(scope="session")
def run_ingest(settings, store, embedders):
    """ingest(paths, options, **kw) on the session's store and models."""
    from legalsearch.ingest import file_sources, ingest

    def run(paths, options, **kw):
        return ingest(file_sources(list(paths)), settings, options, store=store, embedders=embedders, **kw)

    return run


@pytest.fixture
def index_name(store):
    """A fresh uuid-named index name per test, deleted afterwards."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    from legalsearch.index import indices

    store.delete_index(name)
    indices.delete(store, name)
