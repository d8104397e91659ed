"""The ingest settings key: what makes a re-run re-do a document whose bytes did not change."""

from __future__ import annotations

import legalsearch.ingest.options as options_module
from legalsearch.ingest.options import IngestOptions


def test_a_new_chunks_version_redoes_unchanged_documents(monkeypatch):
    options = IngestOptions()
    before = options.settings_key("fingerprint-v1", 256)
    assert options.settings_key("fingerprint-v1", 256) == before  # stable: an unchanged re-run skips
    monkeypatch.setattr(options_module, "CHUNKS_VERSION", options_module.CHUNKS_VERSION + 1)
    assert options.settings_key("fingerprint-v1", 256) != before
