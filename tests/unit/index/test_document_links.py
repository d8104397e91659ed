"""The link pass's pure parts (`index.links`): which document an amendment amends, which chunks a
reference names there, and what the chunks should hold."""

from legalsearch.index.links import (
    choose_target,
    date_forms,
    is_amendment,
    latest_first,
    plan_links,
    title_core,
    unit_chunks,
)

AMENDMENT = {
    "doc_id": "amend-1", "title": "Amendment No. 1", "signed_at": "2024-12-10",
    "parties": ["Acme Analytics Limited", "Northwind Cloud Services Ltd"],
    "opening": 'AMENDMENT No. 1 TO THE MASTER SERVICES AGREEMENT\nBetween ACME ANALYTICS LIMITED and NORTHWIND '
               'CLOUD SERVICES LTD. This letter amends the Master Services Agreement dated 3 March 2024 (the "Agreement").',
}
MSA = {"doc_id": "msa", "title": "Master Services Agreement – Acme / Northwind", "signed_at": "2024-03-03",
       "parties": ["Acme Analytics Ltd", "Northwind Cloud Services Limited"]}


def test_title_core_and_date_forms():
    assert title_core("Master Services Agreement – Acme Analytics / Northwind") == "master services agreement"
    assert title_core("Contratto di fornitura tra Alfa S.p.A. e Beta S.r.l.") == "contratto di fornitura"
    assert "3 march 2024" in date_forms("2024-03-03") and "3 marzo 2024" in date_forms("2024-03-03")
    assert date_forms(None) == [] and date_forms("not a date") == []


def test_the_agreement_its_opening_names_with_its_parties():
    other_msa = MSA | {"doc_id": "msa-2", "title": "Master Services Agreement", "signed_at": "2023-01-05",
                       "parties": ["Kestrel Ltd", "Orbis plc"]}
    nda = {"doc_id": "nda", "title": "Mutual NDA", "signed_at": "2024-03-03", "parties": ["Acme Analytics Limited"]}
    target, why = choose_target(AMENDMENT, [nda, other_msa, MSA, AMENDMENT])
    assert target["doc_id"] == "msa" and why == "title, date, 2 parties"
    # the other MSA: its title, no date, no party: 2 points, under the bar of 4
    assert choose_target(AMENDMENT, [other_msa])[0] is None


LICENCE_AMENDMENT = {
    "doc_id": "licence-amendment-1", "title": "AMENDMENT NO. 1 TO SOFTWARE LICENCE AGREEMENT", "parties": [],
    "opening": "AMENDMENT NO. 1 TO SOFTWARE LICENCE AGREEMENT\n\nTHIS AMENDMENT NO. 1 is dated 9 September 2024\n\n"
               "(A) This Amendment No. 1 amends the Software Licence Agreement dated 4 March 2024 between Quenby "
               "Systems Limited and Marrowgate Logistics plc (the \"Agreement\").",
}


def _plain(doc_id, title, opening):  # a file dropped in with no metadata: no parties, no signing date
    return {"doc_id": doc_id, "title": title, "parties": [], "signed_at": None, "opening": opening, "language": "en"}


def test_without_metadata_the_date_and_parties_are_read_from_the_agreements_opening():
    licence = _plain("licence", "SOFTWARE LICENCE AGREEMENT",
                     "SOFTWARE LICENCE AGREEMENT\n\nTHIS AGREEMENT is dated 4 March 2024\n\nPARTIES\n\n(1) QUENBY SYSTEMS "
                     "LIMITED (the \"Licensor\"); and\n\n(2) MARROWGATE LOGISTICS PLC (the \"Licensee\").")
    target, why = choose_target(LICENCE_AMENDMENT, [licence])
    assert target["doc_id"] == "licence" and why == "title, date, 2 parties"
    # a look-alike licence Quenby signed with someone else: its title and one party are not enough
    other = _plain("licence-2", "SOFTWARE LICENCE AGREEMENT",
                   "SOFTWARE LICENCE AGREEMENT\n\nTHIS AGREEMENT is dated 12 May 2023\n\nPARTIES\n\n(1) QUENBY SYSTEMS "
                   "LIMITED (the \"Licensor\"); and\n\n(2) HALBERD FREIGHT LIMITED (the \"Licensee\").")
    assert choose_target(LICENCE_AMENDMENT, [other]) == (None, choose_target(LICENCE_AMENDMENT, [])[1])
    assert choose_target(LICENCE_AMENDMENT, [other, licence])[0]["doc_id"] == "licence"


