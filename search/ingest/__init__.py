"""Ingestion: documents (files or in memory) -> load -> chunk -> summarize -> embed -> index.

    report = ingest(file_sources([Path("samples/corpus")]), settings, IngestOptions(index="demo"),
                    store=store, embedders=embedders)
"""

from search.ingest.options import IngestOptions
from search.ingest.report import DocReport, IngestReport
from search.ingest.run import Source, file_sources, ingest, memory_sources

__all__ = ["DocReport", "IngestOptions", "IngestReport", "Source", "file_sources", "ingest", "memory_sources"]
