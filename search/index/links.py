"""Links between documents of one index: an amendment and the agreement it amends.

An amendment ("Amendment No. 1 to the Master Services Agreement", an addendum, an atto
modificativo) writes "Clause 14.3 of the Agreement is amended by ..."; the parser marks that
reference external (`parse.references.amends_another`), because it is not the amendment's own
clause 14.3. When the amended agreement is in the same index, the link pass after each ingest:

- finds it: among the index's other documents, the one whose title the amendment's opening
  names ("... TO THE MASTER SERVICES AGREEMENT"), scored with the parties both name and the
  agreement's signing date written in the amendment ("dated 3 March 2024"); a tie links nothing;
- resolves the amendment's references to the agreement ("clause 14.3 of the Agreement", and the
  references the amendment cannot resolve in itself, "In Schedule 2, ...") to the agreement's
  chunks of that unit: `xrefs[].resolved_chunk_ids` and `resolved_doc_id`, so the expansion
  attaches the amended clause to a hit on the amendment;
- marks each amended chunk of the agreement with the amendment's chunks that change it
  (`amended_by_chunk_ids`), so a hit on the old clause 14.3 arrives with the amendment
  (via "amended_by:<chunk_id>") and the registry records say which document amends which
  (`amends` / `amended_by`, explorable in Dashboards).

Links are made inside one pair of indices only: the public chunks and records, or one wall's
(`index.walls`: every document of a wall has the same ACL). So a link never points from a text a
reader may open to one they may not, and the ids it stores name nothing outside what the reader
already sees. The pass recomputes every link of the index and writes only what differs, so a
re-run changes nothing, and an agreement re-ingested (its chunks rewritten) or deleted is linked
again or unlinked on the next ingest.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from legalsearch.index import walls
from legalsearch.parse.references import AMENDED_OWNERS, MONTHS_EN, MONTHS_IT, names_amended
from legalsearch.store import Store
from legalsearch.summarize.facts import find_dates
from legalsearch.summarize.parties import find_parties

_AMENDMENT_TITLE = re.compile(r"(?i)\b(?:amendment|addendum|variation|side\s+letter|supplemental|"
                              r"atto\s+modificativo|accordo\s+(?:modificativo|integrativo)|modifica)\b")
_TITLE_TAIL = re.compile(r"\s+(?:[–—-]|/|\(|,|between\b|tra\b|fra\b).*$", re.I | re.S)
_SCHEDULE_KINDS = frozenset({"schedule", "annex", "appendix", "exhibit", "allegato", "allegati"})
_UNIT_WORD = re.compile(r"^\s*([A-Za-zÀ-ÿ]+)")
_LEGAL_FORMS = re.compile(r"(?i)[\s,]+(?:limited|ltd\.?|plc|llc|inc\.?|s\.?p\.?a\.?|s\.?r\.?l\.?|gmbh|"
                          r"corporation|corp\.?|company|co\.)$")

CANDIDATES = 20
"""The registry records read as candidate agreements per amendment (a BM25 match of their titles on the
amendment's opening): the amended agreement's title is in that opening, so it ranks among the first."""


@dataclass
class Link:
    """What the pass found for one amendment (the ingest report's `links`)."""

    amendment: str                  # doc_key
    title: str
    target: str | None = None       # the amended document's doc_id, or None
    target_title: str | None = None
    references: int = 0             # references of the amendment resolved in the target
    resolved: list[str] = field(default_factory=list)  # their raw text ("Schedule 2")
    amended_chunks: int = 0         # chunks of the target marked amended_by
    reason: str = ""                # why nothing was linked

    def describe(self) -> str:
        if self.target is None:
            return f"{self.title}: amends a document not linked ({self.reason})"
        return (f"{self.title} amends {self.target_title} ({self.target}): {self.references} "
                f"reference(s) resolved there, {self.amended_chunks} of its chunk(s) marked as amended")


@dataclass
class LinkPass:
    links: list[Link] = field(default_factory=list)
    updated: int = 0                # chunks and records written


# ------------------------------------------------------------------ pure logic


def is_amendment(record: dict, chunks: Iterable[dict]) -> bool:
    """A registry record (and its chunks) of a document that amends another: flagged so at parse
    time, or with a reference to "the Agreement" / "il Contratto" the parser read as the amended one."""
    if "amends_another" in (record.get("flags") or []):
        return True
    return any(x.get("external") and names_amended(x.get("code")) for c in chunks for x in c.get("xrefs") or [])


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w%]+", " ", text.lower())).strip()


def title_core(title: str) -> str:
    """The name part of a title: "Master Services Agreement – Acme / Northwind" -> "master services
    agreement" (what an amendment writes when it names the agreement)."""
    return _norm(_TITLE_TAIL.sub("", title or ""))


def _party_core(party: str) -> str:
    return _norm(_LEGAL_FORMS.sub("", party.strip()))


def date_forms(day: str | None) -> list[str]:
    """The ways a signing date is written in an English or Italian amendment, normalised like `_norm`."""
    if not day:
        return []
    try:
        d = dt.date.fromisoformat(str(day)[:10])
    except ValueError:
        return []
    en, it = MONTHS_EN[d.month - 1], MONTHS_IT[d.month - 1]
    forms = [f"{d.day} {en} {d.year}", f"{en} {d.day} {d.year}", f"{d.day} {it} {d.year}",
             f"{d.day}° {it} {d.year}", f"{d.day:02d} {d.month:02d} {d.year}", f"{d.day} {d.month} {d.year}",
             f"{d.year} {d.month:02d} {d.day:02d}"]
    return [_norm(f) for f in forms]


OPENING_FACTS = 1500
"""How much of a record's opening is read for its date and parties when its metadata gives none."""


def candidate_dates(candidate: dict) -> list[str]:
    """The dates a candidate agreement may be named by: its signing date, or where its metadata has
    none, every date written in its opening ("THIS AGREEMENT is dated 4 March 2024")."""
    if candidate.get("signed_at"):
        return [str(candidate["signed_at"])[:10]]
    return [d.isoformat() for d in dict.fromkeys(find_dates((candidate.get("opening") or "")[:OPENING_FACTS]))]


def candidate_parties(candidate: dict) -> list[str]:
    """A candidate's parties: its metadata's, or those its opening names ("between X and Y", "tra X e Y")."""
    if candidate.get("parties"):
        return list(candidate["parties"])
    opening = (candidate.get("opening") or "")[:OPENING_FACTS]
    return [p.name for p in find_parties(opening, candidate.get("language") or "en")]


def score_candidate(amendment: dict, candidate: dict) -> tuple[int, list[str]]:
    """How well the amendment's opening names `candidate` (a registry record): 2 for its title, 2 for
    its date, 1 for each party both name; and the signs found. Where the candidate's metadata gives
    no date or parties, those its own opening writes (`candidate_dates`, `candidate_parties`)."""
    head = _norm(amendment.get("opening") or "")
    signs: list[str] = []
    score = 0
    words = title_core(candidate.get("title") or "").split()
    # the whole name, or its first three words or more ("contratto di fornitura" of "Contratto di
    # fornitura ACME-Fornitore"): an amendment names the kind of agreement, not always its full title
    names = [" ".join(words[:n]) for n in range(len(words), min(3, len(words)) - 1, -1)]
    if any(len(name) >= 6 and f" {name} " in f" {head} " for name in names):
        score += 2
        signs.append("title")
    if any(f" {form} " in f" {head} " for day in candidate_dates(candidate) for form in date_forms(day)):
        score += 2
        signs.append("date")
    mine = {_party_core(p) for p in amendment.get("parties") or []}
    shared = [p for p in candidate_parties(candidate)
              if _party_core(p) and (_party_core(p) in mine or f" {_party_core(p)} " in f" {head} ")]
    if shared:
        score += min(2, len(shared))
        signs.append(f"{len(shared)} part{'y' if len(shared) == 1 else 'ies'}")
    return score, signs


def choose_target(amendment: dict, candidates: list[dict]) -> tuple[dict | None, str]:
    """The record the amendment amends, or None and why: the best score of at least 4 with the title
    or the date among its signs (an amendment names its agreement's title or date and both its
    parties; "title, 1 party" is a look-alike agreement one of them signed with someone else), signed
    no later than the amendment, alone at the top."""
    scored = []
    for c in candidates:
        if c.get("doc_id") == amendment.get("doc_id") or _AMENDMENT_TITLE.search(c.get("title") or ""):
            continue
        if "amends_another" in (c.get("flags") or []):
            continue
        signed, mine = c.get("signed_at"), amendment.get("signed_at")
        if signed and mine and str(signed)[:10] > str(mine)[:10]:
            continue
        score, signs = score_candidate(amendment, c)
        if score >= 4 and ("title" in signs or "date" in signs):
            scored.append((score, c, signs))
    if not scored:
        return None, "no document of this index that its opening names (by title or date, with its parties)"
    scored.sort(key=lambda t: -t[0])
    best = [t for t in scored if t[0] == scored[0][0]]
    docs = {t[1]["doc_id"] for t in best}
    if len(docs) > 1:
        return None, "several documents match as well: " + ", ".join(sorted(docs))
    return scored[0][1], ", ".join(scored[0][2])


def unit_kind(chunk: dict) -> str:
    """The kind of the outermost unit a chunk is in ("clause", "schedule", "articolo", ...), lowercased."""
    path = chunk.get("heading_path") or []
    m = _UNIT_WORD.match(path[0]) if path else None
    return m.group(1).lower() if m else ""


def unit_chunks(kind: str, label: str, chunks: list[dict]) -> list[str]:
    """The chunk ids of the target's unit `kind` `label` ("clause" "14.3": the chunks of clause 14.3;
    "clause" "14": every chunk of 14, 14.1, 14.2 ...; "schedule" "2": the chunks of Schedule 2), in
    document order. A label with a sub-point ("16.2(d)") falls back to its clause."""
    main = re.split(r"[(\s]", label.strip(), maxsplit=1)[0].rstrip(".").lower()
    if not main:
        return []
    schedule = kind in _SCHEDULE_KINDS
    found = []
    for c in sorted(chunks, key=lambda c: c.get("position", 0)):
        section = str(c.get("section") or "").lower().rstrip(".")
        if not section or (unit_kind(c) in _SCHEDULE_KINDS) != schedule:
            continue
        if section == main or (not schedule and section.startswith(main + ".")):
            found.append(c["chunk_id"])
    return found


def names_target(code: str | None, target_title: str = "") -> bool:
    """Whether an amendment's external reference names the amended agreement: "the Agreement",
    "il Contratto" (`parse.references.names_amended`), or words of the target's title ("clause 4 of
    the Master Services Agreement", "Section 5 of the Lease" for a "Lease Agreement")."""
    if names_amended(code):
        return True
    words = _norm(code or "").split()
    return bool(words) and set(words) <= set(title_core(target_title).split())


def plan_links(amendment_chunks: list[dict], target_id: str, target_chunks: list[dict], target_title: str = ""
               ) -> tuple[dict[str, dict], dict[str, list[str]], list[str]]:
    """What the amendment's chunks and the target's chunks should hold: {amendment chunk_id: its
    `xrefs` and `xref_chunk_ids`} for those that change, {target chunk_id: amendment chunk ids}, and
    the raw text of the references resolved. A reference resolved inside the amendment stays its own."""
    forward: dict[str, dict] = {}
    reverse: dict[str, list[str]] = {}
    resolved: list[str] = []
    for chunk in sorted(amendment_chunks, key=lambda c: c.get("position", 0)):
        xrefs, changed = [], False
        for x in chunk.get("xrefs") or []:
            x = dict(x)
            # "clause 14.3 of the Agreement", or a reference the amendment cannot resolve in itself
            # ("In Schedule 2, ..."; resolved in the target by an earlier pass: resolved_doc_id)
            to_target = (x.get("external") and names_target(x.get("code"), target_title)) or \
                (not x.get("external") and x.get("kind") != "paragraph"
                 and (not x.get("resolved_chunk_ids") or x.get("resolved_doc_id")))
            if to_target or x.get("resolved_doc_id"):
                ids = unit_chunks(x.get("kind") or "", str(x.get("target") or ""), target_chunks) if to_target else []
                want = {"resolved_chunk_ids": ids, "resolved_doc_id": target_id if ids else None,
                        "resolved_section": str(x.get("target")) if ids else None}
                if not to_target:  # linked before, and no longer a reference to the target
                    want = {"resolved_chunk_ids": [], "resolved_doc_id": None, "resolved_section": None}
                if any(x.get(k) != v for k, v in want.items()):
                    changed = True
                x |= want
                if ids:
                    resolved.append(str(x.get("raw") or x.get("target")))
                    for cid in ids:
                        reverse.setdefault(cid, [])
                        if chunk["chunk_id"] not in reverse[cid]:
                            reverse[cid].append(chunk["chunk_id"])
            xrefs.append(x)
        if changed:
            forward[chunk["chunk_id"]] = {
                "xrefs": xrefs,
                "xref_chunk_ids": sorted({cid for x in xrefs for cid in x.get("resolved_chunk_ids") or []}
                                         - {chunk["chunk_id"]}),
            }
    return forward, reverse, resolved


# ------------------------------------------------------------------ the pass

_CHUNK_FIELDS = ["chunk_id", "doc_id", "doc_key", "position", "section", "heading_path", "xrefs",
                 "amended_by_chunk_ids", "valid_from"]
_RECORD_FIELDS = ["doc_id", "doc_key", "title", "parties", "signed_at", "opening", "language", "flags", "amends",
                  "amended_by"]


def latest_first(amending: list[str], since: dict[str, str]) -> list[str]:
    """The amending chunks of one clause, the one in force from the latest day first (`since`: an
    amending chunk's valid_from, else its amendment's signing day; none sorts last), in the pass's
    order where the days are the same: a clause changed by Amendment No. 1 (1 October 2024) and No. 2
    (1 April 2025) reads No. 2 first, as the wording in force, and it is the one a limit on what is
    added keeps (`query.expand.plan`, the context's attachments)."""
    return sorted(amending, key=lambda cid: since.get(cid) or "", reverse=True)


def amended_codes() -> list[str]:
    """The `xrefs.code` values that name an amended instrument, as the parser writes them."""
    names = {"Contratto", "CONTRATTO"}
    for owner in AMENDED_OWNERS:
        names |= {owner.title(), owner.capitalize(), owner.upper()}
    return sorted(names)


def link_all(store: Store, chunks: str, docs: str, *, dry_run: bool = False) -> LinkPass:
    """The link pass over a generation's public pair (`chunks`, `docs`: concrete indices) and each of
    its walls; `dry_run`: what it would link, nothing written."""
    done = LinkPass()
    for pair in [(chunks, docs)] + [(w.chunks, w.docs) for w in walls.list_walls(store, chunks, docs)]:
        one = link_pair(store, *pair, dry_run=dry_run)
        done.links += one.links
        done.updated += one.updated
    return done


def link_pair(store: Store, chunks_index: str, docs_index: str, *, dry_run: bool = False) -> LinkPass:
    """Link every amendment of one pair of indices (public, or one wall) to what it amends;
    `updated`: the chunks and records written (or, with `dry_run`, that would be)."""
    done = LinkPass()
    naming = {h["_source"]["doc_key"] for h in store.scan(
        chunks_index, {"terms": {"xrefs.code": amended_codes()}}, source=["doc_key"])}
    involved = {"bool": {"should": [{"term": {"flags": "amends_another"}}, {"terms": {"doc_key": sorted(naming)}},
                                    {"exists": {"field": "amends"}}, {"exists": {"field": "amended_by"}}]}}
    records = {h["_id"]: h["_source"] for h in store.scan(docs_index, involved, source=_RECORD_FIELDS)}
    marked = {h["_source"]["chunk_id"]: h for h in store.scan(
        chunks_index, {"exists": {"field": "amended_by_chunk_ids"}}, source=_CHUNK_FIELDS)}
    want_reverse: dict[str, list[str]] = {}
    since: dict[str, str] = {}  # an amending chunk -> the day it is in force from (latest_first)
    want_amends: dict[str, str | None] = {}
    want_amended_by: dict[str, set[str]] = {}
    actions: list[dict] = []
    for rid, record in sorted(records.items()):
        if not ("amends_another" in (record.get("flags") or []) or record.get("doc_key") in naming):
            continue
        own = list(store.scan(chunks_index, {"term": {"doc_key": record["doc_key"]}}, source=_CHUNK_FIELDS))
        if not is_amendment(record, [h["_source"] for h in own]):
            continue
        link = Link(record["doc_key"], record.get("title") or record["doc_key"])
        target, why = choose_target(record, _candidates(store, docs_index, record))
        target_chunks: list[dict] = []
        if target is None:
            link.reason = why
        else:
            link.target, link.target_title = target["doc_id"], target.get("title")
            target_chunks = [h["_source"] for h in store.scan(
                chunks_index, {"term": {"doc_id": target["doc_id"]}}, source=_CHUNK_FIELDS)]
        forward, reverse, link.resolved = plan_links(
            [h["_source"] for h in own], target["doc_id"] if target else "", target_chunks,
            target.get("title") or "" if target else "")
        link.references = len(link.resolved)
        if target is not None and not link.references:
            link.reason = "none of its references names a unit that document has"
        routing = {h["_source"]["chunk_id"]: h.get("_routing") or h["_source"]["doc_id"] for h in own}
        for cid, update in forward.items():
            actions.append({"_op_type": "update", "_index": chunks_index, "_id": cid, "_routing": routing[cid],
                            "doc": update})
        for cid, sources in reverse.items():
            have = want_reverse.setdefault(cid, [])
            have.extend(s for s in sources if s not in have)
        for h in own:
            since[h["_source"]["chunk_id"]] = str(h["_source"].get("valid_from") or record.get("signed_at") or "")[:10]
        link.amended_chunks = len(reverse)
        if target is not None and link.references:
            want_amends[rid] = target["doc_id"]
            for hit in store.scan(docs_index, {"term": {"doc_id": target["doc_id"]}}, source=_RECORD_FIELDS):
                records.setdefault(hit["_id"], hit["_source"])
                want_amended_by.setdefault(hit["_id"], set()).add(record["doc_id"])
        done.links.append(link)
    want_reverse = {cid: latest_first(sources, since) for cid, sources in want_reverse.items()}
    actions += _reverse_updates(store, chunks_index, want_reverse, marked)
    for rid, r in sorted(records.items()):
        amends = want_amends.get(rid)
        amended_by = sorted(want_amended_by.get(rid, set()))
        if amends != r.get("amends") or amended_by != sorted(r.get("amended_by") or []):
            actions.append({"_op_type": "update", "_index": docs_index, "_id": rid,
                            "doc": {"amends": amends, "amended_by": amended_by}})
    if actions and not dry_run:
        store.bulk(actions)
        store.refresh(chunks_index)
        store.refresh(docs_index)
    done.updated = len(actions)
    return done


def _candidates(store: Store, docs_index: str, amendment: dict) -> list[dict]:
    opening = (amendment.get("opening") or "")[:1000]
    body = {"size": CANDIDATES, "_source": _RECORD_FIELDS, "query": {"bool": {
        "should": [{"match": {"title": opening}}, {"match": {"title.it": opening}}],
        "must_not": [{"term": {"doc_id": amendment["doc_id"]}}], "minimum_should_match": 1}}}
    return [h["_source"] for h in store.search(docs_index, body)["hits"]["hits"]]


def _reverse_updates(store: Store, chunks_index: str, want: dict[str, list[str]], marked: dict[str, dict]
                     ) -> list[dict]:
    """Updates that leave `amended_by_chunk_ids` on exactly the chunks `want` names."""
    actions = []
    for cid, hit in marked.items():
        if cid not in want and hit["_source"].get("amended_by_chunk_ids"):
            actions.append({"_op_type": "update", "_index": chunks_index, "_id": cid,
                            "_routing": hit.get("_routing") or hit["_source"]["doc_id"],
                            "doc": {"amended_by_chunk_ids": []}})
    fresh = [cid for cid in want if cid not in marked]
    routing: dict[str, str] = {}
    if fresh:
        for hit in store.scan(chunks_index, {"ids": {"values": fresh}}, source=["chunk_id", "doc_id"]):
            routing[hit["_source"]["chunk_id"]] = hit.get("_routing") or hit["_source"]["doc_id"]
    for cid, sources in want.items():
        current = marked[cid]["_source"].get("amended_by_chunk_ids") if cid in marked else None
        if cid in marked:
            routing[cid] = marked[cid].get("_routing") or marked[cid]["_source"]["doc_id"]
        if current != sources and cid in routing:
            actions.append({"_op_type": "update", "_index": chunks_index, "_id": cid, "_routing": routing[cid],
                            "doc": {"amended_by_chunk_ids": sources}})
    return actions
