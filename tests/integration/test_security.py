"""Security enforced by OpenSearch itself on the real secured node: who may read what, whichever
client asks (our client, raw requests as the user, Dashboards' own queries), the auditor-only
retrieval log, the hybrid-under-DLS failure of 2.19 as documented, the admin commands, clear
errors, and no credential in any output or log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid

import pytest
from click.testing import CliRunner
from legalsearch import dashboards
from legalsearch.errors import AuthenticationError, PermissionDeniedError, StoreError
from legalsearch.index import schema, walls
from legalsearch.security.roles import READER_ROLE
from legalsearch.security.secrets import make_password, secrets_of

from tests.conftest import REPO
from tests.integration.conftest import logged, poll, user_store
from tests.integration.test_dashboards_mapping import _aggs_body

PRIVILEGED = "privileged-note-litigation"
QUESTION = "settlement strategy on the liability cap"


def _doc_ids(result) -> set[str]:
    return {h["_source"]["doc_id"] for h in result["hits"]["hits"]}


def test_anonymous_and_wrong_passwords_are_refused(settings, opensearch_url, people, secured):
    name, password = people["bob"]
    with pytest.raises(AuthenticationError) as caught:
        user_store(settings, opensearch_url, name, password + "x").info()
    assert "wrong password or unknown user" in str(caught.value) and password not in str(caught.value)
    with pytest.raises(AuthenticationError):
        user_store(settings, opensearch_url, f"nobody-{uuid.uuid4().hex[:6]}", password).info()
    assert user_store(settings, opensearch_url, name, password).authinfo()["user_name"] == name


def test_a_reader_sees_only_public_chunks_and_its_groups_in_every_raw_read(settings, opensearch_url, sample_index,
                                                                          people):
    """The public index holds public text only; a group's walled text is read through the
    group's alias (search.index.walls), by its members only, under DLS as well."""
    index = sample_index[0]
    alice = user_store(settings, opensearch_url, *people["alice"])
    bob = user_store(settings, opensearch_url, *people["bob"])
    chunks_wall = walls.group_alias(index, "chunks", "litigation-team")
    docs_wall = walls.group_alias(index, "docs", "litigation-team")
    everything = {"query": {"match_all": {}}, "size": 500, "_source": ["doc_id"]}
    assert PRIVILEGED in _doc_ids(alice.search(f"{index},{chunks_wall}", everything))
    assert PRIVILEGED not in _doc_ids(alice.search(index, everything))  # not even a copy in the public index
    seen_by_bob = _doc_ids(bob.search(index, everything))
    assert seen_by_bob and PRIVILEGED not in seen_by_bob
    for wall in (chunks_wall, docs_wall):
        with pytest.raises(PermissionDeniedError):
            bob.search(wall, everything)
    # aggregations count only what the user may read: no privileged title, no privileged acl value
    aggs = {"size": 0, "aggs": {"titles": {"terms": {"field": "doc_title.keyword", "size": 100}},
                                "acl": {"terms": {"field": "acl", "size": 100}}}}
    result = bob.search(index, aggs)["aggregations"]
    assert not any(b["key"].startswith("Privileged") for b in result["titles"]["buckets"])
    assert result["acl"]["buckets"] == []
    # the docs index (routing target, ingest registry) is walled the same way
    docs = schema.alias_name(index, "docs")
    assert PRIVILEGED not in _doc_ids(bob.search(docs, everything))
    assert PRIVILEGED not in _doc_ids(alice.search(docs, everything))
    assert PRIVILEGED in _doc_ids(alice.search(docs_wall, everything))
    # a privileged chunk asked for by id looks like one that does not exist
    ids = {"query": {"ids": {"values": [f"{PRIVILEGED}:1:0001"]}}}
    assert bob.search(index, ids)["hits"]["hits"] == [] and alice.search(chunks_wall, ids)["hits"]["hits"]
    assert bob.count(index) == alice.count(index) < alice.count(f"{index},{chunks_wall}")


def test_searches_run_for_the_verified_user_and_group_only_narrows(admin_client, sample_index, people):
    index = sample_index[0]
    alice = admin_client.as_user(*people["alice"])
    bob = admin_client.as_user(*people["bob"])
    assert alice.search(QUESTION, index=index, k=3).hits[0].doc_id == PRIVILEGED
    for response in (bob.search(QUESTION, index=index, k=5),
                     bob.search(QUESTION, index=index, k=5, groups=["litigation-team"]),
                     bob.explain(QUESTION, index=index, k=5, groups=["litigation-team"])):
        hits = response.hits if hasattr(response, "hits") else response["hits"]
        ids = {h.doc_id if hasattr(h, "doc_id") else h["chunk_id"].split(":")[0] for h in hits}
        assert ids and PRIVILEGED not in ids
    # alice narrowing to a group she does not hold sees public chunks only
    narrowed = alice.search(QUESTION, index=index, k=5, groups=["board"])
    assert PRIVILEGED not in {h.doc_id for h in narrowed.hits}
    with pytest.raises(AuthenticationError):
        admin_client.as_user(people["alice"][0], "not-her-password").search(QUESTION, index=index)


