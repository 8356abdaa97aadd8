"""Idle connections: each says ``hello`` and holds until the run's deadline.

They measure what a connection costs the server when it does nothing (its memory,
mostly: a teacher's thirty students leave their clients open all lesson). The
server pings a silent connection every 20 s and the client library answers, so
an idle connection is not quite silent, as in real life.
"""

from __future__ import annotations

import asyncio

from boardroom.client.loadtest.connection import LoadClient
from boardroom.client.loadtest.errors import ConnectFailedError
from boardroom.client.loadtest.run_clock import RunClock
from boardroom.client.loadtest.stats import WorkerStats
from boardroom.shared.protocol.messages import Error


class IdleConnection:
    """One connection that opens, says hello, and holds (errors and drops counted)."""

    def __init__(
        self,
        url: str,
        name: str,
        stats: WorkerStats,
        clock: RunClock,
        handshakes: asyncio.Semaphore | None = None,
    ) -> None:
        """``handshakes``: held while connecting, to bound the handshakes in flight."""
        self.url = url
        self.handshakes = handshakes
        self.stats = stats
        self.clock = clock
        self.client = LoadClient(
            name, "idle", stats, on_frame=self._arrived, on_end=self._ended, pacer=None
        )

    async def hold(self) -> None:
        """Open now and hold until time is up; a connection that cannot be opened
        is counted by its reason and not tried again (nor is a dropped one)."""
        try:
            await self.client.open(self.url, self.handshakes)
        except ConnectFailedError as failure:
            self.stats.connect_errors[failure.reason] += 1
            return
        await self.clock.wait_over()

    async def close(self) -> None:
        await self.client.close()

    def _arrived(self, client: LoadClient, message: object, at: float) -> None:
        if isinstance(message, Error):
            self.stats.errors[message.code] += 1

    def _ended(self, client: LoadClient, code: int) -> None:
        pass  # counted by the client as a disconnect; an idle connection just stops
