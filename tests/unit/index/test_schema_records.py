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
                "ef_search": schema.KNN_EF_SEARCH, "ef_search_rule": schema.KNN_EF_RULE,
                "filter": "efficient (in the graph walk; exact when selective)"}}
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


def test_the_knn_beam_width_follows_the_size_of_the_index():
    """100 up to 100,000 chunks (0.98 recall@10 measured there), 400 beyond (0.969 at 1M, where 100 gave 0.914)."""
    assert [schema.ef_search_for(n) for n in (0, 16_000, 100_000, 100_001, 1_000_000)] == [100, 100, 100, 400, 400]
    assert "100 up to 100,000 chunks, 400 beyond" in schema.KNN_EF_RULE


class _MetaStore:
    """The three calls `indices.tune_knn` makes, on one index held in memory."""

    def __init__(self, knn: dict | None, chunks: int, **meta):
        self.meta = {"embedder": "minilm", **meta, **({"knn": knn} if knn is not None else {})}
        self.chunks, self.puts = chunks, 0

    def get_index(self, name):
        return {name: {"mappings": {"_meta": {"legalsearch": dict(self.meta)}}}}

    def count(self, name):
        return self.chunks

    def put_mapping(self, name, body):
        self.meta, self.puts = body["_meta"]["legalsearch"], self.puts + 1


def test_tune_knn_sets_the_width_by_size_and_leaves_a_width_set_by_hand():
    from legalsearch.index import indices

    made = schema.knn_meta(schema.mapping_json("chunks")["mappings"]["properties"]["vector"])
    small = _MetaStore(dict(made), 20_000)
    assert indices.tune_knn(small, "x") is None and small.puts == 0  # already 100: nothing written
    big = _MetaStore(dict(made), 1_000_000, chunker="structural")
    assert indices.tune_knn(big, "x") == 400 and big.meta["knn"]["ef_search"] == 400
    assert big.meta["chunker"] == "structural" and big.meta["knn"]["engine"] == "lucene"  # the rest of _meta kept
    assert indices.tune_knn(big, "x") is None and big.puts == 1  # idempotent
    big.chunks = 50_000  # shrank (documents deleted): back to 100
    assert indices.tune_knn(big, "x") == 100
    before_rule = _MetaStore({"engine": "lucene", "ef_search": 100}, 500_000)  # recorded before the rule
    assert indices.tune_knn(before_rule, "x") == 400 and before_rule.meta["knn"]["ef_search_rule"] == schema.KNN_EF_RULE
    by_hand = _MetaStore({"engine": "lucene", "ef_search": 37}, 500_000)
    assert indices.tune_knn(by_hand, "x") is None and by_hand.meta["knn"]["ef_search"] == 37
    busy = _MetaStore(dict(made), 500_000, writers={"h:1:t": "now"})  # another ingest still writes
    assert indices.tune_knn(busy, "x") is None and busy.puts == 0
    assert indices.tune_knn(_MetaStore(None, 500_000), "x") is None  # no vectors recorded
