"""Document metadata: sidecars, manifests, validation messages and inference.

Precedence, field by field: an explicit `DocumentMeta` > the manifest entry > the sidecar
(`x.meta.json`, or `x.txt.meta.json`) > inference from the text and file name. Inferred
fields are listed in `DocumentMeta.inferred` (and as "inferred:<field>" flags).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from legalsearch.documents.errors import MetadataError
from legalsearch.documents.models import DocumentMeta
from legalsearch.load.language import detect_language
from legalsearch.parse.doctypes import (
    EU_ACT_KIND,
    EU_ACT_NUMBER,
    EU_MARKER,
    JUDGMENT_LAYOUT,
    PARTY_ROLE,
    eu_act,
)
from legalsearch.parse.references import amends_another, effective_date
from pydantic import ValidationError

SIDECAR_SUFFIX = ".meta.json"

_DOC_TYPE_RULES = (
    ("judgment", JUDGMENT_LAYOUT),
    ("nda", re.compile(r"(?i)\bnon[- ]disclosure agreement\b|\bconfidentiality agreement\b|\bNDA\b"
                       r"|\baccordo di riservatezza\b")),
    ("internal_note", re.compile(r"(?i)\bprivileged\b.{0,80}\bconfidential\b|\binternal (?:note|memo)\b"
                                 r"|\bmemorandum\b|\bnota interna\b")),
    ("privacy_policy", re.compile(r"(?i)\bprivacy (?:policy|notice|statement)\b|\binformativa (?:sulla )?privacy\b"
                                  r"|\bpersonal information we collect\b")),
    # "Retail Leases Act 2020", "BE IT ENACTED" / "BE it enacted by Parliament", Canada's "S.C. 2022, c. 9"
    # and "... enacts as follows:", India's "ACT NO. 14 OF 2021", a long title "An Act respecting ...",
    # Hong Kong's "Cap. 456" line atop an Ordinance (a contract citing "(Cap. 26)" in a sentence is none),
    # Kenya's "ENACTED by the Parliament of Kenya" and "An Act of Parliament to ...", an Italian law's
    # own first line "LEGGE REGIONALE 14 marzo 2022, n. 9" (a contract citing one is none)
    ("statute", re.compile(r"(?m)^.{0,40}\bAct \d{4}\b|\bBE IT ENACTED\b|\b[Bb][Ee] it enacted\b|\benacts as follows\b"
                           r"|\bS\.C\. \d{4}, c\. \d+|^[ \t]*ACT NO\. \d+ OF \d{4}\b"
                           r"|^[ \t]*An (?:Act|Ordinance) (?:respecting|to provide|to regulate|to amend|to establish|to impose|to make)\b"
                           r"|^[ \t]*\(?Cap\. \d+[A-Z]?\)?(?:[ \t]|$)|\bENACTED by the Parliament of\b"
                           r"|^[ \t]*An Act of Parliament to\b"
                           r"|^[ \t]*(?:LEGGE|Legge)(?: (?:REGIONALE|[Rr]egionale))? \d{1,2}[ºo°]? \w+ \d{4}, n\. \d+"
                           r"|\bdecreto legislativo\b|\bgazzetta ufficiale\b"
                           r"|^[ \t]*(?:" + EU_MARKER + r")?" + EU_ACT_KIND + r"[ \t]+" + EU_ACT_NUMBER)),
    ("contract", re.compile(r"(?i)\bagreement\b|\bcontract\b|\bcontratto\b|\bconvenzione\b")),
)


def sidecar_paths(path: Path) -> list[Path]:
    """Candidate sidecars of a document: `x.meta.json`, then `x.txt.meta.json`."""
    return [path.with_name(path.stem + SIDECAR_SUFFIX), path.with_name(path.name + SIDECAR_SUFFIX)]


def is_sidecar(path: Path) -> bool:
    """True for metadata files that must never be ingested as documents."""
    return path.name.endswith(SIDECAR_SUFFIX)


def read_sidecar(path: Path) -> dict[str, Any] | None:
    """The raw sidecar dict of a document, or None when it has none.

    Raises:
        MetadataError: the sidecar exists but is not a JSON object.
    """
    for candidate in sidecar_paths(path):
        if candidate.is_file():
            try:
                data = json.loads(candidate.read_text(encoding="utf-8-sig"))
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                raise MetadataError(f"{candidate}: not valid JSON ({e}); fix the sidecar or remove it") from e
            if not isinstance(data, dict):
                raise MetadataError(f"{candidate}: a sidecar must be one JSON object with metadata fields")
            return data
    return None


def read_manifest(manifest: Path) -> list[tuple[Path, dict[str, Any]]]:
    """Entries of a JSONL manifest: (resolved path, metadata fields without "path").

    Relative paths are resolved against the manifest's folder.

    Raises:
        MetadataError: unreadable manifest, a line that is not a JSON object, or no "path".
    """
    try:
        lines = manifest.read_text(encoding="utf-8-sig").splitlines()
    except OSError as e:
        raise MetadataError(f"{manifest}: cannot read the manifest ({e})") from e
    entries = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise MetadataError(f"{manifest}:{number}: not valid JSON ({e})") from e
        if not isinstance(data, dict) or not isinstance(data.get("path"), str):
            raise MetadataError(f"{manifest}:{number}: each line needs a JSON object with a \"path\" string")
        fields = {k: v for k, v in data.items() if k != "path"}
        target = Path(data["path"])
        entries.append((target if target.is_absolute() else manifest.parent / target, fields))
    return entries


def build_meta(fields: dict[str, Any], source: str) -> DocumentMeta:
    """Validate metadata fields into a `DocumentMeta`.

    Args:
        fields: raw metadata (sidecar / manifest / inferred values merged).
        source: the file the fields come from, named in error messages.

    Raises:
        MetadataError: naming `source` and every bad field, e.g.
            "contract.meta.json: field 'valid_to': valid_to 2019-01-01 is before valid_from ...".
    """
    try:
        return DocumentMeta.model_validate(fields)
    except ValidationError as e:
        problems = []
        for error in e.errors():
            field = ".".join(str(p) for p in error["loc"]) or _range_field(error["msg"])
            message = error["msg"].removeprefix("Value error, ")
            if error["type"] == "extra_forbidden":
                message = "unknown field (not part of DocumentMeta); remove it or fix its spelling"
            problems.append(f"field '{field}': {message}")
        raise MetadataError(f"{source}: " + "; ".join(problems)) from e


def _range_field(message: str) -> str:
    return "valid_to" if "valid_to" in message else "metadata"


def infer_metadata(text: str, path: str | Path) -> dict[str, Any]:
    """Guess doc_id, title, language and doc_type from the text and the file name.

    Returns:
        {"doc_id", "title", "language", "doc_type"}: every inferable field; the caller keeps
        only those the metadata lacks and records them in `inferred`.
    """
    path = Path(path)
    doc_type = infer_doc_type(text)
    return {
        "doc_id": re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-") or "document",
        "title": _infer_title(text, path, doc_type),
        "language": infer_language(text),
        "doc_type": doc_type,
    }


def infer_language(text: str) -> str:
    """The text's language (ISO 639-1, one of `documents.models.LANGUAGES`; see `load.language`)."""
    return detect_language(text)


