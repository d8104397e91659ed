"""Three stages at once: a producer on a thread of its own, a middle stage on the calling thread, a
sink on a third thread, with bounded queues between them (`pipelined`).

The ingest runs parsing (load, chunk, summarize) as the producer, embedding as the middle stage
(the calling thread: the model's own threads do the work, and a KeyboardInterrupt lands there) and
the bulk writes as the sink, so the embedder never waits for the node or the parser once the first
batch is parsed: see `search.ingest.run`.

- Order: items reach the sink in the producer's order (one thread per stage, FIFO queues).
- Memory: at most `depth` items wait between two stages, plus one in each stage.
- Errors: the first exception of any stage (or a KeyboardInterrupt in the calling thread) stops
  the others: the producer at its next item, the sink once the item it holds is done (an ingest
  writes whole documents only); the threads are joined, then that exception is raised here with
  its own traceback. Nothing is left running after `pipelined` returns or raises.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

_END = object()
_POLL_S = 0.1


class _Stopped(Exception):
    """The run was stopped by another stage's error: leave quietly."""


class Pipeline:
    """One run of `pipelined`: its queues, stop flag and first error, and how long the middle
    stage waited for the producer (`starved_s`) and for room before the sink (`blocked_s`)."""

    def __init__(self, depth: int):
        if depth < 1:
            raise ValueError("depth must be >= 1")
        self.parsed: queue.Queue = queue.Queue(maxsize=depth)
        self.done: queue.Queue = queue.Queue(maxsize=depth)
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self._lock = threading.Lock()
        self.starved_s = 0.0
        self.blocked_s = 0.0

    def fail(self, error: BaseException) -> None:
        with self._lock:
            if self.error is None:
                self.error = error
        self.stop.set()

    def put(self, q: queue.Queue, item: Any) -> float:
        """Put, waiting for room unless the run stops; returns the seconds waited."""
        start = time.perf_counter()
        while True:
            if self.stop.is_set():
                raise _Stopped
            try:
                q.put(item, timeout=_POLL_S)
                return time.perf_counter() - start
            except queue.Full:
                continue

    def get(self, q: queue.Queue) -> tuple[Any, float]:
        start = time.perf_counter()
        while True:
            if self.stop.is_set():
                raise _Stopped
            try:
                return q.get(timeout=_POLL_S), time.perf_counter() - start
            except queue.Empty:
                continue


def pipelined(produce: Iterable[Any], middle: Callable[[Any], Any], sink: Callable[[Any], None], *,
              depth: int = 2, name: str = "pipeline") -> Pipeline:
    """Run `sink(middle(item))` for every item of `produce`, the three overlapping (see the module
    docstring). `produce` is iterated on its own thread, `sink` runs on another; returns the
    finished run (its wait times), or raises the first error of any stage."""
    run = Pipeline(depth)

    def producer() -> None:
        try:
            for item in produce:
                run.put(run.parsed, item)
            run.put(run.parsed, _END)
        except _Stopped:
            pass
        except BaseException as e:  # noqa: BLE001 - handed to the calling thread
            run.fail(e)
        finally:
            close = getattr(produce, "close", None)
            if close is not None:  # a generator stopped early runs its finally blocks here, on its thread
                try:
                    close()
                except Exception:  # noqa: BLE001, S110 - the run's own error is the one to raise
                    pass

    def consumer() -> None:
        try:
            while True:
                item, _ = run.get(run.done)
                if item is _END:
                    return
                sink(item)
        except _Stopped:
            pass
        except BaseException as e:  # noqa: BLE001
            run.fail(e)

    threads = [threading.Thread(target=producer, name=f"{name}-produce", daemon=True),
               threading.Thread(target=consumer, name=f"{name}-sink", daemon=True)]
    for t in threads:
        t.start()
    try:
        while True:
            item, waited = run.get(run.parsed)
            run.starved_s += waited
            if item is _END:
                run.blocked_s += run.put(run.done, _END)
                break
            result = middle(item)
            run.blocked_s += run.put(run.done, result)
        # the sink finishes what it holds, unless a stage fails meanwhile
        while threads[1].is_alive():
            threads[1].join(_POLL_S)
    except _Stopped:
        pass
    except BaseException as e:
        run.fail(e)
    finally:
        for t in threads:
            t.join()
    if run.error is not None:
        raise run.error
    return run
