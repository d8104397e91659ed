"""LegalBench-RAG loader on a tiny directory built per test, plus the real development copy."""

import json
from pathlib import Path

import pytest
from legalsearch.evaluation.legalbench import (
    BenchmarkError,
    benchmark_file_path,
    corpus_files,
    corpus_fingerprint,
    load_benchmark,
    split_queries,
)
from legalsearch.evaluation.metrics import EvaluationError, Span

REAL_DATA = Path("/work/shared/data/legalbench-rag")

NDA = "MUTUAL NDA. The Recipient shall keep the Information confidential for 5 years."
DPA = "PRIVACY POLICY. We share data with processors. You may opt out at any time."


def _snippet(path: str, text: str, answer: str) -> dict:
    start = text.index(answer)
    return {"file_path": path, "span": [start, start + len(answer)], "answer": answer}


def _write_dataset(root: Path, nda_tests: list[dict] | None = None) -> Path:
    for sub, name, text in [("nli", "a.txt", NDA), ("nli", "b.txt", NDA.upper()), ("pqa", "p.txt", DPA)]:
        (root / "corpus" / sub).mkdir(parents=True, exist_ok=True)
        (root / "corpus" / sub / name).write_text(text, encoding="utf-8")
    (root / "benchmarks").mkdir(exist_ok=True)
    if nda_tests is None:
        nda_tests = [
            {"query": "How long?", "snippets": [_snippet("nli/a.txt", NDA, "for 5 years")]},
            {"query": "Who?", "snippets": [_snippet("nli/a.txt", NDA, "The Recipient")]},
            {"query": "What?", "snippets": [_snippet("nli/a.txt", NDA, "MUTUAL NDA")]},
        ]
    pqa_tests = [
        {
            "query": "Opt out?",
            "snippets": [
                _snippet("pqa/p.txt", DPA, "We share data"),
                _snippet("pqa/p.txt", DPA, "opt out at any time"),
            ],
        }
    ]
    (root / "benchmarks" / "nli.json").write_text(json.dumps({"tests": nda_tests}))
    (root / "benchmarks" / "pqa.json").write_text(json.dumps({"tests": pqa_tests}))
    return root


def test_load_benchmark_tiny(tmp_path):
    data = _write_dataset(tmp_path)
    queries = load_benchmark(data)
    assert [q.query_id for q in queries] == ["nli-0000", "nli-0001", "nli-0002", "pqa-0000"]
    start = NDA.index("for 5 years")
    assert queries[0].gold == (Span("nli/a.txt", start, start + len("for 5 years")),)
    assert queries[3].subset == "pqa" and len(queries[3].gold) == 2


def test_subsets_and_limit(tmp_path):
    data = _write_dataset(tmp_path)
    queries = load_benchmark(data, subsets=["pqa", "nli"], limit_per_subset=1)
    assert [q.query_id for q in queries] == ["pqa-0000", "nli-0000"]
    with pytest.raises(BenchmarkError, match="unknown subset"):
        load_benchmark(data, subsets=["cuad"])


def test_span_mismatch_names_file_and_query(tmp_path):
    bad = {
        "query": "Shifted",
        "snippets": [{"file_path": "nli/a.txt", "span": [0, 10], "answer": "UTUAL NDA."}],
    }
    data = _write_dataset(tmp_path, nda_tests=[bad])
    with pytest.raises(BenchmarkError, match=r"nli.json query nli-0000: span \[0, 10\) of nli/a.txt"):
        load_benchmark(data)


def test_span_past_end_of_document(tmp_path):
    bad = {"query": "Past", "snippets": [{"file_path": "nli/a.txt", "span": [0, 10_000], "answer": NDA}]}
    with pytest.raises(BenchmarkError, match="does not match"):
        load_benchmark(_write_dataset(tmp_path, nda_tests=[bad]))


def test_missing_document(tmp_path):
    bad = {"query": "Gone", "snippets": [{"file_path": "nli/zzz.txt", "span": [0, 1], "answer": "M"}]}
    with pytest.raises(BenchmarkError, match="missing document"):
        load_benchmark(_write_dataset(tmp_path, nda_tests=[bad]))


def test_malformed_benchmark_file(tmp_path):
    data = _write_dataset(tmp_path)
    (data / "benchmarks" / "nli.json").write_text(json.dumps({"tests": [{"query": "no snippets"}]}))
    with pytest.raises(BenchmarkError, match="not a LegalBench-RAG benchmark file"):
        load_benchmark(data)


def test_not_a_benchmark_directory(tmp_path):
    with pytest.raises(BenchmarkError, match="does not exist"):
        load_benchmark(tmp_path)


def test_corpus_files_scopes(tmp_path):
    data = _write_dataset(tmp_path)
    queries = load_benchmark(data)
    referenced = corpus_files(data, "referenced", queries)
    assert [benchmark_file_path(data, p) for p in referenced] == ["nli/a.txt", "pqa/p.txt"]
    everything = corpus_files(data, "all", queries)
    assert [benchmark_file_path(data, p) for p in everything] == ["nli/a.txt", "nli/b.txt", "pqa/p.txt"]
    nli_only = [q for q in queries if q.subset == "nli"]
    look_alikes = corpus_files(data, "subsets", nli_only)  # every NDA of the queried sub-corpus
    assert [benchmark_file_path(data, p) for p in look_alikes] == ["nli/a.txt", "nli/b.txt"]
    with pytest.raises(BenchmarkError, match="unknown corpus scope"):
        corpus_files(data, "some", queries)  # type: ignore[arg-type]


def test_corpus_fingerprint_changes_with_content(tmp_path):
    data = _write_dataset(tmp_path)
    files = corpus_files(data, "all", [])
    before = corpus_fingerprint(data, files)
    assert corpus_fingerprint(data, list(reversed(files))) == before
    (data / "corpus" / "nli" / "b.txt").write_text("changed", encoding="utf-8")
    assert corpus_fingerprint(data, files) != before


def test_split_queries_is_deterministic_and_stratified(tmp_path):
    queries = load_benchmark(_write_dataset(tmp_path))
    dev, held_out = split_queries(queries, dev_fraction=0.5, seed=7)
    assert split_queries(queries, dev_fraction=0.5, seed=7) == (dev, held_out)
    assert sorted(q.query_id for q in dev + held_out) == sorted(q.query_id for q in queries)
    # round(3 * 0.5) = 2 of nli, round(1 * 0.5) = 0 of pqa
    assert sum(q.subset == "nli" for q in dev) == 2
    assert sum(q.subset == "pqa" for q in dev) == 0
    assert split_queries(queries, 0.0, seed=1) == ([], queries)
    with pytest.raises(EvaluationError, match="dev_fraction"):
        split_queries(queries, 1.5, seed=1)


@pytest.mark.skipif(not REAL_DATA.is_dir(), reason="LegalBench-RAG development copy not present")
def test_real_legalbench_rag_counts():
    queries = load_benchmark(REAL_DATA)
    assert len(queries) == 4 * 194
    assert {q.subset for q in queries} == {"contractnli", "cuad", "maud", "privacy_qa"}
    referenced = corpus_files(REAL_DATA, "referenced", queries)
    assert len(referenced) == 7 + 18 + 29 + 18
    assert len(corpus_files(REAL_DATA, "all", queries)) == 7 + 95 + 100 + 30
    dev, held_out = split_queries(queries, dev_fraction=0.25, seed=0)
    assert (len(dev), len(held_out)) == (4 * round(194 * 0.25), 4 * (194 - round(194 * 0.25)))
