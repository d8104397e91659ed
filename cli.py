"""legalsearch admin commands: parse, call the library, print.

Exit codes: 0 success, 1 a failed operation (the message says what to do next), 2 bad usage.
"""

from __future__ import annotations

import json
import logging
import sys

import click

from search import __version__
from search.config import Settings
from search.errors import LegalSearchError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class _Group(click.Group):
    """Turns LegalSearchError into a ClickException (exit 1) with its message."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except LegalSearchError as e:
            raise click.ClickException(str(e)) from e


def _echo_json(data) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")(f)


@click.group(cls=_Group, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", prog_name="legalsearch")
@click.option("-v", "--verbose", count=True, help="More logging on stderr (-vv for debug).")
@click.pass_context
def main(ctx: click.Context, verbose: int) -> None:
    """legalsearch: retrieval that legal RAG can trust, on OpenSearch.

    Hybrid BM25 + k-NN search fused by RRF over structure-aware, summary-augmented chunks of
    contracts, NDAs, privacy policies and statutes (English and Italian), with validity dates,
    ACLs and cross-reference expansion.

    The node: OPENSEARCH_URL (with OPENSEARCH_USER / OPENSEARCH_PASSWORD) points at any node or
    cluster; without it the local node started by `legalsearch node start` is used.

    Example:

        legalsearch node start && legalsearch ingest samples/corpus && legalsearch search "liability cap"
    """
    level = {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    ctx.obj = Settings()


# --------------------------------------------------------------------------- node


@main.group(cls=_Group)
def node() -> None:
    """Install, start, stop and inspect a local OpenSearch node (no Docker needed).

    The node is assembled from Maven Central artifacts (core, k-NN, neural-search, lang-painless,
    analysis-common), bound to 127.0.0.1 and kept under LEGALSEARCH_NODE_HOME.
    """


@node.command("install")
@click.option("--force", is_flag=True, help="Re-assemble even if already installed.")
@click.pass_obj
def node_install(settings: Settings, force: bool) -> None:
    """Download (cached in ~/.m2) and assemble the node. Idempotent.

    Example:

        legalsearch node install
    """
    from search.node import local

    path = local.install(settings, force=force)
    click.echo(f"installed OpenSearch {settings.node_version} at {path}")


@node.command("start")
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for health.")
@click.pass_obj
def node_start(settings: Settings, timeout: float) -> None:
    """Start the local node (installing it first if needed) and wait until it is healthy.

    Prints the URL and the installed plugins. Starting a running node does nothing.

    Example:

        legalsearch node start
    """
    from search import store
    from search.node import local

    state = local.start(settings, timeout=timeout)
    plugins = store.Store(settings, url=state.url).plugins()
    click.echo(f"OpenSearch {state.version} is up at {state.url} (pid {state.pid})")
    click.echo("plugins: " + ", ".join(f"{p['component']} {p['version']}" for p in plugins))
    click.echo(f"data and logs: {state.home}")


@node.command("stop")
@click.pass_obj
def node_stop(settings: Settings) -> None:
    """Stop the local node. Data is kept.

    Example:

        legalsearch node stop
    """
    from search.node import local

    click.echo("stopped" if local.stop(settings) else "no local node was running")


@node.command("status")
@json_option
@click.pass_obj
def node_status(settings: Settings, as_json: bool) -> None:
    """Health, version, plugins, heap and indices of the node in use.

    Exit code 1 when no node answers.

    Example:

        legalsearch node status --json
    """
    from search import status

    report = status.node_status(settings)
    if as_json:
        _echo_json(report)
    else:
        click.echo(status.render(report))
    if not report["reachable"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
