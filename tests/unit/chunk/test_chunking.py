"""Chunkers: exact offsets, units, sub-chunks with repeated headings, the recursive baseline."""

from __future__ import annotations

import pytest
from legalsearch.chunk import chunk_document, split_recursive
from legalsearch.documents.errors import DocumentError
from legalsearch.documents.models import DocumentMeta
from legalsearch.load import build_document
from sample_corpus import CORPUS, TEXT_SAMPLES, by_section


@pytest.mark.parametrize("chunker", ["structural", "recursive"])
@pytest.mark.parametrize("name", TEXT_SAMPLES)
def test_every_chunk_is_the_exact_document_slice(docs, name, chunker):
    doc = docs[name]
    chunk_list = chunk_document(doc, chunker)
    assert chunk_list
    for position, chunk in enumerate(chunk_list):
        assert doc.text[chunk.char_start:chunk.char_end] == chunk.text
        assert chunk.text == chunk.text.strip() and chunk.text
        assert chunk.chunk_id == f"{doc.meta.doc_id}:{doc.meta.version}:{position:04d}"
        assert chunk.position == position and chunk.doc_id == doc.meta.doc_id
    for left, right in zip(chunk_list, chunk_list[1:], strict=False):
        assert left.char_end <= right.char_start  # ordered, never overlapping
        assert doc.text[left.char_end:right.char_start].strip() == ""  # nothing but whitespace is skipped


def test_chunk_ids_are_stable_across_runs(docs):
    doc = docs["master-services-agreement.txt"]
    assert [c.chunk_id for c in chunk_document(doc)] == [c.chunk_id for c in chunk_document(doc)]


def test_clause_14_3_and_14_2_are_separate_units(chunks):
    msa = chunks["master-services-agreement.txt"]
    [c142], [c143] = by_section(msa, "14.2"), by_section(msa, "14.3")
    assert c142.chunk_id != c143.chunk_id
    assert c143.text.startswith("14.3 Subject to clauses 14.1 and 14.2, the total liability")
    assert c143.heading_path == ["Clause 14 – LIMITATION OF LIABILITY", "Clause 14.3"]
    assert c143.section_title == "LIMITATION OF LIABILITY"
    assert c143.heading is None  # a whole unit: its heading is in the text already
    # the "14. LIMITATION OF LIABILITY" heading line (27 chars, under min_chars) joined clause 14.1
    [c141] = by_section(msa, "14.1")
    assert c141.text.startswith("14. LIMITATION OF LIABILITY\n\n14.1 Nothing")


def test_long_clause_is_split_at_sub_clauses_with_heading_repeated(docs, chunks):
    msa, text = chunks["master-services-agreement.txt"], docs["master-services-agreement.txt"].text
    pieces = by_section(msa, "16.1")
    clause = text[text.index("16.1 Without"):text.index("16.2 Without")].rstrip()
    assert len(clause) > 1800  # 2,036 characters: over max_chars, so it must be split
    assert len(pieces) == 2
    assert all(p.heading == "Clause 16 – TERMINATION > Clause 16.1" for p in pieces)
    assert pieces[1].text.startswith("(g) any event occurs")  # cut at a sub-clause boundary
    assert pieces[1].heading_path == ["Clause 16 – TERMINATION", "Clause 16.1", "(g)"]
    assert pieces[0].char_end - pieces[0].char_start <= 1800
    assert "".join(text[p.char_start:p.char_end] for p in pieces).replace("\n", "") == clause.replace("\n", "")


def test_statute_section_21_and_21a_chunks(chunks):
    statute = chunks["housing-act-1988.v2019.txt"]
    s21, [s21a] = by_section(statute, "21"), by_section(statute, "21A")
    assert len(s21) == 2 and all(c.heading.endswith("Section 21 – Recovery of possession on expiry or "
                                                    "termination of assured shorthold tenancy") for c in s21)
    assert s21[1].heading_path == ["Part I – RENTED ACCOMMODATION", "Chapter I – ASSURED TENANCIES",
                                   s21[0].heading_path[2], "(4)"]
    assert s21[1].text.startswith("(4) Without prejudice")
    assert s21a.text.startswith("21A Compliance conditions")
    assert s21a.heading_path[-1] == "Section 21A – Compliance conditions"
    assert not any("21A Compliance" in c.text for c in s21)


def test_repealed_section_is_not_merged_into_a_neighbour(chunks):
    [repealed] = by_section(chunks["housing-act-1988.v2026.txt"], "21")
    assert repealed.text.startswith("21 [Repealed]")
    assert "21A" not in repealed.text


def test_italian_article_is_one_chunk_and_splits_at_commi_when_long(docs, chunks):
    [art5] = by_section(chunks["contratto-fornitura-acme.txt"], "5")
    assert (art5.heading_path, art5.section_title) == (["Art. 5 – Durata e recesso"], "Durata e recesso")
    small = chunk_document(docs["contratto-fornitura-acme.txt"], max_chars=300)
    pieces = by_section(small, "5")
    assert [p.heading_path[-1] for p in pieces] == ["Art. 5 – Durata e recesso", "comma 1-bis", "comma 2", "comma 3"]
    assert {p.heading for p in pieces} == {"Art. 5 – Durata e recesso"}
    assert all(p.char_end - p.char_start <= 300 for p in pieces)


