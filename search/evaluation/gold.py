"""The project's own gold set: JSONL questions with the passages that answer them, and the
scoring of search hits (shaped like the CLI's ``--json`` hits) against them.

An item with ``"answerable": false`` (and no ``expected``) is a question nothing in the index
answers (off-topic): the abstention evaluation (legalsearch.evaluation.abstain) counts whether
the search says `not_found`; it scores no hit@k.

One object per line::

    {"id": "it-007", "query": "...", "type": "cross-reference", "language": "it",
     "expected": [{"doc_id": "contratto-a", "section": "art. 7", "version": "2"}],
     "expected_xrefs": [{"doc_id": "contratto-a", "section": "12"}],
     "as_of": "2024-01-01", "groups": ["legal"],
     "must_not": [{"doc_id": "privileged-memo"}]}

A hit is correct when its doc_id matches an expected passage and, where the passage gives
them, its section (normalised, see :func:`normalize_section`) and version match too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from statistics import fmean
from typing import Any, Literal

from legalsearch.evaluation.metrics import EvaluationError, first_relevant_rank, paired_p_value, rank_metrics
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

QueryType = Literal["identifier", "conceptual", "date-sensitive", "cross-reference", "off-topic"]
Language = Literal["en", "it"]
DEFAULT_HIT_KS: tuple[int, ...] = (5, 10)
NDCG_K = 10

_SECTION_PREFIX = re.compile(
    r"^\s*(?:articolo|article|art\b\.?|section|sec\b\.?|clause|cl\.|s\.|§+)\s*", re.IGNORECASE
)


class GoldSetError(EvaluationError):
    """A gold-set file is malformed (bad JSON, unknown field, duplicate id)."""


def normalize_section(label: str | None) -> str | None:
    """Comparable form of a section label: ``"Art. 5"``, ``"art.5"`` and ``"5"`` all give
    ``"5"``; ``"Section 14.3"`` gives ``"14.3"``; ``"s.21A"`` gives ``"21a"``.

    Strips (repeatedly) the prefixes articolo / article / art. / section / sec. / clause /
    cl. / s. / §, then every space, a trailing dot, and case. Prefixes that name a different
    kind of unit (schedule, annex, allegato) are kept: "Schedule 1" is not "Section 1".
    """
    if label is None:
        return None
    text = label.strip()
    while True:
        stripped = _SECTION_PREFIX.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    return re.sub(r"\s+", "", text).rstrip(".").lower()


def _version_str(value: Any) -> Any:
    # Versions are labels; "2" in the gold file and 2 in a hit are the same version.
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class PassageRef(BaseModel):
    """A passage a question expects (or must never see): doc_id, optionally section / version."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    doc_id: str = Field(min_length=1)
    section: str | None = None
    version: str | None = None

    @field_validator("version", mode="before")
    @classmethod
    def _coerce_version(cls, value: Any) -> Any:
        return _version_str(value)

    def matches(self, hit: Mapping[str, Any]) -> bool:
        """True when the hit is this passage (doc_id, and section / version where given)."""
        if hit.get("doc_id") != self.doc_id:
            return False
        if self.section is not None and normalize_section(_str_or_none(hit.get("section"))) != (
            normalize_section(self.section)
        ):
            return False
        return self.version is None or _str_or_none(hit.get("version")) == self.version


class XrefRef(PassageRef):
    """A section that should come back through cross-reference expansion."""

    section: str = Field(min_length=1)


