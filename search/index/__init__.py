"""Stage 6, index: index bodies from the JSON in mappings/ and analyzers/ (`schema`), index
administration (`indices`), the OpenSearch documents of chunks and documents (`records`) and
the writer that replaces a document's chunks atomically (`writer`)."""
