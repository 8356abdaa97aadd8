"""The hub's rooms and the sessions in them: what every other part of the hub acts on.

:class:`Rooms` holds the sessions (:class:`~boardroom.server.core.sessions.SessionRegistry`),
the lobby of room hosts (:class:`~boardroom.server.room_host.RoomHost`, one per
:class:`~boardroom.server.core.room.Room`), the caps on opening rooms and the stream of
events (:class:`~boardroom.server.hub.boundary.EventStream`). It opens a room, seats a
session in one or lets it watch, hands a room its requests, restores the games
in progress from the store, tells the cluster (if any) how each room shows in
the lobby, lets a room go once nobody can come back to it, and sweeps the
sessions idle past their grace. The parts above it (dispatch, the class's
controls, tournament rooms, remote sessions) hold a :class:`Rooms` and never a
room of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable

from boardroom.server.config import ServerConfig
from boardroom.server.core.engine_queue import EnginePriority, Submitter
from boardroom.server.core.lobby import Lobby, RoomCodes, RoomPage, normalise_code
from boardroom.server.core.players import PlayerId
from boardroom.server.core.room import Room, RoomOptions, RoomRequest
from boardroom.server.core.room_caps import RoomCaps
from boardroom.server.core.room_output import (
    AiRequest,
    ClientId,
    GameFinished,
    GameStarted,
    MoveMade,
    Output,
)
from boardroom.server.core.sessions import Session, SessionRegistry
from boardroom.server.engine_pool import EnginePool
from boardroom.server.hub.boundary import (
    EventStream,
    RoomDropped,
    RoomInfo,
    RoomsElsewhere,
    SessionRecord,
)
from boardroom.server.hub.peer import Peer
from boardroom.server.metrics import ServerMetrics
from boardroom.server.recorder import GameRecorder
from boardroom.server.room_host import RoomHost, RoomUnavailableError, Step
from boardroom.shared.games import Game, Player
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError
from boardroom.shared.protocol.messages import (
    ROOMS_PAGE_DEFAULT,
    Error,
    Level,
    RoomClosed,
    RoomSummary,
    ServerMessage,
)
from boardroom.shared.protocol.room_closing import Closing

# Every part of the hub logs as "boardroom.server.hub", as the one module did: operators'
# log filters (docs/operations.md) keep working.
logger = logging.getLogger("boardroom.server.hub")

SWEEP_SECONDS = 5.0
"""How often idle sessions are looked at (they go once past the grace window)."""


class Rooms:
    """Every session and room of one server (see the module docstring)."""

    def __init__(
        self,
        config: ServerConfig,
        *,
        recorder: GameRecorder,
        engine: EnginePool,
        metrics: ServerMetrics,
        rng: Callable[[], random.Random] = random.Random,
    ) -> None:
        self.config = config
        self.sessions = SessionRegistry()
        self.lobby: Lobby[RoomHost] = Lobby()
        self.room_caps = RoomCaps(config.max_rooms_per_session, config.max_rooms_per_address)
        """Who opened which room, and the caps on the open ones (``too_many_rooms``)."""
        self.ai_match_caps = RoomCaps(
            config.max_ai_matches_per_session, config.max_ai_matches_per_address
        )
        """The same for the AI matches among them (``too_many_ai_matches``)."""
        self.recorder = recorder
        self.metrics = metrics
        self._engine = engine
        self._rng = rng
        self._sweeper: asyncio.Task[None] | None = None
        self.paused = False
        """True while the teacher has every game paused (rooms opened meanwhile
        open paused)."""
        self.hints = not config.class_mode
        """Whether players may ask for hints in new rooms and, once the teacher
        switches it, in every room: off in class mode until the teacher turns
        them on, on elsewhere."""
        self.autopilot: Level | None = config.autopilot_level
        """The autopilot of new rooms that choose none (``--autopilot``, until the
        teacher sets the class's default); None: off."""
        self.events = EventStream()
        self.kept: set[ClientId] = set()
        """Sessions that the sweeper keeps even when idle (a tournament's players)."""
        self.revoked: set[PlayerId] = set()
        """Players whose tokens the teacher revoked while the server runs: a
        hello of one still under way is refused."""
        self.elsewhere: RoomsElsewhere | None = None
        """The other processes' rooms, in a cluster (:mod:`boardroom.server.cluster` sets it
        before the server takes connections); None for a server alone."""
        self._listed: dict[str, tuple[RoomSummary | None, bool]] = {}
        """What :attr:`elsewhere` was last told of each room here (sent on change only)."""
        self._background: set[asyncio.Task[None]] = set()

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
            return self.lobby.get(code) is None and (which is None or await which(code))

        restored = await self.recorder.restore_rooms(lambda code: self._rng(), which=wanted)
        for item in restored:
            room = item.room
            options = room.options
            host = self._host(room)
            self.lobby.add(host, RoomCodes(room.code, options.join_code, options.watch_code))
            for side in (Player.FIRST, Player.SECOND):
                seat = room.seat_holder(side)
                if seat is not None:
                    client, name, kind, player = seat
                    known = None if player is None else PlayerId(player)
                    self.sessions.adopt(client, name, kind, room.code, player=known)
            await host.run(room.resume_after_restart)
            # Hints are not kept with a room: it follows the switch as it is now.
            await host.run(hints_step(room, self.hints_for(room)))
            if self.elsewhere is not None:
                codes = RoomCodes(room.code, options.join_code, options.watch_code)
                await self.elsewhere.claim_codes(codes, restored=True)
            self._list(host)
        return len(restored)

    async def stop(self) -> None:
        """Stop every room's timer and search, and the sweeper."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for host in self.lobby:
            host.close()

    # -- what the hub shows -----------------------------------------------------------

    def has_room(self, code: str) -> bool:
        """True while the hub holds the room with this room code."""
        return self.lobby.get(code) is not None

    def room_info(self, code: str) -> RoomInfo | None:
        """The room with this room code as it is now; None if the hub holds none."""
        host = self.lobby.get(code)
        return None if host is None else RoomInfo.of(host.room, time.time(), game_id=host.game_id)

    def rooms(self) -> list[RoomInfo]:
        """Every room the hub holds, public and private, as it is now, oldest first."""
        now = time.time()
        return [RoomInfo.of(host.room, now, game_id=host.game_id) for host in self.lobby]

    def public_rooms(
        self, game: str | None = None, *, offset: int = 0, limit: int = ROOMS_PAGE_DEFAULT
    ) -> RoomPage:
        """A page of the public rooms (of ``game`` if given), as ``list_rooms`` and
        ``GET /api/rooms`` answer: rooms with a free seat first, then oldest first."""
        return self.lobby.public_page(game, offset=offset, limit=limit)

    async def lobby_page(
        self, game: str | None = None, *, offset: int = 0, limit: int = ROOMS_PAGE_DEFAULT
    ) -> RoomPage:
        """:meth:`public_rooms` of the whole cluster, or of this server alone."""
        if self.elsewhere is None:
            return self.public_rooms(game, offset=offset, limit=limit)
        return await self.elsewhere.public_page(game, offset, limit)

    def room_counts(self) -> dict[str, int]:
        """Rooms by status, for ``/metrics``."""
        counts = {"waiting": 0, "playing": 0, "finished": 0}
        for host in self.lobby:
            counts[host.room.status] += 1
        return counts

    def session_count(self) -> int:
        """How many sessions the hub holds: connected, or away within their grace."""
        return len(self.sessions)

    def session_name(self, session_id: ClientId) -> str | None:
        """The live session's name; None if no session has this id."""
        session = self.sessions.get(session_id)
        return None if session is None else session.name

    def hints_for(self, room: Room) -> bool:
        """Whether ``room`` allows hints now: as the class's switch says, but a
        tournament game as its tournament said (its own switch, off by default)."""
        return room.options.hints if room.options.tournament else self.hints

    # -- opening rooms ----------------------------------------------------------------

    async def new_codes(self, *, private: bool) -> RoomCodes:
        """Codes for a new room that no room holds: here, and in a cluster on
        any process (claimed there until the room is dropped)."""
        while True:
            codes = self.lobby.new_codes(private=private)
            # The cluster's claim is atomic in Redis: two processes never both get a code.
            if self.elsewhere is None or await self.elsewhere.claim_codes(codes):
                return codes

    def check_room_caps(
        self, session: Session, address: str, codes: RoomCodes, *, ai_match: bool = False
    ) -> None:
        """Refuse with ``too_many_rooms`` if the session may not open a room now,
        or with ``too_many_ai_matches`` if it may not start an ``ai_match`` (giving
        back ``codes``, claimed for it). Nothing awaits between this check and
        :meth:`opened_room`: the two are one step, so concurrent requests cannot
        both take the last place."""
        refusal = self.room_caps.check(session.id, address, self._counts_as_open)
        error: ProtocolError | None = None
        if refusal is not None:
            error = ProtocolError(ErrorCode.TOO_MANY_ROOMS, refusal.explain())
        elif ai_match:
            refusal = self.ai_match_caps.check(session.id, address, self._counts_as_open)
            if refusal is not None:
                error = ProtocolError(ErrorCode.TOO_MANY_AI_MATCHES, refusal.explain_ai_matches())
        if error is not None:
            if self.elsewhere is not None:
                task = asyncio.create_task(self.elsewhere.release_codes(codes))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
            raise error

    def opened_room(self, code: str, session: Session, address: str, *, ai_match: bool) -> None:
        """Count room ``code``, just opened by ``session`` from ``address``, against
        their caps (:meth:`check_room_caps` just passed)."""
        self.room_caps.opened(code, session.id, address)
        if ai_match:
            self.ai_match_caps.opened(code, session.id, address)

    def _counts_as_open(self, code: str, opener: ClientId) -> bool:
        """The :data:`~boardroom.server.core.room_caps.OpenTest`: the room's game is waiting or in
        play and its opener holds a seat there (or is about to: nobody is in yet),
        or, for an AI match, still watches it (the engine plays it for them)."""
        host = self.lobby.get(code)
        if host is None:
            return False
        room = host.room
        if room.options.ai_match:
            return room.status != "finished" and opener in room.members
        seated = room.side_of(opener) is not None or not room.members
        return room.status != "finished" and seated

    def add_room(
        self, game: Game, codes: RoomCodes, options: RoomOptions, *, quick: bool = False
    ) -> RoomHost:
        """Open a room of ``game`` under ``codes`` (paused during a pause) and
        put it in the lobby."""
        room = Room(
            codes.room,
            game.name,
            options=options,
            rng=self._rng(),
            now=time.time(),
            paused=self.paused,
        )
        host = self._host(room, quick=quick)
        self.lobby.add(host, codes)
        logger.info(
            "room opened", extra={"room": room.code, "game": game.name, "public": options.public}
        )
        self._list(host)
        return host

    # -- sessions in rooms ------------------------------------------------------------

    def find(self, code: str, access: str) -> RoomHost:
        """The room that ``code`` opens to take a seat (``access`` ``"seat"``) or
        to watch; ``unknown_room`` otherwise."""
        host = self.lobby.find(code, "seat" if access == "seat" else "watch")
        if host is None:
            what = "a public room's code or a private room's join code"
            if access == "watch":
                what += " or watch code"
            raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"no room opens with {code!r}: give {what}")
        return host

    async def enter(
        self,
        host: RoomHost,
        session: Session,
        request_id: int | str | None,
        *,
        watch: bool,
        by_code: str | None = None,
    ) -> None:
        """Seat the session in the room, or let it watch; the room answers it.
        A spectator who came in ``by_code`` the room's join code watches live in a
        room that delays its spectators: only its players and the teacher (the
        Watch link of the teacher's page) have that code."""
        room, client, name = host.room, session.id, session.name
        if watch:
            join_code = room.options.join_code
            live = by_code is not None and normalise_code(by_code) == join_code
            await host.run(
                lambda now: room.watch(client, name, now=now, request_id=request_id, live=live)
            )
        else:
            kind, player = session.kind, session.player
            await host.run(
                lambda now: room.seat(
                    client, name, kind, now=now, request_id=request_id, player=player
                )
            )
        if client in room.members:
            session.rooms.add(room.code)

    async def room_request(self, session: Session, message: RoomRequest) -> None:
        """Hand the room named by ``message`` the session's request;
        ``unknown_room`` if the hub holds no such room."""
        host = self.lobby.get(message.room)
        if host is None:
            raise ProtocolError(
                ErrorCode.UNKNOWN_ROOM, f"no room {message.room!r}: list_rooms shows open rooms"
            )
        client = session.id
        await host.run(lambda now: host.room.handle(client, message, now=now))
        if not host.room.has_member(client):
            session.rooms.discard(host.code)

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
            host = self.lobby.get(code)
            if host is None:
                continue
            with contextlib.suppress(RoomUnavailableError):
                # If the store refuses for now, the drop is told again later,
                # unless the session is back by then.
                await host.run_or_retry(
                    for_client(host.room.disconnected, client),
                    wanted=lambda: session.outbox is None,
                )
            if client not in host.room.members:
                session.rooms.discard(code)

    def adopt_session(self, record: SessionRecord) -> Session:
        """The session ``record`` describes, registered here (idle) if it is not
        yet: one opened on another process of the cluster, whose id is the hash of
        the same token, so it is the same session here."""
        known = None if record.player is None else PlayerId(record.player)
        session = self.sessions.adopt(ClientId(record.id), record.name, record.kind, player=known)
        session.watch_only = record.watch_only
        session.search_info = record.search_info
        return session

    async def end_session(self, session_id: ClientId, code: int, reason: str) -> None:
        """End the live session at once: its resume token opens nothing from now
        on, it leaves every room (a game in progress is resigned) and its
        connection is closed with ``code`` and ``reason``."""
        session = self.sessions.drop(session_id)
        outbox = None
        if session is not None:
            # Unhooked first: nothing more reaches it, and its socket's end is
            # not a drop to hold seats for (disconnected() skips it).
            outbox, session.outbox = session.outbox, None
        for host in self.rooms_with(session_id):
            with contextlib.suppress(RoomUnavailableError):
                await host.run_or_retry(for_client(host.room.remove, session_id))
        if outbox is not None:
            outbox.close(code, reason)
        self.kept.discard(session_id)

    def rooms_with(self, session_id: ClientId) -> list[RoomHost]:
        """The rooms the session is a member of."""
        # The rooms themselves, not the session's hints: those may lag behind.
        return [host for host in self.lobby if session_id in host.room.members]

    # -- each room's outputs ----------------------------------------------------------

    def _host(self, room: Room, *, quick: bool = False) -> RoomHost:
        return RoomHost(
            room,
            recorder=self.recorder,
            engine=self._engine,
            deliver=self._deliver,
            after=self._after,
            quick=quick,
            on_search=self._observe_search,
            wants_search=self._wants_search,
            engine_order=lambda request: self._engine_order(room, request),
            outage_limit=self.config.storage_outage_limit,
        )

    def _engine_order(self, room: Room, request: AiRequest) -> tuple[EnginePriority, Submitter]:
        """The :data:`~boardroom.server.room_host.EngineOrder` of ``room``'s searches:
        a hint is its asker's; an AI match's move its opener's (the room's own
        once restored: its opener is not known any more); the move of an AI a
        person plays is that person's (server/core/engine_queue.py orders them)."""
        if request.hint_for is not None:
            return EnginePriority.HINT, self._submitter(request.hint_for)
        if room.options.ai_match:
            opener = self.room_caps.opener(room.code)
            if opener is None:
                return EnginePriority.AI_MATCH, Submitter(f"room {room.code}")
            return EnginePriority.AI_MATCH, Submitter(opener[0], opener[1])
        seated = sorted(client for client in room.members if room.side_of(client) is not None)
        if not seated:
            return EnginePriority.SEATED, Submitter(f"room {room.code}")
        return EnginePriority.SEATED, self._submitter(seated[0])

    def _submitter(self, client: ClientId) -> Submitter:
        session = self.sessions.get(client)
        return Submitter(client, session.address if session is not None else "")

    def _observe_search(self, seconds: float, fallback_reason: str | None) -> None:
        self.metrics.observe_search(seconds)
        if fallback_reason is not None:
            self.metrics.count_fallback(fallback_reason)

    def _wants_search(self, client: ClientId) -> bool:
        session = self.sessions.get(client)
        return session is not None and session.search_info

    def _deliver(self, client: ClientId, message: ServerMessage, text: str) -> None:
        session = self.sessions.get(client)
        if session is not None and session.outbox is not None:
            if isinstance(message, Error):
                self.metrics.count_error(message.code)
            session.outbox.send(message, text)

    def _after(self, host: RoomHost, output: Output) -> None:
        if host.lost:
            self._lose(host)
            return
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
                self.events.publish(event)
        if moves:
            self.metrics.moves_total.inc(moves)
        if host.code not in self.lobby:
            return
        if host.room.is_empty:
            # Nobody sits, is held or watches: nobody can come back to it.
            self._drop_room(host)
        elif self.elsewhere is not None:
            self._list(host)

    async def tell_elsewhere_again(self) -> None:
        """Tell :attr:`elsewhere` every room here anew, codes and lobby line (it
        lost them: a cluster's Redis that restarted empty)."""
        if self.elsewhere is None:
            return
        for host in list(self.lobby):
            options = host.room.options
            codes = RoomCodes(host.code, options.join_code, options.watch_code)
            await self.elsewhere.claim_codes(codes, restored=True)
            self._listed.pop(host.code, None)
            self._list(host)

    def session_records(self) -> list[SessionRecord]:
        """Every live session here, as another process of a cluster would adopt it."""
        return [SessionRecord.of(session) for session in self.sessions]

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

    # -- letting rooms and sessions go ------------------------------------------------

    def _lose(self, host: RoomHost) -> None:
        """Let go of a room closed for an outage past the limit: its output was not
        stored, so none of its events is published; its members are told it is
        closed (they were sent ``storage_lost``), and the features hear it lost."""
        if host.code not in self.lobby:
            return
        closing = Closing.storage_lost()
        message = RoomClosed(
            room=host.code,
            reason=closing.english(),
            kind=closing.kind.value,
            names=dict(closing.names),
        )
        text = encode_message(message)
        for client in host.room.audience:
            self._deliver(client, message, text)
        self._drop_room(host, lost=True)
        for session in self.sessions:
            session.rooms.discard(host.code)

    def _drop_room(self, host: RoomHost, *, lost: bool = False) -> None:
        logger.info("room closed", extra={"room": host.code})
        self.lobby.remove(host.code)
        if self.elsewhere is not None:
            self._listed.pop(host.code, None)
            self.elsewhere.room_dropped(host.code)
        self.room_caps.forget(host.code)
        self.ai_match_caps.forget(host.code)
        self.recorder.forget(host.code)
        host.close()
        info = RoomInfo.of(host.room, time.time(), game_id=host.game_id)
        self.events.publish(RoomDropped(info, lost=lost))

    def let_go(self, host: RoomHost) -> None:
        """Forget a closed room: it is out of the lobby and nobody's hint."""
        if host.code in self.lobby:
            self._drop_room(host)  # a failed room; a closed one is gone already (_after)
        for session in self.sessions:
            session.rooms.discard(host.code)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.sweep(time.time())

    def sweep(self, now: float) -> None:
        """Drop room hints that no longer hold, then sessions idle past the grace window."""
        for session in self.sessions:
            session.rooms = {
                code
                for code in session.rooms
                if (host := self.lobby.get(code)) is not None and session.id in host.room.members
            }
        self.sessions.sweep(now, self.config.grace_seconds, keep=self.kept)


def for_client(input_method: Callable[..., Output], client: ClientId) -> Callable[[float], Output]:
    """A room input for :meth:`RoomHost.run` from a ``Room`` method taking ``(client, *, now)``."""
    return lambda now: input_method(client, now=now)


def hints_step(room: Room, allowed: bool) -> Step:
    """The room input that sets ``room``'s hints to ``allowed``."""

    def step(now: float) -> Output:
        return room.set_hints(allowed, now=now)

    return step
