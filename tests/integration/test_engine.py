"""The engine side on the real node (docs/engine.md): the question embedded INSIDE OpenSearch by our
remote model, the stored templates any client runs, the text_embedding ingest pipeline, and every
failure answered with a clear error, never a silent BM25-only answer.

Raw requests use opensearch-py only: no legalsearch code on the query path (the test computes
the template's params, plain values, with `templates.template_params`, and uses legalsearch to
find the node's credentials)."""

from __future__ import annotations

import copy
import itertools
import json
import time
import uuid
from datetime import date

import numpy as np
import pytest
from click.testing import CliRunner
from legalsearch.demo import EXAMPLES
from legalsearch.index import walls
from legalsearch.query import bodies, templates
from legalsearch.query.identifiers import parse_identifiers
from legalsearch.query.models import Filters
from opensearchpy import OpenSearch, TransportError


def raw_client(settings, url, user=None, password=None) -> OpenSearch:
    from legalsearch.store import connection

    conn = connection(settings, url)
    return OpenSearch(hosts=[conn.url], http_auth=(user or conn.user, password or conn.password),
                      ca_certs=str(conn.ca_certs) if conn.ca_certs else None, verify_certs=conn.verify, timeout=120)


@pytest.fixture(scope="module")
def raw(settings, opensearch_url):
    return raw_client(settings, opensearch_url)


@pytest.fixture(scope="module")
def engine(admin_client, sample_index):
    first = admin_client.install_engine(sample_index[0])
    again = admin_client.install_engine(sample_index[0])  # idempotent: the same objects, found by name
    for key in ("query_model_id", "passage_model_id", "connector_ids", "model_group_id"):
        assert again[key] == first[key]
    assert admin_client.index_info(sample_index[0])["meta"]["engine"]["query_model_id"] == first["query_model_id"]
    return again


def cli(monkeypatch, url, *args):
    from legalsearch import cli as cli_module

    monkeypatch.setenv("OPENSEARCH_URL", url)
    monkeypatch.setenv("LEGALSEARCH_LOG_SEARCHES", "false")
    return CliRunner().invoke(cli_module.main, list(args))


def ids(result: dict) -> list[str]:
    return [h["_id"] for h in result["hits"]["hits"]]


def readable(index: str, kind: str, groups: tuple[str, ...]) -> str:
    """What a template client of these groups names: the public alias and its groups' wall aliases
    (a wildcard each, so a group without a wall is no error)."""
    public = index if kind == "chunks" else f"{index}-docs"
    return ",".join([public, *(walls.group_alias(index, kind, g) + "*" for g in groups)])


def example_filters(example: dict) -> Filters:
    return Filters(as_of=example.get("as_of"), groups=tuple(example.get("groups", ())))


def test_demo_questions_through_raw_opensearch_py_equal_the_cli(raw, engine, sample_index, monkeypatch,
                                                                 opensearch_url):
    """Routing as the CLI does it by default (`--routing auto`): unless the question cites a
    section, the `legalsearch-route` template ranks documents on the docs index and its top 3
    doc_keys restrict the chunk search (`doc_key`); then `legalsearch-hybrid`."""
    index = sample_index[0]
    for title, example in EXAMPLES:
        question = example["query"]
        params = templates.template_params(question, example_filters(example), parse_identifiers(question), 10)
        # a template client names what its groups may read: the public index and their walls' aliases
        groups = tuple(example.get("groups", ()))
        chunks, docs = readable(index, "chunks", groups), readable(index, "docs", groups)
        routed = []
        if "section" not in params:
            route = raw.search_template(index=docs, body={"id": templates.ROUTE_TEMPLATE,
                                                          "params": {**params, "k": 3}})
            routed = [h["_source"]["doc_key"] for h in route["hits"]["hits"]]
        found = raw.search_template(index=chunks, body={"id": templates.HYBRID_TEMPLATE,
                                                        "params": {**params, **({"doc_key": routed} if routed else {})}})
        options = [*(["--as-of", example["as_of"].isoformat()] if "as_of" in example else []),
                   *itertools.chain.from_iterable(("--group", g) for g in example.get("groups", ()))]
        for embedding in ("python", "engine"):
            # the clause-title list, the routing and current-text priors, the named documents and the
            # per-language routing lists are Python-side (search.query.templates): the templates give
            # the request without them
            result = cli(monkeypatch, opensearch_url, "search", question, "--index", index, "-k", "10", "--no-xrefs",
                         "--json", "--embedding", embedding, "--title-weight", "0", "--routing-prior", "0",
                         "--routing-names", "off", "--current-prior", "0", "--no-routing-languages", "--no-routing-subjects", *options)
            assert result.exit_code == 0, result.output
            answer = json.loads(result.output)
            assert ids(found) == [h["chunk_id"] for h in answer["hits"]], (title, embedding)
            assert routed == answer["routed_docs"], (title, embedding)


