"""Structure parser: headings of statutes, contracts and contratti; false positives; offsets."""

from __future__ import annotations

import pytest
from legalsearch.chunk import chunk_document
from legalsearch.documents.models import DocumentMeta
from legalsearch.load import build_document
from legalsearch.parse import has_structure, parse_structure
from legalsearch.parse.headings import reads_as_contents
from legalsearch.parse.titles import describe_node


def find(tree, kind, label):
    matches = [n for n in tree.walk() if n.kind == kind and n.label == label]
    assert matches, f"no {kind} {label}"
    return matches[0]


def labels(node):
    return [c.label for c in node.children]


def test_every_sample_tree_has_exact_nested_offsets(docs):
    for name, doc in docs.items():
        for node in doc.tree.walk():
            assert 0 <= node.char_start <= node.char_end <= len(doc.text), name
            for child in node.children:
                assert node.char_start <= child.char_start <= child.char_end <= node.char_end, (name, child)
            for left, right in zip(node.children, node.children[1:], strict=False):
                assert left.char_end <= right.char_start, (name, left, right)
            if node.heading:
                # the heading is written where the node starts (whitespace collapsed)
                assert doc.text[node.char_start:].startswith(node.heading.split()[0]), (name, node)


def test_statute_sections_21_and_21a_are_separate(docs):
    doc = docs["housing-act-1988.v2019.txt"]
    part = find(doc.tree, "part", "I")
    chapter = part.children[0]
    assert (chapter.kind, chapter.label, chapter.title) == ("chapter", "I", "ASSURED TENANCIES")
    assert labels(chapter) == ["5", "7", "8", "19A", "21", "21A", "21B"]
    s21, s21a = find(doc.tree, "section", "21"), find(doc.tree, "section", "21A")
    assert s21.char_end <= s21a.char_start
    assert s21.title == "Recovery of possession on expiry or termination of assured shorthold tenancy"
    assert labels(s21) == ["(1)", "(2)", "(3)", "(4)", "(4A)", "(4B)", "(4D)", "(5)"]
    assert describe_node(s21a) == "Section 21A – Compliance conditions"


def test_repealed_section_keeps_its_own_node(docs):
    doc = docs["housing-act-1988.v2026.txt"]
    s21 = find(doc.tree, "section", "21")
    assert s21.title == "[Repealed]"
    assert doc.text[s21.char_start:s21.char_end].startswith("21 [Repealed]\nSection 21 (recovery")
    assert find(doc.tree, "schedule", "2B").title == "TRANSITIONAL PROVISION: NOTICES GIVEN BEFORE 1 MAY 2026"


def test_contract_clauses_nest_by_decimal_depth(docs):
    tree = docs["master-services-agreement.txt"].tree
    clause14 = find(tree, "clause", "14")
    assert clause14.title == "LIMITATION OF LIABILITY"
    assert labels(clause14) == ["14.1", "14.2", "14.3", "14.4", "14.5"]
    assert find(tree, "definitions", "1").title == "DEFINITIONS AND INTERPRETATION"
    assert labels(find(tree, "clause", "16.1")) == ["(a)", "(b)", "(c)", "(d)", "(e)", "(f)", "(g)"]
    assert [c.kind for c in find(tree, "schedule", "2").children] == ["paragraph"] * 4
    # title, then the unnumbered PARTIES heading holding the parties (1), (2), then BACKGROUND
    assert [(n.kind, n.title) for n in tree.children][:3] == [("preamble", None), ("heading", "PARTIES"),
                                                              ("recitals", None)]
    assert [c.label for c in tree.children[1].children] == ["(1)", "(2)"]


def test_italian_articles_commi_allegati(docs):
    tree = docs["contratto-fornitura-acme.txt"].tree
    art5 = find(tree, "article", "5")
    assert (art5.title, art5.heading) == ("Durata e recesso", "Art. 5 – Durata e recesso")
    assert [(c.kind, c.label) for c in art5.children] == [("comma", "1"), ("comma", "1-bis"), ("comma", "2"),
                                                         ("comma", "3")]
    assert describe_node(art5.children[1], "it") == "comma 1-bis"
    assert find(tree, "schedule", "B").title == "Listino prezzi e livelli di servizio"
    assert tree.children[1].kind == "recitals"
    # "1.000,00 euro è l'importo minimo" at the start of a line is an amount, not comma 1
    allegato_b = find(tree, "schedule", "B")
    assert labels(allegato_b) == ["1", "2", "3"]
    assert "1.000,00 euro" in docs["contratto-fornitura-acme.txt"].text[allegato_b.children[-1].char_start:
                                                                       allegato_b.char_end]


