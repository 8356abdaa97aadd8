"""The worker processes of one run, seen from the main process.

:class:`WorkerPool` starts them (``spawn``: a fresh interpreter each, nothing
inherited but the plan), waits until each is ready, gives them all the same
:class:`~boardroom.client.loadtest.worker.Timing`, collects their snapshots, and makes sure
none outlives the run. See :mod:`boardroom.client.loadtest.worker` for what crosses the
queues.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import queue
import time
from collections import deque
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from typing import Any

from boardroom.client.loadtest.errors import CannotRunError
from boardroom.client.loadtest.stats import WorkerStats
from boardroom.client.loadtest.worker import (
    Failed,
    Ready,
    Snapshot,
    StopNow,
    Timing,
    WorkerPlan,
    worker_main,
)

START_TIMEOUT = 60.0
"""Seconds for every worker to start: each imports the client package afresh,
which takes a second or two on a loaded laptop."""
JOIN_TIMEOUT = 10.0
"""Seconds a worker may take to exit once it has sent its final snapshot."""
POLL_INTERVAL = 0.05
RATE_SPAN = 2.0
"""Seconds over which the live moves-a-second figure is taken."""


class WorkerPool:
    """The workers of one run (use :meth:`start`, :meth:`begin`, then poll
    :meth:`collect` until :attr:`finished`; :meth:`close` always)."""

    def __init__(self, plans: list[WorkerPlan]) -> None:
        context = multiprocessing.get_context("spawn")
        self._results: Queue[Any] = context.Queue()
        self._commands: list[Queue[Any]] = [context.Queue() for _ in plans]
        self._processes: list[BaseProcess] = [
            context.Process(
                target=worker_main,
                args=(plan, commands, self._results),
                name=f"loadtest-worker-{plan.index}",
                daemon=True,  # never outlive the main process, whatever happens to it
            )
            for plan, commands in zip(plans, self._commands, strict=True)
        ]
        self.latest: dict[int, WorkerStats] = {}
        """Each worker's latest stats."""
        self.final: set[int] = set()
        """Workers whose final snapshot has come."""
        self.event_loops: set[str] = set()
        self._moves: dict[int, deque[tuple[float, int]]] = {}
        """Each worker's recent (snapshot time, moves so far), for the live rate."""

    @property
    def size(self) -> int:
        return len(self._processes)

    @property
    def finished(self) -> bool:
        """True once every worker has sent its final snapshot."""
        return len(self.final) == self.size

    def merged(self) -> WorkerStats:
        """The sum of every worker's latest stats."""
        return WorkerStats.merged(list(self.latest.values()))

    def recent_rate(self) -> float:
        """Moves (or round trips) a second over the last :data:`RATE_SPAN` seconds,
        from each worker's own snapshot times (the main process's clock would
        divide counts taken a second apart by a span that is not theirs)."""
        rate = 0.0
        for history in self._moves.values():
            (first_at, first), (last_at, last) = history[0], history[-1]
            if last_at > first_at:
                rate += (last - first) / (last_at - first_at)
        return rate

    async def start(self) -> None:
        """Start every worker and wait until each is ready. Raises
        :class:`CannotRunError` if one fails or stays silent."""
        for process in self._processes:
            process.start()
        ready: set[int] = set()
        deadline = time.monotonic() + START_TIMEOUT
        while len(ready) < self.size:
            for message in self._drain():
                if isinstance(message, Ready):
                    ready.add(message.index)
                    self.event_loops.add(message.event_loop)
            if time.monotonic() > deadline:
                raise CannotRunError(
                    f"{self.size - len(ready)} of {self.size} load workers did not start "
                    f"within {START_TIMEOUT:g} s"
                )
            await asyncio.sleep(POLL_INTERVAL)

    def begin(self, timing: Timing) -> None:
        """Give every worker the run's moments."""
        for commands in self._commands:
            commands.put(timing)

    def stop_now(self) -> None:
        """Ask every worker to end the run now (as at the deadline)."""
        for commands in self._commands:
            with contextlib.suppress(ValueError, OSError):  # a queue already closed
                commands.put(StopNow())

    def collect(self) -> None:
        """Take in what the workers sent since the last call. Raises
        :class:`CannotRunError` if a worker failed or died."""
        for message in self._drain():
            if isinstance(message, Snapshot):
                self.latest[message.index] = message.stats
                history = self._moves.setdefault(message.index, deque())
                history.append((message.at, message.stats.moves))
                while history[0][0] < message.at - RATE_SPAN:
                    history.popleft()
                if message.final:
                    self.final.add(message.index)
        for index, process in enumerate(self._processes):
            if index not in self.final and process.exitcode is not None:
                raise CannotRunError(f"load worker {index} died (exit status {process.exitcode})")

    async def close(self) -> None:
        """Have the workers end their run (at once, if it is not over: the run is
        being abandoned) and exit; terminate those that do not. Always call."""
        for commands in self._commands:
            with contextlib.suppress(ValueError, OSError):
                commands.put(StopNow())
                commands.put(None)
        deadline = time.monotonic() + JOIN_TIMEOUT
        while any(p.is_alive() for p in self._processes) and time.monotonic() < deadline:
            await asyncio.sleep(POLL_INTERVAL)
        for process in self._processes:
            if process.is_alive():
                process.terminate()
            process.join(timeout=5)
        for channel in (self._results, *self._commands):
            channel.close()
            channel.cancel_join_thread()  # nobody reads these any more

    def _drain(self) -> list[object]:
        messages: list[object] = []
        while True:
            try:
                message = self._results.get_nowait()
            except queue.Empty:
                break
            if isinstance(message, Failed):
                raise CannotRunError(f"load worker {message.index} failed:\n{message.error}")
            messages.append(message)
        return messages