def infer_doc_type(text: str) -> str:
    """A doc_type from keywords of the first 3,000 characters ("other" when none fits)."""
    head = text[:3000]
    for doc_type, pattern in _DOC_TYPE_RULES:
        if pattern.search(head):
            return doc_type
    return "other"


_AND_RE = re.compile(r"(?i)^[ \t]*(?:-[ \t]*and[ \t]*-|and|v\.?|-v-|vs\.?|contro|e)[ \t]*$")
_CITATION_RE = re.compile(r"\[(?:19|20)\d{2}\] [A-Z]{2,6}(?: Civ| Crim)? \d{1,5}(?: \([A-Za-z]{1,6}\))?")


def judgment_title(text: str) -> str | None:
    """ "Claimant v Defendant [2025] EWHC 1432 (Ch)" from a judgment's parties block: the lines
    around its first "v" / "- and -" line ("Between:" and role words such as "(Claimant)" or
    "Appellant" dropped, capitals made title case) and its neutral citation; None without one."""
    lines = [" ".join(line.split()) for line in text[:3000].splitlines()]

    def party(indices) -> str | None:
        for k in indices:
            line = lines[k]
            if not line or PARTY_ROLE.fullmatch(line):
                continue
            if re.fullmatch(r"(?i)between:?|tra:?", line):
                return None
            name = PARTY_ROLE.sub("", re.sub(r"(?i)^between:?\s*", "", line)).strip(" ,;()-")
            return (name.title() if name.isupper() else name) or None
        return None

    for i, line in enumerate(lines[:80]):
        if _AND_RE.match(line) and i > 0:
            first, second = party(range(i - 1, max(-1, i - 4), -1)), party(range(i + 1, min(len(lines), i + 4)))
            if first and second:
                cited = _CITATION_RE.search(text[:3000])
                return f"{first} v {second}" + (f" {cited.group(0)}" if cited else "")
    return None


