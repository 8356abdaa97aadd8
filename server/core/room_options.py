"""How a room plays: :class:`RoomOptions`, fixed for the room's life.

The options are read by every part of the room: the seats
(:mod:`~boardroom.server.core.seating`: who sits where, reserved seats, grace windows),
the game (:mod:`~boardroom.server.core.game_in_play`: the clock), the AI
(:mod:`~boardroom.server.core.ai_turns`: its pace) and the class controls
(:mod:`~boardroom.server.core.class_controls`: hints at the start).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import get_args

from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import (
    LEVELS,
    MAX_AI_PACE,
    Clock,
    Level,
    SeatChoice,
)

MAX_SPECTATOR_DELAY = 20
"""The most plies a tournament's spectators may be held back: past that they
would see little of a Connect Four game before its end."""

MAX_SPECTATOR_DELAY_SECONDS = 300.0
"""The most seconds a tournament's spectators may be held back: five minutes,
longer than most of a lesson's games."""


@dataclass(frozen=True, slots=True)
class RoomOptions:
    """How a room plays; fixed for its life. Raises ``ValueError`` (naming the
    option) for options that do not fit together: the server answers
    ``bad_options`` with its message."""

    public: bool = True
    creator_seat: SeatChoice = "first"
    """The first occupant's side as ``create_room`` asked for it (and as the store
    keeps it): read through :func:`~boardroom.shared.protocol.messages.chosen_seat`;
    ``random``: drawn when the first game starts."""
    clock: Clock = field(default_factory=Clock)
    grace_seconds: float = 60.0
    """How long a dropped player's seat is held."""
    join_code: str | None = None
    """Private code to take a seat (sent to seated players only)."""
    watch_code: str | None = None
    """Code to watch (sent to seated players only)."""
    tournament: bool = False
    """A tournament room (:mod:`boardroom.server.core.seating` states its rules)."""
    reserved_first: str | None = None
    """In a tournament room: the player (or the session) whose seat ``first`` is;
    None for the AI's side."""
    reserved_second: str | None = None
    """The same for ``second``."""
    ai_match: bool = False
    """An AI match: the server seats its AI in both seats, and people watch
    (:mod:`boardroom.server.core.ai_turns` states its rules)."""
    ai_pace: float = 0.0
    """Seconds at least between a move and the AI's answer to it (0: at once)."""
    hints: bool = True
    """Whether its players may ask for hints at the start (:meth:`Room.set_hints
    <boardroom.server.core.room.Room.set_hints>` changes it: the teacher's switch)."""
    spectator_delay: int = 0
    """In a tournament room: how many plies behind its spectators see the game
    while it is played, all but the live ones (the teacher's;
    :mod:`boardroom.server.core.spectator_delay` states the rules). 0: live."""
    spectator_delay_seconds: float = 0.0
    """In a tournament room: instead of plies, how many seconds behind its late
    spectators see the game (each move reaches them that long after it was
    made). 0: not by time. A room delays by plies or by seconds, not both."""
    autopilot: Level | None = None
    """The engine level that plays a seat whose grace window ran out in a game
    in play, until its player comes back (:mod:`boardroom.server.core.table`
    states the rules); None: the game is lost by abandonment, as before."""

    def __post_init__(self) -> None:
        clock = self.clock
        if clock.kind == "per_move" and clock.per_move is None:
            raise ValueError("clock: a per_move clock needs per_move (seconds per move)")
        if clock.kind == "increment" and clock.initial is None:
            raise ValueError("clock: an increment clock needs initial (seconds per side)")
        if not self.grace_seconds > 0:
            raise ValueError(f"grace_seconds={self.grace_seconds!r}: give more than 0 seconds")
        if self.creator_seat not in get_args(SeatChoice):
            raise ValueError(f"creator_seat={self.creator_seat!r}: choose first, second or random")
        reserved = (self.reserved_first, self.reserved_second)
        if not self.tournament and reserved != (None, None):
            raise ValueError("reserved seats: only a tournament room reserves its seats")
        if self.reserved_first is not None and self.reserved_first == self.reserved_second:
            raise ValueError("reserved seats: one player cannot hold both seats")
        if not 0 <= self.ai_pace <= MAX_AI_PACE:
            raise ValueError(f"pace={self.ai_pace!r}: give 0 to {MAX_AI_PACE:g} seconds")
        if not 0 <= self.spectator_delay <= MAX_SPECTATOR_DELAY:
            raise ValueError(
                f"spectator_delay={self.spectator_delay!r}: give 0 to {MAX_SPECTATOR_DELAY} plies"
            )
        if not 0 <= self.spectator_delay_seconds <= MAX_SPECTATOR_DELAY_SECONDS:
            raise ValueError(
                f"spectator_delay_seconds={self.spectator_delay_seconds!r}: "
                f"give 0 to {MAX_SPECTATOR_DELAY_SECONDS:g} seconds"
            )
        if (self.spectator_delay or self.spectator_delay_seconds) and not self.tournament:
            raise ValueError("spectator_delay: only a tournament room delays its spectators")
        if self.spectator_delay and self.spectator_delay_seconds:
            raise ValueError(
                "spectator_delay: a room delays its spectators by plies or by seconds, not both"
            )
        if self.autopilot is not None and self.autopilot not in LEVELS:
            raise ValueError(
                f"autopilot={self.autopilot!r}: choose one of {', '.join(LEVELS)}, or off"
            )
        if self.autopilot is not None:
            object.__setattr__(self, "autopilot", Level(self.autopilot))  # "hard" as a Level
        if self.ai_match and (self.clock.kind != "none" or self.tournament):
            raise ValueError("ai_match: an AI match has no clock and is no tournament game")

    def reserved_for(self, side: Player) -> str | None:
        """The player or session ``side`` is reserved for (tournament rooms); None
        if nobody's."""
        return self.reserved_first if side == Player.FIRST else self.reserved_second
