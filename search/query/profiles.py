"""Profiles: named, versioned presets of the request's tuning options, kept as JSON files.

A profile states its baseline (`extends`, another profile) and the options it changes (`set`,
by their flat names: `rerank_depth`, `expand_xrefs`, ...); everything else is the request model's
default (legalsearch.query.models). The shipped ones are package data (profiles/*.json beside this
module): `default` (the model's defaults), `rescore`, `fast` and `bm25`. A path to a JSON file of
the same shape is a profile too, so a team can keep its own beside its configuration.

Precedence when a request is built: model defaults < profile < `overrides` (`--set key=value`) <
options given by name (`--rerank e5`, `k=5`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from legalsearch.errors import ConfigError, QueryError
from legalsearch.query.models import FLAT, TOP_LEVEL, SearchRequest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

DEFAULT_PROFILE = "default"

SETTABLE: tuple[str, ...] = (*TOP_LEVEL, *FLAT)
"""The option names a profile, `--set` or a configuration may set (all but the question)."""


class Profile(BaseModel):
    """One preset: its name, version, what it is for, its baseline and the options it changes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    version: int = Field(1, ge=1, description="Raised when the preset's meaning changes.")
    description: str
    extends: str | None = Field(None, description="The profile this one starts from (none: the model defaults).")
    set: dict[str, Any] = Field(default_factory=dict, description="Options changed, by flat name.")


def names() -> list[str]:
    """The shipped profiles, sorted (the folder is read once: every request resolves a profile)."""
    return list(_shipped_names())


@cache
def _shipped_names() -> tuple[str, ...]:
    folder = resources.files("legalsearch.query").joinpath("profiles")
    return tuple(sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json")))


@cache
def _shipped(name: str) -> Profile:
    text = resources.files("legalsearch.query").joinpath("profiles", f"{name}.json").read_text(encoding="utf-8")
    return _parse(text, f"profile {name!r}")


def _parse(text: str, what: str) -> Profile:
    try:
        profile = Profile.model_validate_json(text)
    except ValidationError as e:
        raise ConfigError(f"{what}: {e.errors()[0]['loc']}: {e.errors()[0]['msg']}") from e
    check_options(profile.set, what)
    return profile


def load(name_or_path: str | Path) -> Profile:
    """A shipped profile by name, or a profile file by path.

    Raises:
        ConfigError: no such profile (naming the shipped ones), or a file that is not a valid profile.
    """
    text = str(name_or_path)
    if text in names():
        return _shipped(text)
    path = Path(text)
    if path.suffix == ".json" and path.is_file():
        return _parse(path.read_text(encoding="utf-8"), str(path))
    raise ConfigError(f"no profile {text!r}: choose one of {', '.join(names())} or give the path of a profile file")


def options(name_or_path: str | Path | None) -> dict[str, Any]:
    """The options a profile sets, its baselines' first (by flat name).

    Raises:
        ConfigError: an unknown profile, or a circle of `extends`.
    """
    if name_or_path is None:
        name_or_path = DEFAULT_PROFILE
    chain: list[Profile] = []
    seen: set[str] = set()
    current: str | Path | None = name_or_path
    while current is not None:
        profile = load(current)
        if profile.name in seen:
            raise ConfigError(f"profile {profile.name!r} extends itself (through {' -> '.join(seen)})")
        seen.add(profile.name)
        chain.append(profile)
        current = profile.extends
    merged: dict[str, Any] = {}
    for profile in reversed(chain):
        merged.update(profile.set)
    return merged


def check_options(values: Mapping[str, Any], what: str) -> None:
    """Refuse option names no request has, and values the request model refuses.

    Raises:
        ConfigError: naming the option and what is accepted.
    """
    unknown = [key for key in values if key not in SETTABLE]
    if unknown:
        raise ConfigError(f"{what}: unknown option(s) {', '.join(map(repr, unknown))}; options are "
                          f"{', '.join(SETTABLE)}")
    try:
        SearchRequest(query="-", **values)
    except ValidationError as e:
        first = e.errors()[0]
        raise ConfigError(f"{what}: {'.'.join(map(str, first['loc']))}: {first['msg']}") from e


def parse_assignments(pairs: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """`--set key=value` pairs as options: a value is read as JSON when it parses (numbers, true,
    null, [..]), else taken as a string; `weights=0.2,0.8` stays a string the model splits.

    Raises:
        QueryError: a pair without '=' or with an unknown key.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise QueryError(f"--set expects key=value, got {pair!r}")
        if key not in SETTABLE:
            raise QueryError(f"--set {key}: no such option; options are {', '.join(SETTABLE)}")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out


def build_request(query: str, *, profile: str | Path | None = None, overrides: Mapping[str, Any] | None = None,
                  **named: Any) -> SearchRequest:
    """The request for `query`: the profile's options, then `overrides`, then the options given by
    name (None means "not given"); flat or grouped names alike.

    Raises:
        ConfigError: an unknown profile. pydantic.ValidationError: a bad option.
    """
    values: dict[str, Any] = {**options(profile), **(overrides or {})}
    values.update({key: value for key, value in named.items() if value is not None})
    return SearchRequest(query=query, **values)
