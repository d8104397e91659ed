"""Walls by index (search.index.walls) on the real secured node: text that is not public lies in
walled indices only its groups may open, whatever the request shape; the service searches
exactly the indices of the verified groups; an ACL change moves a document and leaves no copy;
a kept generation of a blue/green reindex cannot serve what the live one made private."""

from __future__ import annotations

import json
import uuid

import pytest
from legalsearch import Document
from legalsearch.errors import LegalSearchError, PermissionDeniedError, StoreError
from legalsearch.index import indices, walls
from legalsearch.security import admin
from legalsearch.security.secrets import make_password

from tests.integration.conftest import add_user, user_store

LIT, DEAL = "litigation-team", "deal-team"
# distinctive words of each privileged text, title and id: none may appear in a response to a
# reader without the group
SECRETS = {  # doc_id: (title, text, acl, its distinctive word)
    "priv-settle": ("Settlement strategy note", "opening position of 950000 pounds and a walk-away floor of "
                    "zanzibarquux twelve", [LIT], "zanzibarquux"),
    "priv-deal": ("Project Heron term sheet", "the heron acquisition price is plovercrest ninety million", [DEAL],
                  "plovercrest"),
    "priv-both": ("Joint board memo", "the joint memo names wombatfennel as the escrow agent", [LIT, DEAL],
                  "wombatfennel"),
}
PUBLIC = ("public-nda", "Mutual NDA", "1. Term\nThis agreement lasts two years. The liability cap is one month "
          "of fees and the settlement of disputes goes to arbitration.\n")


def _documents(acl_override: dict | None = None) -> list[Document]:
    docs = [Document(text=PUBLIC[2], doc_id=PUBLIC[0], title=PUBLIC[1], public=True, language="en")]
    for doc_id, (title, text, acl, _) in SECRETS.items():
        acl = (acl_override or {}).get(doc_id, acl)
        body = f"1. Strategy\nThis privileged note records that {text}. The settlement strategy stays internal.\n"
        docs.append(Document(text=body, doc_id=doc_id, title=title, language="en",
                             **({"public": True} if acl == "public" else {"acl": acl, "public": False})))
    return docs


def _forbidden_for(who: str) -> list[str]:
    """What each hostile user must never receive. The auditor reads the retrieval log and the
    security audit log by design: the ids of what was found or read, never a title or a text."""
    forbidden = _forbidden("none")
    if who == "nobody":
        forbidden = [s for s in forbidden if s not in SECRETS and not s.startswith("memory:")]
    return forbidden


def _forbidden(group: str) -> list[str]:
    """What a reader without `group` must never receive."""
    out = []
    for doc_id, (title, _, acl, word) in SECRETS.items():
        if group not in acl:
            out += [doc_id, title, word, "memory:" + doc_id]
    return out


@pytest.fixture(scope="module")
def walled(admin_client, store, secured):
    name = f"test-walls-{uuid.uuid4().hex[:8]}"
    report = admin_client.ingest(_documents(), index=name, embedder="minilm")
    assert report.summary()["failed"] == 0, report.summary()
    made = {}
    suffix = uuid.uuid4().hex[:6]
    for base, groups, roles in (("lit", (LIT,), ("reader",)), ("staff", (), ("reader",)),
                                ("nobody", (), ("auditor",)), ("norole", (), ())):
        user, password = f"walls-{base}-{suffix}", make_password()
        add_user(store, user, password, groups, roles)
        made[base] = (user, password)
    yield name, made
    for user, _ in made.values():
        admin.users_remove(store, user)
    indices.delete(store, name)


def test_each_group_set_has_its_wall_and_the_public_index_holds_public_text_only(store, walled):
    name, _ = walled
    info = indices.info(store, name)
    assert sorted(tuple(w["groups"]) for w in info["walls"]) == [(DEAL,), (DEAL, LIT), (LIT,)]
    public = {h["_source"]["doc_id"] for h in store.scan(name, {"match_all": {}}, source=["doc_id"])}
    assert public == {PUBLIC[0]}
    for wall in info["walls"]:
        held = {h["_source"]["doc_id"] for h in store.scan(wall["chunks"], {"match_all": {}}, source=["doc_id"])}
        [expected] = [d for d, (_, _, acl, _) in SECRETS.items() if sorted(acl) == wall["groups"]]
        assert held == {expected}
        assert wall["chunks"].startswith(f"{name}--walled-chunks-v1--") and "--chunks-v" not in wall["chunks"]
        aliases = store.get_index(wall["chunks"])[wall["chunks"]]["aliases"]
        assert set(aliases) == {walls.group_alias(name, "chunks", g) for g in wall["groups"]}


