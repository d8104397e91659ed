"""The sample corpus, ingested once per session into a uuid-named index (read-only for tests)."""

from __future__ import annotations

import uuid

import pytest

from tests.conftest import SAMPLES


@pytest.fixture(scope="session")
def sample_index(settings, store):
    from search.indexing import indices
    from search.indexing.ingest import IngestOptions, ingest

    name = f"test-samples-{uuid.uuid4().hex[:8]}"
    report = ingest([SAMPLES], settings, IngestOptions(index=name, embedder="e5"), store=store)
    summary = report.summary()
    assert summary["failed"] == 0, summary["failures"]
    yield name, report
    indices.delete(store, name)


@pytest.fixture(scope="session")
def service(settings, store):
    from search.query.service import SearchService

    return SearchService(settings.model_copy(update={"log_searches": False}), store=store)
