"""Structural check of round2-gold.jsonl against corpus/ (no search is run).

For every passage in expected / expected_xrefs / must_not: the doc_id (and version) exists,
and a given section is a label the structural chunker (max_chars 1800, the default) really
produces for that document version. Expected passages must also be visible to the item:
valid at as_of (valid_from <= as_of < valid_to) and public or shared with one of its groups.
Run from a clone of the product:  PYTHONPATH=<repo> python tools/check_gold.py
"""

from __future__ import annotations

import collections
import json
import re
import sys
from datetime import date
from pathlib import Path

from legalsearch.chunk import chunk_document
from legalsearch.documents.models import DOC_TYPES, DocumentMeta
from legalsearch.evaluation.gold import load_gold, normalize_section
from legalsearch.load import load_document
from legalsearch.load.metadata import read_sidecar

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
GOLD = ROOT / "round2-gold.jsonl"


def load_corpus():
    versions = {}  # (doc_id, version) -> dict(meta, labels)
    for path in sorted(CORPUS.glob("*.txt")):
        side = read_sidecar(path)
        meta = None
        if side.get("doc_type") not in DOC_TYPES:  # open doc_type: parse with "other"
            meta = DocumentMeta.model_validate({**side, "doc_type": "other"})
        doc = load_document(path, meta=meta)
        chunks = chunk_document(doc, "structural", max_chars=1800)
        labels = collections.Counter(normalize_section(c.section) for c in chunks if c.section)
        versions[(doc.meta.doc_id, doc.meta.version)] = {"meta": doc.meta, "labels": labels, "path": path.name,
                                                         "words": len(doc.text.split()), "chunks": len(chunks),
                                                         "sidecar_doc_type": side.get("doc_type")}
    return versions


def main() -> int:
    items = load_gold(GOLD)
    corpus = load_corpus()
    errors = []
    for it in items:
        if not re.match(r"^\[class:[a-z-]+\]", it.notes or ""):
            errors.append(f"{it.id}: notes without [class:...] prefix")
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
    for e in errors:
        print("ERROR", e)
    print(f"{len(items)} items, {len(errors)} errors")
    if "--corpus" in sys.argv:
        for (d, v), c in sorted(corpus.items()):
            print(json.dumps({"file": c["path"], "doc_id": d, "version": v, "doc_type": c["sidecar_doc_type"],
                              "words": c["words"], "chunks": c["chunks"],
                              "labels": len(c["labels"])}, ensure_ascii=False))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
