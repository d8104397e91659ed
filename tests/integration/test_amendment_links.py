"""An amendment and the agreement it amends, on the real node (`index.links`): the ingest links
them, a hit on the old clause arrives with the amendment that changes it, a hit on the amendment
arrives with the clause it changes (and neither for a matter dated before the amendment is in
force), a re-run writes nothing, a re-ingested agreement is linked
again, and a privileged amendment is never linked to (nor named by) the public agreement."""

from __future__ import annotations

import json
import shutil

from legalsearch.index import indices, links
from legalsearch.ingest import IngestOptions
from legalsearch.query.models import SearchRequest

from tests.integration.conftest import SAMPLES, ingested_index

MSA = "master-services-agreement"

PRIVILEGED_AMENDMENT = """AMENDMENT No. 2 TO THE MASTER SERVICES AGREEMENT

Date: 2 February 2025

Between ACME ANALYTICS LIMITED (the "Customer") and NORTHWIND CLOUD SERVICES LTD (the "Supplier").

This letter amends the Master Services Agreement dated 3 March 2024 between the Customer and the
Supplier (the "Agreement").

1. Clause 16.2 of the Agreement is amended so that the Customer may terminate on 10 days' notice.

2. All other terms of the Agreement remain unchanged.
"""


ATTO_MODIFICATIVO = """ATTO MODIFICATIVO N. 1 AL CONTRATTO DI FORNITURA

tra ACME Analytics S.r.l., con sede in Milano (il "Cliente"), e Fornitore Industriale Lombardo S.p.A., con sede
in Bergamo (il "Fornitore")

Premesso che le Parti hanno sottoscritto in data 15 aprile 2024 il contratto di fornitura (il "Contratto"), con il
presente atto modificativo le Parti convengono di modificare il Contratto come segue.

Art. 1 – Penale
1. L'art. 7 del Contratto è sostituito dal seguente: la penale per ogni giorno di ritardo nella consegna è pari
all'1% del valore dell'Ordine, fino a un massimo del 15%.

Art. 2 – Disposizioni finali
1. Restano ferme tutte le altre disposizioni del Contratto.
"""


