"""Ingestion on the real node: every field of the data model read back, idempotent re-runs,
changed documents replaced atomically, versions side by side, resume after an interruption,
bulk errors with ids."""

from __future__ import annotations

import json
import shutil
import uuid

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.errors import BulkError
from legalsearch.index import indices, schema
from legalsearch.index.writer import IndexWriter
from legalsearch.ingest import IngestOptions
from legalsearch.load import load_document

from tests.conftest import SAMPLES

DATA_MODEL = [
    "chunk_id", "doc_id", "doc_title", "doc_type", "language", "jurisdiction", "version", "valid_from",
    "valid_to", "parties", "signed_at", "origin", "doc_sha256", "source_path", "page", "heading_path", "section",
    "char_start", "char_end", "text", "summary", "embedded_text", "vector", "xrefs", "defined_terms",
    "clause_labels", "acl",
]


def _chunks(store, index, query=None):
    store.refresh(schema.concrete_name(index, "chunks"))
    hits = store.scan(indices.all_live(store, index), query or {"match_all": {}})  # public and walled
    return {h["_id"]: h["_source"] for h in hits}


def test_sample_corpus_read_back_with_every_field(store, sample_index):
    name, report = sample_index
    chunks = _chunks(store, name)
    assert len(chunks) == report.summary()["chunks"] > 0
    for source in chunks.values():
        missing = [f for f in DATA_MODEL if f not in source]
        assert not missing, (source["chunk_id"], missing)
    msa = [c for c in chunks.values() if c["doc_id"] == "msa-acme-northwind"]
    doc = load_document(SAMPLES / "master-services-agreement.txt")
    for c in msa:
        assert doc.text[c["char_start"]:c["char_end"]] == c["text"]
        assert c["summary"] and c["embedded_text"].startswith(c["summary"])
        assert len(c["vector"]) == 384
    cap = next(c for c in msa if c["section"] == "14.3")
    assert cap["heading_path"] and "liability_cap" in cap["clause_labels"]
    assert {x["target"] for x in cap["xrefs"]} >= {"14.1", "14.2"}  # "Subject to clauses 14.1 and 14.2"
    assert cap["xref_chunk_ids"]
    scanned = [c for c in chunks.values() if c["source_path"].endswith("scanned-amendment.pdf")]
    assert scanned and all(c["origin"] == "ocr" and c["page"] == 1 for c in scanned)
    privileged = [c for c in chunks.values() if c["doc_type"] == "internal_note"]
    assert privileged and all(c["acl"] == ["litigation-team"] and c["public"] is False for c in privileged)


def test_two_versions_side_by_side(store, sample_index):
    name, _ = sample_index
    chunks = _chunks(store, name, {"term": {"doc_id": "housing-act-1988"}})
    by_version = {}
    for c in chunks.values():
        by_version.setdefault(c["version"], set()).add((c["valid_from"], c["valid_to"]))
    assert by_version == {"2019": {("2019-01-01", "2026-05-01")}, "2026": {("2026-05-01", None)}}


def test_rerun_is_idempotent(run_ingest, store, sample_index):
    name, report = sample_index
    before = _chunks(store, name)
    again = run_ingest([SAMPLES], IngestOptions(index=name, embedder="e5"))
    assert again.count("unchanged") == len(report.documents) and again.chunks == 0
    assert _chunks(store, name).keys() == before.keys()


@pytest.fixture
def scratch(settings, store, tmp_path):
    name = f"test-{uuid.uuid4().hex[:10]}"
    folder = tmp_path / "corpus"
    folder.mkdir()
    for stem in ("nda-acme-globex", "contratto-servizi-beta"):
        for path in SAMPLES.glob(stem + ".*"):
            shutil.copy(path, folder / path.name)
    yield name, folder
    indices.delete(store, name)


