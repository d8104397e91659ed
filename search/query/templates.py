"""The stored search templates (mustache) that give every OpenSearch client our search: a Java
service, Dashboards Dev Tools or curl names the index, the template and the question, and the
engine embeds the question itself (`neural`, docs/engine.md).

One source of truth: each template is GENERATED from the leaf builders of `search.query.bodies`
(the same functions that build the Python requests), with markers where the client's params go,
and `tests/unit/query/test_templates.py` + `tests/integration/test_engine.py` render it for every
combination of params and compare it with the body `bodies.search_body` builds, clause by clause.

- `legalsearch-hybrid` (chunks index, trusted service clients): the body `search_body("hybrid")`
  builds, with `neural` in place of `knn`. Always three sub-queries: BM25, neural, and the exact
  section-label sub-query, or `match_none` when no section is given, so the index's default search
  pipeline (3 weights 0.15 / 0.35 / 0.5, and the query model id) fuses every request: weights must
  match the sub-query count on 2.19, and with `match_none` scoring 0 the order is exactly the
  2-weight 0.3 / 0.7 order (scores are halved).
- `legalsearch-bool` (chunks index, DLS-restricted users: a `hybrid` query cannot run under
  document-level security on 2.19): `bodies.bool_body`, the same sub-queries in a bool should.
- `legalsearch-route` (docs index): `bodies.routing_body`, document routing, fused by the docs
  index's default pipeline (RRF, k 60); its top `doc_key`s go into `doc_key` of the chunk search.

Params (lists may be omitted, never sent empty: mustache.java fails on `{{#x.0}}` of []):
`query_text` (required), `k` (hits; also the neural k), `ef_search` (the k-NN beam width: the
index's, `legalsearch index info`; 100 when absent), `groups` (ACL groups besides public;
absent = public only), `as_of` ("YYYY-MM-DD"), `jurisdiction`, `doc_id`, `doc_key`, `doc_type`,
`language` (lists), `section` (normalized labels, e.g. ["14.3"]), `heading_phrases`
(e.g. ["Schedule 2"]) and `parent_section` (the enclosing unit of a dotted label, e.g. ["14"]),
which `template_params` derives from the question as our planner does.

Not in the templates: what runs in Python around the OpenSearch request, so a template renders
the request with it off:
- the clause-title list (`SearchRequest.title_weight`): its share depends on which other lists
  are present, which one fixed weight vector of the index's default pipeline cannot give;
- the priors that re-sort the fused list after OpenSearch answers: the routing prior
  (`routing_prior`), the current-text prior (`current_prior`; a template client passes `as_of`
  to get one version) and the recitals prior (`recitals_prior`);
- the documents a question names (`routing_names`: two small requests on the document registry
  decide which words are rare enough to name one): the route template ranks by title, parties,
  summary and profile as `--routing-names off` does, and a client that knows the document passes
  its `doc_key` (or `doc_id`);
- the per-language BM25 lists of routing (`routing_languages`: the route template has one BM25
  list, as `--no-routing-languages`), and `routing_weights`, `routing_knn`, `routing_topics`.
`groups` is whatever the CALLER says: not an access-control boundary (docs/engine.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from legalsearch.index.schema import KNN_EF_SEARCH
from legalsearch.query import bodies
from legalsearch.query.identifiers import QueryRef
from legalsearch.query.models import Filters

HYBRID_TEMPLATE = "legalsearch-hybrid"
BOOL_TEMPLATE = "legalsearch-bool"
ROUTE_TEMPLATE = "legalsearch-route"
DEFAULT_K = 10
DEFAULT_ROUTE_K = 3  # SearchRequest.routing_docs
LIST_PARAMS = ("groups", *(fld for fld, _ in bodies.TERMS_FILTERS), "section", "heading_phrases", "parent_section")


# --------------------------------------------------------------------------- markers


@dataclass(frozen=True)
class Var:
    """A string param, JSON-escaped by OpenSearch's mustache: "{{name}}"."""
    name: str


