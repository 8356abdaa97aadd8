"""The teacher's hold on a room in class mode: the pause, the hints switch, closing.

:class:`ClassControls` is the part of a :class:`~boardroom.server.core.room.Room` that
:mod:`boardroom.server.classroom` drives: whether the room is paused (since when),
whether hints are allowed, whether the room is closed. The room applies what
they mean to its seats, its game and its AI.

While the room is *paused* (:meth:`Room.pause <boardroom.server.core.room.Room.pause>`,
until :meth:`Room.resume <boardroom.server.core.room.Room.resume>`):

- nothing is timed: no clock runs (``state`` shows ``paused`` and
  ``clocks.running`` null, so clients stop counting down; :func:`hold_clock`)
  and no grace window ends. On resume the clock runs on from where it stopped,
  and each held seat gets back what was left of its window (a seat dropped
  during the pause gets a whole window from the resume): a pause makes nobody
  lose;
- moves, draw offers and answers, resigning, and leaving a game in progress
  are refused with ``paused`` (:meth:`ClassControls.require_unpaused`);
  joining, watching, chat, ``get_state`` and leaving between games work as
  usual. A game may still start (both seats taken, a rematch): it starts paused;
- the AI is not asked to move; an answer that was on its way when the pause
  came is kept and played at the resume (:mod:`boardroom.server.core.ai_turns`).

Hints (:meth:`Room.set_hints <boardroom.server.core.room.Room.set_hints>`, the teacher's
switch) are never allowed in an AI match. While they are off and a person or a
bot sits in the room, the AI's expected line is shown to nobody, not even a
spectator, who may be a classmate (or the player's own second tab).

The teacher's other inputs apply whether paused or not: :meth:`Room.remove
<boardroom.server.core.room.Room.remove>` resigns a removed player's game in progress
(aborted before the first move) and frees the seat, as leaving does;
:meth:`Room.close <boardroom.server.core.room.Room.close>` ends the game in progress with
no result and sends ``room_closed``. The ending is recorded as ``aborted``
whatever the moves: of the endings (:class:`~boardroom.shared.games.endings.Termination`),
it is the one that says nobody won and nobody was at fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from boardroom.server.core.clock import GameClock
from boardroom.server.core.room_draft import RefusedError
from boardroom.server.core.room_output import ClientId, Output, Recipient
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import ServerMessage


@dataclass
class ClassControls:
    """The teacher's switches on one room (see the module docstring)."""

    paused_at: float | None = None
    """When the teacher paused the room; None while it is not paused."""
    hints: bool = True
    """The teacher's hints switch (starts as ``RoomOptions.hints``)."""
    ai_match: bool = False
    """The room is an AI match, where no hint is ever given."""
    closed: bool = False

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    @property
    def hints_allowed(self) -> bool:
        """True while a player may ask for a hint here (never in an AI match)."""
        return self.hints and not self.ai_match

    def line_hidden(self, *, has_player: bool) -> bool:
        """True while the AI's expected line must not be shown to anyone here:
        hints are off and a person or a bot sits in the room (``has_player``)."""
        return not self.hints_allowed and has_player

    def require_unpaused(self, action: str) -> None:
        """RefusedError (``paused``) during a pause: nothing in a game changes then."""
        if self.paused:
            raise RefusedError(
                ErrorCode.PAUSED, f"the teacher paused the games: you can {action} once they resume"
            )

    def pause(self, now: float) -> bool:
        """Pause from ``now``; False if paused already (nothing changes)."""
        if self.paused_at is not None:
            return False
        self.paused_at = now
        return True

    def end_pause(self) -> float | None:
        """End the pause; when it began, or None if there was none."""
        paused_at, self.paused_at = self.paused_at, None
        return paused_at

    def switch_hints(self, allowed: bool) -> bool:
        """Allow hints or not; False if that changes nothing."""
        if allowed == self.hints:
            return False
        self.hints = allowed
        return True


def hold_clock(clock: GameClock, now: float) -> None:
    """Stop ``clock`` at ``now``, its side still to move: the held state that
    :meth:`GameClock.resume` runs on from (as after a restart)."""
    if clock.running is not None and clock.since is not None:
        clock.left[clock.running] = clock.time_left(clock.running, now)
        clock.since = None


def addressed_to_members(
    messages: Iterable[tuple[Recipient, ServerMessage]], audience: frozenset[ClientId]
) -> list[tuple[Recipient, ServerMessage]]:
    """``messages`` with each broadcast addressed to the ``audience`` it meant,
    one client at a time: a closed room has nobody left to broadcast to."""
    meant = Output(audience=audience)
    return [
        (client, message)
        for recipient, message in messages
        for client in sorted(meant.recipients(recipient))
    ]
