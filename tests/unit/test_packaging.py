"""What the wheel puts on a user's path: one import name, `legalsearch`, with the JSON data inside."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _setuptools() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_the_package_list_names_every_package_folder():
    folders = {"legalsearch" + ("." + ".".join(p.parent.relative_to(REPO / "search").parts)
                                if p.parent != REPO / "search" else "")
               for p in (REPO / "search").rglob("__init__.py")}
    declared = set(_setuptools()["packages"])
    assert declared - {"legalsearch.mappings", "legalsearch.analyzers"} == folders


def test_nothing_generic_is_installed_at_the_top_level():
    tops = {name.split(".")[0] for name in _setuptools()["packages"]}
    assert tops == {"legalsearch"}
    assert "py-modules" not in _setuptools()


def test_mappings_and_analyzers_are_package_data():
    assert resources.files("legalsearch.mappings").joinpath("chunks.json").is_file()
    assert resources.files("legalsearch.analyzers").joinpath("legal.json").is_file()


def test_the_built_wheel_holds_the_data_and_only_legalsearch(tmp_path):
    """A real (non-editable) wheel: the JSON data, the profiles and the page are inside it."""
    import shutil
    import subprocess
    import sys
    import zipfile

    source = tmp_path / "src"  # a copy, so the build leaves nothing in the checkout
    for name in ("search", "mappings", "analyzers"):
        shutil.copytree(REPO / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp_path), str(source)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("legalsearch-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names if not n.startswith("legalsearch-")} == {"legalsearch"}
    for needed in ("legalsearch/mappings/chunks.json", "legalsearch/analyzers/legal.json",
                   "legalsearch/query/profiles/default.json", "legalsearch/query/profiles/rescore.json",
                   "legalsearch/web/static/index.html", "legalsearch/cli/__init__.py"):
        assert needed in names, needed


def test_the_demo_finds_the_shipped_sample_corpus():
    from legalsearch import demo

    assert demo.SAMPLES == REPO / "samples" / "corpus" and any(demo.SAMPLES.glob("*.txt"))
