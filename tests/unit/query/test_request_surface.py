"""One definition of a search: every request option reaches every surface from the model, and
profiles, `--set` and named options stack in one documented order."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from legalsearch import cli
from legalsearch.errors import ConfigError, QueryError
from legalsearch.query import profiles
from legalsearch.query.models import FLAT, INTERNAL, TOP_LEVEL, SearchRequest, option_fields
from pydantic import ValidationError

API_ONLY: frozenset[str] = frozenset()
"""Request options with no CLI option (none today; a new one must be named here on purpose)."""

COMMANDS = ("search", "context", "explain")


def _params(name: str) -> dict[str, object]:
    return {p.name: p for p in cli.main.commands[name].params}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_request_option_is_an_option_of_the_command(command):
    params = _params(command)
    flat_names = {flat for flat, *_ in option_fields()}
    assert flat_names == set(TOP_LEVEL) | set(FLAT)
    missing = flat_names - set(params) - API_ONLY
    assert not missing, f"request options without a CLI option on {command}: {sorted(missing)}"
    assert ("filters", "doc_keys") in INTERNAL and "doc_keys" not in params


@pytest.mark.parametrize("command", COMMANDS)
def test_the_help_shows_the_models_defaults_and_descriptions(command):
    params = _params(command)
    for flat, _group, _field, info in option_fields():
        option = params[flat]
        assert option.default is None, f"{flat}: a click default would hide the profile's value"
        assert (info.description or "").split(".")[0] in option.help, flat


def test_search_help_shows_the_everyday_options_and_help_all_the_rest():
    runner = CliRunner()
    short = runner.invoke(cli.main, ["search", "--help"]).output
    full = runner.invoke(cli.main, ["search", "--help-all"]).output
    shown = [line.split()[0] for line in short.splitlines() if line.startswith("  -")]
    assert len([s for s in shown if s not in ("-h,", "--help-all")]) <= 13, shown
    assert "--rerank-depth" not in short and "--rerank-depth" in full
    assert "(experimental)" in full and "(routing)" in full
    for flat, *_ in option_fields():
        assert _params("search")[flat].opts[0] in full


def test_flat_and_grouped_names_build_the_same_request():
    flat = SearchRequest(query="q", as_of="2026-01-01", routing_docs=5, rerank="e5", expand_xrefs=False,
                         weights="0.2,0.8", routing_weights="0.4,0.6")
    grouped = SearchRequest(query="q", filters={"as_of": "2026-01-01"}, routing={"docs": 5},
                            rerank={"method": "e5"}, expansion={"xrefs": False}, fusion={"weights": (0.2, 0.8)},
                            experimental={"routing_weights": (0.4, 0.6)})
    dotted = SearchRequest(query="q", **{"filters.as_of": "2026-01-01", "routing.docs": 5, "rerank.method": "e5",
                                         "expansion.xrefs": False, "fusion.weights": "0.2,0.8",
                                         "experimental.routing_weights": "0.4,0.6"})
    assert flat == grouped == dotted
    assert SearchRequest(query="q", **flat.flat()) == flat
    assert flat.replace(k=3).k == 3 and flat.replace(k=3).routing.docs == 5


def test_a_caller_cannot_set_what_routing_sets_or_an_unknown_option():
    with pytest.raises(ValidationError, match="doc_keys"):
        SearchRequest(query="q", filters={"doc_keys": ["a:1"]})
    with pytest.raises(ValidationError, match="rerank_dpth"):
        SearchRequest(query="q", rerank_dpth=3)


def test_every_shipped_profile_loads_states_its_baseline_and_changes_something_or_nothing_on_purpose():
    assert set(profiles.names()) >= {"default", "rescore", "fast", "bm25"}
    for name in profiles.names():
        profile = profiles.load(name)
        assert profile.version >= 1 and profile.description
        assert profile.name == name and (profile.extends or name == "default")
        SearchRequest(query="-", **profiles.options(name))
    assert profiles.options("default") == {}
    rescore = SearchRequest(query="-", **profiles.options("rescore"))
    assert (rescore.rerank.method, rescore.rerank.depth, rescore.rerank.weight, rescore.rerank.neighbours) == (
        "e5+clause", 32, 0.8, 0.2)
    fast = SearchRequest(query="-", **profiles.options("fast"))
    assert fast.rerank.method == "off" and not fast.expansion.xrefs and not fast.expansion.definitions
    assert SearchRequest(query="-", **profiles.options("bm25")).mode == "bm25"


def test_precedence_model_then_profile_then_set_then_named():
    req = profiles.build_request("q", profile="rescore", overrides={"rerank_depth": 16, "k": 4}, k=7)
    assert (req.rerank.method, req.rerank.depth, req.k) == ("e5+clause", 16, 7)
    assert profiles.build_request("q", profile="rescore", rerank="off").rerank.method == "off"
    assert profiles.build_request("q") == SearchRequest(query="q")


def test_a_profile_file_is_a_profile_and_a_bad_one_is_refused(tmp_path):
    good = tmp_path / "team.json"
    good.write_text(json.dumps({"name": "team", "description": "ours", "extends": "rescore",
                                "set": {"routing_docs": 5}}))
    req = profiles.build_request("q", profile=str(good))
    assert req.routing.docs == 5 and req.rerank.method == "e5+clause"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "bad", "description": "typo", "set": {"routing_dcos": 5}}))
    with pytest.raises(ConfigError, match="routing_dcos"):
        profiles.load(str(bad))
    loop = tmp_path / "loop.json"
    loop.write_text(json.dumps({"name": "loop", "description": "x", "extends": str(loop)}))
    with pytest.raises(ConfigError, match="extends itself"):
        profiles.options(str(loop))
    with pytest.raises(ConfigError, match="no profile 'nope'"):
        profiles.load("nope")


def test_set_pairs_are_read_as_json_values_or_strings():
    assert profiles.parse_assignments(["rerank_depth=32", "expand_xrefs=false", "weights=0.2,0.8",
                                       "rerank=e5", "rerank-weight=0.5"]) == {
        "rerank_depth": 32, "expand_xrefs": False, "weights": "0.2,0.8", "rerank": "e5", "rerank_weight": 0.5}
    with pytest.raises(QueryError, match="key=value"):
        profiles.parse_assignments(["rerank_depth"])
    with pytest.raises(QueryError, match="no such option"):
        profiles.parse_assignments(["depth=3"])


def test_bad_options_are_bad_usage_and_json_errors_with_json():
    runner = CliRunner()
    bad_set = runner.invoke(cli.main, ["search", "q", "--set", "nope=1"])
    assert bad_set.exit_code == 2 and "no such option" in bad_set.output
    bad_profile = runner.invoke(cli.main, ["search", "q", "--profile", "nope"])
    assert bad_profile.exit_code == 2 and "no profile 'nope'" in bad_profile.output
    bad_date = runner.invoke(cli.main, ["search", "q", "--as-of", "2026-13-45", "--json"])
    assert bad_date.exit_code == 2
    error = json.loads(bad_date.output)
    assert error["type"] == "UsageError" and "as_of" in error["error"]
