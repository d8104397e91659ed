"""An amendment's references to the agreement it amends: "clause 4.2 of the Agreement" is the amended
agreement's clause, never the amendment's own; "clause 3 of this Amendment" stays its own."""

from __future__ import annotations

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.documents.models import DocumentMeta
from legalsearch.load import build_document
from legalsearch.parse.references import amends_another, effective_date, extract_references, names_amended

AMENDMENT = """FIRST AMENDMENT TO THE MASTER SERVICES AGREEMENT

This First Amendment (the "Amendment") is made on 1 June 2026 between Orbis Hosting Ltd and Calder Retail plc, and amends the Master Services Agreement dated 3 March 2025 (the "Agreement").

1. DEFINITIONS
Terms defined in the Agreement have the same meaning in this Amendment.

2. AMENDMENTS
2.1 Clause 4.2 of the Agreement is deleted and replaced by: "The Customer pays within 45 days of each invoice."
2.2 In clause 1 of the Agreement, the definition of "Services" is amended to include disaster recovery.
2.3 Clause 3 of this Amendment applies from the Effective Date.

3. EFFECTIVE DATE
This Amendment takes effect on 1 July 2026. Save as amended by clause 2, the Agreement continues in full force.
"""


def test_an_amendments_clauses_of_the_agreement_are_the_agreements():
    doc = build_document(AMENDMENT, DocumentMeta(doc_id="amendment-1", title="First Amendment", language="en",
                                                 doc_type="contract"))
    refs = {(r.target, r.external, r.code): r.resolved_chunk_ids for c in chunk_document(doc, "structural")
            for r in c.xrefs}
    assert ("4.2", True, "Agreement") in refs and ("1", True, "Agreement") in refs
    assert refs[("1", True, "Agreement")] == []  # before: resolved to the amendment's own clause 1
    own = [ids for (target, external, _), ids in refs.items() if target == "3" and not external]
    assert own and own[0]  # "Clause 3 of this Amendment" resolves inside it


def test_the_same_words_in_an_agreement_are_its_own():
    text = AMENDMENT.replace("FIRST AMENDMENT TO THE MASTER SERVICES AGREEMENT", "MASTER SERVICES AGREEMENT").replace(
        "This First Amendment (the \"Amendment\") is made", "This Agreement is made").replace(
        ", and amends the Master Services Agreement dated 3 March 2025 (the \"Agreement\")", "")
    text = text.replace("this Amendment", "this Agreement").replace("This Amendment", "This Agreement")
    text = text.replace("Save as amended by clause 2, the", "The").replace(" is amended to include", " includes")
    assert not amends_another(text)
    refs = extract_references(text, "en")
    assert all(not r.external for r in refs if r.target in ("4.2", "1"))


@pytest.mark.parametrize("opening,amends", [
    ("AMENDMENT NO. 3\n\nReference is made to the License Agreement (the \"Agreement\"). The parties agree to "
     "modify the Agreement as follows:", True),
    ("ADDENDUM AL CONTRATTO DI FORNITURA\n\nCon il presente addendum le parti modificano il Contratto.", True),
    ("AMENDED AND RESTATED CREDIT AGREEMENT\n\nThis Agreement amends and restates the credit agreement of 2019.",
     False),
    ("SERVICES AGREEMENT\n\nThis Agreement may be amended only in writing signed by both parties.", False),
])
def test_what_amends_another(opening, amends):
    assert amends_another(opening) is amends


def test_an_italian_atto_modificativo():
    text = ("ATTO MODIFICATIVO DEL CONTRATTO DI FORNITURA\n\nCon il presente atto modificativo le parti modificano il "
            "contratto di fornitura del 3 marzo 2025 (il \"Contratto\").\n\nArt. 1 – Modifiche\nL'art. 5 del Contratto "
            "è sostituito dal seguente. L'art. 2 del presente atto si applica dal 1° luglio 2026.\n\n"
            "Art. 2 – Efficacia\nIl presente atto ha effetto dal 1° luglio 2026.\n")
    refs = {r.target: (r.external, r.code) for r in extract_references(text, "it")}
    assert refs["5"] == (True, "Contratto") and refs["2"] == (False, None)


VARIATION = """DEED OF VARIATION

THIS DEED is dated 11 November 2024 between Harbour Estates Limited (the "Landlord") and Pellow Foods Ltd
(the "Tenant").

(A) This Deed is supplemental to a lease dated 24 June 2023 made between the Landlord and the Tenant (the
"Lease"). The parties have agreed the variations to the Lease set out in this Deed with effect from
1 December 2024.

1. Clause 7.2 of the Lease is deleted and replaced with the following: "The Tenant may use the ground floor as a shop."
2. Clause 5.3 of the Lease is varied by replacing "£6,200" with "£8,750".
"""


def test_a_deed_of_variation_amends_the_lease_it_varies():
    assert amends_another(VARIATION)
    refs = {(r.target, r.external, r.code) for r in extract_references(VARIATION, "en")}
    assert {("7.2", True, "Lease"), ("5.3", True, "Lease")} <= refs
    assert names_amended("Lease") and names_amended("Licence") and not names_amended("Housing Act 1988")


@pytest.mark.parametrize("text,day", [
    ('The amendments below take effect on 1 October 2024 (the "Amendment Effective Date").', "2024-10-01"),
    ("This Amendment shall become effective as of January 15, 2025.", "2025-01-15"),
    ("the variations set out in this Deed with effect from 1st December 2024", "2024-12-01"),
    ("Effective Date: 3 June 2025", "2025-06-03"),
    ("Le modifiche hanno efficacia dal 1° luglio 2025.", "2025-07-01"),
    ("con efficacia a decorrere dal 01/07/2025", "2025-07-01"),
    ("Il presente atto entra in vigore il 15 marzo 2024", "2024-03-15"),
    # several dates: the earliest, from which part of it is in force
    ("Clause 2 takes effect on 1 May 2025. Clause 3 takes effect on 1 March 2025.", "2025-03-01"),
    # no effective date: the amended agreement's date is not the amendment's
    ("This Amendment amends the Agreement dated 4 March 2024.", None),
    ("This Amendment is effective immediately.", None),
    ("The change takes effect on 31 February 2025.", None),
])
def test_effective_date(text, day):
    found = effective_date(text)
    assert (found[0] if found else None) == day


ATTO = """ATTO MODIFICATIVO N. 1
al contratto di appalto di opere del 15 marzo 2024

tra MOLINI ALFA S.p.A. (il "Committente") e COSTRUZIONI BETA S.r.l. (l'"Appaltatore")

PREMESSE
a) in data 15 marzo 2024 le Parti hanno stipulato il contratto di appalto di opere (il "Contratto").

Art. 1 - Corrispettivo
1. L'art. 4, comma 1, del Contratto è sostituito dal seguente: "Il corrispettivo è di euro 1.200.000,00."

Art. 2 - Garanzie
1. All'art. 9 del Contratto è aggiunto il seguente comma 6: "La garanzia copre anche l'impianto."
"""


def test_an_atto_modificativo_amends_the_articles_of_the_contratto_it_names():
    assert amends_another(ATTO)  # its title and "è sostituito": no "modifica" needed
    refs = {(r.target, r.external, r.code) for r in extract_references(ATTO, "it")}
    # "l'art. 4, comma 1, del Contratto": the amended contract's, with the comma between
    assert {("4(1)", True, "Contratto"), ("9", True, "Contratto")} <= refs
