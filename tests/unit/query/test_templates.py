"""The stored templates against the Python builders, for every combination of params: rendered
here by a small mustache renderer (the subset the templates use); tests/integration/test_engine.py
renders them on the node with OpenSearch's own mustache and compares the same way."""

from __future__ import annotations

import copy
import itertools
import json
import re
from datetime import date

import pytest
from legalsearch.query import bodies, templates
from legalsearch.query.identifiers import parse_identifiers
from legalsearch.query.models import Filters, SearchRequest

_TAG = re.compile(r"\{\{([#^/]?)([^}]+?)\}\}")


def _lookup(name: str, stack: list):
    if name == ".":
        return stack[-1]
    head, *rest = name.split(".")
    value = next((ctx[head] for ctx in reversed(stack) if isinstance(ctx, dict) and head in ctx), None)
    for part in rest:
        value = value[int(part)] if isinstance(value, list) and int(part) < len(value) else None
    return value


def _close(src: str, start: int, name: str) -> tuple[int, int]:
    depth = 1
    for m in _TAG.finditer(src, start):
        kind, tag = m.groups()
        if tag == name and kind in "#^" and kind:
            depth += 1
        elif tag == name and kind == "/":
            depth -= 1
            if depth == 0:
                return m.start(), m.end()
    raise AssertionError(f"unclosed section {name}")


def mustache(src: str, stack: list) -> str:
    out, pos = [], 0
    while m := _TAG.search(src, pos):
        out.append(src[pos:m.start()])
        kind, name = m.groups()
        if not kind:
            value = _lookup(name, stack)
            out.append(json.dumps(value)[1:-1] if isinstance(value, str) else "" if value is None else str(value))
            pos = m.end()
            continue
        end, after = _close(src, m.end(), name)
        inner = src[m.end():end]
        if name == "toJson":
            out.append(json.dumps(_lookup(inner, stack)))
        else:
            value = _lookup(name, stack)
            truthy = value not in (None, False, "", [])
            if kind == "#" and isinstance(value, list):
                out += [mustache(inner, [*stack, item]) for item in value]
            elif kind == "#" and truthy:
                out.append(mustache(inner, [*stack, value]))
            elif kind == "^" and not truthy:
                out.append(mustache(inner, stack))
        pos = after
    out.append(src[pos:])
    return "".join(out)


def numbers(body):
    """The rendered body as the engine reads it: `size`, neural `k` and `ef_search` are sent as
    strings (never bare: tests/integration/test_template_injection.py) and parsed as integers."""
    if isinstance(body, dict):
        return {key: int(v) if key in ("size", "k", "ef_search") and isinstance(v, str) else numbers(v)
                for key, v in body.items()}
    if isinstance(body, list):
        return [numbers(v) for v in body]
    return body


def render(template_id: str, params: dict) -> dict:
    return numbers(json.loads(mustache(templates.sources()[template_id], [params])))


def without_model_id(body: dict) -> dict:
    body = copy.deepcopy(body)
    for sub in body["query"].get("hybrid", body["query"].get("bool", {})).get("queries") or \
            body["query"].get("bool", {}).get("should", []):
        sub.get("neural", {}).get("vector", {}).pop("model_id", None)
    return body


QUESTIONS = ["What is the liability cap in clause 14.3?", "Schedule 2 paragraph 1 and clause 9", "notice period",
             'a "quoted" \\ back\nslash {{k}} è']
FILTER_VALUES = {"groups": ("litigation-team", "sales"), "as_of": date(2025, 6, 1), "jurisdictions": ("UK",),
                 "doc_ids": ("msa",), "doc_keys": ("msa:1", "nda:2"), "doc_types": ("contract",), "languages": ("en",)}


def combinations():
    names = list(FILTER_VALUES)
    for mask in itertools.product((False, True), repeat=len(names)):
        yield Filters(**{n: FILTER_VALUES[n] for n, on in zip(names, mask, strict=True) if on})


@pytest.mark.parametrize("question", QUESTIONS)
def test_every_template_renders_the_python_body_for_every_option(question):
    refs = parse_identifiers(question)
    for filters in combinations():
        for k in (3, 10):
            params = templates.template_params(question, filters, refs, k)
            python = without_model_id(bodies.search_body("hybrid", text=question, vector=None, filters=filters,
                                                         size=k, refs=refs, model_id="M"))
            if len(python["query"]["hybrid"]["queries"]) == 2:  # no section cited: the template's placeholder
                python["query"]["hybrid"]["queries"].append(bodies.MATCH_NONE)
            assert render(templates.HYBRID_TEMPLATE, params) == python
            assert render(templates.BOOL_TEMPLATE, params) == without_model_id(
                bodies.bool_body(question, None, filters, k, refs, model_id="M"))
            route = {key: v for key, v in params.items() if key not in ("section", "heading_phrases")}
            assert render(templates.ROUTE_TEMPLATE, route) == without_model_id(
                bodies.routing_body(question, None, filters, k, model_id="M"))