def test_changed_document_replaces_its_chunks(run_ingest, store, scratch):
    name, folder = scratch
    options = IngestOptions(index=name, embedder="e5")
    run_ingest([folder], options)
    nda = folder / "nda-acme-globex.txt"
    doc_id = load_document(nda).meta.doc_id
    old = _chunks(store, name, {"term": {"doc_id": doc_id}})
    # Cut the NDA to its first third: fewer chunks, and new text in the last one.
    text = nda.read_text()
    nda.write_text(text[: len(text) // 3] + "\n\n99. NEW CLAUSE\nThis clause was added in the amended text.\n")
    report = run_ingest([folder], options)
    assert report.count("ingested") == 1 and report.count("unchanged") == 1
    new = _chunks(store, name, {"term": {"doc_id": doc_id}})
    assert len(new) < len(old)
    assert any("added in the amended text" in c["text"] for c in new.values())
    assert not set(old) - set(new) & set(new)  # stale ids are gone, no duplicates
    assert all(c["doc_sha256"] == load_document(nda).doc_sha256 for c in new.values())


def test_readers_see_old_or_new_chunks_never_both(run_ingest, store, scratch):
    name, folder = scratch
    run_ingest([folder], IngestOptions(index=name, embedder="e5"))
    doc = load_document(folder / "nda-acme-globex.txt")
    old = _chunks(store, name, {"term": {"doc_id": doc.meta.doc_id}})
    first_id = sorted(old)[0]
    writer = IndexWriter(store, name)
    writer.begin()
    replacement = dict(old[first_id], text="REPLACED TEXT", chunk_id=first_id)
    record = {"doc_key": old[first_id]["doc_key"], "doc_sha256": "x", "settings_key": "y", "meta_sha256": "z",
              "public": True, "acl": []}  # the record's ACL decides the index (search.index.walls)
    writer.write(doc.meta.doc_id, record, [replacement])  # one new chunk, all others deleted
    during = store.search(name, {"size": 100, "query": {"term": {"doc_id": doc.meta.doc_id}}})["hits"]["hits"]
    assert {h["_id"] for h in during} == set(old)  # before the refresh: the old set, whole
    assert all(h["_source"]["text"] != "REPLACED TEXT" for h in during)
    writer.end()
    after = store.search(name, {"size": 100, "query": {"term": {"doc_id": doc.meta.doc_id}}})["hits"]["hits"]
    assert [(h["_id"], h["_source"]["text"]) for h in after] == [(first_id, "REPLACED TEXT")]


def test_interrupted_run_resumes(run_ingest, store, scratch):
    name, folder = scratch
    options = IngestOptions(index=name, embedder="e5", batch_chunks=1)
    calls = []

    def stop_after_first(n):
        calls.append(n)
        if len(calls) == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_ingest([folder], options, progress=stop_after_first)
    resumed = run_ingest([folder], options)
    assert resumed.count("unchanged") == 1 and resumed.count("ingested") == 1
    clean = f"{name}-clean"
    try:
        run_ingest([folder], IngestOptions(index=clean, embedder="e5"))
        assert set(_chunks(store, name)) == set(_chunks(store, clean))
    finally:
        indices.delete(store, clean)


def test_bulk_failure_names_the_failing_ids(store, index_name):
    concrete = schema.concrete_name(index_name, "chunks")
    store.create_index(concrete, schema.index_body("chunks", index_name, 4))
    good = {"_index": index_name, "_id": "ok-1", "_source": {"chunk_id": "ok-1"}}
    bad = {"_index": index_name, "_id": "bad-1", "_source": {"chunk_id": "bad-1", "no_such_field": 1}}
    with pytest.raises(BulkError) as err:
        store.bulk([good, bad])
    assert err.value.failed_ids == ["bad-1"]
    assert "1 of 2" in str(err.value)
    store.delete_index(concrete)


def test_embedder_mismatch_is_refused(run_ingest, sample_index):
    name, _ = sample_index
    from legalsearch.errors import ConfigError

    with pytest.raises(ConfigError, match="e5"):
        run_ingest([SAMPLES / "nda-acme-globex.txt"], IngestOptions(index=name, embedder="minilm"))


def test_a_sidecar_only_change_reaches_every_chunk(run_ingest, store, scratch):
    """Making a document private without touching its text must not leave it public."""
    name, folder = scratch
    options = IngestOptions(index=name, embedder="e5")
    run_ingest([folder], options)
    sidecar = folder / "nda-acme-globex.meta.json"
    meta = json.loads(sidecar.read_text())
    doc_id = meta["doc_id"]
    assert all(c["public"] for c in _chunks(store, name, {"term": {"doc_id": doc_id}}).values())
    sidecar.write_text(json.dumps({**meta, "public": False, "acl": ["deal-team"], "valid_to": "2030-01-01"}))
    report = run_ingest([folder], options)
    assert report.count("ingested") == 1 and report.count("unchanged") == 1
    chunks = _chunks(store, name, {"term": {"doc_id": doc_id}}).values()
    assert chunks and all(not c["public"] and c["acl"] == ["deal-team"] and c["valid_to"] == "2030-01-01"
                          for c in chunks)
    assert run_ingest([folder], options).count("unchanged") == 2


def test_public_flag_does_not_override_an_explicit_false(run_ingest, store, scratch):
    name, folder = scratch
    sidecar = folder / "nda-acme-globex.meta.json"
    meta = json.loads(sidecar.read_text())
    sidecar.write_text(json.dumps({**meta, "public": False}))
    run_ingest([folder], IngestOptions(index=name, embedder="e5", public_if_no_acl=True))
    chunks = _chunks(store, name, {"term": {"doc_id": meta["doc_id"]}}).values()
    assert chunks and not any(c["public"] for c in chunks)


def test_a_document_not_all_written_is_rolled_back_and_reported(run_ingest, store, scratch, embedders, monkeypatch):
    """One chunk of a changed document is refused by the node (a field the strict mapping does not
    know): the report names that item with the node's reason, counts every item (sent == written
    + failed), and the document is rolled back whole: none of its chunks, old or new, and no
    registry record, so the next run ingests it again; the other document is untouched."""
    from legalsearch.ingest import run as ingest_run

    name, folder = scratch
    options = IngestOptions(index=name, embedder="e5")
    run_ingest([folder], options)
    nda = folder / "nda-acme-globex.txt"
    doc_id = load_document(nda).meta.doc_id
    other = _chunks(store, name, {"bool": {"must_not": {"term": {"doc_id": doc_id}}}})
    nda.write_text(nda.read_text(encoding="utf-8") + "\n\n99. NEW CLAUSE\nAdded in the amended text.\n",
                   encoding="utf-8")
    limit = options.chunk_limit(embedders.get("e5").max_tokens)
    expected = {c.chunk_id for c in chunk_document(load_document(nda), options.chunker, max_chars=limit,
                                                   recursive_size=limit)}
    refused_id = sorted(expected)[1]
    chunk_source = ingest_run.records.chunk_source

    def one_refused(doc, chunk, **kw):
        source = chunk_source(doc, chunk, **kw)
        return source | ({"no_such_field": 1} if source["chunk_id"] == refused_id else {})

    monkeypatch.setattr(ingest_run.records, "chunk_source", one_refused)
    report = run_ingest([folder], options)
    monkeypatch.undo()
    failed = [d for d in report.documents if d.status == "failed"]
    assert [d.doc_key.split(":")[0] for d in failed] == [doc_id] and report.count("unchanged") == 1
    assert [(r["id"], r["status"], r["type"]) for r in failed[0].refused] == [
        (refused_id, 400, "strict_dynamic_mapping_exception")]
    assert "rolled back" in failed[0].error and "no_such_field" in failed[0].refused[0]["reason"]
    bulk = report.bulk
    assert bulk["sent"] == bulk["written"] + bulk["failed"] and bulk["failed"] == 1
    assert bulk["failed_by_reason"] == {"400 strict_dynamic_mapping_exception": 1} and bulk["rolled_back"] == 1
    summary = report.summary()
    assert summary["failures"][0]["refused"] == failed[0].refused
    # nothing of the document is left (old chunks included), and no record says it is there
    assert _chunks(store, name, {"term": {"doc_id": doc_id}}) == {}
    store.refresh(indices.resolve(store, name, "docs"))
    assert store.count(indices.resolve(store, name, "docs"), {"term": {"doc_id": doc_id}}) == 0
    assert _chunks(store, name, {"bool": {"must_not": {"term": {"doc_id": doc_id}}}}) == other
    again = run_ingest([folder], options)
    assert again.count("ingested") == 1 and again.count("unchanged") == 1 and again.count("failed") == 0
    assert set(_chunks(store, name, {"term": {"doc_id": doc_id}})) == expected
