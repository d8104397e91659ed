"""One process at a time: an exclusive `flock` on a lock file (the model export, the node start).
The lock goes with the process, so a killed holder never leaves it held."""

from __future__ import annotations

import contextlib
import fcntl
import time
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def held(path: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the lock on `path` (created if missing) for the `with` block. `timeout`: seconds to
    wait for another holder before TimeoutError (None: wait as long as it takes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        if timeout is None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        else:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"{path} held by another process for over {timeout:.0f}s") from None
                    time.sleep(0.5)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