def python_body(question: str, filters: Filters, k: int, template_id: str) -> dict:
    """The Python builder's body for a template, without the model id the template leaves to the
    index's default pipeline (a question citing no section gets the template's placeholder)."""
    refs = parse_identifiers(question)
    if template_id == templates.HYBRID_TEMPLATE:
        body = bodies.search_body("hybrid", text=question, vector=None, filters=filters, size=k, refs=refs,
                                  model_id="M")
        if len(body["query"]["hybrid"]["queries"]) == 2:
            body["query"]["hybrid"]["queries"].append(bodies.MATCH_NONE)
    elif template_id == templates.BOOL_TEMPLATE:
        body = bodies.bool_body(question, None, filters, k, refs, model_id="M")
    else:
        body = bodies.routing_body(question, None, filters, k, model_id="M")
    text = json.dumps(body).replace(', "model_id": "M"', "")
    return json.loads(text)


def test_the_node_renders_each_template_as_the_python_builder_builds_it(raw, engine):
    values = {"groups": ("litigation-team", "sales"), "as_of": date(2025, 6, 1), "jurisdictions": ("UK",),
              "doc_ids": ("msa",), "doc_keys": ("msa:1",), "doc_types": ("contract",), "languages": ("en", "it")}
    questions = ["What is the liability cap in clause 14.3?", 'Schedule 2 "quoted" \\ {{k}}\nè', "notice period"]
    renders = 0
    for mask in itertools.product((False, True), repeat=len(values)):
        filters = Filters(**{n: v for (n, v), on in zip(values.items(), mask, strict=True) if on})
        for question in questions:
            params = templates.template_params(question, filters, parse_identifiers(question), 7)
            ids_to_check = [templates.HYBRID_TEMPLATE] if any(mask[1:]) else list(templates.sources())
            for template_id in ids_to_check:
                sent = params if template_id != templates.ROUTE_TEMPLATE else {
                    k: v for k, v in params.items() if k not in ("section", "heading_phrases")}
                rendered = raw.render_search_template(body={"id": template_id, "params": sent})["template_output"]
                assert rendered["size"] == "7"  # numbers are sent quoted, never bare (test_template_injection.py)
                rendered = json.loads(json.dumps(rendered).replace('"k": "7"', '"k": 7').replace('"size": "7"',
                                                                                                '"size": 7')
                                      .replace('"ef_search": "100"', '"ef_search": 100'))
                assert rendered == python_body(question, filters, 7, template_id), (template_id, sent)
                renders += 1
    assert renders > 380
    # an index beyond 100,000 chunks records ef_search 400: its params render it (quoted, as k)
    wide = templates.template_params("notice period", Filters(), (), 7, 400)
    rendered = raw.render_search_template(body={"id": templates.HYBRID_TEMPLATE, "params": wide})["template_output"]
    assert rendered["query"]["hybrid"]["queries"][1]["neural"]["vector"]["method_parameters"] == {"ef_search": "400"}


def cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))


