"""Re-score a `legalsearch eval gold` output (gold.json) by failure class and language.

For runs made with a version of `eval gold` that predates the class tables (e.g. main's, for
the "before" figures): the per-item rows are regrouped with the `[class:NAME]` tags of the gold
file and printed as the same tables `eval gold` prints today.

    PYTHONPATH=. python evaluation/gold/round2/tools/by_class.py evaluation/gold/round2/round2-gold.jsonl out/gold/gold.json
"""

from __future__ import annotations

import sys
from pathlib import Path

from legalsearch.scripts import gold_class_table_markdown, gold_summary, item_class, load_gold


def regroup(gold_file: Path, gold_json: Path) -> dict[str, dict]:
    import json

    classes = {item.id: item_class(item) for item in load_gold(gold_file)}
    out = {}
    for name, scores in json.loads(gold_json.read_text()).items():
        rows = [{**r, "class": classes.get(r["id"])} for r in scores["per_item"]]
        by_class: dict[str, list] = {}
        by_lang: dict[str, list] = {}
        for r in rows:
            by_class.setdefault(r["class"], []).append(r)
            by_lang.setdefault(f"{r['class']}/{r['language']}", []).append(r)
        out[name] = {**scores, "by_class": {c: gold_summary(v, (5, 10)) for c, v in sorted(by_class.items())},
                     "by_class_language": {c: gold_summary(v, (5, 10)) for c, v in sorted(by_lang.items())}}
    return out


if __name__ == "__main__":
    scores = regroup(Path(sys.argv[1]), Path(sys.argv[2]))
    for metric in ("hit@5", "hit@10", "mrr"):
        print(f"\n{metric} by class (en, it):\n")
        print(gold_class_table_markdown(scores, metric))
