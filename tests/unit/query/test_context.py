"""The context builder: dedupe, merge adjacent clauses, attach cited clauses and definitions, budget."""

from legalsearch.query.context import (
    amendments_of_attached,
    build,
    definition_snippet,
    render,
    spans,
    wanted_terms,
)


def _chunk(cid, start, text, section=None, doc="msa", **extra):
    return {"chunk_id": cid, "doc_id": doc, "doc_key": f"{doc}:1", "version": "1", "doc_title": doc.upper(),
            "char_start": start, "char_end": start + len(text), "text": text, "section": section,
            "heading_path": [f"Clause {section}"] if section else [], **extra}


A = _chunk("msa:1:0001", 100, "14.2 The Supplier is liable for direct loss only.", "14.2")
B = _chunk("msa:1:0002", 151, "14.3 The cap is 100% of the Fees paid in the year.", "14.3",
           xrefs=[{"raw": "clause 7", "target": "7", "external": False, "resolved_chunk_ids": ["msa:1:0009"]}],
           xref_chunk_ids=["msa:1:0009"], uses_terms=["Fees"], definition_chunk_ids=["msa:1:0000"])
DEFS = _chunk("msa:1:0000", 0, '1.1 In this Agreement:\n"Fees" means the charges in Schedule 1.\n"Year" means a year.',
              "1.1", defined_terms=["Fees", "Year"])
SEVEN = _chunk("msa:1:0009", 900, "7.1 Fees are due within 30 days.", "7.1")
OTHER = _chunk("nda:1:0004", 40, "5. Term. Two years.", "5", doc="nda")


def test_adjacent_clauses_merge_and_overlaps_count_once():
    duplicate = dict(A, chunk_id="msa:1:0001b")  # the same range again (e.g. two chunkers)
    pieces = build("what is the cap", [B, duplicate, A, OTHER], 10_000, attach_share=0.0)
    assert [(p.doc_id, p.char_start, p.char_end, p.sections) for p in pieces] == [
        ("msa", 100, B["char_end"], ["14.2", "14.3"]), ("nda", 40, 59, ["5"])]
    assert pieces[0].rank == 1 and pieces[0].via == "retrieval"
    assert [part.text for part in pieces[0].parts] == [A["text"], B["text"]]  # exact slices
    assert "Clause 14.3" in pieces[0].citation


def test_cited_clause_and_definition_are_attached_with_their_offsets():
    pieces = build("what is the cap on Fees", [B], 10_000, fetched={SEVEN["chunk_id"]: SEVEN, DEFS["chunk_id"]: DEFS})
    by_via = {p.via: p for p in pieces}
    assert by_via["xref"].sections == ["7.1"] and by_via["xref"].cited_by == [B["chunk_id"]]
    definition = by_via["definition"]
    assert definition.term == "Fees" and definition.text == '"Fees" means the charges in Schedule 1.'
    assert DEFS["text"][definition.char_start:definition.char_end] == definition.text  # offsets exact
    assert 'definition of "Fees"' in definition.citation


def test_budget_is_respected_and_the_first_passage_is_cut_when_alone_too_long():
    pieces = build("cap", [B, A, OTHER], len(B["text"]) + 5, attach_share=0.0)
    assert sum(e - s for _, s, e in spans(pieces)) <= len(B["text"]) + 5
    cut = build("cap", [B], 10, attach_share=0.0)
    assert [(p.char_start, p.char_end, p.text) for p in cut] == [(B["char_start"], B["char_start"] + 10, B["text"][:10])]


def test_attachments_wait_for_the_passage_that_cites_them():
    # the citing passage does not fit, so its reference is not attached either
    pieces = build("cap", [OTHER, B], len(OTHER["text"]) + 3, fetched={SEVEN["chunk_id"]: SEVEN}, attach_share=0.5)
    assert [p.via for p in pieces] == ["retrieval"] and pieces[0].doc_id == "nda"


def test_definitions_come_from_the_documents_own_definitions():
    other_defs = _chunk("nda:1:0000", 0, '"Fees" means nothing here.', "1", doc="nda", defined_terms=["Fees"])
    pieces = build("Fees", [B], 10_000, fetched={DEFS["chunk_id"]: DEFS, other_defs["chunk_id"]: other_defs})
    assert [p.doc_id for p in pieces if p.via == "definition"] == ["msa"]


