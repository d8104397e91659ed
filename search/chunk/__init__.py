"""Stage 3, chunk: a `ParsedDocument` -> `Chunk`s with exact offsets, heading paths and sections.

- `chunker`: "structural" (one article / section / clause per chunk, split at sub-units when
  too long) and "recursive" (the papers' fixed-size baseline);
- `recursive`: LangChain's recursive character splitter semantics;
- `enrich`: cross-references resolved to chunk ids, defined terms, clause labels.
"""

from legalsearch.chunk.chunker import CHUNKERS, Chunker, chunk_document
from legalsearch.chunk.enrich import enrich_chunks
from legalsearch.chunk.recursive import split_recursive

CHUNKS_VERSION = 7
"""Bumped when the same file comes out as other chunks (loading, parsing, chunking, enrichment):
part of the ingest settings key, so the next ingest run re-does every document of an index built
before the change instead of keeping its old chunks as "unchanged" (vectors and summaries come
from their caches). 2 (2026-12-07): judgments, PDF page edges and word breaks, Word and HTML list
numbers, addresses and running lines that were headings, unquoted definitions, amendments'
references to the agreement they amend. 7: a chunk that reads as a table of contents the parser
did not see as one is labelled `contents`."""

__all__ = ["CHUNKERS", "CHUNKS_VERSION", "Chunker", "chunk_document", "enrich_chunks", "split_recursive"]