def test_italian_heading_variants(docs):
    tree = docs["contratto-servizi-beta.txt"].tree
    assert describe_node(find(tree, "article", "5"), "it") == "Articolo 5 – Durata e recesso"
    assert describe_node(find(tree, "article", "7"), "it") == "Art. 7 – Penale"  # "ART. 7 - Penale"
    assert labels(find(tree, "article", "5")) == ["1", "2", "3"]  # commi written "1)", "2)"


@pytest.mark.parametrize(
    "text",
    [
        "The notice was given on\n1. January 2024 and the tenancy ended later that month.\n",
        "Payment is due within ten days and in any case not later than thirty calendar days after the\n"
        "10 Business Days notice period has expired.\n",
        "Amounts:\n1.000,00 EUR per month\n2.500,00 EUR per year\n",
        "As described there,\n   Section 4.1(b) of the Disclosure Letter lists the subsidiaries.\n",
        "The Company shall comply with Article 9, as amended, and with the rules.\n",
    ],
)
def test_prose_that_looks_like_a_heading_is_not_one(text):
    tree = parse_structure(text, "en")
    assert not has_structure(tree)
    assert all(n.kind in ("document", "paragraph") for n in tree.walk())


def test_maud_style_inline_headings_after_wide_gaps():
    text = ("ARTICLE 6   CERTAIN COVENANTS OF THE COMPANY   Section 6.1          Access and Investigation. During "
            "the Pre-Closing Period the Company shall give access.   Section 6.2          Operation of the "
            "Business.   (a)            During the Pre-Closing Period the Company shall operate normally.   "
            "(b)            The Company shall not amend its bylaws.   ARTICLE 7   ADDITIONAL COVENANTS   "
            "Section 7.1   Company Board Recommendation. The board shall recommend the Offer.")
    tree = parse_structure(text, "en")
    art6, art7 = tree.children
    assert (art6.kind, art6.label, art6.title) == ("article", "6", "CERTAIN COVENANTS OF THE COMPANY")
    assert [(s.label, s.title) for s in art6.children] == [("6.1", "Access and Investigation"),
                                                          ("6.2", "Operation of the Business")]
    assert labels(art6.children[1]) == ["(a)", "(b)"]
    assert (art7.label, labels(art7)) == ("7", ["7.1"])


def test_table_of_contents_entries_do_not_shadow_sections():
    text = ("TABLE OF CONTENTS\nARTICLE 1 DEFINITIONS 2\nSection 1.1 Definitions 2\nARTICLE 2 THE OFFER 5\n\n"
            "ARTICLE 1\nDEFINITIONS\nSection 1.1 Definitions. Terms have the meanings below.\n\n"
            "ARTICLE 2\nTHE OFFER\nSection 2.1 The Offer. Purchaser shall commence the Offer.\n")
    tree = parse_structure(text, "en")
    assert [(n.kind, n.label) for n in tree.children] == [("contents", None), ("definitions", "1"), ("article", "2")]
    contents = tree.children[0]
    assert (contents.char_start, contents.heading) == (0, "TABLE OF CONTENTS")
    assert text[contents.char_start:contents.char_end].endswith("ARTICLE 2 THE OFFER 5")
    assert contents.char_end < text.index("ARTICLE 1\nDEFINITIONS")


def test_a_table_of_contents_is_a_node_of_its_own_after_the_preamble():
    text = ("RETAIL TENANCIES ACT 2023\nNo. 12, 2023\n\nContents\nPart 1—Preliminary 1\n1 Short title ..... 1\n"
            "2 Commencement ..... 1\nPart 2—Leases 2\n3 Lease to be in writing ..... 2\n\n"
            "Part 1—Preliminary\n1 Short title\nThis Act is the Retail Tenancies Act 2023.\n"
            "2 Commencement\nThis Act commences on the day after Royal Assent.\n"
            "Part 2—Leases\n3 Lease to be in writing\nA retail lease must be in writing and signed.\n")
    tree = parse_structure(text, "en")
    assert [n.kind for n in tree.children] == ["preamble", "contents", "part", "part"]
    contents = tree.children[1]
    assert text[contents.char_start:contents.char_end].splitlines()[0] == "Contents"
    assert text[contents.char_end:].lstrip().startswith("Part 1—Preliminary\n1 Short title\nThis Act")
    assert [s.label for s in tree.children[2].children] == ["1", "2"]


