"""Ingestion: documents (files or in memory) -> load -> chunk -> summarize -> embed -> index.

    report = ingest(file_sources([Path("samples/corpus")]), settings, IngestOptions(index="demo"),
                    store=store, embedders=embedders)
"""

from legalsearch.ingest.options import IngestOptions
from legalsearch.ingest.report import DocReport, IngestReport
from legalsearch.ingest.run import Source, file_sources, ingest, memory_sources

__all__ = ["DocReport", "IngestOptions", "IngestReport", "Source", "file_sources", "ingest", "memory_sources"]
