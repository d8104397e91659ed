"""Property: no user ever gets a passage outside its groups, whatever it asks and however it asks.

Hypothesis draws documents with random ACL groups (added to one index as the examples run), a
user with a random set of groups (one user per set, made once), and a random request: every
mode, fusion, routing, rerank, expansion and the explain path, with random `--group` narrowing.
Each example checks, on the real secured node:

- through our client (searching as the user: verified by the plugin, run by the service account
  with the user's groups): every hit and expanded passage is public or shares a group with the
  user's groups narrowed by the request;
- through raw OpenSearch requests made with the user's own password (what curl and Dashboards
  do): match_all on the chunk and docs aliases returns exactly the documents the user may read,
  aggregations count only those, an ids query finds no other chunk, a bool[match, knn] query
  returns no other chunk, and a hybrid query fails as documented for 2.19 (neural-search #1303).

LEGALSEARCH_PROPERTY_EXAMPLES sets the number of examples (default 15: about 2 minutes on the
shared 2-core development machine at load 10).
"""

from __future__ import annotations

import itertools
import os
import uuid

import pytest
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from legalsearch.documents.models import Document
from legalsearch.errors import StoreError
from legalsearch.index import schema
from legalsearch.query import fusion
from legalsearch.security import admin
from legalsearch.security.secrets import make_password

from tests.integration.conftest import user_store

EXAMPLES = int(os.environ.get("LEGALSEARCH_PROPERTY_EXAMPLES", "15"))
GROUPS = ("g0", "g1", "g2")
NOBODYS = "g9"  # a group no user holds: such documents are for the admin only
VOCAB = ("indemnity", "liability", "termination", "notice", "payment", "fees", "warranty", "confidential",
         "breach", "remedy", "damages", "supplier", "customer", "renewal", "audit", "insurance", "escrow",
         "settlement", "privileged", "strategy", "jurisdiction", "arbitration", "licence", "software")
_ids = itertools.count()


def _words(draw, lo: int, hi: int) -> str:
    return " ".join(draw(st.lists(st.sampled_from(VOCAB), min_size=lo, max_size=hi)))


@st.composite
def documents(draw) -> Document:
    """A short contract: numbered clauses, a defined term, a cross-reference, random ACL."""
    n = next(_ids)
    acl = draw(st.lists(st.sampled_from(GROUPS + (NOBODYS,)), max_size=3, unique=True))
    public = draw(st.sampled_from((False, False, True))) if acl else True  # mostly private: more to leak
    clauses = [f'1. Definitions\n"Widget{n}" means the {_words(draw, 3, 6)} described in clause 3.']
    for i in range(2, draw(st.integers(3, 5)) + 1):
        ref = f" Subject to clause {i - 1}, the Widget{n} applies." if draw(st.booleans()) else ""
        clauses.append(f"{i}. {_words(draw, 1, 2).title()}\nThe {_words(draw, 6, 14)}.{ref}")
    title = f"Agreement {n} on {_words(draw, 1, 3)}"
    return Document(text=f"{title.upper()}\n\n" + "\n\n".join(clauses), doc_id=f"pbt-{n}", title=title,
                    acl=acl, public=public)


requests = st.fixed_dictionaries({
    "mode": st.sampled_from(["hybrid", "bm25", "knn"]),
    "fusion": st.sampled_from(["normalization", "rrf"]),
    "routing": st.sampled_from(["off", "filter", "boost", "auto"]),
    "rerank": st.sampled_from(["off", "off", "e5"]),
    "expand_xrefs": st.booleans(),
    "expand_definitions": st.booleans(),
    "k": st.integers(1, 10),
    "groups": st.lists(st.sampled_from(GROUPS + (NOBODYS,)), max_size=3, unique=True),
})


class World:
    """The index, the users (one per subset of GROUPS) and what each document's ACL is."""

    def __init__(self, admin_client, store, settings, url):
        self.admin_client, self.store, self.settings, self.url = admin_client, store, settings, url
        self.index = f"test-pbt-{uuid.uuid4().hex[:8]}"
        self.acl: dict[str, tuple[frozenset[str], bool]] = {}
        self.users: dict[frozenset[str], tuple[str, str]] = {}
        suffix = uuid.uuid4().hex[:6]
        for r in range(len(GROUPS) + 1):
            for groups in itertools.combinations(GROUPS, r):
                name = f"pbt-{suffix}-{''.join(g[1] for g in groups) or 'none'}"
                password = make_password()
                admin.users_add(store, name, password, groups)
                self.users[frozenset(groups)] = (name, password)
        self.clients = {groups: admin_client.as_user(*cred) for groups, cred in self.users.items()}
        self.raw = {groups: user_store(settings, url, *cred) for groups, cred in self.users.items()}

    def add(self, docs: list[Document]) -> None:
        report = self.admin_client.ingest(docs, index=self.index, embedder="minilm")
        assert report.summary()["failed"] == 0, report.summary()["failures"]
        for d in docs:
            self.acl[d.doc_id] = (frozenset(d.model_extra["acl"]), d.model_extra["public"])

    def readable(self, doc_id: str, groups) -> bool:
        acl, public = self.acl[doc_id]
        return public or bool(acl & set(groups))

    def visible(self, groups) -> set[str]:
        return {d for d in self.acl if self.readable(d, groups)}

    def close(self) -> None:
        from legalsearch.index import indices

        indices.delete(self.store, self.index)
        for name, _ in self.users.values():
            admin.users_remove(self.store, name)


