"""legalsearch admin commands: parse, call the library (`search.LegalSearch`), print.

Exit codes: 0 success, 1 a failed operation (the message says what to do next), 2 bad usage.
With `--json`, an error is printed as one JSON object on stdout too.
"""

from __future__ import annotations

import functools
import json
import logging
import sys
from pathlib import Path
from typing import get_args

import click

from search import __version__
from search.chunk import CHUNKERS
from search.embed import EMBEDDERS
from search.errors import LegalSearchError, QueryError
from search.evaluation.legalbench import CorpusScope
from search.query.models import FUSIONS, MODES, RERANKERS, ROUTINGS
from search.summarize import SUMMARIZERS

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
    """--json; with it, a failure is also printed as {"error": ..., "type": ...} on stdout."""

    @functools.wraps(f)
    def wrapper(*args, as_json: bool, **kwargs):
        try:
            return f(*args, as_json=as_json, **kwargs)
        except (LegalSearchError, click.UsageError) as e:
            if not as_json:
                raise
            message = e.format_message() if isinstance(e, click.UsageError) else str(e)
            _echo_json({"error": message, "type": type(e).__name__})
            sys.exit(2 if isinstance(e, click.UsageError) else 1)

    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")(wrapper)


@click.group(cls=_Group, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", prog_name="legalsearch")
@click.option("-v", "--verbose", count=True, help="More logging on stderr (-vv for debug).")
@click.pass_context
def main(ctx: click.Context, verbose: int) -> None:
    """legalsearch: retrieval that legal RAG can trust, on OpenSearch.

    Hybrid BM25 + k-NN search fused inside OpenSearch over structure-aware, summary-augmented
    chunks of contracts, NDAs, privacy policies and statutes (English and Italian), with
    validity dates, ACLs and cross-reference expansion.

    The node: OPENSEARCH_URL (with OPENSEARCH_USER / OPENSEARCH_PASSWORD) points at any node or
    cluster; without it the local node started by `legalsearch node start` is used.

    Example:

        legalsearch node start && legalsearch ingest samples/corpus && legalsearch search "liability cap"
    """
    from search.client import LegalSearch

    level = {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    ctx.obj = LegalSearch()


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
def node_install(client, force: bool) -> None:
    """Download (cached in ~/.m2) and assemble the node. Idempotent.

    Example:

        legalsearch node install
    """
    from search.node import assembly

    path = assembly.install(client.settings, force=force)
    click.echo(f"installed OpenSearch {client.settings.node_version} at {path}")


@node.command("start")
@click.option("--timeout", default=180.0, show_default=True, help="Seconds to wait for health.")
@click.pass_obj
def node_start(client, timeout: float) -> None:
    """Start the local node (installing it first if needed) and wait until it is healthy.

    Prints the URL and the installed plugins. Starting a running node does nothing.

    Example:

        legalsearch node start
    """
    from search.node import process

    state = process.start(client.settings, timeout=timeout)
    plugins = client.store.plugins()
    click.echo(f"OpenSearch {state.version} is up at {state.url} (pid {state.pid})")
    click.echo("plugins: " + ", ".join(f"{p['component']} {p['version']}" for p in plugins))
    click.echo(f"data and logs: {state.home}")


@node.command("stop")
@click.pass_obj
def node_stop(client) -> None:
    """Stop the local node. Data is kept.

    Example:

        legalsearch node stop
    """
    from search.node import process

    click.echo("stopped" if process.stop(client.settings) else "no local node was running")


@node.command("status")
@json_option
@click.pass_obj
def node_status(client, as_json: bool) -> None:
    """Health, version, plugins, heap and indices of the node in use.

    Exit code 1 when no node answers.

    Example:

        legalsearch node status --json
    """
    from search.tools import status

    report = status.node_status(client.store)
    if as_json:
        _echo_json(report)
    else:
        click.echo(status.render(report))
    if not report["reachable"]:
        sys.exit(1)


# --------------------------------------------------------------------------- shared options


def index_option(f):
    return click.option("--index", default=None, metavar="NAME",
                        help="Logical index name (default: LEGALSEARCH_INDEX or 'legalsearch').")(f)


def embedder_option(default: str, help_text: str):
    return click.option("--embedder", type=click.Choice(list(EMBEDDERS)), default=default, show_default=True, help=help_text)


# --------------------------------------------------------------------------- index


@main.group(cls=_Group)
def index() -> None:
    """Create, delete, list and describe indices.

    A logical index NAME is an alias over NAME--chunks-v1 (one document per chunk) plus
    NAME-docs over NAME--docs-v1 (one per document version: ingest registry and routing).
    """


@index.command("create")
@index_option
@embedder_option("minilm", "minilm: English (all-MiniLM-L6-v2); e5: Italian / mixed (multilingual-e5-small).")
@json_option
@click.pass_obj
def index_create(client, index: str | None, embedder: str, as_json: bool) -> None:
    """Create an index (idempotent). `ingest` creates it too when missing.

    Example:

        legalsearch index create --index contracts-it --embedder e5
    """
    name = index or client.settings.index
    meta = client.create_index(name, embedder=embedder)
    if as_json:
        _echo_json({"index": name, "meta": meta})
    else:
        click.echo(f"index {name} ready (embedder {meta['embedder']}, {meta['dim']} dimensions)")


@index.command("delete")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
def index_delete(client, name: str, yes: bool) -> None:
    """Delete an index and its document registry.

    Example:

        legalsearch index delete scratch --yes
    """
    if not yes:
        click.confirm(f"Delete index {name!r} and all its chunks?", abort=True)
    deleted = client.delete_index(name)
    click.echo(f"deleted: {', '.join(deleted)}" if deleted else f"no index named {name!r}")


@index.command("list")
@json_option
@click.pass_obj
def index_list(client, as_json: bool) -> None:
    """List legalsearch indices with their chunk and document counts.

    Example:

        legalsearch index list
    """
    rows = client.list_indices()
    if as_json:
        _echo_json(rows)
        return
    if not rows:
        click.echo("no legalsearch index yet: `legalsearch ingest PATH` creates one")
    for r in rows:
        click.echo(f"{r['name']:<28} {r['documents']:>6} docs {r['chunks']:>8} chunks  {r['size'] or '':>8}  "
                   f"embedder={r['embedder']} chunker={r['chunker']} summarizer={r['summarizer']}")


@index.command("info")
@index_option
@json_option
@click.pass_obj
def index_info(client, index: str | None, as_json: bool) -> None:
    """How an index was built (embedder, chunker, summarizer) and what it holds.

    Example:

        legalsearch index info --json
    """
    result = client.index_info(index)
    if as_json:
        _echo_json(result)
        return
    click.echo(f"index:     {result['name']}  ({', '.join(f'{a} -> {c}' for a, c in result['aliases'].items())})")
    click.echo(f"documents: {result['documents']}   chunks: {result['chunks']}")
    for key, value in sorted(result["meta"].items()):
        click.echo(f"  {key}: {value}")


# --------------------------------------------------------------------------- ingest


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="JSONL manifest: one object per line with `path` plus metadata fields.")
@index_option
@click.option("--chunker", type=click.Choice(CHUNKERS), default="structural", show_default=True,
              help="structural: one article / section / clause per chunk; recursive: the papers' 500-char baseline.")
@click.option("--chunk-size", type=int, default=None,
              help="Characters per chunk (recursive, default 500) or the structural split limit "
                   "(default: what fits the embedder's window with summary and heading).")
@click.option("--summarizer", type=click.Choice(list(SUMMARIZERS), case_sensitive=False), default="title-fingerprint",
              show_default=True,
              help="Document summary prepended to every chunk (SAC); openai: an OpenAI-compatible endpoint set by "
                   "LEGALSEARCH_LLM_BASE_URL, LEGALSEARCH_LLM_MODEL, LEGALSEARCH_LLM_API_KEY. title-fingerprint "
                   "measured best (docs/results.md).")
@embedder_option("minilm", "Must match the index's embedder; e5 for Italian or mixed corpora.")
@click.option("--public", "public_if_no_acl", is_flag=True,
              help="Mark documents whose metadata has no acl as public (otherwise nobody can read them).")
@click.option("--force", is_flag=True, help="Re-ingest documents even when unchanged.")
@click.option("--dry-run", is_flag=True, help="Parse, chunk and summarize; write nothing (no node needed).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@json_option
@click.pass_obj
def ingest(client, paths, manifest, quiet, as_json, **options) -> None:
    """Ingest files and folders (txt, md, html, docx, pdf; scanned pdf via OCR).

    Metadata comes from a sidecar beside each file (contract.txt -> contract.meta.json) or a
    --manifest. Re-runs are idempotent (unchanged documents are skipped), a changed document's
    chunks are replaced atomically, a new version lives beside the old one, and an interrupted
    run resumes where it stopped. Exit code 1 if any document failed.

    Example:

        legalsearch ingest samples/corpus --index legalsearch
    """
    if not paths and not manifest:
        raise click.UsageError("give at least one PATH or --manifest")
    bar = None

    def on_total(n: int) -> None:
        nonlocal bar
        if not quiet:
            bar = click.progressbar(length=n, label="ingesting", file=sys.stderr, show_pos=True)
            bar.__enter__()

    try:
        report = client.ingest(paths, manifest=manifest, progress=lambda n: bar.update(n) if bar else None,
                               on_total=on_total, **options)
    finally:
        if bar:
            bar.__exit__(None, None, None)
    summary = report.summary()
    if as_json:
        _echo_json(report.to_json())
    else:
        click.echo(_render_ingest(summary))
    if summary["failed"]:
        sys.exit(1)


def _render_ingest(s: dict) -> str:
    verb = "planned" if s["options"]["dry_run"] else "ingested"
    lines = [
        f"index {s['index']}: {s['documents']} documents: {s[verb]} {verb}, {s['unchanged']} unchanged, "
        f"{s['failed']} failed; {s['chunks']} chunks "
        f"({s['chunks_at_or_over_window']} = {s['share_at_or_over_window']:.1%} at or over the embedder window)",
        f"settings: chunker={s['options']['chunker']} (limit {s['options']['chunk_limit']} chars), "
        f"summarizer={s['options']['summarizer']}, embedder={s['options']['embedder']}",
        "time: " + ", ".join(f"{k} {v:.1f}s" for k, v in s["timings_s"].items()),
    ]
    for f in s["failures"]:
        lines.append(f"FAILED {f['path']}: {f['error']}")
    for path, flags in s["flags"].items():
        lines.append(f"flags  {path}: {', '.join(flags)}")
    for path, refs in s["unresolved_refs"].items():
        lines.append(f"unresolved references  {path}: {', '.join(refs[:8])}{' ...' if len(refs) > 8 else ''}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- search


def search_options(f):
    """The options of `search` and `explain`; each dest is a SearchRequest field name."""
    options = [
        index_option,
        click.option("--as-of", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
                     help="Matter date: only text valid on that date (valid_from <= date < valid_to)."),
        click.option("--jurisdiction", "jurisdictions", multiple=True, help="Restrict to a jurisdiction (repeatable)."),
        click.option("--group", "groups", multiple=True,
                     help="Caller's groups (repeatable). Without any, only public chunks are visible."),
        click.option("--doc-id", "doc_ids", multiple=True, help="Restrict to documents (repeatable)."),
        click.option("--doc-type", "doc_types", multiple=True, help="Restrict to document types (repeatable)."),
        click.option("--language", "languages", multiple=True, help="Restrict to languages: en, it (repeatable)."),
        click.option("-k", "k", type=int, default=10, show_default=True, help="Hits to return (1-200)."),
        click.option("--mode", type=click.Choice(MODES), default="hybrid", show_default=True),
        click.option("--fusion", type=click.Choice(FUSIONS), default="normalization", show_default=True,
                     help="normalization: normalization-processor, min-max, weighted mean (measured best); "
                          "rrf: score-ranker-processor, reciprocal rank fusion."),
        click.option("--weights", default="0.3,0.7", show_default=True,
                     help="normalization: BM25,k-NN weights summing to 1."),
        click.option("--rank-constant", type=int, default=60, show_default=True, help="RRF rank constant (>= 1)."),
        click.option("--routing", type=click.Choice(ROUTINGS), default="auto", show_default=True,
                     help="Rank documents first (title, parties, summary) and restrict (filter) or boost chunks "
                          "to them; auto filters unless the query cites a section."),
        click.option("--routing-docs", type=int, default=3, show_default=True,
                     help="Documents kept by routing (1-100)."),
        click.option("--routing-prior", type=float, default=None,
                     help="Added to the fused score of the chunks of the first routed document (less for the "
                          "next ones): the document the question names comes first. Default: the measured one "
                          "(docs/results.md)."),
        click.option("--title-weight", type=float, default=None,
                     help="Share of the clause-title list: the question's topic ('which law governs it') matched "
                          "against clause headings in English and Italian. 0 turns it off."),
        click.option("--rerank", type=click.Choice(RERANKERS), default="off", show_default=True,
                     help="Second stage over the fused shortlist: e5 (offline bi-encoder) or a cross-encoder "
                          "you provide with --rerank-model."),
        click.option("--rerank-model", default=None, help="Local directory (or loadable name) of a CrossEncoder."),
        click.option("--rerank-threshold", type=float, default=None,
                     help="Drop hits the reranker scores below this; none left -> not_found."),
        click.option("--xrefs/--no-xrefs", "expand_xrefs", default=True, show_default=True,
                     help="Fetch the clauses the hits point to."),
        click.option("--definitions", "expand_definitions", is_flag=True,
                     help="Also fetch the definitions of terms the hits use."),
        click.option("--xref-limit", "expand_limit", type=int, default=None,
                     help="At most N clauses added after each hit by --xrefs / --definitions."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _request(client, query: str, options: dict):
    """The one SearchRequest of a command line (a bad option is bad usage: exit 2, one line)."""
    try:
        return client.request(query, **options)
    except QueryError as e:
        raise click.UsageError(str(e)) from e


@main.command()
@click.argument("query")
@search_options
@json_option
@click.pass_obj
def search(client, query: str, as_json: bool, **options) -> None:
    """Search: hybrid BM25 + k-NN fused inside OpenSearch, with filters applied inside every
    sub-query.

    Hits come with citations; clauses that a hit points to follow it (via xref:<chunk_id>).
    `not_found` is true when nothing passes; fused scores are never shown as confidence.

    Example:

        legalsearch search "What is the liability cap in clause 14.3?" --json
    """
    from search.query.models import CONTRACT_FIELDS

    response = client.search(_request(client, query, options))
    if as_json:
        click.echo(response.model_dump_json(indent=2, include=CONTRACT_FIELDS))
    else:
        click.echo(_render_search(response))


def _render_search(r) -> str:
    lines = [f"query: {r.query}"]
    if r.identifiers:
        lines.append("identifiers: " + ", ".join(r.identifiers))
    if r.not_found:
        lines.append(f"not found: {r.not_found_reason}")
    for h in r.hits:
        marker = "" if h.via == "retrieval" else f"   <- {h.via}"
        lines.append(f"{h.rank:>3}. {h.citation}{marker}")
        snippet = " ".join(h.text.split())
        lines.append(f"     {snippet[:220]}{'...' if len(snippet) > 220 else ''}")
    for u in r.unfollowed_refs:
        lines.append(f"unfollowed: {u['ref']} in {u['chunk_id']} ({u['reason']})")
    if r.mixed_versions:
        lines.append("warning: hits mix versions of " + ", ".join(r.mixed_versions) + " (use --as-of)")
    lines.append("took " + ", ".join(f"{k} {v:.0f} ms" for k, v in r.timings_ms.items()))
    return "\n".join(lines)


@main.command()
@click.argument("query")
@search_options
@click.option("--depth", type=int, default=100, show_default=True, help="Rank each list within its top N.")
@json_option
@click.pass_obj
def explain(client, query: str, depth: int, as_json: bool, **options) -> None:
    """Why each hit ranks where it does: its rank in the BM25, k-NN and identifier lists and its
    fused score, for the same plan `search` runs (routing included).

    Example:

        legalsearch explain "section 21 notice" --as-of 2025-01-01
    """
    from search.query.explain import render

    result = client.explain(_request(client, query, options), depth=depth)
    if as_json:
        _echo_json(result)
    else:
        click.echo(render(result))


@main.command()
@click.argument("query")
@search_options
@click.option("--budget", type=int, default=8000, show_default=True,
              help="Characters of document text the context may hold.")
@click.option("--attach/--no-attach", default=True, show_default=True,
              help="Add the clauses the passages cite and the definitions of the terms they use.")
@json_option
@click.pass_obj
def context(client, query: str, budget: int, attach: bool, as_json: bool, **options) -> None:
    """Context for an LLM prompt: the best passages for QUERY within --budget characters, with the
    same filters as search. Overlapping hits are deduplicated, adjacent clauses merged, and the
    clauses they cite and the definitions of the terms they use attached; every piece carries
    its citation and character offsets.

    Example:

        legalsearch context "How long does the NDA with Kestrel last?" --budget 8000 --json
    """
    if budget < 1:
        raise click.UsageError("--budget must be at least 1 character")
    result = client.context(_request(client, query, options), budget=budget, attach=attach)
    if as_json:
        click.echo(result.model_dump_json(indent=2))
        return
    if result.not_found:
        click.echo(f"not found: {result.not_found_reason}")
        return
    click.echo(result.prompt)
    click.echo(f"\n-- {len(result.pieces)} pieces, {result.used_chars} of {result.budget} characters", err=True)


# --------------------------------------------------------------------------- pipelines


@main.group(cls=_Group)
def pipelines() -> None:
    """Search pipelines that fuse hybrid sub-queries (normalization by default, RRF optional)."""


@pipelines.command("install")
@click.option("--rank-constant", type=int, default=60, show_default=True)
@click.pass_obj
def pipelines_install(client, rank_constant: int) -> None:
    """Install (or update) the fusion pipelines. Idempotent.

    Example:

        legalsearch pipelines install --rank-constant 60
    """
    for name in client.install_pipelines(rank_constant):
        click.echo(f"installed {name}")


@pipelines.command("list")
@json_option
@click.pass_obj
def pipelines_list(client, as_json: bool) -> None:
    """List the search pipelines on the node.

    Example:

        legalsearch pipelines list
    """
    found = client.list_pipelines()
    if as_json:
        _echo_json(found)
        return
    for name, body in sorted(found.items()):
        click.echo(f"{name:<44} {body.get('description', '')}")


# --------------------------------------------------------------------------- inspect


@main.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--chunker", type=click.Choice(CHUNKERS), default="structural", show_default=True)
@click.option("--max-chars", type=int, default=1800, show_default=True, help="Structural split limit.")
@json_option
def inspect(path: str, chunker: str, max_chars: int, as_json: bool) -> None:
    """Show how a document is understood: structure tree, chunks with heading paths and offsets,
    cross-references, defined terms, clause labels, flags. Needs no node.

    Example:

        legalsearch inspect samples/corpus/contratto-fornitura-acme.txt
    """
    from search.tools.inspect import inspect_document, render_inspection

    result = inspect_document(path, chunker=chunker, max_chars=max_chars)
    click.echo(json.dumps(result, indent=2, ensure_ascii=False) if as_json else render_inspection(result))


# --------------------------------------------------------------------------- eval

REPO_CONFIGS = Path(__file__).resolve().parent / "evaluation" / "configs"


@main.group(name="eval", cls=_Group)
def eval_group() -> None:
    """Measure retrieval: LegalBench-RAG (DRM, character precision / recall) and gold sets."""


def _ints(value: str) -> list[int]:
    try:
        return [int(x) for x in value.split(",") if x.strip()]
    except ValueError as e:
        raise click.BadParameter(f"expected comma-separated integers, got {value!r}") from e


@eval_group.command("legalbench")
@click.option("--data", "data_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), required=True,
              help="A LegalBench-RAG shaped directory: corpus/<sub>/*.txt and benchmarks/<sub>.json.")
@click.option("--scope", type=click.Choice(get_args(CorpusScope)), default="referenced", show_default=True,
              help="referenced: only documents the queries cite (the papers' setting); subsets: every document "
                   "of the queried sub-corpora (--subset contractnli: all 95 NDAs); all: all 232 documents.")
@click.option("--config", "config_paths", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Configuration file(s) to compare (default: every file in evaluation/configs/).")
@click.option("--k", "ks", default="1,2,4,8,16,32,64", show_default=True, help="Cut-offs.")
@click.option("--budgets", default="2000,4000,8000", show_default=True, help="Context budgets in characters.")
@click.option("--subset", "subsets", multiple=True, help="Only these sub-corpora (repeatable).")
@click.option("--limit", type=int, default=None, help="At most N queries per sub-corpus (quick runs).")
@click.option("--split", type=click.Choice(["all", "dev", "held-out"]), default="all", show_default=True,
              help="Evaluate on a deterministic dev or held-out half (tune on dev, report held-out).")
@click.option("--seed", type=int, default=13, show_default=True, help="Seed of the dev / held-out split.")
@click.option("--context", "with_context", is_flag=True,
              help="Also measure `legalsearch context` at each budget (context R@2000 / 4000 / 8000).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("out/legalbench"),
              show_default=True, help="Where results.json, results.md and the PNG plots go.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@click.pass_obj
def eval_legalbench(client, data_dir, scope, config_paths, ks, budgets, subsets, limit, split, seed, with_context,
                    out_dir, quiet) -> None:
    """Compare configurations on LegalBench-RAG: one index per configuration (reused when the
    corpus and configuration are unchanged), every query through the same code path as
    `legalsearch search`. Writes JSON, a markdown table and plots to --out.

    Example:

        legalsearch eval legalbench --data ../shared/data/legalbench-rag --config evaluation/configs/standard-rag.json
    """
    from search.evaluation.compare import split_results
    from search.evaluation.harness import evaluate_legalbench
    from search.evaluation.legalbench import load_benchmark, split_queries
    from search.evaluation.report import table_markdown, write_results
    from search.evaluation.runner import load_config, load_configs

    configs = [load_config(p) for p in config_paths] if config_paths else load_configs(REPO_CONFIGS)
    queries = load_benchmark(data_dir, subsets=list(subsets) or None, limit_per_subset=limit)
    if split != "all":
        dev, held_out = split_queries(queries, 0.5, seed)
        queries = dev if split == "dev" else held_out
    results, rows, info = evaluate_legalbench(configs, client.service, data_dir, queries, scope, _ints(ks),
                                              _ints(budgets), progress=not quiet, context=with_context)
    written = write_results(results, out_dir, per_query=rows)
    (out_dir / "indices.json").write_text(json.dumps(info, indent=2) + "\n")
    if split == "all":
        for part, (n, part_results) in split_results(rows, queries, seed).items():
            (out_dir / f"results-{part}.md").write_text(
                f"# LegalBench-RAG, {part} half (seed {seed}, {n} queries)\n\n" + table_markdown(part_results))
    click.echo(table_markdown(results))
    click.echo(f"{len(queries)} queries, scope {scope}, split {split}; written: "
               + ", ".join(str(p) for k, p in written.items() if not k.startswith("per_query")))


@eval_group.command("gold")
@click.argument("gold_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@index_option
@click.option("--ingest", "ingest_path", type=click.Path(exists=True, path_type=Path), default=None,
              help="Ingest this corpus into --index first (idempotent), e.g. samples/corpus.")
@click.option("--manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="JSONL manifest for --ingest (its entries win over the sidecars).")
@embedder_option("e5", "Embedder used when --ingest creates the index.")
@click.option("-k", "k", type=int, default=10, show_default=True)
@click.option("--mode", "modes", type=click.Choice(MODES), multiple=True,
              help="Modes to compare (default: hybrid, bm25, knn).")
@click.option("--routing", "routings", type=click.Choice(ROUTINGS), multiple=True,
              help="Document routing settings to compare (default: auto, the search default).")
@click.option("--fusion", "fusions", type=click.Choice(FUSIONS), multiple=True,
              help="Fusions to compare for hybrid (default: normalization, 0.3 BM25 / 0.7 k-NN, the search default).")
@click.option("--config", "config_paths", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Score these evaluation configurations' search settings instead of the mode x fusion x routing "
                   "matrix (the same files `eval legalbench` takes).")
@click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
              help="A search setting for every row, e.g. --set expand_limit=2 (repeatable).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("out/gold"),
              show_default=True)
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@json_option
@click.pass_obj
def eval_gold(client, gold_file, index, ingest_path, manifest, embedder, k, modes, routings, fusions, config_paths,
              overrides, out_dir, quiet, as_json) -> None:
    """Score a gold set (JSONL: query, type, expected doc/section, as_of, groups, must_not):
    hit@5, hit@10, MRR and first-correct rank by query type and language (and by failure class
    when the items' notes carry a `[class:NAME]` tag), cross-reference recall and access /
    version violations.

    Example:

        legalsearch eval gold evaluation/gold/sample-gold.jsonl --index legalsearch-demo --ingest samples/corpus
    """
    from search.evaluation.compare import gold_configs, gold_matrix
    from search.evaluation.gold import load_gold
    from search.evaluation.report import gold_class_table_markdown, gold_table_markdown
    from search.evaluation.runner import load_config

    name = index or client.settings.index
    extra = _overrides(overrides)
    if ingest_path:
        client.ingest([ingest_path], manifest=manifest, index=name, embedder=embedder)
    items = load_gold(gold_file)
    if config_paths:
        scores = gold_configs(items, client.service, name, [load_config(p) for p in config_paths], k=k,
                              progress=not quiet, extra=extra)
    else:
        scores = gold_matrix(items, client.service, name, k=k, modes=modes, fusions=fusions, routings=routings,
                             progress=not quiet, extra=extra)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "gold.json").write_text(json.dumps(scores, indent=2, default=str) + "\n")
    table = gold_table_markdown(scores)
    for metric in ("hit@5", "hit@10", "mrr"):
        by_class = gold_class_table_markdown(scores, metric)
        if by_class:
            table += f"\n{metric} by class (en, it):\n\n" + by_class
    (out_dir / "gold.md").write_text(table)
    if as_json:
        _echo_json(scores)
    else:
        click.echo(table)


def _overrides(pairs) -> dict:
    """--set FIELD=VALUE pairs as SearchRequest fields (values read as JSON when they parse)."""
    out = {}
    for pair in pairs:
        field, sep, value = pair.partition("=")
        if not sep or not field.strip():
            raise click.BadParameter(f"expected FIELD=VALUE, got {pair!r}", param_hint="--set")
        try:
            out[field.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[field.strip()] = value
    return out


# --------------------------------------------------------------------------- dashboards


@main.group(cls=_Group)
def dashboards() -> None:
    """OpenSearch Dashboards saved objects for the chunks and the retrieval log."""


@dashboards.command("export")
@index_option
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the NDJSON here (default: stdout).")
@click.pass_obj
def dashboards_export(client, index: str | None, out_file: Path | None) -> None:
    """Export index patterns (chunks, log), a saved search and visualizations as NDJSON, ready for
    Dashboards' Saved objects > Import. Needs no node.

    Example:

        legalsearch dashboards export --out legalsearch.ndjson
    """
    from search.tools import dashboards as d

    objects = d.saved_objects(index or client.settings.index, client.settings.log_index)
    if out_file:
        d.write_ndjson(out_file, objects)
        click.echo(f"wrote {len(objects)} saved objects to {out_file}")
    else:
        click.echo(d.to_ndjson(objects), nl=False)


# --------------------------------------------------------------------------- demo


@main.command()
@index_option
@click.pass_obj
def demo(client, index: str | None) -> None:
    """Ingest the shipped sample corpus and answer example queries (what `make demo` runs).

    Example:

        legalsearch demo
    """
    from search.tools import demo as demo_module

    demo_module.run(client, index or "legalsearch-demo", click.echo)


@main.command("cli-reference", hidden=True)
@click.option("--check", is_flag=True, help="Exit 1 if docs/cli.md is out of date.")
def cli_reference(check: bool) -> None:
    """Write docs/cli.md from the commands' help (or check it is current).

    Example:

        legalsearch cli-reference --check
    """
    from search.tools import clidoc

    if check:
        if not clidoc.is_current(main):
            raise click.ClickException(f"{clidoc.DOC} is out of date: run `legalsearch cli-reference`")
        return
    click.echo(f"wrote {clidoc.write(main)}")


@main.command("api-reference", hidden=True)
@click.option("--check", is_flag=True, help="Exit 1 if docs/python.md is out of date.")
def api_reference(check: bool) -> None:
    """Write docs/python.md from the public API's docstrings (or check it is current).

    Example:

        legalsearch api-reference --check
    """
    from search.tools import apidoc

    if check:
        if not apidoc.is_current():
            raise click.ClickException(f"{apidoc.DOC} is out of date: run `legalsearch api-reference`")
        return
    click.echo(f"wrote {apidoc.write()}")


if __name__ == "__main__":
    main()
