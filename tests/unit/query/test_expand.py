import pytest
from legalsearch.query.expand import place, plan, unfollowed_refs
from legalsearch.query.models import BEYOND_LIMIT, ExpansionOptions


def _hit(cid, xrefs=(), definitions=(), refs=()):
    return {"chunk_id": cid, "xref_chunk_ids": list(xrefs), "definition_chunk_ids": list(definitions),
            "xrefs": list(refs)}


def test_plan_skips_present_and_already_claimed_targets():
    hits = [_hit("a", xrefs=["t1", "b"]), _hit("b", xrefs=["t1", "t2"], definitions=["d1"])]
    assert plan(hits, definitions=False) == {"a": ["t1"], "b": ["t2"]}
    assert plan(hits, definitions=True) == {"a": ["t1"], "b": ["t2", "d1"]}


def test_unfollowed_reasons():
    hits = [_hit("a", refs=[
        {"raw": "art. 1341 c.c.", "target": "1341", "external": True, "resolved_chunk_ids": []},
        {"raw": "art. 99", "target": "99", "external": False, "resolved_chunk_ids": []},
        {"raw": "clause 9", "target": "9", "external": False, "resolved_chunk_ids": ["secret"]},
        {"raw": "clause 2", "target": "2", "external": False, "resolved_chunk_ids": ["t1"]},
    ])]
    reasons = [u["reason"] for u in unfollowed_refs(hits, fetched={"t1"}, wanted={"a": ["t1", "secret"]})]
    assert reasons == ["external", "unresolved", "not available under the caller's filters (access or validity date)"]


def test_plan_follows_references_in_citation_order_and_stops_at_the_limit():
    refs = [
        {"raw": "clause 9", "target": "9", "external": False, "resolved_chunk_ids": ["c9a", "c9b"]},
        {"raw": "clauses 3 to 5", "target": "3", "external": False, "resolved_chunk_ids": ["c3"]},
        {"raw": "clauses 3 to 5", "target": "4", "external": False, "resolved_chunk_ids": ["c4"]},
        {"raw": "art. 1341 c.c.", "target": "1341", "external": True, "resolved_chunk_ids": []},
    ]
    hit = _hit("a", xrefs=["c3", "c4", "c9a", "c9b"], refs=refs)
    # the first chunk of each cited unit first (9, 3, 4), then the rest of unit 9
    assert plan([hit], definitions=False) == {"a": ["c9a", "c3", "c4", "c9b"]}
    assert plan([hit], definitions=False, limit=2) == {"a": ["c9a", "c3"]}


def test_a_reference_past_the_limit_says_so_and_one_filtered_out_says_that():
    refs = [
        {"raw": "Section 4.1", "target": "4.1", "external": False, "resolved_chunk_ids": ["s41"]},
        {"raw": "Section 4.2", "target": "4.2", "external": False, "resolved_chunk_ids": ["s42"]},
        {"raw": "Section 4.3", "target": "4.3", "external": False, "resolved_chunk_ids": ["s43"]},
    ]
    hit = _hit("a", xrefs=["s41", "s42", "s43"], refs=refs)
    wanted = plan([hit], definitions=False, limit=2)
    assert wanted == {"a": ["s41", "s42"]}
    # 4.2 was asked for and the filters kept it out; 4.3 was never asked for
    reasons = {u["ref"]: u["reason"] for u in unfollowed_refs([hit], fetched={"s41"}, wanted=wanted)}
    assert reasons == {"Section 4.2": "not available under the caller's filters (access or validity date)",
                       "Section 4.3": BEYOND_LIMIT}
    assert unfollowed_refs([hit], fetched={"s41", "s42", "s43"}, wanted=plan([hit], definitions=False)) == []


def test_added_clauses_follow_the_retrieved_hits_unless_inline():
    hits = [_hit("a", xrefs=["t1", "t2"]), _hit("b", xrefs=["t3"], definitions=["d1"]), _hit("c")]
    wanted = plan(hits, definitions=True)
    fetched = {cid: {"chunk_id": cid} for cid in ("t1", "t2", "d1")}  # t3: filtered out (access, validity)
    end = [(s["chunk_id"], via) for s, via in place(hits, wanted, fetched)]
    # the retrieved hits keep the first places, in rank order; then what each cites, in hit order
    assert end == [("a", "retrieval"), ("b", "retrieval"), ("c", "retrieval"),
                   ("t1", "xref:a"), ("t2", "xref:a"), ("d1", "definition:b")]
    inline = [(s["chunk_id"], via) for s, via in place(hits, wanted, fetched, "inline")]
    assert inline == [("a", "retrieval"), ("t1", "xref:a"), ("t2", "xref:a"), ("b", "retrieval"),
                      ("d1", "definition:b"), ("c", "retrieval")]
    with pytest.raises(ValueError, match="placement"):
        place(hits, wanted, fetched, "middle")


def test_an_amendment_of_a_hit_follows_it_first_and_a_linked_external_reference_is_followed():
    # the old clause 14.3: the amendment that changes it first, then the clause 14.1 it cites
    old = _hit("msa:14.3", xrefs=["msa:14.1"], refs=[
        {"raw": "clause 14.1", "target": "14.1", "external": False, "resolved_chunk_ids": ["msa:14.1"]}])
    old["amended_by_chunk_ids"] = ["amend:1"]
    # the amendment: "Clause 14.3 of the Agreement" linked to the agreement; "the Act" not linked
    amendment = _hit("amend:2", xrefs=["msa:16.2"], refs=[
        {"raw": "Clause 16.2 of the Agreement", "target": "16.2", "external": True, "code": "Agreement",
         "resolved_chunk_ids": ["msa:16.2"], "resolved_doc_id": "msa"},
        {"raw": "section 3 of the Act", "target": "3", "external": True, "code": "Act", "resolved_chunk_ids": []}])
    wanted = plan([old, amendment], definitions=False)
    assert wanted == {"msa:14.3": ["amend:1", "msa:14.1"], "amend:2": ["msa:16.2"]}
    fetched = {cid: {"chunk_id": cid} for cid in ("amend:1", "msa:14.1", "msa:16.2")}
    assert [via for _, via in place([old, amendment], wanted, fetched)][2:] == [
        "amended_by:msa:14.3", "xref:msa:14.3", "xref:amend:2"]
    assert [u["ref"] for u in unfollowed_refs([amendment], set(fetched), wanted)] == ["section 3 of the Act"]


def test_the_default_adds_at_most_five_chunks_after_each_hit():
    assert ExpansionOptions().limit == 5
