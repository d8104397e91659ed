"""The query flow: plan (identifiers, filters, query vector, document routing, request body,
fusion pipeline) -> one fused query inside OpenSearch -> (rerank) -> cross-reference expansion
-> hits with citations -> retrieval log.

`SearchService.plan` is the one planning step: `search`, `explain` and the evaluation all go
through it, so they cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import logging
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from datetime import date
from typing import NamedTuple

import numpy as np
from legalsearch.config import Settings
from legalsearch.embed import Embedders, EmbeddingCache, embed_with_cache
from legalsearch.errors import ConfigError, LegalSearchError, NodeError, PermissionDeniedError, QueryError
from legalsearch.index import indices, refresh, walls
from legalsearch.index.terms import DISK_FILE
from legalsearch.index.terms import warm as terms_warm
from legalsearch.load.language import detect_language
from legalsearch.query import bodies, cite, expand, glossary, lexicon, registry, relevance
from legalsearch.query import context as ctx
from legalsearch.query import highlight as highlighting
from legalsearch.query.fusion import (
    FusionPipelines,
    normalization_pipeline_body,
    pipeline_for,
    rrf_pipeline_body,
    rrf_pipeline_name,
)
from legalsearch.query.identifiers import parse_identifiers
from legalsearch.query.log import RetrievalLog
from legalsearch.query.models import (
    AUTO_RERANK,
    AUTO_RERANK_LEXICAL,
    AUTO_RERANK_WEIGHT,
    BI_ENCODER_RERANKERS,
    Filters,
    Hit,
    SearchRequest,
    SearchResponse,
)
from legalsearch.query.plan import (
    LANGUAGE_PLACE,
    MAX_QUERY_REFS,
    MAX_SUBJECT_DOCS,
    SearchPlan,
    across_documents,
    apply_current_prior,
    apply_open_places,
    apply_recitals_prior,
    apply_routing_prior,
    bm25_text,
    candidate_size,
    cited_prior_docs,
    cross_language_places,
    current_prior,
    edition,
    effective_routing,
    focus_question,
    function_words,
    language_places,
    language_places_after,
    look_alikes,
    merge_named,
    naming_words,
    needs_vector,
    not_in_force,
    open_places,
    question_kinds,
    question_words,
    recitals_prior,
    routing_agreed,
    routing_prior,
    subject_near,
    subject_text,
    unsure_prior,
    with_subject,
    with_subject_kinds,
    without_translations,
    written_like_names,
)
from legalsearch.query.rerank import Rerankers, rerank
from legalsearch.security.principal import Authenticator
from legalsearch.store import Store, msearch_error

log = logging.getLogger(__name__)


DOC_FACTS = ["doc_key", "title", "doc_type", "language", "valid_from", "chunk_count"]
"""What the plan reads of a registry entry besides its profile: its language (across_language),
what identifies its text in another language (plan.edition) and how many chunks it holds (how deep
a search inside it can go: first_stage)."""


class Deeper(NamedTuple):
    """The part of a deeper list a search reads (`SearchService.run_counting`): its first hits, and
    how many the whole list holds (up to its depth), which says whether the document is long."""

    hits: list[tuple[dict, float]]
    held: int


class Subject(NamedTuple):
    """A document of the subject list (`SearchService.subject_list`) and its cosine to the question."""

    key: str
    doc_type: str
    score: float


TARGET_TTL_S = 2.0
"""How long a process trusts the index behind an alias before looking again: a reindex that
moves the alias is followed within this time, and every search in between reads the previous
generation (kept until `index prune`) with the meta (embedder) that matches it."""


LANGUAGES_TTL_S = 60.0
"""How long a process trusts the languages of an index's documents (routing ranks BM25 within each)."""


