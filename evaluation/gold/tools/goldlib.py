"""What the gold tools of every round share: the failure classes and their id codes, the passage
and item helpers the builders write items with, the writers of corpus files and of the JSONL,
and the structural check of a gold file against its corpus (no search is run, no index is touched).

The round folders keep only what is theirs: the documents, the items and the conventions a
round checks on top of the shared ones. Names of the package come from legalsearch.scripts, the
one surface the project's scripts use. A round's tool finds this file with

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
"""

from __future__ import annotations

import collections
import json
from collections.abc import Callable, Iterable
from datetime import date
from pathlib import Path
from typing import Any

from legalsearch.scripts import (
    DOC_TYPES,
    DocumentMeta,
    chunk_document,
    item_class,
    load_document,
    load_gold,
    normalize_section,
    read_sidecar,
)

# The failure classes of the gold sets (the `[class:NAME]` tag of an item's notes), in the order
# the tables print them, with the code of the item ids (r3-en-xref-02) and the item type.
SHORT = {
    "clause-in-doc": "cid", "cross-language": "xl", "unnumbered-heading": "unh", "loose-names": "ln",
    "look-alikes": "la", "versions": "ver", "identifiers": "id", "cross-references": "xref",
    "access-control": "acl", "open-doc-type": "odt",
}
TYPE_OF = {cls: "conceptual" for cls in SHORT} | {
    "versions": "date-sensitive", "identifiers": "identifier", "cross-references": "cross-reference",
}
# the chunker settings the labels of a gold file are checked with: the ingest's defaults
CHUNKER, MAX_CHARS = "structural", 1800


# --------------------------------------------------------------------------- building items


def p(doc: str, section: str | None = None, version: str | None = None) -> dict:
    """A passage: a document, optionally one section label and one version."""
    out = {"doc_id": doc}
    if section is not None:
        out["section"] = section
    if version is not None:
        out["version"] = version
    return out


def others(docs: Iterable[str], *keep: str) -> list[dict]:
    """Every document of `docs` but `keep`, whole (the look-alikes of a must_not list)."""
    return [p(d) for d in docs if d not in keep]


class GoldBuilder:
    """The items of one round, numbered per language and class in the order they are added."""

    def __init__(self, prefix: str, default_out: Path):
        self.prefix, self.default_out = prefix, default_out
        self.items: list[dict] = []

    def q(self, lang: str, cls: str, query: str, expected: list[dict], note: str, *, also: tuple[str, ...] = (),
          type_: str | None = None, xrefs: list[dict] | None = None, as_of: str | None = None,
          groups: list[str] | None = None, must_not: list[dict] | None = None) -> None:
        n = sum(1 for i in self.items if i["language"] == lang and i["_cls"] == cls) + 1
        tag = f"[class:{cls}]" + (f" [also:{','.join(also)}]" if also else "")
        item = {"id": f"{self.prefix}-{lang}-{SHORT[cls]}-{n:02d}", "query": query, "type": type_ or TYPE_OF[cls],
                "language": lang, "expected": expected}
        if xrefs:
            item["expected_xrefs"] = xrefs
        if as_of:
            item["as_of"] = as_of
        if groups:
            item["groups"] = groups
        if must_not:
            item["must_not"] = must_not
        item["notes"] = f"{tag} {note}"
        item["_cls"] = cls
        self.items.append(item)

    def main(self, argv: list[str]) -> None:
        """Write the JSONL to argv[0] (default: the round's gold file)."""
        out = Path(argv[0]) if argv else self.default_out
        with out.open("w", encoding="utf-8") as f:
            for item in self.items:
                row = {k: v for k, v in item.items() if not k.startswith("_")}
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        print(f"{len(self.items)} items -> {out}")


# --------------------------------------------------------------------------- corpus files


