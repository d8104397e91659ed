"""Bad input and wrong identities found by the probe of issue 24 (items 5 and 6), on the real node:
each answered with one clear error or warning, never a raw engine error, a dropped batch or an
answer given for someone else."""

from __future__ import annotations

import json
import logging
import uuid

import pytest
from legalsearch.errors import LegalSearchError, SecurityError
from legalsearch.ingest import IngestOptions

from tests.integration.test_security import PRIVILEGED, QUESTION


@pytest.fixture(scope="module")
def lost_user(store, secured):
    """A user of the node holding no legalsearch role at all."""
    from legalsearch.security.secrets import make_password

    name, password = f"norole-{uuid.uuid4().hex[:6]}", make_password()
    store.security_api(f"create user {name}", "PUT", f"internalusers/{name}", {
        "password": password, "backend_roles": ["litigation-team"], "opendistro_security_roles": []})
    yield name, password
    store.security_api(f"remove user {name}", "DELETE", f"internalusers/{name}", missing=None)


def test_search_refuses_an_end_user_without_the_reader_role(admin_client, sample_index, people, lost_user):
    for name, password in (people["carol"], lost_user):  # an auditor; a user with no legalsearch role
        with pytest.raises(SecurityError, match="does not hold the legalsearch_reader role"):
            admin_client.as_user(name, password).search(QUESTION, index=sample_index[0], k=3)
    hits = admin_client.as_user(*people["alice"]).search(QUESTION, index=sample_index[0], k=3).hits
    assert hits and hits[0].doc_id == PRIVILEGED  # the reader still searches


def test_the_cli_refuses_a_search_for_an_auditor(sample_index, people, opensearch_url, monkeypatch):
    from click.testing import CliRunner
    from legalsearch import cli as cli_module

    name, password = people["carol"]
    monkeypatch.setenv("LEGALSEARCH_PASSWORD", password)
    monkeypatch.setenv("LEGALSEARCH_LOG_SEARCHES", "false")
    result = CliRunner().invoke(cli_module.main, ["search", QUESTION, "--index", sample_index[0], "--user", name])
    assert result.exit_code != 0 and "does not hold the legalsearch_reader role" in result.output, result.output
    assert "Settlement" not in result.output and password not in result.output


def test_whoami_answers_for_the_end_user(admin_client, people):
    name, password = people["alice"]
    info = admin_client.as_user(name, password).whoami()
    assert info["user_name"] == name and info["backend_roles"] == ["litigation-team"]
    assert admin_client.whoami()["user_name"] == "admin"


def test_a_missing_index_says_so_for_an_end_user(admin_client, people):
    missing = f"no-such-{uuid.uuid4().hex[:6]}"
    with pytest.raises(LegalSearchError) as caught:
        admin_client.as_user(*people["bob"]).search(QUESTION, index=missing)
    # a 403 from the security plugin is not what the user meets (the random name may hold "403")
    said = str(caught.value)
    assert f"index {missing!r} does not exist" in said and "403" not in said.replace(missing, "")


def test_the_retrieval_log_records_the_requested_and_the_dropped_groups(settings, opensearch_url, admin_client,
                                                                        sample_index, people):
    from legalsearch import LegalSearch

    from tests.integration.conftest import logged, poll, user_store

    client = LegalSearch(settings.model_copy(update={"log_searches": True}), url=opensearch_url)
    client.embedders = admin_client.embedders
    name, password = people["bob"]
    marker = f"dropped group probe {uuid.uuid4().hex[:6]}"
    client.as_user(name, password).search(marker, index=sample_index[0], k=2, groups=["litigation-team"])
    carol = user_store(settings, opensearch_url, *people["carol"])

    def written():  # the record lands after the search returns (a background writer)
        return logged(admin_client.store, settings.log_index, carol.search, {"match_phrase": {"query": marker}})

    [hit] = poll(written, "bob's search in the retrieval log")
    record = hit["_source"]
    assert record["user"] == name and record["groups"] == []
    assert record["groups_requested"] == ["litigation-team"] and record["groups_dropped"] == ["litigation-team"]


def _write(folder, name: str, text: str, meta: dict | None = None, bom: bool = False):
    path = folder / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    if meta is not None:
        raw = json.dumps(meta).encode()
        (folder / f"{name}.meta.json").write_bytes((b"\xef\xbb\xbf" if bom else b"") + raw)
    return path


def test_one_bad_doc_id_fails_its_file_and_the_batch_goes_on(tmp_path, store, run_ingest, caplog):
    from legalsearch.index import indices

    body = "1. Term\nThis agreement lasts two years from signature.\n\n2. Notice\nEither party may end it on notice.\n"
    _write(tmp_path, "a-first", body, {"doc_id": "first", "title": "First", "public": True})
    _write(tmp_path, "b-long", body, {"doc_id": "x" * 600, "title": "Too long an id", "public": True})
    _write(tmp_path, "c-bom", body, {"doc_id": "bom", "title": "With a BOM", "public": True}, bom=True)
    _write(tmp_path, "d-both", body, {"doc_id": "both", "title": "Public and ACL", "public": True,
                                      "acl": ["litigation-team"]})
    _write(tmp_path, "e-last", body, {"doc_id": "last", "title": "Last", "public": True})
    name = f"test-bad-input-{uuid.uuid4().hex[:8]}"
    try:
        with caplog.at_level(logging.WARNING):
            report = run_ingest([tmp_path], IngestOptions(index=name, embedder="e5", batch_chunks=1))
        by_path = {d.path.rsplit("/", 1)[-1]: d for d in report.documents}
        assert by_path["b-long.txt"].status == "failed"
        assert "doc_id" in by_path["b-long.txt"].error and "at most 256" in by_path["b-long.txt"].error
        for ok in ("a-first.txt", "c-bom.txt", "d-both.txt", "e-last.txt"):
            assert by_path[ok].status == "ingested", (ok, by_path[ok].error)
        assert "public-overrides-acl" in by_path["d-both.txt"].flags
        assert any("d-both.txt" in w and "readable by everyone" in w for w in report.warnings), report.warnings
        store.refresh(name)
        found = store.search(name, {"size": 0, "aggs": {"d": {"terms": {"field": "doc_id"}}}})
        assert {b["key"] for b in found["aggregations"]["d"]["buckets"]} == {"first", "bom", "both", "last"}
    finally:
        indices.delete(store, name)