def _corpus(tmp_path):
    for name in (f"{MSA}.txt", f"{MSA}.meta.json", "scanned-amendment.pdf", "scanned-amendment.meta.json"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    return tmp_path


def _search(service, index, query, **kw):
    return service.search(SearchRequest(query=query, index=index, k=5, **kw))


def test_amendment_linked_both_ways_and_idempotent(store, run_ingest, service, tmp_path):
    corpus = _corpus(tmp_path)
    with ingested_index(store, run_ingest, "test-amend", [corpus], embedder="minilm") as (index, report):
        [link] = report.links
        assert link["target"] == "msa-acme-northwind" and link["references"] == 2, link
        assert "Schedule 2" in link["resolved"]
        # a hit on the old clause 14.3 arrives with the amendment's clause that changes it
        res = _search(service, index, "What is the general liability cap in clause 14.3 of the Acme Northwind MSA?")
        top = res.hits[0]
        assert (top.doc_id, top.section) == ("msa-acme-northwind", "14.3")
        amending = [h for h in res.hits if h.via == f"amended_by:{top.chunk_id}"]
        assert [h.doc_id for h in amending] == ["msa-acme-northwind-amendment-1"]
        assert "150% of the Fees paid" in amending[0].text
        assert top.amended_by == [amending[0].chunk_id]
        # for a matter before the amendment took effect (valid from 2025-01-01) clause 14.3 was not
        # amended: the amendment is neither attached nor named, on the day before; on its first day it is
        for day, amended in (("2024-12-31", False), ("2025-01-01", True)):
            res = _search(service, index, "What is the general liability cap in clause 14.3 of the Acme Northwind MSA?",
                          as_of=day)
            top = res.hits[0]
            assert (top.doc_id, top.section) == ("msa-acme-northwind", "14.3")
            assert bool(top.amended_by) is amended, (day, top.amended_by)
            assert any(h.via.startswith("amended_by:") for h in res.hits) is amended, day
        # a hit on the amendment arrives with the clause of the agreement it changes
        res = _search(service, index, "What did Amendment No. 1 change in clause 14.3?")
        change = next(h for h in res.hits if h.doc_id == "msa-acme-northwind-amendment-1" and h.via == "retrieval"
                      and "14.3" in h.text)
        attached = [h for h in res.hits if h.via == f"xref:{change.chunk_id}"]
        assert [(h.doc_id, h.section) for h in attached] == [("msa-acme-northwind", "14.3")]
        # the registry records say which amends which
        docs = indices.require(store, index, "docs")
        records = {h["_source"]["doc_id"]: h["_source"] for h in store.scan(docs, {"match_all": {}})}
        assert records["msa-acme-northwind-amendment-1"]["amends"] == "msa-acme-northwind"
        assert records["msa-acme-northwind"]["amended_by"] == ["msa-acme-northwind-amendment-1"]
        # a second pass writes nothing; a re-ingested agreement (chunks rewritten) is linked again
        chunks = indices.require(store, index, "chunks")
        assert links.link_pair(store, chunks, docs).updated == 0
        again = run_ingest([corpus / f"{MSA}.txt"], IngestOptions(index=index, embedder="minilm", force=True))
        assert again.summary()["ingested"] == 1 and again.links[0]["references"] == 2
        marked = [h["_source"]["section"] for h in store.scan(
            chunks, {"exists": {"field": "amended_by_chunk_ids"}}, source=["section"])]
        assert "14.3" in marked


def test_privileged_amendment_not_linked_to_public_agreement(store, run_ingest, service, tmp_path):
    corpus = _corpus(tmp_path)
    (corpus / "amendment-2.txt").write_text(PRIVILEGED_AMENDMENT)
    (corpus / "amendment-2.meta.json").write_text(json.dumps({
        "doc_id": "msa-acme-northwind-amendment-2", "doc_type": "contract", "language": "en",
        "signed_at": "2025-02-02", "parties": ["Acme Analytics Limited", "Northwind Cloud Services Ltd"],
        "acl": ["deal-team"]}))
    with ingested_index(store, run_ingest, "test-amend-acl", [corpus], embedder="minilm") as (index, report):
        by_doc = {link["amendment"].rsplit(":", 1)[0]: link for link in report.links}
        assert by_doc["msa-acme-northwind-amendment-1"]["target"] == "msa-acme-northwind"
        # in its wall, the privileged amendment finds no agreement: the public one is not its to point at
        assert by_doc["msa-acme-northwind-amendment-2"]["target"] is None
        for groups in ((), ("deal-team",)):
            res = _search(service, index, "Can the Customer terminate the Acme Northwind MSA under clause 16.2?",
                          groups=list(groups))
            assert all(h.doc_id != "msa-acme-northwind-amendment-2" or h.via == "retrieval" for h in res.hits)
            for h in res.hits:
                assert not any("amendment-2" in c for c in h.amended_by), h
        chunks = indices.require(store, index, "chunks")
        named = [h["_source"] for h in store.scan(chunks, {"term": {"amended_by_chunk_ids":
                                                                    "msa-acme-northwind-amendment-2:1:0001"}})]
        assert named == []


def test_an_atto_modificativo_reaches_the_article_it_replaces(store, run_ingest, service, tmp_path):
    for name in ("contratto-fornitura-acme.txt", "contratto-fornitura-acme.meta.json"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    (tmp_path / "atto-modificativo-1.txt").write_text(ATTO_MODIFICATIVO)
    (tmp_path / "atto-modificativo-1.meta.json").write_text(json.dumps({
        "doc_id": "fornitura-acme-modifica-1", "doc_type": "contract", "language": "it", "signed_at": "2025-05-20",
        "parties": ["ACME Analytics S.r.l.", "Fornitore Industriale Lombardo S.p.A."], "public": True}))
    with ingested_index(store, run_ingest, "test-amend-it", [tmp_path], embedder="minilm") as (index, report):
        [link] = report.links
        assert link["target"] == "contratto-fornitura-acme" and link["resolved"] == ["art. 7 del Contratto"], link
        res = _search(service, index, "A quanto ammonta la penale per il ritardo nella consegna nel contratto di "
                      "fornitura ACME?")
        old = next(h for h in res.hits if h.doc_id == "contratto-fornitura-acme" and h.section == "7")
        assert old.amended_by and all(c.startswith("fornitura-acme-modifica-1:") for c in old.amended_by)
        # the new article follows the old one, unless it ranks among the hits itself
        new = next(h for h in res.hits if h.chunk_id in old.amended_by)
        assert "fino a un massimo del 15%" in new.text
        assert new.via in ("retrieval", f"amended_by:{old.chunk_id}")


LICENCE = """SOFTWARE LICENCE AGREEMENT

THIS AGREEMENT is dated 4 March 2024

PARTIES

(1) QUENBY SYSTEMS LIMITED, a company incorporated in England and Wales (the "Licensor"); and

(2) MARROWGATE LOGISTICS PLC, a company incorporated in England and Wales (the "Licensee").

1. LICENCE
1.1 The Licensor grants the Licensee a licence to use the Software at its distribution centres.

2. FEES
2.1 The Licensee shall pay an annual licence fee of £186,000 for up to 150 Named Users.

3. TERM
3.1 This Agreement continues for five years from its date.
3.2 The Licensor invoices each January the fee set out in clause 2.1, payable within thirty days of the invoice.
"""

def amendment(number: int, dated: str, effective: str, fee: str, users: int) -> str:
    """Amendment No. `number` of the licence above: clause 2.1's fee replaced from `effective`."""
    return f"""AMENDMENT NO. {number} TO SOFTWARE LICENCE AGREEMENT

THIS AMENDMENT NO. {number} is dated {dated}

PARTIES

(1) QUENBY SYSTEMS LIMITED (the "Licensor"); and (2) MARROWGATE LOGISTICS PLC (the "Licensee").

BACKGROUND

(A) This Amendment No. {number} amends the Software Licence Agreement dated 4 March 2024 between Quenby Systems Limited
and Marrowgate Logistics plc (the "Agreement"). The amendments below take effect on {effective}.

1. Clause 2.1 of the Agreement is deleted and replaced with: "The Licensee shall pay an annual licence fee of
£{fee} for up to {users} Named Users."
"""


AMENDMENT = amendment(1, "9 September 2024", "1 October 2024", "248,000", 220)


def test_files_with_no_metadata_are_linked_by_what_their_openings_write(store, run_ingest, service, tmp_path):
    """As a firm drops files in: no sidecars, so no parties or signing dates in the metadata. The
    agreement's date and parties are read from its opening; a look-alike licence the Licensor signed
    with someone else is not linked; the amendment is in force from the date it says."""
    (tmp_path / "licence.txt").write_text(LICENCE)
    (tmp_path / "licence-amendment-1.txt").write_text(AMENDMENT)
    (tmp_path / "licence-halberd.txt").write_text(
        LICENCE.replace("MARROWGATE LOGISTICS PLC", "HALBERD FREIGHT LIMITED").replace("4 March 2024", "12 May 2023"))
    with ingested_index(store, run_ingest, "test-amend-plain", [tmp_path], embedder="minilm",
                        public_if_no_acl=True) as (index, report):
        [link] = report.links
        assert link["target"] == "licence" and link["references"] == 1, link
        res = _search(service, index, "What annual licence fee does Marrowgate pay Quenby?")
        old = next(h for h in res.hits if h.doc_id == "licence" and h.section == "2.1")
        assert old.amended_by and all(c.startswith("licence-amendment-1:") for c in old.amended_by)
        assert all(not h.amended_by for h in res.hits if h.doc_id == "licence-halberd")
        # before 1 October 2024 the fee was not amended
        before = _search(service, index, "What annual licence fee does Marrowgate pay Quenby?", as_of="2024-09-30")
        assert all(not h.amended_by and h.doc_id != "licence-amendment-1" for h in before.hits)
        # a clause the expansion adds may be amended too: its amendment follows it
        question = "In which month does the Licensor send its invoice?"
        cites = service.search(SearchRequest(query=question, index=index, k=1))
        top, cited = cites.hits[0], next(h for h in cites.hits if h.section == "2.1")
        assert (top.section, cited.via) == ("3.2", f"xref:{top.chunk_id}") and cited.amended_by
        assert [h.doc_id for h in cites.hits if h.via == f"amended_by:{cited.chunk_id}"] == ["licence-amendment-1"]
        # searched in the licence alone: the amendment is not shown, and 2.1 still says it is amended
        alone = service.search(SearchRequest(query=question, index=index, k=1, doc_ids=["licence"]))
        assert next(h for h in alone.hits if h.section == "2.1").amended_by == cited.amended_by
        assert all(h.doc_id == "licence" for h in alone.hits)
        # an LLM's context says which passage the amendment changes, and from when
        ctx = service.context(SearchRequest(query="What annual licence fee does Marrowgate pay Quenby?", index=index),
                              budget=2000)
        fee = next(i for i, p in enumerate(ctx.pieces, start=1) if p.doc_id == "licence" and "2.1" in p.sections)
        assert f"[amendment of [{fee}], in force from 2024-10-01]" in ctx.prompt, ctx.prompt
        old_days = service.context(SearchRequest(query="What annual licence fee does Marrowgate pay Quenby?",
                                                 index=index, as_of="2024-09-30"), budget=2000)
        assert "[amendment" not in old_days.prompt and all(p.doc_id != "licence-amendment-1" for p in old_days.pieces)
        # the invoicing clause cites clause 2.1, attached in its old wording: the amendment that
        # replaced it comes too (a budget with room for the one passage and what it leans on)
        invoicing = "In which month does the Licensor invoice Marrowgate?"
        invoice = service.context(SearchRequest(query=invoicing, index=index), budget=400, attach_share=0.65)
        vias = [(p.doc_id, p.sections, p.via) for p in invoice.pieces]
        assert ("licence", ["3.2"], "retrieval") in vias and ("licence", ["2.1"], "xref") in vias, vias
        assert [v for _, _, v in vias if v == "retrieval"] == ["retrieval"], vias  # 2.1 and the amendment: attached
        [change] = [p for p in invoice.pieces if p.doc_id == "licence-amendment-1"]
        assert change.via == "amended_by", vias
        fee = 1 + vias.index(("licence", ["2.1"], "xref"))
        assert f"[amendment of [{fee}], in force from 2024-10-01]" in invoice.prompt, invoice.prompt
        # before 1 October 2024 the old wording was the one in force: the clause comes alone
        invoice = service.context(SearchRequest(query=invoicing, index=index, as_of="2024-09-30"), budget=400,
                                  attach_share=0.65)
        assert all(p.doc_id != "licence-amendment-1" for p in invoice.pieces), invoice.pieces


AMENDMENT_2 = amendment(2, "2 February 2026", "1 March 2026", "301,000", 400)


def test_a_clause_amended_twice_arrives_with_the_amendment_in_force_latest_first(store, run_ingest, service,
                                                                                 tmp_path):
    """Amendment No. 1 (in force from 1 October 2024) and No. 2 (from 1 March 2026) both replace
    clause 2.1: today the hit names No. 2 first, the wording in force (the pass meets No. 1 first);
    for a matter of June 2025 only No. 1 amends it."""
    (tmp_path / "licence.txt").write_text(LICENCE)
    (tmp_path / "licence-amendment-1.txt").write_text(AMENDMENT)
    (tmp_path / "licence-amendment-2.txt").write_text(AMENDMENT_2)
    with ingested_index(store, run_ingest, "test-amend-twice", [tmp_path], embedder="minilm",
                        public_if_no_acl=True) as (index, report):
        assert sorted((link["target"], link["references"]) for link in report.links) == [("licence", 1)] * 2
        question = "What annual licence fee does Marrowgate pay Quenby?"
        res = _search(service, index, question, as_of="2026-12-01")
        fee = next(h for h in res.hits if h.doc_id == "licence" and h.section == "2.1")
        assert [c.split(":")[0] for c in fee.amended_by] == ["licence-amendment-2", "licence-amendment-1"]
        assert {"licence-amendment-2", "licence-amendment-1"} <= {h.doc_id for h in res.hits}
        then = _search(service, index, question, as_of="2025-06-01")
        fee = next(h for h in then.hits if h.doc_id == "licence" and h.section == "2.1")
        assert [c.split(":")[0] for c in fee.amended_by] == ["licence-amendment-1"]
        assert all(h.doc_id != "licence-amendment-2" for h in then.hits)
