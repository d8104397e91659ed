"""An Italian contract that numbers its articles in three styles ("Art. 1)", "ARTICOLO 3 - DURATA",
"4 - Recesso", "5. Foro competente"): five articles, none of them a comma of another."""

from __future__ import annotations

from pathlib import Path

from legalsearch.parse import parse_structure

TEXT = (Path(__file__).parent / "data" / "contratto-stili-misti.txt").read_text(encoding="utf-8")


def test_five_articles_in_three_styles():
    articles = [(n.kind, n.label, n.title) for n in parse_structure(TEXT, "it").children if n.label]
    assert articles == [("article", "1", "Oggetto"), ("article", "2", "Corrispettivo"), ("article", "3", "DURATA"),
                        ("article", "4", "Recesso"), ("article", "5", "Foro competente")]


def test_an_articles_own_commi_stay_commi():
    text = ("CONTRATTO DI LOCAZIONE\n\nArt. 3 – Durata\n1. Il contratto dura quattro anni.\n2. Si rinnova per altri "
            "quattro anni.\n3. Ciascuna parte può disdire con preavviso.\n4. La disdetta è inviata per PEC.\n\n"
            "Art. 4 – Canone\n1. Il canone è di euro 900 al mese.\n")
    tree = parse_structure(text, "it")
    art3 = next(n for n in tree.walk() if n.kind == "article" and n.label == "3")
    assert [(c.kind, c.label) for c in art3.children] == [("comma", "1"), ("comma", "2"), ("comma", "3"), ("comma", "4")]
