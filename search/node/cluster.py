"""A local OpenSearch cluster: N nodes of the one assembled distribution, all on 127.0.0.1.

`legalsearch node start --nodes 3` runs this; `node start` alone still runs the single node of
`search.node.process`. Each node is a separate JVM with its own ports, config folder, data and
logs, and the nodes find each other through `discovery.seed_hosts` (their transport ports) and
form one cluster the first time through `cluster.initial_cluster_manager_nodes`. Every node is
cluster-manager-eligible and a data node, so any one of three may die and the other two keep a
quorum and (with one replica per shard) every shard.

Layout under `ClusterSpec.root` (default `Settings.node_home / "cluster"`):

    ls-1/config/   a copy of the distribution's config folder with this node's opensearch.yml
    ls-1/data/     index data (survives stop/start)
    ls-1/logs/     <cluster name>.log is the one to read on failure
    ls-2/ ...
    cluster.json   name, version and, per node: url, ports, pid, home

Per-node opensearch.yml comes from `process.node_settings` (the one place per-node settings
are produced), with the cluster's name, folders and discovery settings as overrides.

Security (on by default, as for the single node): every node gets the same certificates of the
one local CA (valid for 127.0.0.1 and localhost, with the node DN that `plugins.security.nodes_dn`
accepts), the same security files and compliance salt, all from the node home's secrets folder
(`search.security`): the cluster shares the admin and service passwords with the single
node. The plugin loads its configuration once for the cluster (into its security index, on the
first start); once the cluster has formed, `plugin.bootstrap` brings the roles up to date once,
through one node.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.node import probe, process
from legalsearch.node.assembly import dist_dir, install, is_installed
from legalsearch.security import plugin

log = logging.getLogger(__name__)

CLUSTER_NAME = "legalsearch-cluster"
NODE_PREFIX = "ls-"


@dataclass(frozen=True)
class ClusterSpec:
    """What to run: how many nodes, where, on which ports, with which heap and extra settings."""

    root: Path
    nodes: int = 3
    name: str = CLUSTER_NAME
    http_port: int = 9201        # node i (1-based) prefers http_port + i - 1
    transport_port: int = 9301   # and transport_port + i - 1
    heap: str = "1g"
    extra: dict = field(default_factory=dict)  # node settings for every node (e.g. a small write queue)

    @classmethod
    def local(cls, settings: Settings, nodes: int = 3) -> ClusterSpec:
        """The cluster of `legalsearch node start --nodes N`: ports just above the single node's."""
        return cls(root=settings.node_home / "cluster", nodes=nodes, http_port=settings.node_port + 1,
                   transport_port=settings.node_port + 101, heap=settings.node_heap)

    def node_names(self) -> list[str]:
        return [f"{NODE_PREFIX}{i}" for i in range(1, self.nodes + 1)]

    def preferred_ports(self) -> list[int]:
        return [p + i for p in (self.http_port, self.transport_port) for i in range(self.nodes)]


@dataclass
class Member:
    """One node of the cluster as last started from this machine."""

    name: str
    url: str
    http_port: int
    transport_port: int
    pid: int
    home: str

    @property
    def alive(self) -> bool:
        return bool(self.pid) and process._pid_alive(self.pid)


@dataclass
class ClusterState:
    name: str
    version: str
    members: list[Member]

    @property
    def urls(self) -> list[str]:
        return [m.url for m in self.members]

    def member(self, name: str) -> Member:
        for m in self.members:
            if m.name == name:
                return m
        raise NodeError(f"no node {name!r} in this cluster; nodes: {', '.join(m.name for m in self.members)}")


def state_file(root: Path) -> Path:
    return root / "cluster.json"


def read_state(root: Path) -> ClusterState | None:
    path = state_file(root)
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
        return ClusterState(data["name"], data["version"], [Member(**m) for m in data["members"]])
    except (ValueError, TypeError, KeyError):
        return None


def _write_state(root: Path, state: ClusterState) -> None:
    state_file(root).write_text(json.dumps(asdict(state), indent=2) + "\n")


