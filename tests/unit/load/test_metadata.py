"""Metadata: sidecars, manifests, validation messages (file + field), inference."""

from __future__ import annotations

import json
from datetime import date

import pytest
from legalsearch.documents.errors import DocumentError, MetadataError
from legalsearch.documents.models import DocumentMeta
from legalsearch.errors import LegalSearchError
from legalsearch.load import discover_documents, infer_metadata, load_document

TEXT = "MASTER SERVICES AGREEMENT\n\n1. DEFINITIONS\n\n1.1 In this Agreement the words below apply.\n"


def write(tmp_path, name, text=TEXT, meta=None, sidecar_name=None):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if meta is not None:
        (tmp_path / (sidecar_name or path.stem + ".meta.json")).write_text(json.dumps(meta), encoding="utf-8")
    return path


def test_errors_belong_to_the_package_hierarchy():
    assert issubclass(MetadataError, DocumentError)
    assert issubclass(DocumentError, LegalSearchError)


@pytest.mark.parametrize(
    ("meta", "field", "words"),
    [
        ({"doc_id": "a", "title": "A", "valid_from": "2026-05-01", "valid_to": "2019-01-01"}, "valid_to", "before"),
        ({"doc_id": "a", "title": "A", "valid_from": "2024-02-30"}, "valid_from", "malformed date"),
        ({"doc_id": "a", "title": "A", "signed_at": "03/03/2024"}, "signed_at", "YYYY-MM-DD"),
        ({"doc_id": "a", "title": "A", "valid_until": "2024-01-01"}, "valid_until", "unknown field"),
        ({"doc_id": "a", "title": "A", "doc_type": "lease agreement!"}, "doc_type", "not a keyword"),
        ({"doc_id": "a", "title": "A", "language": "french"}, "language", "'en', 'it', 'fr'"),
        ({"doc_id": "d" * 600, "title": "A"}, "doc_id", "at most 256"),
        ({"doc_id": "è" * 200, "title": "A"}, "doc_id", "400 bytes"),  # counted in UTF-8, as the engine does
        ({"doc_id": "a", "title": "A", "version": "v" * 65}, "version", "at most 64"),
    ],
)
def test_bad_sidecar_errors_name_file_and_field(tmp_path, meta, field, words):
    path = write(tmp_path, "contract.txt", meta=meta)
    with pytest.raises(MetadataError) as caught:
        load_document(path)
    message = str(caught.value)
    assert "contract.meta.json" in message
    assert f"field '{field}'" in message
    assert words in message