def test_no_link_on_a_tie_to_a_later_agreement_or_to_another_amendment():
    twin = MSA | {"doc_id": "msa-copy"}
    target, why = choose_target(AMENDMENT, [MSA, twin])
    assert target is None and "msa, msa-copy" in why
    later = MSA | {"signed_at": "2025-06-01"}
    assert choose_target(AMENDMENT, [later])[0] is None
    amendment_2 = MSA | {"doc_id": "amend-2", "title": "Second Amendment to the Master Services Agreement"}
    assert choose_target(AMENDMENT, [amendment_2])[0] is None


def _chunk(cid, section, path, position, xrefs=()):
    return {"chunk_id": cid, "section": section, "heading_path": path, "position": position, "xrefs": list(xrefs)}


TARGET = [
    _chunk("m:1", "1", ["Clause 1 – DEFINITIONS"], 0),
    _chunk("m:14.1", "14.1", ["Clause 14 – LIABILITY", "Clause 14.1"], 1),
    _chunk("m:14.3", "14.3", ["Clause 14 – LIABILITY", "Clause 14.3"], 2),
    _chunk("m:14.3b", "14.3", ["Clause 14 – LIABILITY", "Clause 14.3"], 3),
    _chunk("m:s1", "1", ["Schedule 1 – CHARGES"], 4),
    _chunk("m:s2", "2", ["Schedule 2 – SERVICE LEVELS"], 5),
]


def test_unit_chunks_by_kind_and_label():
    assert unit_chunks("clause", "14.3", TARGET) == ["m:14.3", "m:14.3b"]
    assert unit_chunks("clause", "14", TARGET) == ["m:14.1", "m:14.3", "m:14.3b"]
    assert unit_chunks("clause", "16.2(d)", TARGET) == []
    # "Schedule 1" and "clause 1" share the label 1: the unit's kind tells them apart
    assert unit_chunks("schedule", "1", TARGET) == ["m:s1"]
    assert unit_chunks("clause", "1", TARGET) == ["m:1"]


def test_plan_links_forward_reverse_and_a_second_plan_changes_nothing():
    own = [
        _chunk("a:1", "1", ["Clause 1"], 0, [
            {"raw": "Clause 14.3 of the Agreement", "kind": "clause", "target": "14.3", "external": True,
             "code": "Agreement", "resolved_chunk_ids": []}]),
        _chunk("a:2", "2", ["Clause 2"], 1, [
            {"raw": "Schedule 2", "kind": "schedule", "target": "2", "external": False, "resolved_chunk_ids": []},
            {"raw": "paragraph 1", "kind": "paragraph", "target": "1", "external": False, "resolved_chunk_ids": ["a:1"]},
            {"raw": "clause 1", "kind": "clause", "target": "1", "external": False, "resolved_chunk_ids": ["a:1"]},
            {"raw": "section 2 of the Act", "kind": "section", "target": "2", "external": True, "code": "Act",
             "resolved_chunk_ids": []}]),
    ]
    assert is_amendment({"flags": []}, own) and not is_amendment({"flags": []}, own[1:])
    forward, reverse, resolved = plan_links(own, "msa", TARGET)
    assert resolved == ["Clause 14.3 of the Agreement", "Schedule 2"]
    assert reverse == {"m:14.3": ["a:1"], "m:14.3b": ["a:1"], "m:s2": ["a:2"]}
    assert forward["a:1"]["xref_chunk_ids"] == ["m:14.3", "m:14.3b"]
    # the amendment's own clause 1 and paragraph 1 stay its own; the Act stays external
    xrefs = forward["a:2"]["xrefs"]
    assert [x.get("resolved_doc_id") for x in xrefs] == ["msa", None, None, None]
    assert forward["a:2"]["xref_chunk_ids"] == ["a:1", "m:s2"]
    linked = [c | forward.get(c["chunk_id"], {}) for c in own]
    assert plan_links(linked, "msa", TARGET) == ({}, reverse, resolved)
    # the agreement gone (or no longer matched): the links are taken back
    forward, reverse, resolved = plan_links(linked, "", [])
    assert reverse == {} and resolved == []
    assert all(not x.get("resolved_doc_id") for c in forward.values() for x in c["xrefs"])
    assert forward["a:1"]["xref_chunk_ids"] == [] and forward["a:2"]["xref_chunk_ids"] == ["a:1"]


def test_a_clause_amended_twice_reads_the_latest_amendment_first():
    since = {"no1:3": "2024-10-01", "no2:3": "2025-04-01", "no10:1": "2026-01-01", "undated:2": ""}
    assert latest_first(["no1:3", "no10:1", "undated:2", "no2:3"], since) == ["no10:1", "no2:3", "no1:3", "undated:2"]
    # the same day: the pass's own order
    assert latest_first(["b", "a"], {"a": "2025-01-01", "b": "2025-01-01"}) == ["b", "a"]
