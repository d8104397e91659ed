"""Links between chunks: cross-references resolved to chunk ids, defined terms linked to the
chunk that defines them, clause labels (and the 1341-1342 c.c. double-signature clause)."""

from __future__ import annotations

import bisect
import dataclasses

from legalsearch.documents.models import CONTENTS_LABEL, Chunk, ParsedDocument
from legalsearch.parse.definitions import extract_definitions, find_term_uses
from legalsearch.parse.doctypes import approves_clauses, cites_other_documents
from legalsearch.parse.headings import reads_as_contents
from legalsearch.parse.labels import check_double_signature, label_clauses
from legalsearch.parse.references import extract_references, resolve_references


def enrich_chunks(doc: ParsedDocument, chunks: list[Chunk]) -> list[Chunk]:
    """Attach resolved cross-references, defined terms and clause labels to chunks."""
    text, language = doc.text, doc.meta.language
    spans = [(c.char_start, c.char_end, c.chunk_id) for c in chunks]
    starts = [c.char_start for c in chunks]
    refs = resolve_references(extract_references(text, language, doc.tree, cites_other_documents(doc.meta.doc_type)),
                              doc.tree, spans)
    refs_by_chunk: list[list] = [[] for _ in chunks]
    for ref in refs:
        i = _chunk_at(starts, chunks, ref.char_start)
        if i is not None:
            refs_by_chunk[i].append(ref)
    definitions = extract_definitions(text, language, doc.tree)
    defined_in: list[list[str]] = [[] for _ in chunks]
    defining_chunk: dict[str, str] = {}
    for definition in definitions:
        i = _chunk_at(starts, chunks, definition.char_start)
        if i is not None:
            defined_in[i].append(definition.term)
            defining_chunk[definition.term] = chunks[i].chunk_id
    uses_in: list[list[str]] = [[] for _ in chunks]
    for term, positions in find_term_uses(text, list(defining_chunk)).items():
        for pos in positions:
            i = _chunk_at(starts, chunks, pos)
            if i is not None and term not in uses_in[i] and term not in defined_in[i]:
                uses_in[i].append(term)
    approving = approves_clauses(doc.meta.doc_type, language)
    approvals = check_double_signature(text, doc.tree, language)["approval_spans"] if approving else []
    contents = [(n.char_start, n.char_end) for n in doc.tree.walk() if n.kind == "contents"]
    enriched = []
    for i, chunk in enumerate(chunks):
        context = "\n".join(p for p in (chunk.heading, chunk.section_title, chunk.text) if p)
        if any(s <= chunk.char_start and chunk.char_end <= e for s, e in contents) or reads_as_contents(chunk.text):
            # it lists every clause's title and cites every Part; it is none of them, cites none (a
            # table the parser did not read as one, its entries taken for headings, is found here)
            enriched.append(dataclasses.replace(chunk, clause_labels=[CONTENTS_LABEL]))
            continue
        labels = label_clauses(context, language)
        if any(s < chunk.char_end and e > chunk.char_start for s, e in approvals):
            labels = [lb for lb in labels if lb != "double_signature_1341"] + ["double_signature_1341"]
        elif "double_signature_1341" in labels and not approving:
            labels.remove("double_signature_1341")
        uses = sorted(uses_in[i])
        enriched.append(dataclasses.replace(
            chunk,
            xrefs=refs_by_chunk[i],
            defined_terms=defined_in[i],
            uses_terms=uses,
            definition_chunk_ids=sorted({defining_chunk[t] for t in uses} - {chunk.chunk_id}),
            clause_labels=labels,
        ))
    return enriched


def _chunk_at(starts: list[int], chunks: list[Chunk], pos: int) -> int | None:
    i = bisect.bisect_right(starts, pos) - 1
    if i >= 0 and pos < chunks[i].char_end:
        return i
    return None