def test_an_italian_indice_is_a_contents_node_too():
    text = ("CONTRATTO DI FORNITURA\ntra Alfa S.r.l. e Beta S.p.A.\n\nINDICE\nArt. 1 Oggetto ..... 2\n"
            "Art. 2 Penale ..... 3\n\nArt. 1 (Oggetto)\n1. Il Fornitore fornisce i beni.\n\n"
            "Art. 2 (Penale)\n1. In caso di recesso anticipato si applica una penale del 10%.\n")
    tree = parse_structure(text, "it")
    assert [(n.kind, n.label) for n in tree.children] == [("preamble", None), ("contents", None), ("article", "1"),
                                                          ("article", "2")]
    assert tree.children[2].title == "Oggetto"


INDIA_CODE = """THE WAREHOUSING ACT, 2019
ARRANGEMENT OF SECTIONS
SECTIONS
CHAPTER I
PRELIMINARY
1. Short title, extent and commencement.
2. Definitions.
CHAPTER II
REGISTRATION
3. Warehouses not to be operated without registration.
4. Grant of certificate.

THE WAREHOUSING ACT, 2019
ACT NO. 3 OF 2019
An Act to provide for the registration of warehouses.
BE it enacted by Parliament as follows:—
CHAPTER I
PRELIMINARY
1. Short title, extent and commencement.—(1) This Act may be called the Warehousing Act, 2019.
(2) It extends to the whole of India.
2. Definitions.—In this Act, unless the context otherwise requires,—
(a) "warehouse" means any place where goods are stored;
CHAPTER II
REGISTRATION
3. Warehouses not to be operated without registration.—(1) No person shall commence the business of a warehouse.
4. Grant of certificate.—(1) The Authority may grant a certificate of registration.
"""


def test_an_arrangement_of_sections_is_a_table_and_the_long_title_after_it_is_text():
    # India Code (and Kenya, Nigeria, Malaysia): the arrangement lists every chapter and section,
    # then the Act's title, number, long title and enacting words, then the body
    tree = parse_structure(INDIA_CODE, "en")
    assert [(n.kind, n.label) for n in tree.children] == [
        ("preamble", None), ("contents", None), ("preamble", None), ("chapter", "I"), ("chapter", "II")]
    contents, long_title = tree.children[1], tree.children[2]
    assert INDIA_CODE[contents.char_start:contents.char_end].endswith("4. Grant of certificate.")
    assert INDIA_CODE[long_title.char_start:long_title.char_end].splitlines()[2] == (
        "An Act to provide for the registration of warehouses.")
    sections = [(n.label, n.title) for n in tree.walk() if n.kind in ("section", "definitions")]
    assert [label for label, _ in sections] == ["1", "2", "3", "4"]  # once each: the entries are no units
    assert sections[3] == ("4", "Grant of certificate")


def test_an_italian_law_titoli_and_capi_under_an_indice():
    # "Capo I" is in Titolo II and again in Titolo III: in the index it is no restart of the body
    text = ("LEGGE REGIONALE 3 aprile 2021, n. 5\nNorme sui boschi.\n\nINDICE\nTITOLO I - DISPOSIZIONI GENERALI\n"
            "Art. 1 - Oggetto\nTITOLO II - TAGLI\nCapo I - Autorizzazioni\nArt. 2 - Domanda\n"
            "TITOLO III - SANZIONI\nCapo I - Illeciti\nArt. 3 - Sanzioni\n\n"
            "TITOLO I\nDISPOSIZIONI GENERALI\nArt. 1\n(Oggetto)\n1. La presente legge disciplina il taglio dei boschi.\n"
            "TITOLO II\nTAGLI\nCapo I\nAutorizzazioni\nArt. 2\n(Domanda)\n1. Il taglio è autorizzato dal Comune.\n"
            "TITOLO III\nSANZIONI\nCapo I\nIlleciti\nArt. 3\n(Sanzioni)\n1. Chi taglia senza autorizzazione paga "
            "da 500 a 3.000 euro.\n")
    tree = parse_structure(text, "it")
    assert [(n.kind, n.label) for n in tree.children] == [
        ("preamble", None), ("contents", None), ("part", "I"), ("part", "II"), ("part", "III")]
    articles = [(n.label, n.title) for n in tree.walk() if n.kind == "article"]
    assert articles == [("1", "Oggetto"), ("2", "Domanda"), ("3", "Sanzioni")]  # once each, no parentheses
    assert [c.kind for c in tree.children[3].children] == ["chapter"]


