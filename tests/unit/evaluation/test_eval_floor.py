"""The plain-BM25 floor: the natural-unit splitter, the Okapi BM25 scorer, the hit rule and the
gold / LegalBench runs over hand-written documents (pure logic, no node, no model)."""

from datetime import date
from math import log

import pytest
from legalsearch.evaluation.floor import (
    BM25,
    FloorDocument,
    FloorGoldSearcher,
    FloorIndex,
    FloorRetriever,
    GoldPassages,
    first_hit_rank,
    floor_documents,
    hit_figures,
    legalbench_floor_table,
    merged,
    span_hits,
    split_units,
    tokenize,
)
from legalsearch.evaluation.gold import GoldItem, score_gold
from legalsearch.evaluation.legalbench import BenchQuery
from legalsearch.evaluation.metrics import Span
from legalsearch.evaluation.runner import run_gold, run_legalbench

STATUTE = """Widget Act 2020

PART 1
GENERAL

1 Application
(1) This Act applies to widgets.
(2) Section 3 applies to gadgets too.

2 Interpretation
In this Act "widget" means a small device.

3 Sale of widgets
(1) A widget may be sold only by a licensed dealer.
Section 2 is to be read with this section.

SCHEDULE 1
FEES

1 The fee is ten pounds.
"""

CONTRACT_IT = """CONTRATTO DI FORNITURA

tra le Parti.

Art. 1 – Oggetto
1. Il Fornitore consegna i prodotti.
2. Le consegne avvengono a Milano.

Art. 2 – Penale
1. In caso di ritardo è dovuta una penale del 2%.
2. Si veda l'art. 1, comma 2.

Allegato A – Specifiche
1. Sensori.
"""


def _labels(text):
    return [(label, text[a:b].split("\n")[0]) for a, b, label in split_units(text)]


# --------------------------------------------------------------------------- splitter


def test_a_statute_is_cut_at_its_numbered_sections_and_schedules_not_at_subsections():
    units = _labels(STATUTE)
    assert [label for label, _ in units] == [None, "1", "2", "3", "1"]
    assert [first for _, first in units] == ["Widget Act 2020", "1 Application", "2 Interpretation",
                                             "3 Sale of widgets", "SCHEDULE 1"]
    schedule = split_units(STATUTE)[-1]
    assert STATUTE[schedule[0]:schedule[1]].endswith("The fee is ten pounds.")  # the heading joined its body


def test_lone_headings_join_the_next_unit_and_references_are_not_headings():
    text = "1. DEFINITIONS\n\n1.1 Words mean things.\n\n1.2 Section 4 is referred to here.\n\n2. TERM\n\n2.1 It lasts."
    units = split_units(text)
    assert [label for *_, label in units] == ["1", "1.2", "2"]
    first = text[units[0][0]:units[0][1]]
    assert first.startswith("1. DEFINITIONS") and "1.1 Words" in first


def test_articles_win_over_their_numbered_paragraphs_and_annexes_start_a_unit():
    units = split_units(CONTRACT_IT)
    assert [label for *_, label in units] == [None, "1", "2", "A"]
    art2 = CONTRACT_IT[units[2][0]:units[2][1]]
    assert art2.startswith("Art. 2 – Penale") and "2. Si veda" in art2


def test_a_cited_subsection_or_a_lower_case_continuation_is_no_heading():
    text = ("Section 1 Scope\nIt applies.\n\nSection 2 Terms\nSection 8 is satisfied when paid.\n\n"
            "SCHEDULE 1\nSection 1(2)\n\n1 An item.\n")
    labels = [label for *_, label in split_units(text)]
    assert labels == ["1", "2", "1"]


def test_without_headings_blank_line_paragraphs_else_lines():
    text = "WHO WE ARE\n\nWe are a company.\n\nWHAT WE KEEP\n\nYour name and e-mail."
    units = split_units(text)
    assert [text[a:b] for a, b, _ in units] == ["WHO WE ARE\n\nWe are a company.",
                                               "WHAT WE KEEP\n\nYour name and e-mail."]
    lines = "We collect data.\nWe keep it for a year.\nYou may ask for a copy."
    assert [lines[a:b] for a, b, _ in split_units(lines)] == lines.split("\n")


def test_units_cover_every_non_blank_character_once_in_order():
    for text in (STATUTE, CONTRACT_IT, "one line only"):
        units = split_units(text)
        covered = "".join(text[a:b] for a, b, _ in units)
        assert "".join(covered.split()) == "".join(text.split())
        assert all(units[i][1] <= units[i + 1][0] for i in range(len(units) - 1))


# --------------------------------------------------------------------------- tokens and BM25