class GoldItem(BaseModel):
    """One gold-set question."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str = Field(min_length=1)
    query: str = Field(min_length=1)
    type: QueryType
    language: Language
    expected: list[PassageRef] = []
    expected_xrefs: list[XrefRef] = []
    as_of: str | None = None
    groups: list[str] = []
    must_not: list[PassageRef] = []
    answerable: bool = Field(True, description="false: nothing in the index answers it (an off-topic question, "
                             "no `expected`): the abstention evaluation counts it as flagged when not_found")
    notes: str | None = None
    split: Literal["dev", "held-out"] | None = Field(
        None, description="the half the set's author put it in (a held-out half is run once, its failures unread); "
        "when every item says one, `--split` uses it instead of drawing halves")

    @model_validator(mode="before")
    @classmethod
    def _off_topic_type(cls, data: Any) -> Any:
        # an unanswerable question need not say a type: it has no failure mode of retrieval
        if isinstance(data, dict) and data.get("answerable") is False and "type" not in data:
            return {**data, "type": "off-topic"}
        return data

    @field_validator("as_of")
    @classmethod
    def _iso_date(cls, value: str | None) -> str | None:
        if value is not None:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise ValueError(f"as_of must be YYYY-MM-DD, got {value!r}")
            date.fromisoformat(value)
        return value

    @model_validator(mode="after")
    def _something_to_check(self) -> GoldItem:
        if not self.answerable:
            if self.expected or self.expected_xrefs:
                raise ValueError("an item with answerable false has no 'expected' or 'expected_xrefs' passage")
            return self
        if not self.expected and not self.must_not:
            raise ValueError("an item needs at least one 'expected' or 'must_not' passage")
        return self


_CLASS_TAG = re.compile(r"\[class:\s*([\w-]+)\s*\]")


def item_class(item: GoldItem) -> str | None:
    """The failure class an item was written for: the ``[class:<name>]`` tag of its notes
    (the round-2 gold set tags every item), or None."""
    m = _CLASS_TAG.search(item.notes or "")
    return m.group(1) if m else None


def _str_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def load_gold(path: Path) -> list[GoldItem]:
    """Read and validate a gold-set JSONL file (blank lines are skipped).

    Raises:
        GoldSetError: naming the file and line of the first bad item or duplicate id.
    """
    path = Path(path)
    items: list[GoldItem] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = GoldItem.model_validate_json(line)
        except ValidationError as e:
            raise GoldSetError(f"{path}:{lineno}: invalid gold item: {e}") from e
        if item.id in seen:
            raise GoldSetError(f"{path}:{lineno}: duplicate id {item.id!r} (first on line {seen[item.id]})")
        seen[item.id] = lineno
        items.append(item)
    return items


SPLITS = ("all", "dev", "held-out")


def split_gold(items: Sequence[GoldItem], part: str = "all", seed: int = 13, dev_fraction: float = 0.5
               ) -> list[GoldItem]:
    """A deterministic half of a gold set, stratified by failure class and language (the
    `[class:...]` tag; items without one form their own stratum): `round(n * dev_fraction)` of
    each stratum, drawn with `random.Random(seed)`, go to "dev", the rest to "held-out"; both keep
    the file's order. A set whose every item says its `split` keeps its author's halves. Study the
    failures of dev; report held-out as questions not looked at."""
    if part not in SPLITS:
        raise GoldSetError(f"unknown split {part!r}; choose one of: {', '.join(SPLITS)}")
    if part == "all":
        return list(items)
    if items and all(item.split for item in items):  # the author's own halves
        return [item for item in items if item.split == part]
    rng = random.Random(seed)
    strata: dict[tuple[str, str], list[str]] = {}
    for item in items:
        strata.setdefault((item_class(item) or "", item.language), []).append(item.id)
    dev: set[str] = set()
    for key in sorted(strata):
        ids = sorted(strata[key])
        rng.shuffle(ids)
        dev.update(ids[: round(len(ids) * dev_fraction)])
    return [item for item in items if (item.id in dev) == (part == "dev")]


def _ranked(hits: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    # Sort by the CLI's rank where present; the stable sort keeps list order for ties / no rank.
    for i, hit in enumerate(hits):
        if "doc_id" not in hit:
            raise EvaluationError(f"hit {i} has no doc_id: {dict(hit)}")
    return sorted(hits, key=lambda h: h.get("rank") if h.get("rank") is not None else float("inf"))


def _is_xref(hit: Mapping[str, Any]) -> bool:
    """A passage expansion added for a hit (a clause it cites, or an amendment that changes it), not
    retrieved: left out of the ranking metrics unless `include_xref_hits`."""
    return str(hit.get("via") or "retrieval").startswith(("xref:", "amended_by:"))


Match = Callable[[PassageRef, Mapping[str, Any]], bool]
"""Whether a hit is a passage; the default compares doc_id / section / version (`PassageRef.matches`)."""


def _by_label(passage: PassageRef, hit: Mapping[str, Any]) -> bool:
    return passage.matches(hit)


def _judged_ids(hits: Sequence[Mapping[str, Any]], expected: Sequence[PassageRef], match: Match = _by_label
                ) -> list[str]:
    """The hits as a TREC run: a hit that is expected passage j (the first of those it matches
    that no better-ranked hit already was) gets the id ``expected:j``, any other hit
    ``hit:<position>``. A second hit of the same passage is then not relevant again, so nDCG
    rewards finding each expected passage once; hit@k and MRR depend only on the first
    correct hit, as they always did."""
    ids: list[str] = []
    claimed: set[int] = set()
    for position, hit in enumerate(hits):
        j = next((j for j, p in enumerate(expected) if j not in claimed and match(p, hit)), None)
        if j is None:
            ids.append(f"hit:{position}")
        else:
            claimed.add(j)
            ids.append(f"expected:{j}")
    return ids


def _summary(rows: Sequence[dict[str, Any]], hit_ks: Sequence[int]) -> dict[str, Any]:
    scored = [r for r in rows if r["scored"]]
    out: dict[str, Any] = {"n": len(rows), "n_scored": len(scored)}
    for k in hit_ks:
        out[f"hit@{k}"] = fmean(r[f"hit@{k}"] for r in scored) if scored else None
    out["mrr"] = fmean(r["rr"] for r in scored) if scored else None
    out[f"ndcg@{NDCG_K}"] = fmean(r[f"ndcg@{NDCG_K}"] for r in scored) if scored else None
    found = [r["first_rank"] for r in scored if r["first_rank"] is not None]
    out["found"] = len(found)
    out["mean_first_rank"] = fmean(found) if found else None
    out["must_not_violations"] = sum(len(r["violations"]) for r in rows)
    return out


def score_gold(
    items: Sequence[GoldItem],
    results: Mapping[str, Sequence[Mapping[str, Any]]],
    hit_ks: Sequence[int] = DEFAULT_HIT_KS,
    include_xref_hits: bool = True,
    match: Match | None = None,
) -> dict[str, Any]:
    """Score search hits against the gold set.

    Args:
        items: the gold questions.
        results: item id -> hits shaped like the CLI JSON hits (``doc_id``, ``version``,
            ``section``, ``chunk_id``, ``via``, ``rank``). An item without results scores as
            a miss and is listed under ``missing_results``.
        hit_ks: cut-offs for ``hit@k``.
        include_xref_hits: whether hits added by cross-reference expansion count for
            hit@k / MRR (they always count for xref recall and must_not).
        match: whether a hit is a passage (expected, xref and must_not alike); default: the
            doc_id / section / version comparison of `PassageRef.matches`. The plain-BM25 floor
            passes a character-overlap rule (`floor.GoldPassages.matcher`).

    Returns:
        ``overall`` / ``by_type`` / ``by_language`` (and, when items carry a ``[class:...]``
        tag, ``by_class`` / ``by_class_language``) summaries (n, n_scored, hit@k, mrr, ndcg@10,
        found, mean_first_rank, must_not_violations), ``xref`` (expected, found, recall: found anywhere
        in the hits; recall_via_expansion: found with via "xref:..." or "amended_by:..."), ``must_not``
        (violations count and each one listed), ``missing_results`` and ``per_item`` rows.
        Ranks are 1-based positions in the rank-sorted hit list after the xref filter. Items
        with no ``expected`` passage (must_not only) are left out of hit@k / MRR / nDCG.
        hit@k, MRR and nDCG@10 are computed by ir-measures (:func:`metrics.rank_metrics`) on the
        hits as a TREC run (see :func:`_judged_ids`); nDCG counts each expected passage once.
    """
    match = match or _by_label
    per_item: list[dict[str, Any]] = []
    violations: list[dict[str, Any]] = []
    xref_expected = xref_found = xref_via = 0
    missing = [item.id for item in items if item.id not in results]
    qrels: dict[str, list[str]] = {}
    run: dict[str, list[str]] = {}
    for item in items:
        hits = _ranked(results.get(item.id, ()))
        scored_hits = [h for h in hits if include_xref_hits or not _is_xref(h)]
        run[item.id] = _judged_ids(scored_hits, item.expected, match)
        qrels[item.id] = [f"expected:{j}" for j in range(len(item.expected))]
        row: dict[str, Any] = {"id": item.id, "type": item.type, "language": item.language,
                               "class": item_class(item)}
        row["scored"] = bool(item.expected)
        row.update({f"hit@{k}": 0.0 for k in hit_ks})  # filled in below, from ir-measures
        row["first_rank"] = first_relevant_rank(run[item.id], set(qrels[item.id]))
        row["rr"] = row[f"ndcg@{NDCG_K}"] = 0.0
        row["xrefs_found"] = [
            f"{x.doc_id}#{x.section}" for x in item.expected_xrefs if any(match(x, h) for h in hits)
        ]
        xref_expected += len(item.expected_xrefs)
        xref_found += len(row["xrefs_found"])
        xref_via += sum(any(match(x, h) for h in hits if _is_xref(h)) for x in item.expected_xrefs)
        row["violations"] = [
            {
                "id": item.id,
                "rank": h.get("rank", position),
                "chunk_id": h.get("chunk_id"),
                "doc_id": h.get("doc_id"),
                "version": h.get("version"),
                "section": h.get("section"),
                "via": h.get("via"),
            }
            for position, h in enumerate(hits, start=1)
            if any(match(p, h) for p in item.must_not)
        ]
        violations.extend(row["violations"])
        per_item.append(row)
    ranked = rank_metrics(qrels, run, hit_ks, NDCG_K)
    for row in per_item:
        scores = ranked.get(row["id"], {})  # must_not-only items: nothing to find, zeros as before
        for k in hit_ks:
            row[f"hit@{k}"] = scores.get(f"hit@{k}", 0.0)
        row["rr"] = scores.get("rr", 0.0)
        row[f"ndcg@{NDCG_K}"] = scores.get(f"ndcg@{NDCG_K}", 0.0)

    def grouped(key: Callable[[dict[str, Any]], str]) -> dict[str, dict[str, Any]]:
        groups: dict[str, list[dict[str, Any]]] = {}
        for row in per_item:
            groups.setdefault(key(row), []).append(row)
        return {name: _summary(rows, hit_ks) for name, rows in sorted(groups.items())}

    return {
        "overall": _summary(per_item, hit_ks),
        "by_type": grouped(lambda r: r["type"]),
        "by_language": grouped(lambda r: r["language"]),
        "by_class": grouped(lambda r: r["class"]) if any(r["class"] for r in per_item) else {},
        "by_class_language": (grouped(lambda r: f"{r['class']}/{r['language']}")
                              if any(r["class"] for r in per_item) else {}),
        "xref": {
            "expected": xref_expected,
            "found": xref_found,
            "recall": xref_found / xref_expected if xref_expected else None,
            "recall_via_expansion": xref_via / xref_expected if xref_expected else None,
        },
        "must_not": {"violations": len(violations), "items": violations},
        "missing_results": missing,
        "per_item": per_item,
    }


COMPARED_METRICS = ("hit@5", "hit@10", "rr")
"""The per-question measures whose differences :func:`compare_gold` tests ("rr" averages to MRR)."""


def compare_gold(scores: Mapping[str, Mapping[str, Any]], baseline: str | None = None,
                 metrics: Sequence[str] = COMPARED_METRICS, test: str = "t-test") -> dict[str, dict[str, Any]]:
    """Paired significance of each configuration's difference from a baseline, question by question.

    Args:
        scores: configuration name -> :func:`score_gold` output (its ``per_item`` rows are paired by id).
        baseline: the configuration the others are compared with (default: the first).
        metrics: per-item measures to test.
        test: "t-test" or "randomization" (see :func:`metrics.paired_p_value`).

    Returns:
        configuration name (the baseline excluded) -> {"baseline", "test", "n" (questions scored
        in both), and per metric the p-value (None below two questions)}.
    """
    if not scores:
        return {}
    baseline = baseline if baseline is not None else next(iter(scores))
    if baseline not in scores:
        raise EvaluationError(f"baseline {baseline!r} is none of the configurations: {', '.join(scores)}")

    def scored(name: str) -> dict[str, Mapping[str, Any]]:
        return {r["id"]: r for r in scores[name].get("per_item", ()) if r.get("scored")}

    base = scored(baseline)
    out: dict[str, dict[str, Any]] = {}
    for name in scores:
        if name == baseline:
            continue
        other = scored(name)
        ids = [i for i in base if i in other]
        row: dict[str, Any] = {"baseline": baseline, "test": test, "n": len(ids)}
        for metric in metrics:
            row[metric] = paired_p_value([other[i][metric] for i in ids], [base[i][metric] for i in ids], test)
        out[name] = row
    return out