def test_a_heading_line_the_contents_list_is_titled_by_it():
    # Kenya Law: "8. Requirement to register." in the arrangement, then over section 8's text; in
    # sentence case with a full stop, as a short sentence would be, but the table lists it
    text = ("THE DATA ACT, 2024\nARRANGEMENT OF SECTIONS\nPART I – PRELIMINARY\n1. Short title.\n"
            "2. Requirement to register.\n\nTHE DATA ACT, 2024\nENACTED by the Parliament of Kenya, as follows—\n"
            "PART I – PRELIMINARY\n1. Short title.\nThis Act may be cited as the Data Act, 2024.\n"
            "2. Requirement to register.\n(1) A person shall not sell personal data unless registered.\n"
            "(2) A person who contravenes subsection (1) commits an offence.\n")
    tree = parse_structure(text, "en")
    sections = [n for n in tree.walk() if n.kind == "section"]
    assert [(n.label, n.title) for n in sections] == [("1", "Short title"), ("2", "Requirement to register")]
    assert [c.label for c in sections[1].children] == ["(1)", "(2)"]


def test_contents_that_run_into_prose_are_no_table():
    # the body's first heading is missed (inline in a long line), so the first heading seen again
    # is "ARTICLE 2": the stretch up to it holds clause text and must stay searchable
    body = ("BY-LAWS of ACME INC.   Section 1.01  Registered Office. The registered "
            "office of the Corporation shall be in Wilmington, Delaware, and the Board of Directors may at any "
            "time establish other offices at any place or places where the Corporation is qualified to do "
            "business, as the Board may from time to time determine or the business of the Corporation may "
            "require, and no such office shall be closed without notice to the stockholders of record.\n\n")
    text = ("TABLE OF CONTENTS\nARTICLE 1 OFFICES 1\nARTICLE 2 STOCKHOLDERS 2\n\n" + body
            + "ARTICLE 2\nSTOCKHOLDERS\nSection 2.01 Annual Meeting. The annual meeting shall be held in May.\n")
    tree = parse_structure(text, "en")
    assert "contents" not in [n.kind for n in tree.walk()]


def test_a_marginal_note_reading_contents_is_no_table():
    # Justice Laws: "Contents" is the note above subsection (2) of section 34; section 35 must stay a unit
    notes = "".join(f"Note {n}\n{n} (1) The Minister may act under this section {n}.\n" for n in range(30, 34))
    text = ("Notice of violation\n34 (1) The Minister may designate individuals to issue notices of violation.\n"
            "Contents\n(2) The notice of violation shall\n(a) name the person;\n(b) identify the violation.\n\n"
            "Compliance agreements\n35 (1) On receipt of a notice of violation, the person may apply.\n"
            "Reduction of penalty\n(2) A compliance agreement may provide for the reduction of the penalty.\n")
    tree = parse_structure(notes + text, "en")
    sections = [(n.label, n.title) for n in tree.walk() if n.kind == "section"]
    assert ("35", "Compliance agreements") in sections
    assert "contents" not in [n.kind for n in tree.walk()]


def test_text_without_headings_falls_back_to_paragraphs():
    text = "We collect your name.\n\nWe share it with nobody.\n\n\nYou may ask us to delete it.\n"
    tree = parse_structure(text, "en")
    assert [text[n.char_start:n.char_end] for n in tree.children] == [
        "We collect your name.", "We share it with nobody.", "You may ask us to delete it."]
    assert not has_structure(tree)


def test_recitals_signature_and_1341_nodes(docs):
    tree = docs["contratto-fornitura-acme.txt"].tree
    signatures = [n for n in tree.children if n.kind == "signature"]
    assert [s.heading.split()[0] for s in signatures] == ["Letto,", "Ai"]
    assert find(docs["master-services-agreement.txt"].tree, "definitions", "1") is not None


# -- unnumbered headings ---------------------------------------------------------------------

