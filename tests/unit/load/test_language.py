"""Language identification (lingua, restricted to documents.models.LANGUAGES)."""

from __future__ import annotations

import pytest
from legalsearch.documents.models import LANGUAGES, DocumentMeta
from legalsearch.load.language import DEFAULT_LANGUAGE, detect_language
from legalsearch.load.metadata import infer_metadata

EN = ("The Receiving Party shall keep the Confidential Information in strict confidence and shall not "
      "disclose it to any third party without the prior written consent of the Disclosing Party.")
IT = ("Il Fornitore si impegna a consegnare la merce entro trenta giorni dalla data dell'ordine; in caso di "
      "ritardo il Cliente ha diritto a una penale pari all'uno per cento del prezzo per ogni settimana.")
FR = ("Le présent contrat est régi par le droit français. Tout litige relatif à son interprétation ou à son "
      "exécution sera soumis aux tribunaux compétents de Paris.")
DE = ("Dieser Vertrag unterliegt dem Recht der Bundesrepublik Deutschland. Gerichtsstand für alle "
      "Streitigkeiten aus diesem Vertrag ist München.")


@pytest.mark.parametrize(("text", "language"), [(EN, "en"), (IT, "it"), (FR, "fr"), (DE, "de")])
def test_detects_each_language(text, language):
    assert detect_language(text) == language


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # an Italian clause quoting an English defined term stays Italian, and the reverse
        ("Ai fini del presente contratto, per «Confidential Information» si intendono tutte le informazioni "
         "riservate comunicate dalla parte.", "it"),
        ("The parties agree that the clause titled «Legge applicabile» governs any dispute between them.", "en"),
    ],
)
def test_short_mixed_text_takes_its_main_language(text, language):
    assert detect_language(text) == language


def test_too_little_text_gets_the_default():
    assert detect_language("12/03/2024 — 1.500,00") == DEFAULT_LANGUAGE == "en"
    assert detect_language("") == "en"


def test_only_known_languages_are_named():
    # Catalan is no candidate: whatever is named is one of LANGUAGES, never an unknown code
    assert detect_language("Aquest contracte es regeix per la llei aplicable a Catalunya i Andorra.") in LANGUAGES


@pytest.mark.parametrize("text", ["splitmix64 of uint64s: deterministic per-document metadata.",
                                  "%(asctime)s %(levelname)s %(name)s: %(message)s"])
def test_a_weak_guess_at_another_language_falls_back_to_english_or_italian(text):
    # lingua calls the first Portuguese (0.53) and the second German (0.44): too unsure to name them
    assert detect_language(text) in ("en", "it")


def test_a_french_document_is_inferred_as_french_and_is_a_valid_document():
    inferred = infer_metadata(FR, "contrat.txt")
    assert inferred["language"] == "fr"
    assert DocumentMeta(doc_id="c", title="C", language=inferred["language"]).language == "fr"


def test_a_french_document_loads_chunks_and_asks_for_the_multilingual_embedder(tmp_path):
    # the stages that know only en / it read any other language with the English rules
    from legalsearch.chunk import chunk_document
    from legalsearch.ingest.run import AUTO_MIXED, choose_embedder, file_sources
    from legalsearch.load import load_document, peek_language

    path = tmp_path / "contrat-paris.txt"
    path.write_text("CONTRAT DE SERVICES\n\nArticle 1 - Objet\n\n" + FR + "\n\nArticle 2 - Durée\n\n"
                    "Le contrat est conclu pour une durée de deux ans à compter de sa signature.\n", encoding="utf-8")
    doc = load_document(path)
    assert doc.meta.language == "fr" and "language" in doc.meta.inferred
    assert chunk_document(doc)
    assert peek_language(path) == "fr"
    assert choose_embedder("auto", None, file_sources([path]))[0] == AUTO_MIXED
