"""The sample corpus, ingested once per session into a uuid-named index (read-only for tests)."""

from __future__ import annotations

import contextlib
import time
import uuid

import pytest

from tests.conftest import REPO, SAMPLES


@contextlib.contextmanager
def ingested_index(store, run_ingest, prefix: str, paths, **options):
    """(name, report) of a uuid-named index holding `paths` (no document may fail), deleted after."""
    from legalsearch.index import indices
    from legalsearch.ingest import IngestOptions

    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    report = run_ingest(list(paths), IngestOptions(index=name, **options))
    summary = report.summary()
    assert summary["failed"] == 0, summary["failures"]
    try:
        yield name, report
    finally:
        indices.delete(store, name)


def poll(found, what: str, seconds: float = 30.0):
    """`found()` once it returns something (a list of hits, a record), trying again for up to
    `seconds`: for what the engine or a background writer lands after the call that made it (the
    retrieval log is written off the request path)."""
    deadline = time.monotonic() + seconds
    while not (answer := found()):
        assert time.monotonic() < deadline, f"{what}: not there after {seconds:g} s"
        time.sleep(0.2)
    return answer


def logged(admin_store, log_index: str, search, query: dict) -> list[dict]:
    """The hits of `query` in the retrieval log (`search(index, body)`: the reader's own store's
    search), for `poll`: [] while the log index does not exist, since on a fresh node the background
    writer creates it with the first record, which lands after the search returns."""
    if not admin_store.index_exists(log_index):
        return []
    admin_store.refresh(log_index)
    return search(log_index, {"query": query})["hits"]["hits"]


@pytest.fixture(scope="session")
def sample_index(store, run_ingest):
    with ingested_index(store, run_ingest, "test-samples", [SAMPLES], embedder="e5") as found:
        yield found


@pytest.fixture(scope="session")
def acts_index(store, run_ingest):
    """Round 12's three look-alike Acts (evaluation/gold/round12-acts/corpus), MiniLM, public: the
    index on which routing's lists tie (test_routing_doubt.py, test_web_page.py)."""
    corpus = REPO / "evaluation" / "gold" / "round12-acts" / "corpus"
    with ingested_index(store, run_ingest, "test-acts", [corpus], embedder="minilm", public_if_no_acl=True) as (name, _):
        yield name


@pytest.fixture(scope="session")
def service(settings, store, embedders):
    from legalsearch.query.service import SearchService

    return SearchService(settings.model_copy(update={"log_searches": False}), store, embedders)


# --------------------------------------------------------------------------- security


@pytest.fixture(scope="session")
def secured(store):
    """The node's answer to "who am I" for the admin connection; a node without the security
    plugin fails these tests (the local node is secured by default)."""
    info = store.authinfo()
    if info is None:
        pytest.fail(f"{store.url} has no security plugin: run against the local node (secured by default) or a "
                    "secured OPENSEARCH_URL with admin credentials")
    return info


def user_store(settings, url: str, name: str, password: str):
    """A Store connected as `name` itself: what curl or Dashboards would do with its password."""
    from legalsearch.store import Store
    from pydantic import SecretStr

    return Store(settings.model_copy(update={"opensearch_user": name, "opensearch_password": SecretStr(password),
                                             "log_searches": False}), url=url)


def add_user(store, name: str, password: str, groups=(), roles=("reader",)) -> None:
    """admin.users_add, again after a 409: other sessions write the shared node's security index
    at the same moment (optimistic concurrency of the plugin's internalusers document)."""
    from legalsearch.errors import StoreError
    from legalsearch.security import admin

    for attempt in range(5):
        try:
            admin.users_add(store, name, password, groups, roles)
            return
        except StoreError as e:
            if "HTTP 409" not in str(e) or attempt == 4:
                raise


@pytest.fixture(scope="session")
def people(store, secured):
    """alice (group litigation-team), bob (no group), carol (auditor): base name -> (user, password),
    made for this session and removed afterwards."""
    from legalsearch.security import admin
    from legalsearch.security.secrets import make_password

    suffix = uuid.uuid4().hex[:6]
    made = {}
    for base, groups, roles in (("alice", ("litigation-team",), ("reader",)), ("bob", (), ("reader",)),
                                ("carol", (), ("auditor",))):
        name, password = f"{base}-{suffix}", make_password()
        admin.users_add(store, name, password, groups, roles)
        made[base] = (name, password)
    yield made
    for name, _ in made.values():
        admin.users_remove(store, name)


@pytest.fixture(scope="session")
def admin_client(settings, opensearch_url, embedders):
    """The public client as the admin, sharing the session's models."""
    from legalsearch import LegalSearch

    client = LegalSearch(settings.model_copy(update={"log_searches": False}), url=opensearch_url)
    client.embedders = embedders
    return client