def _hostile_shapes(name: str) -> list[tuple[str, str, str, object]]:
    """(label, method, path, body) of requests a reader could send by hand."""
    topk = {"size": 0, "aggs": {"g": {"global": {}, "aggs": {"p": {"filter": {"term": {"public": False}},
                                                                   "aggs": {"t": {"top_hits": {"size": 50}}}}}}}}
    msearch = "\n".join(json.dumps(x) for x in ({"index": name}, topk, {"index": f"{name}-docs"}, topk)) + "\n"
    scripted = {"size": 0, "aggs": {"g": {"global": {}, "aggs": {"s": {"scripted_metric": {
        "init_script": "state.ids = []", "map_script": "state.ids.add(doc['chunk_id'].value)",
        "combine_script": "return state.ids", "reduce_script": "return states"}}}}}}
    shapes = []
    for target in (name, f"{name}-docs", "*", "_all", f"{name}*", f"{name}--walled-*", "*--acl--*"):
        shapes += [
            (f"global top_hits on {target}", "POST", f"/{target}/_search", topk),
            (f"scripted_metric on {target}", "POST", f"/{target}/_search", scripted),
            (f"match_all on {target}", "POST", f"/{target}/_search", {"size": 100, "query": {"match_all": {}}}),
        ]
    shapes += [
        ("msearch", "POST", "/_msearch", msearch),
        ("inline template", "POST", f"/{name}/_search/template",
         {"source": {"size": 0, "aggs": {"g": {"global": {}, "aggs": {"t": {"top_hits": {"size": 50}}}}}}}),
        ("terms on title", "POST", f"/{name}/_search", {"size": 0, "aggs": {"g": {"global": {}, "aggs": {
            "t": {"terms": {"field": "doc_title.keyword", "size": 100}}}}}}),
        ("significant_text", "POST", f"/{name}/_search", {"size": 0, "query": {"match": {"text": "settlement"}},
                                                         "aggs": {"s": {"significant_text": {"field": "text"}}}}),
        ("term suggester", "POST", f"/{name}/_search", {"suggest": {"s": {"text": "zanzibarquu plovercres",
                                                                       "term": {"field": "text"}}}}),
        # no field of ours is a completion field: the engine refuses it, and says nothing of a wall
        ("completion suggester", "POST", f"/{name}/_search", {"suggest": {"c": {"prefix": "sett",
                                                                           "completion": {"field": "doc_title"}}}}),
    ]
    return shapes


HOSTILE_USERS = ["staff", "nobody", "norole"]
"""A reader without the groups, an auditor, and a user with no legalsearch role at all."""


@pytest.mark.parametrize("who", HOSTILE_USERS)
def test_no_request_shape_reaches_a_wall_the_user_may_not_open(settings, opensearch_url, walled, who):
    """The issue's request (global + top_hits) and its cousins, as a reader without the group,
    an auditor and a user with no legalsearch role: a 403 or public text only, never a privileged
    byte."""
    name, made = walled
    client = user_store(settings, opensearch_url, *made[who])
    forbidden = _forbidden_for(who)
    answered = 0
    for label, method, path, body in _hostile_shapes(name):
        status, text = _ask(client, method, path, body)
        leaked = [s for s in forbidden if s in text]
        assert not leaked, (label, status, leaked)
        answered += status == 200
    if who == "staff":
        assert answered  # the reader does read public text: the test reads real answers
    # an artificial document's term statistics count the secret words in the public index: none
    words = [w for _, _, _, w in SECRETS.values()]
    status, text = _ask(client, "POST", f"/{name}/_termvectors",
                        {"doc": {"text": " ".join(words)}, "term_statistics": True, "field_statistics": False})
    if status == 200:
        terms = json.loads(text)["term_vectors"]["text"]["terms"]
        assert {w: terms[w].get("doc_freq", 0) for w in words} == dict.fromkeys(words, 0)