def test_neural_embeds_as_the_python_side_and_ranks_as_knn(raw, engine, embedders, sample_index):
    e5 = embedders.get("e5")
    index = sample_index[0]
    for _, example in EXAMPLES:
        question = example["query"]
        predicted = raw.transport.perform_request(
            "POST", f"/_plugins/_ml/_predict/text_embedding/{engine['query_model_id']}", body={"text_docs": [question]})
        vector = predicted["inference_results"][0]["output"][0]["data"]
        assert cosine(vector, e5.embed_query(question)) >= 1 - 1e-5
        filters = example_filters(example)
        knn = raw.search(index=index, body={"size": 10, "query": bodies.knn_query(e5.embed_query(question), 10, filters)})
        neural = raw.search(index=index, body={"size": 10, "query": bodies.neural_query(question, 10, filters)})
        assert ids(neural) == ids(knn) and ids(knn)
        assert np.allclose([h["_score"] for h in neural["hits"]["hits"]], [h["_score"] for h in knn["hits"]["hits"]],
                           atol=1e-5)


def test_a_bulk_through_the_ingest_pipeline_gets_our_vectors(raw, admin_client, store, embedders, sample_index):
    from legalsearch.index import indices, schema

    source = schema.concrete_name(sample_index[0], "chunks")
    chunks = [h for h in raw.search(index=source, body={"size": 20, "query": {"match_all": {}}, "sort": ["chunk_id"]})
              ["hits"]["hits"]]
    name = f"test-bulk-{uuid.uuid4().hex[:8]}"
    indices.create(store, name, embedders.get("e5"))
    try:
        admin_client.install_engine(name)  # sets the text_embedding pipeline as the index's default
        target = schema.concrete_name(name, "chunks")
        lines = []
        for h in chunks:
            lines += [{"index": {"_index": target, "_id": h["_id"]}},
                      {k: v for k, v in h["_source"].items() if k != "vector"}]
        answer = raw.bulk(body=lines, refresh="true")  # a client's own _bulk, no pipeline named
        assert not answer["errors"], answer
        got = {h["_id"]: h["_source"]["vector"] for h in raw.search(
            index=target, body={"size": 50, "_source": ["vector"], "query": {"match_all": {}}})["hits"]["hits"]}
        assert set(got) == {h["_id"] for h in chunks}
        for h in chunks:
            assert cosine(got[h["_id"]], h["_source"]["vector"]) >= 1 - 1e-5, h["_id"]
    finally:
        indices.delete(store, name)


def expect_error(fn, status: int, needle: str) -> None:
    with pytest.raises(TransportError) as caught:
        fn()
    assert caught.value.status_code == status and needle in json.dumps(caught.value.info), caught.value.info


def test_bad_input_gives_a_clear_error_to_any_client_and_to_our_cli(raw, store, engine, sample_index, monkeypatch,
                                                                     opensearch_url):
    from legalsearch.errors import ModelError

    index = sample_index[0]
    template = lambda text, **kw: raw.search_template(  # noqa: E731
        index=index, body={"id": templates.HYBRID_TEMPLATE, "params": {"query_text": text}}, **kw)
    too_long = "termination notice period " * 250  # ~1,000 tokens: over e5's 512
    expect_error(lambda: template(too_long), 400, "context_length_exceeded")
    expect_error(lambda: template("x" * 40_000), 413, "the limit is 32000")
    for embedding, needle in (("engine", "longer than the embedding model's window"), ("python", "reads at most 512")):
        result = cli(monkeypatch, opensearch_url, "search", too_long, "--index", index, "--embedding", embedding)
        assert result.exit_code == 1 and needle in result.output, result.output

    wrong = {"size": 3, "query": {"neural": {"vector": {"query_text": "notice", "model_id": "no-such-model", "k": 3}}}}
    expect_error(lambda: raw.search(index=index, body=wrong), 404, "Failed to find model")
    with pytest.raises(ModelError, match="not registered on this cluster"):
        store.search(index, wrong)
    # without the index's default pipeline nothing names the model: an error, never BM25 alone
    expect_error(lambda: template("notice", params={"search_pipeline": "_none"}), 500, "modelId is marked non-null")
    with pytest.raises(ModelError, match="default search pipeline"):
        store.search(index, {"query": bodies.neural_query("notice", 3, Filters())}, pipeline="_none")

    # an undeployed model is deployed again by the first query (ml-commons' auto deploy): the full answer
    before = ids(template("Can a landlord end a tenancy without giving a reason?"))
    model = engine["query_model_id"]
    raw.transport.perform_request("POST", f"/_plugins/_ml/models/{model}/_undeploy")
    # no node holds it now (the profile API); its document says UNDEPLOYED, or DEPLOY_FAILED when
    # ml-commons' 10 s sync job read the document before the undeploy wrote it and no node after
    assert held_by_a_node(raw, model) is False
    assert raw.transport.perform_request("GET", f"/_plugins/_ml/models/{model}")["model_state"] in (
        "UNDEPLOYED", "DEPLOY_FAILED")
    assert ids(template("Can a landlord end a tenancy without giving a reason?")) == before
    # the deploy task writes the model's state to .plugins-ml-model after the answer, asynchronously
    assert held_by_a_node(raw, model) is True
    assert wait_for_state(raw, model, "DEPLOYED", seconds=30) == "DEPLOYED"


