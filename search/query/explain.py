"""`legalsearch explain`: why each hit ranks where it does, in the engine's words where it has them.

The search is planned by `SearchService.plan`, as `search` plans it (routing included), and its
fused query runs twice: as `search` runs it (the ranking and fused scores explained, identical to
the search's), and with `explain=true` through the fusion pipeline plus neural-search's
`hybrid_score_explanation` response processor (`fusion.explain_pipeline`, a pipeline of its own
that no search names). From that run's `_explanation` each hit takes, per sub-query, its raw score
and Lucene explanation, the normalized score the pipeline gave it (min-max, l2, or RRF's
1/(rank_constant + rank)), the combination (technique and weights) and the fused score; nothing of
the fusion is computed here.

The engine cannot say what happens outside the fused query, so that stays ours: which documents
routing restricted the search to and the words that named them, the question searched inside one
named document (`focused`), the recitals, routing and current-text priors added to the fused score
after fusion (`plan.apply_recitals_prior` / `apply_routing_prior` / `apply_current_prior`), and the
cited clauses and definitions that cross-reference expansion appends.

The processor lists a sub-query only where the hit's raw score is positive, and unlabelled; each
sub-query of the explained run carries its list's name (`_name`), so the hit's `matched_queries`
say which lists those are (in body order, as the processor writes them).
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from legalsearch.query import expand
from legalsearch.query.fusion import explain_pipeline
from legalsearch.query.models import SearchRequest
from legalsearch.query.plan import (
    LANGUAGE_PLACE,
    apply_current_prior,
    apply_recitals_prior,
    apply_routing_prior,
    cross_language_places,
)
from legalsearch.query.service import SearchService

_FIELD_KEYED = ("knn", "neural")
"""Queries written {type: {field: {...}}}: their `_name` goes inside the field's object."""


def named_body(body: dict, kinds: tuple[str, ...] | list[str]) -> dict:
    """A copy of a search body whose sub-queries (one for a plain query) carry their list's name
    (`_name`: "bm25", "knn", ...), so each hit says which of them it matched."""
    named = copy.deepcopy(body)
    query = named["query"]
    subs = query["hybrid"]["queries"] if "hybrid" in query else [query]
    for kind, sub in zip(kinds, subs, strict=True):
        ((qtype, inner),) = sub.items()
        if qtype in _FIELD_KEYED:
            ((_, inner),) = inner.items()
        inner["_name"] = kind
    return named


def _line(e: dict) -> str:
    return f"{e['value']:.3f} = {e['description']}"


def _technique(description: str) -> str:
    """"min_max normalization of:" -> "min_max"; "rrf, rank_constant [60] normalization of:" -> "rrf, rank_constant [60]"."""
    return description.removesuffix(":").removesuffix(" of").removesuffix(" normalization").strip()


def parse_explanation(hit: dict, kinds: tuple[str, ...] | list[str]) -> dict:
    """One hit's `_explanation` (of a run through `fusion.explain_pipeline`, or of a plain query)
    read into: `explained_score` (the fused score it explains; the hit's `_score` where the
    pipeline had no explanation processor), `combination` (the pipeline's
    combination: technique and weights; None for a plain query), `normalization` (the technique,
    e.g. "min_max" or "rrf, rank_constant [60]"), and `scores`: per list in `kinds`, None where
    the hit did not match it, else {"raw", "normalized", "explanation"} (the sub-query's score,
    the pipeline's normalized score, the sub-query's own explanation in one line).
    `unlabelled` holds the explained sub-queries when the hit's `matched_queries` do not say
    which lists they are (then `scores` are all None)."""
    e = hit["_explanation"]
    details = e.get("details") or []
    result: dict[str, Any] = {"explained_score": e["value"], "combination": None, "normalization": None,
                              "scores": dict.fromkeys(kinds), "unlabelled": []}
    if len(kinds) == 1:  # a plain query: Lucene's explanation of the one list
        result["scores"][kinds[0]] = {"raw": e["value"], "normalized": None, "explanation": _line(e)}
        return result
    fused = bool(details) and all("normalization" in d["description"] and d.get("details") for d in details)
    if fused:
        result["combination"] = e["description"].removesuffix(" combination of:")
        result["normalization"] = _technique(details[0]["description"])
        explained = [{"raw": d["details"][0]["value"], "normalized": d["value"],
                      "explanation": _line(d["details"][0])} for d in details]
    else:  # the query level alone ("combined score of:", valued at the best sub-query): one detail per
        # sub-query, no normalization; the fused score is the hit's
        result["explained_score"] = hit.get("_score", e["value"])
        explained = [{"raw": d["value"], "normalized": None, "explanation": _line(d)} for d in details]
        if len(explained) == len(kinds):
            result["scores"] = {k: (x if x["raw"] > 0 else None) for k, x in zip(kinds, explained, strict=True)}
            return result
    matched = set(hit.get("matched_queries") or ())  # a list, or {name: score} with include_named_queries_score
    listed = [k for k in kinds if k in matched]
    if len(listed) == len(explained):
        result["scores"].update(zip(listed, explained, strict=True))
    else:
        result["unlabelled"] = explained
    return result


