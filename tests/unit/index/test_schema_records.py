"""The OpenSearch JSON itself and the pure record builders (no node)."""

from __future__ import annotations

from legalsearch.chunk import chunk_document
from legalsearch.index import records, schema
from legalsearch.load import load_document

from tests.conftest import SAMPLES

DATA_MODEL = {
    "chunk_id", "doc_id", "doc_title", "doc_type", "language", "jurisdiction", "version", "valid_from",
    "valid_to", "parties", "signed_at", "origin", "doc_sha256", "source_path", "page", "heading_path", "section",
    "char_start", "char_end", "text", "summary", "embedded_text", "vector", "xrefs", "defined_terms",
    "clause_labels", "acl",
}


def test_analyzers_json_defines_the_legal_analyzers():
    analysis = schema.analysis_settings()
    assert {"legal_en", "legal_it", "legal_exact"} <= set(analysis["analyzer"])
    for name, analyzer in analysis["analyzer"].items():
        for f in analyzer.get("filter", []):
            assert f in analysis["filter"] or f in ("lowercase", "asciifolding"), (name, f)
        for c in analyzer.get("char_filter", []):
            assert c in analysis["char_filter"], (name, c)


def test_chunk_mapping_covers_the_data_model_and_uses_lucene_hnsw():
    body = schema.index_body("chunks", "contracts", 384, {"embedder": "minilm"})
    props = body["mappings"]["properties"]
    assert DATA_MODEL <= set(props)
    assert body["mappings"]["dynamic"] == "strict"
    vector = props["vector"]
    assert vector["dimension"] == 384 and vector["method"]["engine"] == "lucene"
    assert vector["method"]["space_type"] == "cosinesimil" and vector["method"]["name"] == "hnsw"
    assert body["aliases"] == {"contracts": {}}
    assert body["mappings"]["_meta"]["legalsearch"] == {
        "schema": 1, "kind": "chunks", "embedder": "minilm",
        "knn": {"engine": "lucene", "space": "cosinesimil", "m": 16, "ef_construction": 128,
                "ef_search": schema.KNN_EF_SEARCH, "filter": "efficient (in the graph walk; exact when selective)"}}
    used = {props[f]["analyzer"] for f in props if "analyzer" in props[f]}
    assert used <= set(body["settings"]["index"]["analysis"]["analyzer"])


def test_names_and_template():
    assert schema.concrete_name("contracts", "chunks") == "contracts--chunks-v1"
    assert schema.alias_name("contracts", "docs") == "contracts-docs"
    template = schema.template_body("docs", 384)
    assert template["index_patterns"] == ["*--docs-v1", "*--docs-v1-g*"] and "aliases" not in template["template"]


def test_generations_and_shard_settings():
    assert schema.concrete_name("contracts", "chunks", 1) == "contracts--chunks-v1"
    assert schema.concrete_name("contracts", "chunks", 3) == "contracts--chunks-v1-g3"
    assert schema.parse_concrete("contracts--chunks-v1-g3") == ("contracts", "chunks", 3)
    assert schema.parse_concrete("my--odd--name--docs-v1") == ("my--odd--name", "docs", 1)
    assert schema.parse_concrete("legalsearch-log") is None
    default = schema.index_body("chunks", "c", 384)["settings"]["index"]
    assert default["number_of_shards"] == 1 and default["auto_expand_replicas"] == "0-1"
    assert "number_of_replicas" not in default  # 0 on one node (green), 1 on a cluster
    fixed = schema.index_body("chunks", "c", 384, shards=3, replicas=2)["settings"]["index"]
    assert (fixed["number_of_shards"], fixed["number_of_replicas"], fixed["auto_expand_replicas"]) == (3, 2, "false")
    target = schema.index_body("docs", "c", 384, alias=False)
    assert "aliases" not in target  # a reindex target gets its alias only when it is complete


def test_chunk_source_has_every_field_and_the_exact_slice():
    doc = load_document(SAMPLES / "contratto-fornitura-acme.txt")
    chunks = chunk_document(doc)
    art5 = next(c for c in chunks if c.section == "5")
    embedded = records.embedded_text(art5, "Contratto di fornitura tra ACME e Fornitore")
    source = records.chunk_source(doc, art5, summary="S", embedded=embedded, vector=[0.0] * 3, token_count=300,
                                  max_tokens=256, chunker="structural", ingested_at="2026-01-01T00:00:00+00:00")
    assert DATA_MODEL <= set(source)
    assert doc.text[source["char_start"]:source["char_end"]] == source["text"]
    assert source["over_window"] is True  # 300 tokens >= a 256-token window
    assert any(cid for cid in source["xref_chunk_ids"])  # art. 5 points at art. 7
    assert embedded.splitlines()[0] == "Contratto di fornitura tra ACME e Fornitore"
    assert embedded.endswith(art5.text)


def test_embedded_text_parts_are_configurable():
    doc = load_document(SAMPLES / "nda-acme-globex.txt")
    chunk = chunk_document(doc)[1]
    assert records.embedded_text(chunk, "SUMMARY", ("text",)) == chunk.text
    assert records.embedded_text(chunk, "", ("summary", "text")) == chunk.text  # an empty summary adds nothing


def test_the_knn_record_is_todays_even_over_a_previous_generations():
    """A reindex passes the old index's `_meta`: the new generation records its own k-NN settings."""
    old = {"knn": {"engine": "lucene", "ef_search": 10}, "embedder": "minilm"}
    meta = schema.index_body("chunks", "contracts", 384, old)["mappings"]["_meta"]["legalsearch"]
    assert meta["knn"]["ef_search"] == schema.KNN_EF_SEARCH != 10 and meta["embedder"] == "minilm"
    assert "knn" in schema.index_body("docs", "contracts", 384)["mappings"]["_meta"]["legalsearch"]  # routing vectors
    assert "knn" not in schema.index_body("log", "contracts", 384)["mappings"]["_meta"]["legalsearch"]
