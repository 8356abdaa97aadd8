"""The hub's dispatch: each decoded client message to what it asks for.

:class:`Dispatcher` answers ``ping``, opens or resumes sessions on ``hello``
(their player, their name, the checks a feature added), opens rooms on
``create_room`` and ``quick_match``, seats and lets watch on ``join`` and
``watch``, and hands every other request to its room (:class:`~boardroom.server.hub.rooms.Rooms`).
In a cluster a message for a room that no room here answers to goes to the
process that holds it (:class:`~boardroom.server.hub.boundary.RoomsElsewhere`). Every
refusal goes back as an ``error``, and changes nothing.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

import msgspec

from boardroom.server.core.limits import HINT_BURST, AddressRateLimits
from boardroom.server.core.lobby import RoomCodes
from boardroom.server.core.players import PlayerId, PlayerRecord, numbered_name
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import RoomOptions
from boardroom.server.core.sessions import Session
from boardroom.server.hub.boundary import HelloCheck, SessionWelcomed
from boardroom.server.hub.peer import Peer
from boardroom.server.hub.rooms import Rooms, for_client
from boardroom.server.player_directory import REVOKED, PlayerDirectory
from boardroom.server.room_host import RoomHost, RoomUnavailableError
from boardroom.server.store.errors import StorageUnavailableError
from boardroom.shared.errors import GameError
from boardroom.shared.games import Game, Player, get_game
from boardroom.shared.protocol.close_codes import (
    CLOSE_REASONS,
    CLOSE_TOKEN_REVOKED,
    CLOSE_TRY_AGAIN_LATER,
)
from boardroom.shared.protocol.codec import check_player_name
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError
from boardroom.shared.protocol.messages import (
    AUTOPILOT_OFF,
    LEVELS,
    PROTOCOL_VERSION,
    SUPPORTED_VERSIONS,
    AskHint,
    ClientMessage,
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
    Watch,
    Welcome,
    chosen_seat,
    seat_choice,
)

logger = logging.getLogger(
    "boardroom.server.hub"
)  # the hub's one logger (see boardroom.server.hub.rooms)

TAKEOVER_PENDING = "a server of the cluster stopped and its games are moving: reconnect"
"""Why a resuming hello's connection is closed (1013) when the takeover of the
rooms it may hold seats in did not come within the cluster's wait."""


class NameKeeper(Protocol):
    """Who names some players, whatever their hellos say (the class's roster):
    see :meth:`Dispatcher.keep_names`."""

    def name_of(self, player: PlayerId) -> str | None:
        """The name ``player`` goes by; None for a player who names itself."""
        ...

    def name_held(self, name: str, player: PlayerId | None) -> bool:
        """True if ``name`` (ignoring case) is another player's (not
        ``player``'s; None: a player not known yet), even while they are away."""
        ...


