"""`LegalSearch`: the one public entry point of the Python API (the CLI is a thin layer over it).

    from legalsearch import LegalSearch

    ls = LegalSearch()                                   # OPENSEARCH_URL, or the local node
    ls.ingest(["samples/corpus"], index="demo")          # files, folders, or Document objects
    response = ls.search("What is the liability cap in clause 14.3?", index="demo", k=3)
    for hit in response.hits:
        print(hit.citation, hit.char_start, hit.char_end)

The client owns what a process shares: the settings, the `Store`s (connections), the loaded
models and the query service. Searches run for an end user when one is given
(`LegalSearch(user=..., password=...)`, LEGALSEARCH_USER / LEGALSEARCH_PASSWORD, or `as_user`):
the security plugin verifies the password and only the user's groups are searched
(docs/security.md). Results are pydantic models with the fields of the CLI's `--json`
contract; every failure is a `search.errors.LegalSearchError` whose message says what to do.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from legalsearch import embedserver, engine
from legalsearch.config import Settings, split_credentials
from legalsearch.embed import Embedders
from legalsearch.embedserver.client import QueryServer
from legalsearch.errors import ConfigError, QueryError, SecurityError
from legalsearch.index import indices, links
from legalsearch.query import fusion, profiles, view
from legalsearch.query.context import DEFAULT_BUDGET, ContextResponse
from legalsearch.query.explain import explain as explain_search
from legalsearch.query.models import SearchRequest, SearchResponse
from legalsearch.query.service import SearchService
from legalsearch.query.view import DocumentView
from legalsearch.security import admin
from legalsearch.store import Store
from pydantic import SecretStr, ValidationError

if TYPE_CHECKING:  # imported where used: a `search` process never loads the ingestion side
    from legalsearch.documents.models import Document
    from legalsearch.ingest import IngestReport


def one_line(error: ValidationError, what: str) -> str:
    """A pydantic error as one sentence per field: "bad search option 'k': Input should be ..."."""
    parts = []
    for e in error.errors():
        where = ".".join(str(x) for x in e["loc"]) or "input"
        parts.append(f"{where}: {e['msg']}")
    return f"bad {what}: " + "; ".join(parts)


class LegalSearch:
    """A connection to one OpenSearch node or cluster, with legalsearch's ingestion and search.

    Args:
        settings: every knob (default: read from the environment, like the CLI).
        url: OpenSearch URL (overrides OPENSEARCH_URL; default: the local node). Credentials in it
            are moved out of it and never printed; the connection's identity is OPENSEARCH_USER /
            OPENSEARCH_PASSWORD (for the local node: found in its secrets folder).
        user, password: the end user searches run for (override LEGALSEARCH_USER /
            LEGALSEARCH_PASSWORD): the security plugin verifies them on every search, and only the
            user's groups are searched (a request's `groups` can only narrow them).
        index: the default logical index name (overrides LEGALSEARCH_INDEX).
    """

    def __init__(self, settings: Settings | None = None, *, url: str | None = None, user: str | None = None,
                 password: str | None = None, index: str | None = None):
        settings = settings or Settings()
        updates: dict[str, Any] = {}
        if url:
            clean, url_user, url_password = split_credentials(url)
            updates["opensearch_url"] = clean
            if url_user and not settings.opensearch_user:
                updates["opensearch_user"] = url_user
                updates["opensearch_password"] = SecretStr(url_password or "")
        if user:
            updates["user"] = user
        if password:
            updates["password"] = SecretStr(password)
        if index:
            updates["index"] = index
        self.settings = settings.model_copy(update=updates) if updates else settings
        self.store = Store(self.settings)
        # searches for an end user run as the service account (a hybrid query cannot run under
        # document-level security on OpenSearch 2.19; docs/security.md)
        end_user = self.settings.user or self.settings.token
        self.search_store = Store(self.settings, identity="service") if end_user else self.store
        self.embedders = Embedders(self.settings, query_server=_query_server(self.settings))
        self._service: SearchService | None = None

    @property
    def service(self) -> SearchService:
        """The query side (plans, runs, logs searches); built on first use."""
        if self._service is None:
            self._service = SearchService(self.settings, self.search_store, self.embedders)
        return self._service

    def as_user(self, user: str, password: str) -> LegalSearch:
        """A client whose searches run for end user `user` (verified by the security plugin),
        sharing this client's connection settings and loaded models."""
        other = LegalSearch(self.settings, user=user, password=password)
        other.embedders = self.embedders
        if self.search_store is not self.store:
            other.search_store = self.search_store  # the service connection is the same for every user
        return other

    def as_bearer(self, token: str) -> LegalSearch:
        """A client whose searches run for the user of `token`, a bearer token the node issued
        (`issue_token`; verified by the security plugin on every search), sharing this client's
        connection settings and loaded models."""
        other = LegalSearch(self.settings.model_copy(update={"user": None, "password": None, "token": SecretStr(token)}))
        other.embedders = self.embedders
        if self.search_store is not self.store:
            other.search_store = self.search_store
        return other

    def issue_token(self, user: str, password: str, seconds: int = 300) -> dict:
        """A bearer token for `user` from the node's security plugin (an on-behalf-of token, at most
        300 seconds): {"user", "token", "expires_in"}. The password is checked by the node."""
        if not 1 <= seconds <= 300:
            raise ConfigError(f"a bearer token lasts 1 to 300 seconds (the security plugin's limit), not {seconds}")
        found = self.store.issue_token((user, password), seconds, "legalsearch search service")
        return {"user": found.get("user") or user, "token": found["authenticationToken"],
                "expires_in": int(found.get("durationSeconds") or seconds)}

    def _index(self, index: str | None) -> str:
        return index or self.settings.index

    # ----------------------------------------------------------------- ingest

    def ingest(
        self,
        sources: Iterable[str | Path | Document] = (),
        *,
        manifest: str | Path | None = None,
        index: str | None = None,
        progress: Callable[[int], None] | None = None,
        on_total: Callable[[int], None] | None = None,
        metadata_override: Callable[[Path], dict | None] | None = None,
        **options: Any,
    ) -> IngestReport:
        """Ingest files, folders and in-memory `Document`s into `index` (idempotent, resumable).

        Args:
            sources: paths (files or folders: txt, md, html, docx, pdf) and/or `Document`s.
            manifest: a JSONL manifest (`path` + metadata fields per line).
            index: logical index name (default: the settings' index).
            progress: called with 1 after each document; `on_total(n)` once with the count.
            **options: `IngestOptions` fields: chunker, chunk_size, summarizer, embedder,
                public_if_no_acl, force, force_merge, dry_run; shards and replicas when the run
                creates the index.

        Returns:
            The report: per-document status (ingested / unchanged / failed / planned), chunks, flags.
        """
        from legalsearch.documents.models import Document
        from legalsearch.ingest import IngestOptions, file_sources, ingest, memory_sources

        try:
            opts = IngestOptions(index=self._index(index), **options)
        except ValidationError as e:
            raise ConfigError(one_line(e, "ingest option")) from e
        items = list(sources)
        documents = [s for s in items if isinstance(s, Document)]
        paths = [Path(s) for s in items if not isinstance(s, Document)]
        if not paths and not documents and manifest is None:
            raise ConfigError("nothing to ingest: give at least one path, Document or manifest")
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise ConfigError(f"no such file or folder: {', '.join(missing)}")
        all_sources = []
        if paths or manifest is not None:
            all_sources += file_sources(paths, Path(manifest) if manifest else None, metadata_override)
        all_sources += memory_sources(documents)
        report = ingest(all_sources, self.settings, opts, store=None if opts.dry_run else self.store,
                        embedders=self.embedders, progress=progress, on_total=on_total)
        if self._service is not None:  # this client's next search sees the walls the ingest made
            self._service.forget_walls()
        return report

    # ----------------------------------------------------------------- search

    def request(self, question: str, *, profile: str | Path | None = None,
                overrides: Mapping[str, Any] | None = None, **options: Any) -> SearchRequest:
        """Validate a question and its options into the `SearchRequest` `search` would run.

        Args:
            question: the question.
            profile: a named preset of the tuning options (`default`, `rescore`, `fast`, `bm25`) or
                the path of a profile file (legalsearch.query.profiles); None: `default`.
            overrides: more options by flat name, applied over the profile (the CLI's `--set`).
            **options: request options by flat or group name, applied last (None: not given).
                {options}

        Raises:
            QueryError: an empty question, a bad option or an unknown profile, in one line.
        """
        options = {k: v for k, v in options.items() if v is not None}
        options["index"] = self._index(options.get("index") or (overrides or {}).get("index"))
        try:
            return profiles.build_request(question, profile=profile, overrides=overrides, **options)
        except ValidationError as e:
            raise QueryError(one_line(e, "search request")) from e
        except ConfigError as e:
            raise QueryError(str(e)) from e

    def search(self, question: str | SearchRequest, **options: Any) -> SearchResponse:
        """Hybrid BM25 + k-NN search with filters inside every sub-query, routing, expansion and
        citations.

        Args:
            question: the question (or a ready `SearchRequest`).
            **options: `profile=`, `overrides=` and the request options, as for `request`:
                {options}

        Returns:
            Hits with citation, offsets and `via`; `not_found` (with a reason) when nothing passes.
        """
        req = question if isinstance(question, SearchRequest) else self.request(question, **options)
        return self.service.search(req)

    def context(self, question: str | SearchRequest, *, budget: int = DEFAULT_BUDGET, attach: bool = True,
                **options: Any) -> ContextResponse:
        """Context for an LLM prompt: the best passages for `question` within `budget` characters.

        One search with the same options and filters as `search`; overlapping hits are
        deduplicated, adjacent clauses of one document merged, and (with `attach`) the clauses
        the passages cite and the definitions of the defined terms they use are added, fetched
        under the same filters. Every piece carries its citation and character offsets.

        Args:
            question: the question (or a ready `SearchRequest`).
            budget: characters of document text the context may hold.
            attach: add cited clauses and definitions (up to a quarter of the budget).
            **options: `profile=`, `overrides=` and the request options, as for `request`.

        Returns:
            `ContextResponse`: `pieces` (citation, offsets, text, via, parts) and `prompt`, the
            pieces rendered as "[n] citation (chars a-b)" blocks ready for a prompt.

        Raises:
            QueryError: an empty question, a bad option or a budget under 1.
        """
        if budget < 1:
            raise QueryError(f"the context budget must be at least 1 character, got {budget}")
        req = question if isinstance(question, SearchRequest) else self.request(question, **options)
        return self.service.context(req, budget, attach=attach)

    def document(self, doc_id: str, *, version: str | None = None, chunk_id: str | None = None,
                 index: str | None = None, groups: Iterable[str] = ()) -> DocumentView:
        """One version of a document as this client's caller may read it: its text (rebuilt from
        its chunks, at the document's own offsets), every passage's offsets and citation, and its
        other versions with their validity.

        Args:
            version: the version to open (default: the one in force today, else the latest).
            chunk_id: open at this passage (`focus`); its version unless `version` says otherwise.
            groups: narrow the caller's ACL groups, as a search's `groups` does.

        Raises:
            NotFoundError: no such index, or nothing of that document (or version, or passage)
                the caller may read: a document the caller may not read does not exist for it.
        """
        service = self.service
        principal = service.authenticator.principal()
        chunks, docs, _ = service.target(self._index(index))
        requested = tuple(groups)
        narrowed = principal.restrict(requested)
        # the public index and the walls of those groups (search.index.walls), as a search reads
        chunks_index = service.readable(chunks, docs, None if principal.groups is None and not requested
                                        else narrowed)[0]
        return view.read(service.store, chunks_index, doc_id, narrowed, version=version, chunk_id=chunk_id)

    def warm_rerank(self, index: str | None = None, *, rerank: str = "e5+clause", progress: bool = False) -> dict:
        """Embed every chunk of an index for a bi-encoder reranker (e5, clause, e5+clause) into the
        local embedding cache, so that the first question on a long contract does not wait for its
        clauses to be embedded (idempotent). Returns {"chunks": n, "seconds": s}.

        Raises:
            ConfigError: a reranker that is not a bi-encoder (cross-encoder, off) or unknown.
        """
        return self.service.warm_rerank(self._index(index), rerank, progress=progress)

    def warm_terms(self, index: str | None = None, *, progress: bool = False) -> dict:
        """Analyse the passage terms of every chunk of an index for relevance into the local terms
        cache (an ingest does it for what it writes; this is for an index ingested before), so that
        the first search of a process on a long cited article does not wait for the node
        (idempotent). Returns {"chunks": n, "texts_analysed": m, "seconds": s}."""
        return self.service.warm_terms(self._index(index), progress=progress)

    def link_amendments(self, index: str | None = None, *, dry_run: bool = False) -> dict:
        """Link each amendment of an index to the agreement it amends (`legalsearch.index.links`; an
        ingest does it after every run, this is for an index ingested before, idempotent).
        Returns {"links": [one dict per amendment: amendment, title, target, target_title, references,
        resolved, amended_chunks, reason, describe], "updated": chunks and records written}."""
        name = self._index(index)
        if not dry_run:  # an index made before the link fields existed gets them (additive)
            indices.upgrade_mappings(self.store, name, int(indices.require_meta(self.store, name)["dim"]))
        done = links.link_all(self.store, indices.require(self.store, name, "chunks"),
                              indices.require(self.store, name, "docs"), dry_run=dry_run)
        return {"links": [dataclasses.asdict(link) | {"describe": link.describe()} for link in done.links],
                "updated": done.updated, "dry_run": dry_run}

    def explain(self, question: str | SearchRequest, **options: Any) -> dict:
        """Why each hit ranks where it does, for the same plan and fused query `search` would run:
        per list (bm25, knn, identifier, title) the raw and normalized score, the combination and
        the fused score from the engine's `hybrid_score_explanation`; the routing and current-text
        priors our code adds after fusion, and the passages expansion appends
        (`legalsearch.query.explain`). `options`: as for `request`."""
        req = question if isinstance(question, SearchRequest) else self.request(question, **options)
        return explain_search(self.service, req)

    # ----------------------------------------------------------------- index admin

    def create_index(self, name: str | None = None, *, embedder: str = "minilm", shards: int | None = None,
                     replicas: int | None = None) -> dict:
        """Create an index (idempotent, race-safe); returns the `_meta` recording how it is built.

        Args:
            shards: primary shards (default 1 at every corpus size: a hybrid query's BM25 scores are per
                shard, and three shards changed the default top 10 at 10k-300k chunks; docs/cluster.md).
            replicas: copies of each shard (default: 0 on one node, 1 on a cluster).
        """
        return indices.create(self.store, self._index(name), self.embedders.get(embedder), shards=shards,
                              replicas=replicas)

    def reindex(self, name: str | None = None, *, sources: Iterable[str | Path] = (),
                manifest: str | Path | None = None, shards: int | None = None, replicas: int | None = None,
                progress: Callable[[int], None] | None = None, on_total: Callable[[int], None] | None = None,
                **changes: Any) -> dict:
        """Build a new generation of an index beside the live one and swap the aliases to it
        atomically (searches keep answering); the old generation is kept until `prune_index`.

        Args:
            sources: files or folders to ingest from (default: the paths the registry recorded).
            shards, replicas: the new index's (default: 1 shard, replicas 0 on one node / 1 on a cluster).
            **changes: ingest options to change (chunker, chunk_size, summarizer, embedder,
                embed_parts, public_if_no_acl): any of them, or `sources`, rebuilds from the files;
                otherwise every chunk is copied server-side (new mappings, analyzers, shards).

        Returns:
            mode (copy | rebuild), previous and live indices, chunk and document counts.
        """
        paths = [Path(s) for s in sources]
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise ConfigError(f"no such file or folder: {', '.join(missing)}")
        from legalsearch.ingest.reindex import reindex as reindex_index  # the ingestion side, loaded on use

        return reindex_index(self.store, self.settings, self.embedders, self._index(name), changes=changes,
                             shards=shards, replicas=replicas, paths=paths, manifest=Path(manifest) if manifest else None,
                             progress=progress, on_total=on_total)

    def prune_index(self, name: str | None = None) -> list[str]:
        """Delete the generations of an index that its aliases no longer point at (after a reindex)."""
        from legalsearch.index import generations

        return generations.prune(self.store, self._index(name))

    def delete_index(self, name: str) -> list[str]:
        """Delete an index and its document registry; returns the concrete indices deleted."""
        return indices.delete(self.store, name)

    def list_indices(self) -> list[dict]:
        """Every legalsearch index with its document and chunk counts."""
        return indices.list_indices(self.store)

    def index_info(self, name: str | None = None) -> dict:
        """How an index was built and what it holds."""
        return indices.info(self.store, self._index(name))

    def install_pipelines(self, rank_constant: int = fusion.DEFAULT_RANK_CONSTANT) -> list[str]:
        """Install (or update) the fusion search pipelines; returns their names."""
        wanted = fusion.default_pipelines()
        wanted[fusion.rrf_pipeline_name(rank_constant)] = fusion.rrf_pipeline_body(rank_constant)
        return fusion.install_pipelines(self.store, wanted)

    def install_engine(self, index: str | None = None, rerank_model: str | None = None) -> dict:
        """Put the index's embedding model and query shapes inside OpenSearch, so that any client
        gets our hybrid search by naming the index, a stored template and the question
        (docs/engine.md): remote query and passage models calling the index's own embedder (our
        embedding server, or an API embedder's provider with its key), the index's default search
        pipeline, the `text_embedding` ingest pipeline, the templates `legalsearch-hybrid`,
        `legalsearch-bool`, `legalsearch-route`. Idempotent; needs the admin.

        Args:
            rerank_model: an API reranker (`cohere:URL?model=M` / `jina:URL?model=M`; default
                LEGALSEARCH_RERANK_MODEL): also a reranker model, the search pipeline
                `legalsearch-engine-rerank-v1-E` (OpenSearch's `rerank` processor) and the template
                `legalsearch-hybrid-rerank` (docs/models.md).

        Returns:
            The ids installed (also recorded in the index's `_meta`).
        """
        return engine.install(self.store, self.settings, self._index(index), rerank_model)

    def list_pipelines(self) -> dict:
        """The search pipelines on the node, by name."""
        return self.store.get_search_pipelines()

    # ----------------------------------------------------------------- users and groups

    def whoami(self) -> dict | None:
        """What the security plugin says about the identity this client searches as: the end user
        (`user=` / `as_user`, verified with its own password) when there is one, else the
        connection's (user_name, backend_roles, roles); None when the cluster has no security plugin."""
        if self.settings.user:
            password = self.settings.password.get_secret_value() if self.settings.password else None
            if password is None:
                raise SecurityError(f"no password for user {self.settings.user!r}: set LEGALSEARCH_PASSWORD, or "
                                    "pass password= to LegalSearch")
            return self.search_store.authinfo((self.settings.user, password))
        return self.store.authinfo()

    def add_user(self, name: str, password: str, *, groups: Iterable[str] = (), roles: Iterable[str] = ("reader",),
                 dashboards: bool = False) -> dict:
        """Create an end user (`reader`: chunks under document-level security) or an `auditor`
        (the retrieval log), with its ACL groups. Needs the admin."""
        return admin.users_add(self.store, name, password, list(groups), tuple(roles), dashboards)

    def list_users(self) -> list[dict]:
        """Every user of the cluster's internal database, with groups and roles."""
        return admin.users_list(self.store)

    def remove_user(self, name: str) -> bool:
        """Remove a user; False when there was none."""
        return admin.users_remove(self.store, name)

    def set_password(self, name: str, password: str) -> None:
        """Set a user's password. For the local node's reserved `admin` this uses the admin
        certificate and rewrites the stored password."""
        from legalsearch.security.roles import ADMIN_USER
        from legalsearch.security.secrets import Secrets, write_secret

        if name == ADMIN_USER and not self.settings.opensearch_user:
            admin.users_passwd(Store(self.settings, identity="admin-certificate"), name, password)
            write_secret(Secrets(self.settings.node_secrets).admin_password_file, password)
            return
        admin.users_passwd(self.store, name, password)

    def grant_groups(self, name: str, groups: Iterable[str]) -> list[str]:
        """Add ACL groups to a user (effective on its next request); returns its groups."""
        return admin.groups_grant(self.store, name, list(groups))

    def revoke_groups(self, name: str, groups: Iterable[str]) -> list[str]:
        """Remove ACL groups from a user; returns its groups."""
        return admin.groups_revoke(self.store, name, list(groups))

    def list_groups(self) -> dict[str, list[str]]:
        """Every ACL group held by a user, with its users."""
        return admin.groups_list(self.store)

    def init_security(self, service_password: str | None = None) -> list[str]:
        """Create or update the legalsearch roles (and the service account) on an external cluster
        (the local node does it itself)."""
        return admin.init(self.store, self.settings.log_index, service_password)


def _query_server(settings: Settings) -> QueryServer | None:
    """The embedding server questions may be embedded by: the local node's, while it runs (only its
    URL here; whether it serves an index's build is asked on the first question: search.embedserver.client).
    LEGALSEARCH_EMBED_URL is where OpenSearch reaches a server, maybe not from here: not used."""
    state = embedserver.running(settings)
    return QueryServer(state.url) if state else None


def _generated_docs() -> None:
    """Fill the option lists of the search methods' docstrings from the request model."""
    from legalsearch.query.models import options_summary

    summary = options_summary()
    for method in (LegalSearch.request, LegalSearch.search):
        method.__doc__ = method.__doc__.replace("{options}", summary)


_generated_docs()
