"""What the parser saw in one file: tree, chunks, references, labels and flags.

`inspect_document` returns plain JSON-able data (for `legalsearch inspect --json`);
`render_inspection` turns it into a readable tree and chunk table. `survey_documents` /
`render_survey` do one line per file of a folder: what to look at before an ingest.
"""

from __future__ import annotations

from pathlib import Path

from legalsearch.chunk.chunker import chunk_document
from legalsearch.documents.errors import DocumentError
from legalsearch.documents.models import StructureNode, to_jsonable
from legalsearch.load.discover import discover_documents
from legalsearch.load.files import load_document
from legalsearch.parse.definitions import extract_definitions
from legalsearch.parse.doctypes import approves_clauses
from legalsearch.parse.labels import double_signature
from legalsearch.parse.references import unresolved_refs
from legalsearch.parse.titles import describe_node, unit_name
from legalsearch.parse.tree import structural_units


def inspect_document(path: str | Path, chunker: str = "structural", max_chars: int = 1800) -> dict:
    """Load, parse and chunk one file and report everything as JSON-able data.

    Raises:
        DocumentError / MetadataError: as `load_document`.
    """
    doc = load_document(path)
    chunks = chunk_document(doc, chunker=chunker, max_chars=max_chars)
    language = doc.meta.language
    return {
        "source_path": doc.source_path,
        "doc_sha256": doc.doc_sha256,
        "meta": doc.meta.model_dump(mode="json"),
        "origin": doc.origin,
        "chars": len(doc.text),
        "pages": to_jsonable(doc.pages),
        "flags": list(doc.flags),
        "chunker": chunker,
        "tree": _node_dict(doc.tree, language, unit_name(doc.meta.doc_type, doc.text, language)),
        "chunks": [
            {
                "chunk_id": c.chunk_id,
                "heading_path": c.heading_path,
                "section": c.section,
                "section_title": c.section_title,
                "heading": c.heading,
                "char_start": c.char_start,
                "char_end": c.char_end,
                "chars": c.char_end - c.char_start,
                "page": c.page,
                "clause_labels": c.clause_labels,
                "defined_terms": c.defined_terms,
                "uses_terms": c.uses_terms,
                "definition_chunk_ids": c.definition_chunk_ids,
                "xrefs": [_ref_dict(r) for r in c.xrefs],
                "preview": _preview(c.text),
            }
            for c in chunks
        ],
        "definitions": [d.term for d in extract_definitions(doc.text, language, doc.tree)],
        "unresolved_refs": [_ref_dict(r) for r in unresolved_refs(doc, chunks)],
        "double_signature": double_signature(doc, chunks) if approves_clauses(doc.meta.doc_type, language) else None,
    }


def survey_documents(paths: list[str | Path], chunker: str = "structural", max_chars: int = 1800) -> list[dict]:
    """One row per file under `paths` (folders walked as `legalsearch ingest` walks them): its type,
    language, how many units and chunks it gave, what loading did, the parser's doubts, unresolved
    references; or why it could not be read. JSON-able."""
    rows = []
    for path, entry in discover_documents([Path(p) for p in paths]):
        try:
            doc = load_document(path, manifest_entry=entry)
            chunks = chunk_document(doc, chunker=chunker, max_chars=max_chars)
        except DocumentError as e:
            rows.append({"path": str(path), "error": str(e)})
            continue
        units = sum(1 for _ in structural_units(doc.tree))
        rows.append({
            "path": str(path), "doc_id": doc.meta.doc_id, "doc_type": doc.meta.doc_type,
            "language": doc.meta.language, "origin": doc.origin, "chars": len(doc.text), "units": units,
            "chunks": len(chunks), "flags": [f for f in doc.flags if not f.startswith("inferred:")],
            "notes": _structure_checks(list(doc.flags)),
            "unresolved_refs": len(unresolved_refs(doc, chunks)),
        })
    return rows


def render_survey(rows: list[dict]) -> str:
    """The survey as a table, then the notes of each file that has any; the files that failed last."""
    lines = [f"{'file':<48} {'type':<14} {'lang':<4} {'units':>5} {'chunks':>6} {'refs?':>5}  flags"]
    for row in rows:
        if "error" in row:
            continue
        name = row["path"] if len(row["path"]) <= 48 else "…" + row["path"][-47:]
        shown = [f for f in row["flags"] if not f.startswith(("1341:", "ocr_lang:"))]
        lines.append(f"{name:<48} {row['doc_type'] or '-':<14} {row['language'] or '-':<4} {row['units']:>5} "
                     f"{row['chunks']:>6} {row['unresolved_refs']:>5}  {', '.join(shown) or '-'}")
    noted = [row for row in rows if row.get("notes")]
    if noted:
        lines.append("")
        for row in noted:
            lines += [f"{row['path']}:"] + [f"  {note}" for note in row["notes"]]
    failed = [row for row in rows if "error" in row]
    if failed:
        lines.append("")
        lines += [f"FAILED {row['path']}: {row['error']}" for row in failed]
    read = len(rows) - len(failed)
    lines.append(f"\n{read} file(s) read, {len(failed)} failed; `legalsearch inspect FILE` shows one in full")
    return "\n".join(lines)


def render_inspection(result: dict) -> str:
    """Human-readable report of `inspect_document`: header, tree, chunk table, problems."""
    meta = result["meta"]
    lines = [
        f"{result['source_path']}  ({result['chars']} chars, {result['origin']}, sha256 {result['doc_sha256'][:12]})",
        f"doc_id={meta['doc_id']} version={meta['version']} type={meta['doc_type']} lang={meta['language']} "
        f"jurisdiction={meta['jurisdiction']} valid={meta['valid_from']}..{meta['valid_to'] or 'open'}",
        f"title: {meta['title']}",
        f"flags: {', '.join(result['flags']) or '-'}",
    ]
    lines += _structure_checks(result["flags"])
    lines += [
        "",
        "Structure:",
    ]
    _render_tree(result["tree"], 0, lines)
    lines += ["", f"Chunks ({result['chunker']}, {len(result['chunks'])}):",
              f"{'#':>4}  {'offsets':>13}  {'chars':>5}  {'page':>4}  {'section':<8}  path / labels / refs"]
    for c in result["chunks"]:
        position = c["chunk_id"].rsplit(":", 1)[-1]
        offsets = f"{c['char_start']}-{c['char_end']}"
        lines.append(f"{position:>4}  {offsets:>13}  {c['chars']:>5}  {c['page'] or '-':>4}  "
                     f"{c['section'] or '-':<8}  {' > '.join(c['heading_path']) or '-'}")
        extras = []
        if c["clause_labels"]:
            extras.append("labels: " + ", ".join(c["clause_labels"]))
        if c["xrefs"]:
            extras.append("refs: " + "; ".join(_ref_text(r) for r in c["xrefs"]))
        if c["defined_terms"]:
            extras.append("defines: " + ", ".join(c["defined_terms"]))
        for extra in extras:
            lines.append(" " * 44 + extra)
    if result["unresolved_refs"]:
        lines += ["", "Unresolved internal references:"]
        lines += [f"  {r['raw']!r} at {r['char_start']}" for r in result["unresolved_refs"]]
    if result.get("double_signature"):
        ds = result["double_signature"]
        lines += ["", f"Double signature (artt. 1341-1342 c.c.): present={ds['present']} "
                      f"approved={','.join(ds['approved_articles']) or '-'} "
                      f"uncovered={','.join(ds['uncovered_articles']) or '-'}"]
    return "\n".join(lines)


_DOUBTS = {
    "sentence_titles": "titles that read as first sentences (dropped)",
    "nesting": "units nested under units of a lower level",
    "giant_unit": "a unit hundreds of times larger than its siblings",
    "numbering": "numbers that go back, repeat or skip",
    "numbering_severe": "half the numbers out of sequence",
}


_LOADING = {
    "page_edges_removed": "page edges: {} running header, footer and page-number lines removed",
    "dehyphenated": "line-end word breaks: {} joined",
    "docx_numbers": "Word numbering: {} paragraph numbers written in (Word draws them, the text does not hold them)",
    "html_numbers": "HTML lists: {} item numbers written in (the browser draws them)",
}


def _structure_checks(flags: list[str]) -> list[str]:
    """What loading did to the text, the parser's doubts about the structure, in words, and the
    fallback it used."""
    lines = []
    for flag in flags:
        name, _, count = flag.partition(":")
        if name in _LOADING:
            lines.append(_LOADING[name].format(count))
            continue
        if flag.startswith("structure_doubt:"):
            name, _, detail = flag.removeprefix("structure_doubt:").partition(":")
            lines.append(f"structure doubt: {_DOUBTS.get(name, name)}" + (f" ({detail})" if detail else ""))
        elif flag == "amends_another":
            lines.append("amends another document: its references to \"the Agreement\" / \"il Contratto\" are that "
                         "document's, linked at ingest when it is in the same index")
            if "inferred:valid_from" in flags:
                lines.append("in force from the date it says its changes take effect (valid_from, read from the text; "
                             "a sidecar's valid_from wins)")
        elif flag == "structure_fallback:paragraphs":
            lines.append("structure fallback: the text's paragraphs (the units found could not be trusted)")
        elif flag.startswith("structure_fallback:units:"):
            kind = flag.rsplit(":", 1)[-1]
            lines.append(f"structure fallback: the outermost {kind} units only, flat (sub-structure dropped)")
    return lines


def _node_dict(node: StructureNode, language: str, name: str | None = None) -> dict:
    """One node as data; `name` names the bare-numbered units as the chunks do ("Paragraph 4" in a
    judgment)."""
    return {
        "kind": node.kind, "label": node.label, "title": node.title, "heading": node.heading,
        "display": describe_node(node, language, unit_name=name) if node.kind != "document" else "document",
        "char_start": node.char_start, "char_end": node.char_end,
        "children": [_node_dict(c, language, name) for c in node.children],
    }


def _render_tree(node: dict, depth: int, lines: list[str]) -> None:
    if node["kind"] != "document":
        lines.append(f"{'  ' * depth}{node['display']}  [{node['kind']} {node['char_start']}-{node['char_end']}]")
    for child in node["children"]:
        if child["kind"] in ("paragraph", "comma") and depth >= 3:
            continue
        _render_tree(child, depth + (node["kind"] != "document"), lines)


def _ref_dict(ref) -> dict:
    return {
        "raw": ref.raw, "kind": ref.kind, "target": ref.target, "external": ref.external, "code": ref.code,
        "char_start": ref.char_start, "char_end": ref.char_end, "resolved_section": ref.resolved_section,
        "resolved_chunk_ids": list(ref.resolved_chunk_ids),
    }


def _ref_text(ref: dict) -> str:
    if ref["external"]:
        return f"{ref['kind']} {ref['target']} ({ref['code']})"
    target = ",".join(i.rsplit(":", 1)[-1] for i in ref["resolved_chunk_ids"]) or "unresolved"
    return f"{ref['kind']} {ref['target']} -> {target}"


def _preview(text: str, limit: int = 120) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