def _more_shapes(name: str, deal_wall: str) -> list[tuple[str, str, str, object]]:
    """More shapes (none of them names a privileged word: an answer may echo its request)."""
    match = {"match": {"text": "settlement"}}
    glob = {"global": {}}
    shapes = []
    for target in (name, f"{name}-docs", deal_wall, "legalsearch*", f"{name}*"):
        shapes += [
            (f"highlight on {target}", "POST", f"/{target}/_search",
             {"query": match, "highlight": {"fields": {"text": {}, "doc_title": {}}}}),
            (f"explain=true on {target}", "POST", f"/{target}/_search?explain=true", {"query": match}),
            (f"profile=true on {target}", "POST", f"/{target}/_search", {"profile": True, "query": match}),
            (f"composite in global on {target}", "POST", f"/{target}/_search", {"size": 0, "aggs": {"g": {
                **glob, "aggs": {"c": {"composite": {"size": 100, "sources": [
                    {"t": {"terms": {"field": "doc_title.keyword"}}}, {"d": {"terms": {"field": "doc_id"}}}]}}}}}}),
            (f"sampler + top_hits in global on {target}", "POST", f"/{target}/_search", {"size": 0, "aggs": {"g": {
                **glob, "aggs": {"s": {"sampler": {"shard_size": 100}, "aggs": {"t": {"top_hits": {"size": 20}}}}}}}}),
            (f"significant_terms on acl on {target}", "POST", f"/{target}/_search", {"size": 0, "aggs": {"g": {
                **glob, "aggs": {"s": {"significant_terms": {"field": "acl", "min_doc_count": 1}}}}}}),
            (f"collapse + docvalue_fields on {target}", "POST", f"/{target}/_search", {
                "query": {"match_all": {}}, "collapse": {"field": "doc_id"}, "docvalue_fields": ["doc_title.keyword"],
                "size": 100}),
            (f"query_string q=* on {target}", "GET", f"/{target}/_search?q=*&size=100", None),
            (f"_count on {target}", "POST", f"/{target}/_count", {"query": {"match_all": {}}}),
            (f"_validate explain on {target}", "POST", f"/{target}/_validate/query?explain=true&rewrite=true",
             {"query": {"more_like_this": {"fields": ["text"], "like": "settlement strategy note", "min_term_freq": 1,
                                           "min_doc_freq": 1}}}),
            (f"more_like_this on {target}", "POST", f"/{target}/_search", {"query": {"more_like_this": {
                "fields": ["text", "doc_title"], "like": "settlement strategy privileged note", "min_term_freq": 1,
                "min_doc_freq": 1}}}),
            (f"phrase suggester on {target}", "POST", f"/{target}/_search", {"suggest": {"text": "settlement stratgy",
                                                                               "p": {"phrase": {"field": "text"}}}}),
            (f"knn on {target}", "POST", f"/{target}/_search", {"size": 100, "query": {"knn": {"vector": {
                "vector": [0.05] * 384, "k": 100}}}}),
            (f"_field_caps on {target}", "GET", f"/{target}/_field_caps?fields=*", None),
            (f"_mapping on {target}", "GET", f"/{target}/_mapping", None),
        ]
    shapes += [
        ("terms lookup into a wall", "POST", f"/{name}/_search", {"query": {"terms": {"doc_id": {
            "index": deal_wall, "id": "x", "path": "doc_id"}}}}),
        ("stored template with injected params", "POST", f"/{name}/_search/template",
         {"id": "legalsearch-bool", "params": {"k": "200}", "size": "200}"}}),
        ("msearch template", "POST", "/_msearch/template", "\n".join(json.dumps(x) for x in (
            {"index": name}, {"source": {"size": 0, "aggs": {"g": {"global": {}, "aggs": {"t": {"top_hits": {}}}}}}},
            {"index": deal_wall}, {"source": {"query": {"match_all": {}}}})) + "\n"),
        ("_cat/indices", "GET", "/_cat/indices?format=json", None),
        ("_cat/aliases", "GET", "/_cat/aliases?format=json", None),
        ("_cat/count", "GET", f"/_cat/count/{name}?format=json", None),
        ("_resolve/index", "GET", "/_resolve/index/*", None),
        ("_search across everything", "POST", "/*,-.*/_search", {"size": 100, "query": {"match_all": {}}}),
    ]
    return shapes