def test_sidecar_that_is_not_json_names_the_file(tmp_path):
    path = write(tmp_path, "nda.txt")
    (tmp_path / "nda.meta.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(MetadataError, match=r"nda\.meta\.json: not valid JSON"):
        load_document(path)


def test_a_sidecar_with_a_utf8_bom_is_read(tmp_path):
    path = write(tmp_path, "nda.txt")
    (tmp_path / "nda.meta.json").write_bytes(b"\xef\xbb\xbf" + json.dumps({"doc_id": "nda", "title": "NDA"}).encode())
    assert load_document(path).meta.doc_id == "nda"
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_bytes(b"\xef\xbb\xbf" + json.dumps({"path": "nda.txt", "title": "From the manifest"}).encode())
    from legalsearch.load.metadata import read_manifest

    assert read_manifest(manifest)[0][1] == {"title": "From the manifest"}


def test_long_sidecar_name_is_accepted_too(tmp_path):
    path = write(tmp_path, "msa.txt", meta={"doc_id": "msa", "title": "MSA", "public": True},
                 sidecar_name="msa.txt.meta.json")
    doc = load_document(path)
    assert (doc.meta.doc_id, doc.meta.public, doc.meta.inferred) == ("msa", True, ["language", "doc_type"])


def test_without_metadata_fields_are_inferred_and_flagged(tmp_path):
    italian = ("CONTRATTO DI FORNITURA\n\nArt. 1 – Oggetto\n1. Il Fornitore si obbliga a fornire i prodotti "
               "al Cliente e il Cliente paga il prezzo della fornitura.\n")
    doc = load_document(write(tmp_path, "Fornitura_2024.txt", italian))
    assert doc.meta.inferred == ["doc_id", "title", "language", "doc_type"]
    assert (doc.meta.doc_id, doc.meta.title, doc.meta.language, doc.meta.doc_type) == (
        "fornitura-2024", "CONTRATTO DI FORNITURA", "it", "contract")
    assert {"inferred:title", "inferred:language"} <= set(doc.flags)
    # nothing said the document is public: readable by nobody until an ACL or public=true is given
    assert (doc.meta.public, doc.meta.acl) == (False, [])


def test_infer_metadata_types_and_filename_title():
    assert infer_metadata("MUTUAL NON-DISCLOSURE AGREEMENT\nThe parties...", "x.txt")["doc_type"] == "nda"
    assert infer_metadata("Our Privacy Policy explains what we collect.", "p.txt")["doc_type"] == "privacy_policy"
    assert infer_metadata("Housing Act 1988\n\n21 Recovery of possession", "h.txt")["doc_type"] == "statute"
    assert infer_metadata("", "my_notes-file.txt")["title"] == "My notes file"


def test_sample_sidecars_describe_two_versions_of_one_statute(docs):
    old, new = docs["housing-act-1988.v2019.txt"].meta, docs["housing-act-1988.v2026.txt"].meta
    assert old.doc_id == new.doc_id == "housing-act-1988"
    assert (old.version, new.version) == ("2019", "2026")
    assert old.valid_to == new.valid_from == date(2026, 5, 1)
    assert new.valid_to is None  # open: in force today
    assert all(doc.meta.inferred == [] for doc in docs.values())


def test_privileged_note_is_restricted(docs):
    meta = docs["privileged-note-litigation.txt"].meta
    assert (meta.public, meta.acl, meta.doc_type) == (False, ["litigation-team"], "internal_note")


def test_model_forbids_unknown_fields_directly():
    with pytest.raises(ValueError, match="valid_until"):
        DocumentMeta(doc_id="a", title="A", valid_until="2024-01-01")


def test_manifest_entries_resolve_relative_paths_and_override_sidecars(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    path = write(folder, "msa.txt", meta={"doc_id": "from-sidecar", "title": "Sidecar title"})
    manifest = tmp_path / "manifest.jsonl"
    manifest.write_text(json.dumps({"path": "docs/msa.txt", "doc_id": "msa-1", "version": "3"}) + "\n\n",
                        encoding="utf-8")
    [(found, entry)] = discover_documents([folder], manifest)
    assert found.resolve() == path.resolve()
    assert entry == {"doc_id": "msa-1", "version": "3"}
    doc = load_document(found, manifest_entry=entry)
    assert (doc.meta.doc_id, doc.meta.version, doc.meta.title) == ("msa-1", "3", "Sidecar title")


def test_manifest_line_errors_name_the_line(tmp_path):
    manifest = tmp_path / "m.jsonl"
    manifest.write_text('{"path": "a.txt"}\n{"doc_id": "b"}\n', encoding="utf-8")
    with pytest.raises(MetadataError, match=r"m\.jsonl:2: .*\"path\""):
        discover_documents([], manifest)


def test_open_doc_type_is_kept_as_a_keyword_and_warned_once(tmp_path, caplog):
    from legalsearch.documents import models

    models._warned_doc_types.discard("lease")
    first = write(tmp_path, "lease.txt", meta={"doc_id": "l1", "title": "Lease of Unit 4",
                                              "doc_type": "Lease", "public": True})
    second = write(tmp_path, "other-lease.txt", meta={"doc_id": "l2", "title": "Lease of Unit 5", "doc_type": "lease"})
    ruling = write(tmp_path, "ruling.txt", meta={"doc_id": "r1", "title": "Halberd v Quillfeather", "doc_type": "judgment"})
    with caplog.at_level("WARNING", logger="legalsearch.documents.models"):
        docs = [load_document(first), load_document(second), load_document(ruling)]
    assert [d.meta.doc_type for d in docs] == ["lease", "lease", "judgment"]
    warnings = [r for r in caplog.records if "not one of the known types" in r.getMessage()]
    assert len(warnings) == 1 and "'lease'" in warnings[0].getMessage()  # a judgment is a known type
    assert "kept as a keyword" in warnings[0].getMessage()


def test_known_doc_types_keep_their_special_handling(tmp_path):
    # the 1341-1342 c.c. check runs for an Italian contract, and not for an open type
    text = "Art. 1 – Oggetto\nIl fornitore fornisce.\n\nArt. 2 – Foro\nForo esclusivo di Milano.\n"
    contract = write(tmp_path, "c.txt", text=text, meta={"doc_id": "c", "title": "C", "language": "it",
                                                        "doc_type": "contract"})
    opinion = write(tmp_path, "p.txt", text=text, meta={"doc_id": "p", "title": "P", "language": "it",
                                                       "doc_type": "parere"})
    assert any(f.startswith("1341") for f in load_document(contract).flags)
    assert not any(f.startswith("1341") for f in load_document(opinion).flags)


def test_a_stamp_or_a_date_above_the_title_is_not_the_title():
    from pathlib import Path

    from legalsearch.load.metadata import infer_metadata

    for head in ("EXECUTION VERSION", "Strictly Private and Confidential", "Subject to contract", "DRAFT 3 – 12.03.2025",
                 "1 April, 2020", "BOZZA"):
        text = f"{head}\n\nSUPPLY AGREEMENT\n\nThis Agreement is made between Orbis Ltd and Calder plc.\n"
        assert infer_metadata(text, Path("x.txt"))["title"] == "SUPPLY AGREEMENT", head
    text = "SUPPLY AGREEMENT - EXECUTION VERSION\n\nThis Agreement is made between Orbis Ltd and Calder plc.\n"
    assert infer_metadata(text, Path("x.txt"))["title"] == "SUPPLY AGREEMENT"


AMENDMENT = ("AMENDMENT NO. 1 TO THE SOFTWARE LICENCE AGREEMENT\n\nThis Amendment No. 1 amends the Software Licence "
             "Agreement dated 4 March 2024 (the \"Agreement\"). The amendments below take effect on 1 October 2024.\n\n"
             "1. Clause 6.1 of the Agreement is amended by replacing \"£48,000\" with \"£55,000\".\n")


def test_an_amendment_is_valid_from_the_date_it_takes_effect(tmp_path):
    doc = load_document(write(tmp_path, "amendment-1.txt", AMENDMENT))
    assert str(doc.meta.valid_from) == "2024-10-01" and "inferred:valid_from" in doc.flags
    # dates the metadata gives win; an agreement's own "effective" date is not read
    (tmp_path / "amendment-2.meta.json").write_text(json.dumps({"valid_from": "2024-11-01"}))
    assert str(load_document(write(tmp_path, "amendment-2.txt", AMENDMENT)).meta.valid_from) == "2024-11-01"
    agreement = "SOFTWARE LICENCE AGREEMENT\n\nThis Agreement takes effect on 4 March 2024.\n\n1. Licence\n"
    assert load_document(write(tmp_path, "licence.txt", agreement)).meta.valid_from is None


_EU_OPENINGS = {
    "consolidated": ("This text is meant purely as a documentation tool and has no legal effect.\n\n"
                     "►B DIRECTIVE (EU) 2026/2291 OF THE EUROPEAN PARLIAMENT AND OF THE COUNCIL\n\nof 14 October 2026\n\n"
                     "on consumer subscription contracts and the cancellation of recurring services\n\n"
                     "(Text with EEA relevance)\n\nAmended by:\n►M1 Directive (EU) 2027/118 ...\n\n▼B\n"),
    "italian": ("REGOLAMENTO (UE) 2027/45 DEL PARLAMENTO EUROPEO E DEL CONSIGLIO\n\ndel 20 gennaio 2027\n\n"
                "relativo ai servizi di locazione di alloggi a breve termine\n\n(Testo rilevante ai fini del SEE)\n\n"
                "considerando quanto segue:\n"),
    "commission": ("COMMISSION IMPLEMENTING REGULATION (EU) 2025/77\n\nof 3 February 2025\n\n"
                   "laying down rules for the application of Regulation (EU) 2024/1 as regards reporting templates\n\n"),
}


@pytest.mark.parametrize(("name", "title"), [
    ("consolidated", "Directive (EU) 2026/2291 on consumer subscription contracts and the cancellation of recurring services"),
    ("italian", "Regolamento (UE) 2027/45 relativo ai servizi di locazione di alloggi a breve termine"),
    ("commission", "Commission implementing regulation (EU) 2025/77 laying down rules for the application of Regulation "
                   "(EU) 2024/1 as regards reporting templates"),
])
def test_an_eu_act_is_a_statute_titled_by_its_kind_number_and_subject(name, title):
    # the subject line is what a question names ("the subscriptions directive"), not "OF THE COUNCIL"
    inferred = infer_metadata(_EU_OPENINGS[name] + "Article 1\nSubject matter\n", "act.txt")
    assert (inferred["doc_type"], inferred["title"]) == ("statute", title)


def test_a_contract_citing_an_eu_regulation_is_no_statute():
    text = ("DATA PROCESSING AGREEMENT\n\nThis Agreement is entered into under Regulation (EU) 2016/679 of the "
            "European Parliament and of the Council of 27 April 2016 on the protection of natural persons.\n")
    assert infer_metadata(text, "dpa.txt")["doc_type"] == "contract"
    assert infer_metadata("►B Master Services Agreement\n\n1. Term\n", "msa.txt")["title"] == "Master Services Agreement"