NDA_CAPS = (
    "MUTUAL NON-DISCLOSURE AGREEMENT\n\nTHIS AGREEMENT is made on 2 September 2024\n\nBETWEEN:\n\n"
    "(1) CORVANE TECHNOLOGIES LIMITED, a company incorporated in England (\"Corvane\"); and\n\n"
    "(2) HALVORSEN MARITIME AS, a company incorporated in Norway (\"Halvorsen\").\n\n"
    "PURPOSE\n\nThe Parties wish to exchange Confidential Information to assess a telemetry project.\n\n"
    "THIRD PARTY RIGHTS\n\nA person who is not a party has no right to enforce any term of this Agreement.\n\n"
    "GOVERNING LAW\n\nThis Agreement is governed by the law of England and Wales.\n\n"
    "Signed by the authorised representatives of the Parties\n\nCORVANE TECHNOLOGIES LIMITED\n\nBy: J. Smith\n"
)


def test_all_caps_headings_are_units_and_close_the_party_list():
    tree = parse_structure(NDA_CAPS, "en")
    kinds = [(n.kind, n.title) for n in tree.children]
    assert kinds == [("preamble", None), ("paragraph", None), ("paragraph", None), ("heading", "PURPOSE"),
                     ("heading", "THIRD PARTY RIGHTS"), ("heading", "GOVERNING LAW"), ("signature", None)]
    law = tree.children[5]
    assert NDA_CAPS[law.char_start:law.char_end] == (
        "GOVERNING LAW\n\nThis Agreement is governed by the law of England and Wales.")
    assert has_structure(tree)  # no longer "no_structure"


def test_caps_lines_of_a_signature_block_and_the_title_line_are_not_headings():
    tree = parse_structure(NDA_CAPS, "en")
    assert not any(n.title == "MUTUAL NON-DISCLOSURE AGREEMENT" for n in tree.walk())
    assert not any(n.title == "CORVANE TECHNOLOGIES LIMITED" for n in tree.walk())


def test_unnumbered_heading_after_numbered_clauses_is_not_folded_into_the_last_one():
    text = ("1. FEES\n\n1.1 The Customer shall pay the Fees.\n\n2. GENERAL\n\n2.1 Notices shall be in writing.\n\n"
            "2.2 This Agreement may be executed in counterparts.\n\nGOVERNING LAW\n\n"
            "This Agreement is construed in accordance with the law of England and Wales.\n")
    tree = parse_structure(text, "en")
    assert [(n.kind, n.label, n.title) for n in tree.children][-1] == ("heading", None, "GOVERNING LAW")
    [clause] = [n for n in tree.walk() if n.label == "2.2"]
    assert "GOVERNING LAW" not in text[clause.char_start:clause.char_end]


def test_sentence_case_heading_groups_numbered_paragraphs_of_a_judgment():
    text = ("The facts\n\n1. Halberd disclosed the Envelope Method in a data room in 2021 under the NDA it signed.\n\n"
            "2. Quillfeather launched its module a year later, with the same thresholds as the Method.\n\n"
            "Issue 3: independent development\n\n"
            "3. Quillfeather's case was that the module had been developed by its own team from first principles.\n")
    tree = parse_structure("APPROVED JUDGMENT\n\n" + text, "en")
    groups = [(n.kind, n.title, [c.label for c in n.children]) for n in tree.children if n.kind == "heading"]
    # in a judgment "The facts" right before paragraph 1 holds paragraphs 1-2 as "Issue 3" holds 3
    assert groups == [("heading", "The facts", ["1", "2"]), ("heading", "Issue 3: independent development", ["3"])]
    # the same lines in a contract: the heading before clause 1 introduces the numbering (a divider)
    tree = parse_structure("SUPPLY AGREEMENT\n\n" + text.replace("The facts", "Agreed terms"), "en")
    groups = [(n.kind, n.title, [c.label for c in n.children]) for n in tree.children if n.kind == "heading"]
    assert groups == [("heading", "Agreed terms", []), ("heading", "Issue 3: independent development", ["3"])]


@pytest.mark.parametrize(
    "text",
    [
        # a short line inside prose without blank lines around it
        "The Supplier shall deliver\nAll Products\nwithin ten days of the order and shall notify the Customer.\n",
        # a sentence-case line that ends a sentence
        "Payment terms apply.\n\nThe Customer pays within thirty days of the invoice and in any case monthly.\n",
        # a date line
        "Last updated: 1 February 2025\n\nThis notice explains how we use personal information about visitors.\n",
    ],
)
def test_lines_that_are_not_unnumbered_headings(text):
    tree = parse_structure("Title\n\n" + text, "en")
    assert not any(n.kind == "heading" for n in tree.walk())