def _by_id(name: str, deal_wall: str, chunk_id: str) -> list[tuple[str, str, str, object]]:
    """Requests that name a privileged id (so an answer may echo it): checked for any _source."""
    return [
        ("GET by id", "GET", f"/{name}/_doc/{chunk_id}", None),
        ("GET by id in the wall", "GET", f"/{deal_wall}/_doc/{chunk_id}", None),
        ("_mget across indices", "POST", "/_mget", {"docs": [{"_index": name, "_id": chunk_id},
                                                             {"_index": deal_wall, "_id": chunk_id}]}),
        ("_explain by id", "POST", f"/{name}/_explain/{chunk_id}", {"query": {"match_all": {}}}),
        ("_termvectors by id", "GET", f"/{name}/_termvectors/{chunk_id}?term_statistics=true&fields=text", None),
        ("_termvectors by id in the wall", "GET", f"/{deal_wall}/_termvectors/{chunk_id}?fields=text", None),
        ("ids query", "POST", f"/{name},{name}-docs/_search", {"query": {"ids": {"values": [chunk_id, "priv-deal"]}}}),
    ]


@pytest.mark.parametrize("who", HOSTILE_USERS)
def test_more_request_shapes_reach_no_wall(settings, opensearch_url, store, walled, who):
    """Highlight, explain, profile, composite / sampler / significant_terms, collapse, query
    strings, validate, more_like_this, phrase suggesters, k-NN, field caps, mappings, terms
    lookup, stored and msearch templates, _cat, wildcards, scroll and PIT; and by privileged id
    (GET, mget, explain, term vectors, ids): no privileged byte, no privileged `_source`."""
    name, made = walled
    client = user_store(settings, opensearch_url, *made[who])
    deal_wall = walls.walled_name(indices.require(store, name), (DEAL,))
    forbidden = _forbidden_for(who)
    for label, method, path, body in _more_shapes(name, deal_wall):
        status, text = _ask(client, method, path, body)
        assert not [s for s in forbidden if s in text], (label, status, text[:300])
    chunk_id = next(iter(store.scan(deal_wall, {"match_all": {}}, source=False)))["_id"]
    for label, method, path, body in _by_id(name, deal_wall, chunk_id):
        status, text = _ask(client, method, path, body)
        assert '"_source"' not in text and '"term_vectors"' not in text, (label, status, text[:300])
        assert not [s for s in forbidden if s in text and s not in (chunk_id.split(":")[0], "priv-deal")], label
    # scroll and point in time: opened on what the user may open, continued page by page
    status, text = _ask(client, "POST", f"/{name}/_search?scroll=1m", {"size": 1, "query": {"match_all": {}}})
    pages = [text]
    if status == 200:
        scroll_id = json.loads(text)["_scroll_id"]
        for _ in range(5):
            status, text = _ask(client, "POST", "/_search/scroll", {"scroll": "1m", "scroll_id": scroll_id})
            pages.append(text)
    status, text = _ask(client, "POST", f"/{name}/_search/point_in_time?keep_alive=1m", None)
    pages.append(text)
    if status == 200:
        pit = json.loads(text)["pit_id"]
        pages.append(_ask(client, "POST", "/_search", {"size": 100, "pit": {"id": pit, "keep_alive": "1m"},
                                                       "aggs": {"g": {"global": {}, "aggs": {
                                                           "t": {"top_hits": {"size": 50}}}}}})[1])
    assert not [s for s in forbidden for page in pages if s in page]


def _ask(client, method: str, path: str, body) -> tuple[int, str]:
    """(HTTP status, the whole answer as text: a refusal's message is checked too)."""
    try:
        if isinstance(body, str):  # ndjson (_msearch)
            answer = client.client.transport.perform_request(method, path, body=body,
                                                             headers={"Content-Type": "application/x-ndjson"})
            return 200, json.dumps(answer)
        status, answer = client.call(method, path, body)
        return status, json.dumps(answer)
    except LegalSearchError as e:
        return 403, str(e)
    except Exception as e:  # noqa: BLE001 (opensearch-py's own error for the ndjson call)
        return getattr(e, "status_code", 0) or 0, str(e) + json.dumps(getattr(e, "info", None), default=str)


def test_a_member_reads_its_own_walls_only(settings, opensearch_url, store, walled):
    name, made = walled
    lit = user_store(settings, opensearch_url, *made["lit"])
    alias = walls.group_alias(name, "chunks", LIT)
    got = {h["_source"]["doc_id"] for h in lit.search(alias, {"size": 100, "_source": ["doc_id"]})["hits"]["hits"]}
    assert got == {"priv-settle", "priv-both"}
    deal_wall = walls.walled_name(indices.require(store, name), (DEAL,))
    with pytest.raises(PermissionDeniedError):
        lit.search(deal_wall, {"query": {"match_all": {}}})
    status, answer = lit.call("POST", f"/{alias}/_search", {"size": 0, "aggs": {"g": {"global": {}, "aggs": {
        "t": {"top_hits": {"size": 50}}}}}})
    assert status == 200 and "plovercrest" not in json.dumps(answer)  # global inside its wall: its own text


