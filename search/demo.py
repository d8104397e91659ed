"""What `make demo` shows: the sample corpus ingested, then questions that exercise each failure
mode legalsearch removes (identifiers, plain-English questions, versions, Italian cross-references,
access control). On a secured node the access-control questions are asked as demo users the demo
creates (passwords kept 0600 in the local node's secrets folder), and it ends with how to log in."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from legalsearch.errors import LegalSearchError, SecurityError
from legalsearch.query import templates
from legalsearch.query.identifiers import parse_identifiers
from legalsearch.query.models import Filters
from legalsearch.security.secrets import make_password, secrets_of, write_secret

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "corpus"

EXAMPLES: list[tuple[str, dict]] = [
    ("identifier: the liability cap in clause 14.3, not 14.2, with the amendment that raised it",
     {"query": "What is the liability cap in clause 14.3?", "k": 3}),
    ("conceptual, before the repeal (as of 2025-06-01)",
     {"query": "Can a landlord end a tenancy without giving a reason?", "as_of": date(2025, 6, 1), "k": 3}),
    ("the same question after the repeal (as of 2026-06-01)",
     {"query": "Can a landlord end a tenancy without giving a reason?", "as_of": date(2026, 6, 1), "k": 3}),
    ("Italian: withdrawal, with the penalty it points to (art. 5 -> art. 7)",
     {"query": "Come può il cliente recedere dal contratto di fornitura e cosa deve pagare?", "k": 2}),
    ("access control: a caller without groups", {"query": "settlement strategy on the liability cap", "k": 3}),
    ("access control: the litigation team",
     {"query": "settlement strategy on the liability cap", "k": 3, "groups": ("litigation-team",)}),
]
# On a secured node the two access-control questions run as these users (the node checks who they
# are and which groups they hold; no --group needed). name -> (groups, roles)
DEMO_USERS = {
    "demo-staff": ((), ("reader",)),
    "demo-lawyer": (("litigation-team",), ("reader",)),
    "demo-auditor": ((), ("auditor",)),
}
AS_USER = {"access control: a caller without groups": "demo-staff", "access control: the litigation team": "demo-lawyer"}


def demo_users_file(client: Any) -> Path:
    return client.settings.node_secrets / "demo-users.json"


def ensure_demo_users(client: Any) -> dict[str, str] | None:
    """Create (or keep) the demo users on the local secured node; their passwords, or None when
    the node has no security plugin or is not the local one (no place to keep passwords)."""
    if client.settings.opensearch_url or secrets_of(client.settings) is None or client.whoami() is None:
        return None
    path = demo_users_file(client)
    stored = json.loads(path.read_text()) if path.is_file() else {}
    existing = {u["user"] for u in client.list_users()}
    for name, (groups, roles) in DEMO_USERS.items():
        password = stored.get(name) or make_password()
        if name not in existing:
            client.add_user(name, password, groups=groups, roles=roles)
        elif name not in stored:
            client.set_password(name, password)
        stored[name] = password
    write_secret(path, json.dumps(stored, indent=2))
    return stored


def run(client: Any, index: str, echo: Callable[[str], None], embedder: str = "e5") -> None:
    """Ingest the sample corpus and answer the examples through `client` (a `search.LegalSearch`)."""
    echo(f"==> ingesting {SAMPLES} into index {index!r} (embedder {embedder}; re-runs skip unchanged files)")
    report = client.ingest([SAMPLES], index=index, embedder=embedder)
    s = report.summary()
    echo(f"    {s['documents']} documents ({s['ingested']} ingested, {s['unchanged']} unchanged, "
         f"{s['failed']} failed), {s['chunks']} chunks written")
    for failure in s["failures"]:
        echo(f"    FAILED {failure['path']}: {failure['error']}")
    try:
        users = ensure_demo_users(client)
    except SecurityError as e:
        users = None
        echo(f"    (demo users not created: {e})")
    for title, params in EXAMPLES:
        asker = client
        if users and title in AS_USER:
            name = AS_USER[title]
            asker = client.as_user(name, users[name])
            params = {k: v for k, v in params.items() if k != "groups"}  # the node knows the user's groups
        response = asker.search(params["query"], index=index, **{k: v for k, v in params.items() if k != "query"})
        filters = ", ".join(f"{k}={v}" for k, v in params.items() if k not in ("query", "k"))
        if asker is not client:
            filters = ", ".join(filter(None, [f"as user {asker.settings.user}", filters]))
        echo(f"\n==> {title}\n    query: {params['query']}" + (f"   [{filters}]" if filters else ""))
        if response.not_found:
            echo(f"    not found: {response.not_found_reason}")
        for hit in response.hits:
            via = "" if hit.via == "retrieval" else f"   (via {hit.via})"
            snippet = " ".join(hit.text.split())[:150]
            echo(f"    {hit.rank}. {hit.citation}{via}\n       {snippet}...")
    _engine_side(client, index, echo)
    echo(f"\nTry your own: legalsearch search \"...\" --index {index}   (add --json for the full contract, "
         f"`legalsearch explain` for the ranks behind each hit)")
    if users:
        _how_to_log_in(client, index, echo)
        _open_the_page(client, index, users, echo)


def _engine_side(client: Any, index: str, echo: Callable[[str], None]) -> None:
    """Install the engine side and ask the first example through the stored template, as any
    OpenSearch client would (docs/engine.md)."""
    try:
        client.install_engine(index)
    except LegalSearchError as e:
        echo(f"\n    (engine side not installed: {e})")
        return
    question = EXAMPLES[0][1]["query"]
    params = templates.template_params(question, Filters(), parse_identifiers(question), 3)
    found = client.store.search_template(index, templates.HYBRID_TEMPLATE, params)
    echo(f"\n==> the same search for any OpenSearch client (Dev Tools, curl, a Java service): the node embeds "
         f"the question itself\n    GET {index}/_search/template "
         + json.dumps({"id": templates.HYBRID_TEMPLATE, "params": params}, ensure_ascii=False))
    for rank, hit in enumerate(found["hits"]["hits"], start=1):
        echo(f"    {rank}. {hit['_id']}")


def _how_to_log_in(client: Any, index: str, echo: Callable[[str], None]) -> None:
    found = secrets_of(client.settings)
    url = client.store.url
    echo(f"""
