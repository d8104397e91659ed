"""The words of each hit that matched the question: OpenSearch `highlight` on the chunk text.

One request after the ranking, for the hits only (`ids`), on the indices the search read: the
highlighter runs the search's own lexical sub-queries (BM25 and the identifier list) as its
`highlight_query`, on `text` analysed in English or on `text.it` in Italian, by the passage's
language. The whole field comes back (`number_of_fragments: 0`) with private-use marks around
each match; the marks are turned into [start, end) offsets in the hit's `text`, so a caller (the
page, the CLI) marks the words itself and never renders engine output as HTML. Function words of
either language (analyzers/function_words.json) are left out: the analysers keep them, and a page
with every "the" marked says nothing. A hit the engine highlights differently from the text we hold
(it never should) gets no highlights rather than wrong ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from legalsearch.query import bodies

if TYPE_CHECKING:
    from legalsearch.store import Store

OPEN, CLOSE = "\ue000", "\ue001"
"""Marks the engine puts around a match: Unicode private-use characters, never in a legal text."""
FIELDS = bodies.TEXT_FIELDS
"""The highlighted field by passage language (`bodies.TEXT_FIELDS`)."""
LEXICAL = ("bm25", "identifier")
"""The fused lists whose words can match a passage's text (the title list matches only titles)."""


field_of = bodies.lexical_field


def highlight_query(kinds: tuple[str, ...], body: dict, question: str) -> dict:
    """What the highlighter matches: the search's own lexical sub-queries; the question over the
    text fields when the search had none (a k-NN-only search)."""
    lexical = [q for kind, q in zip(kinds, bodies.sub_queries(body), strict=False) if kind in LEXICAL]
    if not lexical:
        lexical = [{"multi_match": {"query": question, "fields": ["text", "text.it"]}}]
    return {"bool": {"should": lexical}}


def request_body(chunk_ids: list[str], query: dict) -> dict:
    fields = {name: {} for name in ("text", *FIELDS.values())}
    return {
        "size": len(chunk_ids), "_source": ["chunk_id", "language"], "track_total_hits": False,
        "query": {"ids": {"values": chunk_ids}},
        "highlight": {"highlight_query": query, "pre_tags": [OPEN], "post_tags": [CLOSE], "number_of_fragments": 0,
                      "require_field_match": False, "fields": fields},
    }


def spans_of(marked: str, text: str, skip: frozenset[str] = frozenset()) -> list[tuple[int, int]] | None:
    """[start, end) offsets in `text` of the marked words of `marked` (the engine's field value
    with OPEN / CLOSE around matches), leaving out words in `skip` (lower case). None when
    `marked` without its marks is not `text`."""
    spans: list[tuple[int, int]] = []
    plain: list[str] = []
    position, start = 0, None
    for ch in marked:
        if ch == OPEN:
            start = position
        elif ch == CLOSE:
            if start is not None and position > start:
                spans.append((start, position))
            start = None
        else:
            plain.append(ch)
            position += 1
    if "".join(plain) != text:
        return None
    return [(s, e) for s, e in spans if text[s:e].lower() not in skip]


def highlights(store: Store, index: str, hits: list[dict], query: dict, skip: frozenset[str] = frozenset()
               ) -> dict[str, list[tuple[int, int]]]:
    """chunk_id -> the offsets of its matched words, for `hits` (sources with chunk_id, text and
    language), in one request to `index` (the indices the search read)."""
    if not hits:
        return {}
    wanted = {h["chunk_id"]: h for h in hits}
    result = store.search(index, request_body(list(wanted), query))
    found: dict[str, list[tuple[int, int]]] = {}
    for row in result["hits"]["hits"]:
        source = wanted.get(row["_source"].get("chunk_id"))
        marked = (row.get("highlight") or {}).get(field_of(source.get("language") if source else None))
        if source is None or not marked:
            continue
        spans = spans_of(marked[0], source["text"], skip)
        if spans:
            found[source["chunk_id"]] = spans
    return found