def test_a_group_change_applies_on_the_next_search(admin_client, sample_index, people):
    index = sample_index[0]
    name, password = people["bob"]
    bob = admin_client.as_user(name, password)
    try:
        assert admin_client.grant_groups(name, ["litigation-team"]) == ["litigation-team"]
        assert bob.search(QUESTION, index=index, k=3).hits[0].doc_id == PRIVILEGED
    finally:
        assert admin_client.revoke_groups(name, ["litigation-team"]) == []
    assert PRIVILEGED not in {h.doc_id for h in bob.search(QUESTION, index=index, k=5).hits}


def test_only_the_auditor_reads_the_retrieval_log(settings, opensearch_url, admin_client, sample_index, people):
    from legalsearch import LegalSearch

    client = LegalSearch(settings.model_copy(update={"log_searches": True}), url=opensearch_url)
    client.embedders = admin_client.embedders
    name, password = people["alice"]
    client.as_user(name, password).search(QUESTION, index=sample_index[0], k=3)
    log_index = settings.log_index
    record = {"query": {"term": {"user": name}}}
    carol = user_store(settings, opensearch_url, *people["carol"])

    def written():  # the record lands after the search returns (a background writer)
        return logged(admin_client.store, log_index, carol.search, record["query"])

    poll(written, "alice's search in the retrieval log")
    for reader in ("alice", "bob"):
        with pytest.raises(PermissionDeniedError, match="no permissions for \\[indices:data/read/search\\]"):
            user_store(settings, opensearch_url, *people[reader]).search(log_index, record)
    with pytest.raises(PermissionDeniedError):
        client.as_user(name, password).search_store.search(log_index, record)  # the service only writes it
    [hit] = carol.search(log_index, record)["hits"]["hits"]
    assert hit["_source"]["groups"] == ["litigation-team"] and PRIVILEGED in hit["_source"]["hit_doc_ids"]
    with pytest.raises(PermissionDeniedError):  # and the auditor reads no chunk
        carol.search(sample_index[0], {"size": 1})


def test_dashboards_saved_objects_show_a_reader_no_privileged_title(settings, opensearch_url, sample_index, people):
    index = sample_index[0]
    objects = dashboards.saved_objects(chunks_alias=index, log_index=settings.log_index)
    search = next(o for o in objects if o["type"] == "search")
    body = {"query": {"match_all": {}}, "size": 500, "_source": search["attributes"]["columns"],
            "sort": [{field: direction} for field, direction in search["attributes"]["sort"]]}
    bob = user_store(settings, opensearch_url, *people["bob"])
    titles = {h["_source"]["doc_title"] for h in bob.search(index, body)["hits"]["hits"]}
    assert titles and not any(t.startswith("Privileged") for t in titles)
    visualizations = [o for o in objects if o["type"] == "visualization"]  # all of them chart the log
    assert visualizations
    for vis in visualizations:
        with pytest.raises(PermissionDeniedError):
            bob.search(settings.log_index, {"size": 0, "aggs": _aggs_body(vis)})


def test_hybrid_under_dls_fails_on_2_19_as_documented(settings, opensearch_url, sample_index, people, store):
    """neural-search #1303: why searches run as the service account. When this starts to pass
    (an upgrade fixed it), docs/security.md's design can be revisited."""
    from legalsearch.query import fusion

    name = fusion.normalization_pipeline_name("min_max", (0.5, 0.5))
    store.put_search_pipeline(name, fusion.normalization_pipeline_body("min_max", (0.5, 0.5)))
    body = {"query": {"hybrid": {"queries": [{"match": {"text": "liability"}}, {"match": {"text": "cap"}}]}}}
    with pytest.raises(StoreError, match="hybrid query must be a top level query") as caught:
        user_store(settings, opensearch_url, *people["alice"]).search(sample_index[0], body, pipeline=name)
    assert "--user NAME" in str(caught.value)
    assert store.search(sample_index[0], body, pipeline=name)["hits"]["hits"]  # no DLS: fine


