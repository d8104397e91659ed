"""The stored templates cannot be injected (issue 24, item 3): every param of every stored template,
given values built to close the body or swap a list for a query, either fails or returns only
what the legitimate query returns, run as the service account (no DLS: the ACL clause of the
template is all that stands between it and a privileged chunk).

Before the fix `"k": "200}"` closed the body (`"size": 200}`) and the rest of the request ran
`match_all` without the ACL filter. Raw requests through opensearch-py, as any client would send
them; legalsearch only finds the node's credentials."""

from __future__ import annotations

import re
import uuid

import pytest
from legalsearch.index import walls
from legalsearch.query import templates
from opensearchpy import OpenSearch, TransportError

from tests.integration.test_engine import raw_client


@pytest.fixture(scope="module")
def raw(settings, opensearch_url):
    return raw_client(settings, opensearch_url)


@pytest.fixture(scope="module")
def as_service(settings, opensearch_url):
    from legalsearch.security.secrets import local_credentials

    found = local_credentials(settings, "service")
    assert found, "the local node's service password is not readable here"
    return raw_client(settings, opensearch_url, *found)


@pytest.fixture(scope="module")
def engine(admin_client, sample_index, raw):
    """The engine (models, pipelines) and this module's own stored copies of the templates: the
    shared ids are cluster-wide, and another checkout's test run may store its version under them
    while this one runs. `stored[template_id]` is the id to call."""
    found = admin_client.install_engine(sample_index[0])
    suffix = uuid.uuid4().hex[:8]
    stored = {}
    for template_id, source in templates.sources().items():
        stored[template_id] = f"{template_id}-{suffix}"
        raw.put_script(id=stored[template_id], body={"script": {"lang": "mustache", "source": source}})
    yield found | {"stored": stored}
    for script_id in stored.values():
        raw.delete_script(id=script_id)


LIT = "litigation-team"


def with_wall(name: str, template_id: str | None = None) -> str:
    """The index a template runs on here: the public index and the litigation team's wall (the
    service account reads walls; the template's ACL clause is all that keeps privileged records
    of that wall out of an answer without the group)."""
    kind = "docs" if template_id and TEMPLATE_INDEX[template_id] else "chunks"
    return f"{name}{TEMPLATE_INDEX[template_id] if template_id else ''},{walls.group_alias(name, kind, LIT)}"


def privileged_ids(raw: OpenSearch, index: str) -> set[str]:
    found = raw.search(index=index, body={"size": 1000, "_source": False, "query": {"term": {"public": False}}})
    return {h["_id"] for h in found["hits"]["hits"]}


def params_of(template_id: str) -> list[str]:
    """Every param a template's mustache source reads."""
    names = set(re.findall(r"\{\{[#^/]?([A-Za-z_]+)(?:\.0)?\}\}", templates.sources()[template_id]))
    names |= set(re.findall(r"\{\{#toJson\}\}([A-Za-z_]+)\{\{/toJson\}\}", templates.sources()[template_id]))
    return sorted(names - {"toJson"})


def injections(index: str) -> list:
    """Values that would break out of a bare, a quoted or a list position, or widen a list."""
    return [
        "200}",
        '200, "query": {"match_all": {}}}',
        '"}},"query":{"match_all":{}}, "x":{"a":"',
        '"]}}]}}], "query": {"match_all": {}}, "x": {"a": "',
        "litigation-team",                                   # a group as a string, not a list
        ["litigation-team\"]}}, {\"match_all\": {}}, {\"x\": [\""],
        [{"match_all": {}}],
        {"match_all": {}},
        {"0": "litigation-team", "index": index, "id": "x", "path": "acl"},  # a terms lookup
        [["litigation-team"]],
        -1,
        10_000_000,
    ]


TEMPLATE_INDEX = {templates.HYBRID_TEMPLATE: "", templates.BOOL_TEMPLATE: "", templates.ROUTE_TEMPLATE: "-docs"}


