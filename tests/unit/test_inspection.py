"""inspect_document / render_inspection: JSON-able report and readable table."""

from __future__ import annotations

import json

from legalsearch.inspection import inspect_document, render_inspection
from sample_corpus import CORPUS


def test_inspection_is_json_and_readable():
    result = inspect_document(CORPUS / "master-services-agreement.txt")
    json.dumps(result)  # JSON-able as is
    assert result["meta"]["doc_id"] == "msa-acme-northwind"
    [c143] = [c for c in result["chunks"] if c["section"] == "14.3"]
    assert c143["heading_path"] == ["Clause 14 – LIMITATION OF LIABILITY", "Clause 14.3"]
    assert [r["raw"] for r in result["unresolved_refs"]] == ["Schedule 3"]
    report = render_inspection(result)
    assert "Clause 14 – LIMITATION OF LIABILITY" in report
    assert "labels: liability_cap" in report
    assert "Unresolved internal references:" in report


def test_inspection_of_an_italian_contract_reports_the_double_signature():
    result = inspect_document(CORPUS / "contratto-fornitura-acme.txt", chunker="recursive")
    assert result["chunker"] == "recursive"
    assert result["double_signature"]["approved_articles"] == ["5", "7", "12"]
    assert "Double signature (artt. 1341-1342 c.c.): present=True approved=5,7,12 uncovered=9" in \
        render_inspection(result)


def test_inspection_says_what_loading_did_to_a_pdf(tmp_path):
    from tests.office_files import text_pdf

    path = tmp_path / "msa.pdf"
    path.write_bytes(text_pdf([["SERVICES AGREEMENT", "1. TERM", "It lasts two years unless", "Page 1 of 2"],
                               ["SERVICES AGREEMENT", "ended under clause 2.", "2. END", "Either party may end it.",
                                "Page 2 of 2"]]))
    report = render_inspection(inspect_document(path))
    assert "page edges: 3 running header, footer and page-number lines removed" in report


def test_a_folder_is_surveyed_file_by_file(tmp_path):
    from legalsearch.inspection import render_survey, survey_documents

    from tests.office_files import text_pdf

    (tmp_path / "nda.txt").write_text("MUTUAL NDA\n\n1. Purpose\nThe parties talk.\n\n2. Term\nTwo years.\n")
    (tmp_path / "msa.pdf").write_bytes(text_pdf([["SERVICES AGREEMENT", "1. TERM", "It lasts two years unless",
                                                  "Page 1 of 2"],
                                                 ["SERVICES AGREEMENT", "ended under clause 2.", "2. END",
                                                  "Either party may end it.", "Page 2 of 2"]]))
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 not a pdf")
    rows = survey_documents([tmp_path])
    by_name = {row["path"].rsplit("/", 1)[-1]: row for row in rows}
    assert set(by_name) == {"nda.txt", "msa.pdf", "broken.pdf"}
    assert "error" in by_name["broken.pdf"] and "re-export" in by_name["broken.pdf"]["error"]
    assert by_name["nda.txt"]["units"] == 2 and by_name["nda.txt"]["doc_type"] == "nda"
    assert by_name["msa.pdf"]["flags"] == ["page_edges_removed:3"]
    report = render_survey(rows)
    assert "page edges: 3 running header, footer and page-number lines removed" in report
    assert "FAILED" in report and "2 file(s) read, 1 failed" in report
