"""Game clocks as pure arithmetic: times are passed in, nothing reads the time.

A :class:`GameClock` keeps each side's time left and which side's clock runs,
since when. The room calls :meth:`~GameClock.start` when a game starts,
:meth:`~GameClock.move` when the side to move plays, :meth:`~GameClock.stop` when
the game ends, and asks :meth:`~GameClock.deadline` when the running side flags.

Two kinds (``boardroom.shared.protocol.messages.Clock``):

- ``per_move``: every move must come within ``per_move`` seconds of the
  previous one (or of the start); the next mover gets the full time again.
- ``increment`` (Fischer): each side starts with ``initial`` seconds, the time a
  move takes is charged to its side, and ``increment`` is added after each move.

A clock may be *paused*: a side is to move but no time runs (after a restart,
until the room is resumed). Times are in seconds, shown in whole milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import (
    Clock,
    ClockState,
)


@dataclass
class GameClock:
    """Both sides' time for one game (see the module docstring).

    ``left[side]`` is the time the side had when its clock last started (or
    stopped); while it runs, the time left now is ``left - (now - since)``.
    """

    clock: Clock
    left: dict[Player, float] = field(default_factory=dict)
    running: Player | None = None
    since: float | None = None
    """When the running clock started; None while stopped or paused."""

    def __post_init__(self) -> None:
        if not self.left:
            full = self.full_time
            self.left = {Player.FIRST: full, Player.SECOND: full}

    @classmethod
    def for_clock(cls, clock: Clock) -> GameClock | None:
        """A fresh clock for ``clock``; None when the room plays without one."""
        return None if clock.kind == "none" else cls(clock)

    @property
    def full_time(self) -> float:
        """A side's time at the start: ``per_move`` or ``initial`` seconds."""
        seconds = self.clock.per_move if self.clock.kind == "per_move" else self.clock.initial
        if seconds is None:
            raise ValueError(f"a {self.clock.kind} clock needs its time in seconds")
        return seconds

    def start(self, side: Player, now: float | None) -> None:
        """Run ``side``'s clock from ``now`` (None: leave it paused)."""
        if self.clock.kind == "per_move":
            self.left[side] = self.full_time
        self.running = side
        self.since = now

    def resume(self, now: float) -> None:
        """Restart a paused clock from ``now``; the paused time is not charged."""
        if self.running is not None and self.since is None:
            self.since = now

    def time_left(self, side: Player, now: float) -> float:
        """Seconds ``side`` has at ``now`` (never below zero)."""
        left = self.left[side]
        if side == self.running and self.since is not None:
            left -= now - self.since
        return max(0.0, left)

    def deadline(self) -> float | None:
        """When the running side flags; None if no clock runs."""
        if self.running is None or self.since is None:
            return None
        return self.since + self.left[self.running]

    def move(self, now: float) -> float:
        """The running side moved at ``now``: charge it, start the other side.

        Returns the seconds the mover had left when it moved (before any
        increment). The caller checks :meth:`deadline` first: a move at or after
        the flag is a loss on time, not a move.
        """
        mover = self.running
        if mover is None:
            raise RuntimeError("no clock is running: a move needs a game in progress")
        spent = self.time_left(mover, now)
        if self.clock.kind == "increment":
            self.left[mover] = spent + self.clock.increment
        else:
            self.left[mover] = self.full_time  # shown full until its next turn starts
        self.start(mover.other, now)
        return spent

    def stop(self, now: float) -> None:
        """Stop the running clock at ``now``, charging the time since it started."""
        if self.running is not None:
            self.left[self.running] = self.time_left(self.running, now)
        self.running = None
        self.since = None

    def state(self, now: float) -> ClockState:
        """The clocks as the wire shows them at ``now``."""
        return ClockState(
            first_ms=_ms(self.time_left(Player.FIRST, now)),
            second_ms=_ms(self.time_left(Player.SECOND, now)),
            running=self.running,
        )


def _ms(seconds: float) -> int:
    # round, not floor: 292.0 s minus float noise must still show 292000 ms.
    return round(seconds * 1000)
