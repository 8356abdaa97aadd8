"""Pacing requests under the server's rate limit.

The server takes 20 messages a second per connection on average, in bursts of 40
(``docs/protocol.md``, Limits); a message over that is dropped with
``rate_limited``, and 50 of those within 10 s close the connection (4002). A bot
playing the AI answers in microseconds, so without pacing a client runs into the
limit within a second. :class:`Pacer` keeps a client just under it.
"""

from __future__ import annotations

import asyncio
import time

DEFAULT_PACE = (18.0, 30)
"""Requests a second on average, and in a burst, that a session sends at most: just
under the server's defaults (20 a second, bursts of 40)."""


class Pacer:
    """A token bucket: :meth:`wait` returns at most ``rate`` times a second on
    average, ``burst`` times at once after a quiet spell.

    >>> pacer = Pacer(rate=10.0, burst=2)
    >>> asyncio.run(pacer.wait()), pacer.tokens < 2
    (None, True)
    """

    def __init__(self, rate: float, burst: int, *, initial_tokens: float | None = None) -> None:
        """``initial_tokens``: messages in hand at the start (default a full burst)."""
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst if initial_tokens is None else initial_tokens)
        self._updated = time.monotonic()
        self._lock = asyncio.Lock()

    async def wait(self) -> None:
        """Return once a request may be sent (requests go out in the order they waited)."""
        async with self._lock:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self._updated) * self.rate)
            self._updated = now
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / self.rate)
                self.tokens = 1.0
                self._updated = time.monotonic()
            self.tokens -= 1
