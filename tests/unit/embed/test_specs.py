"""Model specifications: parsing, the canonical form an index records, refused secrets and bad
parameters, keys from the environment or a file, the ingest options and the CLI that take them,
and which build an index would use (no model is loaded)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from legalsearch.config import Settings
from legalsearch.embed import Embedders, build_for
from legalsearch.embed import spec as specs
from legalsearch.embed.models import check_recorded
from legalsearch.errors import ConfigError
from legalsearch.ingest import IngestOptions
from pydantic import ValidationError

URL = "openai:http://127.0.0.1:7997/v1/?model=minilm&dims=384&key_env=MY_KEY"


def test_canonical_form_sorts_parameters_and_drops_the_trailing_slash():
    parsed = specs.parse(URL)
    assert parsed.kind == "openai" and parsed.target == "http://127.0.0.1:7997/v1"
    assert parsed.canonical == "openai:http://127.0.0.1:7997/v1?dims=384&key_env=MY_KEY&model=minilm"
    assert specs.parse(parsed.canonical) == parsed  # stable: what an index records parses back to itself
    # the model's identity leaves out how it is reached: key variable, timeout, batch, retries
    assert parsed.identity == "openai:http://127.0.0.1:7997/v1?dims=384&model=minilm"
    assert build_for(URL) == parsed.identity == build_for(URL + "&timeout=5&retries=0&batch=8")


def test_a_directory_is_resolved(tmp_path):
    (tmp_path / "m").mkdir()
    assert specs.parse(f"st:{tmp_path}/m/../m").canonical == f"st:{tmp_path / 'm'}"
    assert specs.parse(f"onnx:{tmp_path}/m?pooling=cls").params == {"pooling": "cls"}


@pytest.mark.parametrize("text, message", [
    ("openai:http://h/v1?model=m&key=sk-123", "never written into a specification"),
    ("openai:http://h/v1?model=m&api_key=sk-123", "never written"),
    ("openai:http://user:pw@h/v1?model=m", "credentials in the URL"),
    ("openai:http://h/v1", "model=NAME is required"),
    ("openai:ftp://h?model=m", "not an http"),
    ("openai:http://h?model=m&batch=0", "whole number >= 1"),
    ("openai:http://h?model=m&retries=-1", "whole number >= 0"),
    ("openai:http://h?model=m&timeout=-1", "seconds"),
    ("openai:http://h?model=m&colour=red", "unknown parameter"),
    ("openai:http://h?model=m&model=n", "given twice"),
    ("st:/nowhere/at/all", "not a directory"),
    ("weird:/x", "unknown model kind"),
])
def test_bad_specifications_are_refused_clearly(text, message):
    with pytest.raises(ConfigError, match=message):
        specs.parse(text)


def test_unknown_names_suggest_a_specification():
    with pytest.raises(ConfigError, match="or a specification"):
        build_for("bge-small")


def test_secrets_are_redacted_from_messages():
    assert specs.redact("openai:http://h?model=m&key=sk-123&dims=3") == "openai:http://h?model=m&key=***&dims=3"


def test_the_key_comes_from_the_environment_or_a_file(tmp_path, monkeypatch):
    monkeypatch.setenv("LS_TEST_KEY", " sk-env ")
    assert specs.parse("openai:http://h?model=m&key_env=LS_TEST_KEY").api_key() == "sk-env"
    monkeypatch.delenv("LS_TEST_KEY")
    with pytest.raises(ConfigError, match="LS_TEST_KEY"):
        specs.parse("openai:http://h?model=m&key_env=LS_TEST_KEY").api_key()
    key = tmp_path / "key"
    key.write_text("sk-file\n")
    assert specs.parse(f"cohere:http://h?model=m&key_file={key}").api_key() == "sk-file"
    assert specs.parse("openai:http://h?model=m").api_key() is None


def test_rerank_specifications():
    assert specs.is_rerank_spec("cohere:http://h/v1?model=r") and specs.is_rerank_spec("jina:http://h?model=r")
    assert not specs.is_rerank_spec("/models/cross-encoder")
    with pytest.raises(ConfigError, match="unknown parameter"):
        specs.parse("jina:http://h?model=r&pooling=mean", rerank=True)


def test_ingest_options_keep_the_canonical_specification():
    assert IngestOptions(embedder=URL).embedder == specs.parse(URL).canonical
    with pytest.raises(ValidationError, match="never written"):
        IngestOptions(embedder="openai:http://h?model=m&key=sk")


class Recording(Embedders):
    def load(self, build):
        return build


def test_an_index_of_one_model_refuses_another_and_names_the_reindex_command(tmp_path):
    embedders = Recording(Settings(cache_dir=tmp_path))
    meta = {"index": "contracts", "embedder_build": specs.parse(URL).identity, "embedder": specs.parse(URL).identity}
    with pytest.raises(ConfigError, match="legalsearch index reindex --index contracts --embedder 'minilm/onnx"):
        embedders.for_ingest("minilm", meta)
    with pytest.raises(ConfigError, match="cannot share an index"):
        embedders.for_ingest("openai:http://127.0.0.1:7997/v1?model=other", meta)
    # the same model with another timeout and key variable extends it (the whole spec is loaded)
    other_knobs = "openai:http://127.0.0.1:7997/v1?model=minilm&dims=384&key_env=OTHER&timeout=5"
    assert embedders.for_ingest(other_knobs, meta) == specs.parse(other_knobs).canonical
    named = {"index": "contracts", "embedder_build": "minilm/torch", "embedder": "minilm"}
    with pytest.raises(ConfigError, match="reindex --index contracts"):
        embedders.for_ingest(URL, named)


class Folder:
    build = "st:/m"
    dim = 384
    fingerprint = "b" * 64


def test_a_changed_model_folder_is_refused_at_query_time():
    with pytest.raises(ConfigError, match="changed since the index was built.*reindex --index c"):
        check_recorded(Folder(), {"index": "c", "dim": 384, "model_fingerprint": "a" * 64})
    with pytest.raises(ConfigError, match="768-dimension"):
        check_recorded(Folder(), {"index": "c", "dim": 768, "model_fingerprint": "b" * 64})
    assert check_recorded(Folder(), {"dim": 384, "model_fingerprint": "b" * 64}).dim == 384


def test_the_cli_takes_a_specification_and_refuses_a_secret():
    from legalsearch.cli import main

    result = CliRunner().invoke(main, ["models", "test", "openai:http://127.0.0.1:9/v1?model=m&key=sk-1"])
    assert result.exit_code == 2 and "key_env" in result.output and "sk-1" not in result.output
    listed = CliRunner().invoke(main, ["models", "list"])
    assert listed.exit_code == 0 and "openai:http://127.0.0.1:7997/v1?model=minilm" in listed.output
