"""Checks that every expected / xref / must_not passage of ../round4-gold.jsonl names a unit that
exists in the text of its document (and version), by the text's own numbering, and prints the
counts by class x language x split. A text check of the gold file, not a search."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = {}
for meta in (ROOT / "corpus").glob("*.meta.json"):
    m = json.loads(meta.read_text(encoding="utf-8"))
    FILES.setdefault(m["doc_id"], {})[m["version"]] = meta.with_name(meta.name[: -len(".meta.json")] + ".txt")

PATTERNS = [r"^Article {s}\b", r"^Articolo {s}$", r"^Art\. {s} \(", r"^ANNEX {s}$", r"^ALLEGATO {s}$",
            r"^§ {s}\. ", r"^{s}\.(—|\s)", r"^SCHEDULE {s}$", r"^\[{s}\] "]


def has_unit(text: str, section: str) -> bool:
    s = re.escape(section)
    return any(re.search(pat.format(s=s), text, re.MULTILINE) for pat in PATTERNS)


def main() -> int:
    errors = 0
    items = [json.loads(line) for line in (ROOT / "round4-gold.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    for item in items:
        for field in ("expected", "expected_xrefs", "must_not"):
            for ref in item[field]:
                versions = FILES.get(ref["doc_id"])
                if versions is None:
                    print(f"{item['id']}: {field}: unknown doc_id {ref['doc_id']}")
                    errors += 1
                    continue
                paths = [versions[ref["version"]]] if ref.get("version") else list(versions.values())
                if ref.get("version") and ref["version"] not in versions:
                    print(f"{item['id']}: {field}: no version {ref['version']} of {ref['doc_id']}")
                    errors += 1
                    continue
                if ref.get("section") and not all(has_unit(pth.read_text(encoding="utf-8"), ref["section"]) for pth in paths):
                    print(f"{item['id']}: {field}: no unit {ref['section']!r} in {[pth.name for pth in paths]}")
                    errors += 1
    counts = Counter((re.search(r"\[class:([\w-]+)\]", i["notes"]).group(1), i["language"], i["split"]) for i in items)
    classes = sorted({c for c, _, _ in counts})
    print(f"{len(items)} items, {errors} errors")
    print("| class | en dev | en held-out | it dev | it held-out | total |")
    print("|---|---:|---:|---:|---:|---:|")
    for c in classes:
        row = [counts[(c, lang, sp)] for lang in ("en", "it") for sp in ("dev", "held-out")]
        print(f"| {c} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
    tot = [sum(counts[(c, lang, sp)] for c in classes) for lang in ("en", "it") for sp in ("dev", "held-out")]
    print("| **total** | " + " | ".join(map(str, tot)) + f" | {sum(tot)} |")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
