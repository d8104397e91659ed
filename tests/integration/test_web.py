"""The search service over real HTTP: a uvicorn server on 127.0.0.1 (a free port) in front of the
real node, for real users verified by the security plugin.

The equality test is the promise of docs/service.md: for the same user and options, a POST to
/v1/search returns exactly what `legalsearch search --json` prints (parsed, minus timings_ms).
"""

from __future__ import annotations

import base64
import json
import logging
from datetime import date

import httpx
import pytest
from click.testing import CliRunner

from tests.conftest import REPO
from tests.integration.webserver import running

GOLD = REPO / "evaluation" / "gold" / "sample-gold.jsonl"
GOLD_EVERY = 6  # every 6th question of the sample gold set: 14 of its 82, every type among them


def _gold_questions() -> list[dict]:
    rows = [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows[::GOLD_EVERY]


@pytest.fixture(scope="module")
def base_client(settings, opensearch_url, embedders):
    from legalsearch import LegalSearch

    client = LegalSearch(settings.model_copy(update={"log_searches": False}), url=opensearch_url)
    client.embedders = embedders
    return client


@pytest.fixture(scope="module")
def server(base_client):
    """The base URL of a uvicorn server running the service in a thread of this process."""
    from legalsearch.web.app import create_app

    with running(create_app(base_client)) as url:
        yield url


def _cli_flags(options: dict) -> list[str]:
    flags = []
    for key, value in options.items():
        if key == "k":
            flags += ["-k", str(value)]
        elif key == "as_of":
            flags += ["--as-of", str(value)]
        elif key == "groups":
            for g in value:
                flags += ["--group", g]
        elif key == "highlight":
            flags += ["--highlight"] if value else []
        else:
            raise AssertionError(f"no flag for {key}")
    return flags


def _cli_json(monkeypatch, opensearch_url, password: str, args: list[str]) -> dict:
    from legalsearch import cli

    monkeypatch.setenv("OPENSEARCH_URL", opensearch_url)
    monkeypatch.setenv("LEGALSEARCH_LOG_SEARCHES", "false")
    monkeypatch.setenv("LEGALSEARCH_PASSWORD", password)
    monkeypatch.delenv("LEGALSEARCH_USER", raising=False)
    result = CliRunner().invoke(cli.main, args)
    return json.loads(result.output)


def _cases() -> list[tuple[str, str, str, dict]]:
    """(label, user, options) of every comparison: each demo question (the access-control ones as
    the user without the group too) and the gold questions (every other one with `highlight`)."""
    from legalsearch.demo import EXAMPLES

    cases = []
    for label, example in EXAMPLES:
        options = {k: v for k, v in example.items() if k != "query"}
        cases.append((f"demo: {label}", "alice", example["query"], options))
        if "access control" in label:
            cases.append((f"demo as bob: {label}", "bob", example["query"], options))
    for n, row in enumerate(_gold_questions()):
        # every other gold question with the matched words highlighted (the page asks for them)
        options = {"k": 5, **({"as_of": row["as_of"]} if row.get("as_of") else {}), **({"highlight": True} if n % 2 else {})}
        cases.append((f"gold {row['id']}", "alice", row["query"], options))
    return cases


def test_service_search_equals_cli_json(server, sample_index, people, monkeypatch, opensearch_url):
    """Every case: POST /v1/search == `legalsearch search --json --user U` (minus timings_ms)."""
    index = sample_index[0]
    compared, with_hits = [], 0
    for label, who, query, options in _cases():
        user, password = people[who]
        cli = _cli_json(monkeypatch, opensearch_url, password,
                        ["search", query, "--index", index, "--user", user, *_cli_flags(options), "--json"])
        body = {"query": query, "index": index,
                **{k: (v.isoformat() if isinstance(v, date) else v) for k, v in options.items()}}
        answer = httpx.post(f"{server}/v1/search", json=body, auth=(user, password), timeout=120)
        assert answer.status_code == 200, (label, answer.text)
        assert answer.headers["content-type"].startswith("application/json")
        http = answer.json()
        assert "error" not in cli, (label, cli)
        for payload in (cli, http):
            payload.pop("timings_ms")
        assert http == cli, label
        compared.append(label)
        with_hits += bool(http["hits"])
    print(f"\nservice == CLI on {len(compared)} questions ({with_hits} with hits)")
    assert len(compared) >= 14 and with_hits >= len(compared) - 2


def _privileged(response: dict) -> list[str]:
    return [h["chunk_id"] for h in response["hits"] if h["doc_id"] == "privileged-note-litigation"]


def test_only_the_verified_users_groups_are_searched(server, sample_index, people):
    query = "settlement strategy on the liability cap"
    alice, bob = people["alice"], people["bob"]
    body = {"query": query, "index": sample_index[0], "k": 5}
    as_alice = httpx.post(f"{server}/v1/search", json=body, auth=alice, timeout=120).json()
    assert _privileged(as_alice)
    # bob asks for the group he does not hold: `groups` only narrows
    as_bob = httpx.post(f"{server}/v1/search", json={**body, "groups": ["litigation-team"]}, auth=bob,
                        timeout=120).json()
    assert not _privileged(as_bob) and "privileged" not in json.dumps(as_bob).lower()
    # alice narrowing to no group of hers: public text only
    narrowed = httpx.post(f"{server}/v1/search", json={**body, "groups": ["deal-team"]}, auth=alice,
                          timeout=120).json()
    assert not _privileged(narrowed)
    # the document view: bob is told there is no such document; alice reads it
    url = f"{server}/v1/documents/privileged-note-litigation"
    hidden = httpx.get(url, params={"index": sample_index[0]}, auth=bob, timeout=60)
    assert hidden.status_code == 404 and hidden.headers["content-type"] == "application/problem+json"
    assert httpx.get(url, params={"index": sample_index[0]}, auth=alice, timeout=60).status_code == 200


def test_document_opens_at_the_passage_a_hit_cites(server, sample_index, people):
    index = sample_index[0]
    hit = httpx.post(f"{server}/v1/search", json={"query": "What is the liability cap in clause 14.3?",
                                                  "index": index, "k": 1}, auth=people["bob"], timeout=120).json()
    first = hit["hits"][0]
    view = httpx.get(f"{server}/v1/documents/{first['doc_id']}",
                     params={"index": index, "chunk_id": first["chunk_id"]}, auth=people["bob"], timeout=60).json()
    assert view["version"] == first["version"] and view["focus"]["chunk_id"] == first["chunk_id"]
    assert view["text"][first["char_start"]:first["char_end"]] == first["text"]
    assert any(p["chunk_id"] == first["chunk_id"] for p in view["passages"])
    # the statute's other version is one request away, and the default is the one in force today
    statute = httpx.get(f"{server}/v1/documents/housing-act-1988", params={"index": index}, auth=people["bob"],
                        timeout=60).json()
    versions = {v["version"]: v for v in statute["versions"]}
    assert set(versions) == {"2019", "2026"}
    assert versions[statute["version"]]["in_force"]
    old = httpx.get(f"{server}/v1/documents/housing-act-1988", params={"index": index, "version": "2019"},
                    auth=people["bob"], timeout=60).json()
    assert old["version"] == "2019" and old["text"] != statute["text"]


def test_errors_are_problems_with_the_clis_messages(server, sample_index, people, monkeypatch, opensearch_url):
    user, password = people["alice"]
    index = sample_index[0]

    def post(body, auth=(user, password), path="/v1/search", **kw):
        return httpx.post(f"{server}{path}", json=body, auth=auth, timeout=60, **kw)

    def problem(answer, status):
        assert answer.status_code == status, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
        found = answer.json()
        assert set(found) == {"type", "title", "status", "detail"} and found["status"] == status
        return found["detail"]

    no_login = httpx.post(f"{server}/v1/search", json={"query": "x"}, timeout=30)
    assert "log in" in problem(no_login, 401) and no_login.headers["www-authenticate"].startswith("Basic")
    bearer = httpx.post(f"{server}/v1/search", json={"query": "x"}, headers={"Authorization": "Bearer abc"},
                        timeout=30)
    assert "malformed bearer token" in problem(bearer, 401)
    cli_bad = _cli_json(monkeypatch, opensearch_url, password + "-wrong",
                        ["search", "x", "--index", index, "--user", user, "--json"])
    assert problem(post({"query": "x", "index": index}, auth=(user, password + "-wrong")), 401) == cli_bad["error"]
    cli_k = _cli_json(monkeypatch, opensearch_url, password,
                      ["search", "x", "--index", index, "--user", user, "-k", "0", "--json"])
    assert problem(post({"query": "x", "index": index, "k": 0}), 422) == cli_k["error"]
    cli_date = _cli_json(monkeypatch, opensearch_url, password,
                         ["search", "x", "--index", index, "--user", user, "--as-of", "2025-13-01", "--json"])
    assert problem(post({"query": "x", "index": index, "as_of": "2025-13-01"}), 422) == cli_date["error"]
    cli_profile = _cli_json(monkeypatch, opensearch_url, password,
                            ["search", "x", "--index", index, "--user", user, "--profile", "nope", "--json"])
    assert problem(post({"query": "x", "index": index, "profile": "nope"}), 422) == cli_profile["error"]
    assert "no such option" in problem(post({"query": "x", "set": {"bogus": 1}}), 422)
    assert "rerank.depth" in problem(post({"query": "x", "index": index, "set": {"rerank_depth": 0}}), 422)
    cli_index = _cli_json(monkeypatch, opensearch_url, password,
                          ["search", "x", "--index", "no-such-index-web", "--user", user, "--json"])
    assert problem(post({"query": "x", "index": "no-such-index-web"}), 404) == cli_index["error"]
    assert "JSON" in problem(httpx.post(f"{server}/v1/search", content=b"{not json", auth=(user, password),
                                        timeout=30), 400)
    assert "bytes" in problem(post({"query": "x" * 70_000}), 413)
    assert problem(httpx.get(f"{server}/v1/nothing", timeout=30), 404)
    assert "budget" in problem(post({"query": "x", "index": index, "budget": "lots"}, path="/v1/context"), 422)


def test_context_explain_indices_health_and_openapi(server, sample_index, people, monkeypatch, opensearch_url):
    index = sample_index[0]
    auth = people["alice"]
    context = httpx.post(f"{server}/v1/context", json={"query": "How long does the NDA with Initech last?",
                                                       "index": index, "budget": 1500}, auth=auth, timeout=120)
    assert context.status_code == 200, context.text
    assert context.json()["pieces"] and context.json()["used_chars"] <= 1500
    explained = httpx.post(f"{server}/v1/explain", json={"query": "section 21 notice", "index": index, "k": 3,
                                                         "as_of": "2025-01-01"}, auth=auth, timeout=120)
    assert explained.status_code == 200, explained.text
    assert explained.json()["hits"] and "bm25" in explained.json()["lists"]
    cli = _cli_json(monkeypatch, opensearch_url, auth[1], ["explain", "section 21 notice", "--index", index, "-k", "3",
                                                           "--as-of", "2025-01-01", "--user", auth[0], "--json"])
    assert explained.json() == cli
    listed = httpx.get(f"{server}/v1/indices", auth=auth, timeout=60).json()
    mine = next(r for r in listed if r["name"] == index)
    assert set(mine) == {"name", "embedder"}  # a reader sees no counts
    assert httpx.get(f"{server}/readyz", timeout=30).json()["status"] == "ready"
    page = httpx.get(f"{server}/", timeout=30)
    assert page.status_code == 200 and "<form id=\"login-form\">" in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert httpx.get(f"{server}/static/app.js", timeout=30).headers["content-type"].startswith("text/javascript")
    assert httpx.get(f"{server}/static/../app.py", timeout=30).status_code == 404
    spec = httpx.get(f"{server}/openapi.json", timeout=30).json()
    assert {"/v1/search", "/v1/context", "/v1/explain", "/v1/documents/{doc_id}", "/v1/indices"} <= set(spec["paths"])
    body = spec["paths"]["/v1/search"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {"query", "profile", "set", "routing_docs", "routing", "filters", "as_of"} <= set(body["properties"])
    assert "SearchResponse" in spec["components"]["schemas"]


def test_access_log_has_the_user_and_no_credential(server, sample_index, people, caplog):
    user, password = people["alice"]
    caplog.set_level(logging.INFO, logger="legalsearch.web.access")
    header = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
    answer = httpx.post(f"{server}/v1/search", json={"query": "liability cap", "index": sample_index[0], "k": 1},
                        headers={"Authorization": header, "X-Request-ID": "web-test-1"}, timeout=120)
    assert answer.status_code == 200 and answer.headers["x-request-id"] == "web-test-1"
    lines = [json.loads(r.getMessage()) for r in caplog.records if r.name == "legalsearch.web.access"]
    mine = next(line for line in lines if line["request_id"] == "web-test-1")
    assert mine["user"] == user and mine["status"] == 200 and mine["path"] == "/v1/search"
    assert password not in caplog.text and header.split()[1] not in caplog.text


def test_timeout_and_per_user_limit(base_client, sample_index, people):
    """A request over the timeout is a 504, and its work still holds the user's slot (429) until it ends."""
    from fastapi.testclient import TestClient
    from legalsearch.web.app import Limits, create_app

    app = create_app(base_client, Limits(timeout_s=0.001, per_user=1))
    body = {"query": "Can a landlord end a tenancy without giving a reason?", "index": sample_index[0],
            "rerank": "e5", "rerank_depth": 100}
    with TestClient(app) as http:
        first = http.post("/v1/search", json=body, auth=people["alice"])
        assert first.status_code == 504 and first.json()["status"] == 504
        second = http.post("/v1/search", json=body, auth=people["alice"])
        assert second.status_code == 429 and second.headers["retry-after"] == "1"


def test_bearer_tokens_issued_by_the_node_search_as_their_user(server, sample_index, people):
    """POST /v1/token (HTTP basic in) gives the node's own on-behalf-of token; searches with it see
    exactly what the same user sees with the password; an altered token is refused by the node."""
    index = sample_index[0]
    body = {"query": "settlement strategy on the liability cap", "index": index, "k": 5}
    for who, sees_privileged in (("alice", True), ("bob", False)):
        user, password = people[who]
        issued = httpx.post(f"{server}/v1/token?seconds=120", auth=(user, password), timeout=60)
        assert issued.status_code == 200, issued.text
        found = issued.json()
        assert found["user"] == user and found["expires_in"] == 120 and found["token"].count(".") == 2
        bearer = {"Authorization": f"Bearer {found['token']}"}
        with_token = httpx.post(f"{server}/v1/search", json=body, headers=bearer, timeout=120)
        assert with_token.status_code == 200, with_token.text
        with_password = httpx.post(f"{server}/v1/search", json=body, auth=(user, password), timeout=120).json()
        with_token = with_token.json()
        for payload in (with_token, with_password):
            payload.pop("timings_ms")
        assert with_token == with_password, who
        assert bool(_privileged(with_token)) is sees_privileged
        # the document view too: bob's token opens no privileged document
        doc = httpx.get(f"{server}/v1/documents/privileged-note-litigation", params={"index": index}, headers=bearer,
                        timeout=60)
        assert doc.status_code == (200 if sees_privileged else 404), doc.text
    # an altered signature, a token for a token, a wrong password: refused, with the reason
    user, password = people["bob"]
    token = httpx.post(f"{server}/v1/token", auth=(user, password), timeout=60).json()["token"]
    altered = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    refused = httpx.post(f"{server}/v1/search", json=body, headers={"Authorization": f"Bearer {altered}"}, timeout=60)
    assert refused.status_code == 401 and "did not accept the bearer token" in refused.json()["detail"]
    again = httpx.post(f"{server}/v1/token", headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert again.status_code == 400
    wrong = httpx.post(f"{server}/v1/token", auth=(user, password + "-wrong"), timeout=60)
    assert wrong.status_code == 401 and "did not accept the password" in wrong.json()["detail"]
    too_long = httpx.post(f"{server}/v1/token?seconds=3600", auth=(user, password), timeout=60)
    assert too_long.status_code == 422
