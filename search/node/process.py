"""A real single-node OpenSearch assembled from Maven Central, without Docker.

Layout under `Settings.node_home` (printed by `legalsearch node status`):

    dist/opensearch-<version>/   the assembled distribution (bin, lib, modules, plugins, config)
    data/                        index data (survives stop/start and re-installs)
    logs/                        the node's logs; <cluster>.log is the one to read on failure
    node.json                    url, ports, pid and version of the node last started

The node refuses to run as root, so when invoked as root it runs as a system user
(`Settings.node_user`, created on first install).

The node is secured by default (`search.security`): TLS with a local CA, the security
plugin, an admin password and the legalsearch roles; its secrets live beside the node home
(`<node_home>-secrets`), never inside it. LEGALSEARCH_NODE_SECURITY=false starts it without
(benchmarks only).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import ssl
import subprocess
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TypeVar

from legalsearch import locks
from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.node import probe
from legalsearch.node.assembly import dist_dir, install, is_installed, java_home
from legalsearch.security import plugin
from legalsearch.security.secrets import Secrets

log = logging.getLogger(__name__)

CLUSTER_NAME = "legalsearch-local"


@dataclass
class NodeState:
    url: str
    http_port: int
    transport_port: int
    pid: int
    version: str
    home: str


def log_file(settings: Settings) -> Path:
    return settings.node_home / "logs" / f"{CLUSTER_NAME}.log"


def state_file(settings: Settings) -> Path:
    return settings.node_home / "node.json"


def read_state(settings: Settings) -> NodeState | None:
    path = state_file(settings)
    if not path.is_file():
        return None
    try:
        return NodeState(**json.loads(path.read_text()))
    except (ValueError, TypeError):
        return None


def local_url(settings: Settings) -> str | None:
    """URL of the local node if one was started from this node home and still runs."""
    state = read_state(settings)
    if state and _pid_alive(state.pid):
        return state.url
    return None


# --------------------------------------------------------------------------- start / stop


def _port_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _free_port(preferred: int, avoid: set[int] = frozenset()) -> int:
    if preferred not in avoid and _port_free(preferred):
        return preferred
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


T = TypeVar("T")


def read_json_state(path: Path, kind: type[T]) -> T | None:
    """The dataclass `kind` a background process left in its state file (node, embedding server,
    search service); None when the file is missing or unreadable."""
    try:
        return kind(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _ensure_user(name: str) -> None:
    if subprocess.run(["id", "-u", name], capture_output=True).returncode == 0:
        return
    proc = subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
        capture_output=True, text=True,
    )
    if proc.returncode != 0:
        raise NodeError(f"could not create the system user {name!r} the node runs as: {proc.stderr.strip()}")


def _yml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return json.dumps(list(value))  # a flow sequence; DNs hold commas, so each is quoted
    if isinstance(value, str) and value[:1] in "'\"":
        return json.dumps(value)  # a date-pattern index name such as 'x-'YYYY.MM.dd: one quoted scalar
    return str(value)


def probe_context(settings: Settings, url: str) -> ssl.SSLContext | None:
    """How the lifecycle probes reach a local node: the local CA and the admin certificate."""
    return plugin.admin_ssl_context(settings) if url.startswith("https") else None


def scheme(settings: Settings) -> str:
    return "https" if settings.node_security else "http"


def node_settings(settings: Settings, http_port: int, transport_port: int, salt: str | None = None,
                  **overrides) -> dict:
    """opensearch.yml of one node: the one place where per-node configuration is produced, for the
    single node and for every node of a local cluster (`search.node.cluster` passes its name,
    folders and discovery settings as `overrides`; an override of None removes a key)."""
    yml = {
        "cluster.name": CLUSTER_NAME,
        "node.name": "local-1",
        "discovery.type": "single-node",
        "network.host": "127.0.0.1",
        "http.port": http_port,
        "transport.port": transport_port,
        "path.data": str(settings.node_home / "data"),
        "path.logs": str(settings.node_home / "logs"),
        # A developer laptop or CI disk may be fuller than OpenSearch's 85 % watermark.
        "cluster.routing.allocation.disk.threshold_enabled": "false",
        **plugin.opensearch_settings(settings, salt),
    }
    yml.update(overrides)
    return {k: v for k, v in yml.items() if v is not None}


def prepare_config(settings: Settings, config: Path, http_port: int, transport_port: int,
                   heap: str | None = None, **overrides) -> Secrets | None:
    """Everything one node reads from its config folder: the security files and certificates
    (the same local CA, node certificate and passwords for every node started from this node
    home: `search.security.secrets`), opensearch.yml and the heap options. The secrets, or None
    when security is off."""
    secrets = plugin.prepare(settings, config) if settings.node_security else None
    salt = secrets.salt_file.read_text().strip() if secrets else None
    yml = node_settings(settings, http_port, transport_port, salt, **overrides)
    (config / "opensearch.yml").write_text("".join(f"{k}: {_yml(v)}\n" for k, v in yml.items()))
    (config / "jvm.options.d").mkdir(exist_ok=True)
    heap = heap or settings.node_heap
    (config / "jvm.options.d" / "heap.options").write_text(f"-Xms{heap}\n-Xmx{heap}\n")
    return secrets


def start(settings: Settings, timeout: float = 180.0) -> NodeState:
    """Start the node (installing it first if needed) and wait until it answers. Idempotent, and
    safe to call from several processes at once: one starts the node while the others wait for it
    (a lock file in the node home), and a running node that is slow to answer (a loaded machine)
    is waited for, never stopped and started again."""
    settings.node_home.mkdir(parents=True, exist_ok=True)
    with _start_lock(settings.node_home / "start.lock", timeout + 60):
        state = read_state(settings)
        if state and _pid_alive(state.pid):
            if state.url.startswith("https") != settings.node_security:
                log.warning("restarting the local node to turn security %s",
                            "on" if settings.node_security else "off")
                stop(settings)
            elif _answers_while_alive(settings, state, timeout):
                return state
        return _start(settings, timeout)


@contextlib.contextmanager
def _start_lock(path: Path, timeout: float):
    """One start at a time (`locks.held`, bounded wait)."""
    try:
        with locks.held(path, timeout):
            yield
    except TimeoutError:
        raise NodeError(f"another process has been starting the node for over {timeout:.0f}s "
                        f"(lock {path}); see `legalsearch node status`") from None


def _answers_while_alive(settings: Settings, state: NodeState, timeout: float) -> bool:
    """Whether the running node answers within `timeout` seconds. False only when its process is
    gone (then a new one is started); a process that lives and never answers is an error, left
    running: stopping a busy node would cost every other client its searches."""
    deadline = time.monotonic() + timeout
    context = probe_context(settings, state.url)
    warned = False
    while _pid_alive(state.pid):
        if probe.ping(state.url, context=context):
            return True
        if time.monotonic() > deadline:
            raise NodeError(f"the node (pid {state.pid}, {state.url}) runs but has not answered for "
                            f"{timeout:.0f}s; it was left running. Its log: {log_file(settings)}; "
                            f"`legalsearch node stop && legalsearch node start` restarts it")
        if not warned:
            log.warning("the node (pid %d) is slow to answer; waiting for it (up to %.0fs)", state.pid, timeout)
            warned = True
        time.sleep(1.0)
    return False


def _start(settings: Settings, timeout: float) -> NodeState:
    if not is_installed(settings):
        install(settings)
    home = settings.node_home
    for sub in ("data", "logs"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    pid_file = home / "logs" / "opensearch.pid"
    _stop_stray(pid_file)
    http_port = _free_port(settings.node_port)
    transport_port = _free_port(settings.node_port + 100, avoid={http_port})
    config_dir = dist_dir(settings) / "config"
    prepare_config(settings, config_dir, http_port, transport_port)
    _launch(settings, home, config_dir, pid_file, dist_dir(settings), log_file(settings))
    url = f"{scheme(settings)}://127.0.0.1:{http_port}"
    pid = await_node(settings, url, pid_file, home / "logs" / "startup.err", log_file(settings), timeout)
    if settings.node_security:
        plugin.bootstrap(settings, url)
    state = NodeState(url, http_port, transport_port, pid, settings.node_version, str(home))
    state_file(settings).write_text(json.dumps(asdict(state), indent=2) + "\n")
    return state


def _launch(settings: Settings, home: Path, config: Path, pid_file: Path, cwd: Path, node_log: Path) -> None:
    """Run the daemonizing launcher of one node whose config folder is `config` and whose data
    and logs live under `home` (as the system user when invoked as root)."""
    env = {
        "PATH": settings.system_path,
        "OPENSEARCH_JAVA_HOME": str(java_home(settings)),
        "OPENSEARCH_PATH_CONF": str(config),
        "HOME": str(home),
        "LANG": "C.UTF-8",
    }
    cmd = [str(dist_dir(settings) / "bin" / "opensearch"), "-d", "-p", str(pid_file)]
    if os.geteuid() == 0:
        _ensure_user(settings.node_user)
        subprocess.run(["chown", "-R", f"{settings.node_user}:", str(home)], check=True)
        cmd = ["runuser", "-u", settings.node_user, "--", "env", *[f"{k}={v}" for k, v in env.items()], *cmd]
    if settings.node_security:  # the plugin warns about every file in config/ that others may read
        subprocess.run(["chmod", "-R", "go-rwx", str(config)], check=True)
    stderr_log = home / "logs" / "startup.err"
    with stderr_log.open("w") as err:
        proc = subprocess.run(cmd, env=env, stdout=err, stderr=subprocess.STDOUT, cwd=cwd)
    if proc.returncode != 0:
        raise NodeError(
            f"the node did not start (exit {proc.returncode}).\n{_tail(stderr_log)}{_tail(node_log)}"
            f"Logs: {stderr_log} and {node_log}"
        )


def _healthy(settings: Settings, url: str, timeout: float) -> bool:
    """The single node is ready: its cluster is yellow or green and, when secured, the security
    plugin has loaded its index (before that it answers 503 even to the admin certificate)."""
    return probe.wait_for_health(url, timeout=timeout, context=probe_context(settings, url)) and (
        not url.startswith("https") or plugin.initialized(settings, url))


def await_node(settings: Settings, url: str, pid_file: Path, stderr_log: Path, node_log: Path, timeout: float,
               healthy=None) -> int:
    """Wait until the node launched with `pid_file` answers `healthy(settings, url, timeout)`
    (default: a yellow cluster, security initialised); its pid. Raises NodeError (with the log
    tails) when it crashes or does not answer within `timeout`."""
    healthy = healthy or _healthy
    started = time.monotonic()
    deadline = started + timeout
    pid = None
    while time.monotonic() < deadline:
        if pid is None and pid_file.is_file() and pid_file.read_text().strip():
            pid = int(pid_file.read_text().strip())
        # The daemonized launcher returns before the JVM writes its pid file; a JVM that dies
        # during bootstrap never writes it (or removes it), so both cases mean a crash.
        crashed = (pid is not None and not _pid_alive(pid)) or (pid is None and time.monotonic() - started > 60)
        if crashed:
            raise NodeError(
                f"the node crashed while starting.\n{_tail(stderr_log)}{_tail(node_log)}"
                f"Logs: {stderr_log} and {node_log}"
            )
        if healthy(settings, url, 2.0):
            return pid or 0
        time.sleep(0.5)
    raise NodeError(f"the node did not answer within {timeout:.0f}s.\n{_tail(node_log)}Log: {node_log}")


def stop(settings: Settings, timeout: float = 60.0) -> bool:
    """Stop the node if it runs; returns whether one was stopped."""
    state = read_state(settings)
    if not state or not state.pid or not _pid_alive(state.pid):
        state_file(settings).unlink(missing_ok=True)
        return False
    _terminate(state.pid, timeout)
    state_file(settings).unlink(missing_ok=True)
    return True


def _stop_stray(pid_file: Path) -> None:
    """A node from this home that runs without a node.json (an interrupted start) holds the data
    lock; stop it so the new one can start."""
    if pid_file.is_file() and pid_file.read_text().strip().isdigit():
        pid = int(pid_file.read_text().strip())
        if _pid_alive(pid):
            log.warning("stopping a node left running from an interrupted start (pid %d)", pid)
            _terminate(pid)
    pid_file.unlink(missing_ok=True)


def _terminate(pid: int, timeout: float = 60.0) -> None:
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _pid_alive(pid):
        time.sleep(0.2)
    if _pid_alive(pid):
        os.kill(pid, signal.SIGKILL)


def _tail(path: Path, lines: int = 15) -> str:
    if not path.is_file():
        return ""
    text = path.read_text(errors="replace").splitlines()[-lines:]
    return "".join(f"  | {line}\n" for line in text)