def explain(service: SearchService, req: SearchRequest) -> dict:
    """The search `req` describes, planned and fused exactly as `legalsearch search` fuses it,
    with the engine's explanation of each hit's fused score and what our code added to it.
    The engine explains the fused query itself; no list is ranked on its own."""
    plan = service.plan(req)
    kinds = list(plan.kinds)
    # the fused list before the priors, as `search` gets it from the engine; then the priors
    engine = service.run(dataclasses.replace(plan, prior=0.0, current=None, across=None, recitals=0.0))
    recited = apply_recitals_prior(engine, plan.recitals)
    routed = apply_routing_prior(recited, plan.routed, plan.prior)
    final = apply_current_prior(routed, plan.current)
    places = cross_language_places(req) if plan.across else 0
    if places:  # places of the top k given to a routed language searched alone, as `search` orders them
        final = service.run(plan)
    before = {src["chunk_id"]: score for src, score in engine}
    after_recitals = {src["chunk_id"]: score for src, score in recited}
    after_routing = {src["chunk_id"]: score for src, score in routed}

    # the same query, explained by the engine
    explained_pipeline = None
    if plan.pipeline:
        explained_pipeline = service.pipelines.ensure(*explain_pipeline(*plan.pipeline))
    result = service.store.search(plan.index, named_body(plan.body, kinds), pipeline=explained_pipeline, explain=True)
    explanations = {h["_source"]["chunk_id"]: parse_explanation(h, kinds) for h in result["hits"]["hits"]}

    top = final[: req.k]
    rows = []
    combination = normalization = None
    for rank, (src, score) in enumerate(top, start=1):
        cid = src["chunk_id"]
        language_place = src.get(LANGUAGE_PLACE)  # marked by plan.language_places
        why = explanations.get(cid) if not language_place else None  # the engine explained the fused search only
        if why and why["combination"]:
            combination, normalization = why["combination"], why["normalization"]
        scores = why["scores"] if why else dict.fromkeys(kinds)
        bm25 = scores.get("bm25")
        rows.append({
            "rank": rank,
            "chunk_id": cid,
            "section": src.get("section"),
            "doc_title": src.get("doc_title"),
            "version": src.get("version"),
            "fused_score": score,
            "engine_score": before.get(cid) if not language_place else None,
            "explained_score": why["explained_score"] if why else None,
            "priors": ({"recitals": after_recitals[cid] - before[cid], "routing": after_routing[cid] - after_recitals[cid],
                        "current": score - after_routing[cid]}
                       if not language_place else {}),
            # one of the language's places: its score is from the search of its language alone
            "language_place": language_place,
            "scores": scores,
            "unlabelled": why["unlabelled"] if why else [],
            "bm25_explanation": bm25["explanation"] if bm25 else None,
        })
    expansion = expand.expand(service.store, plan.index, [src for src, _ in top], plan.filters,
                              xrefs=req.expansion.xrefs, definitions=req.expansion.definitions,
                              limit=req.expansion.limit, placement=req.expansion.placement)
    expanded = [{"chunk_id": src["chunk_id"], "via": via, "section": src.get("section"),
                 "doc_title": src.get("doc_title"), "version": src.get("version")}
                for src, via in expansion.ordered if via != "retrieval"]
    return {"query": req.query, "pipeline": plan.pipeline[0] if plan.pipeline else None,
            "explain_pipeline": explained_pipeline, "lists": kinds, "combination": combination,
            "normalization": normalization, "identifiers": [f"{r.kind} {r.label}" for r in plan.refs],
            "routed_docs": list(plan.routed), "named_by": list(plan.named_by), "focused": plan.focused,
            "routing_prior": plan.prior, "routing_unsure": plan.unsure,
            "glossary": {"language": plan.glossary[0], "words": list(plan.glossary[1]),
                         "search": "across" if plan.across else "named"} if plan.glossary else None,
            "hits": rows, "expanded": expanded}


def _cell(score: dict | None) -> str:
    if score is None:
        return "-"
    if score["normalized"] is None:
        return f"{score['raw']:.3f}"
    return f"{score['raw']:.3f}>{score['normalized']:.4f}"


def render(result: dict) -> str:
    lists = result["lists"]
    fusion = ""
    if result.get("combination"):
        fusion = f"; {result['normalization']} normalization, {result['combination']} combination"
    head = f"{'#':>3}  {'fused':>8}  {'engine':>8}  {'priors':>7}  " + "  ".join(f"{n:>16}" for n in lists) + "  hit"
    lines = [f"query: {result['query']}  (pipeline {result['pipeline']}{fusion})"]
    if result.get("routed_docs"):
        named = f" (named by: {', '.join(result['named_by'])})" if result.get("named_by") else ""
        weight = f"; routing prior {result['routing_prior']:g}" if result.get("routing_prior") else ""
        unsure = " (routing's lists disagree on the first document)" if result.get("routing_unsure") else ""
        lines.append("routed to: " + ", ".join(result["routed_docs"]) + named + weight + unsure)
    if result.get("focused"):
        lines.append(f"searched inside it as: {result['focused']}")
    if result.get("glossary"):
        read = result["glossary"]
        where = f"the search in {read['language']} alone" if read["search"] == "across" else "the named document's search"
        lines.append(f"BM25 of {where} also read, from the glossary: " + " ".join(read["words"]))
    lines.append("per list: the sub-query's raw score > the pipeline's normalized score (- not matched)")
    lines.append(head)
    for row in result["hits"]:
        cells = "  ".join(f"{_cell(row['scores'].get(n)):>16}" for n in lists)
        engine = f"{row['engine_score']:>8.5f}" if row["engine_score"] is not None else f"{'-':>8}"
        priors = f"{sum(row['priors'].values()):>+7.3f}" if row["priors"] else f"{'-':>7}"
        place = f"; searched in {row['language_place']} alone" if row.get("language_place") else ""
        lines.append(f"{row['rank']:>3}  {row['fused_score']:>8.5f}  {engine}  {priors}  {cells}  "
                     f"{row['chunk_id']} (§ {row['section'] or '-'}, {row['doc_title']} v{row['version']}{place})")
    for row in result.get("expanded") or []:
        lines.append(f"  + {row['chunk_id']} (via {row['via']}; § {row['section'] or '-'}, {row['doc_title']})")
    return "\n".join(lines)
