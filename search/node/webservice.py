"""`legalsearch serve` in the background, beside the local node (`serve --background`,
`node start --serve`, `legalsearch demo`).

The service runs the project's own `legalsearch serve` in a process of its own (a new session, so
it outlives the command that starts it), bound to loopback unless told otherwise. This module only
runs the process (spawn, wait for `/readyz`, stop); it never imports the service, so asking where
it listens loads neither FastAPI nor a model.

Under the node home: `web-service.json` (url, host, port, pid of the service last started) and
`logs/web-service.log` (its structured access log and uvicorn's messages).
"""

from __future__ import annotations

import json
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

DEFAULT_PORT = 8730
# the folder holding the package's code: the service starts from there, so it imports this very copy
_CODE_ROOT = Path(__file__).resolve().parents[2]
_MAIN = "import sys; from legalsearch.cli import main; sys.exit(main())"


@dataclass
class ServiceState:
    url: str
    host: str
    port: int
    pid: int


def state_file(settings: Settings) -> Path:
    return settings.node_home / "web-service.json"


def log_file(settings: Settings) -> Path:
    return settings.node_home / "logs" / "web-service.log"


def running(settings: Settings) -> ServiceState | None:
    """The service this machine started, if its process still runs."""
    state = read_json_state(state_file(settings), ServiceState)
    return state if state and _pid_alive(state.pid) else None


def start(settings: Settings, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
          options: tuple[str, ...] = ()) -> ServiceState:
    """Spawn `legalsearch serve` unless one runs (idempotent; see `wait_ready`). `options` are
    more `serve` options (--timeout, --per-user, ...). A taken port moves to the next free one."""
    state = running(settings)
    if state:
        return state
    port = _free_port(port)
    log_path = log_file(settings)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-c", _MAIN, "serve", "--host", host, "--port", str(port), *options]
    with log_path.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=_CODE_ROOT, start_new_session=True)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host  # noqa: S104 (what a browser here opens)
    state = ServiceState(f"http://{shown}:{port}", host, port, proc.pid)
    state_file(settings).parent.mkdir(parents=True, exist_ok=True)
    state_file(settings).write_text(json.dumps(asdict(state), indent=2) + "\n")
    return state


def ready(url: str, timeout: float = 3.0) -> tuple[int, dict]:
    """(HTTP status, body) of the service's /readyz; (0, {}) when nothing answers."""
    try:
        with urllib.request.urlopen(f"{url}/readyz", timeout=timeout) as answer:  # noqa: S310 (loopback)
            return answer.status, json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read() or b"{}")
        except ValueError:
            return e.code, {}
    except (OSError, ValueError):
        return 0, {}


def wait_ready(settings: Settings, timeout: float = 120.0) -> dict:
    """Wait (bounded) until the service answers /readyz 200: it runs and reaches the node."""
    state = running(settings)
    if state is None:
        raise NodeError(f"the search service is not running.\n{_tail(log_file(settings))}Log: {log_file(settings)}")
    deadline = time.monotonic() + timeout
    while True:
        status, body = ready(state.url)
        if status == 200:
            return body
        if not _pid_alive(state.pid):
            state_file(settings).unlink(missing_ok=True)
            raise NodeError(f"the search service exited before it was ready.\n{_tail(log_file(settings))}"
                            f"Log: {log_file(settings)}")
        if time.monotonic() > deadline:
            raise NodeError(f"the search service at {state.url} was not ready within {timeout:.0f} s "
                            f"({body.get('detail') or status or 'no answer'}).\nLog: {log_file(settings)}")
        time.sleep(0.3)


def stop(settings: Settings) -> bool:
    """Stop the background service if it runs; whether one was stopped."""
    state = running(settings)
    state_file(settings).unlink(missing_ok=True)
    if state is None:
        return False
    _terminate(state.pid, timeout=20.0)
    return True