def local_urls(settings: Settings) -> list[str]:
    """URLs of the running nodes of the local cluster (`node start --nodes N`), or []."""
    state = read_state(ClusterSpec.local(settings).root)
    return [m.url for m in state.members if m.alive] if state else []


def known_urls(settings: Settings) -> set[str]:
    """URLs of every node started from this node home: the single node and the members of every
    cluster under it (running or not). A Store trusts the local CA and sends the local admin
    password only to these."""
    urls = {process.local_url(settings)} - {None}
    for path in settings.node_home.glob("*/cluster.json"):
        state = read_state(path.parent)
        urls |= set(state.urls) if state else set()
    return urls


def node_log(root: Path, name: str, cluster_name: str = CLUSTER_NAME) -> Path:
    return root / name / "logs" / f"{cluster_name}.log"


# --------------------------------------------------------------------------- start / stop


def start(settings: Settings, spec: ClusterSpec, timeout: float = 300.0) -> ClusterState:
    """Start every node of `spec` that is not running (installing the distribution first if
    needed) and wait until all of them form one cluster. Idempotent: running nodes are kept, so
    this also brings back a node that was stopped or killed."""
    if spec.nodes < 2:
        raise NodeError("a local cluster has at least 2 nodes; `legalsearch node start` runs one")
    if not is_installed(settings):
        install(settings)
    spec.root.mkdir(parents=True, exist_ok=True)
    previous = read_state(spec.root)
    known = {m.name: m for m in previous.members} if previous else {}
    extra = [m.name for m in known.values() if m.name not in spec.node_names() and m.alive]
    if extra:
        raise NodeError(f"{', '.join(extra)} of this cluster still run; to run {spec.nodes} nodes, stop the cluster "
                        "first (`legalsearch node stop`)")
    wrong = [m for m in known.values() if m.alive and m.url.startswith("https") != settings.node_security]
    if wrong:
        log.warning("restarting the local cluster to turn security %s", "on" if settings.node_security else "off")
        stop(spec.root)
        known = {m.name: m for m in read_state(spec.root).members}
    members, to_start = _plan_members(settings, spec, known)
    seeds = [f"127.0.0.1:{m.transport_port}" for m in members]
    for m in to_start:
        _prepare(settings, spec, m, seeds)
    state = ClusterState(spec.name, settings.node_version, members)
    _write_state(spec.root, state)  # ports are known before the JVMs start: a second start reuses them
    if os.geteuid() == 0:
        process._ensure_user(settings.node_user)  # once, before the launchers run side by side
    # The launchers run side by side: each one starts a JVM of its own to size the heap first.
    with ThreadPoolExecutor(max_workers=len(to_start) or 1) as pool:
        for future in [pool.submit(process._launch, settings, Path(m.home), Path(m.home) / "config",
                                   Path(m.home) / "logs" / "opensearch.pid", Path(m.home),
                                   node_log(spec.root, m.name, spec.name)) for m in to_start]:
            future.result()
    deadline = time.monotonic() + timeout
    for m in to_start:
        home = Path(m.home)
        m.pid = process.await_node(
            settings, m.url, home / "logs" / "opensearch.pid", home / "logs" / "startup.err",
            node_log(spec.root, m.name, spec.name), max(deadline - time.monotonic(), 1.0),
            healthy=lambda settings, url, timeout: probe.ping(url, timeout, process.probe_context(settings, url)),
        )
        _write_state(spec.root, state)
    wait_formed(settings, state, min(max(deadline - time.monotonic(), 10.0), timeout))
    if settings.node_security:
        _secure(settings, state, max(deadline - time.monotonic(), 30.0))
    return state


