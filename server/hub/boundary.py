"""What the hub shows the features built on it: the events they hear, the rooms they read.

Class mode (:mod:`boardroom.server.classroom`) and tournaments (:mod:`boardroom.server.tournaments`)
never hold a live :class:`~boardroom.server.core.room.Room` or the hub's lobby. They

- **subscribe** to the hub's one stream of events
  (:meth:`GameServer.subscribe <boardroom.server.hub.GameServer.subscribe>`): each event is
  a frozen value, :data:`HubEvent`, and every subscriber hears every event, so
  a second feature cannot silently take the first one's place;
- **read** rooms as :class:`RoomInfo` snapshots, taken when asked and never
  changed after (:meth:`GameServer.room_info <boardroom.server.hub.GameServer.room_info>`,
  :meth:`~boardroom.server.hub.GameServer.rooms`).

The events (:data:`HubEvent`) and when the hub publishes each::

    SessionWelcomed   a hello was welcomed (after the state of each room it resumed)
    GameStarted       a room's game started, once stored       (boardroom.server.core.room_output)
    GameFinished      a room's game ended, once stored         (boardroom.server.core.room_output)
    RoomDropped       the hub let a room go (emptied or closed), once out of the lobby;
                      ``lost`` when its game could not be stored past the outage
                      limit (``storage_lost``): a game that never ended
    PauseChanged      the teacher pauses or resumes every room, before the rooms are
    PlayerRemoved     the teacher removed a player from the class, or revoked its
                      token: once, after the rooms let each of its sessions go

Deciding whether a hello is welcome is not an event: it is a check the hub
awaits and that may refuse (:meth:`GameServer.add_hello_check
<boardroom.server.hub.GameServer.add_hello_check>`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

import msgspec

from boardroom.server.core.lobby import RoomCodes, RoomPage
from boardroom.server.core.players import PlayerId
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import Room
from boardroom.server.core.room_output import ClientId, GameFinished, GameStarted, RoomStatus
from boardroom.server.core.sessions import Session
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import (
    ClientMessage,
    RoomState,
    RoomSummary,
)

# Named as before the hub became a package: operators' log filters keep working.
logger = logging.getLogger("boardroom.server.hub_boundary")


@dataclass(frozen=True, slots=True)
class RoomInfo:
    """One room as it was when the hub was asked: a copy, never the live room."""

    state: RoomState
    """The room as a spectator sees it: game, status, paused, seats (names,
    kinds, connected), moves, result and game number."""
    join_code: str | None
    """A private room's join code, which a spectator's ``state`` leaves out."""
    taken: frozenset[Player]
    """The sides someone holds: a person, a bot or the server AI, connected or held."""
    holders: Mapping[Player, ClientId]
    """The session holding each side a client holds (connected or held; not the AI)."""
    spectators: int
    game_players: Mapping[Player, str]
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
        holders: dict[Player, ClientId] = {}
        for side in Player:
            holder = room.seat_holder(side)
            if holder is not None:
                holders[side] = holder[0]
        return cls(
            state=msgspec.structs.replace(room.state_for(None, now=now), game_id=game_id),
            join_code=room.options.join_code,
            taken=frozenset(side for side in Player if room.is_taken(side)),
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
    lobby. ``room`` is how it was then, with its last game. ``lost``: the room
    was closed because its game could not be stored for longer than the
    server's ``storage_outage_limit`` (``storage_lost``): that game ended with no
    result, its end never stored nor announced (no :class:`GameFinished`), and
    its members were sent ``room_closed`` (``kind`` ``storage_lost``)."""

    room: RoomInfo
    lost: bool = False


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
refuse it (:meth:`GameServer.add_hello_check <boardroom.server.hub.GameServer.add_hello_check>`)."""

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


class SessionRecord(msgspec.Struct, frozen=True):
    """Who a session is, as another process of a cluster needs to know it to act
    for it: everything but its connection and its rooms."""

    id: str
    name: str
    kind: PlayerKind
    watch_only: bool = False
    player: str | None = None
    search_info: bool = False

    @classmethod
    def of(cls, session: Session) -> SessionRecord:
        return cls(
            id=session.id,
            name=session.name,
            kind=session.kind,
            watch_only=session.watch_only,
            player=session.player,
            search_info=session.search_info,
        )


class RoomsElsewhere(Protocol):
    """The rooms of the other processes of a cluster (:mod:`boardroom.server.cluster`), as
    the hub asks about them. A hub without one (one process) holds every room.

    The hub asks only after looking at its own rooms first, so a room it holds
    never costs a trip to the cluster."""

    async def forward(
        self, session: Session, token: str, address: str, message: ClientMessage
    ) -> bool:
        """Send ``message`` (a join, watch, quick match or room request that no
        room here takes) to the process whose room takes it, on behalf of the
        session whose ``token`` it is, connected from ``address``; True if it
        went, False if no other process holds such a room (the hub then answers
        as it would alone)."""
        ...

    async def public_page(self, game: str | None, offset: int, limit: int) -> RoomPage:
        """A page of the public rooms of the whole cluster, in the lobby's order."""
        ...

    async def claim_codes(self, codes: RoomCodes, *, restored: bool = False) -> bool:
        """Take ``codes`` for a new room here; False if another process has one
        of them. A ``restored`` room's codes are its own: they are taken whatever
        the directory says."""
        ...

    async def release_codes(self, codes: RoomCodes) -> None:
        """Give back codes claimed for a room that did not open."""
        ...

    async def recall(self, token: str) -> SessionRecord | None:
        """The session that ``token`` opened on any process of the cluster; None if none."""
        ...

    async def rooms_elsewhere(self, session: Session, token: str) -> list[str] | None:
        """The rooms of other processes where the session holds a seat, now that
        it resumes here with ``token``: they send it their news here from now
        on, once :meth:`welcomed` says the welcome went.

        May wait (a few seconds at most) while a process that could hold its
        seats is dead or silent and its rooms not yet taken over: a welcome
        without them would lose the seats. None when that takeover did not come
        within the wait: the hub then closes the connection with 1013 (try
        again later), and the client resumes again."""
        ...

    def welcomed(self, session: Session, token: str, address: str) -> None:
        """The session, connected from ``address``, was welcomed on this process."""

    def disconnected(self, session: Session) -> None:
        """The session's connection to this process closed."""

    def room_changed(self, code: str, summary: RoomSummary | None, quick_open: bool) -> None:
        """A room of this process opened or changed: its line of the public list
        (None for a private room) and whether it is a quick-match room waiting
        for its second player."""

    def room_dropped(self, code: str) -> None:
        """A room of this process is gone."""
