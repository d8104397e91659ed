"""Structural check of round3-gold.jsonl against corpus/ (no search is run, no index is touched).

Adapted from the round-2 checker. Every corpus file is loaded with the product's loader and its
sidecar, and cut by the structural chunker (max_chars 1800, the default). Then, for every item:

  * every expected / expected_xrefs / must_not passage names an existing doc_id (and version),
    and a given section is a label the chunker really produces for that document version;
  * every expected and xref passage is visible to the item: valid at as_of
    (valid_from <= as_of < valid_to) and public or shared with one of the item's groups;
  * no expected passage overlaps a must_not passage;
  * conventions: id r3-<lang>-<code>-NN matching language and [class:...]; type matching the
    class; date-sensitive items have as_of; an item whose expected passage is an NDA and that is
    tagged look-alikes lists the other NDAs as whole documents in must_not; a versions item on the
    statute gives the version and lists the other version as a whole in must_not; the privileged
    memo is expected only with its acl group and is in must_not otherwise.

Run from the product's repository root:
    PYTHONPATH=. <venv>/bin/python evaluation/gold/round3/tools/check_gold.py [--corpus] [--counts]
"""

from __future__ import annotations

import collections
import json
import logging
import re
import sys
from datetime import date
from pathlib import Path

from legalsearch.chunk import chunk_document
from legalsearch.documents.models import DocumentMeta
from legalsearch.evaluation.gold import item_class, load_gold, normalize_section
from legalsearch.load import load_document
from legalsearch.load.metadata import read_sidecar

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
GOLD = ROOT / "round3-gold.jsonl"

SHORT = {
    "clause-in-doc": "cid", "cross-language": "xl", "unnumbered-heading": "unh", "loose-names": "ln",
    "look-alikes": "la", "versions": "ver", "identifiers": "id", "cross-references": "xref",
    "access-control": "acl", "open-doc-type": "odt",
}
TYPE_OF = {
    "versions": "date-sensitive", "identifiers": "identifier", "cross-references": "cross-reference",
}
ALSO = re.compile(r"\[also:\s*([\w,-]+)\s*\]")


def load_corpus():
    versions = {}  # (doc_id, version) -> info
    for path in sorted(CORPUS.glob("*.txt")):
        side = read_sidecar(path)
        meta = DocumentMeta.model_validate(side)
        doc = load_document(path, meta=meta)
        chunks = chunk_document(doc, "structural", max_chars=1800)
        labels = collections.Counter(normalize_section(c.section) for c in chunks if c.section)
        versions[(doc.meta.doc_id, doc.meta.version)] = {
            "meta": doc.meta, "labels": labels, "path": path.name, "words": len(doc.text.split()),
            "chunks": len(chunks), "unlabelled": sum(1 for c in chunks if not c.section),
            "doc_type": doc.meta.doc_type, "flags": doc.flags,
        }
    return versions


def main() -> int:
    logging.disable(logging.WARNING)  # the open doc_type warning is expected
    items = load_gold(GOLD)
    corpus = load_corpus()
    doc_types = {d: c["doc_type"] for (d, _v), c in corpus.items()}
    versions_of = collections.defaultdict(set)
    for d, v in corpus:
        versions_of[d].add(v)
    ndas = {d for d, t in doc_types.items() if t == "nda"}
    restricted = {d: set(c["meta"].acl) for (d, _v), c in corpus.items() if not c["meta"].public}
    errors: list[str] = []
    for it in items:
        cls = item_class(it)
        also = set(ALSO.search(it.notes or "").group(1).split(",")) if ALSO.search(it.notes or "") else set()
        if not cls or not re.match(r"^\[class:[a-z-]+\]", it.notes or ""):
            errors.append(f"{it.id}: notes without a leading [class:...] tag")
            continue
        if cls not in SHORT:
            errors.append(f"{it.id}: unknown class {cls!r}")
            continue
        if not re.fullmatch(rf"r3-{it.language}-{SHORT[cls]}-\d\d", it.id):
            errors.append(f"{it.id}: id does not match language {it.language!r} / class {cls!r}")
        if it.type != TYPE_OF.get(cls, "conceptual"):
            errors.append(f"{it.id}: type {it.type!r} does not match class {cls!r}")
        if it.type == "date-sensitive" and not it.as_of:
            errors.append(f"{it.id}: date-sensitive without as_of")
        refs = [("expected", r) for r in it.expected] + [("xref", r) for r in it.expected_xrefs] + \
               [("must_not", r) for r in it.must_not]
        for kind, r in refs:
            cands = [v for (d, ver), v in corpus.items() if d == r.doc_id and (r.version is None or ver == r.version)]
            if not cands:
                errors.append(f"{it.id}: {kind} {r.doc_id} v{r.version}: no such document/version")
                continue
            if r.section is not None and not any(normalize_section(r.section) in c["labels"] for c in cands):
                errors.append(f"{it.id}: {kind} {r.doc_id} v{r.version} section {r.section!r} not produced by the parser")
            if kind in ("expected", "xref"):
                def visible(c, it=it, r=r):
                    m = c["meta"]
                    ok_acl = m.public or bool(set(m.acl) & set(it.groups))
                    ok_date = True
                    if it.as_of:
                        day = date.fromisoformat(it.as_of)
                        ok_date = (m.valid_from is None or m.valid_from <= day) and (m.valid_to is None or day < m.valid_to)
                    return ok_acl and ok_date and (r.section is None or normalize_section(r.section) in c["labels"])
                if not any(visible(c) for c in cands):
                    errors.append(f"{it.id}: {kind} {r.doc_id} v{r.version} #{r.section} not visible (as_of/groups)")
        for e in it.expected:
            for m in it.must_not:
                if m.matches({"doc_id": e.doc_id, "section": e.section, "version": e.version}) or \
                        e.matches({"doc_id": m.doc_id, "section": m.section, "version": m.version}):
                    errors.append(f"{it.id}: expected {e} overlaps must_not {m}")
        # conventions
        whole_must_not = {m.doc_id for m in it.must_not if m.section is None and m.version is None}
        if "look-alikes" in ({cls} | also):
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
            forbids = doc in whole_must_not
            if expects and not sees:
                errors.append(f"{it.id}: expects restricted {doc} without its group")
            if cls == "access-control" and not sees and not forbids:
                errors.append(f"{it.id}: access-control item without {doc} in must_not")
    for e in errors:
        print("ERROR", e)
    print(f"{len(items)} items, {len(errors)} errors")
    if "--corpus" in sys.argv:
        for (d, v), c in sorted(corpus.items()):
            print(json.dumps({"file": c["path"], "doc_id": d, "version": v, "doc_type": c["doc_type"],
                              "words": c["words"], "chunks": c["chunks"], "unlabelled_chunks": c["unlabelled"],
                              "labels": len(c["labels"]), "flags": c["flags"]}, ensure_ascii=False))
    if "--counts" in sys.argv:
        print_counts(items)
    return 1 if errors else 0


def print_counts(items) -> None:
    by = collections.defaultdict(lambda: collections.Counter())
    for it in items:
        by[item_class(it)][it.language] += 1
    print("class en it total")
    for cls in SHORT:
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
    also = collections.Counter()
    for it in items:
        m = ALSO.search(it.notes or "")
        for a in (m.group(1).split(",") if m else []):
            also[a] += 1
    print("secondary tags:", dict(also))


if __name__ == "__main__":
    sys.exit(main())
