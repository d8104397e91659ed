"""Stage 3, chunk: a `ParsedDocument` -> `Chunk`s with exact offsets, heading paths and sections.

- `chunker`: "structural" (one article / section / clause per chunk, split at sub-units when
  too long) and "recursive" (the papers' fixed-size baseline);
- `recursive`: LangChain's recursive character splitter semantics;
- `enrich`: cross-references resolved to chunk ids, defined terms, clause labels.
"""

from legalsearch.chunk.chunker import CHUNKERS, Chunker, chunk_document
from legalsearch.chunk.enrich import enrich_chunks
from legalsearch.chunk.recursive import split_recursive

__all__ = ["CHUNKERS", "Chunker", "chunk_document", "enrich_chunks", "split_recursive"]
