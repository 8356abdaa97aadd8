"""The hub: sessions, the lobby and every room, behind one ``handle`` per message.

:class:`GameServer` is what the WebSocket handler talks to. It owns no socket
itself: a connection hands it each decoded message with the connection's
:class:`Peer` (its session once ``hello`` is done), and it answers through the
session's :class:`~server.connection.Connection` or the rooms' outputs. Room
rules live in :class:`~server.core.room.Room`; this module resolves codes, sessions
and game names, and turns refusals into ``error`` messages.

In class mode the teacher's controls (:mod:`server.classroom`) act through the
hub too: pause and resume every room, close one, announce to everyone, rename
or remove a session. The hub knows nothing of classes, rosters or
tournaments. Features meet it at its boundary (:mod:`server.hub_boundary`):
the class layer checks each hello (:meth:`GameServer.add_hello_check`); the
class layer and the tournament director (:mod:`server.tournaments`, which opens
reserved rooms through :meth:`GameServer.open_tournament_room`) subscribe to
its events (:meth:`GameServer.subscribe`) and read its rooms as snapshots
(:meth:`GameServer.room_info`, :meth:`GameServer.rooms`), never the live rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, Protocol

import msgspec

from server.config import ServerConfig
from server.core.lobby import Lobby, RoomCodes, RoomPage
from server.core.players import PlayerId, PlayerRecord, numbered_name
from server.core.records import PlayerKind
from server.core.room import Room, RoomOptions, RoomRequest
from server.core.room_caps import RoomCaps
from server.core.room_output import (
    ClientId,
    GameFinished,
    GameStarted,
    MoveMade,
    Output,
)
from server.core.sessions import Outbox, Session, SessionRegistry
from server.engine_pool import EnginePool
from server.hub_boundary import (
    EventStream,
    HelloCheck,
    HubListener,
    PauseChanged,
    PlayerRemoved,
    RoomDropped,
    RoomInfo,
    RoomsElsewhere,
    SessionRecord,
    SessionWelcomed,
)
from server.metrics import ServerMetrics
from server.player_directory import REVOKED, PlayerDirectory
from server.recorder import GameRecorder
from server.room_host import RoomHost, RoomUnavailableError, Step
from shared.errors import GameError
from shared.games import Game, get_game
from shared.protocol.close_codes import CLOSE_REASONS, CLOSE_REMOVED, CLOSE_TOKEN_REVOKED
from shared.protocol.codec import check_player_name, encode_message
from shared.protocol.errors import ErrorCode, ProtocolError
from shared.protocol.messages import (
    PROTOCOL_VERSION,
    ROOMS_PAGE_DEFAULT,
    SUPPORTED_VERSIONS,
    Announcement,
    ClientMessage,
    Clock,
    CreateRoom,
    Error,
    Hello,
    Join,
    Level,
    ListRooms,
    Ping,
    Pong,
    QuickMatch,
    RoomList,
    RoomSummary,
    ServerMessage,
    Watch,
    Welcome,
)

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 5.0
"""How often idle sessions are looked at (they go once past the grace window)."""


class PeerConnection(Outbox, Protocol):
    """A client's connection as the hub uses it: a :class:`~server.connection.Connection`
    here, or one on another process of a cluster, reached through it."""

    @property
    def address(self) -> str:
        """The client's IP address (the per-address caps count by it)."""
        ...


class NameKeeper(Protocol):
    """Who names some players, whatever their hellos say (the class's roster):
    see :meth:`GameServer.keep_names`."""

    def name_of(self, player: PlayerId) -> str | None:
        """The name ``player`` goes by; None for a player who names itself."""
        ...

    def name_held(self, name: str, player: PlayerId | None) -> bool:
        """True if ``name`` (ignoring case) is another player's (not
        ``player``'s; None: a player not known yet), even while they are away."""
        ...


@dataclass(eq=False)
class Peer:
    """One connection as the hub sees it: its outbox and, after ``hello``, its session."""

    connection: PeerConnection
    session: Session | None = None
    token: str | None = None
    relayed: bool = False
    """Sent on by another process of a cluster, which found no room for it
    elsewhere: answered here, never sent on again."""


