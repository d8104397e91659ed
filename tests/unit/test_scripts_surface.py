"""The project's scripts (benchmarks/, evaluation/gold/*/tools) reach the package's internals
only through legalsearch.scripts, and every name that module promises resolves: a module that
moves breaks this test, not a benchmark nobody runs for a month."""

from __future__ import annotations

import re
from pathlib import Path

import legalsearch.scripts

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = sorted([*REPO.glob("benchmarks/*.py"), *REPO.glob("evaluation/gold/*/tools/*.py"),
                  *REPO.glob("evaluation/gold/tools/*.py")])
# every `import legalsearch...` / `from legalsearch... import`, also inside the code strings that
# benchmarks run in a child process
IMPORT = re.compile(r"^\s*(?:from|import)\s+(legalsearch[\w.]*)", re.MULTILINE)
# benchmarks/startup.py times the import of the CLI module, what the console script imports
ALLOWED = {"legalsearch", "legalsearch.scripts", "legalsearch.cli"}


def test_every_name_of_the_scripts_surface_resolves():
    for name in legalsearch.scripts.__all__:
        assert getattr(legalsearch.scripts, name) is not None, name
    assert legalsearch.scripts.gold_summary.__module__ == "legalsearch.evaluation.gold"


def test_an_unknown_name_is_an_attribute_error():
    try:
        legalsearch.scripts.no_such_name  # noqa: B018
    except AttributeError as e:
        assert "no_such_name" in str(e)
    else:
        raise AssertionError("expected AttributeError")


def test_the_scripts_import_only_the_public_api_and_the_scripts_surface():
    assert len(SCRIPTS) >= 20, SCRIPTS
    offenders = {str(p.relative_to(REPO)): sorted(set(found) - ALLOWED) for p in SCRIPTS
                 if set(found := IMPORT.findall(p.read_text())) - ALLOWED}
    assert offenders == {}, "import these through legalsearch.scripts"
    assert "import legalsearch.cli" in (REPO / "benchmarks" / "startup.py").read_text()
