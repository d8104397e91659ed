"""Structural check of round2-gold.jsonl against corpus/ (no search is run).

For every passage in expected / expected_xrefs / must_not: the doc_id (and version) exists,
and a given section is a label the structural chunker (max_chars 1800, the default) really
produces for that document version. Expected passages must also be visible to the item:
valid at as_of (valid_from <= as_of < valid_to) and public or shared with one of its groups.
The checks are those of every round (evaluation/gold/tools/goldlib.py); a doc_type the product
does not know is read as "other". Run from the repository root:

    <venv>/bin/python evaluation/gold/round2/tools/check_gold.py [--corpus]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import goldlib  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def corpus_row(doc_id: str, version: str, c: dict) -> dict:
    return {"file": c["path"], "doc_id": doc_id, "version": version, "doc_type": c["sidecar_doc_type"],
            "words": c["words"], "chunks": c["chunks"], "labels": len(c["labels"])}


def main(argv: list[str]) -> int:
    status, _items = goldlib.run_check(ROOT / "round2-gold.jsonl", ROOT / "corpus", argv, open_doc_type=False,
                                       corpus_row=corpus_row)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
