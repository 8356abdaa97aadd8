"""What the hub shows the features built on it: the events they hear, the rooms they read.

Class mode (:mod:`server.classroom`) and tournaments (:mod:`server.tournaments`)
never hold a live :class:`~server.core.room.Room` or the hub's lobby. They

- **subscribe** to the hub's one stream of events
  (:meth:`GameServer.subscribe <server.hub.GameServer.subscribe>`): each event is
  a frozen value, :data:`HubEvent`, and every subscriber hears every event, so
  a second feature cannot silently take the first one's place;
- **read** rooms as :class:`RoomInfo` snapshots, taken when asked and never
  changed after (:meth:`GameServer.room_info <server.hub.GameServer.room_info>`,
  :meth:`~server.hub.GameServer.rooms`).

The events (:data:`HubEvent`) and when the hub publishes each::

    SessionWelcomed   a hello was welcomed (after the state of each room it resumed)
    GameStarted       a room's game started, once stored       (server.core.room_output)
    GameFinished      a room's game ended, once stored         (server.core.room_output)
    RoomDropped       the hub let a room go (emptied or closed), once out of the lobby
    PauseChanged      the teacher pauses or resumes every room, before the rooms are
    PlayerRemoved     the teacher removed a player from the class, or revoked its
                      token: once, after the rooms let each of its sessions go

Deciding whether a hello is welcome is not an event: it is a check the hub
awaits and that may refuse (:meth:`GameServer.add_hello_check
<server.hub.GameServer.add_hello_check>`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

import msgspec

from server.core.players import PlayerId
from server.core.room import Room
from server.core.room_output import ClientId, GameFinished, GameStarted, RoomStatus
from server.core.sessions import Session
from shared.protocol.messages import SIDES, RoomState, Side

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RoomInfo:
    """One room as it was when the hub was asked: a copy, never the live room."""

    state: RoomState
    """The room as a spectator sees it: game, status, paused, seats (names,
    kinds, connected), moves, result and game number."""
    join_code: str | None
    """A private room's join code, which a spectator's ``state`` leaves out."""
    taken: frozenset[Side]
    """The sides someone holds: a person, a bot or the server AI, connected or held."""
    holders: Mapping[Side, ClientId]
    """The session holding each side a client holds (connected or held; not the AI)."""
    spectators: int
    game_players: Mapping[Side, str]
    """Who played the current or last game, by side, named as when it started
    (empty before the first game; kept after they leave)."""
    closed: bool
    """True once the room was closed (by the teacher, a tournament's no-show...)."""

    @property
    def code(self) -> str:
        """The room code."""
        return self.state.code

    @property
    def status(self) -> RoomStatus:
        """``waiting``, ``playing`` or ``finished``."""
        return self.state.status

    @property
    def game_number(self) -> int:
        """The current (or last) game's number, from 1."""
        return self.state.game_number

    @classmethod
    def of(cls, room: Room, now: float, *, game_id: int | None = None) -> RoomInfo:
        """A snapshot of ``room`` at ``now`` (Unix seconds: the clocks it shows);
        ``game_id`` is its game's stored id, which the room itself does not know."""
        holders: dict[Side, ClientId] = {}
        for side in SIDES:
            holder = room.seat_holder(side)
            if holder is not None:
                holders[side] = holder[0]
        return cls(
            state=msgspec.structs.replace(room.state_for(None, now=now), game_id=game_id),
            join_code=room.options.join_code,
            taken=frozenset(side for side in SIDES if room.is_taken(side)),
            holders=holders,
            spectators=room.summary().spectators,
            game_players=room.game_players,
            closed=room.closed,
        )


@dataclass(frozen=True, slots=True)
class SessionWelcomed:
    """The session's ``hello`` (new or resumed) was welcomed, and the ``state``
    of each room it resumed was sent: what a listener sends arrives after them."""

    session: ClientId


@dataclass(frozen=True, slots=True)
class RoomDropped:
    """The hub let a room go (everyone left, or it was closed); it is out of the
    lobby. ``room`` is how it was then, with its last game."""

    room: RoomInfo


@dataclass(frozen=True, slots=True)
class PauseChanged:
    """Every room is being paused (``paused``) or resumed, at ``at`` (Unix seconds)."""

    paused: bool
    at: float


@dataclass(frozen=True, slots=True)
class PlayerRemoved:
    """The teacher removed the player from the class (``revoked`` False) or
    revoked its token: each of its live sessions (there may be none) has left
    every room, and its connection is closed."""

    player: PlayerId
    revoked: bool


HubEvent = SessionWelcomed | GameStarted | GameFinished | RoomDropped | PauseChanged | PlayerRemoved
"""Everything the hub tells its subscribers (see the module docstring)."""

HelloCheck = Callable[[Session], Awaitable[None]]
"""Decides whether a session's ``hello`` is welcome (new or resumed): raises to
refuse it (:meth:`GameServer.add_hello_check <server.hub.GameServer.add_hello_check>`)."""

HubListener = Callable[[HubEvent], None]
"""Hears every event, synchronously on the event loop: it must not block (it
starts a task for work that waits, as the tournament director does)."""


class EventStream:
    """The subscribers of one hub and the delivery of its events to them."""

    def __init__(self) -> None:
        self._listeners: list[HubListener] = []

    def subscribe(self, listener: HubListener) -> None:
        """``listener`` hears every event from now on, after those subscribed
        before it. Subscribing it again changes nothing."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def unsubscribe(self, listener: HubListener) -> None:
        """``listener`` hears nothing more; the others hear on. Changes nothing
        for a listener not subscribed."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def publish(self, event: HubEvent) -> None:
        """Hand ``event`` to every listener subscribed now, in order. A listener
        that raises is logged and the others still hear it: one feature's bug
        must not cost another its news, nor the room that caused the event."""
        for listener in tuple(self._listeners):
            try:
                listener(event)
            except Exception:
                logger.exception("a hub listener failed", extra={"event": type(event).__name__})