class GameServer:
    """Every session and room of one server (see the module docstring)."""

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
        self.config = config
        self._sessions = SessionRegistry()
        self._lobby: Lobby[RoomHost] = Lobby()
        self.room_caps = RoomCaps(config.max_rooms_per_session, config.max_rooms_per_address)
        """Who opened which room, and the caps on the open ones (``too_many_rooms``)."""
        self._recorder = recorder
        self._players = players
        self._engine = engine
        self._metrics = metrics
        self._rng = rng
        self._sweeper: asyncio.Task[None] | None = None
        self.paused = False
        """True while the teacher has every game paused (rooms opened meanwhile
        open paused)."""
        self.hints = not config.class_mode
        """Whether players may ask for hints in new rooms and, once the teacher
        switches it (:meth:`set_hints`), in every room: off in class mode until
        the teacher turns them on, on elsewhere."""
        self._hello_checks: list[HelloCheck] = []
        self._events = EventStream()
        self._kept: set[ClientId] = set()
        """Sessions that the sweeper keeps even when idle (:meth:`keep_session`)."""
        self._revoked: set[PlayerId] = set()
        self._name_keeper: NameKeeper | None = None
        self.elsewhere: RoomsElsewhere | None = None
        """The other processes' rooms, in a cluster (:mod:`server.cluster` sets it
        before the server takes connections); None for a server alone."""
        self._listed: dict[str, tuple[RoomSummary | None, bool]] = {}
        self._background: set[asyncio.Task[None]] = set()
        """What :attr:`elsewhere` was last told of each room here (sent on change only)."""
        """Players whose tokens the teacher revoked while the server runs (:meth:`end_player`)."""

    # -- life cycle -------------------------------------------------------------------

    async def start(self, *, restore: Callable[[str], Awaitable[bool]] | None = None) -> int:
        """Restore the games in progress from the store and start the session
        sweeper; returns how many rooms came back. ``restore(code)``, if given,
        says which rooms to take (a cluster's process takes only those no live
        process holds); every room otherwise."""
        restored = await self.restore_rooms(restore)
        self._sweeper = asyncio.create_task(self._sweep_forever())
        return restored

    async def restore_rooms(self, which: Callable[[str], Awaitable[bool]] | None = None) -> int:
        """Bring back from the store the rooms with a game in play that ``which``
        accepts (all if None) and that the hub does not hold; returns how many
        came back. Their seats' sessions are registered, idle, until their
        players come back (here, or through another process of a cluster)."""

        async def wanted(code: str) -> bool:
            return self._lobby.get(code) is None and (which is None or await which(code))

        restored = await self._recorder.restore_rooms(lambda code: self._rng(), which=wanted)
        for item in restored:
            room = item.room
            options = room.options
            host = self._host(room)
            self._lobby.add(host, RoomCodes(room.code, options.join_code, options.watch_code))
            for side in ("first", "second"):
                seat = room.seat_holder(side)
                if seat is not None:
                    client, name, kind, player = seat
                    known = None if player is None else PlayerId(player)
                    self._sessions.adopt(client, name, kind, room.code, player=known)
            await host.run(room.resume_after_restart)
            # Hints are not kept with a room: it follows the switch as it is now.
            await host.run(_hints_step(room, self._hints_for(room)))
            if self.elsewhere is not None:
                codes = RoomCodes(room.code, options.join_code, options.watch_code)
                await self.elsewhere.claim_codes(codes, restored=True)
            self._list(host)
        return len(restored)

    async def stop(self) -> None:
        """Stop every room's timer and search, and the sweeper."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for host in self._lobby:
            host.close()

    # -- the boundary for features (server.hub_boundary) ---------------------------------

    def add_hello_check(self, check: HelloCheck) -> None:
        """Await ``check`` with the session of each ``hello`` (new or resumed)
        before it is welcomed, after the checks added before it. The first
        check that raises refuses the hello and the later ones are not asked:
        a :class:`ProtocolError` goes back with its code, anything else as
        ``internal_error``, and a new session is forgotten. Adding a check
        again changes nothing."""
        if check not in self._hello_checks:
            self._hello_checks.append(check)

    def remove_hello_check(self, check: HelloCheck) -> None:
        """Stop asking ``check`` (nothing changes if it was not added)."""
        if check in self._hello_checks:
            self._hello_checks.remove(check)

    def keep_names(self, keeper: NameKeeper | None) -> None:
        """Let ``keeper`` name players (None: players name themselves again).
        ``keeper.name_of(player)`` is the name the player goes by whatever its
        hello says (the class's roster: a student is called what the roster
        calls them, and only the teacher renames), taken as it is, never
        numbered: it is theirs. A player who names itself gets the lowest free
        number after a name the keeper holds for someone else
        (``keeper.name_held``), as after a name online: nobody new comes in as
        a classmate who is away."""
        self._name_keeper = keeper

    def subscribe(self, listener: HubListener) -> None:
        """``listener`` hears every :data:`~server.hub_boundary.HubEvent` from now
        on, beside every other subscriber (:class:`~server.hub_boundary.EventStream`)."""
        self._events.subscribe(listener)

    def unsubscribe(self, listener: HubListener) -> None:
        """``listener`` hears nothing more; the other subscribers hear on."""
        self._events.unsubscribe(listener)

    def has_room(self, code: str) -> bool:
        """True while the hub holds the room with this room code."""
        return self._lobby.get(code) is not None

    def room_info(self, code: str) -> RoomInfo | None:
        """The room with this room code as it is now; None if the hub holds none."""
        host = self._lobby.get(code)
        return None if host is None else RoomInfo.of(host.room, time.time(), game_id=host.game_id)

    def rooms(self) -> list[RoomInfo]:
        """Every room the hub holds, public and private, as it is now, oldest first."""
        now = time.time()
        return [RoomInfo.of(host.room, now, game_id=host.game_id) for host in self._lobby]

    def public_rooms(
        self, game: str | None = None, *, offset: int = 0, limit: int = ROOMS_PAGE_DEFAULT
    ) -> RoomPage:
        """A page of the public rooms (of ``game`` if given), as ``list_rooms`` and
        ``GET /api/rooms`` answer: rooms with a free seat first, then oldest first."""
        return self._lobby.public_page(game, offset=offset, limit=limit)

    async def lobby_page(
        self, game: str | None = None, *, offset: int = 0, limit: int = ROOMS_PAGE_DEFAULT
    ) -> RoomPage:
        """:meth:`public_rooms` of the whole cluster, or of this server alone."""
        if self.elsewhere is None:
            return self.public_rooms(game, offset=offset, limit=limit)
        return await self.elsewhere.public_page(game, offset, limit)

    def session_count(self) -> int:
        """How many sessions the hub holds: connected, or away within their grace."""
        return len(self._sessions)

    def session_name(self, session_id: ClientId) -> str | None:
        """The live session's name; None if no session has this id."""
        session = self._sessions.get(session_id)
        return None if session is None else session.name

    # -- messages -------------------------------------------------------------------------

    async def handle(self, peer: Peer, message: ClientMessage) -> None:
        """Act on one decoded message; refusals go back as ``error``."""
        self._metrics.count_message(str(type(message).__struct_config__.tag))
        try:
            await self._dispatch(peer, message)
        except ProtocolError as refusal:
            self.refuse(
                peer, refusal.code, refusal.message, message.id, retry_after=refusal.retry_after
            )
        except RoomUnavailableError as failure:
            self.refuse(peer, ErrorCode.INTERNAL_ERROR, str(failure), message.id)
        except Exception:
            # A bug of ours: log it whole, answer the client, keep the connection.
            # (The field is "request": "message" is the log record's own.)
            logger.exception(
                "handling a message failed", extra={"request": repr(_loggable(message))[:200]}
            )
            self.refuse(
                peer, ErrorCode.INTERNAL_ERROR, "the server failed on this request", message.id
            )

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
        self._metrics.count_error(code)
        error = Error(code=code, message=text, id=request_id, retry_after=retry_after)
        peer.connection.send(error)

    async def _dispatch(self, peer: Peer, message: ClientMessage) -> None:
        if peer.session is not None and self._sessions.get(peer.session.id) is not peer.session:
            # The teacher removed this session: its connection is closing (4003),
            # and what it sent meanwhile does nothing.
            return
        if isinstance(message, Ping):
            peer.connection.send(Pong(id=message.id))
            return
        if isinstance(message, Hello):
            await self._hello(peer, message)
            return
        session = peer.session
        if session is None:
            raise ProtocolError(
                ErrorCode.HELLO_REQUIRED,
                f'say hello first: {{"type": "hello", "name": ..., "version": {PROTOCOL_VERSION}}}',
            )
        match message:
            case ListRooms():
                game = resolve_game(message.game).name if message.game else None
                page = await self.lobby_page(game, offset=message.offset, limit=message.limit)
                reply = RoomList(rooms=page.rooms, total=page.total, id=message.id)
                peer.connection.send(reply)
            case CreateRoom() | Join() | QuickMatch() if session.watch_only:
                raise ProtocolError(
                    ErrorCode.WATCH_ONLY,
                    "this session said hello as a spectator: it can watch games, not "
                    'play them (say hello with "client": "human" or "bot" to play)',
                )
            case CreateRoom():
                await self._create_room(session, peer.connection.address, message)
            case Join() | Watch() if self._elsewhere_takes(peer, message.code, message):
                await self._forward(peer, session, message)
            case Join():
                host = self._find(message.code, "seat")
                await self._enter(host, session, message.id, watch=False)
            case Watch():
                host = self._find(message.code, "watch")
                await self._enter(host, session, message.id, watch=True)
            case QuickMatch() if self._no_quick_room_here(peer, session, message):
                if not await self._forward(peer, session, message):
                    await self._quick_match(session, peer.connection.address, message)
            case QuickMatch():
                await self._quick_match(session, peer.connection.address, message)
            case _ if self._elsewhere_takes(peer, message.room, message):
                await self._forward(peer, session, message)
            case _:
                await self._room_request(session, message)

    def _elsewhere_takes(self, peer: Peer, code: str, message: ClientMessage) -> bool:
        """Whether to ask the cluster about a message for ``code``: there is a
        cluster, the message was not sent on to here, and no room here answers
        to the code."""
        if self.elsewhere is None or peer.relayed:
            return False
        if isinstance(message, Join | Watch):
            return self._lobby.find(code, "watch" if isinstance(message, Watch) else "seat") is None
        return self._lobby.get(code) is None

    def _no_quick_room_here(self, peer: Peer, session: Session, message: QuickMatch) -> bool:
        if self.elsewhere is None or peer.relayed:
            return False
        game = resolve_game(message.game, message.m, message.n, message.k)
        return self._lobby.quick_match_room(game.name, exclude=session.rooms) is None

    async def _forward(self, peer: Peer, session: Session, message: ClientMessage) -> bool:
        """Hand ``message`` to the process of the cluster whose room takes it;
        refuse it as a server alone would if none does. True if it went."""
        assert self.elsewhere is not None and peer.token is not None
        if await self.elsewhere.forward(session, peer.token, peer.connection.address, message):
            return True
        if isinstance(message, Join | Watch):
            self._find(message.code, "watch" if isinstance(message, Watch) else "seat")
        elif not isinstance(message, QuickMatch):
            await self._room_request(session, message)  # type: ignore[arg-type]
        return False

    async def _hello(self, peer: Peer, hello: Hello) -> None:
        """Open or resume the session ``hello`` asks for, as its player, and welcome it.

        The player: the one ``player_token`` belongs to (refused as the
        directory says; a revoked token also closes the connection with 4004),
        else a new one, stored before anything else happens (``rate_limited``
        past the address's cap on new players: nothing is made). The name: the
        name keeper's for the player if it has one (:meth:`keep_names`: a
        class's student is called what the roster says), else the one said,
        unless another human player's live session has it or the keeper holds
        it for another (case-folded): then the lowest free number is added
        (``ann 2``); a bot keeps its name.
        Nothing awaits between that choice and the session's opening, so two
        hellos cannot both take one name. A resumed session keeps its name, and
        must be ``player_token``'s player's when both tokens come (``bad_token``).
        A player revoked by :meth:`end_player` while its hello awaited is refused
        as a revoked token is."""
        if hello.version not in SUPPORTED_VERSIONS:
            spoken = " or ".join(str(version) for version in SUPPORTED_VERSIONS)
            raise ProtocolError(
                ErrorCode.UNSUPPORTED_VERSION,
                f"protocol version {hello.version} is not spoken here: use {spoken}",
            )
        if peer.session is not None and peer.token is not None:
            # A repeated hello changes nothing: the same session, welcomed again.
            peer.connection.send(self._welcome(peer.session, peer.token, hello))
            return
        said = name = check_player_name(hello.name)
        watch_only = hello.client == "spectator"
        kind = PlayerKind.HUMAN if watch_only else PlayerKind(hello.client)
        player: PlayerRecord | None = None
        if hello.player_token is not None:
            try:
                player = await self._players.known(hello.player_token, peer.connection.address)
            except ProtocolError as refusal:
                if refusal.code is not ErrorCode.PLAYER_TOKEN_REVOKED:
                    raise
                self.refuse(peer, refusal.code, refusal.message, hello.id)
                peer.connection.close(CLOSE_TOKEN_REVOKED, CLOSE_REASONS[CLOSE_TOKEN_REVOKED])
                return
        new_token: str | None = None
        kept_name = self._kept_name(player)
        if hello.resume_token is None:
            if player is None:
                player, new_token = await self._players.new(
                    name, kind, peer.connection.address, watch_only=watch_only
                )
            player_id = player.id
            if kept_name is not None:
                name = kept_name
            elif kind is PlayerKind.HUMAN:
                name = numbered_name(name, lambda said: self._name_taken(said, player_id))
            session, token = self._sessions.open(
                name, kind, watch_only=watch_only, player=player_id
            )
        else:
            resumed = self._sessions.resume(hello.resume_token)
            if resumed is None and self.elsewhere is not None:
                # Opened on another process of the cluster: it is the same session here.
                record = await self.elsewhere.recall(hello.resume_token)
                if record is not None and self._sessions.resume(hello.resume_token) is None:
                    self.adopt_session(record)
                resumed = self._sessions.resume(hello.resume_token)
            if resumed is None or (player is not None and resumed.player not in (None, player.id)):
                raise ProtocolError(
                    ErrorCode.BAD_TOKEN,
                    "that resume token is unknown, has expired or is another player's: "
                    "say hello without one to start a new session",
                )
            if player is not None and resumed.player is None:
                # A session restored without its player (kept from before players
                # were, or for a tournament): whoever holds both tokens is both.
                self._sessions.set_player(resumed.id, player.id)
            session, token = resumed, hello.resume_token
        try:
            for check in tuple(self._hello_checks):
                await check(session)
        except BaseException:
            if hello.resume_token is None:
                self._sessions.drop(session.id)  # never welcomed: nobody holds its token
            raise
        if player is not None and new_token is None:
            await self._players.seen(player, said if kept_name is None else kept_name)
        if player is not None and player.id in self._revoked:
            # Revoked (end_player) while this hello awaited: its token was looked
            # up before the revocation was stored. Nothing awaits from here to
            # the welcome, so no hello of a revoked player gets past this.
            await self._end_session(
                session.id, CLOSE_TOKEN_REVOKED, CLOSE_REASONS[CLOSE_TOKEN_REVOKED]
            )
            self.refuse(peer, ErrorCode.PLAYER_TOKEN_REVOKED, REVOKED, hello.id)
            peer.connection.close(CLOSE_TOKEN_REVOKED, CLOSE_REASONS[CLOSE_TOKEN_REVOKED])
            return
        if session.outbox is not None:
            session.outbox.replace()
        session.outbox = peer.connection
        session.search_info = hello.search_info
        session.idle_since = None
        peer.session, peer.token = session, token
        elsewhere: list[str] = []
        if self.elsewhere is not None:
            elsewhere = await self.elsewhere.rooms_elsewhere(session, token)
        peer.connection.send(self._welcome(session, token, hello, new_token, elsewhere))
        if self.elsewhere is not None:
            self.elsewhere.welcomed(session, token, peer.connection.address)
        for code in sorted(session.rooms):
            host = self._lobby.get(code)
            if host is not None:
                await host.run(_for_client(host.room.reconnected, session.id))
        self._events.publish(SessionWelcomed(session.id))

    def _welcome(
        self,
        session: Session,
        token: str,
        hello: Hello,
        new_token: str | None = None,
        elsewhere: list[str] | None = None,
    ) -> Welcome:
        """The welcome for ``hello``, in the client's own protocol version;
        ``new_token`` is the token of a player this hello made (sent this once);
        ``elsewhere``: the seats it resumed on other processes of a cluster."""
        resumed = [
            code
            for code in sorted(session.rooms)
            if (host := self._lobby.get(code)) is not None
            and host.room.side_of(session.id) is not None
        ]
        resumed = sorted({*resumed, *(elsewhere or ())})
        player = session.player
        return Welcome(
            name=session.name,
            version=hello.version,
            resume_token=token,
            resumed_rooms=resumed,
            player_id=session.player,
            new_player=new_token is not None,
            player_token=new_token,
            name_locked=player is not None and self._kept_name_of(player) is not None,
            id=hello.id,
        )

    def _kept_name(self, player: PlayerRecord | None) -> str | None:
        """The name ``player`` goes by whatever its hello says (:meth:`keep_names`);
        None when it names itself."""
        return None if player is None else self._kept_name_of(player.id)

    def _kept_name_of(self, player: PlayerId) -> str | None:
        return None if self._name_keeper is None else self._name_keeper.name_of(player)

    def _name_taken(self, name: str, player: PlayerId) -> bool:
        """Whether a new session of ``player`` may not be called ``name``: another
        person is online under it, or the name keeper holds it for another."""
        if self._sessions.name_taken(name, player):
            return True
        return self._name_keeper is not None and self._name_keeper.name_held(name, player)

    async def _create_room(self, session: Session, address: str, message: CreateRoom) -> None:
        game = resolve_game(message.game, message.m, message.n, message.k)
        match = message.ai_match
        if match is not None and (message.ai_level is not None or message.seat != "first"):
            raise ProtocolError(
                ErrorCode.BAD_OPTIONS,
                "ai_match: the AI takes both seats, so give no seat or ai_level with it",
            )
        codes = await self._new_codes(private=not message.public)
        self._check_room_caps(session, address, codes)
        host = self._open_room(game, codes, public=message.public, request=message)
        self.room_caps.opened(host.code, session.id, address)
        # The creator of an AI match watches it; the AI sits down once they are in.
        await self._enter(host, session, message.id, watch=match is not None)
        if match is not None:
            await host.run(lambda now: host.room.add_ai(match.first, now=now, side="first"))
            await host.run(lambda now: host.room.add_ai(match.second, now=now, side="second"))
        elif message.ai_level is not None and host.room.has_free_seat:
            level = message.ai_level
            await host.run(lambda now: host.room.add_ai(level, now=now))

    async def _quick_match(self, session: Session, address: str, message: QuickMatch) -> None:
        game = resolve_game(message.game, message.m, message.n, message.k)
        host = self._lobby.quick_match_room(game.name, exclude=session.rooms)
        if host is None:
            codes = await self._new_codes(private=False)
            self._check_room_caps(session, address, codes)
            host = self._open_room(game, codes, public=True, request=None, quick=True)
            self.room_caps.opened(host.code, session.id, address)
        await self._enter(host, session, message.id, watch=False)

    async def _new_codes(self, *, private: bool) -> RoomCodes:
        """Codes for a new room that no room holds: here, and in a cluster on
        any process (claimed there until the room is dropped)."""
        while True:
            codes = self._lobby.new_codes(private=private)
            # The cluster's claim is atomic in Redis: two processes never both get a code.
            if self.elsewhere is None or await self.elsewhere.claim_codes(codes):
                return codes

    def _check_room_caps(self, session: Session, address: str, codes: RoomCodes) -> None:
        """Refuse with ``too_many_rooms`` if the session may not open a room now
        (giving back ``codes``, claimed for it). Nothing awaits between this check
        and ``room_caps.opened``: the two are one step, so concurrent requests
        cannot both take the last place."""
        refusal = self.room_caps.check(session.id, address, self._counts_as_open)
        if refusal is not None:
            if self.elsewhere is not None:
                task = asyncio.create_task(self.elsewhere.release_codes(codes))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
            raise ProtocolError(ErrorCode.TOO_MANY_ROOMS, refusal.explain())

    def _counts_as_open(self, code: str, opener: ClientId) -> bool:
        """The :data:`~server.core.room_caps.OpenTest`: the room's game is waiting or in
        play and its opener holds a seat there (or is about to: nobody is in yet),
        or, for an AI match, still watches it (the engine plays it for them)."""
        host = self._lobby.get(code)
        if host is None:
            return False
        room = host.room
        if room.options.ai_match:
            return room.status != "finished" and opener in room.members
        seated = room.side_of(opener) is not None or not room.members
        return room.status != "finished" and seated

    def _open_room(
        self,
        game: Game,
        codes: RoomCodes,
        *,
        public: bool,
        request: CreateRoom | None,
        quick: bool = False,
    ) -> RoomHost:
        match = request.ai_match if request is not None else None
        try:
            options = RoomOptions(
                public=public,
                creator_seat=request.seat if request is not None else "first",
                clock=request.clock if request is not None else RoomOptions().clock,
                grace_seconds=self.config.grace_seconds,
                hints=self.hints,
                ai_match=match is not None,
                ai_pace=match.pace if match is not None else 0.0,
                join_code=codes.join,
                watch_code=codes.watch,
            )
        except ValueError as error:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, str(error)) from None
        return self._add_room(game, codes, options, quick=quick)

    def _add_room(
        self, game: Game, codes: RoomCodes, options: RoomOptions, *, quick: bool = False
    ) -> RoomHost:
        room = Room(
            codes.room,
            game.name,
            options=options,
            rng=self._rng(),
            now=time.time(),
            paused=self.paused,
        )
        host = self._host(room, quick=quick)
        self._lobby.add(host, codes)
        logger.info(
            "room opened", extra={"room": room.code, "game": game.name, "public": options.public}
        )
        self._list(host)
        return host

    async def _enter(
        self, host: RoomHost, session: Session, request_id: int | str | None, *, watch: bool
    ) -> None:
        room, client, name = host.room, session.id, session.name
        if watch:
            await host.run(lambda now: room.watch(client, name, now=now, request_id=request_id))
        else:
            kind, player = session.kind, session.player
            await host.run(
                lambda now: room.seat(
                    client, name, kind, now=now, request_id=request_id, player=player
                )
            )
        if client in room.members:
            session.rooms.add(room.code)

    async def _room_request(self, session: Session, message: RoomRequest) -> None:
        host = self._lobby.get(message.room)
        if host is None:
            raise ProtocolError(
                ErrorCode.UNKNOWN_ROOM, f"no room {message.room!r}: list_rooms shows open rooms"
            )
        client = session.id
        await host.run(lambda now: host.room.handle(client, message, now=now))
        if client not in host.room.members:
            session.rooms.discard(host.code)

    def _find(self, code: str, access: str) -> RoomHost:
        host = self._lobby.find(code, "seat" if access == "seat" else "watch")
        if host is None:
            what = "a public room's code or a private room's join code"
            if access == "watch":
                what += " or watch code"
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"no room opens with {code!r}: give {what}")
        return host

    # -- connections ----------------------------------------------------------------------

    async def disconnected(self, peer: Peer) -> None:
        """The peer's socket closed: its session's seats are held, spectating ends."""
        session = peer.session
        if session is None or session.outbox is not peer.connection:
            return  # never said hello, or the session already moved to a new connection
        session.outbox = None
        session.idle_since = time.time()
        if self.elsewhere is not None:
            self.elsewhere.disconnected(session)
        client = session.id
        for code in sorted(session.rooms):
            host = self._lobby.get(code)
            if host is None:
                continue
            with contextlib.suppress(RoomUnavailableError):
                await host.run(_for_client(host.room.disconnected, client))
            if client not in host.room.members:
                session.rooms.discard(code)

    # -- rooms ----------------------------------------------------------------------------

    def _host(self, room: Room, *, quick: bool = False) -> RoomHost:
        return RoomHost(
            room,
            recorder=self._recorder,
            engine=self._engine,
            deliver=self._deliver,
            after=self._after,
            quick=quick,
            on_search=self._observe_search,
            wants_search=self._wants_search,
        )

    def _observe_search(self, seconds: float, fallback_reason: str | None) -> None:
        self._metrics.observe_search(seconds)
        if fallback_reason is not None:
            self._metrics.count_fallback(fallback_reason)

    def _wants_search(self, client: ClientId) -> bool:
        session = self._sessions.get(client)
        return session is not None and session.search_info

    def _deliver(self, client: ClientId, message: ServerMessage, text: str) -> None:
        session = self._sessions.get(client)
        if session is not None and session.outbox is not None:
            if isinstance(message, Error):
                self._metrics.count_error(message.code)
            session.outbox.send(message, text)

    def _after(self, host: RoomHost, output: Output) -> None:
        moves = 0
        for event in output.events:
            if isinstance(event, MoveMade):
                moves += 1
            elif isinstance(event, GameStarted):
                players = " vs ".join(seat.name for seat in event.seats)
                logger.info(
                    "game started",
                    extra={"room": host.code, "game": event.game, "players": players},
                )
            elif isinstance(event, GameFinished):
                logger.info(
                    "game finished",
                    extra={"room": host.code, "winner": event.winner, "reason": event.reason.value},
                )
            if isinstance(event, GameStarted | GameFinished):
                self._events.publish(event)
        if moves:
            self._metrics.moves_total.inc(moves)
        if host.room.is_empty and host.code in self._lobby:
            # Nobody sits, is held or watches: nobody can come back to it.
            self._drop_room(host)
        elif host.code in self._lobby:
            self._list(host)

    def _list(self, host: RoomHost) -> None:
        """Tell the cluster (if any) how the room shows in the lobby, when that changed."""
        if self.elsewhere is None:
            return
        room = host.room
        summary = host.summary() if room.options.public else None
        quick_open = host.quick and room.status == "waiting" and room.has_free_seat
        if self._listed.get(host.code) != (summary, quick_open):
            self._listed[host.code] = (summary, quick_open)
            self.elsewhere.room_changed(host.code, summary, quick_open)

    def _drop_room(self, host: RoomHost) -> None:
        logger.info("room closed", extra={"room": host.code})
        self._lobby.remove(host.code)
        if self.elsewhere is not None:
            self._listed.pop(host.code, None)
            self.elsewhere.room_dropped(host.code)
        self.room_caps.forget(host.code)
        self._recorder.forget(host.code)
        host.close()
        self._events.publish(RoomDropped(RoomInfo.of(host.room, time.time(), game_id=host.game_id)))

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.sweep(time.time())

    def sweep(self, now: float) -> None:
        """Drop room hints that no longer hold, then sessions idle past the grace window."""
        for session in self._sessions:
            session.rooms = {
                code
                for code in session.rooms
                if (host := self._lobby.get(code)) is not None and session.id in host.room.members
            }
        self._sessions.sweep(now, self.config.grace_seconds, keep=self._kept)

    # -- the teacher's controls (class mode) ----------------------------------------------

    async def pause_all(self) -> int:
        """Pause every room (:meth:`Room.pause <server.core.room.Room.pause>`), and
        open new rooms paused until :meth:`resume_all`. Returns how many rooms
        were paused (a room whose storage failed is skipped)."""
        self.paused = True
        self._events.publish(PauseChanged(paused=True, at=time.time()))
        return await self._in_every_room(lambda host: host.room.pause)

    async def resume_all(self) -> int:
        """Resume every room (and open new ones running); returns how many."""
        self.paused = False
        self._events.publish(PauseChanged(paused=False, at=time.time()))
        return await self._in_every_room(lambda host: host.room.resume)

    async def set_hints(self, allowed: bool) -> int:
        """Allow hints or not in every room, and in the rooms opened from now on
        (the teacher's switch); returns how many rooms were told."""
        self.hints = allowed
        return await self._in_every_room(
            lambda host: _hints_step(host.room, self._hints_for(host.room))
        )

    def _hints_for(self, room: Room) -> bool:
        """Whether ``room`` allows hints now: as the class's switch says, but a
        tournament game as its tournament said (its own switch, off by default)."""
        return room.options.hints if room.options.tournament else self.hints

    async def _in_every_room(self, step_for: Callable[[RoomHost], Step]) -> int:
        # All at once: each room has its own lock, and what the resumes store
        # (AI moves kept in the pause) shares the store's group commits.
        hosts = list(self._lobby)
        outcomes = await asyncio.gather(
            *(host.run(step_for(host)) for host in hosts), return_exceptions=True
        )
        done = 0
        for host, outcome in zip(hosts, outcomes, strict=True):
            if not isinstance(outcome, BaseException):
                done += 1
            elif not isinstance(outcome, RoomUnavailableError):
                logger.error(
                    "a room failed to pause or resume", exc_info=outcome, extra={"room": host.code}
                )
        return done

    async def close_room(self, code: str, reason: str) -> bool:
        """Close the room with this room code (:meth:`Room.close
        <server.core.room.Room.close>`) and drop it; False if there is none. A room
        whose storage failed is dropped as it is."""
        host = self._lobby.get(code)
        if host is None:
            return False
        with contextlib.suppress(RoomUnavailableError):
            await host.run(lambda now: host.room.close(reason, now=now))
        self._let_go(host)
        return True

    def _let_go(self, host: RoomHost) -> None:
        """Forget a closed room: it is out of the lobby and nobody's hint."""
        if host.code in self._lobby:
            self._drop_room(host)  # a failed room; a closed one is gone already (_after)
        for session in self._sessions:
            session.rooms.discard(host.code)

    def announce(
        self,
        text: str,
        *,
        source: Literal["teacher", "server"] = "teacher",
        tournament: int | None = None,
    ) -> int:
        """Send ``announcement`` with ``text`` to every session connected now, as
        from ``source`` (about ``tournament``, if given); returns how many got it."""
        message = Announcement(text=text, source=source, tournament=tournament)
        encoded = encode_message(message)
        reached = 0
        for session in self._sessions:
            if session.outbox is not None:
                session.outbox.send(message, encoded)
                reached += 1
        return reached

    async def rename_session(self, session_id: ClientId, name: str) -> None:
        """The session is called ``name`` (a checked name) from now on: in new
        rooms, and in its rooms now (:meth:`Room.rename <server.core.room.Room.rename>`).
        A session that is not live changes nothing here."""
        self._sessions.rename(session_id, name)
        for host in self._rooms_with(session_id):
            with contextlib.suppress(RoomUnavailableError):
                await host.run(_renaming(host.room, session_id, name))

    async def remove_player(self, player: PlayerId) -> int:
        """End every live session of ``player`` at once (the teacher removed it
        from the class): its resume tokens open nothing from now on, each leaves
        every room (:meth:`Room.remove <server.core.room.Room.remove>`: a game in
        progress is resigned), and each connection is closed with
        :data:`~shared.protocol.close_codes.CLOSE_REMOVED`. Its player token
        still opens it: a later hello is a new session. Returns how many
        sessions ended; publishes :class:`PlayerRemoved` once, even for none."""
        ended = await self.end_sessions(player, CLOSE_REMOVED, "removed by the teacher")
        self._events.publish(PlayerRemoved(player, revoked=False))
        return ended

    async def end_player(self, player: PlayerId) -> int:
        """End every live session of ``player`` (its token was just revoked), as
        :meth:`remove_player` does, but closing each connection with
        :data:`~shared.protocol.close_codes.CLOSE_TOKEN_REVOKED`; a hello of it
        still under way is refused too. Returns how many sessions ended."""
        self._revoked.add(player)  # for a hello of it still under way (_hello)
        ended = await self.end_sessions(
            player, CLOSE_TOKEN_REVOKED, CLOSE_REASONS[CLOSE_TOKEN_REVOKED]
        )
        self._events.publish(PlayerRemoved(player, revoked=True))
        return ended

    async def end_sessions(self, player: PlayerId, code: int, reason: str) -> int:
        """End every live session of ``player`` as :meth:`remove_player` does,
        closing each connection with ``code`` and ``reason``, and tell nobody:
        the player stays what it was (its key was replaced, say). Returns how
        many sessions ended."""
        ended = self.player_sessions(player)
        for session_id in ended:
            await self._end_session(session_id, code, reason)
        return len(ended)

    async def merge_player(self, player: PlayerId, into: PlayerId, name: str) -> None:
        """The teacher merged ``player`` into ``into`` (its token now opens
        ``into``): each live session of ``player`` is ``into``'s from now on, and
        is called ``name`` (a checked name), in its rooms too. Games in progress
        are recorded under the player they started with."""
        for session_id in self.player_sessions(player):
            self._sessions.set_player(session_id, into)
            await self.rename_session(session_id, name)

    async def _end_session(self, session_id: ClientId, code: int, reason: str) -> None:
        session = self._sessions.drop(session_id)
        outbox = None
        if session is not None:
            # Unhooked first: nothing more reaches it, and its socket's end is
            # not a drop to hold seats for (disconnected() skips it).
            outbox, session.outbox = session.outbox, None
        for host in self._rooms_with(session_id):
            with contextlib.suppress(RoomUnavailableError):
                await host.run(_for_client(host.room.remove, session_id))
        if outbox is not None:
            outbox.close(code, reason)
        self._kept.discard(session_id)

    def player_sessions(self, player: PlayerId) -> list[ClientId]:
        """The live sessions of ``player`` (connected or away), oldest first."""
        return self._sessions.of_player(player)

    def session_player(self, session_id: ClientId) -> PlayerId | None:
        """The player the live session is; None if it is not live or has none."""
        session = self._sessions.get(session_id)
        return None if session is None else session.player

    def seated_rooms(self, session_id: ClientId) -> list[str]:
        """Codes of the rooms where the session holds a seat (connected or held)."""
        return [host.code for host in self._lobby if host.room.side_of(session_id) is not None]

    def is_connected(self, session_id: ClientId) -> bool:
        """True while the session is live and has a connection."""
        session = self._sessions.get(session_id)
        return session is not None and session.outbox is not None

    def _rooms_with(self, session_id: ClientId) -> list[RoomHost]:
        # The rooms themselves, not the session's hints: those may lag behind.
        return [host for host in self._lobby if session_id in host.room.members]

    # -- tournaments (server.tournaments) --------------------------------------------------

    def open_tournament_room(
        self,
        game: Game,
        *,
        clock: Clock,
        first: PlayerId | None,
        second: PlayerId | None,
        hints: bool = False,
    ) -> str:
        """Open a private tournament room (:class:`~server.core.room.RoomOptions`
        ``tournament``) whose sides are reserved for these players (any session
        of each); None is a side for the server AI (:meth:`seat_ai`). It opens
        paused during a pause. Returns its room code. Raises ``ValueError`` for
        options that do not fit together."""
        codes = self._lobby.new_codes(private=True)
        options = RoomOptions(
            public=False,
            clock=clock,
            grace_seconds=self.config.grace_seconds,
            join_code=codes.join,
            watch_code=codes.watch,
            tournament=True,
            reserved_first=first,
            reserved_second=second,
            hints=hints,  # the tournament's own switch, off unless it asked for hints
        )
        return self._add_room(game, codes, options).code

    async def seat_ai(self, code: str, level: Level) -> None:
        """Seat the server AI at ``level`` in the room's free side that nobody
        reserved. Raises ``ValueError`` if there is none, ``LookupError`` for no
        such room, :class:`RoomUnavailableError` if the room failed."""
        host = self._lobby.get(code)
        if host is None:
            raise LookupError(f"no room {code!r}")
        await host.run(lambda now: host.room.add_ai(level, now=now))

    async def close_room_unless_started(
        self, code: str, reason: str | Callable[[dict[str, bool]], str]
    ) -> dict[str, bool] | None:
        """Close the room (as :meth:`close_room`) if its first game has not
        started. Returns, by side, whether someone sat there (held seats
        included) when it closed, nobody in a room whose storage failed; None if
        the game had started or there is no such room. The check and the close
        are one room input: nobody sits down between them. ``reason`` may be
        made from who sat (the same dict), to tell the members what it meant."""
        host = self._lobby.get(code)
        if host is None:
            return None
        room = host.room
        seated: dict[str, bool] | None = None

        def step(now: float) -> Output:
            nonlocal seated
            if room.status != "waiting":
                return room.tick(now)
            seated = {side: room.is_taken(side) for side in ("first", "second")}
            return room.close(reason if isinstance(reason, str) else reason(seated), now=now)

        try:
            await host.run(step)
        except RoomUnavailableError:
            seated = {"first": False, "second": False}  # its storage failed: nobody plays there
        if seated is not None:
            self._let_go(host)
        return seated

    def game_id(self, code: str, game_number: int) -> int | None:
        """The store's id of game ``game_number`` of room ``code`` while it is in play."""
        return self._recorder.game_id(code, game_number)

    def send(self, session_id: ClientId, message: ServerMessage) -> bool:
        """Send ``message`` to the session if it is connected; whether it was."""
        session = self._sessions.get(session_id)
        if session is None or session.outbox is None:
            return False
        session.outbox.send(message)
        return True

    def keep_session(
        self, session_id: ClientId, name: str, kind: PlayerKind, player: str | None = None
    ) -> None:
        """Keep the session (registering it, idle, if it is not live: after a
        restart, as ``player``'s if known) until :meth:`release_session`, however
        long it stays away: a tournament's players keep their identity between rounds."""
        known = None if player is None else PlayerId(player)
        self._sessions.adopt(session_id, name, kind, player=known)
        self._kept.add(session_id)

    def release_session(self, session_id: ClientId) -> None:
        """Let the sweeper forget the session again once it is idle."""
        self._kept.discard(session_id)

    # -- the cluster (server.cluster): sessions of other processes' connections ----------

    def adopt_session(self, record: SessionRecord) -> Session:
        """The session ``record`` describes, registered here (idle) if it is not
        yet: one opened on another process of the cluster, whose id is the hash of
        the same token, so it is the same session here."""
        known = None if record.player is None else PlayerId(record.player)
        session = self._sessions.adopt(ClientId(record.id), record.name, record.kind, player=known)
        session.watch_only = record.watch_only
        session.search_info = record.search_info
        return session

    async def attach(
        self, record: SessionRecord, outbox: PeerConnection, *, rejoin: bool
    ) -> Session:
        """Messages for the session go to ``outbox`` from now on (a connection on
        another process of the cluster, reached through it); with ``rejoin`` the
        session's rooms here are told it is back (their ``state`` follows)."""
        session = self.adopt_session(record)
        if session.outbox is not outbox:
            if session.outbox is not None:
                session.outbox.replace()
            session.outbox = outbox
            session.idle_since = None
        if rejoin:
            for code in sorted(session.rooms):
                host = self._lobby.get(code)
                if host is not None:
                    with contextlib.suppress(RoomUnavailableError):
                        await host.run(_for_client(host.room.reconnected, session.id))
        return session

    async def handle_for(
        self, record: SessionRecord, outbox: PeerConnection, token: str, message: ClientMessage
    ) -> None:
        """Act on ``message``, sent by the session ``record`` describes through
        another process of the cluster, as if its connection were here: answers
        go to ``outbox`` (which becomes the session's, as :meth:`attach` does)."""
        session = await self.attach(record, outbox, rejoin=False)
        await self.handle(Peer(outbox, session, token, relayed=True), message)

    async def detach(self, session_id: ClientId, outbox: PeerConnection) -> None:
        """The connection behind ``outbox`` closed: the session is away, as when
        its own connection here closes (nothing if it moved on meanwhile)."""
        session = self._sessions.get(session_id)
        if session is not None and session.outbox is outbox:
            await self.disconnected(Peer(outbox, session))

    def outbox_of(self, session_id: ClientId) -> Outbox | None:
        """Where the session's messages go now; None if it is away or unknown."""
        session = self._sessions.get(session_id)
        return None if session is None else session.outbox

    def live_session(self, session_id: ClientId) -> Session | None:
        """The live session with this id, if any."""
        return self._sessions.get(session_id)

    def knows(self, session_id: ClientId) -> bool:
        """True while the session is live here (connected, away within its grace, or held)."""
        return self._sessions.get(session_id) is not None

    def room_counts(self) -> dict[str, int]:
        """Rooms by status, for ``/metrics``."""
        counts = {"waiting": 0, "playing": 0, "finished": 0}
        for host in self._lobby:
            counts[host.room.status] += 1
        return counts