class Dispatcher:
    """Acts on each client message over the hub's rooms (see the module docstring)."""

    def __init__(
        self,
        rooms: Rooms,
        players: PlayerDirectory,
        end_revoked: Callable[[PlayerId], Awaitable[int]],
    ) -> None:
        """``end_revoked``: ends every session of a player whose token was revoked
        (:meth:`ClassControls.end_player
        <boardroom.server.hub.class_controls.ClassControls.end_player>`, what the
        admin API's revoke does at once), for a revocation this server learns of
        at a resuming hello (``boardroom token revoke``, beside it)."""
        self._rooms = rooms
        self._sessions = rooms.sessions
        self._lobby = rooms.lobby
        self._players = players
        self._end_revoked = end_revoked
        self._hello_checks: list[HelloCheck] = []
        self._name_keeper: NameKeeper | None = None
        per_minute = rooms.config.hints_per_minute
        # Keyed by session: a bucket is forgotten once full again (limits.py).
        self._hint_rates = (
            AddressRateLimits(per_minute / 60, HINT_BURST) if per_minute > 0 else None
        )

    # -- the boundary for features (boardroom.server.hub.boundary) ------------------------------

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

    # -- messages ---------------------------------------------------------------------

    async def handle(self, peer: Peer, message: ClientMessage) -> None:
        """Act on one decoded message; refusals go back as ``error``."""
        self._rooms.metrics.count_message(str(type(message).__struct_config__.tag))
        try:
            await self._dispatch(peer, message)
        except ProtocolError as refusal:
            self.refuse(
                peer, refusal.code, refusal.message, message.id, retry_after=refusal.retry_after
            )
        except RoomUnavailableError as failure:
            self.refuse(peer, ErrorCode.INTERNAL_ERROR, str(failure), message.id)
        except StorageUnavailableError as outage:
            # The database is down or locked for now: nothing was done, say when to retry.
            logger.warning("a request waits for the store: %s", outage)
            self.refuse(
                peer,
                ErrorCode.STORAGE_UNAVAILABLE,
                "the server cannot reach its database for now: nothing was done; "
                f"try again in {outage.retry_after:g} s",
                message.id,
                retry_after=outage.retry_after,
            )
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
        self._rooms.metrics.count_error(code)
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
        if isinstance(message, AskHint) and self._hint_rates is not None:
            delay = self._hint_rates.check(session.id, time.monotonic())
            if delay is not None:
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"you asked for many hints in a short time: ask again in {math.ceil(delay)} s "
                    "(each one takes the engine from everybody's AI)",
                    retry_after=round(delay, 1),
                )
        rooms = self._rooms
        match message:
            case ListRooms():
                game = resolve_game(message.game).name if message.game else None
                page = await rooms.lobby_page(game, offset=message.offset, limit=message.limit)
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
                host = rooms.find(message.code, "seat")
                await rooms.enter(host, session, message.id, watch=False)
            case Watch():
                host = rooms.find(message.code, "watch")
                await rooms.enter(host, session, message.id, watch=True, by_code=message.code)
            case QuickMatch() if self._no_quick_room_here(peer, session, message):
                if not await self._forward(peer, session, message):
                    await self._quick_match(session, peer.connection.address, message)
            case QuickMatch():
                await self._quick_match(session, peer.connection.address, message)
            case _ if self._elsewhere_takes(peer, message.room, message):
                await self._forward(peer, session, message)
            case _:
                await rooms.room_request(session, message)

    # -- the cluster: rooms of other processes ----------------------------------------

    def _elsewhere_takes(self, peer: Peer, code: str, message: ClientMessage) -> bool:
        """Whether to ask the cluster about a message for ``code``: there is a
        cluster, the message was not sent on to here, and no room here answers
        to the code."""
        if self._rooms.elsewhere is None or peer.relayed:
            return False
        if isinstance(message, Join | Watch):
            return self._lobby.find(code, "watch" if isinstance(message, Watch) else "seat") is None
        return self._lobby.get(code) is None

    def _no_quick_room_here(self, peer: Peer, session: Session, message: QuickMatch) -> bool:
        if self._rooms.elsewhere is None or peer.relayed:
            return False
        game = resolve_game(message.game, message.m, message.n, message.k)
        return self._lobby.quick_match_room(game.name, exclude=session.rooms) is None

    async def _forward(self, peer: Peer, session: Session, message: ClientMessage) -> bool:
        """Hand ``message`` to the process of the cluster whose room takes it;
        refuse it as a server alone would if none does. True if it went."""
        elsewhere = self._rooms.elsewhere
        assert elsewhere is not None and peer.token is not None
        if await elsewhere.forward(session, peer.token, peer.connection.address, message):
            return True
        if isinstance(message, Join | Watch):
            # No other process takes it: refused as here alone, or entered here
            # when the room came here meanwhile (a dead process's, taken over).
            watch = isinstance(message, Watch)
            host = self._rooms.find(message.code, "watch" if watch else "seat")
            await self._rooms.enter(host, session, message.id, watch=watch, by_code=message.code)
        elif not isinstance(message, QuickMatch):
            await self._rooms.room_request(session, message)  # type: ignore[arg-type]
        return False

    # -- hello ------------------------------------------------------------------------

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
        A player revoked by ``end_player`` while its hello awaited is refused
        as a revoked token is; so is a resume token alone whose session's
        player the store says is revoked (by ``boardroom token revoke``, which
        writes the database beside the server): its sessions then end as the
        admin API's revoke ends them."""
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
        elsewhere = self._rooms.elsewhere
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
            if resumed is None and elsewhere is not None:
                # Opened on another process of the cluster: it is the same session here.
                record = await elsewhere.recall(hello.resume_token)
                if record is not None and self._sessions.resume(hello.resume_token) is None:
                    self._rooms.adopt_session(record)
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
            if (
                player is None
                and resumed.player is not None
                and await self._players.revoked(resumed.player)
            ):
                # Revoked in the database by another process: this server hears
                # of it now. Ended as if revoked here, this session with the rest.
                await self._end_revoked(resumed.player)
                self.refuse(peer, ErrorCode.PLAYER_TOKEN_REVOKED, REVOKED, hello.id)
                peer.connection.close(CLOSE_TOKEN_REVOKED, CLOSE_REASONS[CLOSE_TOKEN_REVOKED])
                return
            session, token = resumed, hello.resume_token
        try:
            for check in tuple(self._hello_checks):
                await check(session)
        except BaseException:
            if hello.resume_token is None:
                self._sessions.drop(session.id)  # never welcomed: nobody holds its token
            raise
        resumed_elsewhere: list[str] | None = []
        if elsewhere is not None and hello.resume_token is not None:
            # Before the session is hooked to this connection: while a dead
            # process's rooms are being taken over here, nothing they send may
            # reach the client ahead of its welcome. Away meanwhile (idle since
            # now), so that the sweeper keeps it through the grace window.
            if session.outbox is None and session.idle_since is None:
                session.idle_since = time.time()
            resumed_elsewhere = await elsewhere.rooms_elsewhere(session, token)
            if resumed_elsewhere is None:
                peer.connection.close(CLOSE_TRY_AGAIN_LATER, TAKEOVER_PENDING)
                return
        if player is not None and new_token is None:
            await self._players.seen(player, said if kept_name is None else kept_name)
        if player is not None and player.id in self._rooms.revoked:
            # Revoked (end_player) while this hello awaited: its token was looked
            # up before the revocation was stored. Nothing awaits from here to
            # the welcome, so no hello of a revoked player gets past this.
            await self._rooms.end_session(
                session.id, CLOSE_TOKEN_REVOKED, CLOSE_REASONS[CLOSE_TOKEN_REVOKED]
            )
            self.refuse(peer, ErrorCode.PLAYER_TOKEN_REVOKED, REVOKED, hello.id)
            peer.connection.close(CLOSE_TOKEN_REVOKED, CLOSE_REASONS[CLOSE_TOKEN_REVOKED])
            return
        if session.outbox is not None:
            session.outbox.replace()
        session.outbox = peer.connection
        session.search_info = hello.search_info
        session.address = peer.connection.address
        session.idle_since = None
        peer.session, peer.token = session, token
        peer.connection.send(self._welcome(session, token, hello, new_token, resumed_elsewhere))
        if elsewhere is not None:
            elsewhere.welcomed(session, token, peer.connection.address)
        connection = peer.connection
        for code in sorted(session.rooms):
            host = self._lobby.get(code)
            if host is not None:
                # Welcomed already: a store that refuses for now delays the room's
                # news of the return, and the session's hello stands.
                await host.run_or_retry(
                    for_client(host.room.reconnected, session.id),
                    wanted=lambda: session.outbox is connection,
                )
        self._rooms.events.publish(SessionWelcomed(session.id))

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

    # -- opening rooms ----------------------------------------------------------------

    async def _create_room(self, session: Session, address: str, message: CreateRoom) -> None:
        game = resolve_game(message.game, message.m, message.n, message.k)
        match = message.ai_match
        if match is not None and (
            message.ai_level is not None or chosen_seat(message.seat) is not Player.FIRST
        ):
            raise ProtocolError(
                ErrorCode.BAD_OPTIONS,
                "ai_match: the AI takes both seats, so give no seat or ai_level with it",
            )
        rooms = self._rooms
        codes = await rooms.new_codes(private=not message.public)
        rooms.check_room_caps(session, address, codes, ai_match=match is not None)
        host = self._open_room(game, codes, public=message.public, request=message)
        rooms.opened_room(host.code, session, address, ai_match=match is not None)
        # The creator of an AI match watches it; the AI sits down once they are in.
        await rooms.enter(host, session, message.id, watch=match is not None)
        # The creator has its answer already (the room's state): an AI whose game
        # cannot be stored for now sits down once it can (run_or_retry).
        if match is not None:
            await host.run_or_retry(
                lambda now: host.room.add_ai(match.first, now=now, side=Player.FIRST)
            )
            await host.run_or_retry(
                lambda now: host.room.add_ai(match.second, now=now, side=Player.SECOND)
            )
        elif message.ai_level is not None and host.room.has_free_seat:
            level = message.ai_level
            await host.run_or_retry(lambda now: host.room.add_ai(level, now=now))

    async def _quick_match(self, session: Session, address: str, message: QuickMatch) -> None:
        rooms = self._rooms
        game = resolve_game(message.game, message.m, message.n, message.k)
        host = self._lobby.quick_match_room(game.name, exclude=session.rooms)
        if host is None:
            codes = await rooms.new_codes(private=False)
            rooms.check_room_caps(session, address, codes)
            host = self._open_room(game, codes, public=True, request=None, quick=True)
            rooms.opened_room(host.code, session, address, ai_match=False)
        await rooms.enter(host, session, message.id, watch=False)

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
                creator_seat=request.seat if request is not None else seat_choice(Player.FIRST),
                clock=request.clock if request is not None else RoomOptions().clock,
                grace_seconds=self._rooms.config.grace_seconds,
                hints=self._rooms.hints,
                ai_match=match is not None,
                ai_pace=match.pace if match is not None else 0.0,
                autopilot=self._autopilot(request),
                join_code=codes.join,
                watch_code=codes.watch,
            )
        except ValueError as error:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, str(error)) from None
        return self._rooms.add_room(game, codes, options, quick=quick)

    def _autopilot(self, request: CreateRoom | None) -> Level | None:
        """The autopilot level ``request`` chose (``off``: None), or the server's
        (the class's default in class mode) when it chose none (a quick match's
        room: the server's). An AI match has no held seats, so none.
        ``bad_options`` for a word that is no level."""
        if request is not None and request.ai_match is not None:
            return None
        chosen = request.autopilot if request is not None else None
        if chosen is None:
            return self._rooms.autopilot
        if chosen == AUTOPILOT_OFF:
            return None
        if chosen not in LEVELS:
            raise ProtocolError(
                ErrorCode.BAD_OPTIONS,
                f"autopilot={chosen!r}: choose one of {', '.join(LEVELS)}, or off",
            )
        return Level(chosen)


def resolve_game(
    name: str, m: int | None = None, n: int | None = None, k: int | None = None
) -> Game:
    """The game a request names; :class:`ProtocolError` (``unknown_game``) otherwise."""
    try:
        return get_game(name, m=m, n=n, k=k)
    except GameError as error:
        raise ProtocolError(ErrorCode.UNKNOWN_GAME, str(error)) from None


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