@dataclass(frozen=True)
class Json:
    """A list param as JSON (toJson renders a STRING bare, so only lists go through it)."""
    name: str


@dataclass(frozen=True)
class Num:
    """A number param with a default, rendered as a JSON STRING: "{{k}}{{^k}}10{{/k}}".

    Never bare: mustache escapes only what breaks a JSON string (quotes, backslashes), so a bare
    `{{k}}` given `200}` would close the body and let the caller write its own query (the probe of
    issue 24 ran `match_all` without the ACL filter that way). Quoted, any value is one string the
    engine parses as an integer (`size`, neural `k` accept "7") or rejects with a 400."""
    name: str
    default: int


@dataclass(frozen=True)
class Dot:
    """The current item inside `Each`: "{{.}}"."""


@dataclass(frozen=True)
class Each:
    """List element(s) repeated for each item of a list param; each item is followed by a comma,
    so an always-present element must come after it."""
    name: str
    items: tuple


@dataclass(frozen=True)
class Opt:
    """List element(s) present when a list param is non-empty, or a `scalar` param is given (a
    leading comma: must follow an always-present element)."""
    name: str
    items: tuple
    scalar: bool = False

    @property
    def tag(self) -> str:
        return self.name if self.scalar else f"{self.name}.0"


@dataclass(frozen=True)
class Either:
    """One value when a list param is non-empty, another otherwise."""
    name: str
    then: Any
    otherwise: Any


def render(value: Any) -> str:
    """`value` as the mustache source of a JSON text."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{render(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return _render_list(value)
    if isinstance(value, Var):
        return f'"{{{{{value.name}}}}}"'
    if isinstance(value, Json):
        return f"{{{{#toJson}}}}{value.name}{{{{/toJson}}}}"
    if isinstance(value, Num):
        return f'"{{{{{value.name}}}}}{{{{^{value.name}}}}}{value.default}{{{{/{value.name}}}}}"'
    if isinstance(value, Dot):
        return '"{{.}}"'
    if isinstance(value, Either):
        return (f"{{{{#{value.name}.0}}}}{render(value.then)}{{{{/{value.name}.0}}}}"
                f"{{{{^{value.name}.0}}}}{render(value.otherwise)}{{{{/{value.name}.0}}}}")
    if isinstance(value, Each | Opt):
        raise ValueError(f"{type(value).__name__}({value.name}) belongs inside a list")
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _render_list(items) -> str:
    parts: list[str] = []
    after_element = False  # the last thing written is an element (not an Each's trailing comma)
    for item in items:
        if isinstance(item, Opt):
            if not after_element:
                raise ValueError(f"Opt({item.name}) must follow an always-present element")
            parts.append(f"{{{{#{item.tag}}}}}," + ",".join(render(i) for i in item.items) + f"{{{{/{item.tag}}}}}")
        elif isinstance(item, Each):
            parts.append(("," if after_element else "") + f"{{{{#{item.name}}}}}"
                         + "".join(render(i) + "," for i in item.items) + f"{{{{/{item.name}}}}}")
            after_element = False
        else:
            parts.append(("," if after_element else "") + render(item))
            after_element = True
    if items and not after_element:
        raise ValueError("a list cannot end with Each (its trailing comma)")
    return "[" + "".join(parts) + "]"


# --------------------------------------------------------------------------- the templates


EF_SEARCH = Num("ef_search", KNN_EF_SEARCH)
"""The k-NN beam width of the chunk templates: the index's own (`legalsearch index info`, `knn.ef_search`,
400 beyond 100,000 chunks), which `template_params` passes when given; 100 when the client sends none."""


def filter_markers() -> list:
    """`bodies.filter_clauses` with the client's params in place of a Filters."""
    return [
        bodies.acl_should(Opt("groups", (bodies.terms_clause("acl", Json("groups")),))), bodies.NOT_CONTENTS,
        Opt("as_of", tuple(bodies.validity_clauses(Var("as_of"))), scalar=True),
        *(Opt(fld, (bodies.terms_clause(fld, Json(fld)),)) for fld, _ in bodies.TERMS_FILTERS),
    ]