@pytest.fixture(scope="module")
def world(admin_client, store, settings, opensearch_url, secured):
    w = World(admin_client, store, settings, opensearch_url)
    admin_client.install_pipelines()  # the raw hybrid below names a pipeline; users cannot create one
    yield w
    w.close()


def _doc_of(chunk_id: str) -> str:
    return chunk_id.split(":")[0]


# No shrinking: every example adds documents to one growing index, so a shrunk example does not
# replay the same state, and each step costs seconds; a failure prints the example as drawn.
@hypothesis_settings(max_examples=EXAMPLES, deadline=None, database=None, phases=(Phase.explicit, Phase.generate),
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(new_docs=st.lists(documents(), min_size=1, max_size=2),
       user_groups=st.sets(st.sampled_from(GROUPS)),
       words=st.lists(st.sampled_from(VOCAB), min_size=1, max_size=4),
       request=requests, explain=st.booleans())
def test_no_user_reads_outside_its_groups(world, new_docs, user_groups, words, request, explain):
    world.add(new_docs)
    key = frozenset(user_groups)
    narrowed = set(request["groups"]) & key if request["groups"] else key
    question = " ".join(words)

    # 1. through our client, as the user
    client = world.clients[key]
    if explain:
        result = client.explain(question, index=world.index, **request)
        returned = [_doc_of(row["chunk_id"]) for row in result["hits"]]
    else:
        response = client.search(question, index=world.index, **request)
        returned = [h.doc_id for h in response.hits]  # expanded passages (via xref / definition) included
    leaked = [d for d in returned if not world.readable(d, narrowed)]
    assert not leaked, f"{sorted(key)} narrowed to {sorted(narrowed)} got {leaked}"

    # 2. raw OpenSearch requests with the user's own password: the engine's DLS
    raw = world.raw[key]
    visible = world.visible(key)
    everything = {"query": {"match_all": {}}, "size": 1000, "_source": ["doc_id"]}
    assert {h["_source"]["doc_id"] for h in raw.search(world.index, everything)["hits"]["hits"]} == visible
    docs_alias = schema.alias_name(world.index, "docs")
    assert {h["_source"]["doc_id"] for h in raw.search(docs_alias, everything)["hits"]["hits"]} == visible
    aggs = raw.search(world.index, {"size": 0, "aggs": {
        "docs": {"terms": {"field": "doc_id", "size": 1000}}, "acl": {"terms": {"field": "acl", "size": 100}}}})
    assert {b["key"] for b in aggs["aggregations"]["docs"]["buckets"]} == visible
    visible_acl = set().union(*(world.acl[d][0] for d in visible)) if visible else set()
    assert {b["key"] for b in aggs["aggregations"]["acl"]["buckets"]} <= visible_acl
    hidden = sorted(set(world.acl) - visible)
    if hidden:
        ids = {"query": {"ids": {"values": [f"{d}:1:{i:04d}" for d in hidden for i in range(3)]}}}
        assert world.store.search(world.index, ids)["hits"]["hits"]  # the ids exist...
        assert raw.search(world.index, ids)["hits"]["hits"] == []  # ...and the user cannot fetch them
    vector = world.admin_client.embedders.get("minilm").embed_query(question).tolist()
    both = {"size": 50, "_source": ["doc_id"], "query": {"bool": {"should": [
        {"match": {"embedded_text": question}}, {"knn": {"vector": {"vector": vector, "k": 50}}}]}}}
    assert {h["_source"]["doc_id"] for h in raw.search(world.index, both)["hits"]["hits"]} <= visible
    pipeline = fusion.rrf_pipeline_name(fusion.DEFAULT_RANK_CONSTANT)
    hybrid = {"query": {"hybrid": {"queries": both["query"]["bool"]["should"]}}}
    with pytest.raises(StoreError, match="hybrid query must be a top level query"):
        raw.search(world.index, hybrid, pipeline=pipeline)
