"""Load LegalBench-RAG shaped benchmarks: ``corpus/<sub>/<name>.txt`` plus
``benchmarks/<sub>.json`` (``{"tests": [{"query", "snippets": [{"file_path", "span", "answer"}]}]}``).

Works on any directory of that shape (the development copy or a held-out set). Every gold
span is checked against the document text on load, so offsets that drifted (a re-exported
corpus, a different newline convention) fail loudly instead of scoring silently wrong.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from legalsearch.evaluation.metrics import EvaluationError, Span
from pydantic import BaseModel, ConfigDict, ValidationError

CorpusScope = Literal["referenced", "subsets", "all"]


class BenchmarkError(EvaluationError):
    """A benchmark directory or file is malformed, or a gold span does not match its text."""


@dataclass(frozen=True)
class BenchQuery:
    """One benchmark query and its gold spans (file paths relative to ``corpus/``)."""

    query_id: str
    subset: str
    query: str
    gold: tuple[Span, ...]


class _Snippet(BaseModel):
    model_config = ConfigDict(extra="ignore")
    file_path: str
    span: tuple[int, int]
    answer: str


class _Test(BaseModel):
    model_config = ConfigDict(extra="ignore")
    query: str
    snippets: list[_Snippet]


class _BenchmarkFile(BaseModel):
    model_config = ConfigDict(extra="ignore")
    tests: list[_Test]


def read_document(path: Path) -> str:
    """A corpus document's text exactly as the benchmark's offsets expect it (UTF-8, Python's
    default newline handling). Ingestion should read documents the same way."""
    return path.read_text(encoding="utf-8")


def corpus_path(data_dir: Path, file_path: str) -> Path:
    """Absolute path of a benchmark ``file_path`` (``"cuad/X.txt"``), kept inside ``corpus/``."""
    corpus = (Path(data_dir) / "corpus").resolve()
    path = (corpus / file_path).resolve()
    if not path.is_relative_to(corpus):
        raise BenchmarkError(f"file_path {file_path!r} points outside {corpus}")
    return path


def benchmark_file_path(data_dir: Path, path: Path) -> str:
    """Inverse of :func:`corpus_path`: the ``"<sub>/<name>.txt"`` name a Span must carry."""
    corpus = (Path(data_dir) / "corpus").resolve()
    try:
        return Path(path).resolve().relative_to(corpus).as_posix()
    except ValueError as e:
        raise BenchmarkError(f"{path} is not under {corpus}") from e


def available_subsets(data_dir: Path) -> list[str]:
    """Names of the ``benchmarks/*.json`` files, sorted."""
    bench_dir = Path(data_dir) / "benchmarks"
    if not bench_dir.is_dir():
        raise BenchmarkError(f"{bench_dir} does not exist: point data_dir at a LegalBench-RAG directory")
    return sorted(p.stem for p in bench_dir.glob("*.json"))


def _parse_file(path: Path) -> _BenchmarkFile:
    try:
        return _BenchmarkFile.model_validate_json(path.read_bytes())
    except ValidationError as e:
        raise BenchmarkError(f"{path} is not a LegalBench-RAG benchmark file: {e}") from e


def load_benchmark(
    data_dir: Path,
    subsets: Sequence[str] | None = None,
    limit_per_subset: int | None = None,
) -> list[BenchQuery]:
    """Load the queries of the given subsets (all by default), verifying every gold span.

    Args:
        data_dir: directory holding ``benchmarks/`` and ``corpus/``.
        subsets: subset names (``benchmarks/<name>.json``), in the order wanted.
        limit_per_subset: keep only the first N queries of each subset (file order).

    Returns:
        Queries with ids ``"<subset>-<index in file, 4 digits>"``, stable across limits.

    Raises:
        BenchmarkError: unknown subset, malformed file, missing document, or a snippet whose
            ``corpus_text[start:end]`` differs from its ``answer``.
    """
    data_dir = Path(data_dir)
    known = available_subsets(data_dir)
    wanted = list(subsets) if subsets is not None else known
    unknown = [s for s in wanted if s not in known]
    if unknown:
        raise BenchmarkError(f"unknown subset(s) {unknown}; available: {known}")
    if limit_per_subset is not None and limit_per_subset < 0:
        raise BenchmarkError(f"limit_per_subset must be >= 0, got {limit_per_subset}")

    texts: dict[str, str] = {}
    queries: list[BenchQuery] = []
    for subset in wanted:
        bench_path = data_dir / "benchmarks" / f"{subset}.json"
        tests = _parse_file(bench_path).tests[:limit_per_subset]
        for index, test in enumerate(tests):
            query_id = f"{subset}-{index:04d}"
            gold = []
            for snippet in test.snippets:
                if snippet.file_path not in texts:
                    doc = corpus_path(data_dir, snippet.file_path)
                    if not doc.is_file():
                        raise BenchmarkError(
                            f"{bench_path.name} query {query_id} references missing document {doc}"
                        )
                    texts[snippet.file_path] = read_document(doc)
                start, end = snippet.span
                text = texts[snippet.file_path]
                if not 0 <= start <= end <= len(text) or text[start:end] != snippet.answer:
                    raise BenchmarkError(
                        f"{bench_path.name} query {query_id}: span [{start}, {end}) of "
                        f"{snippet.file_path} does not match its answer "
                        f"(text {text[start:end][:60]!r} vs answer {snippet.answer[:60]!r}); "
                        "the corpus and the benchmark file are out of sync"
                    )
                gold.append(Span(snippet.file_path, start, end))
            queries.append(BenchQuery(query_id, subset, test.query, tuple(gold)))
    return queries


def corpus_files(data_dir: Path, scope: CorpusScope, queries: Iterable[BenchQuery]) -> list[Path]:
    """The documents to index, sorted.

    ``referenced``: only the documents some loaded query cites (the benchmark's and the SAC
    paper's setting). ``subsets``: every document of the sub-corpora the queries come from
    (``--subset contractnli``: all 95 NDAs, the look-alikes of the referenced 18).
    ``all``: every ``corpus/*/*.txt`` (look-alike distractors of every kind included).
    """
    data_dir = Path(data_dir)
    if scope == "referenced":
        names = sorted({span.file_path for q in queries for span in q.gold})
        return [corpus_path(data_dir, name) for name in names]
    if scope == "subsets":
        corpus = (data_dir / "corpus").resolve()
        subsets = sorted({span.file_path.split("/")[0] for q in queries for span in q.gold})
        return sorted(p for sub in subsets for p in (corpus / sub).glob("*.txt"))
    if scope == "all":
        corpus = (data_dir / "corpus").resolve()
        if not corpus.is_dir():
            raise BenchmarkError(f"{corpus} does not exist")
        return sorted(corpus.glob("*/*.txt"))
    raise BenchmarkError(f"unknown corpus scope {scope!r}: use 'referenced' or 'all'")


def corpus_fingerprint(data_dir: Path, files: Iterable[Path]) -> str:
    """Stable hash of the documents' names and bytes: with :func:`config_fingerprint` it says
    whether an existing index still matches the corpus."""
    digest = hashlib.sha256()
    for path in sorted(Path(p) for p in files):
        digest.update(benchmark_file_path(data_dir, path).encode())
        digest.update(b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def split_queries(
    queries: Sequence[BenchQuery], dev_fraction: float, seed: int
) -> tuple[list[BenchQuery], list[BenchQuery]]:
    """Deterministic dev / held-out split, stratified by subset.

    Each subset contributes ``round(n * dev_fraction)`` queries to dev, drawn with
    ``random.Random(seed)``; both parts keep the input order. Tune on dev, report on the rest.
    """
    if not 0.0 <= dev_fraction <= 1.0:
        raise EvaluationError(f"dev_fraction must be within [0, 1], got {dev_fraction}")
    rng = random.Random(seed)
    by_subset: dict[str, list[str]] = {}
    for q in queries:
        by_subset.setdefault(q.subset, []).append(q.query_id)
    dev_ids: set[str] = set()
    for subset in sorted(by_subset):
        ids = sorted(by_subset[subset])
        rng.shuffle(ids)
        dev_ids.update(ids[: round(len(ids) * dev_fraction)])
    dev = [q for q in queries if q.query_id in dev_ids]
    held_out = [q for q in queries if q.query_id not in dev_ids]
    return dev, held_out
