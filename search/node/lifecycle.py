"""The local node and its embedding server, started and stopped together (`legalsearch node
start|stop`, the test fixture): the server is spawned first, so it loads its models while the
JVM boots; once both answer, ml-commons gets its cluster settings and every legalsearch remote
model is deployed again (a full restart leaves them DEPLOY_FAILED or stuck; docs/engine.md).
"""

from __future__ import annotations

import logging
from functools import partial

from search.config import Settings
from search.node import embedserver, ml, process, security

log = logging.getLogger(__name__)


def start(settings: Settings, timeout: float = 180.0) -> process.NodeState:
    """Start (or keep) the node and the embedding server; idempotent."""
    node = process.read_state(settings)
    embedserver.start(settings, avoid={node.http_port, node.transport_port} if node else set())
    state = process.start(settings, timeout=timeout)
    if settings.embed_server:
        embedserver.wait_ready(settings)
    ml.after_start(partial(security.admin_request, settings, state.url), embedserver.endpoint(settings))
    return state


def stop(settings: Settings) -> bool:
    """Stop the node and the embedding server; whether a node was running."""
    stopped = process.stop(settings)
    embedserver.stop(settings)
    return stopped