def test_the_service_searches_exactly_the_indices_of_the_verified_groups(admin_client, store, walled):
    name, made = walled
    live = indices.require(store, name)
    by_groups = {w.groups: w for w in walls.list_walls(store, live, indices.require(store, name, "docs"))}
    question = "settlement strategy privileged note"
    lit = admin_client.as_user(*made["lit"])
    plan = lit.service.plan(lit.request(question, index=name))
    assert set(plan.index.split(",")) == {live, by_groups[(LIT,)].chunks, by_groups[(DEAL, LIT)].chunks}
    assert {h.doc_id for h in lit.search(question, index=name, k=10).hits} >= {"priv-settle", "priv-both"}
    assert not {h.doc_id for h in lit.search(question, index=name, k=10).hits} & {"priv-deal"}
    staff = admin_client.as_user(*made["staff"])
    assert staff.service.plan(staff.request(question, index=name)).index == live
    assert {h.doc_id for h in staff.search(question, index=name, k=10, groups=[LIT]).hits} == {PUBLIC[0]}
    # the admin viewing as a group reads public + that group's walls; with no group, everything
    as_deal = admin_client.service.plan(admin_client.request(question, index=name, groups=[DEAL]))
    assert set(as_deal.index.split(",")) == {live, by_groups[(DEAL,)].chunks, by_groups[(DEAL, LIT)].chunks}
    assert len(admin_client.service.plan(admin_client.request(question, index=name)).index.split(",")) == 4
    as_deal_hits = {h.doc_id for h in admin_client.search(question, index=name, k=10, groups=[DEAL]).hits}
    assert "priv-deal" in as_deal_hits and as_deal_hits <= {PUBLIC[0], "priv-deal", "priv-both"}


def test_an_acl_change_moves_a_document_and_leaves_no_copy(admin_client, store, walled):
    name, _ = walled
    every = f"{name}--*"

    def where(doc_id: str) -> set[str]:
        store.refresh(every)
        return {h["_index"] for h in store.scan(every, {"term": {"doc_id": doc_id}}, source=False)}

    try:
        report = admin_client.ingest(_documents({"priv-deal": [LIT]}), index=name, embedder="minilm")
        assert report.count("ingested") == 1
        live = indices.require(store, name)
        lit_wall = walls.walled_name(live, (LIT,))
        assert where("priv-deal") == {lit_wall, walls.walled_name(indices.require(store, name, "docs"), (LIT,))}
        admin_client.ingest(_documents({"priv-deal": "public"}), index=name, embedder="minilm")
        assert where("priv-deal") == {live, indices.require(store, name, "docs")}
    finally:
        admin_client.ingest(_documents(), index=name, embedder="minilm")
    assert where("priv-deal") == {walls.walled_name(indices.require(store, name), (DEAL,)),
                                  walls.walled_name(indices.require(store, name, "docs"), (DEAL,))}


def test_a_group_name_no_wall_can_carry_fails_that_document_only(admin_client, store, walled):
    name, _ = walled
    bad = Document(text="1. X\nSome text.\n", doc_id="bad-acl", acl=["a--acl--b"], public=False)
    report = admin_client.ingest([bad, *_documents()], index=name, embedder="minilm")
    failed = report.summary()["failures"]
    assert [f["path"] for f in failed] == ["memory:bad-acl"] and "invalid ACL group" in failed[0]["error"]


