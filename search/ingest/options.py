"""How an ingest run chunks, summarizes and embeds (`IngestOptions`), and the settings key that
makes re-runs idempotent: a document is re-done when its bytes or this key change."""

from __future__ import annotations

import hashlib
import json

from legalsearch.chunk import CHUNKS_VERSION, Chunker
from legalsearch.embed import EMBEDDERS
from legalsearch.embed.models import check_name
from legalsearch.errors import ConfigError
from legalsearch.index import records, schema
from legalsearch.summarize import SUMMARIZERS
from legalsearch.summarize.profile import PROFILE_VERSION
from pydantic import BaseModel, ConfigDict, Field, field_validator

# Characters per embedder token budget, and what the summary + heading take of the window.
CHARS_PER_TOKEN = 4
CONTEXT_RESERVE = 200


class IngestOptions(BaseModel):
    """One ingest run's settings (field names = the CLI's option names)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: str = "legalsearch"
    chunker: Chunker = "structural"
    chunk_size: int | None = Field(None, gt=0, description="recursive: 500; structural: from the embedder window")
    summarizer: str = "title-fingerprint"
    embedder: str = "auto"
    embed_parts: tuple[str, ...] = records.EMBED_PARTS
    public_if_no_acl: bool = False
    force: bool = False
    force_merge: int = Field(0, ge=0, description="after the run, merge the chunks index to N segments (0: no)")
    dry_run: bool = False
    warm_clauses: int = Field(100, ge=0, description="embed ahead, for the default second stage (`rerank: auto`), "
                              "the clause text of every document of at least this many chunks (0: none)")
    batch_chunks: int | None = Field(None, gt=0, description="chunks per embedding call (default: the device's, "
                                     "256 on the CPU, 1,024 on CUDA; an endpoint's batch x concurrency)")
    # Only when the run creates the index (not part of the settings key: they do not change chunks).
    shards: int | None = Field(None, ge=1, le=64, description="primary shards (default 1 at every corpus size: docs/results.md, 'Shards that agree at scale')")
    replicas: int | None = Field(None, ge=0, le=8, description="replicas (default: 0 on one node, 1 on a cluster)")

    @field_validator("summarizer")
    @classmethod
    def _summarizer(cls, value: str) -> str:
        if value.strip().lower() not in SUMMARIZERS:
            raise ValueError(f"unknown summarizer {value!r}; choose one of: {', '.join(SUMMARIZERS)}")
        return value.strip().lower()

    @field_validator("embedder")
    @classmethod
    def _embedder(cls, value: str) -> str:
        if value == "auto" or value in EMBEDDERS:
            return value
        try:  # a specification (st:DIR, onnx:DIR, openai:URL?model=..., ...): checked, kept canonical
            check_name(value)
        except ConfigError as e:
            raise ValueError(str(e)) from None
        from legalsearch.embed.spec import parse

        return parse(value).canonical

    def chunk_limit(self, max_tokens: int) -> int:
        if self.chunk_size:
            return self.chunk_size
        if self.chunker == "recursive":
            return 500
        return max(400, max_tokens * CHARS_PER_TOKEN - CONTEXT_RESERVE)

    def settings_key(self, summarizer_key: str, max_tokens: int, embedder_key: str | None = None) -> str:
        """`embedder_key`: the vector cache key of the build that embeds (default: the name)."""
        data = {
            "schema": schema.SCHEMA_VERSION, "chunker": self.chunker, "limit": self.chunk_limit(max_tokens),
            "summarizer": summarizer_key, "embedder": embedder_key or self.embedder, "parts": list(self.embed_parts),
            "public_if_no_acl": self.public_if_no_acl, "profile": PROFILE_VERSION, "chunks": CHUNKS_VERSION,
        }
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
