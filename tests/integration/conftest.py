"""The sample corpus, ingested once per session into a uuid-named index (read-only for tests)."""

from __future__ import annotations

import uuid

import pytest

from tests.conftest import SAMPLES


@pytest.fixture(scope="session")
def sample_index(store, run_ingest):
    from search.index import indices
    from search.ingest import IngestOptions

    name = f"test-samples-{uuid.uuid4().hex[:8]}"
    report = run_ingest([SAMPLES], IngestOptions(index=name, embedder="e5"))
    summary = report.summary()
    assert summary["failed"] == 0, summary["failures"]
    yield name, report
    indices.delete(store, name)


@pytest.fixture(scope="session")
def service(settings, store, embedders):
    from search.query.service import SearchService

    return SearchService(settings.model_copy(update={"log_searches": False}), store, embedders)