def test_every_template_reads_the_params_the_docstring_lists():
    for template_id in templates.sources():
        assert {"query_text", "k", "groups", "as_of", "doc_id"} <= set(params_of(template_id)), template_id
    assert {"section", "heading_phrases", "parent_section"} <= set(params_of(templates.HYBRID_TEMPLATE))


@pytest.mark.parametrize("template_id", list(templates.sources()))
def test_no_param_of_a_stored_template_can_widen_it(raw, as_service, engine, sample_index, template_id):
    index = with_wall(sample_index[0], template_id)
    hidden = privileged_ids(raw, index)
    assert hidden, f"{index} has no privileged record: the test would prove nothing"
    question = "settlement strategy liability cap walk-away"
    base = {"query_text": question}
    stored = engine["stored"][template_id]
    legit = as_service.search_template(index=index, body={"id": stored, "params": base})
    assert legit["hits"]["hits"] and not {h["_id"] for h in legit["hits"]["hits"]} & hidden
    # the same question with the group: the privileged record IS reachable, so a widening would show
    widened = as_service.search_template(index=index, body={"id": stored, "params": {
        **base, "groups": ["litigation-team"], "k": 50}})
    assert {h["_id"] for h in widened["hits"]["hits"]} & hidden
    tried = errors = 0
    for param in params_of(template_id):
        for value in injections(sample_index[0]):
            params = {**base, param: value}
            tried += 1
            try:
                found = as_service.search_template(index=index, body={"id": stored, "params": params})
            except TransportError as e:
                assert 400 <= int(e.status_code) < 600, (param, value, e)
                errors += 1
                continue
            leaked = {h["_id"] for h in found["hits"]["hits"]} & hidden
            assert not leaked, (template_id, param, value, leaked)
            assert found["hits"]["total"]["value"] <= max(legit["hits"]["total"]["value"], 10_000), (param, value)
    assert tried == len(params_of(template_id)) * len(injections(sample_index[0])) and errors > 0


@pytest.mark.parametrize("template_id", list(templates.sources()))
def test_k_is_an_integer_or_an_error(as_service, engine, sample_index, template_id):
    index = sample_index[0] + TEMPLATE_INDEX[template_id]
    run = lambda k: as_service.search_template(  # noqa: E731
        index=index, body={"id": engine["stored"][template_id], "params": {"query_text": "notice period", "k": k}})
    assert len(run(2)["hits"]["hits"]) == 2
    assert len(run("2")["hits"]["hits"]) == 2  # what a client sends from a form: the same
    for bad in ("200}", "2, \"query\": {\"match_all\": {}}", [1, 2], {"a": 1}, "two"):
        with pytest.raises(TransportError) as caught:
            run(bad)
        assert 400 <= int(caught.value.status_code) < 600, bad


def test_a_bare_number_tag_lets_a_param_close_the_body(raw, as_service, engine, sample_index):
    """What the quoting prevents, shown with the pre-fix source (a bare `{{k}}`) sent inline: the
    engine reads `{"size": 200}` and ignores the rest, a match_all without the ACL clause."""
    index = with_wall(sample_index[0])
    hidden = privileged_ids(raw, index)
    fixed = templates.sources()[templates.BOOL_TEMPLATE]
    bare = fixed.replace(f'"{{{{k}}}}{{{{^k}}}}{templates.DEFAULT_K}{{{{/k}}}}"',
                         f"{{{{k}}}}{{{{^k}}}}{templates.DEFAULT_K}{{{{/k}}}}")
    assert bare != fixed
    params = {"query_text": "notice period", "k": "200}"}
    leaked = as_service.search_template(index=index, body={"source": bare, "params": params})
    assert {h["_id"] for h in leaked["hits"]["hits"]} & hidden  # the hole, reproduced
    with pytest.raises(TransportError):
        as_service.search_template(index=index, body={"source": fixed, "params": params})
