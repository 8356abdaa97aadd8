"""What a ``boardroom bot`` run is asked to play, and how it fails.

Contract: :class:`Entry` is the way into games (join, quick match, create, or a
tournament's matches) and the request that gets a seat; :class:`RunOptions` how
many games, how many at once and how long to wait; :class:`RunError` ends a run
that cannot go on, with the exit status the command line returns. Plain data,
no I/O; all of it is importable from :mod:`boardroom.client.bots.runner` too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from boardroom.client.errors import ClientError, RequestRefusedError
from boardroom.client.refusals import refusal_text
from boardroom.shared.i18n import N_, _
from boardroom.shared.protocol.messages import (
    ClientMessage,
    Clock,
    CreateRoom,
    Join,
    Level,
    QuickMatch,
)

__all__ = [
    "DEFAULT_WAIT",
    "USER_INPUT_CODES",
    "Entry",
    "RunError",
    "RunOptions",
    "entry_refused",
]

USER_INPUT_CODES = frozenset(
    {"unknown_room", "unknown_game", "bad_options", "invalid_field", "bad_level"}
)
"""Refusals of the way in that say the user typed something wrong (exit status 2)."""
DEFAULT_WAIT = 300.0
"""Seconds a seat waits for its game to start (``--wait``): long enough for a
person to read a room code out and type it, short enough that a bot left alone
(its opponent gone, or asking for fewer games) does not wait for ever."""


@dataclass(frozen=True)
class Entry:
    """The way into games: ``join`` a room by ``code``, ``quick`` match,
    ``create`` a room for ``game`` (with ``clock``, and the server AI opposite at
    ``ai_level``), or wait for the ``tournament``'s matches."""

    kind: Literal["join", "quick", "create", "tournament"]
    code: str | None = None
    game: str | None = None
    ai_level: Level | None = None
    clock: Clock = field(default_factory=Clock)

    def request(self) -> ClientMessage:
        """The message that gets a seat (a tournament's come in its matches)."""
        assert self.kind != "tournament"
        if self.kind == "join":
            assert self.code is not None
            return Join(code=self.code)
        assert self.game is not None
        if self.kind == "quick":
            return QuickMatch(game=self.game)
        return CreateRoom(game=self.game, clock=self.clock, ai_level=self.ai_level)


@dataclass(frozen=True)
class RunOptions:
    """What to play: ``games`` in all (0: until stopped), ``parallel`` at once;
    ``move_timeout``: seconds a bot gets per move in a room without a clock;
    ``wait``: seconds a seat waits for a game to start (an opponent to sit down,
    or to agree to a rematch) before the run gives up (0: for ever; a tournament
    waits for its matches until stopped, and the server rules on no-shows)."""

    entry: Entry
    games: int = 1
    parallel: int = 1
    move_timeout: float = 30.0
    wait: float = DEFAULT_WAIT


class RunError(ClientError):
    """The run cannot go on: the way in was refused, or the session ended.
    ``exit_status``: 2 when the user's input was at fault, else 1."""

    def __init__(self, message: str, *, exit_status: int = 1) -> None:
        super().__init__(message)
        self.exit_status = exit_status


def entry_refused(entry: Entry, refusal: RequestRefusedError) -> str:
    """What the user reads when the way in was refused."""
    what = {
        "join": N_("cannot join {code}: {message} ({refusal})"),
        "quick": N_("no quick match for {game}: {message} ({refusal})"),
        "create": N_("cannot create a {game} room: {message} ({refusal})"),
    }[entry.kind]
    return _(
        what,
        code=entry.code,
        game=entry.game,
        message=refusal_text(refusal),
        refusal=refusal.code,
    )
