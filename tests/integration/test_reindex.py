"""`index reindex` on one node: a rebuild with another embedder behind the same alias, a search
service that follows the swap, writes refused on the old generation while it runs, prune.
(The swap under a concurrent query loop is tests/integration/cluster/test_cluster_answers.py.)"""

from __future__ import annotations

import shutil
import uuid

import pytest
from legalsearch.errors import LegalSearchError
from legalsearch.index import generations, indices
from legalsearch.ingest import IngestOptions
from legalsearch.ingest.reindex import reindex
from legalsearch.query import service as service_module
from legalsearch.query.models import SearchRequest
from legalsearch.query.service import SearchService

from tests.conftest import SAMPLES


@pytest.fixture
def small_index(run_ingest, store, tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    for stem in ("nda-acme-globex", "contratto-servizi-beta"):
        for path in SAMPLES.glob(stem + ".*"):
            shutil.copy(path, folder / path.name)
    name = f"test-rx-{uuid.uuid4().hex[:8]}"
    report = run_ingest([folder], IngestOptions(index=name, embedder="e5"))
    assert report.count("ingested") == 2
    yield name, folder
    indices.delete(store, name)


def test_rebuild_with_another_embedder_swaps_and_keeps_the_old(settings, store, embedders, small_index, monkeypatch):
    name, folder = small_index
    quiet = settings.model_copy(update={"log_searches": False})
    searcher = SearchService(quiet, store, embedders)
    question = SearchRequest(query="confidential information disclosure", index=name, k=3)
    assert searcher.search(question).hits
    before = indices.info(store, name)
    assert before["meta"]["embedder"] == "e5"

    result = reindex(store, settings, embedders, name, changes={"embedder": "minilm"})
    assert result["mode"] == "rebuild" and result["documents"] == 2 and result["chunks"] > 0
    after = indices.info(store, name)
    assert after["meta"]["embedder"] == "minilm" and after["meta"]["reindexed_from"] == before["aliases"][name]
    assert after["aliases"] == {name: f"{name}--chunks-v1-g2", f"{name}-docs": f"{name}--docs-v1-g2"}
    assert set(after["previous_generations"]) == set(before["aliases"].values())

    # a long-lived service follows the alias once its lookup is older than TARGET_TTL_S, and then
    # embeds the question with the new index's model
    monkeypatch.setattr(service_module, "TARGET_TTL_S", 0.0)
    plan = searcher.plan(question)
    assert plan.index == f"{name}--chunks-v1-g2" and plan.meta["embedder"] == "minilm"
    assert searcher.search(question).hits

    # the kept generation refuses writes; new ingests go to the live one
    with pytest.raises(LegalSearchError, match="blocked"):
        store.index_document(before["aliases"][name], "x", {"chunk_id": "x"})
    assert set(generations.prune(store, name)) == set(before["aliases"].values())
    assert indices.info(store, name)["previous_generations"] == []


def test_a_failed_rebuild_leaves_the_live_index_as_it_was(settings, store, embedders, small_index, tmp_path):
    name, folder = small_index
    before = indices.info(store, name)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.txt").write_text("")  # an empty document fails to ingest
    with pytest.raises(LegalSearchError, match="failed to ingest into the new index"):
        reindex(store, settings, embedders, name, paths=[bad])
    after = indices.info(store, name)
    assert after["aliases"] == before["aliases"] and after["chunks"] == before["chunks"]
    assert after["previous_generations"] == []  # the half-built generation is gone
    store.index_document(before["aliases"][name], "probe", {"chunk_id": "probe"}, refresh=True)  # writable again
    store.client.delete(index=before["aliases"][name], id="probe", refresh=True)
