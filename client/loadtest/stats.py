"""What a load test counts, in values that cross process boundaries and add up.

Each worker process keeps one :class:`WorkerStats` and sends copies of it to the
main process; :meth:`WorkerStats.merge` sums them into the run's figures. Latencies
go into a :class:`LatencyHistogram`: fixed logarithmic buckets, so a run of any
length keeps a bounded number of counts (no raw samples), two histograms merge by
adding counts, and a percentile read from it is within 1% of the true sample.

>>> histogram = LatencyHistogram()
>>> for ms in range(1, 101):
...     histogram.record(ms / 1000)
>>> round(histogram.percentile(50) * 1000, 1), round(histogram.percentile(99) * 1000, 1)
(50.1, 98.3)
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

BUCKET_GROWTH = 1.02
"""Each bucket is 2% wider than the one below it: reading a bucket as its geometric
middle is then off by at most 1%, with ~1,050 buckets from 1 µs to 1,000 s (only
those that hold a sample are stored)."""
SMALLEST_SECONDS = 1e-6
"""The lowest bucket's lower edge: no round trip through a socket is shorter."""
_LOG_GROWTH = math.log(BUCKET_GROWTH)


@dataclass
class LatencyHistogram:
    """Durations in seconds, counted in log buckets (see the module docstring).

    The count, the sum, and the exact least and greatest samples are kept too, so
    the mean and the maximum are exact; percentiles are within 1%.
    """

    buckets: dict[int, int] = field(default_factory=dict)
    count: int = 0
    total: float = 0.0
    least: float = math.inf
    greatest: float = 0.0

    def record(self, seconds: float) -> None:
        """Count one duration (negative ones, from clock noise, count as 0)."""
        seconds = max(0.0, seconds)
        index = _bucket_of(seconds)
        self.buckets[index] = self.buckets.get(index, 0) + 1
        self.count += 1
        self.total += seconds
        self.least = min(self.least, seconds)
        self.greatest = max(self.greatest, seconds)

    def merge(self, other: LatencyHistogram) -> None:
        """Add ``other``'s samples to these."""
        for index, count in other.buckets.items():
            self.buckets[index] = self.buckets.get(index, 0) + count
        self.count += other.count
        self.total += other.total
        self.least = min(self.least, other.least)
        self.greatest = max(self.greatest, other.greatest)

    def percentile(self, p: float) -> float | None:
        """The ``p``-th percentile (0 < p <= 100, nearest rank) in seconds; None
        before the first sample. ValueError for ``p`` out of range.

        The value is the middle of the bucket holding the sample of that rank,
        clamped to the least and greatest samples (so ``percentile(100)`` is the
        exact maximum).
        """
        if not 0 < p <= 100:
            raise ValueError(f"percentile must be more than 0 and at most 100, got {p}")
        if self.count == 0:
            return None
        rank = math.ceil(p / 100 * self.count)
        if rank >= self.count:
            return self.greatest
        seen = 0
        for index in sorted(self.buckets):
            seen += self.buckets[index]
            if seen >= rank:
                middle: float = SMALLEST_SECONDS * BUCKET_GROWTH ** (index + 0.5)
                return min(max(middle, self.least), self.greatest)
        return self.greatest  # unreachable while the counts add up to `count`

    @property
    def mean(self) -> float | None:
        """The exact mean in seconds; None before the first sample."""
        return self.total / self.count if self.count else None

    def summary_ms(self) -> dict[str, Any] | None:
        """``{count, mean, p50, p95, p99, max}`` in milliseconds (3 significant
        digits), for the report; None when nothing was recorded."""
        if self.count == 0:
            return None
        figures: dict[str, Any] = {"count": self.count}
        figures["mean"] = _ms(self.mean)
        for p in (50, 95, 99):
            figures[f"p{p}"] = _ms(self.percentile(p))
        figures["max"] = _ms(self.greatest)
        return figures


def _bucket_of(seconds: float) -> int:
    if seconds <= SMALLEST_SECONDS:
        return 0
    return int(math.log(seconds / SMALLEST_SECONDS) / _LOG_GROWTH)


def _ms(seconds: float | None) -> float | None:
    if seconds is None:
        return None
    ms = seconds * 1000
    if ms == 0:
        return 0.0
    # Three significant digits: the histogram is good to 1%, so more would be noise.
    return round(ms, max(0, 2 - math.floor(math.log10(abs(ms)))))


@dataclass
class WorkerStats:
    """One worker's counts since it started (all of them add up across workers).

    "In the window" means between the end of the ramp-up and the end of the run:
    rates and latencies are read there, when every connection is open.
    """

    connections_open: int = 0
    """Connections open now."""
    connections_peak: int = 0
    """Most connections open at once."""
    connections_opened: int = 0
    """Connections opened since the start (reconnections included)."""
    connections_at_deadline: int = 0
    """Connections open when the run's time was up."""
    connect_errors: Counter[str] = field(default_factory=Counter)
    """Connections that could not be opened, by short reason."""
    games_started: int = 0
    games_finished: int = 0
    games_cut_short: int = 0
    """Games in progress, and healthy, when the run's time was up."""
    games_lost: int = 0
    """Games that neither finished nor were cut short: a client was dropped, stuck
    waiting, or refused."""
    room_failures: Counter[str] = field(default_factory=Counter)
    """Why rooms gave up a game (``stalled``, ``closed 1006``, ``error stale_move``)."""
    moves: int = 0
    """Moves made (each ply once; the server AI's included) or echo round trips."""
    moves_in_window: int = 0
    ai_moves: int = 0
    move_latency: LatencyHistogram = field(default_factory=LatencyHistogram)
    """In the window: from sending a move to the opponent receiving ``moved`` (echo:
    the round trip)."""
    spectator_latency: LatencyHistogram = field(default_factory=LatencyHistogram)
    """In the window: from sending a move to a spectator receiving ``moved``."""
    ai_reply: LatencyHistogram = field(default_factory=LatencyHistogram)
    """In the window: from sending a move to receiving the server AI's answer."""
    errors: Counter[str] = field(default_factory=Counter)
    """``error`` messages received, by code."""
    disconnects: Counter[int] = field(default_factory=Counter)
    """Connections that ended without our asking, by close code (1006: no close frame)."""
    messages_received: int = 0
    undecodable: int = 0
    """Frames that were not a valid server message (a broken contract)."""
    cpu_seconds_in_window: float = 0.0
    """CPU time this worker process used in the window."""
    window_seconds: float = 0.0
    """Length of the window as this worker lived it (0 until it is over)."""

    def connection_opened(self) -> None:
        self.connections_open += 1
        self.connections_opened += 1
        self.connections_peak = max(self.connections_peak, self.connections_open)

    def connection_closed(self) -> None:
        self.connections_open -= 1

    def merge(self, other: WorkerStats) -> None:
        """Add ``other``'s counts to these. Peaks add up too: workers hold their
        connections at the same time."""
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, LatencyHistogram):
                mine.merge(value)
            elif isinstance(value, Counter):
                mine.update(value)
            elif name == "window_seconds":
                setattr(self, name, max(mine, value))
            else:
                setattr(self, name, mine + value)

    @classmethod
    def merged(cls, parts: list[WorkerStats]) -> WorkerStats:
        """A new total of ``parts``."""
        total = cls()
        for part in parts:
            total.merge(part)
        return total