def test_divider_heading_before_clause_1_does_not_hold_the_clauses():
    text = ("AGREED TERMS\n\n1. DEFINITIONS\n\n1.1 Words have the meanings below.\n\n2. TERM\n\n"
            "2.1 This Agreement lasts two years.\n")
    tree = parse_structure("AGREEMENT\n\n" + text, "en")
    assert [(n.kind, n.label) for n in tree.children][1:] == [("heading", None), ("definitions", "1"), ("section", "2")]
    assert tree.children[1].char_end < text.index("1. DEFINITIONS") + len("AGREEMENT\n\n")


def test_italian_1341_approval_heading_holds_its_paragraph():
    text = ("Art. 1 – Oggetto\n1. Il Fornitore fornisce i Prodotti.\n\nLetto, confermato e sottoscritto.\n\n"
            "APPROVAZIONE SPECIFICA AI SENSI DEGLI ARTT. 1341 E 1342 C.C.\n\n"
            "Ai sensi e per gli effetti degli artt. 1341 e 1342 c.c., le Parti approvano l'art. 1.\n")
    tree = parse_structure(text, "it")
    approval = tree.children[-1]
    assert approval.kind == "signature" and approval.heading.startswith("APPROVAZIONE SPECIFICA")
    assert text[approval.char_start:approval.char_end].endswith("approvano l'art. 1.")


# the tables of contents of merger agreements as EDGAR's text exports write them: entries run on in
# one line, or one "Section N.N" a line that the parser takes for headings
_RUN_ON_CONTENTS = (
    "TABLE OF CONTENTS Page\n\n\nARTICLE 1 TRANSACTIONS AND TERMS OF MERGER 1\n\n\n"
    "1.1 Merger 1 1.2 Time and Place of Closing 2 1.3 Effective Time 2 1.4 Restructure of Transactions 2 "
    "1.5 Bank Merger 2\n\n\nARTICLE 2 TERMS OF MERGER 3\n\n\n2.1 Articles of Incorporation 3 2.2 Bylaws 3 "
    "2.3 Directors and Officers 3\n\n\ni\n")
_SECTION_LINES = (
    "Section 3.1   Organization; Good Standing    11  Section 3.2   Company Capitalization    12  "
    "Section 3.3   Authority    13  Section 3.4   No Conflict    14  Section 3.5   SEC Reports; Financial "
    "Statements    15  Section 3.6   Absence of Certain Changes    16  -ii-\n\n\n________________")


@pytest.mark.parametrize("text", [
    _RUN_ON_CONTENTS,
    _SECTION_LINES,
    "ARTICLE 1 DEFINITIONS     1\n\n1.1   \"Actions\"     1  1.2   \"Affiliate\"     1  1.3   \"Agreement\"     2  "
    "1.4   \"Business Day\"     2\n\nExhibit A – Form of Voting Agreement Exhibit B – Form of Bank Merger Agreement",
    "14 STIPULATIO ALTERI ........................ 10\n15 NON-SOLICITATION ..................... 10\n"
    "16 NOTICES AND DOMICILIUM .......... 11\n17 APPLICABLE LAW AND JURISDICTION ........ 12\n18 SEVERABILITY ..... 12",
])
def test_a_chunk_that_lists_entries_and_page_numbers_reads_as_contents(text):
    assert reads_as_contents(text)


@pytest.mark.parametrize("text", [
    # a title page above the table: the parties and the date stay searchable
    "AGREEMENT AND PLAN OF MERGER by and among ALPHA BANCORP, INC., a North Carolina corporation, BETA "
    "HOLDINGS, INC. and BETA MERGER SUB, INC., a Delaware corporation and wholly owned subsidiary of Beta "
    "Holdings, Inc., dated as of June 1, 2021, as amended by the First Amendment dated as of July 9, 2021\n\n"
    + _RUN_ON_CONTENTS,
    # the end of the table and the first clause in one chunk
    "16 NOTICES AND DOMICILIUM .......... 11\n17 APPLICABLE LAW AND JURISDICTION ........ 12\n"
    "18 SEVERABILITY ..... 12\n19 COUNTERPARTS ..... 12\n1 INTERPRETATION\n1.1 The head notes to the clauses of "
    "this Agreement are for reference purposes only and shall in no way govern or affect the interpretation "
    "of nor modify nor amplify the terms of this Agreement nor any clause hereof.\n1.2 Unless inconsistent "
    "with the context, the following words and expressions shall have the following meanings.",
    # a clause that cites sections by number, and a schedule of payments
    "Section 5.1 shall not apply to the payments set out in Section 2.3 for the 12 months after the Closing "
    "Date, and Section 7.2 applies to any amount over 5 percent.",
    "1 January 2026 EUR 10,000 2 February 2026 EUR 12,000 3 March 2026 EUR 9,000",
])
def test_a_chunk_with_text_of_its_own_does_not_read_as_contents(text):
    assert not reads_as_contents(text)


