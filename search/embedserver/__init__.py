"""The embedding server (docs/engine.md), in one place: the index embedders (`search.embed`) behind
an OpenAI-compatible `POST /v1/embeddings` on 127.0.0.1, for OpenSearch's ml-commons connectors
(so a `neural` query or a `text_embedding` ingest processor gets the vectors our Python side
computes), and for questions of a fresh `legalsearch` process.

    app       the server (FastAPI + uvicorn): `python -m legalsearch.embedserver`
    process   its process beside the local node: start, wait for /health, stop, where it listens
    client    questions embedded through it (`QueryServer`, handed to `Embedders`)

The package root is the process API (`embedserver.start`, `running`, ...): importing it loads
neither FastAPI nor a model.
"""

from legalsearch.embedserver.process import (
    ServerState,
    endpoint,
    health,
    log_file,
    read_state,
    running,
    start,
    state_file,
    stop,
    wait_ready,
)

__all__ = ["ServerState", "endpoint", "health", "log_file", "read_state", "running", "start", "state_file", "stop",
           "wait_ready"]