class SearchService:
    """Answers SearchRequests against one store; owns the per-process state of the query side
    (index metadata, installed pipelines, the retrieval log, loaded rerankers)."""

    def __init__(self, settings: Settings, store: Store, embedders: Embedders):
        self.settings = settings
        self.store = store
        self.embedders = embedders
        # who each search runs for: settings.user (an end user verified by the security plugin)
        # or the store's own identity; it decides the ACL groups of every sub-query
        self.authenticator = Authenticator(store, settings.user, settings.password, settings.token)
        self.pipelines = FusionPipelines(store)
        self.retrieval_log = RetrievalLog(store, settings.log_index)
        # the passage terms relevance reads, also on disk (the ingest analyses what it writes)
        relevance.TERMS.use_disk(settings.cache_dir / DISK_FILE)
        if settings.glossary:  # a bad glossary file of one's own fails here, naming its line
            glossary.load(settings.glossary)
        self._targets: dict[str, tuple[tuple[str, str, dict], float]] = {}
        self._walls: dict[tuple[str, str], tuple[list[walls.Wall], float]] = {}
        self._rerankers: Rerankers | None = None
        self._languages: dict[str, tuple[list[str], float]] = {}
        self._doc_language: dict[tuple[str, str], str | None] = {}  # (registry, doc_key) -> its language
        self._doc_edition: dict[tuple[str, str], tuple] = {}  # (registry, doc_key) -> plan.edition of it
        self._subjects: dict[tuple[str, str], object] = {}  # (embedder cache key, subject text) -> vector
        # the registry's answers to the naming lookups, kept while its change marker stays
        self._registry = registry.RegistryAnswers(self.store.search, TARGET_TTL_S, epoch=indices.changes)
        # requests a search sends beside its own path (relevance's term statistics), so that it
        # does not wait for them in turn
        self._beside = ThreadPoolExecutor(max_workers=4, thread_name_prefix="legalsearch-beside")

    def target(self, index: str) -> tuple[str, str, dict]:
        """(chunks index, docs index, meta) of the generation behind `index`'s aliases, looked up
        again after `TARGET_TTL_S`; a refresh a killed ingest left off is restored on the way."""
        now = time.monotonic()
        cached = self._targets.get(index)
        if cached and now - cached[1] < TARGET_TTL_S:
            return cached[0]
        chunks, body = indices.live(self.store, index, "chunks")
        if body.get("settings", {}).get("index", {}).get("refresh_interval") == "-1":
            try:
                refresh.recover(self.store, chunks)
            except PermissionDeniedError:  # an end user's search may not change settings; an admin command will
                log.warning("%s has refresh off; `legalsearch index info --index %s` (as an administrator) turns it "
                            "back on if the ingest that turned it off has died", chunks, index)
        if cached and cached[0][0] == chunks:
            found = cached[0]
        else:
            try:
                docs = indices.live(self.store, index, "docs")[0]
            except NodeError:  # a node that does not answer is a failed search, not a missing registry
                raise
            except LegalSearchError:  # no registry alias: routing then finds nothing to rank
                docs = f"{index}-docs"
            found = (chunks, docs, indices.meta_of(body))
            relevance.TERMS.know(chunks, body.get("settings", {}).get("index", {}).get("uuid"))
        self._targets[index] = (found, now)
        return found

    def readable(self, chunks: str, docs: str, groups: tuple[str, ...] | None) -> tuple[str, str]:
        """The (chunks, docs) indices a search for `groups` reads, comma-joined: the public ones
        of the generation plus the walls that share a group with `groups` (every wall for None,
        an unrestricted administrator), and nothing else (search.index.walls). Walls are
        looked up again after `TARGET_TTL_S`."""
        now = time.monotonic()
        cached = self._walls.get((chunks, docs))
        if cached and now - cached[1] < TARGET_TTL_S:
            found = cached[0]
        else:
            try:
                found = walls.list_walls(self.store, chunks, docs)
            except PermissionDeniedError:  # a connection as a reader itself: its groups' aliases
                return walls.through_aliases(chunks, groups or ()), walls.through_aliases(docs, groups or ())
            self._walls[(chunks, docs)] = (found, now)
        return walls.readable(chunks, found, groups, "chunks"), walls.readable(docs, found, groups, "docs")

    def forget_walls(self) -> None:
        """Look the walls up again on the next search (after an ingest made one through this
        process; another process sees a new wall within `TARGET_TTL_S`)."""
        self._walls.clear()

    def close(self) -> None:
        """Write what the retrieval log still holds (it writes off the request path); also done at exit."""
        self.retrieval_log.flush()

    def index_meta(self, index: str) -> dict:
        return self.target(index)[2]

    @property
    def rerankers(self) -> Rerankers:
        if self._rerankers is None:
            cache = EmbeddingCache(self.settings.cache_dir / "embeddings.sqlite")
            self._rerankers = Rerankers(self.embedders, cache)
        return self._rerankers

    # ----------------------------------------------------------------- plan

    def plan(self, req: SearchRequest) -> SearchPlan:
        """Everything decided before the fused query runs (routing runs its own small search)."""
        timings: dict[str, float] = {}
        principal = self.authenticator.principal()
        chunks_index, docs_index, meta = self.target(req.index)
        refs = tuple(parse_identifiers(req.query))[:MAX_QUERY_REFS]
        # the caller's verified groups; a request's groups can only narrow them
        filters = req.filters.model_copy(update={"groups": principal.restrict(req.filters.groups)})
        # exactly the indices those groups may open: the public one and their walls
        chunks_index, docs_index = self.readable(
            chunks_index, docs_index, None if principal.groups is None and not req.filters.groups else filters.groups)

        vector = None
        model_id = engine_model(meta, req)
        # BM25 reads at most MAX_BM25_WORDS distinct words of a long question (1024 clauses). A
        # question the engine embeds (`neural`) is sent whole: the same text feeds both sub-queries
        # there, and the embedding server refuses one over the model's window anyway.
        text, too_long = (req.query, None) if model_id else bm25_text(req.query)
        if too_long:
            log.warning(too_long)
        routing = effective_routing(req.routing.mode, refs)
        embeds = needs_vector(req) and model_id is None
        # a question that names one document is searched there as focused (focus_named): its names
        # are looked up first, and then only the focused question is embedded
        found, deferred = None, False
        if embeds and names_decide(req, routing):
            t = time.perf_counter()
            found = self.named(text, filters, docs_index, req.routing.docs, {r.label.lower() for r in refs})
            timings["routing"] = _ms(t)
            deferred = focus_alone(req, *found)
        if embeds:
            t = time.perf_counter()
            embedder = self.embedders.for_query(meta)
            check_window(embedder, req.query)
            if not deferred:
                vector = embedder.embed_query(req.query).tolist()
                timings["embed"] = _ms(t)

        routed: tuple[str, ...] = ()
        agreed = True  # routing's lists put one document first (route); False: the prior is routing_unsure_prior
        subjects: list[Subject] = []  # the subject list (route)
        named_by: list[str] = []
        boost: tuple[str, ...] = ()
        if cited_but_named(req, routing):
            # a cited section is looked for everywhere, unless the question names its document:
            # "articolo 13.2 licenza Kestrel" is article 13 of the Kestrel licence, not clause 13.2
            # of another contract; a name few documents carry is safer evidence than routing's
            # ranking by title and summary, which "auto" leaves out for cited sections (in a
            # question typed in one case any rare word "names": "liability cap clause 14.3")
            t = time.perf_counter()
            named_by, named = self.named_in_order(req, text, vector, filters, model_id, docs_index, refs, found=found)
            timings["routing"] = timings.get("routing", 0.0) + _ms(t)
            if named:
                routing, routed = "filter", tuple(named)
                filters = filters.model_copy(update={"doc_keys": routed})
            else:
                named_by = []
        elif routing != "off":
            t = time.perf_counter()
            ranked, named_by, subjects, agreed = self.route(req, vector, filters, model_id, text, docs_index, refs,
                                                            found=found)
            routed = tuple(ranked)
            timings["routing"] = timings.get("routing", 0.0) + _ms(t)
            if routing == "filter" and routed:
                filters = filters.model_copy(update={"doc_keys": routed})
            elif routing == "boost":
                boost = routed
            # "prior": nothing restricted, the routing prior re-ranks the fused list (run)
        if routing == "off" and req.routing.mode == "auto" and req.routing.cited and refs and not routed \
                and routing_prior(req, "prior", ("",)):  # the prior is its only effect
            t = time.perf_counter()
            routed = tuple(self.cited_route(req, vector, filters, model_id, text, chunks_index, docs_index, refs))
            timings["routing"] = timings.get("routing", 0.0) + _ms(t)
            if routed:
                routing = "prior"

        prior = unsure_prior(req, routing_prior(req, routing, routed), agreed)
        focused = None
        # one named document only: where several are named, the naming clause is what ranks the
        # right one's chunks first (focusing there too sends questions to the wrong look-alike)
        if req.routing.focus_named and named_by and req.routing.names == "only" and routing == "filter" and len(routed) == 1:
            focused = focus_question(req.query, named_by)
            if focused == req.query:
                focused = None
            else:
                text = focused if model_id else bm25_text(focused)[0]
                if vector is not None:
                    t = time.perf_counter()
                    vector = self.embedders.for_query(meta).embed_query(focused).tolist()
                    timings["embed_focused"] = _ms(t)
        if deferred:  # named before any embedding: only what is searched is embedded
            t = time.perf_counter()
            vector = self.embedders.for_query(meta).embed_query(focused or req.query).tolist()
            timings["embed_focused" if focused else "embed"] = _ms(t)
        titles = lexicon.title_terms(focused or req.query) if req.fusion.title_weight > 0 else []
        places = open_places(req, routing, routed)
        size = candidate_size(req, prior, places)
        if not req.experimental.bm25_stop_words and model_id is None:  # neural: one text feeds both
            text = bodies.without_stop_words(text)
        named_in = self.named_language(req, docs_index, routed) if named_by and routing == "filter" and len(routed) == 1 \
            and req.routing.cross_language_glossary and model_id is None else None
        read: tuple[str, tuple[str, ...]] | None = None  # the glossary's words BM25 reads (plan.glossary)
        if named_in:  # the one named document is in another language: BM25 reads its words for the terms too
            added = glossary_words(focused or req.query, named_in, glossary.NAMED_FORMS, self.settings.glossary)
            read = (named_in, added) if added else None
            text = " ".join([text, *added])
        searched = filters.model_copy(update={"doc_keys": ()}) if places else filters  # open places: every document

        def sub_queries(over: Filters, words: str = text) -> list:
            return bodies.sub_query_list(req.mode, text=words, vector=vector, filters=over, size=size,
                                         refs=list(refs), boost_doc_keys=boost, model_id=model_id, titles=titles,
                                         ef_search=bodies.knn_ef_search(meta))

        subs = sub_queries(searched)
        kinds = tuple(kind for kind, _ in subs)
        body = bodies.body_of(req.mode, size, subs)
        pipeline = None
        if "hybrid" in body["query"]:
            pipeline = pipeline_for(req.fusion.technique, req.fusion.rank_constant, req.experimental.normalization, req.fusion.weights, kinds,
                                    req.fusion.title_weight)
        across, after, across_docs = None, None, ()
        language = self.across_language(req, docs_index, routed, prior, subjects) \
            if pipeline and not named_by else None
        if language:  # a routed (or near-subject) document's language searched alone (plan.language_places)
            keys = [s.key for s in subjects]
            known = {key: self._doc_language.get((docs_index, key)) for key in (*keys, *routed)}
            across_docs = across_documents(routed, keys, known, language, req.routing.docs)
            alone = searched.model_copy(update={"languages": (language,)})
            if alone.doc_keys and req.routing.cross_language_translations:
                # a document whose own text in the question's language routing keeps is searched already
                editions = {key: self._doc_edition.get((docs_index, key)) for key in (*keys, *routed)}
                candidates = across_docs or tuple(key for key in routed if known.get(key) == language)
                across_docs = without_translations(candidates, routed, known, language, editions)
                if not across_docs:
                    language = None
            if across_docs and alone.doc_keys:  # restricted to routing's documents: to these instead
                alone = alone.model_copy(update={"doc_keys": across_docs})
        if language:
            # BM25 over that language reads the glossary's words for the question's terms too (not when
            # the engine embeds the question: its neural query reads the same text, and would embed them)
            if req.routing.cross_language_glossary and model_id is None:
                added = glossary_words(req.query, language, extra=self.settings.glossary)
                read = (language, added) if added else None
            across = (language, bodies.body_of(req.mode, size, sub_queries(alone, " ".join([text, *read[1]])
                                                                           if read else text)))
            # routing kept none of that language: the subject list alone spoke for it, and routing's
            # own documents keep the early places (on the dev halves, places 3-5 for that language cost
            # two same-language questions theirs in the top 5, and the last places none)
            unrouted = not any(known.get(key) == language for key in routed)
            after = language_places_after(req, req.routing.cross_language_subject and not unrouted and subject_near(
                [(s.score, known.get(s.key)) for s in subjects], language, req.routing.cross_language_margin))
        return SearchPlan(req, meta, refs, filters, routing, routed, vector, body, pipeline, timings, principal.user,
                          prior, kinds, chunks_index, docs_index, (too_long,) if too_long else (), tuple(named_by),
                          focused, current_prior(req, today()), places, across, after, across_docs, read,
                          recitals_prior(req), not agreed)

    def across_language(self, req: SearchRequest, docs_index: str, routed: tuple[str, ...], prior: float,
                        subjects: Sequence[Subject] = ()) -> str | None:
        """The first language, in routing's order, that a routed document is in and the question is
        not, when the corpus holds both (`routing_cross_language`; the routing prior orders the
        documents); else, with `routing_cross_language_unrouted`, the first other language whose best
        document in the subject list (`subjects`) is within `routing_cross_language_margin` of its first
        (`plan.subject_near`): "Can our vendor of electronic components raise its prices?" routed to
        English contracts only, about an Italian supply contract's Art. 4; else None. Not asked where
        the question names its documents (`plan`): names match in every language."""
        if not (cross_language_places(req) and prior and routed) or req.filters.languages:
            return None
        languages = self.doc_languages(docs_index)
        if len(languages) < 2:
            return None
        question = detect_language(req.query)
        if question not in languages:
            return None
        langs = self.languages_of(docs_index, routed)
        routed_language = next((lang for lang in langs if lang and lang != question and lang in languages), None)
        if routed_language or not req.routing.cross_language_unrouted:
            return routed_language
        scored = [(s.score, self._doc_language.get((docs_index, s.key))) for s in subjects]
        return next((lang for _, lang in scored if lang and lang != question and lang in languages
                     and subject_near(scored, lang, req.routing.cross_language_margin)), None)

    def languages_of(self, docs_index: str, keys: Sequence[str]) -> list[str | None]:
        """The language of each registry entry in `keys` (one request for those not known yet)."""
        missing = [key for key in keys if (docs_index, key) not in self._doc_language]
        if missing:
            hits = self.store.search(docs_index, {"size": len(missing), "_source": DOC_FACTS,
                                                  "query": {"terms": {"doc_key": missing}}})["hits"]["hits"]
            sources = {h["_source"]["doc_key"]: h["_source"] for h in hits}
            for key in missing:
                self.remember_doc(docs_index, key, sources.get(key, {}))
        return [self._doc_language[(docs_index, key)] for key in keys]

    def named_language(self, req: SearchRequest, docs_index: str, routed: Sequence[str]) -> str | None:
        """The language of the documents in `routed` when all are in one that is not the question's
        ("the percentage Tecnoluce owes if it pulls out early", about an Italian contract); else None.
        `plan` asks it for the one document a question names: its BM25 then reads the glossary's
        words for the question's terms."""
        question = detect_language(req.query)
        langs = set(self.languages_of(docs_index, routed))
        language = next(iter(langs)) if len(langs) == 1 else None
        return language if language and language != question else None

    def remember_doc(self, docs_index: str, key: str, source: dict) -> None:
        """Keep what the plan reads of a registry entry (`DOC_FACTS`): its language, its `plan.edition`
        and its chunk count."""
        self._doc_language[(docs_index, key)] = source.get("language")
        self._doc_edition[(docs_index, key)] = edition(source)
        self.remember_length(docs_index, source)

    def remember_length(self, docs_index: str, source: dict) -> None:
        """Keep a registry entry's chunk count (how deep a search inside it can go: `first_stage`)
        while the registry is unchanged (`registry.RegistryAnswers`)."""
        if isinstance(source.get("chunk_count"), int):
            self._registry.put(docs_index, ("chunks", source["doc_key"]), source["chunk_count"])

    def route(self, req: SearchRequest, vector, filters: Filters, model_id: str | None = None,
              text: str | None = None, docs_index: str | None = None, refs=(),
              found: tuple[list[str], list[str]] | None = None
              ) -> tuple[list[str], list[str], list[Subject], bool]:
        """(the doc_keys of the best documents for the query, the words that named them, the subject
        list: every document the caller may see, best first by subject, or [] when there is none,
        whether routing's lists agree on the first document: `plan.routing_agreed`, True when a name
        decided): the documents the question names (`named`), else the best by title, parties,
        summary, profile.

        With `routing_weights`, the BM25 and k-NN document lists are fused by min-max
        normalization (BM25 first): a name only one document carries ("Kenway's NDA") makes that
        document's BM25 score stand out, which rank fusion would flatten; unset, reciprocal rank
        fusion (the `legalsearch-route` template's). `text`: what BM25 reads (a long question's
        first words); `docs_index`: the registry of the generation searched; `refs`: the question's
        identifiers, whose labels name no document ("14.3" is in the opening of the amendment that
        changes clause 14.3, and in the question about clause 14.3 of the agreement); `found`: what
        `named` answered, when the plan asked it first."""
        titles = lexicon.title_terms(req.query) if req.experimental.routing_topics else []
        docs_index = docs_index or self.target(req.index)[1]
        # one BM25 list per language (bodies.routing_body) under rank fusion; the min-max weights of
        # `routing_weights` are for two lists
        langs = self.doc_languages(docs_index) if req.routing.languages and not req.experimental.routing_weights else None
        # with a list per language, one routing place per other language: that language's best
        # document may take one, and the question's own language keeps `routing_docs`
        size = req.routing.docs + (len(langs) - 1 if langs and len(langs) > 1 else 0)
        body = bodies.routing_body(text or req.query, vector, filters, size, model_id, req.experimental.routing_knn,
                                   titles, langs)
        if req.experimental.routing_weights and (vector is not None or model_id):
            pipeline = normalization_pipeline_body("min_max", tuple(req.experimental.routing_weights))
        else:
            pipeline = rrf_pipeline_body(req.fusion.rank_constant)
        words, named = [], []
        if req.routing.names != "off":
            words, named = self.named_in_order(req, text or req.query, vector, filters, model_id, docs_index, refs,
                                               found=found)
            if named and req.routing.names == "only":  # the named documents alone: no ranking to run
                named = merge_named(named, [], req.routing.docs, "only")
                kinds = question_kinds(req.query) if req.experimental.subject_kinds else ()
                if kinds:  # a kind of document asked about that no named one is of ("... before the board approved it?")
                    named = with_subject_kinds(named, self.subject_ranking(req, vector, filters, docs_index, None, True),
                                               kinds)
                return named, words, [], True
        # the routing ranking and the profiles of the subject list in one round trip (asked only when
        # used: under load the node's time, not the round trip, is what a speculative request costs)
        asked = self.subject_request(req, vector, filters, docs_index)
        answers = self.store.msearch([(docs_index, body, pipeline), *([asked] if asked else [])])
        result, profiles = answers[0], (answers[1] if asked else None)
        hits = result["hits"]["hits"]
        # and the document the question's subject points to, one place more when routing left it out
        ranked = [h["_source"]["doc_key"] for h in hits]
        kinds = question_kinds(req.query) if req.experimental.subject_kinds else ()
        subjects = self.subject_list(req, vector, filters, docs_index, profiles)
        # rank fusion's scores say whether the first document was first in every list (min-max ones do not)
        agreed = bool(req.experimental.routing_weights) or routing_agreed(
            [h["_score"] or 0.0 for h in hits], 1 + (vector is not None or bool(model_id)), req.fusion.rank_constant,
            subjects[0].key if subjects else None, ranked[0] if ranked else None)
        if kinds:  # routing weighed by the kind of document the question asks about
            routed = with_subject_kinds(ranked, [(s.key, s.doc_type) for s in subjects], kinds)
        else:
            routed = with_subject(ranked, [s.key for s in subjects[:1]])
        if not agreed:  # doubt counts among look-alikes only: documents of one type in one language
            kinds_of = {h["_source"]["doc_key"]: (h["_source"].get("doc_type"), h["_source"].get("language"))
                        for h in hits}
            kinds_of.update({s.key: (s.doc_type, self._doc_language.get((docs_index, s.key))) for s in subjects
                             if s.key in routed and s.key not in kinds_of})  # the subject document routing added
            agreed = not look_alikes(routed, kinds_of)
        if req.routing.names == "off":
            return routed, [], subjects, agreed
        return merge_named(named, routed, len(routed) if not named else req.routing.docs, req.routing.names), \
            words if named else [], subjects, agreed or bool(named)

    def cited_route(self, req: SearchRequest, vector, filters: Filters, model_id: str | None, text: str,
                    chunks_index: str, docs_index: str, refs) -> list[str]:
        """For a question that cites a section of its own document and names none ("Which deposit
        rules must a landlord have complied with before serving a section 21 notice?"): the
        document, of those that carry a cited label, whose subject the question asks about, for the
        routing prior (`plan.cited_prior_docs`: routing's ranking, names off, decides between kinds
        of document, never between documents of one kind). Every document is still searched (the
        label decides where to look, `effective_routing`), but "21. Notices" of three NDAs no longer
        outranks the statute's section 21 when the question's subject is the statute's."""
        labels = [r.label for r in refs if not r.external]
        if not labels:
            return []
        body = {"size": 0, "query": {"bool": {"filter": [*bodies.filter_clauses(filters),
                                                         {"terms": {"section": labels}}]}},
                "aggs": {"docs": {"terms": {"field": "doc_key", "size": 200},
                                  "aggs": {"type": {"terms": {"field": "doc_type", "size": 1}}}}}}
        buckets = self.store.search(chunks_index, body)["aggregations"]["docs"]["buckets"]
        carrying = {b["key"]: (b["type"]["buckets"][0]["key"] if b["type"]["buckets"] else "") for b in buckets}
        if not carrying:
            return []
        ranked, _, _, _ = self.route(req.model_copy(update={"routing": req.routing.model_copy(update={"names": "off"})}),
                               vector, filters, model_id, text, docs_index, refs)
        return cited_prior_docs(ranked, carrying)

    def subject_request(self, req: SearchRequest, vector, filters: Filters, docs_index: str
                        ) -> tuple[str, dict, None] | None:
        """The request for the profiles of the subject list (`subject_ranking`), None when it is off
        or the engine embeds the question (no vector here)."""
        if not req.routing.subjects or vector is None:
            return None
        return docs_index, {"size": MAX_SUBJECT_DOCS + 1, "_source": [*DOC_FACTS, "profile"],
                            "query": {"bool": {"filter": bodies.filter_clauses(filters)}}}, None

    def subject_ranking(self, req: SearchRequest, vector, filters: Filters, docs_index: str, size: int | None,
                        types: bool = False, answer: dict | None = None) -> list:
        """The doc_keys of `subject_list`, `size` of them (None: all); `types`: (doc_key, doc_type) pairs."""
        subjects = self.subject_list(req, vector, filters, docs_index, answer)[:size]
        return [(s.key, s.doc_type) for s in subjects] if types else [s.key for s in subjects]

    def subject_list(self, req: SearchRequest, vector, filters: Filters, docs_index: str,
                     answer: dict | None = None) -> list[Subject]:
        """The documents the caller may see, best first by what they are about (plan.subject_text:
        title, type, profile): the cosine of the question's vector to each. One request for the
        profiles (`subject_request`; `answer`: its answer, when it ran in a batch); each profile is
        embedded once per process (and cached on disk across processes).
        Empty when off, when the engine embeds the question (no vector here), or when the registry
        holds more than MAX_SUBJECT_DOCS documents for these filters."""
        request = self.subject_request(req, vector, filters, docs_index)
        if request is None:
            return []
        hits = (answer or self.store.search(request[0], request[1]))["hits"]["hits"]
        if not hits or len(hits) > MAX_SUBJECT_DOCS:
            return []
        for h in hits:  # the documents' languages come with them (across_language, plan.across_documents)
            self.remember_doc(docs_index, h["_source"]["doc_key"], h["_source"])
        embedder = self.embedders.for_query(self.target(req.index)[2])
        texts = [subject_text(h["_source"]) for h in hits]
        missing = list(dict.fromkeys(t for t in texts if (embedder.cache_key, t) not in self._subjects))
        if missing:
            cache = EmbeddingCache(self.settings.cache_dir / "embeddings.sqlite")
            for text, row in zip(missing, embed_with_cache(embedder, missing, cache), strict=True):
                self._subjects[(embedder.cache_key, text)] = row
        q = np.asarray(vector, dtype=np.float32)
        scores = [float(np.dot(q, self._subjects[(embedder.cache_key, t)])) for t in texts]
        order = sorted(range(len(hits)), key=lambda i: -scores[i])
        return [Subject(hits[i]["_source"]["doc_key"], hits[i]["_source"].get("doc_type") or "", scores[i])
                for i in order]

    def doc_languages(self, docs_index: str) -> list[str]:
        """The languages of the documents in a registry, most documents first (at most
        `bodies.MAX_ROUTING_LANGUAGES`; none when there are more), looked up again after
        `LANGUAGES_TTL_S`: the document ranking of routing ranks BM25 within each."""
        now = time.monotonic()
        cached = self._languages.get(docs_index)
        if cached and now - cached[1] < LANGUAGES_TTL_S:
            return cached[0]
        size = bodies.MAX_ROUTING_LANGUAGES + 1
        result = self.store.search(docs_index, {"size": 0, "aggs": {"languages": {"terms": {"field": "language",
                                                                                              "size": size}}}})
        found = [b["key"] for b in result["aggregations"]["languages"]["buckets"]]
        languages = found if len(found) <= bodies.MAX_ROUTING_LANGUAGES else []
        self._languages[docs_index] = (languages, now)
        return languages

    def named_in_order(self, req: SearchRequest, text: str, vector, filters: Filters, model_id: str | None,
                       docs_index: str, refs=(),
                       found: tuple[list[str], list[str]] | None = None) -> tuple[list[str], list[str]]:
        """`named` (the labels of `refs` left out), with documents named alike put in the order of
        what the question asks of them (`by_topic`); `found`: `named`'s answer, asked already."""
        words, named = found or self.named(text, filters, docs_index, req.routing.docs,
                                           {r.label.lower() for r in refs})
        if len(named) > 1 and req.routing.names == "only":
            named = self.by_topic(named, focus_question(text, words), vector, filters, model_id, docs_index, req)
        return words, named

    def by_topic(self, named: list[str], unnamed: str, vector, filters: Filters, model_id: str | None,
                 docs_index: str, req: SearchRequest) -> list[str]:
        """Documents the question names alike ("Kestrel": the NDA and the licence), ordered by what
        the question asks with the names taken out ("Does Kestrel have any exclusivity under its
        software licence?" -> "... exclusivity under its software licence?"): the routing search
        (title, parties, summary, profile; BM25 and k-NN) over those documents only. The names
        match every one of them alike, so they cannot say which one is meant; the first gets the
        largest routing prior."""
        only = filters.model_copy(update={"doc_keys": tuple(named)})
        titles = lexicon.title_terms(unnamed) if req.experimental.routing_topics else []
        body = bodies.routing_body(unnamed, vector, only, len(named), model_id, req.experimental.routing_knn, titles)
        name = self.pipelines.ensure(rrf_pipeline_name(req.fusion.rank_constant), rrf_pipeline_body(req.fusion.rank_constant))
        ranked = [h["_source"]["doc_key"] for h in self.store.search(docs_index, body, pipeline=name)["hits"]["hits"]]
        return list(dict.fromkeys([k for k in ranked if k in named] + named))

    def named(self, text: str, filters: Filters, docs_index: str, size: int,
              cited: set[str] | frozenset[str] = frozenset()) -> tuple[list[str], list[str]]:
        """The documents the question names by a word written like a name that few documents carry
        (search.query.plan.question_words / naming_words), found in their name fields
        (bodies.NAME_FIELDS): "Consider Seeed's NDA; does it ...", "our NDA with Kestrel" (the
        licence calls Officine Fabbri "Kestrel" in its opening only). Of those, the ones that carry
        as many of the rare words as the first (`bodies.names_carried`). Two small requests on the
        document registry, each kept across questions (`registry.RegistryAnswers`). Returns (the
        rare words, the documents named); ([], []) when no word is rare enough."""
        words = [w for w in question_words(text) if w.lower() not in cited]
        if not words:
            return [], []
        kept = registry.filters_key(bodies.filter_clauses(filters))  # the registry's answers, by filters
        df, total = self.naming_counts(words, filters, docs_index, kept)
        rare = naming_words(df, total, size)
        if not rare:
            return [], []
        key = ("named", kept, tuple(rare), size)
        named = self._registry.get(docs_index, key)
        if named is not None:
            log.debug("named by %s: %s (kept)", rare, named)
            return rare, list(named)
        # the documents that carry the most of the rare words (up to `size`, best first): "Kestrel"
        # names the NDA and the licence alike, and the question may be about either (keeping only
        # those within half the best score loses right answers); "Birch First Global ... and Mount
        # Knowledge" names the one contract that carries all of them, not another whose opening
        # mentions "Knowledge"
        hits = self.store.search(docs_index, bodies.naming_body(rare, filters, size))["hits"]["hits"]
        most = bodies.names_carried(hits[0]["_score"]) if hits else 0
        named = [h["_source"]["doc_key"] for h in hits if bodies.names_carried(h["_score"]) >= most]
        self._registry.put(docs_index, key, tuple(named))
        for h in hits:
            self.remember_length(docs_index, h["_source"])
        log.debug("named by %s: %s", rare, named)
        return rare, named

    def naming_counts(self, words: list[str], filters: Filters, docs_index: str, kept: str
                      ) -> tuple[dict[str, tuple[int, ...]], int]:
        """(how many visible documents carry each word, per analyzer language; how many there are):
        the registry's answers kept from earlier questions (`registry.RegistryAnswers`), and one
        request (`bodies.naming_df_body`) for the words no question asked before."""
        total = self._registry.get(docs_index, ("total", kept))
        df = {w: found for w in words if (found := self._registry.get(docs_index, ("df", kept, w))) is not None}
        asked = [w for w in words if w not in df]
        if not asked and total is not None:
            return df, total
        asked = asked or words[:1]  # only the total was dropped (the oldest answer)
        counts = self.store.search(docs_index, bodies.naming_df_body(asked, filters))
        total = counts["hits"]["total"]["value"]
        self._registry.put(docs_index, ("total", kept), total)
        aggs = counts["aggregations"]
        for w in asked:
            df[w] = tuple(aggs[f"df_{lang}"]["buckets"][w]["doc_count"] for lang in bodies.NAMING_DF_FIELDS)
            self._registry.put(docs_index, ("df", kept, w), df[w])
        return df, total

    # ----------------------------------------------------------------- run

    def run(self, plan: SearchPlan, body: dict | None = None) -> list[tuple[dict, float]]:
        """(source, fused score) in ranked order for the plan's body (or `body`, e.g. a resized copy);
        with `plan.across`, the same search over a routed document's language alone in the same
        round trip, whose best chunks take places of the top k (`plan.language_places`: the last
        ones, or those after `plan.across_after`)."""
        body = body or plan.body
        if plan.across:
            inline = plan.pipeline[1] if plan.pipeline else None
            answers = self.store.msearch([(plan.index, body, inline),
                                          (plan.index, bodies.resized(plan.across[1], body.get("size", 0)), inline)])
            alone = dataclasses.replace(plan, routed=plan.across_docs) if plan.across_docs else plan
            return language_places(self.ranked(plan, answers[0]), self.ranked(alone, answers[1]),
                                   cross_language_places(plan.request), plan.request.k, plan.across_after,
                                   plan.across[0])
        name = self.pipelines.ensure(*plan.pipeline) if plan.pipeline else None
        return self.ranked(plan, self.store.search(plan.index, body, pipeline=name))

    def ranked(self, plan: SearchPlan, result: dict) -> list[tuple[dict, float]]:
        """(source, fused score) in ranked order from the answer to the plan's body."""
        ranked = [(h["_source"], h["_score"]) for h in result["hits"]["hits"]]
        ranked = apply_recitals_prior(ranked, plan.recitals)
        if plan.open_places:  # the order of the open places is the fused one, so the current prior comes first
            return apply_open_places(apply_current_prior(ranked, plan.current), plan.routed, plan.prior,
                                     plan.open_places, plan.request.k)
        return apply_current_prior(apply_routing_prior(ranked, plan.routed, plan.prior), plan.current)

    def run_counting(self, plan: SearchPlan, limit: int, deeper: bool = False
                     ) -> tuple[list[tuple[dict, float]], Deeper | None, int]:
        """`run`, and in the same round trip how many chunks the plan's filters let through (counted
        up to `limit`): no list of the plan can hold more; with `deeper`, also the plan's search
        ranked `limit` deep (None in its place otherwise): its first half (or the plan's own size,
        if larger), which is all the clause rescorer and the response read of it, and how many hits
        the whole list holds (`Deeper`). Only where a chunk of that half is not in force today (the
        current prior moves it down, so a later one may come up) is the whole list asked for."""
        inline = plan.pipeline[1] if plan.pipeline else None  # the pipeline's body, given inline
        batch = [(plan.index, plan.body, inline), (plan.index, bodies.count_body(plan.filters, limit), None)]
        answers = self.store.msearch(batch + ([self.deep_request(plan, limit)] if deeper else []))
        deep = self.deeper_of(plan, answers[2], limit) if deeper else None
        return self.ranked(plan, answers[0]), deep, int(answers[1]["hits"]["total"]["value"])

    def run_deeper(self, plan: SearchPlan, limit: int) -> tuple[Deeper, int]:
        """`run_counting`'s deeper list and count without the plan's own list: for a document known to
        hold at least `limit` chunks, where the deeper list is the one read unless the caller's filters
        leave fewer."""
        answers = self.store.msearch([(plan.index, bodies.count_body(plan.filters, limit), None),
                                      self.deep_request(plan, limit)])
        return self.deeper_of(plan, answers[1], limit), int(answers[0]["hits"]["total"]["value"])

    @staticmethod
    def deep_page_size(plan: SearchPlan, limit: int) -> int:
        """What a search reads of a list `limit` deep: its first half, or the plan's own size if larger."""
        return max(limit // 2, plan.body.get("size", 0))

    def deep_request(self, plan: SearchPlan, limit: int) -> tuple[str, dict, dict | None]:
        """The plan's search ranked `limit` deep, its first `deep_page_size` hits returned (`bodies.deep_page`)."""
        inline = plan.pipeline[1] if plan.pipeline else None
        return plan.index, bodies.deep_page(plan.body, limit, self.deep_page_size(plan, limit)), inline

    def deeper_of(self, plan: SearchPlan, answer: dict, limit: int) -> Deeper:
        """The `Deeper` of the answer to `deep_request`; the whole list asked for where one of its
        chunks is not in force today (`run_counting`)."""
        held = min(limit, int(answer["hits"]["total"]["value"]))
        if plan.current and any(not_in_force(h["_source"], plan.current[0]) for h in answer["hits"]["hits"]):
            inline = plan.pipeline[1] if plan.pipeline else None
            answer = self.store.msearch([(plan.index, bodies.resized(plan.body, limit), inline)])[0]
        return Deeper(self.ranked(plan, answer)[:self.deep_page_size(plan, limit)], held)

    def first_stage(self, plan: SearchPlan, timings: dict[str, float]) -> Deeper:
        """The fused list of the plan (`run`) and how many hits its search holds, and under `rerank: auto` the same search twice as
        deep when the list lies in one document (`deepens`); the deeper list is kept only when it
        is full, i.e. the document is long enough for the clause rescorer (`auto_rerank`). Where
        routing searched one document only, the deeper search and a count of that document's
        chunks go in the same round trip as the first search (`timings_ms` then has no
        `search_deeper`), and the deeper list is used only when the document holds at least as
        many chunks: the same lists as one search after the other (the deeper list's first half,
        `run_counting`)."""
        req = plan.request
        cites = any(not r.external for r in plan.refs)
        deeper_size = 2 * req.rerank.depth
        t = time.perf_counter()
        if counts_first(req, plan, cites):
            length = self._registry.get(plan.docs_index, ("chunks", plan.routed[0]))
            if isinstance(length, int) and length >= deeper_size:  # long: the deeper list and the count alone
                deeper, visible = self.run_deeper(plan, deeper_size)
                if visible >= deeper_size and deeper.held >= deeper_size \
                        and auto_rerank(req, [source for source, _ in deeper.hits], cites, deeper.held)[0] != "off":
                    timings["search"] = _ms(t)
                    return deeper
            if isinstance(length, int):  # short, or fewer under the caller's filters: the first list alone
                fused = self.run(plan)
                timings["search"] = _ms(t)
                return Deeper(fused, len(fused))
            fused, deeper, visible = self.run_counting(plan, deeper_size, deeper=True)
            timings["search"] = _ms(t)
            if visible >= deeper_size and deepens(req, fused, plan.body.get("size", 0), cites) \
                    and auto_rerank(req, [source for source, _ in deeper.hits], cites, deeper.held)[0] != "off":
                return deeper
            return Deeper(fused, len(fused))
        fused = self.run(plan)
        timings["search"] = _ms(t)
        if deepens(req, fused, plan.body.get("size", 0), cites):
            t = time.perf_counter()
            deeper = self.run(plan, bodies.resized(plan.body, deeper_size))
            timings["search_deeper"] = _ms(t)
            if auto_rerank(req, [source for source, _ in deeper], cites)[0] != "off":
                return Deeper(deeper, len(deeper))  # else the document is short: the first list stands, unchanged
        return Deeper(fused, len(fused))

    def second_stage(self, req: SearchRequest, plan: SearchPlan, fused: list[tuple[dict, float]],
                     timings: dict[str, float], warnings: list[str] | None = None, held: int | None = None
                     ) -> tuple[list[dict], dict[str, float], str | None]:
        """The fused list after the request's reranker (if any): the sources in their final order,
        the reranker's score by chunk_id, and why nothing is left when the threshold dropped all.
        The reranker reads what was searched inside a named document (`plan.focused`) when the
        plan focused the question, else the question. The first stage's order is kept, with a note
        in `warnings`, when the question cites a section or clause of ours (its identifier list
        found the cited text; a reranker reading meaning only would move it down), and for the
        clause rescorers when the shortlist spans several documents: the clause alone says nothing
        of which document it is in (across documents they prefer a look-alike's clause), so they only
        choose between the clauses of one document."""
        depth = req.rerank.depth
        cited = [f"{r.kind} {r.label}" for r in plan.refs if not r.external]
        sources = [source for source, _ in fused]
        method, weight = auto_rerank(req, sources, bool(cited), held)
        if method == "off" or not sources:
            return sources, {}, None
        why_not = f"the question cites {', '.join(cited)}" if cited else None
        if why_not is None and "clause" in method and len({s["doc_id"] for s in sources[:depth]}) > 1:
            why_not = "the shortlist spans several documents (the clause rescorers read no document summary)"
        if why_not:
            if warnings is not None:
                warnings.append(f"{why_not}: the reranker left the first-stage order")
            return sources, {}, None
        reranker = self.rerankers.get(method, req.rerank.model or self.settings.rerank_model, plan.meta)
        question, shortlist = plan.focused or req.query, sources[:depth]
        share = lexical_share(req, question, shortlist)
        t = time.perf_counter()
        lexical = self._beside.submit(self.lexical_scores, plan, question, shortlist) if share else None
        # the question as the search embedded it (plan.focused or the question): the clause rescorer
        # runs the index's own embedder on the same text, so it reads that vector instead
        known = (self.embedders.for_query(plan.meta), question, plan.vector) if plan.vector is not None else None
        ranked, _ = rerank(reranker, question, shortlist, [score for _, score in fused[:depth]], weight,
                           req.rerank.neighbours, lexical.result() if lexical else None, share, known)
        timings["rerank"] = _ms(t)
        sources = [s for s, _ in ranked] + sources[depth:]
        scores = {s["chunk_id"]: sc for s, sc in ranked}
        reason = None
        if req.rerank.threshold is not None:
            sources = [s for s in sources if scores.get(s["chunk_id"], float("-inf")) >= req.rerank.threshold]
            if not sources:
                reason = f"all candidates scored below the rerank threshold {req.rerank.threshold}"
        return sources, scores, reason

    def lexical_scores(self, plan: SearchPlan, question: str, sources: list[dict]) -> list[float]:
        """The BM25 of `question` over each source's own text (`bodies.lexical_body`), 0 for a
        source it does not match: the second stage's lexical share."""
        ids = [source["chunk_id"] for source in sources]
        answer = self.store.search(plan.index, bodies.lexical_body(question, ids, sources[0].get("language")))
        scores = {hit["_id"]: hit["_score"] for hit in answer["hits"]["hits"]}
        return [float(scores.get(cid, 0.0)) for cid in ids]

    def warm_rerank(self, index: str, name: str, progress: bool = False, batch: int = 64) -> dict[str, float]:
        """Embed every chunk of `index` for the bi-encoder reranker `name` (e5, clause, e5+clause)
        into the embedding cache, so that the first question on a long contract does not wait for
        its clauses to be embedded. Idempotent: cached texts are not embedded again. The chunks
        are read `batch` at a time (a large index is never held in memory)."""
        if name not in BI_ENCODER_RERANKERS:
            raise ConfigError(f"only the bi-encoder rerankers ({', '.join(BI_ENCODER_RERANKERS)}) can be warmed, "
                              f"not {name!r}")
        reranker = self.rerankers.get(name, None, self.index_meta(index))
        start = time.perf_counter()
        fields = ["chunk_id", "doc_id", "summary", "heading_path", "text"]
        done = 0
        from tqdm import tqdm

        with tqdm(total=self.store.count(index), desc=f"warming {name}", unit="chunk", file=sys.stderr,
                  disable=not progress) as bar:
            for page in self.store.stream(index, {"match_all": {}}, batch, fields):
                reranker.warm([h["_source"] for h in page])
                done += len(page)
                bar.update(len(page))
        return {"chunks": done, "seconds": round(time.perf_counter() - start, 2)}

    def warm_terms(self, index: str, progress: bool = False, batch: int = 500) -> dict[str, float]:
        """Analyse the passage and document texts of every chunk of `index` (its walls included)
        for relevance, into the terms kept on disk (legalsearch.index.terms), as an ingest does for
        what it writes: for an index ingested before that, so that the first search of a process
        on a long cited article does not wait for the node to analyse it. Idempotent: known texts
        are not asked again. The chunks are read `batch` at a time."""
        chunks = self.target(index)[0]
        uuid = relevance.TERMS.uuid(chunks) or indices.uuid_of(self.store, chunks)
        start = time.perf_counter()
        done = asked = 0
        from tqdm import tqdm

        everything = indices.all_live(self.store, index)
        with tqdm(total=self.store.count(everything), desc="analysing passage terms", unit="chunk", file=sys.stderr,
                  disable=not progress) as bar:
            for page in self.store.stream(everything, {"match_all": {}}, batch,
                                          ["heading_path", "section_title", "text", "doc_title", "summary"]):
                asked += terms_warm(self.store, chunks, uuid, [h["_source"] for h in page], relevance.TERMS)
                done += len(page)
                bar.update(len(page))
        return {"chunks": done, "texts_analysed": asked, "seconds": round(time.perf_counter() - start, 2)}

    def search(self, req: SearchRequest, write_log: bool | None = None) -> SearchResponse:
        t_start = time.perf_counter()
        plan = self.plan(req)
        timings = dict(plan.timings)
        # relevance's statistics of the question, asked while the first stage runs
        public = relevance.statistics_index(plan.index)
        stats = self._beside.submit(relevance.question_statistics, self.store, public, plan.focused or req.query)
        fused, held = self.first_stage(plan, timings)
        notes: list[str] = []
        sources, scores, reason = self.second_stage(req, plan, fused, timings, notes, held)
        sources = sources[: req.k]
        # and the hits' terms while the expansion is fetched (the clauses it adds are read after it)
        warming = self._beside.submit(relevance.passage_terms, self.store, public, relevance.passage_texts(sources)) \
            if sources else None
        if not sources and reason is None:
            reason = "no passage matched the query under the given filters (validity date, jurisdiction, access)"

        t = time.perf_counter()
        expansion, cos, in_force = self.expand(req, plan, sources)
        if req.expansion.xrefs or req.expansion.definitions:
            timings["expand"] = _ms(t)

        fused_scores = {src["chunk_id"]: score for src, score in fused}
        hits = [_hit(rank, src, via, fused_scores, scores, in_force)
                for rank, (src, via) in enumerate(expansion.ordered, start=1)]
        if req.highlight and hits:
            t = time.perf_counter()
            hits = self.highlight(plan, [src for src, _ in expansion.ordered], hits)
            timings["highlight"] = _ms(t)
        if req.filters.as_of is None:
            notes += old_text_note(hits, today())
        hits, abstained = self.with_relevance(req, plan, hits, [src for src, _ in expansion.ordered], timings, notes,
                                              cos, (stats, warming))
        timings["total"] = _ms(t_start)
        response = SearchResponse(
            query=req.query, hits=hits, not_found=not hits or abstained is not None,
            not_found_reason=(reason if not hits else abstained),
            identifiers=[f"{r.kind} {r.label}" + (" (external)" if r.external else "") for r in plan.refs],
            routed_docs=list(plan.routed), unfollowed_refs=expansion.unfollowed,
            mixed_versions=_mixed_versions(hits), timings_ms=timings, mode=req.mode, warnings=[*plan.warnings, *notes],
            pipeline=plan.pipeline[0] if plan.pipeline else None,
            rerank=ran_reranker(req, scores),
        )
        if self.settings.log_searches if write_log is None else write_log:
            try:
                self.retrieval_log.write(req, response, user=plan.user, groups=plan.filters.groups)
            except LegalSearchError as e:  # the log must never fail a search
                log.warning("retrieval log not written: %s", e)
        return response

    def expand(self, req: SearchRequest, plan: SearchPlan, sources: list[dict]
               ) -> tuple[expand.Expansion, dict | None, set[str]]:
        """The cross-reference expansion of `sources` (search.query.expand) and, in the same round
        trip, the answer to relevance's cosine query (`relevance.cosine_body`) over them and every
        chunk expansion may add (those it fetches are among them); None when the plan has no vector
        (relevance then embeds the question itself); and the amendments of the hits in force for
        the caller (`in_force`). A refused expansion fails the search; a refused cosine query only
        leaves relevance out (`relevance_of`)."""
        wanted = expand.targets(sources, req.expansion.xrefs, req.expansion.definitions, req.expansion.limit)
        ids = sorted({cid for cids in wanted.values() for cid in cids})
        scored = list(dict.fromkeys([s["chunk_id"] for s in sources] + ids))
        amending = amending_ids(sources)
        asked = {  # what this round trip asks, by name: each one only where there is something to ask
            "fetch": (plan.index, bodies.ids_query(ids, plan.filters, bodies.EXPANSION_EXCLUDES), None) if ids else None,
            "cos": (plan.index, relevance.cosine_body(plan.vector, scored), None)
            if plan.vector is not None and scored else None,
            "in_force": (plan.index, bodies.in_force_query(amending, plan.filters), None) if amending else None,
        }
        names = [name for name, request in asked.items() if request is not None]
        answers = dict(zip(names, self.store.msearch([asked[n] for n in names], refused="return"), strict=True))
        for name in ("fetch", "in_force"):  # a refused cosine query only leaves relevance out
            if name in answers and "error" in answers[name]:
                raise msearch_error(plan.index, answers[name])
        cos = answers.get("cos")
        expansion = expand.expanded(sources, wanted, answers.get("fetch"), xrefs=req.expansion.xrefs,
                                    placement=req.expansion.placement)
        in_force = {hit["_id"] for hit in answers["in_force"]["hits"]["hits"]} if amending else set()
        expansion, cos, later = self.amendments_of_added(req, plan, expansion, cos, set(amending))
        return expansion, cos, in_force | later

    def amendments_of_added(self, req: SearchRequest, plan: SearchPlan, expansion: expand.Expansion,
                            cos: dict | None, asked: set[str]) -> tuple[expand.Expansion, dict | None, set[str]]:
        """A clause the expansion added may be amended too ("clause 14.4 is subject to clause 14.3",
        and an amendment raised the cap of 14.3): its amendments that the caller may open and that
        are in force on the matter date, not `asked` yet, fetched in one more round trip with their
        cosines, and, with cross-references expanded, placed after it (via "amended_by:<its
        chunk_id>"). The expansion, the cosine answer with theirs in it, and the ids of those in force
        for the caller (`bodies.in_force_query`: a filter on documents narrows what is shown, not what
        amends a clause). No request
        where nothing added is amended (an index without amendments never asks); an amendment already in
        the list was read under the search's filters, so it is in force."""
        added = [source for source, via in expansion.ordered if via != "retrieval"]
        present = {source["chunk_id"] for source, _ in expansion.ordered}  # read under the filters: in force
        theirs = amending_ids(added)
        shown = {cid for cid in theirs if cid in present}
        rest = [cid for cid in theirs if cid not in asked and cid not in present]
        if not rest:
            return expansion, cos, shown
        batch = [(plan.index, bodies.ids_query(rest, plan.filters, bodies.EXPANSION_EXCLUDES), None),
                 (plan.index, bodies.in_force_query(rest, plan.filters), None)]
        if cos is not None and "error" not in cos:
            batch.append((plan.index, relevance.cosine_body(plan.vector, rest), None))
        answers = self.store.msearch(batch, refused="return")
        for answer in answers[:2]:
            if "error" in answer:
                raise msearch_error(plan.index, answer)
        # fetched under the search's filters (shown), named where in force (the hit's amended_by)
        fetched = {hit["_source"]["chunk_id"]: hit["_source"] for hit in answers[0]["hits"]["hits"]}
        shown |= {hit["_id"] for hit in answers[1]["hits"]["hits"]}
        if len(answers) > 2 and "error" not in answers[2]:
            cos = {**cos, "hits": {**cos["hits"], "hits": [*cos["hits"]["hits"], *answers[2]["hits"]["hits"]]}}
        if not req.expansion.xrefs:
            return expansion, cos, shown
        ordered, placed = list(expansion.ordered), set(present)
        for source in added:
            follow = [(fetched[cid], f"amended_by:{source['chunk_id']}") for cid in expand.amending_chunk_ids(source)
                      if cid in fetched and cid not in placed]
            placed |= {s["chunk_id"] for s, _ in follow}
            if req.expansion.placement == "inline":
                at = next(i for i, (s, _) in enumerate(ordered) if s["chunk_id"] == source["chunk_id"]) + 1
                ordered[at:at] = follow
            else:
                ordered += follow
        return dataclasses.replace(expansion, ordered=ordered), cos, shown

    def highlight(self, plan: SearchPlan, sources: list[dict], hits: list[Hit]) -> list[Hit]:
        """`hits` with the offsets of their words that matched the question (legalsearch.query.highlight),
        read from the indices the search read."""
        query = highlighting.highlight_query(plan.kinds, plan.body, plan.request.query)
        found = highlighting.highlights(self.store, plan.index, sources, query, function_words())
        return [h.model_copy(update={"highlights": found.get(h.chunk_id, [])}) for h in hits]

    # ----------------------------------------------------------------- relevance

    def relevance_of(self, req: SearchRequest, plan: SearchPlan, sources: list[dict], timings: dict[str, float],
                     warnings: list[str], cos: dict | None = None, asked: tuple[Future, Future | None] | None = None
                     ) -> tuple[list[float | None], list[dict[str, float]]]:
        """The calibrated relevance of each source (search.query.relevance) and its features; None
        each, with a warning, when it cannot be computed (no calibration for the index's embedder,
        the term statistics refused): a search never fails for it. The question is what was
        searched (`plan.focused` inside a named document), embedded here when the plan has no vector
        (bm25 mode, engine-side embedding). `cos`: the answer to the cosine query over these
        sources (or more) when it was asked with the expansion (`expand`); `asked`: the question's
        statistics and the hits' terms (`relevance.question_statistics`, `passage_terms`) asked
        beside the search (`search`)."""
        if not sources:
            return [], []
        t = time.perf_counter()
        question = plan.focused or req.query
        try:
            calibration = relevance.load_calibration(str(plan.meta.get("embedder") or ""))
            vector = plan.vector
            if vector is None:
                embedder = self.embedders.for_query(plan.meta)
                check_window(embedder, question)
                vector = embedder.embed_query(question).tolist()
            if cos is not None and "error" in cos:
                raise msearch_error(plan.index, cos)
            stats = None
            if asked is not None:
                if asked[1] is not None:
                    wait([asked[1]])  # the hits' terms are in the cache (a failure is met again below)
                stats = asked[0].result()
            features = relevance.features(self.store, plan.index, question, vector, sources, plan.refs,
                                          None if cos is None else relevance.cosines_of(cos), stats)
        except LegalSearchError as e:
            warnings.append(f"no relevance computed (abstention off for this search): {e}")
            return [None] * len(sources), [{} for _ in sources]
        timings["relevance"] = _ms(t)
        return [round(calibration.probability(f), 4) for f in features], features

    def with_relevance(self, req: SearchRequest, plan: SearchPlan, hits: list[Hit], sources: list[dict],
                       timings: dict[str, float], warnings: list[str], cos: dict | None = None,
                       asked: tuple[Future, Future | None] | None = None) -> tuple[list[Hit], str | None]:
        """The hits (built from `sources`, in order) with their relevance, and the not_found reason
        when no retrieved hit reaches the request's `abstain` threshold (None otherwise; the order
        and the hits are unchanged)."""
        scores, features = self.relevance_of(req, plan, sources, timings, warnings, cos, asked)
        hits = [h.model_copy(update={"relevance": r, "relevance_features": f}) for h, r, f in zip(hits, scores, features,
                                                                                                 strict=True)]
        abstain, best = relevance.abstains([h.relevance for h in hits if h.via == "retrieval"], req.abstain)
        return hits, relevance.not_found_reason(best, req.abstain) if abstain else None

    def context_sources(self, req: SearchRequest, budget: int, *, attach: bool = True
                        ) -> tuple[SearchPlan, list[dict], dict[str, dict], dict[str, float]]:
        """What a context of `budget` characters is built from: the plan, the ranked chunk sources
        (enough to fill the budget with ~150-character chunks) and the cited / defining chunks
        they lean on (the amendments of a cited clause included), fetched under the plan's filters;
        plus timings."""
        k = max(req.k, min(200, budget // 150 + 1))
        plan = self.plan(req.replace(k=k, expand_xrefs=False))
        timings = dict(plan.timings)
        fused, held = self.first_stage(plan, timings)
        hits = self.second_stage(req, plan, fused, timings, held=held)[0][:k]
        fetched: dict[str, dict] = {}
        if attach and hits:
            t = time.perf_counter()
            ids = ctx.wanted_ids(req.query, hits)
            if ids:
                result = self.store.search(plan.index, bodies.ids_query(ids, plan.filters))
                fetched = {h["_source"]["chunk_id"]: h["_source"] for h in result["hits"]["hits"]}
            # a cited clause in its old wording: the amendments in force that changed it (no request
            # where no attached clause is amended)
            if more := ctx.amendments_of_attached(hits, fetched):
                result = self.store.search(plan.index, bodies.ids_query(more, plan.filters))
                fetched |= {h["_source"]["chunk_id"]: h["_source"] for h in result["hits"]["hits"]}
            timings["attach"] = _ms(t)
        return plan, hits, fetched, timings

    def context(self, req: SearchRequest, budget: int = ctx.DEFAULT_BUDGET, *, attach: bool = True,
                attach_share: float = ctx.DEFAULT_ATTACH_SHARE) -> ctx.ContextResponse:
        """The passages for an LLM prompt within `budget` characters (see `search.query.context`):
        one search under the request's filters, then the referenced clauses and definitions of
        the passages taken, fetched under the same filters (access and validity included)."""
        t_start = time.perf_counter()
        plan, hits, fetched, timings = self.context_sources(req, budget, attach=attach)
        # abstention as `search` decides it: on the relevance of the first k hits
        warnings: list[str] = []
        abstain, best = relevance.abstains(self.relevance_of(req, plan, hits[:req.k], timings, warnings)[0], req.abstain)
        for warning in warnings:
            log.warning(warning)
        pieces = [] if abstain else ctx.build(req.query, hits, budget, fetched, attach_share)
        timings["total"] = _ms(t_start)
        used = sum(part.char_end - part.char_start for p in pieces for part in p.parts)
        reason = None if pieces else relevance.not_found_reason(best, req.abstain) if abstain else \
            "no passage matched the query under the given filters (validity date, jurisdiction, access)"
        return ctx.ContextResponse(query=req.query, budget=budget, used_chars=used, pieces=pieces,
                                   prompt=ctx.render(pieces), not_found=not pieces, not_found_reason=reason,
                                   routed_docs=list(plan.routed), timings_ms=timings)


def engine_model(meta: dict, req: SearchRequest) -> str | None:
    """The remote query model of the index when the request asks the engine to embed."""
    if req.embedding != "engine":
        return None
    model_id = (meta.get("engine") or {}).get("query_model_id")
    if not model_id:
        raise ConfigError(f"index {req.index!r} has no engine-side embedding model yet: install it with "
                          f"`legalsearch pipelines install --index {req.index}` (or search with --embedding python)")
    return model_id


def check_window(embedder, query: str) -> None:
    """A question longer than the model's window is refused, as the embedding server refuses it:
    embedding only its first part would search for something else."""
    if getattr(embedder, "served", False):  # the server counts and refuses alike (search.embedserver.client)
        return
    tokens = embedder.count_tokens(query)
    if tokens > embedder.max_tokens:
        raise QueryError(f"the question has {tokens} tokens; the {embedder.name} model reads at most "
                         f"{embedder.max_tokens}: shorten it")


def glossary_words(question: str, language: str, forms: int | None = None, extra=None) -> tuple[str, ...]:
    """The `language` words of the glossary terms of `question` (`glossary.translated`; `extra`:
    `Settings.glossary`), without stop words: what BM25 reads besides the question's own; () when
    the glossary holds none."""
    added = glossary.translated(question, detect_language(question), language, forms=forms, extra=extra)
    return tuple(bodies.without_stop_words(" ".join(added)).split()) if added else ()


def today() -> str:
    """The day (ISO) whose text in force a search with no `as_of` prefers."""
    return date.today().isoformat()


def old_text_note(hits: list[Hit], today: str) -> list[str]:
    """A note when a search with no date returns text not in force today (another version)."""
    def period(h: Hit) -> str:
        ended = h.valid_to is not None and str(h.valid_to) <= today
        return f"in force until {h.valid_to}" if ended else f"in force from {h.valid_from}"

    other = sorted({f"{h.doc_id} {h.version} ({period(h)})" for h in hits
                    if not_in_force({"valid_to": h.valid_to, "valid_from": h.valid_from}, today)})
    if not other:
        return []
    return [f"some hits are text not in force on {today}: {', '.join(other)}; they were ranked below the text in "
            "force (--as-of DATE searches the text in force on that day)"]


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def ran_reranker(req: SearchRequest, scores: dict) -> str | None:
    """The reranker a response reports: the one asked for, or under `auto` the clause rescorer when
    it ran (it scored the shortlist), else none."""
    if req.rerank.method == "auto":
        return AUTO_RERANK if scores else None
    return None if req.rerank.method == "off" else req.rerank.method


def deepens(req: SearchRequest, fused: list[tuple[dict, float]], size: int, cites: bool) -> bool:
    """Under `rerank: auto`, whether the fused list is searched again with twice the depth: when
    the question cites nothing and the list is full (`size` hits: the document may hold more) and
    every hit is of one document. Any other list is final as it is, at no extra cost."""
    shorter = size < 2 * req.rerank.depth
    return (req.rerank.method == "auto" and not cites and shorter and len(fused) >= size > 0
            and _one_document([source for source, _ in fused]))


def names_decide(req: SearchRequest, routing: str) -> bool:
    """Whether the documents a question names alone decide where it is searched, so that `named`
    can run before the question is embedded: names "only", focus_named on, and routing that
    filters (or "auto" left off for a cited section, where a name still restricts it)."""
    if req.routing.names != "only" or not req.routing.focus_named:
        return False
    return routing == "filter" or cited_but_named(req, routing)


def cited_but_named(req: SearchRequest, routing: str) -> bool:
    """Whether a question "auto" routing left unrouted (it cites a section) is still restricted
    to the documents it names, by a word written like a name (`SearchService.plan`)."""
    return routing == "off" and req.routing.mode == "auto" and req.routing.names != "off" \
        and written_like_names(req.query)


def focus_alone(req: SearchRequest, words: list[str], named: list[str]) -> bool:
    """Whether the question's own embedding is never read: it names one document, is searched
    there as focused (a different text, embedded instead), and asks about no kind of document
    (which routing would weigh with the question's vector)."""
    if len(named) != 1 or focus_question(req.query, words) == req.query:
        return False
    return not (req.experimental.subject_kinds and question_kinds(req.query))


def counts_first(req: SearchRequest, plan: SearchPlan, cites: bool) -> bool:
    """Whether the first search counts the chunks it may reach (`SearchService.run_counting`):
    under `rerank: auto`, when routing filtered the search to one document and nothing else
    decides that `deepens` is out (a cited section, a list already as deep)."""
    return (req.rerank.method == "auto" and not cites and plan.routing == "filter" and len(plan.routed) == 1
            and not plan.open_places and plan.body.get("size", 0) < 2 * req.rerank.depth)


def _one_document(sources: list[dict]) -> bool:
    return len({source["doc_id"] for source in sources}) == 1


def auto_rerank(req: SearchRequest, sources: list[dict], cites: bool, held: int | None = None) -> tuple[str, float]:
    """The second stage a request runs over its fused list (`sources`, ranked): (method, weight).
    An explicit method runs as asked. `auto` runs the clause rescorer (blended `AUTO_RERANK_WEIGHT`,
    with `AUTO_RERANK_LEXICAL` of a BM25 over the clauses' own text where `lexical_share` allows)
    only when the fused list holds twice the depth (`deepens` searched it again) and lies in one
    document, and the question cites nothing: a long statute or contract, where hundreds of sibling
    articles carry the same document summary in their vectors and the clause alone tells them
    apart. A short document, or a list over several documents (the clause says nothing of which
    document it is in), keeps the fused order (docs/results.md, "The clause rescorer inside one
    long document"). `held`: how many hits the search of `sources` holds, where the list is its
    first part only (`SearchService.run_counting`; default: the list's length)."""
    if req.rerank.method != "auto":
        return req.rerank.method, req.rerank.weight
    full = (len(sources) if held is None else held) >= 2 * req.rerank.depth
    if cites or not full or not _one_document(sources):
        return "off", req.rerank.weight
    return AUTO_RERANK, AUTO_RERANK_WEIGHT


def lexical_share(req: SearchRequest, question: str, shortlist: list[dict]) -> float:
    """The share of the second stage's order that goes to a BM25 over the chunks' own text:
    `AUTO_RERANK_LEXICAL` under `rerank: auto`, else `rerank_lexical`; 0 when the shortlist's
    documents are not all in the question's language (a BM25 across languages matches names and
    numbers only, and min-max would magnify that noise)."""
    share = AUTO_RERANK_LEXICAL if req.rerank.method == "auto" else req.rerank.lexical
    if not share or not shortlist:
        return 0.0
    languages = {source.get("language") for source in shortlist}
    return share if len(languages) == 1 and detect_language(question) in languages else 0.0


def amending_ids(sources: list[dict]) -> list[str]:
    """The amendment chunks that change any of `sources` (`expand.amending_chunk_ids`), once each."""
    return list(dict.fromkeys(cid for source in sources for cid in expand.amending_chunk_ids(source)))


def _hit(rank: int, source: dict, via: str, fused: dict[str, float], reranked: dict[str, float],
         in_force: frozenset[str] | set[str] = frozenset()) -> Hit:
    """A hit with its fused and reranker scores (by chunk_id); an expansion passage was not
    retrieved and has neither. `score` is the reranker's when one ran over the response (one scale
    per response), else the fused score. `amended_by` lists the amendments in `in_force` only (the
    caller may open them and they are in force on the matter date)."""
    retrieved = via == "retrieval"
    fused_score = fused.get(source["chunk_id"]) if retrieved else None
    rerank_score = reranked.get(source["chunk_id"]) if retrieved else None
    return Hit(
        rank=rank, chunk_id=source["chunk_id"], doc_id=source["doc_id"], doc_title=source.get("doc_title") or "",
        version=source.get("version") or "", valid_from=source.get("valid_from"), valid_to=source.get("valid_to"),
        jurisdiction=source.get("jurisdiction"), section=source.get("section"),
        heading_path=source.get("heading_path") or [], page=source.get("page"), source_path=source.get("source_path"),
        char_start=source["char_start"], char_end=source["char_end"], text=source["text"],
        citation=cite.cite(source), via=via, language=source.get("language"), doc_type=source.get("doc_type"),
        clause_labels=source.get("clause_labels") or [], amended_by=[c for c in expand.amending_chunk_ids(source) if c in in_force],
        score=rerank_score if reranked else fused_score,
        fused_score=fused_score, rerank_score=rerank_score, language_place=source.get(LANGUAGE_PLACE) if retrieved else None,
    )


def _mixed_versions(hits: list[Hit]) -> list[str]:
    versions: dict[str, set[str]] = {}
    for h in hits:
        versions.setdefault(h.doc_id, set()).add(h.version)
    return sorted(d for d, v in versions.items() if len(v) > 1)
