"""Who may hold a connection, as bookkeeping: the per-address cap and its refusals.

Pure, like :mod:`boardroom.server.core.limits`: no sockets, and times are passed in.
:mod:`boardroom.server.admission` asks an :class:`AddressGate` about every TCP connection
the server accepts and tells it of every one that closes, and it logs refusals
through a :class:`ReportThrottle` so that a flood of them makes a few lines.

An address under its cap is admitted. At the cap, one more connection is let in
to be told why (its request is answered with the refusal); any further one is
refused at once:

>>> gate = AddressGate(limit=1)
>>> [gate.enter("10.0.0.7").name for _ in range(3)]
['ADMIT', 'TELL', 'REFUSE']
>>> gate.leave("10.0.0.7", Verdict.TELL)
>>> gate.enter("10.0.0.7").name
'TELL'
"""

from __future__ import annotations

import enum
import math

from boardroom.server.core.limits import ConnectionCounter


class Verdict(enum.Enum):
    """What becomes of a new connection."""

    ADMIT = "admit"
    """Under the cap: counted against it until it closes, and served."""
    TELL = "tell"
    """At the cap: let in to be told why, and nothing more. One per address at a
    time, so a client over the cap learns the reason (``too_many_connections``)
    while a flood of connections still costs the server next to nothing."""
    REFUSE = "refuse"
    """At the cap, with one already being told: refused at once, unread."""


class AddressGate:
    """The per-address cap on open connections (see the module docstring).

    Every :meth:`enter` must be matched by one :meth:`leave` with the verdict it
    returned, when that connection closes.
    """

    def __init__(self, limit: int) -> None:
        """Raise ValueError unless ``limit`` is a whole number >= 1."""
        self._held = ConnectionCounter(limit)
        self._telling = ConnectionCounter(1)

    @property
    def limit(self) -> int:
        """Connections one address may hold at once."""
        return self._held.limit

    def enter(self, address: str) -> Verdict:
        """The verdict on a new connection from ``address``, counted as such."""
        if self._held.acquire(address):
            return Verdict.ADMIT
        if self._telling.acquire(address):
            return Verdict.TELL
        return Verdict.REFUSE

    def leave(self, address: str, verdict: Verdict) -> None:
        """A connection from ``address`` that got ``verdict`` has closed."""
        if verdict is Verdict.ADMIT:
            self._held.release(address)
        elif verdict is Verdict.TELL:
            self._telling.release(address)

    def held(self, address: str) -> int:
        """Admitted connections that ``address`` holds now."""
        return self._held.count(address)

    @property
    def addresses(self) -> int:
        """Addresses holding at least one admitted connection (what is remembered)."""
        return self._held.addresses


class ReportThrottle:
    """At most one report per key every ``window`` seconds, each with a count.

    :meth:`note` records one event for a key (an address) and says when to
    report it: the first event of a key at once, then the first event after
    ``window`` seconds have passed since the last report, with the number of
    events since that report (this one included). Events in between are only
    counted, so a flood of them makes one line a window.

    At most ``keys`` keys are remembered; past that the one reported longest ago
    is forgotten (with its count since), so memory stays bounded however many
    addresses take part.

    >>> throttle = ReportThrottle(window=60.0)
    >>> [throttle.note("10.0.0.7", now) for now in (0.0, 1.0, 2.0, 61.0, 62.0)]
    [1, None, None, 3, None]
    """

    def __init__(self, window: float, keys: int = 1024) -> None:
        """Raise ValueError unless ``window`` is finite and > 0 and ``keys`` >= 1."""
        if not 0 < window < math.inf:
            raise ValueError(f"window must be a finite number > 0, got {window!r}")
        if keys < 1:
            raise ValueError(f"keys must be at least 1, got {keys!r}")
        self._window = window
        self._keys = keys
        # key -> [time of its last report, events since]; in order of last report.
        self._reports: dict[str, list[float]] = {}

    def note(self, key: str, now: float) -> int | None:
        """Count one event for ``key`` at ``now``; return the count to report, or
        None while the key was reported less than ``window`` seconds ago."""
        report = self._reports.get(key)
        if report is not None and now - report[0] < self._window:
            report[1] += 1
            return None
        count = 1 if report is None else int(report[1]) + 1
        self._reports.pop(key, None)
        if len(self._reports) >= self._keys:
            del self._reports[next(iter(self._reports))]
        self._reports[key] = [now, 0]
        return count