def held_by_a_node(raw, model: str) -> bool:
    profile = raw.transport.perform_request("GET", f"/_plugins/_ml/profile/models/{model}")
    return any(model in node.get("models", {}) for node in profile.get("nodes", {}).values())


def wait_for_state(raw, model: str, wanted: str, seconds: float) -> str | None:
    deadline = time.monotonic() + seconds
    while True:
        state = raw.transport.perform_request("GET", f"/_plugins/_ml/models/{model}").get("model_state")
        if state == wanted or time.monotonic() > deadline:
            return state
        time.sleep(0.5)


def test_a_reader_under_dls_runs_the_bool_template_and_the_engine_enforces_the_acl(settings, opensearch_url, raw,
                                                                                     engine, sample_index, people):
    index = sample_index[0]
    question = "settlement strategy on the liability cap"
    as_alice, as_bob = (raw_client(settings, opensearch_url, *people[name]) for name in ("alice", "bob"))
    params = {"query_text": question, "groups": ["litigation-team"]}
    # the privileged note lives in the litigation team's wall: alice names its alias, bob may not
    walled = readable(index, "chunks", ("litigation-team",))
    run = lambda client, template_id, p, target=index: client.search_template(  # noqa: E731
        index=target, body={"id": template_id, "params": p})
    alice = run(as_alice, templates.BOOL_TEMPLATE, params, walled)
    assert ids(alice) == ids(run(raw, templates.BOOL_TEMPLATE, params, walled))
    assert any(h["_source"]["doc_id"] == "privileged-note-litigation" for h in alice["hits"]["hits"])
    with pytest.raises(TransportError) as refused:  # the wall is no index of bob's: a 403, no text
        run(as_bob, templates.BOOL_TEMPLATE, params, walled)
    assert refused.value.status_code == 403 and "privileged" not in json.dumps(refused.value.info)
    bob = run(as_bob, templates.BOOL_TEMPLATE, params)  # bob names a group he lacks: DLS still hides it
    assert ids(bob) == ids(run(raw, templates.BOOL_TEMPLATE, {"query_text": question}))
    assert all(h["_source"]["public"] for h in bob["hits"]["hits"])
    expect_error(lambda: run(as_alice, templates.HYBRID_TEMPLATE, params), 400, "hybrid query must be a top level")
    # a plain neural query by a reader: DLS hides, but does not pre-filter, k-NN: the ACL filter keeps k hits
    neural = as_bob.search(index=index, body={"size": 5, "query": bodies.neural_query(question, 5, Filters())})
    assert len(neural["hits"]["hits"]) == 5 and all(h["_source"]["public"] for h in neural["hits"]["hits"])


