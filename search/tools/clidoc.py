"""The CLI reference (docs/cli.md) generated from the click commands' own help.

    legalsearch reference           # rewrite docs/cli.md (a hidden command)
    legalsearch reference --check   # exit 1 if docs/cli.md is out of date (a test runs the check)
"""

from __future__ import annotations

from pathlib import Path

import click

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def commands(group: click.Group, prefix: str = "legalsearch") -> list[tuple[str, click.Command]]:
    """Every command and group, depth first, with its full name."""
    out: list[tuple[str, click.Command]] = [(prefix, group)]
    for name in sorted(group.commands):
        cmd = group.commands[name]
        if cmd.hidden:
            continue
        full = f"{prefix} {name}"
        if isinstance(cmd, click.Group):
            out += commands(cmd, full)
        else:
            out.append((full, cmd))
    return out


def render(group: click.Group) -> str:
    parts = ["# CLI reference\n", "Generated from `--help` by `legalsearch reference`; a test checks it is current.\n"]
    for full, cmd in commands(group):
        ctx = click.Context(cmd, info_name=full, terminal_width=100, max_content_width=100,
                            help_option_names=["-h", "--help"])
        # the reference shows every option: the tuning knobs `--help` leaves to `--help-all` too
        hidden = [p for p in cmd.params if isinstance(p, click.Option) and p.hidden]
        for param in hidden:
            param.hidden = False
        try:
            text = cmd.get_help(ctx).rstrip()
        finally:
            for param in hidden:
                param.hidden = True
        parts.append(f"## `{full}`\n\n```text\n{text}\n```\n")
    return "\n".join(parts)


def is_current(group: click.Group, doc: Path = DOC) -> bool:
    return doc.is_file() and doc.read_text() == render(group)


def write(group: click.Group, doc: Path = DOC) -> Path:
    doc.write_text(render(group))
    return doc
