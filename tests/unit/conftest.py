"""Shared fixtures: the sample corpus, loaded once per session (all pure, no server)."""

from __future__ import annotations

from pathlib import Path

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.load import load_document
from sample_corpus import CORPUS, TEXT_SAMPLES


@pytest.fixture(scope="session")
def corpus() -> Path:
    return CORPUS


@pytest.fixture(scope="session")
def docs():
    """Every text sample, loaded with its sidecar: {file name: ParsedDocument}."""
    return {name: load_document(CORPUS / name) for name in TEXT_SAMPLES}


@pytest.fixture(scope="session")
def chunks(docs):
    """Structural chunks of every text sample: {file name: [Chunk]}."""
    return {name: chunk_document(doc) for name, doc in docs.items()}