def test_a_table_of_contents_the_parser_missed_is_a_chunk_labelled_contents():
    # no "TABLE OF CONTENTS" line: each line of entries is taken for Section 3.1's and 4.1's heading
    def entries(article):
        return "  ".join(f"Section {article}.{n}   Title {n} of Article {article}    {article * 3 + n}" for n in range(1, 5))

    body = "\n\n".join(f"Section {article}.{n} Title {n} of Article {article}. The Company shall do thing {n} "
                       f"within {article} days of the Closing Date." for article in (3, 4) for n in range(1, 5))
    text = ("AGREEMENT AND PLAN OF MERGER By and Between ALPHA BANCORP, INC. And BETA HOLDINGS, INC.\n\n\n"
            + entries(3) + "\n\n\n" + entries(4) + "\n\n\n-i-\n\n\n" + body)
    doc = build_document(text, DocumentMeta(doc_id="merger", title="Merger", doc_type="contract"))
    assert not [n for n in doc.tree.walk() if n.kind == "contents"]
    chunks = chunk_document(doc, min_chars=0)
    labelled = [c for c in chunks if "contents" in c.clause_labels]
    assert [c.text[:40] for c in labelled] == [entries(3)[:40], entries(4)[:40]]
    assert all(c.clause_labels == ["contents"] and c.xrefs == [] for c in labelled)
    assert chunks[0].text.startswith("AGREEMENT AND PLAN OF MERGER") and not chunks[0].clause_labels
    assert len([c for c in chunks if c.text.startswith("Section") and "contents" not in c.clause_labels]) == 8


def test_an_italian_eu_act_has_recitals_and_sezioni_grouping_its_articles():
    # the Italian Official Journal: "considerando quanto segue:" opens the recitals ("Whereas:"), and
    # "Sezione 1" groups articles inside a Capo as "Section 1" does in the English version
    text = ("REGOLAMENTO (UE) 2027/45 DEL PARLAMENTO EUROPEO E DEL CONSIGLIO\n\ndel 20 gennaio 2027\n\n"
            "IL PARLAMENTO EUROPEO E IL CONSIGLIO DELL'UNIONE EUROPEA,\n\nvista la proposta della Commissione europea,\n\n"
            "considerando quanto segue:\n\n(1)\n\nLe locazioni brevi offrono un reddito alle famiglie.\n\n(2)\n\n"
            "Norme nazionali divergenti creano incertezza.\n\nHANNO ADOTTATO IL PRESENTE REGOLAMENTO:\n\n"
            "CAPO I\n\nDISPOSIZIONI GENERALI\n\nArticolo 1\n\nOggetto\n\n1.   Il presente regolamento stabilisce norme.\n\n"
            "CAPO II\n\nREGISTRAZIONE\n\nSezione 1\n\nProcedura di registrazione\n\nArticolo 2\n\nObbligo di registrazione\n\n"
            "1.   Il locatore si registra.\n\nArticolo 3\n\nProcedura\n\n1.   La domanda è presentata online.\n\n"
            "Sezione 2\n\nCategorie di locatori\n\nArticolo 4\n\nPiccoli locatori\n\n1.   Un locatore con due unità.\n")
    tree = parse_structure(text)
    assert [n.kind for n in tree.children] == ["preamble", "recitals", "chapter", "chapter"]
    assert [c.label for c in tree.children[1].children] == ["(1)", "(2)"]
    chapter = tree.children[3]
    assert [(n.kind, n.label) for n in chapter.children] == [("section", "1"), ("section", "2")]
    assert [(n.kind, n.label) for n in chapter.children[0].children] == [("article", "2"), ("article", "3")]
    assert [(n.kind, n.label, n.title) for n in chapter.children[1].children] == [("article", "4", "Piccoli locatori")]
