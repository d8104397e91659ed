"""legalsearch admin commands: parse, call the library, print.

Exit codes: 0 success, 1 a failed operation (the message says what to do next), 2 bad usage.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

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



# --------------------------------------------------------------------------- shared options


def index_option(f):
    return click.option("--index", "index_name", default=None, metavar="NAME",
                        help="Logical index name (default: LEGALSEARCH_INDEX or 'legalsearch').")(f)


def _index(settings: Settings, index_name: str | None) -> str:
    return index_name or settings.index


def _store(settings: Settings):
    from search.store import Store

    return Store(settings)


# --------------------------------------------------------------------------- index


@main.group(cls=_Group)
def index() -> None:
    """Create, delete, list and describe indices.

    A logical index NAME is an alias over NAME--chunks-v1 (one document per chunk) plus
    NAME-docs over NAME--docs-v1 (one per document version: ingest registry and routing).
    """


@index.command("create")
@index_option
@click.option("--embedder", type=click.Choice(["minilm", "e5"]), default="minilm", show_default=True,
              help="minilm: English (all-MiniLM-L6-v2); e5: Italian / mixed (multilingual-e5-small).")
@json_option
@click.pass_obj
def index_create(settings: Settings, index_name: str | None, embedder: str, as_json: bool) -> None:
    """Create an index (idempotent). `ingest` creates it too when missing.

    Example:

        legalsearch index create --index contracts-it --embedder e5
    """
    from search.indexing import indices

    name = _index(settings, index_name)
    meta = indices.create(_store(settings), name, embedder)
    if as_json:
        _echo_json({"index": name, "meta": meta})
    else:
        click.echo(f"index {name} ready (embedder {meta['embedder']}, {meta['dim']} dimensions)")


@index.command("delete")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
def index_delete(settings: Settings, name: str, yes: bool) -> None:
    """Delete an index and its document registry.

    Example:

        legalsearch index delete scratch --yes
    """
    from search.indexing import indices

    if not yes:
        click.confirm(f"Delete index {name!r} and all its chunks?", abort=True)
    deleted = indices.delete(_store(settings), name)
    click.echo(f"deleted: {', '.join(deleted)}" if deleted else f"no index named {name!r}")


@index.command("list")
@json_option
@click.pass_obj
def index_list(settings: Settings, as_json: bool) -> None:
    """List legalsearch indices with their chunk and document counts.

    Example:

        legalsearch index list
    """
    from search.indexing import indices

    rows = indices.list_indices(_store(settings))
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
def index_info(settings: Settings, index_name: str | None, as_json: bool) -> None:
    """How an index was built (embedder, chunker, summarizer) and what it holds.

    Example:

        legalsearch index info --json
    """
    from search.indexing import indices

    result = indices.info(_store(settings), _index(settings, index_name))
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
@click.option("--chunker", type=click.Choice(["structural", "recursive"]), default="structural", show_default=True,
              help="structural: one article / section / clause per chunk; recursive: the papers' 500-char baseline.")
@click.option("--chunk-size", type=int, default=None,
              help="Characters per chunk (recursive, default 500) or the structural split limit "
                   "(default: what fits the embedder's window with summary and heading).")
@click.option("--summarizer", default="title-fingerprint", show_default=True,
              help="Document summary prepended to every chunk (SAC): none, opening, fingerprint, title-fingerprint, centroid, openai (an OpenAI-compatible endpoint set by LEGALSEARCH_LLM_BASE_URL, LEGALSEARCH_LLM_MODEL, LEGALSEARCH_LLM_API_KEY). title-fingerprint measured best (docs/results.md).")
@click.option("--embedder", type=click.Choice(["minilm", "e5"]), default="minilm", show_default=True,
              help="Must match the index's embedder; e5 for Italian or mixed corpora.")
@click.option("--public", "public_if_no_acl", is_flag=True,
              help="Mark documents whose metadata has no acl as public (otherwise nobody can read them).")
@click.option("--force", is_flag=True, help="Re-ingest documents even when unchanged.")
@click.option("--dry-run", is_flag=True, help="Parse, chunk and summarize; write nothing (no node needed).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@json_option
@click.pass_obj
def ingest(settings: Settings, paths, manifest, index_name, chunker, chunk_size, summarizer, embedder,
           public_if_no_acl, force, dry_run, quiet, as_json) -> None:
    """Ingest files and folders (txt, md, html, docx, pdf; scanned pdf via OCR).

    Metadata comes from a sidecar beside each file (contract.txt -> contract.meta.json) or a
    --manifest. Re-runs are idempotent (unchanged documents are skipped), a changed document's
    chunks are replaced atomically, a new version lives beside the old one, and an interrupted
    run resumes where it stopped. Exit code 1 if any document failed.

    Example:

        legalsearch ingest samples/corpus --index legalsearch
    """
    from search.indexing.ingest import IngestOptions
    from search.indexing.ingest import ingest as run_ingest

    if not paths and not manifest:
        raise click.UsageError("give at least one PATH or --manifest")
    options = IngestOptions(
        index=_index(settings, index_name), chunker=chunker, chunk_size=chunk_size, summarizer=summarizer,
        embedder=embedder, public_if_no_acl=public_if_no_acl, force=force, dry_run=dry_run,
    )
    bar = None

    def on_total(n: int) -> None:
        nonlocal bar
        if not quiet:
            bar = click.progressbar(length=n, label="ingesting", file=sys.stderr, show_pos=True)
            bar.__enter__()

    try:
        report = run_ingest(list(paths), settings, options, manifest=manifest,
                            progress=lambda n: bar.update(n) if bar else None, on_total=on_total)
    finally:
        if bar:
            bar.__exit__(None, None, None)
    summary = report.summary()
    if as_json:
        _echo_json(summary | {"documents_detail": [d.__dict__ for d in report.documents]})
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
        click.option("-k", "k", type=click.IntRange(1, 200), default=10, show_default=True, help="Hits to return."),
        click.option("--mode", type=click.Choice(["hybrid", "bm25", "knn"]), default="hybrid", show_default=True),
        click.option("--fusion", type=click.Choice(["rrf", "normalization"]), default="normalization",
                     show_default=True,
                     help="normalization: normalization-processor, min-max, weighted mean (measured best); "
                          "rrf: score-ranker-processor, reciprocal rank fusion."),
        click.option("--weights", default="0.3,0.7", show_default=True,
                     help="normalization: BM25,k-NN weights summing to 1."),
        click.option("--rank-constant", type=int, default=60, show_default=True, help="RRF rank constant."),
        click.option("--routing", type=click.Choice(["off", "filter", "boost", "auto"]), default="auto",
                     show_default=True,
                     help="Rank documents first (title, parties, summary) and restrict (filter) or boost chunks "
                          "to them; auto filters unless the query cites a section."),
        click.option("--routing-docs", type=int, default=3, show_default=True, help="Documents kept by routing."),
        click.option("--rerank", type=click.Choice(["off", "e5", "cross-encoder"]), default="off", show_default=True,
                     help="Second stage over the fused shortlist: e5 (offline bi-encoder) or a cross-encoder "
                          "you provide with --rerank-model."),
        click.option("--rerank-model", default=None, help="Local directory (or loadable name) of a CrossEncoder."),
        click.option("--rerank-threshold", type=float, default=None,
                     help="Drop hits the reranker scores below this; none left -> not_found."),
        click.option("--no-xrefs", is_flag=True, help="Do not fetch the clauses the hits point to."),
        click.option("--definitions", is_flag=True, help="Also fetch the definitions of terms the hits use."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _floats(value: str) -> tuple[float, ...]:
    try:
        return tuple(float(x) for x in value.split(",") if x.strip())
    except ValueError as e:
        raise click.BadParameter(f"expected comma-separated numbers, got {value!r}") from e


def _request(settings: Settings, query: str, o: dict):
    from pydantic import ValidationError

    from search.query.models import SearchRequest

    try:
        return SearchRequest(
            query=query, index=_index(settings, o["index_name"]), k=o["k"], mode=o["mode"], fusion=o["fusion"],
            weights=_floats(o["weights"]), rank_constant=o["rank_constant"], as_of=o["as_of"].date() if o["as_of"] else None,
            jurisdictions=o["jurisdictions"], doc_ids=o["doc_ids"], doc_types=o["doc_types"],
            languages=o["languages"], groups=o["groups"], routing=o["routing"], routing_docs=o["routing_docs"],
            rerank=o["rerank"], rerank_model=o["rerank_model"], rerank_threshold=o["rerank_threshold"],
            expand_xrefs=not o["no_xrefs"], expand_definitions=o["definitions"],
        )
    except ValidationError as e:
        raise click.UsageError(str(e)) from e


@main.command()
@click.argument("query")
@search_options
@json_option
@click.pass_obj
def search(settings: Settings, query: str, as_json: bool, **options) -> None:
    """Search: hybrid BM25 + k-NN fused by RRF, with filters applied inside every sub-query.

    Hits come with citations; clauses that a hit points to follow it (via xref:<chunk_id>).
    `not_found` is true when nothing passes; fused RRF scores are never shown as confidence.

    Example:

        legalsearch search "What is the liability cap in clause 14.3?" --json
    """
    from search.query.service import SearchService

    response = SearchService(settings).search(_request(settings, query, options))
    if as_json:
        click.echo(response.model_dump_json(indent=2, include=_CONTRACT))
    else:
        click.echo(_render_search(response))


_CONTRACT = {"query": True, "not_found": True, "not_found_reason": True, "hits": {"__all__": {
    "rank", "chunk_id", "doc_id", "doc_title", "version", "valid_from", "valid_to", "jurisdiction", "section",
    "heading_path", "page", "source_path", "char_start", "char_end", "text", "citation", "via", "score"}},
    "identifiers": True, "routed_docs": True, "unfollowed_refs": True, "mixed_versions": True, "timings_ms": True,
    "mode": True, "pipeline": True, "rerank": True}


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
@json_option
@click.pass_obj
def explain(settings: Settings, query: str, as_json: bool, **options) -> None:
    """Why each hit ranks where it does: its rank in the BM25 list, in the k-NN list, in the
    identifier list, and its fused score.

    Example:

        legalsearch explain "section 21 notice" --as-of 2025-01-01
    """
    from search.query.explain import explain as run_explain
    from search.query.explain import render

    result = run_explain(settings, _request(settings, query, options))
    if as_json:
        _echo_json(result)
    else:
        click.echo(render(result))


# --------------------------------------------------------------------------- pipelines


@main.group(cls=_Group)
def pipelines() -> None:
    """Search pipelines that fuse hybrid sub-queries (RRF by default, normalization optional)."""


@pipelines.command("install")
@click.option("--rank-constant", type=int, default=60, show_default=True)
@click.pass_obj
def pipelines_install(settings: Settings, rank_constant: int) -> None:
    """Install (or update) the fusion pipelines. Idempotent.

    Example:

        legalsearch pipelines install --rank-constant 60
    """
    from search.query import pipelines as p

    wanted = p.default_pipelines()
    wanted[p.rrf_pipeline_name(rank_constant)] = p.rrf_pipeline_body(rank_constant)
    for name in p.install_pipelines(_store(settings), wanted):
        click.echo(f"installed {name}")


@pipelines.command("list")
@json_option
@click.pass_obj
def pipelines_list(settings: Settings, as_json: bool) -> None:
    """List the search pipelines on the node.

    Example:

        legalsearch pipelines list
    """
    found = _store(settings).get_search_pipelines()
    if as_json:
        _echo_json(found)
        return
    for name, body in sorted(found.items()):
        click.echo(f"{name:<44} {body.get('description', '')}")


# --------------------------------------------------------------------------- inspect


@main.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--chunker", type=click.Choice(["structural", "recursive"]), default="structural", show_default=True)
@click.option("--max-chars", type=int, default=1800, show_default=True, help="Structural split limit.")
@json_option
def inspect(path: str, chunker: str, max_chars: int, as_json: bool) -> None:
    """Show how a document is understood: structure tree, chunks with heading paths and offsets,
    cross-references, defined terms, clause labels, flags. Needs no node.

    Example:

        legalsearch inspect samples/corpus/contratto-fornitura-acme.txt
    """
    from search.documents import inspect_document, render_inspection

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
@click.option("--scope", type=click.Choice(["referenced", "all"]), default="referenced", show_default=True,
              help="referenced: only documents the queries cite (the papers' setting); all: with distractors.")
@click.option("--config", "config_paths", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Configuration file(s) to compare (default: every file in evaluation/configs/).")
@click.option("--k", "ks", default="1,2,4,8,16,32,64", show_default=True, help="Cut-offs.")
@click.option("--budgets", default="2000,4000,8000", show_default=True, help="Context budgets in characters.")
@click.option("--subset", "subsets", multiple=True, help="Only these sub-corpora (repeatable).")
@click.option("--limit", type=int, default=None, help="At most N queries per sub-corpus (quick runs).")
@click.option("--split", type=click.Choice(["all", "dev", "held-out"]), default="all", show_default=True,
              help="Evaluate on a deterministic dev or held-out half (tune on dev, report held-out).")
@click.option("--seed", type=int, default=13, show_default=True, help="Seed of the dev / held-out split.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("out/legalbench"),
              show_default=True, help="Where results.json, results.md and the PNG plots go.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@click.pass_obj
def eval_legalbench(settings: Settings, data_dir, scope, config_paths, ks, budgets, subsets, limit, split, seed,
                    out_dir, quiet) -> None:
    """Compare configurations on LegalBench-RAG: one index per configuration (reused when the
    corpus and configuration are unchanged), every query through the same code path as
    `legalsearch search`. Writes JSON, a markdown table and plots to --out.

    Example:

        legalsearch eval legalbench --data ../shared/data/legalbench-rag --config evaluation/configs/standard-rag.json
    """
    from search.evaluation.legalbench import load_benchmark, split_queries
    from search.evaluation.opensearch import evaluate_legalbench
    from search.evaluation.report import table_markdown, write_results
    from search.evaluation.runner import aggregate_rows, load_config, load_configs

    configs = [load_config(p) for p in config_paths] if config_paths else load_configs(REPO_CONFIGS)
    queries = load_benchmark(data_dir, subsets=list(subsets) or None, limit_per_subset=limit)
    if split != "all":
        dev, held_out = split_queries(queries, 0.5, seed)
        queries = dev if split == "dev" else held_out
    results, rows, info = evaluate_legalbench(configs, settings, data_dir, queries, scope, _ints(ks),
                                              _ints(budgets), progress=not quiet)
    written = write_results(results, out_dir, per_query=rows)
    (out_dir / "indices.json").write_text(json.dumps(info, indent=2) + "\n")
    if split == "all":
        # The same run cut into the deterministic dev / held-out halves: choose on dev, report held-out.
        dev, held_out = split_queries(queries, 0.5, seed)
        for part, part_queries in (("dev", dev), ("held-out", held_out)):
            ids = {q.query_id for q in part_queries}
            part_results = {name: aggregate_rows([r for r in config_rows if r["query_id"] in ids])
                            for name, config_rows in rows.items()}
            (out_dir / f"results-{part}.md").write_text(
                f"# LegalBench-RAG, {part} half (seed {seed}, {len(ids)} queries)\n\n" + table_markdown(part_results))
    click.echo(table_markdown(results))
    click.echo(f"{len(queries)} queries, scope {scope}, split {split}; written: "
               + ", ".join(str(p) for k, p in written.items() if not k.startswith("per_query")))


@eval_group.command("gold")
@click.argument("gold_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@index_option
@click.option("--ingest", "ingest_path", type=click.Path(exists=True, path_type=Path), default=None,
              help="Ingest this corpus into --index first (idempotent), e.g. samples/corpus.")
@click.option("--embedder", type=click.Choice(["minilm", "e5"]), default="e5", show_default=True,
              help="Embedder used when --ingest creates the index.")
@click.option("-k", "k", type=int, default=10, show_default=True)
@click.option("--mode", type=click.Choice(["hybrid", "bm25", "knn"]), multiple=True,
              help="Modes to compare (default: hybrid, bm25, knn).")
@click.option("--routing", type=click.Choice(["off", "filter", "boost", "auto"]), multiple=True,
              help="Document routing settings to compare (default: auto, the search default).")
@click.option("--fusion", type=click.Choice(["rrf", "normalization"]), multiple=True,
              help="Fusions to compare for hybrid (default: normalization, 0.3 BM25 / 0.7 k-NN, the search default).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("out/gold"),
              show_default=True)
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@json_option
@click.pass_obj
def eval_gold(settings: Settings, gold_file, index_name, ingest_path, embedder, k, mode, routing, fusion, out_dir,
              quiet, as_json) -> None:
    """Score a gold set (JSONL: query, type, expected doc/section, as_of, groups, must_not):
    hit@5, hit@10, MRR and first-correct rank by query type and language, cross-reference
    recall and access / version violations.

    Example:

        legalsearch eval gold evaluation/gold/sample-gold.jsonl --index legalsearch-demo --ingest samples/corpus
    """
    from search.evaluation.gold import load_gold, score_gold
    from search.evaluation.opensearch import GoldServiceSearcher
    from search.evaluation.report import gold_table_markdown
    from search.evaluation.runner import run_gold
    from search.indexing.ingest import IngestOptions
    from search.indexing.ingest import ingest as run_ingest
    from search.query.service import SearchService

    name = _index(settings, index_name)
    if ingest_path:
        run_ingest([ingest_path], settings, IngestOptions(index=name, embedder=embedder))
    items = load_gold(gold_file)
    service = SearchService(settings)
    scores = {}
    for m in mode or ("hybrid", "bm25", "knn"):
        for f in (fusion or ("normalization",)) if m == "hybrid" else ("normalization",):
            for r in routing or ("auto",):
                label = m + (" rrf" if f == "rrf" and m == "hybrid" else "") + ("" if r == "off" else f" + routing {r}")
                base = {"mode": m, "routing": r, "fusion": f, "weights": (0.3, 0.7)}
                results = run_gold(items, GoldServiceSearcher(service, name, base), k=k, progress=not quiet)
                scores[label] = score_gold(items, results)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "gold.json").write_text(json.dumps(scores, indent=2, default=str) + "\n")
    table = gold_table_markdown(scores)
    (out_dir / "gold.md").write_text(table)
    if as_json:
        _echo_json(scores)
    else:
        click.echo(table)


# --------------------------------------------------------------------------- dashboards


@main.group(cls=_Group)
def dashboards() -> None:
    """OpenSearch Dashboards saved objects for the chunks and the retrieval log."""


@dashboards.command("export")
@index_option
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the NDJSON here (default: stdout).")
@click.pass_obj
def dashboards_export(settings: Settings, index_name: str | None, out_file: Path | None) -> None:
    """Export index patterns (chunks, log), a saved search and visualizations as NDJSON, ready for
    Dashboards' Saved objects > Import. Needs no node.

    Example:

        legalsearch dashboards export --out legalsearch.ndjson
    """
    from search import dashboards as d

    objects = d.saved_objects(_index(settings, index_name), settings.log_index)
    if out_file:
        d.write_ndjson(out_file, objects)
        click.echo(f"wrote {len(objects)} saved objects to {out_file}")
    else:
        click.echo(d.to_ndjson(objects), nl=False)


# --------------------------------------------------------------------------- demo


@main.command()
@index_option
@click.pass_obj
def demo(settings: Settings, index_name: str | None) -> None:
    """Ingest the shipped sample corpus and answer example queries (what `make demo` runs).

    Example:

        legalsearch demo
    """
    from search import demo as demo_module

    demo_module.run(settings, _index(settings, index_name) if index_name else "legalsearch-demo", click.echo)


if __name__ == "__main__":
    main()