==> logging in (the node is secured: TLS with a local CA, users, document-level security)
    demo users: {', '.join(DEMO_USERS)}; passwords in {demo_users_file(client)} (0600)
    search as a user (asks for the password):
        legalsearch search "settlement strategy" --index {index} --user demo-lawyer
    read directly (curl, Dashboards, aggregations) demo-staff gets public chunks only, never the privileged note:
        curl --cacert {found.pki.ca} -u demo-staff "{url}/{index}/_search?q=liability"
    the retrieval log is readable by demo-auditor only:
        curl --cacert {found.pki.ca} -u demo-auditor "{url}/{client.settings.log_index}/_search"
    the admin: `legalsearch node credentials` (password with --show-password); users: `legalsearch users --help`
    Dashboards: `docker compose up -d` (security on too; docs/security.md)""")


def _open_the_page(client: Any, index: str, users: dict[str, str], echo: Callable[[str], None]) -> None:
    """Start the search service and its page in the background (idempotent) and end with where to
    open it and a login that works."""
    from legalsearch.node import webservice

    try:
        state = webservice.start(client.settings)
        webservice.wait_ready(client.settings)
    except LegalSearchError as e:
        echo(f"\n    (the search service did not start: {e})")
        return
    echo(f"""
==> the page and the HTTP service (the full ranking for any client: docs/service.md), running in the background
    open {state.url}/  index {index}
    log in as demo-lawyer, password {users['demo-lawyer']}   (litigation-team: sees the privileged note)
           or demo-staff,  password {users['demo-staff']}   (no group: never sees it)
    curl -u 'demo-lawyer:{users['demo-lawyer']}' -d '{{"query": "liability cap", "index": "{index}", "k": 3}}' {state.url}/v1/search
    stop it with `legalsearch serve --stop` (`legalsearch node stop` stops everything)""")