def test_tokenize_lowercases_and_stems_by_language():
    assert tokenize("Terminations of the AGREEMENT", "en") == ["termin", "of", "the", "agreement"]
    assert tokenize("Le penali dell'Appaltatore", "it")[:3] == ["le", "penal", "dell"]
    assert tokenize("penali", "it") == tokenize("penale", "it") != tokenize("penali", "en")


def test_bm25_matches_the_okapi_formula():
    docs = [["a", "b", "b"], ["b", "c"], ["c", "c", "c", "d"]]
    bm = BM25(docs)
    avgdl = 3.0
    idf_b = log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    expected0 = idf_b * 2 * 2.2 / (2 + 1.2 * (1 - 0.75 + 0.75 * 3 / avgdl))
    expected1 = idf_b * 1 * 2.2 / (1 + 1.2 * (1 - 0.75 + 0.75 * 2 / avgdl))
    scores = bm.scores({"en": ["b", "b"]})  # a repeated question term counts once
    assert scores[0] == pytest.approx(expected0)
    assert scores[1] == pytest.approx(expected1)
    assert 2 not in scores
    assert [i for i, _ in bm.top({"en": ["c", "d"]}, 2)] == [2, 1]


def test_bm25_scores_a_unit_only_with_the_question_in_its_own_language():
    bm = BM25([["penal"], ["penal"]], ["it", "en"])
    assert set(bm.scores({"it": ["penal"]})) == {0}


def test_bm25_ties_keep_document_order_and_filters_apply_after_scoring():
    bm = BM25([["x"], ["x"], ["x", "y"]])
    assert [i for i, _ in bm.top({"en": ["x"]}, 3)][:2] == [0, 1]
    assert [i for i, _ in bm.top({"en": ["x"]}, 3, allowed=lambda i: i != 0)] == [1, 2]


# --------------------------------------------------------------------------- hits


def test_a_span_hits_when_the_overlap_is_half_of_the_shorter():
    passage = [(100, 200)]
    assert span_hits((120, 180), passage)  # inside
    assert span_hits((0, 1000), passage)  # an article holding the clause
    assert span_hits((150, 260), passage)  # half of the passage
    assert not span_hits((190, 400), passage)  # grazes it
    assert not span_hits((300, 400), passage)
    assert span_hits((150, 160), [(100, 155), (158, 300)])  # intervals of one passage add up


def test_merged_joins_overlapping_and_close_intervals():
    assert merged([(10, 20), (0, 5), (19, 30)]) == [(0, 5), (10, 30)]
    assert merged([(0, 5), (8, 10)], gap=4) == [(0, 10)]


def test_first_hit_rank_and_hit_figures_on_legalbench_spans():
    gold = [Span("a.txt", 100, 200)]
    retrieved = [Span("b.txt", 100, 200), Span("a.txt", 190, 400), Span("a.txt", 0, 1000)]
    assert first_hit_rank(retrieved, gold) == 3
    rows = [{"retrieved": [{"file_path": s.file_path, "start": s.start, "end": s.end} for s in retrieved],
             "gold": [{"file_path": "a.txt", "start": 100, "end": 200}]},
            {"retrieved": [], "gold": [{"file_path": "a.txt", "start": 0, "end": 5}]}]
    figures = hit_figures(rows)
    assert figures == {"hit@1": 0.0, "hit@5": 0.5, "hit@10": 0.5, "mrr": pytest.approx(1 / 6)}


# --------------------------------------------------------------------------- runs


def _docs():
    v1 = FloorDocument("widget-act", "2020", STATUTE, "en", date(2020, 1, 1), date(2024, 1, 1))
    v2 = FloorDocument("widget-act", "2024", STATUTE.replace("licensed dealer", "registered seller"), "en",
                       date(2024, 1, 1), None)
    secret = FloorDocument("memo", "1", "Our advice: widgets sold by a licensed dealer are risky.", "en",
                           public=False, acl=("legal",))
    it = FloorDocument("fornitura", "1", CONTRACT_IT, "it")
    return [v1, v2, secret, it]


def test_the_index_respects_as_of_and_groups():
    index = FloorIndex(_docs())
    anyone = index.search("licensed dealer", 10)
    assert {u.doc_id for u, _ in anyone} == {"widget-act", "memo"}
    dated = index.search("licensed dealer widget", 10, as_of="2025-06-01", groups=())
    assert {(u.doc_id, u.version) for u, _ in dated} == {("widget-act", "2024")}
    legal = index.search("licensed dealer", 10, as_of="2021-06-01", groups=["legal"])
    assert {(u.doc_id, u.version) for u, _ in legal} == {("widget-act", "2020"), ("memo", "1")}
    assert index.search("penale ritardo", 1)[0][0].label == "2"


class _Parsed:
    """Stands in for a ParsedDocument where GoldPassages reads it (labelled intervals given)."""


