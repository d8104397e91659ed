"""The gold tools of rounds 2 and 3 (evaluation/gold/round*/tools, sharing
evaluation/gold/tools/goldlib.py) still make the committed files byte for byte, and the
structural check finds those files clean and a broken copy broken. No server: the loader and
the chunker only."""

from __future__ import annotations

import importlib.util
import json
import logging
import sys
from pathlib import Path

import pytest

GOLD = Path(__file__).resolve().parents[2] / "evaluation" / "gold"
ROUNDS = ("round2", "round3")


def tool(round_: str, name: str):
    path = GOLD / round_ / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"gold_{round_}_{name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # adds evaluation/gold/tools to sys.path, as when it runs
    return module


@pytest.mark.parametrize("round_", ROUNDS)
def test_the_builder_and_generators_remake_the_committed_files(round_, tmp_path, capsys):
    tool(round_, "build_gold").GOLD.main([str(tmp_path / "gold.jsonl")])
    assert (tmp_path / "gold.jsonl").read_bytes() == (GOLD / round_ / f"{round_}-gold.jsonl").read_bytes()
    for name in ("gen_ndas", "gen_statute"):
        tool(round_, name).main(tmp_path / "corpus")
    made = sorted((tmp_path / "corpus").iterdir())
    assert len(made) == 14
    for path in made:
        assert path.read_bytes() == (GOLD / round_ / "corpus" / path.name).read_bytes(), path.name


@pytest.mark.parametrize("round_", ROUNDS)
def test_the_structural_check_finds_the_committed_gold_set_clean(round_, capsys):
    assert tool(round_, "check_gold").main([]) == 0
    assert capsys.readouterr().out.strip().endswith(" items, 0 errors")


def test_the_structural_check_reports_each_kind_of_error(tmp_path, capsys):
    rows = [json.loads(line) for line in (GOLD / "round3" / "round3-gold.jsonl").read_text().splitlines()]
    rows[0]["notes"] = "untagged " + rows[0]["notes"]
    rows[1]["expected"][0]["section"] = "99.9"
    rows[2]["type"] = "identifier"
    rows[3]["id"] = "r3-it-cid-77"
    rows[4]["expected"].append({"doc_id": "no-such-doc"})
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    check = tool("round3", "check_gold")
    import goldlib  # on sys.path since the tool was loaded

    logging.disable(logging.WARNING)
    try:
        status, _ = goldlib.run_check(broken, GOLD / "round3" / "corpus", [], open_doc_type=True,
                                      conventions=check.conventions)
    finally:
        logging.disable(logging.NOTSET)
    out = capsys.readouterr().out
    assert status == 1
    for message in ("notes without a leading [class:...] tag", "section '99.9' not produced by the parser",
                    "type 'identifier' does not match class", "id does not match language",
                    "no-such-doc vNone: no such document/version"):
        assert message in out, message
    assert out.strip().endswith(" items, 6 errors"), out
    assert str(GOLD / "tools") in sys.path