def test_defaults_when_k_is_left_out():
    assert render(templates.HYBRID_TEMPLATE, {"query_text": "x"})["size"] == templates.DEFAULT_K
    assert render(templates.ROUTE_TEMPLATE, {"query_text": "x"})["size"] == templates.DEFAULT_ROUTE_K


def test_params_leave_empty_lists_out_and_carry_the_cited_sections():
    refs = parse_identifiers("Schedule 2 paragraph 1 and art. 1341 c.c.")
    params = templates.template_params("q", Filters(groups=()), refs, 5)
    assert params == {"query_text": "q", "k": 5, "section": ["2", "1"], "heading_phrases": ["Schedule 2"]}


def test_optional_parts_must_follow_an_element():
    with pytest.raises(ValueError):
        templates.render([templates.Opt("x", ({"a": 1},))])
    with pytest.raises(ValueError):
        templates.render([{"a": 1}, templates.Each("x", ({"b": 1},))])


def test_the_templates_render_the_request_without_the_python_side_round2_options():
    # The clause-title list (title_weight) and the routing prior re-rank on the Python side: the
    # title list's share depends on which other lists are present (no fixed weight vector of the
    # index's default pipeline gives both orders), and the prior re-sorts the fused list after
    # OpenSearch returns it. The templates therefore render the request with both at 0, which
    # the loop above checks clause by clause; the planner's default adds the title list only
    # when the question names a clause topic, and then as its own list, after the three.
    req = SearchRequest(query="which law governs the NDA?")
    assert (req.fusion.title_weight, req.routing.prior) == (0.3, 0.5)  # the Python defaults (docs/results.md)
    basic = bodies.sub_query_list("hybrid", text=req.query, vector=None, filters=Filters(), size=10, model_id="M")
    assert [kind for kind, _ in basic] == ["bm25", "knn"]
    with_titles = bodies.sub_query_list("hybrid", text=req.query, vector=None, filters=Filters(), size=10,
                                        model_id="M", titles=["governing law"])
    assert [kind for kind, _ in with_titles] == ["bm25", "knn", "title"]
    assert with_titles[:2] == basic  # the template's lists are unchanged; only a list is added


def test_every_value_tag_is_inside_a_json_string():
    """Mustache escapes only what breaks a JSON string: a value tag outside quotes (a bare number)
    would let a param such as `200}` close the body. Lists go through toJson (a JSON array)."""
    for template_id, source in templates.sources().items():
        assert not re.findall(r'[^"]\{\{(?![#^/])[^}]+\}\}', source), template_id
        for value in ("200}", '"}},"query":{"match_all":{}}, "x":{"a":"'):
            body = json.loads(mustache(source, [{"query_text": value, "k": value, "as_of": value}]))
            assert body["size"] == value and "match_all" not in body.get("query", {}), template_id


def test_the_chunk_templates_search_with_the_index_s_beam_width():
    """An index beyond 100,000 chunks records ef_search 400: `template_params` passes it, and the
    rendered body is the one the Python planner sends there; the default (100) is left out."""
    from legalsearch.index.schema import KNN_EF_SEARCH, KNN_EF_SEARCH_LARGE

    assert "ef_search" not in templates.template_params("notice period", Filters(), (), 10, KNN_EF_SEARCH)
    params = templates.template_params("notice period", Filters(), (), 10, KNN_EF_SEARCH_LARGE)
    assert params["ef_search"] == KNN_EF_SEARCH_LARGE
    python = without_model_id(bodies.search_body("hybrid", text="notice period", vector=None, filters=Filters(),
                                                 size=10, model_id="M", ef_search=KNN_EF_SEARCH_LARGE))
    python["query"]["hybrid"]["queries"].append(bodies.MATCH_NONE)
    assert render(templates.HYBRID_TEMPLATE, params) == python
    neural = render(templates.BOOL_TEMPLATE, params)["query"]["bool"]["should"][1]["neural"]["vector"]
    assert neural["method_parameters"] == {"ef_search": KNN_EF_SEARCH_LARGE}
