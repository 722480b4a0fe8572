"""One background thread that does slow jobs (a tune, a sentence) one after another.

The table runs on an asyncio loop that must never wait for a sound to finish. Callers hand a
job to a `Worker` and return at once; the worker's daemon thread runs the jobs in order. A job
marked `replaceable` (the sign of a roll, say) that is still waiting when a newer job arrives is
dropped: at a fast pace the sounds keep up with the table instead of trailing behind it. At
most WAITING_KEPT jobs wait; beyond that the oldest waiting one is dropped, so a table that
runs ahead of its sounds for hours neither fills the memory nor is heard hours late.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from drivers.errors import DriverClosedError

log = logging.getLogger(__name__)

Job = Callable[[], None]
WAITING_KEPT = 16  # jobs that may wait: a game over with every sentence fits many times


@dataclass(frozen=True)
class _Waiting:
    job: Job
    replaceable: bool


class Worker:
    """Runs submitted jobs in order on one daemon thread named `name`."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._waiting: deque[_Waiting] = deque()
        self._busy = False
        self._closed = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def submit(self, job: Job, *, replaceable: bool = False) -> None:
        """Queue `job`; waiting replaceable jobs give way to it."""
        with self._changed:
            if self._closed:
                raise DriverClosedError(f"the {self._name} is closed")
            kept = [waiting for waiting in self._waiting if not waiting.replaceable]
            self._waiting = deque([*kept, _Waiting(job, replaceable)], maxlen=WAITING_KEPT)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._changed.notify_all()

    def wait_until_idle(self, timeout: float | None = None) -> bool:
        """Wait until every job has run; True if that happened within `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(self._idle, timeout)

    def close(self) -> None:
        """Drop the waiting jobs and stop once the running one returns (its owner cuts it
        short); calling it again does nothing."""
        with self._changed:
            self._closed = True
            self._waiting.clear()
            self._changed.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def _idle(self) -> bool:
        return not self._waiting and not self._busy

    def _run(self) -> None:
        while True:
            with self._changed:
                self._changed.wait_for(lambda: self._waiting or self._closed)
                if self._closed:
                    self._changed.notify_all()
                    return
                job = self._waiting.popleft().job
                self._busy = True
            try:
                job()
            except Exception as error:  # a sound that fails must not silence the next ones
                log.warning("the %s failed: %s", self._name, error)
            finally:
                with self._changed:
                    self._busy = False
                    self._changed.notify_all()
