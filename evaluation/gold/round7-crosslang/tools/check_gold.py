"""Checks the cross-language gold files against the corpus meta.json files (json only): every line
parses with the keys in order, ids are unique and match their language, each expected doc_id exists
in its corpus and is not privileged, the question's language is the other one, 5 questions per
language and split, at most 4 per document."""

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
GOLD = HERE.parent
FILES = {"xl-r2-gold.jsonl": ("round2", "x2"), "xl-r3-gold.jsonl": ("round3", "x3")}
KEYS = ["id", "query", "type", "language", "expected", "expected_xrefs", "as_of", "groups",
        "must_not", "notes", "answerable", "split"]


def corpus_languages(corpus: str) -> dict[str, set[str]]:
    """doc_id -> its languages, with "PRIVILEGED" for a document that is not public."""
    langs: dict[str, set[str]] = {}
    for path in sorted((GOLD / corpus / "corpus").glob("*.meta.json")):
        meta = json.loads(path.read_text(encoding="utf-8"))
        langs.setdefault(meta["doc_id"], set()).add(meta["language"])
        if meta.get("public") is False:
            langs[meta["doc_id"]].add("PRIVILEGED")
    return langs


def problems(record: dict, prefix: str, langs: dict[str, set[str]], seen: set[str]) -> list[str]:
    found = []
    if list(record) != KEYS:
        found.append(f"keys/order {list(record)}")
    if record["id"] in seen:
        found.append(f"duplicate id {record['id']}")
    if not re.fullmatch(rf"{prefix}-{record['language']}-\d\d", record["id"]):
        found.append(f"id {record['id']} vs language")
    if record["split"] not in ("dev", "held-out"):
        found.append("split")
    if not record["notes"].startswith("[class:cross-language] "):
        found.append("notes tag")
    if len(record["expected"]) != 1:
        found.append("expected must have one doc")
    for expected in record["expected"]:
        doc = expected["doc_id"]
        if doc not in langs:
            found.append(f"unknown doc_id {doc}")
            continue
        if "PRIVILEGED" in langs[doc]:
            found.append(f"privileged doc {doc}")
        doc_langs = langs[doc] - {"PRIVILEGED"}
        if len(doc_langs) != 1 or record["language"] in doc_langs:
            found.append(f"question {record['language']} vs doc {doc} {doc_langs}")
    return found


def main() -> int:
    ok, seen = True, set()
    for name, (corpus, prefix) in FILES.items():
        langs = corpus_languages(corpus)
        counts, per_doc = Counter(), Counter()
        for n, line in enumerate((HERE / name).read_text(encoding="utf-8").splitlines(), 1):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                print(f"{name}:{n}: does not parse: {err}")
                ok = False
                continue
            for problem in problems(record, prefix, langs, seen):
                print(f"{name}:{n}: {problem}")
                ok = False
            seen.add(record["id"])
            per_doc.update(e["doc_id"] for e in record["expected"])
            counts[(record["language"], record["split"])] += 1
        print(name, dict(sorted(counts.items())))
        for doc, count in sorted(per_doc.items()):
            print(f"  {doc}: {count}" + ("   > 4 questions" if count > 4 else ""))
            ok = ok and count <= 4
        for cell in [("en", "dev"), ("en", "held-out"), ("it", "dev"), ("it", "held-out")]:
            if counts[cell] != 5:
                print(f"  count {cell} = {counts[cell]} != 5")
                ok = False
        unused = sorted(d for d, ls in langs.items() if d not in per_doc and "PRIVILEGED" not in ls)
        print("  non-privileged docs without a question:", unused or "none")
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