def _passages(docs):
    labelled = {}
    for d in docs:
        units = split_units(d.text)
        labelled[(d.doc_id, d.version)] = {label: [(a, b)] for a, b, label in units if label}
    return GoldPassages(labelled, {(d.doc_id, d.version): len(d.text) for d in docs})


def test_gold_scoring_of_the_floor_by_character_overlap():
    docs = _docs()
    items = [
        GoldItem(id="q1", query="Who may sell a widget?", type="conceptual", language="en",
                 expected=[{"doc_id": "widget-act", "section": "s. 3", "version": "2020"}], as_of="2021-01-01",
                 must_not=[{"doc_id": "memo"}]),
        GoldItem(id="q2", query="penale per ritardo", type="conceptual", language="it",
                 expected=[{"doc_id": "fornitura", "section": "art. 2"}]),
        GoldItem(id="q3", query="registered seller", type="date-sensitive", language="en",
                 expected=[{"doc_id": "widget-act", "section": "3", "version": "2020"}], as_of="2025-01-01"),
    ]
    results = run_gold(items, FloorGoldSearcher(FloorIndex(docs)), k=5, progress=False)
    assert results["q1"][0]["doc_id"] == "widget-act" and results["q1"][0]["char_start"] is not None
    scores = score_gold(items, results, match=_passages(docs).matcher())
    rows = {r["id"]: r for r in scores["per_item"]}
    assert rows["q1"]["first_rank"] == 1
    assert rows["q2"]["first_rank"] == 1
    assert rows["q3"]["first_rank"] is None  # as_of 2025 hides the 2020 text the item expects
    assert scores["must_not"]["violations"] == 0  # the memo is restricted, the item has no group
    # by label, the floor's own labels would not even match "s. 3" of the right version on q3
    assert score_gold(items, results)["overall"]["found"] == 2


def test_gold_passages_locate_sections_versions_and_whole_documents():
    docs = _docs()
    passages = _passages(docs)
    from legalsearch.evaluation.gold import PassageRef

    sec3 = PassageRef(doc_id="widget-act", section="Section 3", version="2024")
    assert passages.intervals(sec3, "widget-act", "2020") is None
    assert passages.intervals(sec3, "widget-act", "2024")
    assert passages.located(PassageRef(doc_id="memo"))
    assert not passages.located(PassageRef(doc_id="widget-act", section="99"))
    match = passages.matcher()
    assert not match(PassageRef(doc_id="memo"), {"doc_id": "memo", "version": "1"})  # no characters: no hit


def test_floor_retriever_on_legalbench_queries_and_its_table():
    docs = [FloorDocument("cuad/a.txt", "1", "1. TERM\nThe term is five years.\n2. FEES\nFees are due monthly."),
            FloorDocument("cuad/b.txt", "1", "1. TERM\nThe term is one year.\n2. LAW\nEnglish law governs.")]
    text = docs[0].text
    start = text.index("2. FEES")
    queries = [BenchQuery("cuad-0000", "cuad", "When are fees due?", (Span("cuad/a.txt", start, len(text)),)),
               BenchQuery("cuad-0001", "cuad", "Which law governs?", (Span("cuad/b.txt", docs[1].text.index("2. LAW"),
                                                                         len(docs[1].text)),))]
    retriever = FloorRetriever(FloorIndex(docs))
    assert retriever.retrieve("fees monthly", 1) == [Span("cuad/a.txt", start, len(text))]
    _, rows = run_legalbench(queries, retriever, ks=(1, 2), budgets=(2000, 8000), progress=False)
    assert hit_figures(rows)["hit@1"] == 1.0
    table = legalbench_floor_table({"bm25-units": rows}, queries)
    assert "| bm25-units | all (2) |" in table and "100.00" in table


def test_gold_floor_table_marks_the_slices_below_the_floor():
    def row(i, rank, cls, lang="en"):
        return {"id": i, "scored": True, "first_rank": rank, "class": cls, "language": lang, "type": "conceptual"}

    scores = {"bm25-units": {"per_item": [row("a", 1, "x"), row("b", 2, "y")]},
              "default": {"per_item": [row("a", 3, "x"), row("b", 1, "y")]}}
    from legalsearch.evaluation.floor import gold_floor_markdown

    lines = {line.split(" | ")[0].lstrip("| "): line for line in gold_floor_markdown(scores).splitlines()}
    assert "100.0 / 100.0 / 100.0 / 100.0 |" in lines["class x"] and "0.0 / 100.0 / 100.0 / 33.3 **below**" in lines["class x"]
    assert "**below**" not in lines["class y"]
    assert "**below**" in lines["all"]  # MRR 75.0 against 66.7
    assert gold_floor_markdown({"default": scores["default"]}) == ""


