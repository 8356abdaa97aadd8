"""The hub's one face: :class:`GameServer`, over its parts.

Each method hands its call to the part whose job it is (each documents the
contract): :class:`~boardroom.server.hub.rooms.Rooms` (the rooms and sessions, opening,
restoring, sweeping), :class:`~boardroom.server.hub.dispatch.Dispatcher` (client
messages), :class:`~boardroom.server.hub.class_controls.ClassControls` (the teacher's),
:class:`~boardroom.server.hub.tournament_rooms.TournamentRooms` and
:class:`~boardroom.server.hub.remote_sessions.RemoteSessions` (the cluster's).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Literal

from boardroom.server.config import ServerConfig
from boardroom.server.core.lobby import RoomPage
from boardroom.server.core.players import PlayerId
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room_caps import RoomCaps
from boardroom.server.core.room_output import ClientId
from boardroom.server.core.sessions import Outbox, Session
from boardroom.server.engine_pool import EnginePool
from boardroom.server.hub.boundary import (
    HelloCheck,
    HubListener,
    RoomInfo,
    RoomsElsewhere,
    SessionRecord,
)
from boardroom.server.hub.class_controls import ClassControls
from boardroom.server.hub.dispatch import Dispatcher, NameKeeper
from boardroom.server.hub.peer import Peer, PeerConnection
from boardroom.server.hub.remote_sessions import RemoteSessions
from boardroom.server.hub.rooms import Rooms
from boardroom.server.hub.tournament_rooms import TournamentRooms
from boardroom.server.metrics import ServerMetrics
from boardroom.server.player_directory import PlayerDirectory
from boardroom.server.recorder import GameRecorder
from boardroom.shared.games import Game
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    ROOMS_PAGE_DEFAULT,
    ClientMessage,
    Clock,
    Level,
    ServerMessage,
)
from boardroom.shared.protocol.room_closing import Closing
from boardroom.shared.protocol.tournament_ending import TournamentEnding


class GameServer:
    """Every session and room of one server (see :mod:`boardroom.server.hub`)."""

    def __init__(
        self,
        config: ServerConfig,
        *,
        recorder: GameRecorder,
        players: PlayerDirectory,
        engine: EnginePool,
        metrics: ServerMetrics,
        rng: Callable[[], random.Random] = random.Random,
    ) -> None:
        self._rooms = Rooms(config, recorder=recorder, engine=engine, metrics=metrics, rng=rng)
        self._class = ClassControls(self._rooms)
        self._dispatcher = Dispatcher(self._rooms, players, self._class.end_player)
        self._tournaments = TournamentRooms(self._rooms)
        self._remote = RemoteSessions(self._rooms, self._dispatcher)

    @property
    def config(self) -> ServerConfig:
        """The server's configuration."""
        return self._rooms.config

    @property
    def room_caps(self) -> RoomCaps:
        """Who opened which room, and the caps on the open ones (``too_many_rooms``)."""
        return self._rooms.room_caps

    @property
    def paused(self) -> bool:
        """True while the teacher has every game paused (rooms opened meanwhile
        open paused)."""
        return self._rooms.paused

    @property
    def hints(self) -> bool:
        """Whether players may ask for hints in new rooms and, once the teacher
        switches it (:meth:`set_hints`), in every room: off in class mode until
        the teacher turns them on, on elsewhere."""
        return self._rooms.hints

    @property
    def elsewhere(self) -> RoomsElsewhere | None:
        """The other processes' rooms, in a cluster (:mod:`boardroom.server.cluster` sets it
        before the server takes connections); None for a server alone."""
        return self._rooms.elsewhere

    @elsewhere.setter
    def elsewhere(self, elsewhere: RoomsElsewhere | None) -> None:
        self._rooms.elsewhere = elsewhere

    # -- life cycle (Rooms) -----------------------------------------------------------

    async def start(self, *, restore: Callable[[str], Awaitable[bool]] | None = None) -> int:
        """Restore the games in progress and start the sweeper (:meth:`Rooms.start`)."""
        return await self._rooms.start(restore=restore)

    async def restore_rooms(self, which: Callable[[str], Awaitable[bool]] | None = None) -> int:
        """Bring back the stored rooms ``which`` accepts (:meth:`Rooms.restore_rooms`)."""
        return await self._rooms.restore_rooms(which)

    async def stop(self) -> None:
        """Stop every room's timer and search, and the sweeper."""
        await self._rooms.stop()

    def sweep(self, now: float) -> None:
        """Drop stale room hints, then sessions idle past the grace (:meth:`Rooms.sweep`)."""
        self._rooms.sweep(now)

    # -- the boundary for features (boardroom.server.hub.boundary) ------------------------------

    def add_hello_check(self, check: HelloCheck) -> None:
        """Await ``check`` before each welcome (:meth:`Dispatcher.add_hello_check`)."""
        self._dispatcher.add_hello_check(check)

    def remove_hello_check(self, check: HelloCheck) -> None:
        """Stop asking ``check`` (nothing changes if it was not added)."""
        self._dispatcher.remove_hello_check(check)

    def keep_names(self, keeper: NameKeeper | None) -> None:
        """Let ``keeper`` name players (:meth:`Dispatcher.keep_names`)."""
        self._dispatcher.keep_names(keeper)

    def subscribe(self, listener: HubListener) -> None:
        """``listener`` hears every :data:`~boardroom.server.hub.boundary.HubEvent` from now
        on, beside every other subscriber (:class:`~boardroom.server.hub.boundary.EventStream`)."""
        self._rooms.events.subscribe(listener)

    def unsubscribe(self, listener: HubListener) -> None:
        """``listener`` hears nothing more; the other subscribers hear on."""
        self._rooms.events.unsubscribe(listener)

    def has_room(self, code: str) -> bool:
        """True while the hub holds the room with this room code."""
        return self._rooms.has_room(code)

    def room_info(self, code: str) -> RoomInfo | None:
        """The room with this room code as it is now; None if the hub holds none."""
        return self._rooms.room_info(code)

    def rooms(self) -> list[RoomInfo]:
        """Every room the hub holds, public and private, as it is now, oldest first."""
        return self._rooms.rooms()

    def public_rooms(
        self, game: str | None = None, *, offset: int = 0, limit: int = ROOMS_PAGE_DEFAULT
    ) -> RoomPage:
        """A page of the public rooms (:meth:`Rooms.public_rooms`)."""
        return self._rooms.public_rooms(game, offset=offset, limit=limit)

    async def lobby_page(
        self, game: str | None = None, *, offset: int = 0, limit: int = ROOMS_PAGE_DEFAULT
    ) -> RoomPage:
        """:meth:`public_rooms` of the whole cluster, or of this server alone."""
        return await self._rooms.lobby_page(game, offset=offset, limit=limit)

    def session_count(self) -> int:
        """How many sessions the hub holds: connected, or away within their grace."""
        return self._rooms.session_count()

    def session_name(self, session_id: ClientId) -> str | None:
        """The live session's name; None if no session has this id."""
        return self._rooms.session_name(session_id)

    def room_counts(self) -> dict[str, int]:
        """Rooms by status, for ``/metrics``."""
        return self._rooms.room_counts()

    # -- connections and their messages (Dispatcher) ----------------------------------

    async def handle(self, peer: Peer, message: ClientMessage) -> None:
        """Act on one decoded message; refusals go back as ``error``."""
        await self._dispatcher.handle(peer, message)

    def refuse(
        self,
        peer: Peer,
        code: ErrorCode,
        text: str,
        request_id: int | str | None = None,
        *,
        retry_after: float | None = None,
    ) -> None:
        """Send an ``error`` to ``peer`` and count it."""
        self._dispatcher.refuse(peer, code, text, request_id, retry_after=retry_after)

    async def disconnected(self, peer: Peer) -> None:
        """The peer's socket closed: its session's seats are held, spectating ends."""
        await self._rooms.disconnected(peer)

    # -- the teacher's controls (ClassControls) ---------------------------------------

    async def pause_all(self) -> int:
        """Pause every room, and new ones until :meth:`resume_all`; returns how many."""
        return await self._class.pause_all()

    async def resume_all(self) -> int:
        """Resume every room (and open new ones running); returns how many."""
        return await self._class.resume_all()

    @property
    def autopilot(self) -> Level | None:
        """The autopilot of new rooms that choose none: ``--autopilot``, or the
        class's default once the teacher sets it (:meth:`set_autopilot`); None: off."""
        return self._rooms.autopilot

    def set_autopilot(self, level: Level | None) -> None:
        """Make ``level`` (None: off) the autopilot of rooms opened from now on
        that choose none; the rooms open keep theirs."""
        self._rooms.autopilot = level

    async def set_hints(self, allowed: bool) -> int:
        """Switch hints in every room and new ones; returns how many rooms were told."""
        return await self._class.set_hints(allowed)

    async def close_room(self, code: str, reason: str | Closing) -> bool:
        """Close the room and drop it; False if there is none (:meth:`ClassControls.close_room`)."""
        return await self._class.close_room(code, reason)

    def announce(
        self,
        text: str,
        *,
        source: Literal["teacher", "server"] = "teacher",
        tournament: int | None = None,
        ending: TournamentEnding | None = None,
    ) -> int:
        """Send ``announcement`` to every session connected now; returns how many got it."""
        return self._class.announce(text, source=source, tournament=tournament, ending=ending)

    async def rename_session(self, session_id: ClientId, name: str) -> None:
        """The session is called ``name`` from now on, in its rooms too."""
        await self._class.rename_session(session_id, name)

    async def remove_player(self, player: PlayerId) -> int:
        """End every live session of ``player`` (:meth:`ClassControls.remove_player`)."""
        return await self._class.remove_player(player)

    async def end_player(self, player: PlayerId) -> int:
        """End a revoked player's sessions (:meth:`ClassControls.end_player`)."""
        return await self._class.end_player(player)

    async def end_sessions(self, player: PlayerId, code: int, reason: str) -> int:
        """End every live session of ``player``, telling nobody
        (:meth:`ClassControls.end_sessions`)."""
        return await self._class.end_sessions(player, code, reason)

    async def merge_player(self, player: PlayerId, into: PlayerId, name: str) -> None:
        """Each live session of ``player`` is ``into``'s, called ``name``, from now on."""
        await self._class.merge_player(player, into, name)

    def player_sessions(self, player: PlayerId) -> list[ClientId]:
        """The live sessions of ``player`` (connected or away), oldest first."""
        return self._class.player_sessions(player)

    def session_player(self, session_id: ClientId) -> PlayerId | None:
        """The player the live session is; None if it is not live or has none."""
        return self._class.session_player(session_id)

    def seated_rooms(self, session_id: ClientId) -> list[str]:
        """Codes of the rooms where the session holds a seat (connected or held)."""
        return self._class.seated_rooms(session_id)

    def is_connected(self, session_id: ClientId) -> bool:
        """True while the session is live and has a connection."""
        return self._class.is_connected(session_id)

    # -- tournaments (TournamentRooms) ------------------------------------------------

    def open_tournament_room(
        self,
        game: Game,
        *,
        clock: Clock,
        first: PlayerId | None,
        second: PlayerId | None,
        hints: bool = False,
        spectator_delay: int | None = None,
        autopilot: Level | None = None,
        spectator_delay_seconds: float | None = None,
    ) -> str:
        """Open a private room reserved for two players; returns its code
        (:meth:`TournamentRooms.open_tournament_room`)."""
        return self._tournaments.open_tournament_room(
            game,
            clock=clock,
            first=first,
            second=second,
            hints=hints,
            spectator_delay=spectator_delay,
            autopilot=autopilot,
            spectator_delay_seconds=spectator_delay_seconds,
        )

    async def seat_ai(self, code: str, level: Level) -> None:
        """Seat the server AI in the room's free side that nobody reserved
        (:meth:`TournamentRooms.seat_ai`)."""
        await self._tournaments.seat_ai(code, level)

    async def close_room_unless_started(
        self, code: str, reason: str | Closing | Callable[[dict[str, bool]], str | Closing]
    ) -> dict[str, bool] | None:
        """Close the room if its first game has not started; who sat, by side
        (:meth:`TournamentRooms.close_room_unless_started`)."""
        return await self._tournaments.close_room_unless_started(code, reason)

    def game_id(self, code: str, game_number: int) -> int | None:
        """The store's id of game ``game_number`` of room ``code`` while it is in play."""
        return self._tournaments.game_id(code, game_number)

    def send(self, session_id: ClientId, message: ServerMessage) -> bool:
        """Send ``message`` to the session if it is connected; whether it was."""
        return self._tournaments.send(session_id, message)

    def keep_session(
        self, session_id: ClientId, name: str, kind: PlayerKind, player: str | None = None
    ) -> None:
        """Keep the session however long it stays away (:meth:`TournamentRooms.keep_session`)."""
        self._tournaments.keep_session(session_id, name, kind, player)

    def release_session(self, session_id: ClientId) -> None:
        """Let the sweeper forget the session again once it is idle."""
        self._tournaments.release_session(session_id)

    # -- the cluster: sessions of other processes' connections (RemoteSessions) -------

    async def tell_elsewhere_again(self) -> None:
        """Tell the cluster every room here anew (:meth:`Rooms.tell_elsewhere_again`)."""
        await self._rooms.tell_elsewhere_again()

    def session_records(self) -> list[SessionRecord]:
        """Every live session here (:meth:`Rooms.session_records`)."""
        return self._rooms.session_records()

    def adopt_session(self, record: SessionRecord) -> Session:
        """The session ``record`` describes, registered here (idle) if it is not yet."""
        return self._rooms.adopt_session(record)

    async def attach(
        self, record: SessionRecord, outbox: PeerConnection, *, rejoin: bool
    ) -> Session:
        """The session's messages go to ``outbox`` from now on (:meth:`RemoteSessions.attach`)."""
        return await self._remote.attach(record, outbox, rejoin=rejoin)

    async def handle_for(
        self, record: SessionRecord, outbox: PeerConnection, token: str, message: ClientMessage
    ) -> None:
        """Act on a message relayed by another process (:meth:`RemoteSessions.handle_for`)."""
        await self._remote.handle_for(record, outbox, token, message)

    async def detach(self, session_id: ClientId, outbox: PeerConnection) -> None:
        """The connection behind ``outbox`` closed: the session is away."""
        await self._remote.detach(session_id, outbox)

    def outbox_of(self, session_id: ClientId) -> Outbox | None:
        """Where the session's messages go now; None if it is away or unknown."""
        return self._remote.outbox_of(session_id)

    def live_session(self, session_id: ClientId) -> Session | None:
        """The live session with this id, if any."""
        return self._remote.live_session(session_id)

    def knows(self, session_id: ClientId) -> bool:
        """True while the session is live here (connected, away within its grace, or held)."""
        return self._remote.knows(session_id)