def write_document(out: Path, name: str, text: str, meta: dict) -> None:
    """`name`.txt and its sidecar `name`.meta.json, as the loader reads them."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.txt").write_text(text, encoding="utf-8")
    (out / f"{name}.meta.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_statute(out: Path, stem: str, doc_id: str, title: str, versions: dict[str, dict],
                  text_of: Callable[[str], str], extra: dict | None = None) -> list[str]:
    """Every version of an English (GB) statute: `stem`.v<version>, its validity and tags from
    `versions`, `extra` sidecar fields before the tags. Returns the file names written."""
    names = []
    for version, when in versions.items():
        meta = {"doc_id": doc_id, "title": title, "doc_type": "statute", "language": "en", "jurisdiction": "GB",
                "version": version, "valid_from": when["valid_from"], "valid_to": when["valid_to"],
                **(extra or {}), "tags": when["tags"]}
        names.append(f"{stem}.v{version}")
        write_document(out, names[-1], text_of(version), meta)
    return names


def out_dir(argv: list[str], default: Path) -> Path:
    return Path(argv[0]) if argv else default


# --------------------------------------------------------------------------- the structural check


def load_corpus(corpus: Path, *, open_doc_type: bool) -> dict[tuple[str, str], dict[str, Any]]:
    """(doc_id, version) -> the document's metadata and the section labels the chunker makes of it.

    open_doc_type: the sidecar's doc_type is taken as it is (any name); otherwise a doc_type the
    product does not know is read as "other" and the rest of the sidecar is left to the loader."""
    versions = {}
    for path in sorted(corpus.glob("*.txt")):
        side = read_sidecar(path)
        if open_doc_type:
            meta = DocumentMeta.model_validate(side)
        elif side.get("doc_type") not in DOC_TYPES:
            meta = DocumentMeta.model_validate({**side, "doc_type": "other"})
        else:
            meta = None
        doc = load_document(path, meta=meta)
        chunks = chunk_document(doc, CHUNKER, max_chars=MAX_CHARS)
        labels = collections.Counter(normalize_section(c.section) for c in chunks if c.section)
        versions[(doc.meta.doc_id, doc.meta.version)] = {
            "meta": doc.meta, "labels": labels, "path": path.name, "words": len(doc.text.split()),
            "chunks": len(chunks), "unlabelled": sum(1 for c in chunks if not c.section),
            "doc_type": doc.meta.doc_type, "sidecar_doc_type": side.get("doc_type"), "flags": doc.flags,
        }
    return versions


def leading_class(item) -> str | None:
    """The item's class when its notes open with the `[class:NAME]` tag, else None."""
    cls = item_class(item)
    return cls if cls and (item.notes or "").startswith(f"[class:{cls}]") else None


def _visible(c: dict, item, ref) -> bool:
    m = c["meta"]
    ok_acl = m.public or bool(set(m.acl) & set(item.groups))
    ok_date = True
    if item.as_of:
        day = date.fromisoformat(item.as_of)
        ok_date = (m.valid_from is None or m.valid_from <= day) and (m.valid_to is None or day < m.valid_to)
    return ok_acl and ok_date and (ref.section is None or normalize_section(ref.section) in c["labels"])


def check_item(item, corpus: dict) -> list[str]:
    """What every round checks: the class tag, as_of on date-sensitive items, every passage
    names a document (and version) of the corpus and a label the chunker makes, expected passages
    are visible to the item (valid at as_of, public or shared with its groups), and no expected
    passage overlaps a must_not one."""
    errors = []
    if leading_class(item) is None:
        errors.append(f"{item.id}: notes without a leading [class:...] tag")
    if item.type == "date-sensitive" and not item.as_of:
        errors.append(f"{item.id}: date-sensitive without as_of")
    refs = [("expected", r) for r in item.expected] + [("xref", r) for r in item.expected_xrefs] + \
           [("must_not", r) for r in item.must_not]
    for kind, r in refs:
        cands = [v for (d, ver), v in corpus.items() if d == r.doc_id and (r.version is None or ver == r.version)]
        if not cands:
            errors.append(f"{item.id}: {kind} {r.doc_id} v{r.version}: no such document/version")
            continue
        if r.section is not None and not any(normalize_section(r.section) in c["labels"] for c in cands):
            errors.append(f"{item.id}: {kind} {r.doc_id} v{r.version} section {r.section!r} not produced by the parser")
        if kind in ("expected", "xref") and not any(_visible(c, item, r) for c in cands):
            errors.append(f"{item.id}: {kind} {r.doc_id} v{r.version} #{r.section} not visible (as_of/groups)")
    for e in item.expected:
        for m in item.must_not:
            if m.matches({"doc_id": e.doc_id, "section": e.section, "version": e.version}) or \
                    e.matches({"doc_id": m.doc_id, "section": m.section, "version": m.version}):
                errors.append(f"{item.id}: expected {e} overlaps must_not {m}")
    return errors


def run_check(gold: Path, corpus_dir: Path, argv: list[str], *, open_doc_type: bool,
              conventions: Callable[[dict], Callable[[Any], list[str]]] | None = None,
              corpus_row: Callable[[str, str, dict], dict] | None = None) -> tuple[int, list]:
    """Check `gold` against `corpus_dir`, print the errors and the count; with --corpus one JSON
    line per document version (`corpus_row`). `conventions(corpus)` gives a round's own checks of
    one item. Returns (exit status, items)."""
    items = load_gold(gold)
    corpus = load_corpus(corpus_dir, open_doc_type=open_doc_type)
    own = conventions(corpus) if conventions else None
    errors: list[str] = []
    for it in items:
        errors += check_item(it, corpus)
        if own:
            errors += own(it)
    for e in errors:
        print("ERROR", e)
    print(f"{len(items)} items, {len(errors)} errors")
    if "--corpus" in argv:
        for (d, v), c in sorted(corpus.items()):
            row = corpus_row(d, v, c) if corpus_row else {"file": c["path"], "doc_id": d, "version": v}
            print(json.dumps(row, ensure_ascii=False))
    return (1 if errors else 0), items

