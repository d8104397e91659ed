"""The structure parser's self-checks and its fallback to units it can trust."""

from __future__ import annotations

from legalsearch.documents.models import DocumentMeta, StructureNode
from legalsearch.inspection import render_inspection
from legalsearch.load.files import build_document
from legalsearch.parse.checks import check_structure, parse_checked


def node(kind, label, start, end, title=None, children=()):
    heading = f"{kind.capitalize()} {label}" if label else None
    return StructureNode(kind, label, title, heading, start, end, list(children))


def articles_text(numbers, body="The holder of the right may exercise it in good faith."):
    return "".join(f"Article {n} – Title {n}\n{body}\n\n" for n in numbers)


def test_clean_statute_has_no_doubt():
    tree, flags = parse_checked(articles_text(range(1, 11)))
    assert flags == []
    assert [n.label for n in tree.children] == [str(n) for n in range(1, 11)]


def test_sentence_titles_are_flagged_and_dropped():
    text = "".join(f"{n}. The party shall not disclose the information received under this agreement.\n"
                   f"It keeps it safe for ten years after the end of the term.\n\n" for n in range(1, 6))
    tree = StructureNode("document", None, None, None, 0, len(text), [])
    pos, children = 0, []
    for n in range(1, 6):
        end = text.index("\n\n", pos)
        children.append(node("section", str(n), pos, end,
                             title="The party shall not disclose the information received under this agreement"))
        pos = end + 2
    tree = StructureNode("document", None, None, None, 0, len(text), children)
    checked, flags = check_structure(tree, text)
    assert flags == ["structure_doubt:sentence_titles:5"]
    assert [c.title for c in checked.children] == [None] * 5
    assert [c.label for c in checked.children] == ["1", "2", "3", "4", "5"]


def test_titles_that_are_titles_are_kept():
    text = "x" * 100
    children = [node("section", str(n), n * 10, n * 10 + 9, title="Limitation of Liability") for n in range(1, 6)]
    _, flags = check_structure(StructureNode("document", None, None, None, 0, 100, children), text)
    assert flags == []


def test_inverted_nesting_falls_back_to_flat_units():
    text = articles_text(range(1, 7))
    starts = [text.index(f"Article {n} ") for n in range(1, 7)] + [len(text)]
    arts = [node("article", str(n), starts[n - 1], starts[n] - 2) for n in range(1, 7)]
    # sections inside articles in one place, articles inside sections in another
    sec_a = node("section", "1", arts[1].char_start + 20, arts[1].char_end)
    art2 = StructureNode("article", "2", None, "Article 2", arts[1].char_start, arts[1].char_end, [sec_a])
    sec_b = StructureNode("section", "2", None, "Section 2", arts[2].char_start, arts[5].char_end, arts[2:])
    tree = StructureNode("document", None, None, None, 0, len(text), [arts[0], art2, sec_b])
    checked, flags = check_structure(tree, text)
    assert "structure_doubt:nesting:article>section,section>article" in flags
    assert flags[-1] == "structure_fallback:units:article"
    assert [(c.kind, c.label) for c in checked.children] == [("article", str(n)) for n in range(1, 7)]
    for child in checked.children:
        assert text[child.char_start:child.char_end].startswith(f"Article {child.label} ")


def test_giant_unit_falls_back():
    small = "A short article that says one thing only.\n"
    text = "".join(f"Article {n} – Title\n{small}\n" for n in range(1, 7))
    text += "Article 7 – Title\n" + ("A very long run of text that the parser could not split. " * 400) + "\n"
    tree, flags = parse_checked(text)
    assert "structure_doubt:giant_unit:art 7" in flags
    assert flags[-1] in ("structure_fallback:units:article", "structure_fallback:paragraphs")


def test_numbering_out_of_order_is_said_and_severe_disorder_falls_back():
    mild = articles_text([1, 2, 3, 4, 5, 3, 6, 7, 2, 8, 9, 4])  # 3 bad steps of 11
    tree, flags = parse_checked(mild)
    assert flags == ["structure_doubt:numbering:3"]  # said; units kept
    assert len(tree.children) == 12
    severe = articles_text([9, 4, 8, 3, 7, 2, 6, 5])
    tree, flags = parse_checked(severe)
    assert "structure_doubt:numbering_severe" in flags
    assert flags[-1].startswith("structure_fallback:")


def test_a_return_to_1_is_a_new_list_not_a_doubt():
    text = articles_text([1, 2, 3, 4, 5]) + "SCHEDULE OF TERMS\n\n" + articles_text([1, 2, 3, 4, 5])
    _, flags = parse_checked(text)
    assert not [f for f in flags if f.startswith("structure_doubt:numbering")]


def test_flags_reach_the_document_and_inspect_output():
    text = articles_text([9, 4, 8, 3, 7, 2, 6, 5])
    doc = build_document(text, DocumentMeta(doc_id="doubt", title="Doubt", language="en"))
    assert "structure_doubt:numbering_severe" in doc.flags
    assert any(f.startswith("structure_fallback:") for f in doc.flags)
    result = {"source_path": "x.txt", "chars": len(text), "origin": "digital", "doc_sha256": "0" * 64,
              "meta": {"doc_id": "doubt", "version": "1", "doc_type": "other", "language": "en",
                       "jurisdiction": None, "valid_from": None, "valid_to": None, "title": "Doubt"},
              "flags": doc.flags, "tree": {"kind": "document", "children": []}, "chunker": "structural",
              "chunks": [], "unresolved_refs": [], "double_signature": None}
    rendered = render_inspection(result)
    assert "structure doubt: half the numbers out of sequence" in rendered
    assert "structure fallback:" in rendered