def _secure(settings: Settings, state: ClusterState, timeout: float) -> None:
    """Once the cluster has formed: wait until the security plugin has loaded its index (the
    first start creates it from the files `prepare` wrote), then bring the roles and the service
    account up to date, once for the cluster."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for url in state.urls:
            if plugin.initialized(settings, url):
                plugin.bootstrap(settings, url)
                return
        time.sleep(0.5)
    raise NodeError(f"the security plugin of the {len(state.members)} nodes did not initialise within {timeout:.0f}s; "
                    f"see the logs: {', '.join(str(Path(m.home) / 'logs') for m in state.members)}")


def _plan_members(settings: Settings, spec: ClusterSpec, known: dict[str, Member]) -> tuple[list[Member], list[Member]]:
    """Every node of the spec (running ones as they are; the others on their previous ports when
    still free, else on the preferred or any free ports) and the ones to start."""
    members: list[Member] = []
    to_start: list[Member] = []
    used: set[int] = set()
    for m in known.values():
        if m.alive:
            used |= {m.http_port, m.transport_port}
    for i, name in enumerate(spec.node_names()):
        old = known.get(name)
        if old and old.alive and probe.ping(old.url, context=process.probe_context(settings, old.url)):
            members.append(old)
            continue
        http = process._free_port(old.http_port if old else spec.http_port + i, avoid=used)
        used.add(http)
        transport = process._free_port(old.transport_port if old else spec.transport_port + i, avoid=used)
        used.add(transport)
        member = Member(name, f"{process.scheme(settings)}://127.0.0.1:{http}", http, transport, 0, str(spec.root / name))
        members.append(member)
        to_start.append(member)
    return members, to_start


def _prepare(settings: Settings, spec: ClusterSpec, member: Member, seeds: list[str]) -> None:
    """The node's own config folder (a copy of the distribution's), data and logs, and its
    opensearch.yml; a node left running from an interrupted start is stopped first."""
    home = Path(member.home)
    config = home / "config"
    if not config.is_dir():
        shutil.copytree(dist_dir(settings) / "config", config)
    for sub in ("data", "logs"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    # The launcher runs every JVM from the distribution folder, where the stock jvm.options put
    # the GC log, heap dumps and crash files (relative paths): give each node its own.
    jvm = config / "jvm.options"
    jvm.write_text((dist_dir(settings) / "config" / "jvm.options").read_text()
                   .replace("file=logs/gc.log", f"file={home / 'logs' / 'gc.log'}")
                   .replace("-XX:HeapDumpPath=data", f"-XX:HeapDumpPath={home / 'data'}")
                   .replace("-XX:ErrorFile=logs/", f"-XX:ErrorFile={home / 'logs'}/"))
    process._stop_stray(home / "logs" / "opensearch.pid")
    process.prepare_config(
        settings, config, member.http_port, member.transport_port, heap=spec.heap,
        **{
            "cluster.name": spec.name,
            "node.name": member.name,
            "discovery.type": None,
            "discovery.seed_hosts": seeds,
            "cluster.initial_cluster_manager_nodes": spec.node_names(),
            "path.data": str(home / "data"),
            "path.logs": str(home / "logs"),
            **spec.extra,
        },
    )


def wait_formed(settings: Settings, state: ClusterState, timeout: float, status: str = "yellow") -> None:
    """Wait until the running nodes form one cluster of all members at `status` or better."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for url in state.urls:
            if probe.wait_for_health(url, timeout=min(5.0, max(deadline - time.monotonic(), 1.0)),
                                     status=status, nodes=len(state.members),
                                     context=process.probe_context(settings, url)):
                return
        time.sleep(0.5)
    raise NodeError(
        f"the {len(state.members)} nodes did not form a {status} cluster within {timeout:.0f}s; "
        f"see the logs: {', '.join(str(Path(m.home) / 'logs') for m in state.members)}"
    )


def stop(root: Path, timeout: float = 60.0) -> int:
    """Stop every running node of the cluster under `root` (data is kept); how many were stopped."""
    state = read_state(root)
    if not state:
        return 0
    running = [m for m in state.members if m.alive]
    for m in running:  # all at once: a cluster that loses its nodes one by one re-allocates for nothing
        _signal(m.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and any(m.alive for m in running):
        time.sleep(0.2)
    for m in running:
        if m.alive:
            _signal(m.pid, signal.SIGKILL)
    for m in state.members:
        m.pid = 0
    _write_state(root, state)
    return len(running)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass
