"""What an ingest run did, document by document (the CLI prints `IngestReport.summary()`)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class DocReport(BaseModel):
    """One document of a run: its file (or memory:<doc_id>), key, status and what was found."""

    path: str
    doc_key: str | None = None
    status: str = "pending"  # ingested | unchanged | failed | planned (dry run)
    chunks: int = 0
    over_window: int = 0
    flags: list[str] = []
    unresolved_refs: list[str] = []
    error: str | None = None
    # bulk items of this document the node did not write, each with its answer
    # ({"id", "index", "status", "type", "reason"}); the document is then rolled back whole
    refused: list[dict] = []


class IngestReport(BaseModel):
    """A whole run; `summary()` is what `legalsearch ingest --json` prints (plus `documents_detail`)."""

    index: str
    options: dict
    documents: list[DocReport] = []
    timings: dict[str, float] = Field(default_factory=lambda: {"parse": 0.0, "summarize": 0.0, "embed": 0.0,
                                                               "index": 0.0, "total": 0.0})
    # bulk items sent / written / failed for good (sent == written + failed) and the failed ones
    # by reason ("503 unavailable_shards_exception": n); requests, items rejected with 429 and
    # items retried, seconds of backoff; documents rolled back whole (`search.store.BulkStats`)
    bulk: dict = Field(default_factory=dict)
    warnings: list[str] = []
    # what the link pass found for each amendment of the index (`index.links`): the amended
    # document, the references resolved there, or why none was linked
    links: list[dict] = []

    def count(self, status: str) -> int:
        return sum(1 for d in self.documents if d.status == status)

    @property
    def chunks(self) -> int:
        return sum(d.chunks for d in self.documents if d.status in ("ingested", "planned"))

    @property
    def over_window(self) -> int:
        return sum(d.over_window for d in self.documents if d.status in ("ingested", "planned"))

    def summary(self) -> dict:
        chunks = self.chunks
        return {
            "index": self.index,
            "documents": len(self.documents),
            "ingested": self.count("ingested"),
            "planned": self.count("planned"),
            "unchanged": self.count("unchanged"),
            "failed": self.count("failed"),
            "chunks": chunks,
            "chunks_at_or_over_window": self.over_window,
            "share_at_or_over_window": round(self.over_window / chunks, 4) if chunks else 0.0,
            "timings_s": {k: round(v, 3) for k, v in self.timings.items()},
            "bulk": self.bulk,
            "warnings": self.warnings,
            "links": self.links,
            "options": self.options,
            "failures": [{"path": d.path, "error": d.error, **({"refused": d.refused} if d.refused else {})}
                         for d in self.documents if d.status == "failed"],
            "flags": {d.path: d.flags for d in self.documents if d.flags},
            "unresolved_refs": {d.path: d.unresolved_refs for d in self.documents if d.unresolved_refs},
        }

    def to_json(self) -> dict:
        """The summary plus every document's report (the CLI's `--json` output)."""
        return self.summary() | {"documents_detail": [d.model_dump() for d in self.documents]}
