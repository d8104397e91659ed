"""The records every stage passes on: `DocumentMeta`, `ParsedDocument` (text + structure tree),
`StructureNode`, `Chunk`, `CrossRef`, `Definition`, `Document` (a document handed over in memory,
`legalsearch.Document`), and the stage errors.

Pure data, no I/O. The stages that make and use them: `search.load` (files -> ParsedDocument),
`search.parse` (structure, references, definitions, labels), `search.chunk` (-> Chunk),
`search.summarize`, `search.embed`, `search.index` (-> OpenSearch documents).
"""
