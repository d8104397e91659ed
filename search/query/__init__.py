"""The query side: a `SearchRequest` is planned once (`plan`: identifiers, filters, the query
vector, document routing, the request body), fused inside OpenSearch (`bodies`, `fusion`),
optionally reranked (`rerank`), expanded along cross-references (`expand`), cited (`cite`) and
logged (`log`); `service.SearchService` runs the flow and `explain` reuses its plan."""