_STAMPS = (r"(?:strictly\s+)?(?:private\s+(?:and|&)\s+)?confidential|execution\s+(?:version|copy)|final\s+version"
           r"|draft(?:\s+[\w./–—-]+){0,4}|without\s+prejudice|subject\s+to\s+contract|privileged(?:\s+(?:and|&)\s+confidential)?"
           r"|riservato|strettamente\s+riservato|bozza(?:\s+[\w./–—-]+){0,4}|versione\s+definitiva")
_DATE_LINE = (r"|(?:dated\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]+,?\s+\d{4}|[A-Za-z]+\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
              r"|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})")
_STAMP = re.compile(r"(?i)\W*(?:" + _STAMPS + _DATE_LINE + r")\W*")
_STAMP_SUFFIX = re.compile(r"(?i)\s+[-–—|]\s+(?:" + _STAMPS + r")\W*$")


_MARKER = re.compile("^" + EU_MARKER)


def _infer_title(text: str, path: Path, doc_type: str) -> str:
    if doc_type == "judgment" and (title := judgment_title(text)):
        return title
    if doc_type == "statute" and (act := eu_act(text)):
        return act[1]
    for line in text[:3000].splitlines():
        line = " ".join(line.replace("\ufeff", "").split())
        line = _MARKER.sub("", re.sub(r"^#{1,6}\s+", "", line).strip("*_ "))  # Markdown: "# Ortivo Privacy Notice", "**NDA**"
        if _STAMP.fullmatch(line):
            continue  # "CONFIDENTIAL", "EXECUTION VERSION", "Subject to contract": a stamp, not the title
        line = _STAMP_SUFFIX.sub("", line)
        if 3 <= len(line) <= 120 and any(c.isalpha() for c in line) and not line.lower().startswith("exhibit"):
            return line.rstrip(".:")
    return re.sub(r"[-_]+", " ", path.stem).strip().capitalize() or path.name


def merge_metadata(
    text: str,
    path: Path,
    sidecar: dict[str, Any] | None,
    manifest_entry: dict[str, Any] | None,
    source: str | None = None,
) -> DocumentMeta:
    """Sidecar and manifest fields (manifest wins), then inference for what is missing: doc_id,
    title, language, doc_type, and for an amendment without validity dates the date its changes
    take effect (`parse.references.effective_date`) as valid_from. `source` names the origin in
    error messages (default: the sidecar, manifest or file)."""
    fields: dict[str, Any] = dict(sidecar or {})
    fields.update(manifest_entry or {})
    source = source or _source_name(path, sidecar, manifest_entry)
    guessed = infer_metadata(text, path)
    inferred = list(fields.get("inferred") or [])
    for name in ("doc_id", "title", "language", "doc_type"):
        if fields.get(name) in (None, ""):
            fields[name] = guessed[name]
            if name not in inferred:
                inferred.append(name)
    if not fields.get("valid_from") and not fields.get("valid_to") and amends_another(text) \
            and (effect := effective_date(text)):
        # an amendment is in force from the date it says its changes take effect: before it, the
        # clauses it amends were not amended (a hit's amended_by, the as_of filter)
        fields["valid_from"] = effect[0]
        inferred.append("valid_from")
    fields["inferred"] = inferred
    return build_meta(fields, source)


def _source_name(path: Path, sidecar: dict | None, manifest_entry: dict | None) -> str:
    if manifest_entry:
        return f"{path} (manifest entry)"
    if sidecar is not None:
        existing = [p for p in sidecar_paths(path) if p.is_file()]
        return str(existing[0]) if existing else str(path)
    return str(path)