def _loggable(message: ClientMessage) -> ClientMessage:
    """``message`` as it may be logged: a hello's tokens are secrets, so they
    show as ``"<hidden>"`` (whether one was sent still shows)."""
    if not isinstance(message, Hello):
        return message
    hidden = {
        field: "<hidden>"
        for field in ("resume_token", "player_token")
        if getattr(message, field) is not None
    }
    return msgspec.structs.replace(message, **hidden)


def _for_client(input_method: Callable[..., Output], client: ClientId) -> Callable[[float], Output]:
    """A room input for :meth:`RoomHost.run` from a ``Room`` method taking ``(client, *, now)``."""
    return lambda now: input_method(client, now=now)


def _renaming(room: Room, client: ClientId, name: str) -> Step:
    return lambda now: room.rename(client, name, now=now)


def resolve_game(
    name: str, m: int | None = None, n: int | None = None, k: int | None = None
) -> Game:
    """The game a request names; :class:`ProtocolError` (``unknown_game``) otherwise."""
    try:
        return get_game(name, m=m, n=n, k=k)
    except GameError as error:
        raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None


def _hints_step(room: Room, allowed: bool) -> Step:
    """The room input that sets ``room``'s hints to ``allowed``."""

    def step(now: float) -> Output:
        return room.set_hints(allowed, now=now)

    return step
