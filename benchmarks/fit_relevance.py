"""Fit the relevance calibration of one embedder (legalsearch/query/calibration/<embedder>.json)
and print how well it is calibrated on held-out questions. Prints figures, not a test.

    python benchmarks/fit_relevance.py --embedder e5 \\
        --gold evaluation/gold/sample-gold.jsonl=NAME-sample \\
        --gold evaluation/gold/round2/round2-gold.jsonl=NAME-r2 \\
        --gold evaluation/gold/round3/round3-gold.jsonl=NAME-r3 \\
        --offtopic evaluation/gold/offtopic/offtopic-dev.jsonl \\
        --out search/query/calibration/e5.json

Each gold file is searched on its index (ingested with that embedder: the READMEs say how), with
the search defaults, k hits, the item's as_of and groups, abstention off and no expansion. Every
retrieved hit is a labelled pair: its features (legalsearch.query.relevance.FEATURES, as the
search computes them) and 1 when it is an expected passage, else 0. The off-topic file's
questions (`"answerable": false`) are searched on every index given: all their hits are 0.
Questions are split into the deterministic dev / held-out halves of `eval gold --split` (per
file); a logistic regression (scikit-learn, L2, C=--c, an off-topic question's hits weighing
--offtopic-weight) is fitted on the dev pairs, and the
held-out pairs and questions report the Brier score, the reliability table and the abstention
rates (off-topic flagged, answerable wrongly flagged) at each threshold. `--pairs FILE` keeps the
pairs (JSONL) and `--reuse` fits again from them without searching; `--from HITS=SET` adds the
hits.jsonl of a `legalsearch eval abstain` run (the same rows, its questions searched once).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from legalsearch.scripts import (  # noqa: E402
    LegalSearch,
    SearchRequest,
    abstain,
    load_gold,
    relevance,
    split_gold,
)

THRESHOLDS = abstain.DEFAULT_THRESHOLDS
MAX_WRONGLY_FLAGGED = 0.05
"""The suggested threshold: the largest that flags at most this share of the dev answerable questions."""


def search_pairs(client, gold_path: Path, index: str, k: int, set_name: str, offtopic: bool = False) -> list[dict]:
    """One row per retrieved hit: set, item id, split, answerable, label, features, rank."""
    items = load_gold(gold_path)
    dev = {item.id for item in split_gold(items, "dev")}
    rows = []
    for n, item in enumerate(items, start=1):
        req = SearchRequest(query=item.query, index=index, k=k, as_of=item.as_of, groups=tuple(item.groups),
                            abstain=0, expand_xrefs=False)
        response = client.service.search(req, write_log=False)
        for hit in response.hits:
            if hit.via != "retrieval" or not hit.relevance_features:
                continue
            rows.append({"set": set_name, "id": item.id, "split": "dev" if item.id in dev else "held-out",
                         "answerable": item.answerable and bool(item.expected), "offtopic": not item.answerable,
                         "label": int(any(p.matches(hit.model_dump(mode="json")) for p in item.expected)),
                         "rank": hit.rank, "features": hit.relevance_features})
        print(f"\r{set_name}: {n}/{len(items)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return [r for r in rows if r["answerable"] or r["offtopic"]]


def matrix(rows: list[dict], names: tuple[str, ...] = relevance.FEATURES):
    import numpy as np

    return (np.array([[float(r["features"].get(f, 0.0)) for f in names] for r in rows]),
            np.array([r["label"] for r in rows]))


def question_rows(rows: list[dict], probability) -> list[dict]:
    """The abstention rows (legalsearch.evaluation.abstain.rates) of each question: its best relevance."""
    best: dict[tuple[str, str], dict] = {}
    for r in rows:
        key = (r["set"], r["id"])
        p = probability(r["features"])
        row = best.setdefault(key, {"id": f"{r['set']}:{r['id']}", "kind": "off-topic" if r["offtopic"] else
                                    "answerable", "class": r.get("class"), "hits": 0, "best_relevance": 0.0})
        row["hits"] += 1
        row["best_relevance"] = max(row["best_relevance"], p)
    return list(best.values())


def report(name: str, rows: list[dict], probability) -> dict:
    pairs = [(probability(r["features"]), r["label"]) for r in rows]
    questions = question_rows(rows, probability)
    out = {"pairs": len(pairs), "positives": sum(y for _, y in pairs), "brier": abstain.brier(pairs),
           "ece": abstain.expected_calibration_error(pairs), "reliability": abstain.reliability(pairs),
           "rates": [abstain.rates(questions, t) for t in THRESHOLDS],
           "by_class": abstain.by_class(questions, THRESHOLDS)}
    print(f"\n## {name}: {out['pairs']} hits ({out['positives']} expected passages), "
          f"{sum(q['kind'] == 'answerable' for q in questions)} answerable and "
          f"{sum(q['kind'] == 'off-topic' for q in questions)} off-topic questions")
    print(f"Brier {out['brier']:.4f}  ECE {out['ece']:.4f}  (base rate {out['positives'] / max(out['pairs'], 1):.3f})")
    print("| relevance | hits | mean relevance | share relevant |\n|---|---:|---:|---:|")
    for b in out["reliability"]:
        print(f"| {b['bin']} | {b['n']} | {b['mean_relevance']:.3f} | {b['share_relevant']:.3f} |")
    print("| threshold | off-topic flagged | answerable wrongly flagged |\n|---:|---:|---:|")
    for r in out["rates"]:
        print(f"| {r['threshold']:g} | {r['off_topic_flagged_share'] or 0:.1%} ({r['off_topic_flagged']}/"
              f"{r['off_topic']}) | {r['answerable_flagged_share'] or 0:.1%} ({r['answerable_flagged']}/"
              f"{r['answerable']}) |")
    print("| class | " + " | ".join(f"{t:g}" for t in THRESHOLDS) + " |\n|---|" + "---:|" * len(THRESHOLDS))
    for name, table in out["by_class"].items():
        print(f"| {name} | " + " | ".join(abstain._flagged(r) for r in table) + " |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--embedder", required=True, help="The embedder the indices were ingested with (e5, minilm).")
    parser.add_argument("--gold", action="append", default=[], metavar="FILE=INDEX",
                        help="A gold JSONL and the index holding its corpus (repeatable).")
    parser.add_argument("--offtopic", type=Path, help="Off-topic questions (answerable false), searched on every index.")
    parser.add_argument("-k", type=int, default=10, help="Hits per question (default 10).")
    parser.add_argument("--c", type=float, default=100.0,
                        help="Inverse L2 strength of the logistic regression (default 100: the cosines of one model "
                             "span a few hundredths, so their coefficient is large, which a strong penalty shrinks).")
    parser.add_argument("--offtopic-weight", type=float, default=5.0,
                        help="Sample weight of an off-topic question's hits (default 5: without it the fit serves "
                             "the hits of answerable questions and flags fewer off-topic ones at the same share of "
                             "answerable ones wrongly flagged; measured in docs/results.md).")
    parser.add_argument("--pairs", type=Path, help="Keep the labelled pairs in this JSONL file.")
    parser.add_argument("--reuse", action="store_true", help="Fit from --pairs without searching.")
    parser.add_argument("--from", dest="sources", action="append", default=[], metavar="HITS=SET",
                        help="Also fit from the hits.jsonl an `legalsearch eval abstain` run wrote (its questions "
                             "searched once), named SET (repeatable).")
    parser.add_argument("--out", type=Path, help="Write the calibration JSON here (default: print only).")
    parser.add_argument("--version", type=int, default=2, help="The calibration's version number.")
    parser.add_argument("--features", default=",".join(relevance.FEATURES),
                        help="The features to fit (comma-separated; the others weigh 0). Default: all of "
                             "legalsearch.query.relevance.FEATURES.")
    parser.add_argument("--exclude-set", action="append", default=[], metavar="SET",
                        help="Leave out the rows of a --from SET (to report a set the fit did not see).")
    args = parser.parse_args()

    extra = []
    for spec in args.sources:
        path, sep, set_name = spec.partition("=")
        if not sep or not Path(path).is_file():
            parser.error(f"--from takes HITS=SET with an existing hits.jsonl, got {spec!r}")
        extra += [{**json.loads(line), "set": set_name} for line in Path(path).read_text().splitlines() if line.strip()]
    if args.reuse:
        if not args.pairs or not args.pairs.is_file():
            parser.error("--reuse needs an existing --pairs file")
        rows = [json.loads(line) for line in args.pairs.read_text().splitlines() if line.strip()]
    elif not args.gold:
        if not extra:
            parser.error("give at least one --gold FILE=INDEX or --from HITS=SET")
        rows = []
    else:
        client = LegalSearch()
        rows = []
        sets = []
        for spec in args.gold:
            path, sep, index = spec.partition("=")
            if not sep or not index:
                parser.error(f"--gold takes FILE=INDEX, got {spec!r}")
            meta = client.service.index_meta(index)
            if meta.get("embedder") != args.embedder:
                parser.error(f"{index} was ingested with {meta.get('embedder')!r}, not {args.embedder!r}")
            rows += search_pairs(client, Path(path), index, args.k, f"{Path(path).stem}@{index}")
            if args.offtopic:
                rows += search_pairs(client, args.offtopic, index, args.k, f"{args.offtopic.stem}@{index}")
            sets.append(spec)
        if args.pairs:
            args.pairs.parent.mkdir(parents=True, exist_ok=True)
            args.pairs.write_text("".join(json.dumps(r) + "\n" for r in rows))

    rows += extra
    rows = [r for r in rows if r["set"] not in args.exclude_set]
    names = tuple(f.strip() for f in args.features.split(",") if f.strip())
    unknown = set(names) - set(relevance.FEATURES)
    if unknown:
        parser.error(f"unknown --features {sorted(unknown)}; known: {', '.join(relevance.FEATURES)}")
    from sklearn.linear_model import LogisticRegression

    dev = [r for r in rows if r["split"] == "dev"]
    held = [r for r in rows if r["split"] == "held-out"]
    if len({r["label"] for r in dev}) < 2:
        sys.exit("the dev half has no expected passage among its hits, or nothing else: give more questions")
    x, y = matrix(dev, names)
    weights = [args.offtopic_weight if r["offtopic"] else 1.0 for r in dev]
    model = LogisticRegression(C=args.c, max_iter=2000).fit(x, y, sample_weight=weights)
    calibration = relevance.Calibration(
        embedder=args.embedder, version=args.version,
        coef={f: round(float(c), 5) for f, c in zip(names, model.coef_[0], strict=True)},
        intercept=round(float(model.intercept_[0]), 5))
    print(f"coefficients ({args.embedder}): {calibration.coef}, intercept {calibration.intercept}")
    fitted = {"date": date.today().isoformat(), "sets": sorted({r["set"] for r in rows}), "c": args.c,
              "offtopic_weight": args.offtopic_weight, "k": args.k,
              "dev": report("dev (fitted on)", dev, calibration.probability),
              "held_out": report("held-out", held, calibration.probability)}
    ok = [r["threshold"] for r in fitted["dev"]["rates"] if (r["answerable_flagged_share"] or 0) <= MAX_WRONGLY_FLAGGED]
    fitted["suggested_threshold"] = max(ok) if ok else None
    print(f"\nsuggested threshold (the largest flagging at most {MAX_WRONGLY_FLAGGED:.0%} of the dev answerable "
          f"questions): {fitted['suggested_threshold']}")
    if args.out:
        data = {"_comment": "Relevance calibration (legalsearch.query.relevance): relevance = sigmoid(intercept + "
                "sum(coef * feature)). Fitted by benchmarks/fit_relevance.py; `fitted` records on what and the "
                "held-out figures.", "embedder": args.embedder, "version": args.version,
                "features": list(names), "coef": calibration.coef, "intercept": calibration.intercept,
                "fitted": fitted}
        args.out.write_text(json.dumps(data, indent=2) + "\n")
        print(f"written: {args.out}")


if __name__ == "__main__":
    main()
