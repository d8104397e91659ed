"""Judgments, a layout written for these tests (data/judgment-ewhc.txt, data/sentenza-tribunale.txt):
recognised from their own layout when no metadata says so, titled by their parties, their numbered
units paragraphs, and the clauses and articles they discuss left to the contract they discuss."""

from __future__ import annotations

from pathlib import Path

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.documents.models import DocumentMeta
from legalsearch.load.files import build_document
from legalsearch.load.metadata import infer_doc_type, infer_metadata, judgment_title

DATA = Path(__file__).parent / "data"


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def chunks_of(name: str, language: str):
    text = read(name)
    guessed = infer_metadata(text, DATA / name)
    doc = build_document(text, DocumentMeta(doc_id=guessed["doc_id"], title=guessed["title"], language=language,
                                            doc_type=guessed["doc_type"]))
    return doc, chunk_document(doc, "structural")


@pytest.mark.parametrize("name,title", [
    ("judgment-ewhc.txt", "Harlow Logistics Limited v Pemberton Freight Plc [2025] EWHC 1432 (Ch)"),
    ("sentenza-tribunale.txt", "Ortofrutta Berica S.R.L. v Logistica Del Garda S.P.A."),
])
def test_a_judgment_is_recognised_and_titled_by_its_parties(name, title):
    text = read(name)
    assert infer_doc_type(text) == "judgment"  # though it discusses an agreement / a contratto
    assert infer_metadata(text, DATA / name)["title"] == title


@pytest.mark.parametrize("text,doc_type", [
    # a contract or a note that mentions a court, a party's role or a case is not a judgment
    ("SETTLEMENT AGREEMENT\n\nFollowing the judgment in Harlow v Pemberton [2025] EWHC 1432 (Ch), the Claimant and "
     "the Defendant agree as follows.\n\n1. Payment\nThe Defendant pays GBP 400,000.\n", "contract"),
    ("PRIVILEGED AND CONFIDENTIAL - internal note\n\nThe judgment of the High Court in [2025] EWHC 1432 (Ch) "
     "means our clause 14 cap may not apply.\n", "internal_note"),
    ("NON-DISCLOSURE AGREEMENT\n\nBetween:\nAcme Ltd\nand\nGlobex plc\n\n1. Confidentiality\n...", "nda"),
])
def test_what_only_mentions_a_court_keeps_its_own_type(text, doc_type):
    assert infer_doc_type(text) == doc_type


def test_the_parties_block_without_between_and_with_role_lines():
    text = "IN THE HIGH COURT OF JUSTICE\n\nALPHA LIMITED (Claimant)\nv\nBETA PLC (Defendant)\n\nAPPROVED JUDGMENT\n"
    assert judgment_title(text) == "Alpha Limited v Beta Plc"
    text = "UPPER TRIBUNAL\n\nBetween:\n\nGAMMA LETS LIMITED\nAppellant\n\n- and -\n\nDELTA COUNCIL\nRespondent\n"
    assert judgment_title(text) == "Gamma Lets Limited v Delta Council"
    assert judgment_title("JUDGMENT\n\n1. This claim concerns a lease.\n") is None


def test_an_english_judgments_paragraphs_cite_the_contract_not_themselves():
    doc, chunks = chunks_of("judgment-ewhc.txt", "en")
    paragraphs = [c for c in chunks if c.section and c.section.isdigit()]
    assert len(paragraphs) == 13 and all(c.heading_path[-1].startswith("Paragraph ") for c in paragraphs)
    refs = [r for c in chunks for r in c.xrefs if r.kind == "clause"]
    assert {r.target for r in refs} >= {"9.2", "11", "14", "14.1", "14.3"}
    # "clause 11 of the Agreement" is the agreement's clause 11, never paragraph 11 of the judgment
    assert all(r.external and not r.resolved_chunk_ids for r in refs)


def test_an_italian_sentenzas_paragraphs_carry_no_approval_of_their_own():
    doc, chunks = chunks_of("sentenza-tribunale.txt", "it")
    paragraphs = [c for c in chunks if c.section and c.section.isdigit()]
    assert [c.section for c in paragraphs] == ["1", "2", "3", "4"]
    assert all(c.heading_path[-1].startswith("Paragrafo ") for c in paragraphs)
    # it discusses art. 1341 c.c. and the carrier's art. 9: it approves no clause itself
    assert not any("double_signature_1341" in c.clause_labels for c in chunks)
    assert not any(f.startswith("double_signature") for f in doc.flags)
    assert all(r.external for c in chunks for r in c.xrefs if r.target == "9")
