"""Routing profiles: the loose names of a document (aliases, places, type words, outline)."""

from legalsearch.documents.models import DocumentMeta
from legalsearch.load.files import build_document
from legalsearch.summarize.profile import aliases, document_profile, names, places

OPENING = (
    "MUTUAL NON-DISCLOSURE AGREEMENT\n\nBETWEEN:\n\n"
    "(1) CORVANE TECHNOLOGIES LIMITED, a company incorporated in England and Wales (\"Corvane\"); and\n\n"
    "(2) OFFICINE FABBRI ROBOTICA S.R.L., a company incorporated in Italy, which trades under the name "
    "\"Kestrel Robotics\" (\"Kestrel\").\n\nCorvane and Kestrel are each a \"Party\" (the \"Effective Date\").\n\n"
    "1. PURPOSE\n\n1.1 The Parties wish to assess a vision-guided robotic picking cell (the \"Purpose\").\n\n"
    "2. GOVERNING LAW\n\n2.1 This Agreement is governed by Italian law.\n"
)


def test_aliases_are_short_and_trading_names_not_defined_terms():
    assert aliases(OPENING) == ["Kestrel Robotics", "Corvane", "Kestrel"]


def test_places_come_with_their_words_in_both_languages():
    words = places(OPENING, "IT")
    assert {"Italy", "Italian", "Italia", "England", "English", "inglese"} <= set(words)
    assert "Norwegian" in places("a company incorporated in Norway", None)


def test_type_and_title_words_in_both_languages():
    assert "accordo di riservatezza" in names("nda", "Mutual NDA")
    assert "licence" in names("contract", "Contratto di licenza Vision SDK")
    assert "supply" in names("contract", "Contratto quadro di fornitura")


def test_profile_holds_the_outline_and_the_purpose():
    meta = DocumentMeta(doc_id="nda", title="Mutual NDA – Corvane / Kestrel", doc_type="nda", jurisdiction="IT")
    profile = document_profile(build_document(OPENING, meta))
    assert "PURPOSE; GOVERNING LAW" in profile
    assert "robotic picking cell" in profile
