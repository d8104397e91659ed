"""Which files to load: CLI arguments (files, folders, a JSONL manifest) -> (path, manifest entry)."""

from __future__ import annotations

from pathlib import Path

from legalsearch.load.extract import SUPPORTED_EXTENSIONS
from legalsearch.load.metadata import is_sidecar, read_manifest


def discover_documents(paths: list[Path], manifest: Path | None = None) -> list[tuple[Path, dict | None]]:
    """Files to load from CLI arguments: files, folders (walked) and a JSONL manifest.

    Folders are walked recursively; hidden files and folders, sidecars (`*.meta.json`)
    and unsupported extensions are skipped. Manifest entries carry their metadata fields;
    a walked file listed in the manifest gets its entry. A path that does not exist is
    kept, so that loading reports it as an error for that file only.
    """
    entries: dict[Path, dict] = {}
    if manifest is not None:
        for target, fields in read_manifest(Path(manifest)):
            entries[target.resolve()] = fields
    found: dict[Path, Path] = {}
    for raw in paths:
        root = Path(raw)
        if root.is_dir():
            for candidate in sorted(root.rglob("*")):
                relative = candidate.relative_to(root)
                if any(part.startswith(".") for part in relative.parts) or not candidate.is_file():
                    continue
                if _wanted(candidate):
                    found.setdefault(candidate.resolve(), candidate)
        elif not root.exists() or _wanted(root):
            found.setdefault(root.resolve(), root)
    for target in entries:
        found.setdefault(target, target)
    return [(shown, entries.get(key)) for key, shown in sorted(found.items(), key=lambda kv: str(kv[1]))]


def _wanted(path: Path) -> bool:
    return not is_sidecar(path) and path.suffix.lower() in SUPPORTED_EXTENSIONS
