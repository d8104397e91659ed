"""The local node (or local cluster) and its embedding server, started and stopped together
(`legalsearch node start [--nodes N]|stop`, the test fixture): the server is spawned first, so it
loads its models while the JVMs boot; once both answer, ml-commons gets its cluster settings and
every legalsearch remote model is deployed again (a full restart leaves them DEPLOY_FAILED or
stuck; docs/engine.md). A cluster has one embedding server, like one node: its state lives in
the node home, which the single node and the cluster share (one of them runs at a time).
"""

from __future__ import annotations

import logging
from functools import partial

from legalsearch import embedserver
from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.node import cluster, ml, process, webservice
from legalsearch.security import plugin

log = logging.getLogger(__name__)


def start(settings: Settings, timeout: float = 180.0) -> process.NodeState:
    """Start (or keep) the single node and the embedding server; idempotent."""
    if cluster.local_urls(settings):
        raise NodeError("a local cluster runs from this node home; stop it first with `legalsearch node stop` "
                        "(or use `legalsearch node start --nodes N`)")
    node = process.read_state(settings)
    embedserver.start(settings, avoid={node.http_port, node.transport_port} if node else set())
    state = process.start(settings, timeout=timeout)
    _after_start(settings, state.url)
    return state


def start_cluster(settings: Settings, nodes: int, timeout: float = 300.0) -> cluster.ClusterState:
    """Start (or keep, or complete) the local cluster of `nodes` nodes and one embedding server
    for all of them; idempotent."""
    if process.local_url(settings):
        raise NodeError("the single local node runs from this node home; stop it first with `legalsearch node stop` "
                        "(the cluster keeps its data apart: ingest again there)")
    spec = cluster.ClusterSpec.local(settings, nodes)
    previous = cluster.read_state(spec.root)
    ports = {p for m in previous.members for p in (m.http_port, m.transport_port)} if previous else set()
    embedserver.start(settings, avoid=ports | set(spec.preferred_ports()))
    state = cluster.start(settings, spec, timeout=timeout)
    _after_start(settings, state.urls[0])
    return state


def _after_start(settings: Settings, url: str) -> None:
    if settings.embed_server:
        embedserver.wait_ready(settings)
    ml.after_start(partial(plugin.admin_request, settings, url), embedserver.endpoint(settings))


def stop(settings: Settings) -> list[str]:
    """Stop the single node, every node of the local cluster, the embedding server and the search
    service; what was stopped, in words ([] when nothing ran)."""
    stopped = []
    if process.stop(settings):
        stopped.append("the local node")
    members = cluster.stop(cluster.ClusterSpec.local(settings).root)
    if members:
        stopped.append(f"{members} nodes of the local cluster")
    if embedserver.stop(settings):
        stopped.append("the embedding server")
    if webservice.stop(settings):
        stopped.append("the search service")
    return stopped
