"""A uvicorn server in a thread of the test process, on 127.0.0.1 and a free port (the service's tests)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running(app, seconds: float = 30.0):
    """The base URL of `app` served by uvicorn until the block ends (polls /healthz, bounded)."""
    import uvicorn

    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or not thread.is_alive():
            raise AssertionError(f"the service did not start within {seconds:g} s")
        time.sleep(0.1)
    try:
        yield url
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
