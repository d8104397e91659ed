"""A second `node start` (another test session, a CLI, a service) never stops a node that runs:
it waits for a start in progress (a lock in the node home) and for a node slow to answer (a
loaded machine). No JVM: a plain process stands in for the node's pid, a closed port for its URL."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import time

import pytest
from legalsearch.config import Settings
from legalsearch.errors import NodeError
from legalsearch.node import process


def _closed_port_url() -> str:
    port = process._free_port(47311)  # free now, nothing listens on it
    return f"http://127.0.0.1:{port}"


def _state(settings: Settings, pid: int) -> process.NodeState:
    return process.NodeState(_closed_port_url(), 0, 0, pid, settings.node_version, str(settings.node_home))


def test_a_live_node_that_does_not_answer_is_left_running_and_reported(tmp_path):
    settings = Settings(node_home=tmp_path / "home", node_security=False)
    busy = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with pytest.raises(NodeError, match="left running"):
            process._answers_while_alive(settings, _state(settings, busy.pid), timeout=1.5)
        assert busy.poll() is None  # not killed
    finally:
        busy.kill()
        busy.wait()


def test_a_node_whose_process_is_gone_is_started_again(tmp_path):
    settings = Settings(node_home=tmp_path / "home", node_security=False)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    assert process._answers_while_alive(settings, _state(settings, gone.pid), timeout=5) is False


def _hold(path: str, seconds: float, ready) -> None:
    with process._start_lock(process.Path(path), 10):
        ready.set()
        time.sleep(seconds)


def test_one_start_at_a_time(tmp_path):
    lock = tmp_path / "start.lock"
    ready = multiprocessing.Event()
    holder = multiprocessing.Process(target=_hold, args=(str(lock), 1.5, ready))
    holder.start()
    try:
        assert ready.wait(10)
        with pytest.raises(NodeError, match="another process"):
            with process._start_lock(lock, 0.3):
                pass
        started = time.monotonic()
        with process._start_lock(lock, 10):  # waits for the holder, then gets it
            waited = time.monotonic() - started
        assert waited > 0.3
    finally:
        holder.join(10)
