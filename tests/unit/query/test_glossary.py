"""The bilingual glossary that the search of another language alone adds to its BM25 text (pure logic)."""

from __future__ import annotations

import pytest
from legalsearch.errors import ConfigError
from legalsearch.query import glossary

TABLE = glossary.parse([
    "# contracts",
    "penalty|penalties\tpenale|penali",
    "data controller\ttitolare del trattamento",
    "data|personal data\tdati|dati personali",
    "withdraw|withdrawal\trecedere|recesso",
    "terminate|termination\trecesso|risoluzione",
    "",
])


def test_a_question_gets_the_other_languages_words_for_its_terms():
    assert glossary.translated("What penalty applies if we withdraw early?", "en", "it", TABLE) == [
        "penale", "penali", "recedere", "recesso"]
    # and the other way round, elisions and case read as words
    assert glossary.translated("Quale PENALE per il recesso dell'acquirente?", "it", "en", TABLE) == [
        "penalty", "penalties", "withdraw", "withdrawal", "terminate", "termination"]


def test_the_longest_phrase_is_taken_first_and_each_word_once():
    assert glossary.translated("Who is the data controller of my data?", "en", "it", TABLE) == [
        "titolare", "del", "trattamento", "dati", "personali"]
    assert glossary.translated("penalty penalties", "en", "it", TABLE) == ["penale", "penali"]


def test_nothing_is_added_for_unknown_words_pairs_or_past_the_limit():
    assert glossary.translated("best recipe for tiramisu", "en", "it", TABLE) == []
    assert glossary.translated("penalty", "en", "fr", TABLE) == []
    assert glossary.translated("penalty withdraw", "en", "it", TABLE, limit=3) == ["penale", "penali", "recedere"]


def test_a_line_without_two_columns_is_refused_with_its_number():
    with pytest.raises(ValueError, match="glossary line 2"):
        glossary.parse(["penalty\tpenale", "penalty penale"])


def test_the_shipped_table_loads_both_directions():
    assert "penale" in glossary.translated("Is there a penalty?", "en", "it")
    assert glossary.translated("Chi è il locatore?", "it", "en")


def test_forms_keeps_the_first_translations_of_each_term():
    assert glossary.translated("What penalty applies if we withdraw?", "en", "it", TABLE, forms=1) == ["penale", "recedere"]
    assert glossary.translated("Who is the data controller?", "en", "it", TABLE, forms=1) == [
        "titolare", "del", "trattamento"]


def test_an_inflected_phrase_is_matched_by_its_stems_where_no_form_is_written():
    table = glossary.parse(["pull out\trecedere", "terminate\trisolvere", "contract\tcontratto"])
    assert glossary.translated("What if it pulls out?", "en", "it", table) == ["recedere"]
    assert glossary.translated("Once the lease is terminated", "en", "it", table) == ["risolvere"]
    assert glossary.translated("Quali contratti?", "it", "en", table) == ["contract"]
    assert glossary.stem("pulling", "en") == glossary.stem("pull", "en") == "pull"
    assert glossary.stem("process", "en") == "process"  # a double s is no plural
    # a written form wins over a stem: "penalties" as written, not merged with "penalty"'s
    assert glossary.translated("penalties", "en", "it", TABLE) == ["penale", "penali"]


def test_a_file_of_ones_own_terms_is_read_before_the_shipped_table(tmp_path):
    own = tmp_path / "firm.tsv"
    own.write_text("# our jargon\nred-line|redline\tcontrodeduzioni\npenalty\tpenale contrattuale\n", encoding="utf-8")
    assert glossary.translated("Send the redline", "en", "it", extra=own) == ["controdeduzioni"]
    assert glossary.translated("Send the redline", "en", "it") == []  # not without it
    # a term in both: the file's forms first, then the shipped ones
    both = glossary.translated("Is there a penalty?", "en", "it", extra=own)
    shipped = glossary.translated("Is there a penalty?", "en", "it")
    assert both[:2] == ["penale", "contrattuale"] and set(shipped) <= set(both) and "contrattuale" not in shipped


def test_a_bad_glossary_file_is_a_config_error_naming_it_and_its_line(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("penalty\tpenale\nno tab here\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"glossary .*bad.tsv: glossary line 2"):
        glossary.load(bad)
    with pytest.raises(ConfigError, match="cannot be read"):
        glossary.load(tmp_path / "missing.tsv")
