"""The live display of a run, on stderr (the report goes to stdout).

On a terminal, one line rewritten in place a few times a second; otherwise (a
log file, CI) a plain line every :data:`PLAIN_INTERVAL` seconds, so a log shows
the run's course without drowning in it.
"""

from __future__ import annotations

import shutil
import time
from typing import TextIO

from boardroom.client.loadtest.metrics_probe import ServerReading, lag_between
from boardroom.client.loadtest.options import Mode
from boardroom.client.loadtest.stats import WorkerStats

PLAIN_INTERVAL = 5.0
"""Seconds between progress lines when stderr is not a terminal."""
TTY_INTERVAL = 0.25


_Seen = tuple[WorkerStats, float, ServerReading | None, ServerReading | None]
"""What :meth:`Progress.update` was given last."""


class Progress:
    """Contract: :meth:`begin` at the start of each phase, :meth:`update` as often
    as convenient (it writes only when a line is due), :meth:`end` after it."""

    def __init__(self, stream: TextIO, *, tty: bool | None = None) -> None:
        self.stream = stream
        self.tty = stream.isatty() if tty is None else tty
        self._interval = TTY_INTERVAL if self.tty else PLAIN_INTERVAL
        self._kind = "server"
        self._mode: Mode = "rooms"
        self._planned = 0
        self._window_start = 0.0
        self._deadline = 0.0
        self._last_written = 0.0
        self._line_open = False
        self._last_seen: _Seen | None = None

    def begin(
        self, kind: str, mode: Mode, planned: int, window_start: float, deadline: float
    ) -> None:
        """A phase starts: ``planned`` connections, measured from ``window_start``
        to ``deadline`` (``time.monotonic()`` values)."""
        self._kind, self._mode, self._planned = kind, mode, planned
        self._window_start, self._deadline = window_start, deadline
        self._last_written = 0.0

    def update(
        self,
        stats: WorkerStats,
        rate: float,
        latest: ServerReading | None,
        window_start: ServerReading | None,
    ) -> None:
        """The run so far: ``stats`` summed over the workers, moves (or round trips)
        a second lately, and the server's latest and window-start readings."""
        now = time.monotonic()
        self._last_seen = (stats, rate, latest, window_start)
        if now - self._last_written < self._interval:
            return
        self._last_written = now
        self._write(self.line(stats, rate, latest, window_start, now))

    def end(self) -> None:
        """Finish the phase's display: the last line stays (and a log gets the
        final state, whenever the last plain line was written)."""
        if self._last_seen is not None and (self.tty or self._last_written < time.monotonic()):
            self._write(self.line(*self._last_seen, time.monotonic()))
        if self._line_open:
            self.stream.write("\n")
            self.stream.flush()
            self._line_open = False
        self._last_seen = None

    def line(
        self,
        stats: WorkerStats,
        rate: float,
        latest: ServerReading | None,
        window_start: ServerReading | None,
        now: float,
    ) -> str:
        """The progress line for ``stats`` at ``now``."""
        if now < self._window_start:
            stage = f"ramp-up {max(0.0, self._window_start - now):4.1f}s left"
        elif now < self._deadline:
            total = self._deadline - self._window_start
            stage = f"measuring {now - self._window_start:5.1f}/{total:g}s"
        else:
            stage = "finishing"
        parts = [f"[{self._kind}] {stage}", f"conns {stats.connections_open:,}/{self._planned:,}"]
        if self._mode != "idle":
            noun = "round trips/s" if self._mode == "echo" else "moves/s"
            parts.append(f"{noun} {rate:,.0f}")
            p99 = stats.move_latency.percentile(99)
            if p99 is not None:
                parts.append(f"p99 {p99 * 1000:.1f} ms")
        if self._mode == "rooms":
            parts.append(f"games {stats.games_finished:,}")
            if stats.games_lost:
                parts.append(f"lost {stats.games_lost:,}")
        parts.append(f"errors {sum(stats.errors.values()) + sum(stats.connect_errors.values())}")
        parts.append(f"drops {sum(stats.disconnects.values())}")
        if latest is not None and latest.rss_bytes is not None:
            server = f"server {latest.rss_bytes / 1e6:,.0f} MB"
            if window_start is not None and latest.at > window_start.at:
                lag = lag_between(window_start, latest).p99_upper_ms
                if lag is not None:
                    server += f", lag p99 <= {lag:g} ms"
            parts.append(server)
        return "  ".join(parts)

    def _write(self, line: str) -> None:
        if self.tty:
            width = shutil.get_terminal_size().columns
            self.stream.write("\r" + line[: max(20, width - 1)] + "\x1b[K")
            self._line_open = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
