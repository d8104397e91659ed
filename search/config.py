"""Settings: the only module that reads the environment.

Built once in the CLI group callback (or a test fixture) and passed down; never at import time.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

OPENSEARCH_VERSION = "2.19.1"
"""The one pinned OpenSearch version: core, modules and plugins (plugins are `<version>.0`)."""


def _default_node_home() -> Path:
    # A root-owned home directory is not traversable by the unprivileged user the node runs as,
    # so when invoked as root the node lives under /var/lib.
    if os.geteuid() == 0:
        return Path("/var/lib/legalsearch/node")
    return Path.home() / ".local" / "share" / "legalsearch" / "node"


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
    request_timeout: float = 60.0

    node_home: Path = Field(default_factory=_default_node_home)
    cache_dir: Path = Field(default_factory=lambda: Path.home() / ".cache" / "legalsearch")
    maven_repo: Path = Field(default_factory=lambda: Path.home() / ".m2" / "repository")
    node_version: str = OPENSEARCH_VERSION
    node_heap: str = "1g"
    node_port: int = 9200
    node_user: str = "legalsearch"
    system_path: str = Field(
        default="/usr/local/bin:/usr/bin:/bin", validation_alias=AliasChoices("PATH"),
        description="PATH handed to the node's launcher",
    )
    java_home: Path | None = Field(
        default=None, validation_alias=AliasChoices("OPENSEARCH_JAVA_HOME", "LEGALSEARCH_JAVA_HOME")
    )

    index: str = "legalsearch"
    log_searches: bool = True
    rerank_model: str | None = None

    # The "openai" summarizer: any OpenAI-compatible endpoint (vLLM, Ollama, a cloud API).
    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_variant: str = "generic"

    def summarizer_options(self, name: str) -> dict:
        if name != "openai":
            return {}
        return {
            "base_url": self.llm_base_url, "model": self.llm_model, "variant": self.llm_variant,
            "api_key": self.llm_api_key.get_secret_value() if self.llm_api_key else None,
        }
    log_index: str = "legalsearch-log"
