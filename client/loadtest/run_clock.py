"""The timeline of a run, as one worker process lives it.

A run has three moments, given as ``time.monotonic()`` values: ``start`` (the
ramp-up begins: connections open at a bounded rate), ``window_start`` (every
connection should be open: rates and latencies are measured from here) and
``deadline`` (time is up: no new move is sent, and the games still in progress
are cut short). On one machine every process reads the same monotonic clock, so
the main process can set these moments for all its workers at once.
"""

from __future__ import annotations

import asyncio
import time


class RunClock:
    """The run's moments in this process, and waits that end early when time is up.

    Use only from the event loop's thread. :meth:`stop` brings the deadline
    forward to now (the main process asked to stop, say after a Ctrl-C).
    """

    def __init__(self, start: float, window_start: float, deadline: float) -> None:
        """ValueError unless ``start <= window_start <= deadline``."""
        if not start <= window_start <= deadline:
            raise ValueError(
                f"the run's moments are out of order: start {start}, window "
                f"{window_start}, deadline {deadline}"
            )
        self.start = start
        self.window_start = window_start
        self.deadline = deadline
        self._stopped = asyncio.Event()

    @property
    def over(self) -> bool:
        """True once the deadline has passed (or :meth:`stop` was called)."""
        return time.monotonic() >= self.deadline

    def in_window(self, at: float) -> bool:
        """Whether the moment ``at`` falls in the measured window."""
        return self.window_start <= at <= self.deadline

    def stop(self) -> None:
        """End the run now: the deadline becomes now, and every wait returns."""
        self.deadline = min(self.deadline, time.monotonic())
        self._stopped.set()

    async def pause_until(self, when: float) -> bool:
        """Sleep until ``when`` or the deadline, whichever comes first; True if the
        run goes on after the pause (False: time is up)."""
        delay = min(when, self.deadline) - time.monotonic()
        if delay > 0:
            try:
                async with asyncio.timeout(delay):
                    await self._stopped.wait()
            except TimeoutError:
                pass
        # By the limits, not the clock now: a timer may fire a little early (uvloop's
        # have millisecond resolution). A stop brings the deadline to now, before when.
        return when < self.deadline

    async def pause(self, seconds: float) -> bool:
        """:meth:`pause_until` ``seconds`` from now."""
        return await self.pause_until(time.monotonic() + seconds)

    async def wait_over(self) -> None:
        """Return once time is up."""
        await self.pause_until(self.deadline)
