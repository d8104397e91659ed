"""Rules of the layout that import-linter cannot see: who reads the environment, and that the
package root exports exactly the public API."""

from __future__ import annotations

import ast
from pathlib import Path

import legalsearch

PACKAGE = Path(legalsearch.__file__).resolve().parent


def _reads_environment(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb"):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os" and any(
                a.name in ("environ", "getenv") for a in node.names):
            lines.append(node.lineno)
    return lines


def test_only_the_settings_module_reads_the_environment():
    offenders = {str(p.relative_to(PACKAGE)): lines for p in sorted(PACKAGE.rglob("*.py"))
                 if p.name != "config.py" and (lines := _reads_environment(p))}
    assert offenders == {}, "read settings from legalsearch.config.Settings instead"


def test_the_root_exports_the_public_api():
    for name in legalsearch.__all__:
        assert getattr(legalsearch, name) is not None, name
    assert set(legalsearch.__all__) - {"__version__"} == set(legalsearch._EXPORTS)


def test_every_public_name_is_documented_and_the_reference_is_current():
    from legalsearch.tools import apidoc

    text = apidoc.DOC.read_text()
    missing = [name for name in legalsearch.__all__ if f"### `{name}`" not in text]
    assert not missing, f"undocumented in docs/python.md: {missing}"
    assert apidoc.is_current(), "docs/python.md is out of date: run `legalsearch reference`"
