"""The CLI's help is complete and documented (like sqlite-utils tests/test_docs.py)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from legalsearch import cli
from legalsearch.tools import clidoc

COMMANDS = [name for name, cmd in clidoc.commands(cli.main)]


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_has_help_with_an_example(name):
    cmd = dict(clidoc.commands(cli.main))[name]
    assert cmd.help and len(cmd.help.strip()) > 20, name
    if not hasattr(cmd, "commands"):
        assert "Example:" in cmd.help, f"{name} needs an Example: in its docstring"


def test_cli_reference_is_current():
    assert clidoc.is_current(cli.main), "docs/cli.md is out of date: run `legalsearch reference`"


def test_version_and_short_help():
    runner = CliRunner()
    assert runner.invoke(cli.main, ["--version"]).output.startswith("legalsearch, version")
    assert runner.invoke(cli.main, ["-h"]).exit_code == 0


def test_bad_usage_exits_2():
    result = CliRunner().invoke(cli.main, ["search", "x", "--mode", "fuzzy"])
    assert result.exit_code == 2


def test_ingest_needs_a_path():
    result = CliRunner().invoke(cli.main, ["ingest"])
    assert result.exit_code == 2 and "PATH" in result.output


def test_inspect_needs_no_node(tmp_path):
    doc = tmp_path / "c.txt"
    doc.write_text("1. Definitions\nIn this Agreement \"Fees\" means the fees.\n\n2. Term\nSubject to clause 1, ...\n")
    result = CliRunner().invoke(cli.main, ["inspect", str(doc), "--json"])
    assert result.exit_code == 0, result.output
    assert '"chunks"' in result.output


@pytest.mark.parametrize("args", [["search", "   "], ["search", "x", "--routing-docs", "0"],
                                  ["search", "x", "--rank-constant", "-1"]])
def test_bad_search_input_is_one_line_and_json_when_asked(args):
    """Validated before any node is needed: exit 2, one line; with --json, a JSON object on stdout."""
    plain = CliRunner().invoke(cli.main, args)
    assert plain.exit_code == 2
    message = [line for line in plain.output.splitlines() if line.startswith("Error:")]
    assert len(message) == 1 and ("bad search request" in message[0] or "empty" in message[0])
    assert "pydantic" not in plain.output and "http" not in plain.output
    as_json = CliRunner().invoke(cli.main, [*args, "--json"])
    assert as_json.exit_code == 2
    error = json.loads(as_json.stdout)
    assert error["type"] == "UsageError" and "\n" not in error["error"]


def test_glossary_show_prints_the_words_bm25_would_read_without_a_node(tmp_path):
    result = CliRunner().invoke(cli.main, ["glossary", "show", "Which court hears disputes?", "--json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert (shown["source"], shown["target"]) == ("en", "it")
    assert "tribunale" in shown["other_language_search"] and "delle" not in shown["other_language_search"]
    assert set(shown["named_document_search"]) <= set(shown["other_language_search"])
    own = tmp_path / "firm.tsv"
    own.write_text("redline\tcontrodeduzioni\n", encoding="utf-8")
    mine = CliRunner().invoke(cli.main, ["glossary", "show", "Send the redline", "--file", str(own)])
    assert mine.exit_code == 0 and "controdeduzioni" in mine.output
    same = CliRunner().invoke(cli.main, ["glossary", "show", "Which court hears disputes?", "--to", "en"])
    assert same.exit_code == 2 and "own language" in same.output


def test_glossary_check_counts_a_good_file_and_names_a_bad_line(tmp_path):
    good = tmp_path / "good.tsv"
    good.write_text("# ours\nredline\tcontrodeduzioni\npenalty\tpenale contrattuale\n", encoding="utf-8")
    result = CliRunner().invoke(cli.main, ["glossary", "check", str(good), "--json"])
    assert result.exit_code == 0, result.output
    rows = {(r["from"], r["to"]): r for r in json.loads(result.output)["directions"]}
    assert rows[("en", "it")]["terms"] == 2 and rows[("en", "it")]["also_shipped"] == 1
    bad = tmp_path / "bad.tsv"
    bad.write_text("redline\tcontrodeduzioni\nno tab\n", encoding="utf-8")
    failed = CliRunner().invoke(cli.main, ["glossary", "check", str(bad)])
    assert failed.exit_code == 1 and "line 2" in failed.output


def test_references_past_the_expansion_limit_are_one_line_of_the_human_output():
    from legalsearch.query.models import BEYOND_LIMIT, SearchResponse

    past = [{"chunk_id": "maud:6.1", "ref": f"Section 4.{n}", "target": f"4.{n}", "reason": BEYOND_LIMIT}
            for n in range(1, 9)]
    filtered = {"chunk_id": "maud:6.1", "ref": "Schedule 2", "target": "Schedule 2",
                "reason": "not available under the caller's filters (access or validity date)"}
    text = cli._render_search(SearchResponse(query="q", hits=[], not_found=True, unfollowed_refs=[filtered, *past]))
    lines = [line for line in text.splitlines() if line.startswith("unfollowed:")]
    assert lines[0] == f"unfollowed: Schedule 2 in maud:6.1 ({filtered['reason']})"
    assert lines[1].startswith("unfollowed: 8 references past the limit of chunks added per hit (Section 4.1, ")
    assert "Section 4.6, ...; --xref-limit raises it" in lines[1] and "Section 4.7" not in lines[1]
    assert len(lines) == 2
