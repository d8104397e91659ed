"""The public Python API on the real node, imported only from the package root: ingest -> search
-> citation, documents from memory (same validation and idempotence as files), and the CLI's
`--json` output equal to the API's model dump."""

from __future__ import annotations

import json
import uuid

import pytest
from click.testing import CliRunner
from legalsearch import Document, LegalSearch, MetadataError, QueryError, SearchResponse

from tests.conftest import SAMPLES

NDA_TEXT = """MUTUAL NON-DISCLOSURE AGREEMENT

1. Definitions
"Confidential Information" means any information disclosed by one party to the other.

2. Term
The obligations in this Agreement last for three (3) years from the Effective Date.

3. Governing Law
This Agreement is governed by the laws of England and Wales.
"""


@pytest.fixture(scope="module")
def client(settings, opensearch_url):
    return LegalSearch(settings.model_copy(update={"log_searches": False}), url=opensearch_url)


@pytest.fixture
def api_index(client):
    name = f"test-api-{uuid.uuid4().hex[:8]}"
    yield name
    client.delete_index(name)


def test_ingest_search_cite_through_the_public_api(client, api_index):
    report = client.ingest([SAMPLES / "master-services-agreement.txt", SAMPLES / "nda-acme-globex.txt"],
                           index=api_index, embedder="minilm")
    assert report.summary()["failed"] == 0 and report.count("ingested") == 2
    response = client.search("What is the liability cap in clause 14.3?", index=api_index, k=3)
    assert isinstance(response, SearchResponse) and not response.not_found
    top = response.hits[0]
    assert top.section == "14.3" and "14.3" in top.citation
    text = (SAMPLES / "master-services-agreement.txt").read_text()
    assert text[top.char_start:top.char_end] == top.text
    again = client.ingest([SAMPLES / "master-services-agreement.txt"], index=api_index, embedder="minilm")
    assert again.count("unchanged") == 1


def test_documents_from_memory_validated_and_idempotent(client, api_index):
    doc = Document(text=NDA_TEXT, doc_id="nda-memory", title="NDA with Kestrel", public=True,
                   valid_from="2025-01-01")
    first = client.ingest([doc], index=api_index, embedder="minilm")
    assert first.count("ingested") == 1 and first.documents[0].path == "memory:nda-memory"
    hits = client.search("which law governs the NDA with Kestrel?", index=api_index, k=3).hits
    assert hits and hits[0].doc_id == "nda-memory" and hits[0].source_path == "memory:nda-memory"
    assert NDA_TEXT[hits[0].char_start:hits[0].char_end] == hits[0].text
    assert client.ingest([doc], index=api_index, embedder="minilm").count("unchanged") == 1
    # a metadata change alone is a change: the new acl must reach every chunk
    private = Document(text=NDA_TEXT, doc_id="nda-memory", title="NDA with Kestrel", acl=["deal-team"],
                       valid_from="2025-01-01")
    assert client.ingest([private], index=api_index, embedder="minilm").count("ingested") == 1
    assert client.search("which law governs the NDA with Kestrel?", index=api_index, k=3).not_found
    seen = client.search("which law governs the NDA with Kestrel?", index=api_index, k=3, groups=["deal-team"])
    assert seen.hits[0].doc_id == "nda-memory"


def test_bad_memory_document_fails_alone_with_the_field_named(client, api_index):
    bad = Document(text=NDA_TEXT, doc_id="nda-bad", title="Bad", valid_from="2025-01-01", valid_to="2024-01-01")
    good = Document(text=NDA_TEXT, doc_id="nda-good", title="Good", public=True)
    report = client.ingest([bad, good], index=api_index, embedder="minilm")
    failed = [d for d in report.documents if d.status == "failed"]
    assert [d.path for d in failed] == ["memory:nda-bad"] and "valid_to" in failed[0].error
    assert report.count("ingested") == 1
    with pytest.raises(MetadataError):
        from legalsearch.load import load_memory_document  # the same validation, raised directly

        load_memory_document(bad)


def test_bad_search_options_are_one_line_query_errors(client, api_index):
    for options in ({"routing_docs": 0}, {"rank_constant": -1}, {"k": 0}):
        with pytest.raises(QueryError) as err:
            client.search("termination", index=api_index, **options)
        assert "\n" not in str(err.value) and "bad search request" in str(err.value)
    with pytest.raises(QueryError, match="empty"):
        client.search("   ", index=api_index)


DEMO_QUESTIONS = [
    ("What is the liability cap in clause 14.3?", {"k": 3}, []),
    ("Can a landlord end a tenancy without giving a reason?", {"k": 3, "as_of": "2025-06-01"}, ["--as-of", "2025-06-01"]),
    ("Come può il cliente recedere dal contratto di fornitura e cosa deve pagare?", {"k": 2}, []),
    ("settlement strategy on the liability cap", {"k": 3, "groups": ["litigation-team"]}, ["--group", "litigation-team"]),
]


@pytest.mark.parametrize("question, options, flags", DEMO_QUESTIONS)
def test_cli_json_equals_the_api_model_dump(client, sample_index, monkeypatch, opensearch_url, question, options,
                                            flags):
    from legalsearch import cli
    from legalsearch.query.models import CONTRACT_FIELDS

    monkeypatch.setenv("OPENSEARCH_URL", opensearch_url)
    monkeypatch.setenv("LEGALSEARCH_LOG_SEARCHES", "false")
    result = CliRunner().invoke(cli.main, ["search", question, "--index", sample_index[0], "-k",
                                           str(options["k"]), *flags, "--json"])
    assert result.exit_code == 0, result.output
    from_cli = json.loads(result.output)
    api = client.search(question, index=sample_index[0], **options).model_dump(mode="json", include=CONTRACT_FIELDS)
    for payload in (from_cli, api):
        payload.pop("timings_ms")
    assert from_cli == api
