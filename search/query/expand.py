"""Two-step retrieval: fetch what the hits point to (cross-references, definitions, and the
amendments in the index that change a hit's clause: `index.links`), under the same filters as the search (ACL and validity included), and place it after the retrieved hits
(`placement="end"`, the default) or right after the hit that cites it ("inline").

"end" keeps the ranking a ranking: the k retrieved hits hold the first k places and every added
clause follows them, its `via` naming the hit that cites it. Inline, one hit that cites four
clauses pushes the next retrieved hits four places down, which costs hit@5 on the gold sets for
the same clauses added."""

from __future__ import annotations

from dataclasses import dataclass, field

from legalsearch.query.bodies import ids_query
from legalsearch.query.models import BEYOND_LIMIT, PLACEMENTS, Filters


@dataclass
class Expansion:
    ordered: list[tuple[dict, str]]  # (source, via) in output order
    unfollowed: list[dict] = field(default_factory=list)


def cited_chunk_ids(hit: dict) -> list[str]:
    """The chunk ids a hit's references point to, in citation order: the first chunk of each
    referenced unit first ("clause 3" -> the start of clause 3), then the rest of the units. An
    amendment's "clause 14.3 of the Agreement" counts once the link pass (`index.links`) resolved it
    in the amended agreement."""
    xrefs = [x for x in hit.get("xrefs") or [] if not x.get("external") or x.get("resolved_chunk_ids")]
    if not xrefs:  # records without the references themselves: the resolved ids alone
        return list(hit.get("xref_chunk_ids") or [])
    firsts = [x["resolved_chunk_ids"][0] for x in xrefs if x.get("resolved_chunk_ids")]
    rest = [cid for x in xrefs for cid in (x.get("resolved_chunk_ids") or [])[1:]]
    allowed = set(hit.get("xref_chunk_ids") or firsts + rest)
    return [cid for cid in dict.fromkeys(firsts + rest) if cid in allowed]


def amending_chunk_ids(hit: dict) -> list[str]:
    """The chunks of an amendment in the index that change this hit's clause (`index.links`):
    a hit on the old clause 14.3 arrives with "Clause 14.3 of the Agreement is amended by ..."."""
    return list(hit.get("amended_by_chunk_ids") or [])


def plan(hits: list[dict], definitions: bool, limit: int | None = None) -> dict[str, list[str]]:
    """For each hit (by chunk id), the chunk ids to fetch after it, first citation wins; at most
    `limit` per hit (a clause that cites "clauses 3 to 8" must not bury the next hits)."""
    present = {h["chunk_id"] for h in hits}
    wanted: dict[str, list[str]] = {}
    claimed: set[str] = set()
    for h in hits:
        targets = amending_chunk_ids(h) + cited_chunk_ids(h)  # what changes the clause, then what it cites
        if definitions:
            targets += list(h.get("definition_chunk_ids") or [])
        mine = []
        for cid in targets:
            if limit is not None and len(mine) >= limit:
                break
            if cid in present or cid in claimed or cid == h["chunk_id"]:
                continue
            claimed.add(cid)
            mine.append(cid)
        wanted[h["chunk_id"]] = mine
    return wanted


def unfollowed_refs(hits: list[dict], fetched: set[str], wanted: dict[str, list[str]]) -> list[dict]:
    """References of the hits that were not followed, and why (external, unresolved, filtered, or
    past the limit of chunks added per hit: none of its chunks was asked for)."""
    out = []
    present = {h["chunk_id"] for h in hits} | fetched
    asked = {cid for cids in wanted.values() for cid in cids}
    for h in hits:
        for x in h.get("xrefs") or []:
            reason = None
            if x.get("external") and not x.get("resolved_chunk_ids"):
                reason = "external"
            elif not x.get("resolved_chunk_ids"):
                reason = "unresolved"
            elif not any(cid in present for cid in x["resolved_chunk_ids"]):
                reason = "not available under the caller's filters (access or validity date)" \
                    if any(cid in asked for cid in x["resolved_chunk_ids"]) else BEYOND_LIMIT
            if reason:
                out.append({"chunk_id": h["chunk_id"], "ref": x.get("raw"), "target": x.get("target"),
                            "reason": reason})
    return out


def expand(store, index: str, hits: list[dict], filters: Filters, *, xrefs: bool = True,
           definitions: bool = False, limit: int | None = None, placement: str = "end") -> Expansion:
    wanted = targets(hits, xrefs, definitions, limit)
    ids = sorted({cid for cids in wanted.values() for cid in cids})
    answer = store.search(index, ids_query(ids, filters)) if ids else None
    return expanded(hits, wanted, answer, xrefs=xrefs, placement=placement)


def targets(hits: list[dict], xrefs: bool = True, definitions: bool = False, limit: int | None = None
            ) -> dict[str, list[str]]:
    """For each hit (by chunk id), the chunk ids expansion fetches after it (`plan`); none when
    expansion is off. `ids_query` of all of them, under the search's filters, fetches them."""
    if not xrefs and not definitions:
        return {}
    return plan(hits, definitions, limit) if xrefs else {
        h["chunk_id"]: [c for c in (h.get("definition_chunk_ids") or [])][:limit] for h in hits
    }


def expanded(hits: list[dict], wanted: dict[str, list[str]], answer: dict | None, *, xrefs: bool = True,
             placement: str = "end") -> Expansion:
    """The expansion of `hits` from the answer to the `ids_query` of `wanted` (None: nothing was
    fetched); `wanted` empty: expansion off, the hits alone."""
    if not wanted:
        return Expansion([(h, "retrieval") for h in hits])
    fetched = {hit["_source"]["chunk_id"]: hit["_source"] for hit in answer["hits"]["hits"]} if answer else {}
    return Expansion(place(hits, wanted, fetched, placement),
                     unfollowed_refs(hits, set(fetched), wanted) if xrefs else [])


def place(hits: list[dict], wanted: dict[str, list[str]], fetched: dict[str, dict], placement: str = "end"
          ) -> list[tuple[dict, str]]:
    """(source, via) in output order: the hits, and each fetched chunk a hit wants, marked
    "xref:<citing chunk_id>" (or "definition:...", "amended_by:..."), after all the hits ("end") or right after the
    one that wants it ("inline")."""
    if placement not in PLACEMENTS:
        raise ValueError(f"unknown placement {placement!r}; choose one of: {', '.join(PLACEMENTS)}")
    ordered: list[tuple[dict, str]] = []
    added: list[tuple[dict, str]] = []
    for h in hits:
        ordered.append((h, "retrieval"))
        definition_ids = set(h.get("definition_chunk_ids") or [])
        amending = set(amending_chunk_ids(h))
        for cid in wanted.get(h["chunk_id"], []):
            if cid in fetched:
                cited = cid in (h.get("xref_chunk_ids") or [])
                kind = "amended_by" if cid in amending and not cited else \
                    "definition" if cid in definition_ids and not cited else "xref"
                (ordered if placement == "inline" else added).append((fetched[cid], f"{kind}:{h['chunk_id']}"))
    return ordered + added