def test_node_status_shows_the_server_and_the_models(store, engine):
    from legalsearch import status

    report = status.node_status(store)["engine"]
    assert report["server"]["status"] == "ok"
    # what the node holds: the document may lag it for seconds after an auto deploy (search.node.ml.models)
    held = {m["name"]: m["held"] for m in report["models"]}
    assert held["legalsearch-e5-query-v1"] == held["legalsearch-e5-passage-v1"] == "DEPLOYED"
    assert all(m["state"] in ("DEPLOYED", "UNDEPLOYED", "DEPLOY_FAILED", "DEPLOYING") for m in report["models"])


def test_the_server_down_fails_every_client_loudly_and_a_restart_heals(settings, raw, engine, sample_index,
                                                                        monkeypatch, opensearch_url):
    from legalsearch import embedserver

    if embedserver.running(settings) is None:
        pytest.fail("no local embedding server to stop: run against the local node (`legalsearch node start`)")
    index = sample_index[0]
    params = {"query_text": "Can a landlord end a tenancy without giving a reason?"}
    before = ids(raw.search_template(index=index, body={"id": templates.HYBRID_TEMPLATE, "params": params}))
    embedserver.stop(settings)
    try:
        expect_error(lambda: raw.search_template(index=index, body={"id": templates.HYBRID_TEMPLATE, "params": params}),
                     500, "Connection refused")
        result = cli(monkeypatch, opensearch_url, "search", params["query_text"], "--index", index,
                     "--embedding", "engine")
        assert result.exit_code == 1 and "embedding server" in result.output and "not running" in result.output
    finally:
        embedserver.start(settings)
        embedserver.wait_ready(settings)
    after = raw.search_template(index=index, body={"id": templates.HYBRID_TEMPLATE, "params": copy.deepcopy(params)})
    assert ids(after) == before


def test_a_fresh_client_embeds_questions_through_the_resident_server(settings, admin_client, embedders, sample_index,
                                                                     opensearch_url):
    """A new process (a fresh `LegalSearch`, as `legalsearch search` makes) loads no model: the
    local embedding server embeds its questions with the index's own build, and the answers are
    the ones in-process embedding gives."""
    from legalsearch import LegalSearch, embedserver
    from legalsearch.embedserver.client import ServedQueryEmbedder

    if embedserver.running(settings) is None:
        pytest.fail("no local embedding server: run against the local node (`legalsearch node start`)")
    index = sample_index[0]
    fresh = LegalSearch(settings.model_copy(update={"log_searches": False}), url=opensearch_url)
    for title, example in EXAMPLES:
        options = {"index": index, "k": 10, "as_of": example.get("as_of"), "groups": example.get("groups", ())}
        served, local = fresh.search(example["query"], **options), admin_client.search(example["query"], **options)
        assert [h.chunk_id for h in served.hits] == [h.chunk_id for h in local.hits], title
        assert [h.score for h in served.hits] == pytest.approx([h.score for h in local.hits], abs=1e-4), title
    meta = fresh.service.index_meta(index)
    assert isinstance(fresh.embedders.for_query(meta), ServedQueryEmbedder)
    assert fresh.embedders.loaded() == []  # no model in this process

    # the default English build too (an index made by `--embedder auto` on English documents)
    from legalsearch.embed import build_for

    minilm_meta = {"embedder": "minilm", "embedder_build": build_for("minilm")}
    served_minilm = fresh.embedders.for_query(minilm_meta)
    assert isinstance(served_minilm, ServedQueryEmbedder)
    question = EXAMPLES[0][1]["query"]
    assert np.allclose(served_minilm.embed_query(question), embedders.for_index(minilm_meta).embed_query(question),
                       atol=1e-4)

    # the server gone after the first question: the question is embedded here after all
    local_model = embedders.for_index(meta)
    gone = ServedQueryEmbedder("http://127.0.0.1:9", local_model.name, local_model.build, local_model.cache_key,
                               local_model.dim, local_model.max_tokens, lambda: local_model)
    assert np.allclose(gone.embed_query(question), local_model.embed_query(question), atol=1e-6)