def _identifier(clauses: list):
    should = [Each("heading_phrases", (bodies.phrase_clause(Dot()),)),
              Each("section", tuple(bodies.label_clauses(Dot()))),
              Each("parent_section", (bodies.parent_clause(Dot()),)), bodies.MATCH_NONE]
    return bodies.identifier_clause(should, clauses)


def hybrid_body() -> dict:
    f = filter_markers()
    text, k = Var("query_text"), Num("k", DEFAULT_K)
    queries = [bodies.bm25_clause(text, f), bodies.neural_clause(text, k, f, ef_search=EF_SEARCH),
               Either("section", _identifier(f), bodies.MATCH_NONE)]
    return {"size": k, "_source": {"excludes": bodies.SOURCE_EXCLUDES}, "query": {"hybrid": {"queries": queries}}}


def bool_body() -> dict:
    f = filter_markers()
    text, k = Var("query_text"), Num("k", DEFAULT_K)
    return bodies.bool_search_body(bodies.bm25_clause(text, f), bodies.neural_clause(text, k, f, ef_search=EF_SEARCH),
                                   Opt("section", (_identifier(f),)), k)


def route_body() -> dict:
    f = filter_markers()
    text, k = Var("query_text"), Num("k", DEFAULT_ROUTE_K)
    queries = [bodies.bm25_clause(text, f, bodies.ROUTING_FIELDS), bodies.neural_clause(text, k, f)]
    return {"size": k, "_source": bodies.ROUTING_SOURCE, "query": {"hybrid": {"queries": queries}}}


def sources() -> dict[str, str]:
    """Template id -> mustache source (a string: its sections make it invalid JSON until rendered)."""
    return {HYBRID_TEMPLATE: render(hybrid_body()), BOOL_TEMPLATE: render(bool_body()),
            ROUTE_TEMPLATE: render(route_body())}


def template_params(query: str, filters: Filters, refs: list[QueryRef] | tuple[QueryRef, ...] = (),
                    k: int = DEFAULT_K, ef_search: int | None = None) -> dict:
    """The params that make a template render the body our planner builds for the same request
    (empty lists left out); `ef_search`: the index's k-NN beam width (`bodies.knn_ef_search` of
    its meta), left out when it is the templates' default."""
    params: dict[str, Any] = {"query_text": query, "k": k}
    if ef_search is not None and ef_search != KNN_EF_SEARCH:
        params["ef_search"] = ef_search
    if filters.groups:
        params["groups"] = list(filters.groups)
    if filters.as_of:
        params["as_of"] = filters.as_of.isoformat()
    for fld, attr in bodies.TERMS_FILTERS:
        if getattr(filters, attr):
            params[fld] = list(getattr(filters, attr))
    labels, phrases = bodies.identifier_terms(list(refs))
    if labels:
        params["section"] = labels
        if phrases:
            params["heading_phrases"] = phrases
        parents = bodies.parent_labels(list(refs))
        if parents:
            params["parent_section"] = parents
    return params


HYBRID_RERANK_TEMPLATE = "legalsearch-hybrid-rerank"


def rerank_body() -> dict:
    """`legalsearch-hybrid` for the rerank pipeline (`legalsearch-engine-rerank-v1-E`, search.engine.install):
    the question also goes to the `rerank` response processor (`ext.rerank.query_context`), and each
    hit's `embedded_text`, which the reranker reads, stays in `_source`."""
    return {**hybrid_body(), "_source": {"excludes": ["vector"]},
            "ext": {"rerank": {"query_context": {"query_text": Var("query_text")}}}}


def rerank_source() -> str:
    return render(rerank_body())
