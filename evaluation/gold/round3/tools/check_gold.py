"""Structural check of round3-gold.jsonl against corpus/ (no search is run, no index is touched).

Every corpus file is loaded with the product's loader and its sidecar as it is (the open
doc_types included), and cut by the structural chunker (max_chars 1800, the default). Then, for
every item, the checks of every round (evaluation/gold/tools/goldlib.py):

  * every expected / expected_xrefs / must_not passage names an existing doc_id (and version),
    and a given section is a label the chunker really produces for that document version;
  * every expected and xref passage is visible to the item: valid at as_of
    (valid_from <= as_of < valid_to) and public or shared with one of the item's groups;
  * no expected passage overlaps a must_not passage;

and this round's conventions: id r3-<lang>-<code>-NN matching language and [class:...]; type
matching the class; date-sensitive items have as_of; an item whose expected passage is an NDA
and that is tagged look-alikes lists the other NDAs as whole documents in must_not; a versions
item on the statute gives the version and lists the other version as a whole in must_not; the
privileged memo is expected only with its acl group and is in must_not otherwise.

Run from the product's repository root:
    <venv>/bin/python evaluation/gold/round3/tools/check_gold.py [--corpus] [--counts]
"""

from __future__ import annotations

import collections
import logging
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import goldlib  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ALSO = re.compile(r"\[also:\s*([\w,-]+)\s*\]")


def also_of(item) -> list[str]:
    m = ALSO.search(item.notes or "")
    return m.group(1).split(",") if m else []


def conventions(corpus: dict):
    doc_types = {d: c["doc_type"] for (d, _v), c in corpus.items()}
    versions_of = collections.defaultdict(set)
    for d, v in corpus:
        versions_of[d].add(v)
    ndas = {d for d, t in doc_types.items() if t == "nda"}
    restricted = {d: set(c["meta"].acl) for (d, _v), c in corpus.items() if not c["meta"].public}

    def check(it) -> list[str]:
        cls = goldlib.leading_class(it)
        if cls is None:
            return []  # reported by the shared check
        if cls not in goldlib.SHORT:
            return [f"{it.id}: unknown class {cls!r}"]
        errors = []
        if not re.fullmatch(rf"r3-{it.language}-{goldlib.SHORT[cls]}-\d\d", it.id):
            errors.append(f"{it.id}: id does not match language {it.language!r} / class {cls!r}")
        if it.type != goldlib.TYPE_OF[cls]:
            errors.append(f"{it.id}: type {it.type!r} does not match class {cls!r}")
        whole_must_not = {m.doc_id for m in it.must_not if m.section is None and m.version is None}
        if "look-alikes" in {cls, *also_of(it)}:
            for e in it.expected:
                if e.doc_id in ndas and not (ndas - {e.doc_id}) <= whole_must_not:
                    errors.append(f"{it.id}: look-alike NDA item without all other NDAs in must_not")
        if cls == "versions":
            for e in it.expected:
                if len(versions_of[e.doc_id]) > 1:
                    others = versions_of[e.doc_id] - {e.version}
                    if e.version is None:
                        errors.append(f"{it.id}: versions item expects {e.doc_id} without a version")
                    elif not all(any(m.doc_id == e.doc_id and m.version == o and m.section is None
                                      for m in it.must_not) for o in others):
                        errors.append(f"{it.id}: other version of {e.doc_id} not in must_not")
        for doc, acl in restricted.items():
            sees = bool(acl & set(it.groups))
            expects = any(e.doc_id == doc for e in it.expected)
            if expects and not sees:
                errors.append(f"{it.id}: expects restricted {doc} without its group")
            if cls == "access-control" and not sees and doc not in whole_must_not:
                errors.append(f"{it.id}: access-control item without {doc} in must_not")
        return errors

    return check


def corpus_row(doc_id: str, version: str, c: dict) -> dict:
    return {"file": c["path"], "doc_id": doc_id, "version": version, "doc_type": c["doc_type"],
            "words": c["words"], "chunks": c["chunks"], "unlabelled_chunks": c["unlabelled"],
            "labels": len(c["labels"]), "flags": c["flags"]}


def main(argv: list[str]) -> int:
    logging.disable(logging.WARNING)  # the open doc_type warning is expected
    status, items = goldlib.run_check(ROOT / "round3-gold.jsonl", ROOT / "corpus", argv, open_doc_type=True,
                                      conventions=conventions, corpus_row=corpus_row)
    if "--counts" in argv:
        print_counts(items)
    return status


def print_counts(items) -> None:
    by = collections.defaultdict(lambda: collections.Counter())
    for it in items:
        by[goldlib.item_class(it)][it.language] += 1
    print("class en it total")
    for cls in goldlib.SHORT:
        print(cls, by[cls]["en"], by[cls]["it"], by[cls]["en"] + by[cls]["it"])
    types = collections.Counter((it.type, it.language) for it in items)
    for t in ("conceptual", "identifier", "date-sensitive", "cross-reference"):
        print(t, types[(t, "en")], types[(t, "it")])
    docs = collections.Counter()
    for it in items:
        for d in {e.doc_id for e in it.expected}:
            docs[d] += 1
    print("items per expected document:", dict(docs.most_common()))
    print("with must_not", sum(1 for i in items if i.must_not), "as_of", sum(1 for i in items if i.as_of),
          "groups", sum(1 for i in items if i.groups), "xrefs items", sum(1 for i in items if i.expected_xrefs),
          "xref targets", sum(len(i.expected_xrefs) for i in items),
          "doc_id-only items", sum(1 for i in items if i.expected and all(e.section is None for e in i.expected)),
          "must_not only", sum(1 for i in items if not i.expected))
    also = collections.Counter(a for it in items for a in also_of(it))
    print("secondary tags:", dict(also))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
