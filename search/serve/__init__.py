"""The embedding server (docs/engine.md): the index embedders (`search.embed`) behind an
OpenAI-compatible `POST /v1/embeddings` on 127.0.0.1, for OpenSearch's ml-commons connectors, so
a `neural` query or a `text_embedding` ingest processor gets the vectors our Python side computes.

`legalsearch node start` runs it (`python -m legalsearch.serve`) beside the local node and `node stop`
stops it; `search.node.embedserver` manages the process.
"""

from legalsearch.serve.app import ServerConfig, create_app, run, served_models

__all__ = ["ServerConfig", "create_app", "run", "served_models"]
