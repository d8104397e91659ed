"""Statute layouts beyond contracts: a civil code with captions, an EU regulation, the US Code,
a UK statutory instrument, an Italian code with "3-bis", a Canadian statute with marginal notes,
an Indian Act with dash titles, an Australian Act with Divisions, a Singapore Act with notes
above "2.—(1)" (fixtures in data/, written for these tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.documents.models import DocumentMeta
from legalsearch.load.files import build_document
from legalsearch.load.metadata import infer_doc_type
from legalsearch.parse import parse_structure
from legalsearch.parse.titles import describe_node

DATA = Path(__file__).parent / "data"


def read(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def units(tree, kinds=("article", "section", "definitions")):
    return [n for n in tree.walk() if n.kind in kinds]


def find(tree, kind, label):
    found = [n for n in tree.walk() if n.kind == kind and n.label == label]
    assert found, f"no {kind} {label}"
    return found[0]


def chunks_of(name: str, language: str = "en", doc_type: str = "statute"):
    text = read(name)
    doc = build_document(text, DocumentMeta(doc_id=name.split(".")[0], title=name, language=language,
                                            doc_type=doc_type))
    return text, doc, chunk_document(doc, "structural")


@pytest.mark.parametrize("name,language", [
    ("civil-code-captions.txt", "en"), ("eu-regulation.txt", "en"), ("us-code.txt", "en"),
    ("uk-statutory-instrument.txt", "en"), ("italian-code-bis.txt", "it"), ("canada-statute.txt", "en"),
    ("india-act.txt", "en"), ("australia-act.txt", "en"), ("singapore-act.txt", "en"),
])
def test_offsets_nest_and_chunks_slice_the_text(name, language):
    text, doc, chunks = chunks_of(name, language)
    for node in doc.tree.walk():
        assert 0 <= node.char_start <= node.char_end <= len(text)
        for left, right in zip(node.children, node.children[1:], strict=False):
            assert left.char_end <= right.char_start
        for child in node.children:
            assert node.char_start <= child.char_start and child.char_end <= node.char_end
        if node.heading:
            assert text[node.char_start:].startswith(node.heading.split()[0])
    assert chunks and all(text[c.char_start:c.char_end] == c.text for c in chunks)
    assert not [f for f in doc.flags if f.startswith("structure_")]


# -- civil code: captions in parentheses, inserted articles, no invented titles ---------------


def test_caption_in_parentheses_names_the_article_below_it():
    text = read("civil-code-captions.txt")
    tree = parse_structure(text)
    art1, art2 = find(tree, "article", "1"), find(tree, "article", "2")
    assert art1.title == "Fundamental Principles" and art2.title == "Standards for Construction"
    assert text[art1.char_start:art1.char_end].startswith("(Fundamental Principles)\nArticle 1")
    assert text[art1.char_start:art1.char_end].endswith("No abuse of rights is permitted.")
    assert "(Standards for Construction)" not in text[art1.char_start:art1.char_end]
    assert describe_node(art1) == "Article 1 – Fundamental Principles"


def test_inserted_articles_are_their_own_units():
    text = read("civil-code-captions.txt")
    tree = parse_structure(text)
    art3, art3_2 = find(tree, "article", "3"), find(tree, "article", "3-2")
    assert art3.char_end <= art3_2.char_start
    assert text[art3_2.char_start:art3_2.char_end].startswith("Article 3-2  If the person")
    art667_2 = find(tree, "article", "667-2")
    assert art667_2.title is None and describe_node(art667_2) == "Article 667-2"
    assert [c.label for c in art667_2.children] == ["(1)", "(2)"]


def test_no_title_is_invented_from_the_first_sentence():
    tree = parse_structure(read("civil-code-captions.txt"))
    assert find(tree, "article", "122").title is None
    assert find(tree, "article", "3").title is None
    assert find(tree, "article", "90").title == "Public Policy"
    assert all(not (n.title or "").startswith(("(", "1", "A ", "This ")) for n in units(tree))


def test_numbered_paragraphs_are_paragraphs_and_items_stay_inside_theirs():
    text = read("civil-code-captions.txt")
    tree = parse_structure(text)
    art1 = find(tree, "article", "1")
    assert [(c.kind, c.label) for c in art1.children] == [("paragraph", "(1)"), ("paragraph", "(2)"),
                                                         ("paragraph", "(3)")]
    art13 = find(tree, "article", "13")
    assert [c.label for c in art13.children] == ["(1)", "(2)", "(3)", "(4)"]
    first = art13.children[0]
    assert [c.label for c in first.children] == ["(i)", "(ii)", "(iii)", "(iv)", "(v)", "(vi)", "(vii)",
                                                 "(viii)", "(ix)", "(x)"]
    assert text[first.children[-1].char_start:first.children[-1].char_end].endswith("qualified legal capacity.")


def test_sections_group_articles_and_are_never_under_one():
    tree = parse_structure(read("civil-code-captions.txt"))
    for article in units(tree, ("article",)):
        assert not [c for c in article.walk() if c.kind in ("section", "chapter", "part") and c is not article]
    section2 = [n for n in tree.walk() if n.kind == "section" and n.title == "Mental Capacity"][0]
    assert [c.label for c in section2.children] == ["3-2"]
    section3 = [n for n in tree.walk() if n.kind == "section" and n.title == "Capacity to Act"][0]
    assert [c.label for c in section3.children] == ["4", "5", "13", "38 to 84"]


def test_a_run_of_deleted_articles_is_one_empty_unit():
    text = read("civil-code-captions.txt")
    tree = parse_structure(text)
    deleted = find(tree, "article", "38 to 84")
    assert text[deleted.char_start:deleted.char_end] == "Articles 38 to 84 Deleted"
    assert deleted.title == "Deleted" and not deleted.children
    assert describe_node(deleted) == "Articles 38 to 84 – Deleted"
    assert not [n for n in tree.walk() if n.kind == "heading"]


def test_civil_code_chunks_cite_the_right_articles():
    text, doc, chunks = chunks_of("civil-code-captions.txt")
    by_section = {c.section: c for c in chunks}
    assert {"1", "2", "3", "3-2", "4", "5", "13", "38 to 84", "90", "122", "632", "634", "643", "667-2",
            "683"} <= set(by_section)
    assert by_section["3-2"].heading_path[-2:] == ["Section 2 – Mental Capacity", "Article 3-2"]
    assert by_section["1"].section_title == "Fundamental Principles"
    assert by_section["122"].section_title is None  # no title, no caption: nothing weighs as a title
    assert by_section["667-2"].section_title is None
    # the short "Section 11 Partnership" heading line joins its first article (as a clause's intro does)
    assert by_section["667-2"].text.startswith("Section 11 Partnership\nArticle 667-2  (1) The provisions")
    # the caption travels with its article, not with the one above
    assert by_section["683"].text.startswith("(Dissolution of Partnership by Unavoidable Reasons)\nArticle 683")
    assert "(Dissolution" not in by_section["667-2"].text


def test_books_hold_parts_and_chapters_and_each_book_starts_its_own_path():
    text = ("Book I General Provisions\nPart I Common Provisions\n(Fundamental Principles)\n"
            "Article 1  Private rights must conform to the public welfare.\n"
            "Chapter II Persons\n(Commencement of Capacity)\nArticle 3  Capacity commences at birth.\n"
            "Book II Real Rights\nChapter I General Provisions\n(Numerus Clausus)\n"
            "Article 201  No real right may be created other than those provided for.\n"
            "Book III Claims\nChapter I General Provisions\nArticle 401  A claim may have any subject matter.\n")
    tree = parse_structure(text)
    books = [n for n in tree.walk() if n.kind == "book"]
    assert [(b.label, b.title) for b in books] == [("I", "General Provisions"), ("II", "Real Rights"), ("III", "Claims")]
    assert [n.label for n in books[1].walk() if n.kind == "article"] == ["201"]
    assert [n.label for n in books[0].walk() if n.kind == "article"] == ["1", "3"]
    doc = build_document(text, DocumentMeta(doc_id="code", title="Code", language="en", doc_type="statute"))
    by_section = {c.section: c for c in chunk_document(doc, "structural")}
    assert by_section["201"].heading_path == ["Book II – Real Rights", "Chapter I – General Provisions",
                                              "Article 201 – Numerus Clausus"]
    assert by_section["401"].heading_path[0] == "Book III – Claims"
    assert by_section["401"].section_title is None  # no caption: the chapter's title does not stand in


# -- EU regulation -----------------------------------------------------------------------------


def test_eu_regulation_articles_titles_paragraphs_and_points():
    text = read("eu-regulation.txt")
    tree = parse_structure(text)
    art3 = find(tree, "article", "3")
    assert art3.title == "Obligations of producers"
    assert [(c.kind, c.label) for c in art3.children] == [("paragraph", "1"), ("paragraph", "2"), ("paragraph", "3")]
    assert [c.label for c in art3.children[1].children] == ["(a)", "(b)"]
    assert find(tree, "article", "3a").title == "Small producers"
    section1 = find(tree, "section", "1")
    assert (section1.title, [c.label for c in section1.children]) == ("PRODUCERS", ["3", "3a"])
    chapter2 = find(tree, "chapter", "II")
    assert [c.label for c in chapter2.children] == ["1", "2"]
    assert find(tree, "definitions", "2").title == "Definitions"


def test_eu_regulation_chunk_paths():
    _, _, chunks = chunks_of("eu-regulation.txt")
    art4 = [c for c in chunks if c.section == "4"][0]
    assert art4.heading_path == ["Chapter II – OBLIGATIONS", "Section 2 – DISTRIBUTORS",
                                 "Article 4 – Obligations of distributors"]
    assert art4.section_title == "Obligations of distributors"


# -- US Code -------------------------------------------------------------------------------------


def test_us_code_sections_subsections_paragraphs_subparagraphs():
    text = read("us-code.txt")
    tree = parse_structure(text)
    chapter = find(tree, "chapter", "1")
    assert [(c.kind, c.label) for c in chapter.children] == [("definitions", "101"), ("section", "102"),
                                                            ("section", "103"), ("section", "104")]
    s102 = find(tree, "section", "102")
    assert describe_node(s102) == "§ 102 – Labelling requirement"
    assert [c.label for c in s102.children] == ["(a)", "(b)", "(c)"]
    sub_b = s102.children[1]
    assert [c.label for c in sub_b.children] == ["(1)", "(2)"]
    assert [c.label for c in sub_b.children[1].children] == ["(A)", "(B)"]
    assert text[s102.char_start:s102.char_end].endswith("sold for export.")


# -- UK statutory instrument -----------------------------------------------------------------


def test_uk_si_regulations_with_captions_above():
    text = read("uk-statutory-instrument.txt")
    tree = parse_structure(text)
    regs = [n for n in tree.children if n.kind == "section"]
    assert [(n.label, n.title) for n in regs] == [("1", "Citation and commencement"), ("2", "Interpretation"),
                                                  ("3", "Labelling requirement"), ("4", "Penalties")]
    reg1 = regs[0]
    assert text[reg1.char_start:reg1.char_end].startswith("Citation and commencement\n1.—(1) These")
    assert [c.label for c in reg1.children] == ["(1)", "(2)"]
    reg3 = regs[2]
    assert [c.label for c in reg3.children] == ["(1)", "(2)", "(3)"]
    assert [c.label for c in reg3.children[1].children] == ["(a)", "(b)"]
    assert "Labelling requirement" not in text[regs[1].char_start:regs[1].char_end]


# -- Italian code with "-bis" -------------------------------------------------------------------


def test_italian_bis_ter_articles_with_titles_in_parentheses():
    text = read("italian-code-bis.txt")
    tree = parse_structure(text, "it")
    labels = [n.label for n in tree.walk() if n.kind in ("article", "definitions")]
    assert labels == ["1", "2", "2-bis", "3", "3-ter"]
    bis = find(tree, "article", "2-bis")
    assert (bis.title, describe_node(bis, "it")) == ("Fornitori stranieri", "Art. 2-bis – Fornitori stranieri")
    assert [(c.kind, c.label) for c in bis.children] == [("comma", "1")]
    _, _, chunks = chunks_of("italian-code-bis.txt", "it")
    assert [c.section for c in chunks if c.section] == ["1", "2", "2-bis", "3", "3-ter"]


# -- Canadian statute: marginal notes, bare section numbers ------------------------------------


def test_canadian_marginal_notes_title_the_sections_and_subsections_below_them():
    text = read("canada-statute.txt")
    tree = parse_structure(text)
    sections = [n for n in tree.walk() if n.kind in ("section", "definitions")]
    assert [(n.label, n.title) for n in sections] == [
        ("1", "Short title"), ("2", "Definitions"), ("3", "Application"), ("4", "Danger to human health or safety"),
        ("5", "Recall order"), ("5.1", "Records"), ("6", "Offence"), ("7", "Due diligence")]
    s4 = find(tree, "section", "4")
    # the note belongs to the unit below it: section 4 starts at its note, and section 3 ends before it
    assert text[s4.char_start:].startswith("Danger to human health or safety\n4 (1) No manufacturer")
    assert "Danger to human" not in text[find(tree, "section", "3").char_start:find(tree, "section", "3").char_end]
    assert [(c.label, c.title) for c in s4.children] == [("(1)", None), ("(2)", "Advertising"), ("(3)", "Exception")]
    assert text[s4.children[1].char_start:].startswith("Advertising\n(2) No person")
    # "5.1" is an inserted section beside 5, not a part of it
    part1 = find(tree, "part", "1")
    assert [(c.kind, c.label) for c in part1.children] == [("section", "4"), ("section", "5"), ("section", "5.1")]


def test_canadian_group_headings_hold_the_sections_after_them_and_chunks_cite_them():
    text = read("canada-statute.txt")
    tree = parse_structure(text)
    groups = [(n.title, [c.label for c in n.children]) for n in tree.children if n.kind == "heading"]
    assert groups == [("Short Title", ["1"]), ("Interpretation", ["2", "3"])]
    _, _, chunks = chunks_of("canada-statute.txt")
    by_section = {c.section: c for c in chunks if c.section}
    assert sorted(by_section, key=lambda s: float(s)) == ["1", "2", "3", "4", "5", "5.1", "6", "7"]
    assert by_section["6"].heading_path == ["Part 2 – Offences and Punishment", "Section 6 – Offence"]
    assert by_section["7"].text.startswith("Due diligence\n7 No person")
    assert not by_section["6"].text.endswith("Due diligence")


def test_bare_numbers_stay_prose_without_marginal_notes():
    # two notes above "N (1)" are not the layout: "3 (1)" in a contract's text is left alone
    text = ("Payment\n3 (1) Sums are due in 30 days.\nLate payment\n4 (1) Interest runs at 8%.\n"
            "The parties agree as above.\n")
    assert not [n for n in parse_structure(text).walk() if n.kind == "section" and n.title in ("Payment", "Late payment")]


# -- Indian Act: "N. Title.—(1) text" ------------------------------------------------------------


def test_indian_dash_titles_name_the_sections_and_the_first_subsection_follows_them():
    text = read("india-act.txt")
    tree = parse_structure(text)
    chapter2 = find(tree, "chapter", "II")
    assert [(c.label, c.title) for c in chapter2.children] == [
        ("3", "Prohibition of sale without certificate"), ("4", "Grant of certificate"),
        ("4A", "Suspension of certificate"), ("5", "Liability of manufacturer")]
    s1 = find(tree, "section", "1")
    assert s1.title == "Short title, extent and commencement"
    assert [c.label for c in s1.children] == ["(1)", "(2)", "(3)"]
    assert text[s1.children[0].char_start:].startswith("(1) This Act may be called")
    assert find(tree, "definitions", "2").title == "Definitions"
    s4 = find(tree, "section", "4")
    # the proviso and the explanation stay inside the sub-section they qualify
    assert "Explanation.—For the purposes" in text[s4.children[1].char_start:s4.children[1].char_end]


# -- Australian Act: Parts, Divisions, Subdivisions, a table of contents --------------------------


def test_australian_divisions_hold_sections_and_the_contents_table_is_not_the_body():
    text = read("australia-act.txt")
    tree = parse_structure(text)
    part2 = find(tree, "part", "2")
    assert [(c.kind, c.label, c.title) for c in part2.children] == [
        ("division", "1", "Disclosure"), ("division", "2", "Payments")]
    division2 = part2.children[1]
    assert [(c.kind, c.label) for c in division2.children] == [("subdivision", "A")]
    assert [c.label for c in division2.children[0].children] == ["11", "12"]
    # every unit once, from the body (the contents table lists them first)
    labels = [n.label for n in tree.walk() if n.kind == "section"]
    assert labels == ["1", "2", "10", "10A", "11", "12", "13"]
    # Division numbers restart in each Part: "Division 1—Fees" of the contents is not the body's start
    assert [(c.kind, c.label, c.title) for c in find(tree, "part", "3").children] == [("division", "1", "Fees")]
    assert text[find(tree, "section", "10").char_start:].startswith("10  Disclosure statement\n (1) A lessor")
    _, _, chunks = chunks_of("australia-act.txt")
    s11 = [c for c in chunks if c.section == "11"][0]
    assert s11.heading_path == ["Part 2 – Lease terms", "Division 2 – Payments", "Subdivision A – Rent", "Section 11 – Rent"]


# -- Singapore Act: the note right above "N." / "N.—(1)", no blank line between ------------------


def test_singapore_notes_right_above_the_sections_title_them():
    text = read("singapore-act.txt")
    tree = parse_structure(text)
    sections = [n for n in tree.walk() if n.kind == "section"]
    assert [(n.label, n.title) for n in sections] == [
        ("1", "Short title and commencement"), ("2", "Interpretation"), ("3", "Prohibition of unsafe appliances"),
        ("4", "Recall"), ("5", "Defence")]
    s3, s4 = sections[2], sections[3]
    assert text[s4.char_start:].startswith("Recall\n4. The Authority")
    assert "Recall" not in text[s3.char_start:s3.char_end].splitlines()[-1]
    assert [c.label for c in s3.children] == ["(1)", "(2)"]


@pytest.mark.parametrize("name", ["canada-statute.txt", "india-act.txt", "australia-act.txt", "singapore-act.txt"])
def test_statutes_of_other_jurisdictions_are_known_as_statutes(name):
    # Canada's "S.C. 2024, c. 11" and "An Act respecting ...", India's "ACT NO. 9 OF 2022" and "BE it
    # enacted", "Appliance Leasing Act 2023", "An Act to regulate ...": none is a contract
    assert infer_doc_type(read(name)) == "statute"


def test_unquoted_definitions_are_entries_so_a_list_item_ends_at_the_next_one():
    # Justice Laws: "incident ... means any of the following: (a) ... (d) ..." then "inspector means ...";
    # before, item (d) held every definition after it, and its chunk was "Section 2 > (d)"
    notes = "".join(f"Note {n}\n{n} (1) The Minister may act under section {n}.\n" for n in (3, 4, 5))
    text = ("Definitions\n2 The following definitions apply in this Act.\n"
            "analyst means an individual designated as an analyst under subsection 24(1). (analyste)\n"
            "incident, in relation to a consumer product, means any of the following:\n"
            "(a) an occurrence that resulted in the death of an individual;\n"
            "(b) a recall of the product by a foreign government. (incident)\n"
            "inspector means an individual designated as an inspector under subsection 24(1). (inspecteur)\n"
            "young child means an individual who is under three years of age. (jeune enfant)\n" + notes)
    tree = parse_structure(text, "en")
    definitions = next(n for n in tree.walk() if n.kind == "definitions")
    assert [(c.title, [g.label for g in c.children]) for c in definitions.children] == [
        ("analyst", []), ("incident", ["(a)", "(b)"]), ("inspector", []), ("young child", [])]
    item_b = definitions.children[1].children[1]
    assert text[item_b.char_start:item_b.char_end] == "(b) a recall of the product by a foreign government. (incident)"
    # without an item running over a definition the unit is left as it is
    flat = text.replace("(a) an occurrence that resulted in the death of an individual;\n", "").replace(
        "(b) a recall of the product by a foreign government. (incident)\n", "")
    assert not next(n for n in parse_structure(flat, "en").walk() if n.kind == "definitions").children


def test_a_hong_kong_ordinance_is_a_statute():
    text = ("Cap. 456 Consumer Goods Safety Ordinance\n\nAn Ordinance to impose a duty on manufacturers, importers "
            "and suppliers of consumer goods to ensure that the goods they supply are safe.\n\n[23 October 1995]\n\n"
            "Part 1\nPreliminary\n1. Short title\nThis Ordinance may be cited as the Consumer Goods Safety Ordinance.\n"
            "2. Interpretation\nIn this Ordinance, supply agreement means an agreement to supply goods.\n")
    assert infer_doc_type(text) == "statute"
    assert infer_doc_type(text.replace("Cap. 456 ", "", 1)) == "statute"  # the long title "An Ordinance to ..."


def test_a_kenyan_act_and_an_italian_regional_law_are_statutes():
    kenya = ("THE WAREHOUSE LICENSING ACT, 2023\nNo. 4 of 2023\nAn Act of Parliament to provide for the licensing of "
             "warehouses, and for connected purposes\nENACTED by the Parliament of Kenya, as follows—\n"
             "1. Short title.\nThis Act may be cited as the Warehouse Licensing Act, 2023.\n"
             "2. Interpretation.\nIn this Act \"agreement\" means a storage agreement.\n")
    assert infer_doc_type(kenya) == "statute"
    legge = ("LEGGE REGIONALE 3 aprile 2021, n. 5\nNorme per la tutela dei boschi.\n\nArt. 1\n(Oggetto)\n"
             "1. La presente legge disciplina il contratto di taglio dei boschi.\n")
    assert infer_doc_type(legge) == "statute"
    contratto = ("CONTRATTO DI FORNITURA\n\nIl presente contratto è stipulato ai sensi della\n"
                 "legge regionale 3 aprile 2021, n. 5.\n\nArt. 1\n(Oggetto)\n1. Il Fornitore fornisce legna.\n")
    assert infer_doc_type(contratto) == "contract"


def test_a_contract_that_cites_an_act_is_still_a_contract():
    text = ("SUPPLY AGREEMENT\n\nThis Agreement is made under the Sale of Goods Act 1979 as it applies.\n\n"
            "1. Supply\nThe Supplier supplies the Goods.\n")
    assert infer_doc_type(text) == "contract"
    hong_kong = text.replace("Act 1979", "Ordinance (Cap. 26)")
    assert infer_doc_type(hong_kong) == "contract"