def test_pages_are_attached_to_chunks():
    text = "1. FIRST\n\nAlpha clause text.\n\n2. SECOND\n\nBeta clause text."
    page_two = text.index("2. SECOND")
    from legalsearch.documents.models import PageSpan

    doc = build_document(text, DocumentMeta(doc_id="p", title="P"),
                         pages=[PageSpan(1, 0, page_two - 2), PageSpan(2, page_two, len(text))])
    assert [c.page for c in chunk_document(doc, min_chars=0)] == [1, 2]


def test_a_table_of_contents_is_its_own_chunk_labelled_contents_citing_nothing():
    entries = "".join(f"{n} {title} ..... {n}\n" for n, title in enumerate(
        ["Definitions", "Governing law", "Confidentiality", "Termination", "Limitation of liability"], 1))
    body = "".join(f"{n}. {title.upper()}\n\nThe parties agree to the {title.lower()} terms of Section {n}.\n\n"
                   for n, title in enumerate(["Definitions", "Governing law", "Confidentiality", "Termination",
                                              "Limitation of liability"], 1))
    text = "MASTER SERVICES AGREEMENT\nbetween Acme Ltd and Globex plc\n\nTABLE OF CONTENTS\n" + entries + "\n" + body
    doc = build_document(text, DocumentMeta(doc_id="msa", title="MSA", doc_type="contract"))
    chunks = chunk_document(doc, min_chars=0)
    contents = [c for c in chunks if "contents" in c.clause_labels]
    assert len(contents) == 1
    assert contents[0].text.startswith("TABLE OF CONTENTS\n1 Definitions")
    assert contents[0].text.rstrip().endswith("Limitation of liability ..... 5")
    assert contents[0].clause_labels == ["contents"]  # not "governing_law", "confidentiality", ... it lists
    assert (contents[0].xrefs, contents[0].heading_path, contents[0].section) == ([], ["TABLE OF CONTENTS"], None)
    assert chunks[0].text == "MASTER SERVICES AGREEMENT\nbetween Acme Ltd and Globex plc"  # the preamble apart
    assert [c.section for c in chunks if c.section] == ["1", "2", "3", "4", "5"]


def test_unknown_chunker_is_an_error(docs):
    with pytest.raises(DocumentError, match="unknown chunker 'fixed'"):
        chunk_document(docs["nda-acme-globex.txt"], "fixed")


def test_unstructured_text_is_packed_into_paragraph_chunks():
    sentence = "We collect the information you give us when you register. "
    paragraph = (sentence * 5).strip()
    assert len(paragraph) == 5 * 58 - 1  # 289: five 58-character sentences, last space stripped
    text = "\n\n".join([paragraph] * 12)
    doc = build_document(text, DocumentMeta(doc_id="policy", title="Policy"))
    assert "no_structure" in doc.flags
    sizes = [c.char_end - c.char_start for c in chunk_document(doc)]
    # 6 paragraphs plus 5 blank-line separators = 6 * 289 + 5 * 2 = 1744 <= 1800; a 7th would exceed it
    assert sizes == [6 * 289 + 5 * 2] * 2


# -- recursive baseline (LangChain RecursiveCharacterTextSplitter, chunk_size=500, no overlap) --
def test_recursive_chunks_respect_size_order_and_coverage(docs):
    for doc in docs.values():
        chunk_list = chunk_document(doc, "recursive")
        assert max(c.char_end - c.char_start for c in chunk_list) <= 500
        # every non-space character is in exactly one chunk, in order
        assert "".join(doc.text.split()) == "".join("".join(c.text.split()) for c in chunk_list)


def test_recursive_chunks_get_paths_from_the_tree(docs):
    statute = chunk_document(docs["housing-act-1988.v2019.txt"], "recursive")
    inside_21 = [c for c in statute if c.section == "21"]
    assert inside_21 and all("Section 21 – Recovery" in c.heading_path[2] for c in inside_21)


@pytest.mark.parametrize(
    ("text", "size", "expected"),
    [
        # "\n\n" occurs: pieces "aaa" (3) and "\n\nbbb" (5 = size, so re-split on "\n" -> "\n" + "\nbbb")
        ("aaa\n\nbbb", 5, ["aaa", "bbb"]),
        # pieces merge while the running total stays <= size: "ab" + " cd" = 5, then " ef" starts a new chunk
        ("ab cd ef", 5, ["ab cd", "ef"]),
        # a word longer than the size is cut character by character
        ("abcdefgh", 3, ["abc", "def", "gh"]),
        # the separator starts the next piece (keep_separator=True) and is stripped from it
        ("one\ntwo\nthree", 8, ["one\ntwo", "three"]),
    ],
)
def test_split_recursive_matches_langchain_semantics(text, size, expected):
    spans = split_recursive(text, chunk_size=size)
    assert [text[s:e] for s, e in spans] == expected


def test_split_recursive_sentence_mode_keeps_the_period():
    text = "First sentence here. Second one follows. Third."
    spans = split_recursive(text, chunk_size=25, separators=(". ", " ", ""), keep_separator="end")
    assert [text[s:e] for s, e in spans] == ["First sentence here.", "Second one follows.", "Third."]


def test_sample_files_exist():
    assert len(TEXT_SAMPLES) == 9 and (CORPUS / "scanned-amendment.pdf").is_file()
