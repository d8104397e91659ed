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
