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


def test_a_judgments_headings_hold_the_paragraphs_under_them():
    # "Introduction" before paragraph 1 holds paragraphs 1-2 (in a contract, "AGREED TERMS" before
    # "1. DEFINITIONS" introduces the clauses and holds none); "Background" is a heading, not recitals
    doc, chunks = chunks_of("judgment-ewhc.txt", "en")
    paths = {c.section: c.heading_path for c in chunks if c.section}
    assert paths["1"] == ["Introduction", "Paragraph 1"] and paths["2"] == ["Introduction", "Paragraph 2"]
    assert paths["4"] == ["Background", "Paragraph 4"]
    assert paths["12"] == ["Conclusion", "Paragraph 12"]
    assert not any(c.heading_path == ["Background"] for c in chunks)  # no 10-character chunk of its own


def test_an_italian_sentenzas_parties_are_no_headings_and_its_order_is_one():
    doc, chunks = chunks_of("sentenza-tribunale.txt", "it")
    paths = [c.heading_path for c in chunks]
    assert ["ORTOFRUTTA BERICA S.R.L."] not in paths and ["LOGISTICA DEL GARDA S.P.A."] not in paths
    sentenza = next(c for c in chunks if c.heading_path == ["SENTENZA"])
    assert "ORTOFRUTTA BERICA" in sentenza.text and "LOGISTICA DEL GARDA" in sentenza.text
    by_section = {c.section: c for c in chunks if c.section}
    assert by_section["1"].heading_path == ["SVOLGIMENTO DEL PROCESSO", "Paragrafo 1"]
    # "3. L'art. 9 delle condizioni ...": no title cut at the abbreviation's full stop
    assert by_section["3"].heading_path == ["MOTIVI DELLA DECISIONE", "Paragrafo 3"]
    # the court's order ("P.Q.M.") is a unit of its own, not the tail of paragraph 4
    order = next(c for c in chunks if c.heading_path == ["P.Q.M."])
    assert "condanna la convenuta" in order.text and "condanna" not in by_section["4"].text


def test_bracketed_paragraph_numbers_are_a_judgments_units():
    doc, chunks = chunks_of("judgment-ukut-brackets.txt", "en")
    assert doc.meta.doc_type == "judgment"
    paragraphs = [c for c in chunks if c.section]
    assert [c.section for c in paragraphs] == ["1", "2", "3", "4", "5", "6"]
    assert paragraphs[0].heading_path == ["Introduction", "Paragraph 1"]
    assert paragraphs[4].heading_path == ["Discussion", "Paragraph 5"]
    # "footnote [2]" inside paragraph 1 is text, not paragraph 2
    assert "footnote [2]" in paragraphs[0].text and paragraphs[1].text.startswith("[2] The appellant")


def test_bracketed_numbers_outside_a_judgment_stay_text():
    text = ("SERVICES AGREEMENT\n\n1. Services\nThe Supplier provides the services.\n\n"
            "[1] As amended on 3 May 2024.\n\n2. Fees\nThe Customer pays the fees.\n")
    doc = build_document(text, DocumentMeta(doc_id="msa", title="Services Agreement", language="en",
                                            doc_type="contract"))
    assert [c.section for c in chunk_document(doc, "structural") if c.section] == ["1", "2"]


def test_an_abbreviation_is_not_the_end_of_an_inline_title():
    from legalsearch.parse import parse_structure
    # an Italian text numbered "1.", "2." at the top: each is an article, and a short capitalised
    # phrase before a full stop would be its inline title ("Oggetto. Il fornitore ...")
    text = ("CONDIZIONI GENERALI\n\n1. Oggetto. Il fornitore consegna la merce entro trenta giorni.\n\n"
            "2. L'art. 7 del contratto quadro si applica anche alle consegne parziali.\n\n"
            "3. Cfr. art. 5 per le penali, che restano dovute.\n")
    titles = [n.title for n in parse_structure(text, "it").walk() if n.kind == "article"]
    assert titles == ["Oggetto", None, None]


@pytest.mark.parametrize("quoted", [True, False])
def test_clauses_a_judgment_quotes_stay_inside_its_paragraph(quoted):
    # paragraph 2 sets out clause 14 of the agreement, in quotation marks or as an indented block:
    # "14.1" ... "14.3" are the agreement's, not paragraphs 14.1-14.3 of the judgment
    text = read("judgment-quoting-clauses.txt")
    if not quoted:
        text = text.replace('   "14. ', "   14. ").replace('profit."', "profit.")
    doc = build_document(text, DocumentMeta(doc_id="ashcombe", title="Ashcombe v Trevelyan", language="en",
                                            doc_type="judgment"))
    chunks = chunk_document(doc, "structural")
    assert [c.section for c in chunks if c.section] == ["1", "2", "3", "4", "5"]
    second = next(c for c in chunks if c.section == "2")
    assert "14.1 Each party's total liability" in second.text and "14.3 Neither party" in second.text
    assert second.heading_path == ["The contract", "Paragraph 2"]