def test_kept_generations_cannot_serve_what_the_live_one_made_private(settings, opensearch_url, admin_client,
                                                                       store, secured):
    """After a blue/green reindex and an ACL change, neither the reader (public kept index) nor
    the group (kept walls) nor anyone else reads the kept copy: the ACL change seals it."""
    name = f"test-wallsrx-{uuid.uuid4().hex[:8]}"
    user, password = f"walls-rx-{uuid.uuid4().hex[:6]}", make_password()
    add_user(store, user, password, (), ("reader",))
    try:
        docs = _documents({"priv-settle": "public"})
        admin_client.ingest(docs, index=name, embedder="minilm")
        old = (indices.require(store, name), indices.require(store, name, "docs"))
        old_deal = walls.walled_name(old[0], (DEAL,))
        result = admin_client.reindex(name)
        assert result["mode"] == "copy" and result["walls"] == 2
        reader = user_store(settings, opensearch_url, user, password)
        ask = {"query": {"term": {"doc_id": "priv-settle"}}, "_source": ["doc_id", "text"]}
        assert reader.search(old[0], ask)["hits"]["hits"]  # kept, same ACL: still readable until a change
        admin_client.ingest(_documents(), index=name, embedder="minilm")  # priv-settle made private
        assert reader.search(name, ask)["hits"]["hits"] == []
        for index in old:
            for client in (reader, store):
                with pytest.raises(StoreError, match="blocked|no permissions"):
                    client.search(index, ask)
        # the kept walls lost their group aliases at the swap: no member can open them
        assert store.get_index(old_deal)[old_deal]["aliases"] == {}
        assert set(generations_prune(store, name)) >= {*old, old_deal}
    finally:
        admin.users_remove(store, user)
        indices.delete(store, name)


def generations_prune(store, name):
    from legalsearch.index import generations

    return generations.prune(store, name)


def test_a_reindex_walls_an_index_written_before_walls(admin_client, store, secured):
    """An index whose public index still holds private chunks (written before walls): a copy
    reindex sends them to walls and seals the old generation at once."""
    name = f"test-wallsmig-{uuid.uuid4().hex[:8]}"
    try:
        admin_client.ingest(_documents(), index=name, embedder="minilm")
        live = (indices.require(store, name), indices.require(store, name, "docs"))
        # put one private chunk and record back into the public indices, as before walls
        wall = walls.walled_name(live[0], (LIT,))
        hit = next(iter(store.scan(wall, {"match_all": {}})))
        store.index_document(live[0], hit["_id"], hit["_source"], refresh=True)
        result = admin_client.reindex(name)
        new = indices.require(store, name)
        assert store.count(new, {"bool": {"must_not": {"term": {"public": True}}}}) == 0
        assert result["chunks"] == store.count(new)
        with pytest.raises(StoreError, match="blocked"):
            store.search(live[0], {"query": {"match_all": {}}})
    finally:
        indices.delete(store, name)
    assert store.indices(f"{name}--*") == []


def test_no_request_shape_reaches_the_log_or_a_kept_generation(settings, opensearch_url, admin_client, store,
                                                               walled, secured):
    """The indices a reader does not search but the project still keeps: the retrieval log (it
    records the ids of the privileged hits of a member's searches) and the kept generations of a
    blue/green reindex (public and walled) after an ACL change sealed them. Every shape of this
    suite, as each hostile user, over each of them: no privileged byte."""
    from legalsearch import LegalSearch

    name = f"test-wallskept-{uuid.uuid4().hex[:8]}"
    _, made = walled
    logging = LegalSearch(settings.model_copy(update={"log_searches": True}), url=opensearch_url)
    try:
        docs = _documents({"priv-settle": "public"})
        admin_client.ingest(docs, index=name, embedder="minilm")
        old = indices.require(store, name)
        old_docs = indices.require(store, name, "docs")
        kept_walls = [walls.walled_name(old, (DEAL,)), walls.walled_name(old, sorted((DEAL, LIT)))]
        admin_client.reindex(name)
        admin_client.ingest(_documents(), index=name, embedder="minilm")  # priv-settle made private: seals
        # a member's searches put privileged chunk ids into the log
        seen = logging.search("settlement strategy opening position", index=name, groups=[LIT, DEAL], k=5)
        assert {h.doc_id for h in seen.hits} & set(SECRETS)
        assert logging.service.retrieval_log.flush()  # its record is in the log before the hostile reads
        log_index = settings.log_index
        targets = [(old, kept_walls[0]), (old_docs, kept_walls[1]), (log_index, kept_walls[0]),
                   (f"{log_index}*", kept_walls[1])]
        tried = 0
        for who in HOSTILE_USERS:
            client = user_store(settings, opensearch_url, *made[who])
            for target, wall in targets:
                forbidden = _forbidden_for(who)
                for label, method, path, body in [*_hostile_shapes(target), *_more_shapes(target, wall)]:
                    status, text = _ask(client, method, path, body)
                    leaked = [s for s in forbidden if s in text]
                    assert not leaked, (who, target, label, status, leaked)
                    tried += 1
        assert tried >= 3 * 4 * 60
    finally:
        indices.delete(store, name)