# --------------------------------------------------------------------------- the CLI, floor alone (no node)


def _corpus(tmp_path):
    import json

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "widget-act.txt").write_text(STATUTE, encoding="utf-8")
    (corpus / "widget-act.meta.json").write_text(json.dumps(
        {"doc_id": "widget-act", "title": "Widget Act 2020", "doc_type": "statute", "language": "en",
         "public": True}), encoding="utf-8")
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "q1", "query": "Who may sell a widget?", "type": "conceptual",
                                "language": "en", "expected": [{"doc_id": "widget-act", "section": "3"}]}) + "\n")
    return corpus, gold


def test_eval_gold_baseline_only_scores_the_floor_without_a_node(tmp_path):
    import json

    from click.testing import CliRunner
    from legalsearch import cli

    corpus, gold = _corpus(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli.main, ["eval", "gold", str(gold), "--baseline", "bm25-units", "--baseline-only",
                                           "--corpus", str(corpus), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    scores = json.loads((out / "gold.json").read_text())
    assert list(scores) == ["bm25-units"]
    assert scores["bm25-units"]["per_item"][0]["first_rank"] is not None
    info = json.loads((out / "floor.json").read_text())
    assert info["documents"] == 1 and info["not_located"] == [] and info["not_loaded"] == []
    assert "| all | 1 |" in (out / "floor.md").read_text()


@pytest.mark.parametrize("args, message", [
    (["--baseline", "bm25-units"], "--corpus"),
    (["--baseline-only"], "needs --baseline"),
    (["--baseline", "bm25-units", "--baseline-only", "--corpus", "CORPUS", "--config", "CONFIG"], "drop --config"),
])
def test_eval_gold_baseline_usage_errors(tmp_path, args, message):
    from click.testing import CliRunner
    from legalsearch import cli

    corpus, gold = _corpus(tmp_path)
    config = tmp_path / "c.json"
    config.write_text("{}")
    args = [str(corpus) if a == "CORPUS" else str(config) if a == "CONFIG" else a for a in args]
    result = CliRunner().invoke(cli.main, ["eval", "gold", str(gold), *args, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "o").exists()  # nothing half-written


def test_eval_legalbench_baseline_only_writes_the_floor_table_without_a_node(tmp_path):
    import json

    from click.testing import CliRunner
    from legalsearch import cli

    data = tmp_path / "lb"
    (data / "corpus" / "cuad").mkdir(parents=True)
    (data / "benchmarks").mkdir()
    texts = {"a.txt": "1. TERM\nThe term is five years.\n2. FEES\nFees are due monthly.\n",
             "b.txt": "1. TERM\nThe term is one year.\n2. LAW\nEnglish law governs.\n"}
    for name, text in texts.items():
        (data / "corpus" / "cuad" / name).write_text(text, encoding="utf-8")
    a = texts["a.txt"]
    start = a.index("Fees are")
    b = texts["b.txt"]
    law = b.index("English law")
    tests = [{"query": "When are fees due?", "snippets": [
        {"file_path": "cuad/a.txt", "span": [start, len(a) - 1], "answer": a[start:len(a) - 1]}]},
        {"query": "Which law governs?", "snippets": [
            {"file_path": "cuad/b.txt", "span": [law, len(b) - 1], "answer": b[law:len(b) - 1]}]}]
    (data / "benchmarks" / "cuad.json").write_text(json.dumps({"tests": tests}), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(cli.main, ["eval", "legalbench", "--data", str(data), "--baseline", "bm25-units",
                                           "--baseline-only", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    results = json.loads((out / "results.json").read_text())
    assert list(results) == ["bm25-units"] and results["bm25-units"]["average"]["recall@1"] == 1.0
    table = (out / "floor.md").read_text()
    assert "| bm25-units | all (2) |" in table and "| bm25-units | held-out (1) |" in table
    assert json.loads((out / "indices.json").read_text())["bm25-units"]["units"] == 4


def test_the_floor_reads_documents_without_an_acl_as_ingest_public_does():
    from legalsearch.documents.models import DocumentMeta
    from legalsearch.load import build_document

    def doc(doc_id, **meta):
        return build_document("1. Term\nThe licence lasts five years.\n",
                              DocumentMeta(doc_id=doc_id, title=doc_id, language="en", doc_type="contract", **meta))

    parsed = [doc("plain"), doc("closed", public=False), doc("team", acl=["deal-team"])]
    assert [d.public for d in floor_documents(parsed)] == [False, False, False]
    # --public fills the gap only: an explicit "public": false and an acl stand
    assert [(d.public, d.acl) for d in floor_documents(parsed, public_if_no_acl=True)] == [
        (True, ()), (False, ()), (False, ("deal-team",))]