def test_missing_permission_is_a_clear_error(settings, opensearch_url, people):
    with pytest.raises(PermissionDeniedError) as caught:
        user_store(settings, opensearch_url, *people["alice"]).create_index(f"test-{uuid.uuid4().hex[:8]}", {})
    message = str(caught.value)
    assert message.startswith(f"user {people['alice'][0]!r} may not create index") and "\n" not in message


def test_users_and_groups_commands(opensearch_url, monkeypatch):
    from legalsearch import cli

    monkeypatch.setenv("OPENSEARCH_URL", opensearch_url)
    name = f"dave-{uuid.uuid4().hex[:6]}"
    password = make_password()
    runner = CliRunner()

    def run(*args, stdin=None):
        return runner.invoke(cli.main, list(args), input=stdin)

    added = run("users", "add", name, "--group", "deal-team", "--password-stdin", stdin=password + "\n")
    assert added.exit_code == 0, added.output
    try:
        assert run("users", "add", name, "--password-stdin", stdin=password + "\n").exit_code == 1  # exists
        assert "wrote role legalsearch_reader" in run("users", "init").output  # idempotent
        users = json.loads(run("users", "list", "--json").output)
        assert {"user": name, "groups": ["deal-team"], "roles": [READER_ROLE], "reserved": False} in users
        assert "litigation-team" in run("groups", "grant", name, "litigation-team").output
        assert name in json.loads(run("groups", "list", "--json").output)["litigation-team"]
        assert run("groups", "revoke", name, "deal-team").output.strip() == f"{name}: litigation-team"
        bad = run("groups", "grant", name, 'x"],"acl":["*')
        assert bad.exit_code == 1 and "invalid group name" in bad.output
        assert run("groups", "grant", name, "all_access").exit_code == 1
        new = make_password()
        assert run("users", "passwd", name, "--password-stdin", stdin=new + "\n").exit_code == 0
        monkeypatch.setenv("LEGALSEARCH_PASSWORD", new)
        who = json.loads(run("users", "whoami", "--user", name, "--json").output)
        assert who["user"] == name and who["groups"] == ["litigation-team"]
    finally:
        assert run("users", "remove", name).output.strip() == f"removed {name}"
    assert run("users", "remove", name).output.strip() == f"no user named {name!r}"


def _secrets_in(text: str, secrets: list[str]) -> list[str]:
    return [s[:3] + "..." for s in secrets if s and s in text]


def test_no_credential_in_any_output_or_log(settings, opensearch_url, store, sample_index, people, tmp_path):
    """Credentials in OPENSEARCH_URL, the end user's password and the local node's passwords never
    appear in stdout, stderr at -vv, --json, error messages or the node's logs."""
    admin_user, admin_password = store.connection.user, store.connection.password
    alice, alice_password = people["alice"]
    host = opensearch_url.split("://", 1)[1]
    secrets = [admin_password, alice_password]
    found = secrets_of(settings)
    if found:
        secrets.append(found.service_password())
    env = {**os.environ, "PYTHONPATH": str(REPO), "LEGALSEARCH_LOG_SEARCHES": "false",
           "OPENSEARCH_URL": f"https://{admin_user}:{admin_password}@{host}", "LEGALSEARCH_PASSWORD": alice_password}
    env.pop("OPENSEARCH_USER", None), env.pop("OPENSEARCH_PASSWORD", None)
    closed = f"https://{admin_user}:{admin_password}@127.0.0.1:9"
    runs = [
        ({}, ["node", "status"], 0),
        ({}, ["node", "status", "--json"], 0),
        ({"OPENSEARCH_URL": closed}, ["node", "status", "--json"], 1),
        ({"OPENSEARCH_URL": closed}, ["index", "list"], 1),
        ({}, ["users", "whoami", "--user", alice], 0),
        ({"LEGALSEARCH_PASSWORD": alice_password + "-wrong"}, ["users", "whoami", "--user", alice], 1),
        ({}, ["search", QUESTION, "--index", sample_index[0], "--user", alice, "-k", "2", "--json"], 0),
    ]
    started = time.time()
    for extra, args, code in runs:
        proc = subprocess.run([sys.executable, str(REPO / "cli.py"), "-vv", *args], env={**env, **extra},
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == code, (args, proc.stdout[-2000:], proc.stderr[-2000:])
        assert _secrets_in(proc.stdout + proc.stderr, secrets) == [], args
        assert "DEBUG" in proc.stderr  # -vv really logged
    from legalsearch.node import process

    if store.url == process.local_url(settings):  # the node's own logs, when it is the local node
        for path in (settings.node_home / "logs").glob("*.log"):
            if path.stat().st_mtime >= started:
                assert _secrets_in(path.read_text(errors="replace"), secrets) == [], path
