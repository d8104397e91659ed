"""The CLI reference (docs/cli.md) generated from the click commands' own help.

    python -m search.clidoc          # rewrite docs/cli.md
    python -m search.clidoc --check  # exit 1 if docs/cli.md is out of date (run by the tests)
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

DOC = Path(__file__).resolve().parent.parent / "docs" / "cli.md"


def commands(group: click.Group, prefix: str = "legalsearch") -> list[tuple[str, click.Command]]:
    """Every command and group, depth first, with its full name."""
    out: list[tuple[str, click.Command]] = [(prefix, group)]
    for name in sorted(group.commands):
        cmd = group.commands[name]
        full = f"{prefix} {name}"
        if isinstance(cmd, click.Group):
            out += commands(cmd, full)
        else:
            out.append((full, cmd))
    return out


def render(group: click.Group) -> str:
    parts = ["# CLI reference\n", "Generated from `--help` by `python -m search.clidoc`; a test checks it is current.\n"]
    for full, cmd in commands(group):
        ctx = click.Context(cmd, info_name=full, terminal_width=100, max_content_width=100,
                            help_option_names=["-h", "--help"])
        parts.append(f"## `{full}`\n\n```text\n{cmd.get_help(ctx).rstrip()}\n```\n")
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    import cli

    text = render(cli.main)
    if "--check" in argv:
        if not DOC.is_file() or DOC.read_text() != text:
            print(f"{DOC} is out of date: run `python -m search.clidoc`", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text)
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