def test_wanted_terms_prefer_the_question_and_definition_snippet_needs_the_quoted_term():
    hits = [dict(A, uses_terms=["Supplier"]), dict(B, uses_terms=["Fees", "Year"])]
    assert wanted_terms("are the Fees capped", hits, limit=2) == ["Fees", "Supplier"]
    assert definition_snippet(DEFS, "Nothing") is None


def test_render_numbers_pieces_with_citation_and_offsets():
    text = render(build("cap", [A], 1000))
    assert text.startswith("[1] MSA v1, Clause 14.2 (chars 100-149)\n14.2 The Supplier")


def test_an_amendment_says_which_piece_it_changes_and_from_when():
    amended = dict(B, amended_by_chunk_ids=["amend:1:0002"])
    change = _chunk("amend:1:0002", 300, '1. Clause 14.3 of the Agreement: "100%" is replaced by "150%".', "1",
                    doc="amend", valid_from="2025-01-01")
    pieces = build("what is the cap", [A, OTHER, amended], 10_000, fetched={change["chunk_id"]: change},
                   attach_share=0.5)
    text = render(pieces)
    msa = next(i for i, p in enumerate(pieces, start=1) if p.doc_id == "msa" and p.via == "retrieval")
    assert f"AMEND v1, Clause 1 (chars 300-{change['char_end']}) [amendment of [{msa}], in force from 2025-01-01]" in text
    assert [p.valid_from for p in pieces if p.via == "amended_by"] == ["2025-01-01"]
    # retrieved itself, the amendment says the same
    text = render(build("what is the cap", [change, amended], 10_000, attach_share=0.0))
    assert text.startswith("[1] AMEND v1, Clause 1") and "[amendment of [2], in force from 2025-01-01]" in text


def test_a_cited_clause_arrives_with_the_amendment_that_changed_it():
    # 14.3 cites clause 7; an amendment replaced 7.1's 30 days by 60: the context attaches both
    seven = dict(SEVEN, amended_by_chunk_ids=["amend:1:0003"])
    change = _chunk("amend:1:0003", 400, '2. In clause 7.1 of the Agreement "30 days" is replaced by "60 days".', "2",
                    doc="amend", valid_from="2025-04-01")
    assert amendments_of_attached([B], {seven["chunk_id"]: seven}) == ["amend:1:0003"]
    assert amendments_of_attached([B], {seven["chunk_id"]: seven, change["chunk_id"]: change}) == []
    assert amendments_of_attached([B], {SEVEN["chunk_id"]: SEVEN}) == []  # 7.1 is not amended: no second fetch
    pieces = build("what is the cap", [B], 10_000, fetched={c["chunk_id"]: c for c in (seven, change)},
                   attach_share=0.5)
    assert [(p.doc_id, p.via) for p in pieces] == [("msa", "retrieval"), ("msa", "xref"), ("amend", "amended_by")]
    number = next(i for i, p in enumerate(pieces, start=1) if p.via == "xref")
    assert f"[amendment of [{number}], in force from 2025-04-01]" in render(pieces)
    # no room for the cited clause: nor for what changed it
    alone = build("what is the cap", [B], len(B["text"]) + 10, fetched={c["chunk_id"]: c for c in (seven, change)},
                  attach_share=0.5)
    assert [p.via for p in alone] == ["retrieval"]


def test_a_definition_overlapping_a_passage_is_not_paid_twice():
    # the defining line starts inside a retrieved chunk and runs past it: its covered characters
    # are dropped from its part, so the parts add up to at most the budget (found on the node)
    head = _chunk("msa:1:0000a", 0, '1.1 In this Agreement:\n"Fe', "1.1")
    budget = len(head["text"]) + len(B["text"]) + 45
    pieces = build("what is the cap on Fees", [head, B], budget, fetched={DEFS["chunk_id"]: DEFS}, attach_share=0.2)
    parts = spans(pieces)
    assert sum(e - s for _, s, e in parts) <= budget
    ordered = sorted(parts)
    assert all(d1 != d2 or s2 >= e1 for (d1, _, e1), (d2, s2, _) in zip(ordered, ordered[1:], strict=False))
    assert any(p.via == "definition" for p in pieces)
