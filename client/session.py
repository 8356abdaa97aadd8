"""One player's protocol session with a Boardroom server, surviving dropped connections.

A :class:`Session` opens the WebSocket, says ``hello``, and then owns one reader
task that decodes every server message, folds it into the rooms it tracks
(:class:`~boardroom.client.tracked_room.TrackedRoom`), answers the request waiting for it,
and hands it to every subscriber. When the connection drops it reconnects by
itself with the resume token, and the server sends the ``state`` of every room
whose seat it gave back; rooms that were only watched are watched again.

Contract for callers:

- :meth:`Session.request` sends one client message with an ``id`` and returns the
  reply (or raises :class:`~boardroom.client.errors.RequestRefusedError` with the server's code).
  While the connection is down it raises :class:`~boardroom.client.errors.ConnectionLostError`
  at once rather than queueing: the caller decides what is safe to resend.
- :meth:`Session.subscribe` gives a queue of everything that happens from then on:
  each decoded server message (boardroom.shared.protocol structs), replies to this session's
  own requests included (a user interface can draw from events alone), and the
  connection's own
  events :class:`Disconnected`, :class:`Reconnected` and :class:`SessionEnded`.
  Rooms are updated before an event is queued, so a subscriber reading
  ``session.rooms`` sees the state the event produced (or a later one).
- Requests are paced (:mod:`boardroom.client.pacing`) just under the server's rate limit,
  so a fast bot waits a little rather than being refused.
- Every string a server sends is handed on printable
  (:func:`boardroom.client.printable.decode_printable`): a control character in a name,
  a chat line or an error message arrives as an escape (``\\x1b``), never as
  something a terminal would obey.
- The player: ``player_token`` (given, or minted by the server on the first
  ``welcome`` and kept in :attr:`Session.player_token`) goes with every
  ``hello``, so every reconnection is the same player; :attr:`Session.player_id`
  and :attr:`Session.new_player` say who that is. A token the server does not know
  (``bad_player_token``) or has revoked (``player_token_revoked``) fails
  :meth:`Session.start` with that code, and the caller decides (a person plays
  on as a new player: drop the token and start again; a bot stops). Met on a
  reconnection, either ends the session: nothing the session could resend would
  be accepted.
- A ``hello`` refused as ``rate_limited`` (the server makes only so many new
  players an address at a time) is said again on a new connection after the
  server's ``retry_after``, a little longer each time (:func:`busy_wait`), by
  :meth:`Session.start` and on a reconnection alike, for as long as it takes;
  :attr:`Session.on_busy` hears of each wait, to say so. The refusals of the
  player (``bad_player_token``, ``unknown_class_token``,
  ``player_token_revoked``) stay final.
- A request refused as ``storage_unavailable`` (the server cannot save to its
  database for now; the request changed nothing) is sent again by
  :meth:`Session.request` after the server's ``retry_after``, a little longer each
  time (:func:`busy_wait`), for up to :data:`STORAGE_RETRY_FOR` seconds, before
  the refusal is raised: a move made during a database outage is played once the
  database is back, and the caller (a bot's code, the terminal) never knows;
  :attr:`Session.on_saving_paused` hears of each wait, to say so. A ``hello``
  refused so is said again as for ``rate_limited``.
- Every message goes out with an ``id``. The server handles a connection's
  messages one at a time, in order, so an ``error`` without an ``id``
  (``rate_limited``) refuses the oldest request still waiting, which is failed
  with that error.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from boardroom.client.errors import (
    ClientError,
    ConnectionLostError,
    RequestRefusedError,
    ServerUnreachableError,
)
from boardroom.client.pacing import DEFAULT_PACE, Pacer
from boardroom.client.printable import decode_printable, printable
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.i18n import _
from boardroom.shared.protocol import ErrorCode, encode_message
from boardroom.shared.protocol.close_codes import (
    CLOSE_REASONS,
    CLOSE_TRY_AGAIN_LATER,
    FINAL_CLOSE_CODES,
)
from boardroom.shared.protocol.messages import (
    PROTOCOL_VERSION,
    ClientMessage,
    Error,
    GetState,
    Hello,
    Left,
    RoomClosed,
    ServerMessage,
    State,
    Watch,
    Welcome,
)

logger = logging.getLogger(__name__)

DEFAULT_SERVER_URL = "ws://127.0.0.1:8765/ws"
"""Where ``boardroom serve`` listens by default."""

REPLY_TIMEOUT = 30.0
"""Seconds to wait for the reply to a request. The server answers in
milliseconds; this only keeps a caller from waiting for ever on a broken server."""

_BACKOFF_FIRST = 0.25
_BACKOFF_MAX = 3.0
"""Seconds between reconnection attempts: quick at first (a restarting server is
back within a second or two), then every few seconds so as not to hammer it."""


BUSY_WAIT_MAX = 60.0
"""Seconds at most between two ``hello`` to a server that says it is busy: its
``retry_after`` is honoured, but a client never waits longer than a minute."""

_BUSY_GROWTH = 0.5
"""Each wait for a busy server is this much of its ``retry_after`` longer than the
one before: a class that came back at once is spread out more at each round."""

_BUSY_JITTER = 0.2
"""Up to this fraction is added at random to each wait for a busy server."""


def busy_wait(retry_after: float | None, waits_before: int, *, jitter: float = 0.0) -> float:
    """Seconds to wait before saying ``hello`` again after it was refused as
    ``rate_limited`` with ``retry_after`` (1 s when the server said none), when
    ``waits_before`` such waits came before it: the server's time, half of it more
    for each earlier wait, times ``1 + jitter``; at most :data:`BUSY_WAIT_MAX`.

    >>> [busy_wait(10.0, n) for n in range(4)], busy_wait(None, 0), busy_wait(50.0, 3)
    ([10.0, 15.0, 20.0, 25.0], 1.0, 60.0)
    >>> busy_wait(10.0, 0, jitter=0.2)
    12.0
    """
    base = retry_after if retry_after is not None and retry_after > 0 else 1.0
    return min(base * (1 + _BUSY_GROWTH * waits_before) * (1 + jitter), BUSY_WAIT_MAX)


STORAGE_RETRY_FOR = 600.0
"""Seconds a request refused as ``storage_unavailable`` is sent again for, before
the refusal is raised: as long as the server keeps a room whose game it cannot
save (its ``storage_outage_limit``, 10 minutes by default)."""

_RETRIED_HELLO = frozenset({ErrorCode.RATE_LIMITED, ErrorCode.STORAGE_UNAVAILABLE})
"""Refusals of a ``hello`` that say when to come back: it is said again then."""

TRY_AGAIN_TIMES = 10
"""Times :meth:`Session.start` says hello again to a server that closed the
connection with 1013 (try again later) in answer to it."""

_PLAYER_REFUSALS = frozenset(
    {ErrorCode.BAD_PLAYER_TOKEN, ErrorCode.UNKNOWN_CLASS_TOKEN, ErrorCode.PLAYER_TOKEN_REVOKED}
)
"""Refusals of a ``hello`` that no retry with the same player token can mend."""


@dataclass(frozen=True)
class Disconnected:
    """The connection dropped. ``will_retry``: the session is reconnecting."""

    code: int | None
    reason: str
    will_retry: bool


@dataclass(frozen=True)
class Reconnected:
    """The connection is back. ``resumed_rooms``: seats the server gave back (their
    ``state`` follows); ``lost_rooms``: seated rooms it did not (the grace window
    ran out, or the server forgot the session), now dropped from ``rooms``."""

    resumed_rooms: list[str]
    lost_rooms: list[str]


@dataclass(frozen=True)
class SessionEnded:
    """The session is over for good (closed, taken over, or the server stayed away)."""

    reason: str


SessionEvent = ServerMessage | Disconnected | Reconnected | SessionEnded


def normalize_server_url(text: str) -> str:
    """A WebSocket URL from what a person types: ``host``, ``host:port``,
    ``ws://host:port`` or a full URL; the port defaults to 8765 and the path to ``/ws``.

    >>> normalize_server_url("192.168.1.20")
    'ws://192.168.1.20:8765/ws'
    >>> normalize_server_url("http://example.org:9000")
    'ws://example.org:9000/ws'
    >>> normalize_server_url("wss://games.example.org/boardroom/ws")
    'wss://games.example.org/boardroom/ws'
    """
    text = text.strip()
    if "://" not in text:
        text = "ws://" + text
    parts = urlsplit(text)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    netloc = parts.netloc
    if parts.port is None and scheme == "ws" and netloc:
        netloc = f"{netloc}:8765"
    path = parts.path if parts.path not in ("", "/") else "/ws"
    return urlunsplit((scheme, netloc, path, parts.query, ""))


class Session:
    """One player's session with a server (see the module docstring for the contract).

    Use as an async context manager, or call :meth:`start` and :meth:`close`.
    ``reconnect_for``: seconds to keep trying after a drop before giving up
    (:class:`SessionEnded`); ``pace``: requests a second and burst to stay within
    (None: no pacing).
    """

    def __init__(
        self,
        url: str,
        name: str,
        *,
        client_kind: Literal["human", "bot", "spectator"] = "human",
        reconnect_for: float = 120.0,
        open_timeout: float = 10.0,
        resume_token: str | None = None,
        player_token: str | None = None,
        pace: tuple[float, int] | None = DEFAULT_PACE,
        search_info: bool = False,
    ) -> None:
        self.url = normalize_server_url(url)
        self.search_info = search_info
        """Ask for the server AI's search with its moves (``hello.search_info``):
        each AI ``moved`` then carries ``search``."""
        self.name = name
        self.client_kind: Literal["human", "bot", "spectator"] = client_kind
        self.reconnect_for = reconnect_for
        self.open_timeout = open_timeout
        self.rooms: dict[str, TrackedRoom] = {}
        """The rooms this session is seated in or watching, by room code."""
        self.resume_token = resume_token
        """The token to resume with; set from ``welcome`` (pass one to take a session over)."""
        self.player_token = player_token
        """The player's token, said in every ``hello``: the one given, or the one the
        server minted in the first ``welcome`` (a secret: keep it, never log it)."""
        self.player_id: str | None = None
        """The player's public id from ``welcome`` (None before it, or from a server
        that predates players)."""
        self.new_player = False
        """True when the server made a new player for this session (its first
        ``welcome`` said so, and carried the token now in :attr:`player_token`)."""
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._pacer = Pacer(*pace) if pace is not None else None
        self._pending: dict[int, asyncio.Future[ServerMessage]] = {}
        self._subscribers: list[asyncio.Queue[SessionEvent]] = []
        self._listeners: list[Callable[[SessionEvent], None]] = []
        self._watch_codes: dict[str, str] = {}
        """Rooms watched: room code -> the code that let us in (watched again after a drop)."""
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[object]] = set()
        self._closing = False
        self.ended: SessionEnded | None = None
        self.on_busy: Callable[[float], None] | None = None
        """Called with the seconds to wait before each ``hello`` said again because
        the server refused the last as busy (``rate_limited``), before the wait: a
        client says so. It must be quick and must not raise."""
        self.on_saving_paused: Callable[[float], None] | None = None
        """Called with the seconds to wait before a request (a move) or a ``hello``
        is sent again because the server could not save it (``storage_unavailable``),
        before the wait: a client says so. It must be quick and must not raise."""

    # -- lifecycle -----------------------------------------------------------------

    async def __aenter__(self) -> Session:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @property
    def connected(self) -> bool:
        """True while a connection is open and greeted."""
        return self._ws is not None

    async def start(self) -> Welcome:
        """Connect and say ``hello``, with ``player_token`` and ``resume_token`` if
        given; a resume token the server no longer knows is dropped and a new session
        started (compare ``welcome.resume_token``). Raises
        :class:`ServerUnreachableError`, or :class:`RequestRefusedError` if the server
        refuses the hello (``bad_name``, ``bad_player_token``,
        ``player_token_revoked``...). After a refusal nothing has started: the
        caller may change ``player_token`` (to None: a new player) and start again.
        A server too busy to make a new player (``rate_limited``) is asked again,
        for as long as it takes (see the module docstring)."""
        waits = 0
        while True:
            ws = await self._open()
            try:
                welcome = await self._greet_resuming(ws)
                break
            except RequestRefusedError as refusal:
                await ws.close()
                if refusal.code not in _RETRIED_HELLO:
                    raise
                await self._wait_while_busy(refusal, waits)
                waits += 1
            except ConnectionClosed:
                # 1013 in answer to hello: try again later (a cluster still taking
                # over the rooms of a process that died, the seats kept meanwhile).
                if ws.close_code != CLOSE_TRY_AGAIN_LATER or waits >= TRY_AGAIN_TIMES:
                    raise
                await asyncio.sleep(busy_wait(None, waits))
                waits += 1
            except BaseException:
                await ws.close()
                raise
        self._ws = ws
        self._reader = asyncio.create_task(self._read_forever(), name="session-reader")
        return welcome

    async def close(self) -> None:
        """Close the connection (code 1000) and stop every task. Seats in games in
        progress are held by the server for its grace window, as after any drop."""
        self._closing = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        for task in [self._reader, *self._tasks]:
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        self._fail_pending(ConnectionLostError(_("the session was closed")))
        if self.ended is None:
            self._end("the session was closed")

    # -- talking to the server -------------------------------------------------------

    async def request(
        self, message: ClientMessage, *, timeout: float = REPLY_TIMEOUT
    ) -> ServerMessage:
        """Send ``message`` and return the server's reply to it.

        Raises :class:`RequestRefusedError` if the server answers with ``error``, and
        :class:`ConnectionLostError` if there is no connection or it drops first.
        A ``storage_unavailable`` refusal is not raised at once: the request is
        sent again after each ``retry_after`` (see the module docstring).
        """
        started = time.monotonic()
        waits = 0
        while True:
            try:
                return await self._request_once(message, timeout=timeout)
            except RequestRefusedError as refusal:
                if refusal.code != ErrorCode.STORAGE_UNAVAILABLE:
                    raise
                delay = busy_wait(
                    refusal.retry_after, waits, jitter=random.uniform(0, _BUSY_JITTER)
                )
                if time.monotonic() + delay - started > STORAGE_RETRY_FOR:
                    raise
                logger.info("the server cannot save for now: sending again in %.1f s", delay)
                self._tell(self.on_saving_paused, delay)
                await asyncio.sleep(delay)
                waits += 1

    async def _request_once(self, message: ClientMessage, *, timeout: float) -> ServerMessage:
        """:meth:`request`, once: a ``storage_unavailable`` refusal is raised too."""
        if self._pacer is not None:
            await self._pacer.wait()
        ws = self._ws
        if ws is None:
            raise ConnectionLostError(_("not connected to the server (reconnecting)"))
        request_id = next(self._ids)
        future: asyncio.Future[ServerMessage] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            try:
                await ws.send(encode_message(msgspec.structs.replace(message, id=request_id)))
            except ConnectionClosed as error:
                raise ConnectionLostError(_("the connection dropped while sending")) from error
            try:
                # Not wait_for: on 3.11 it can return a reply that arrives in the same
                # step as a cancel, and swallow the cancellation.
                async with asyncio.timeout(timeout):
                    reply = await future
            except TimeoutError:
                raise ClientError(
                    _("no reply from the server within {seconds} s", seconds=format(timeout, "g"))
                ) from None
        finally:
            self._pending.pop(request_id, None)
        if isinstance(reply, Error):
            raise RequestRefusedError(reply.code, reply.message, reply.retry_after)
        if isinstance(message, Watch) and isinstance(reply, State):
            self._watch_codes[reply.room.code] = message.code
        return reply

    def subscribe(self) -> asyncio.Queue[SessionEvent]:
        """A queue that receives every event from now on (see the module docstring)."""
        queue: asyncio.Queue[SessionEvent] = asyncio.Queue()
        self._subscribers.append(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[SessionEvent]) -> None:
        """Stop delivering to ``queue``."""
        with contextlib.suppress(ValueError):
            self._subscribers.remove(queue)

    def add_listener(self, listener: Callable[[SessionEvent], None]) -> None:
        """Call ``listener`` with every event from now on, at once, as the rooms
        change: before any subscriber (or the caller of the request it answers)
        sees it. It must be quick and must not raise (an exception is logged)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Callable[[SessionEvent], None]) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    # -- connection ------------------------------------------------------------------

    async def _open(self) -> ClientConnection:
        try:
            return await connect(
                self.url,
                open_timeout=self.open_timeout,
                compression=None,  # the server turns it off; offering it only costs memory
                max_size=2**20,
            )
        except InvalidURI as error:
            raise ServerUnreachableError(
                _("{url!r} is not a WebSocket address: {error}", url=self.url, error=error)
            ) from None
        except (OSError, InvalidHandshake, TimeoutError) as error:
            reason = printable(str(error) or type(error).__name__)  # may quote the server
            raise ServerUnreachableError(
                _("cannot reach a Boardroom server at {url}: {reason}", url=self.url, reason=reason)
            ) from None

    async def _greet_resuming(self, ws: ClientConnection) -> Welcome:
        """Say ``hello`` with the resume token; if the server no longer knows it (the
        grace window is over, or it restarted without it), start a new session."""
        if self.resume_token is None:
            return await self._greet(ws, token=None)
        try:
            return await self._greet(ws, token=self.resume_token)
        except RequestRefusedError as refusal:
            if refusal.code != "bad_token":
                raise
        return await self._greet(ws, token=None)

    async def _greet(self, ws: ClientConnection, *, token: str | None) -> Welcome:
        """Say ``hello`` on a fresh connection and wait for the answer to it."""
        hello = Hello(
            name=self.name,
            version=PROTOCOL_VERSION,
            client=self.client_kind,
            resume_token=token,
            player_token=self.player_token,
            search_info=self.search_info,
            id=0,
        )
        await ws.send(encode_message(hello))
        async with asyncio.timeout(self.open_timeout):
            while True:
                frame = await ws.recv()
                try:
                    reply = decode_printable(frame)
                except ValueError:
                    continue
                if reply.id != 0:
                    continue
                if isinstance(reply, Error):
                    raise RequestRefusedError(reply.code, reply.message, reply.retry_after)
                if isinstance(reply, Welcome):
                    self.resume_token = reply.resume_token
                    self.name = reply.name
                    self.player_id = reply.player_id
                    if reply.player_token is not None:  # minted for us: said this once only
                        self.player_token = reply.player_token
                        self.new_player = True
                    return reply

    @staticmethod
    def _tell(callback: Callable[[float], None] | None, seconds: float) -> None:
        """Call a client's ``on_...`` callback; a failing one is logged, never raised."""
        if callback is None:
            return
        try:
            callback(seconds)
        except Exception:
            logger.exception("a session callback failed")

    async def _wait_while_busy(self, refusal: RequestRefusedError, waits_before: int) -> None:
        """Wait before saying ``hello`` again to a server that refused it as busy."""
        delay = busy_wait(refusal.retry_after, waits_before, jitter=random.uniform(0, _BUSY_JITTER))
        logger.info("the server is busy: saying hello again in %.1f s", delay)
        if refusal.code == ErrorCode.STORAGE_UNAVAILABLE:
            self._tell(self.on_saving_paused, delay)
        elif self.on_busy is not None:
            try:
                self.on_busy(delay)
            except Exception:
                logger.exception("the on_busy callback failed")
        await asyncio.sleep(delay)

    async def _read_forever(self) -> None:
        """Read the connection; after a drop, reconnect; end when the session does."""
        while True:
            ws = self._ws
            assert ws is not None
            try:
                async for frame in ws:
                    self._dispatch(frame)
            except ConnectionClosed:
                pass
            self._ws = None
            self._fail_pending(ConnectionLostError(_("the connection dropped before the reply")))
            if self._closing:
                return
            code = ws.close_code
            reason = CLOSE_REASONS.get(code or 1006, f"the connection closed (code {code})")
            if code in FINAL_CLOSE_CODES:
                self._publish(Disconnected(code, reason, will_retry=False))
                self._end(reason)
                return
            self._publish(Disconnected(code, reason, will_retry=True))
            failure = await self._reconnect()
            if failure is not None:
                self._end(f"{reason}, and {failure}")
                return

    async def _reconnect(self) -> str | None:
        """Reconnect and resume: None once done, else why not (the server stayed away
        for ``reconnect_for``, or refused the player)."""
        deadline = time.monotonic() + self.reconnect_for
        delay = _BACKOFF_FIRST
        busy_waits = 0
        while not self._closing and time.monotonic() < deadline:
            try:
                ws = await self._open()
            except ServerUnreachableError:
                await asyncio.sleep(delay)
                delay = min(delay * 2, _BACKOFF_MAX)
                continue
            try:
                welcome = await self._greet_resuming(ws)
            except (RequestRefusedError, ConnectionClosed, OSError, TimeoutError) as error:
                await ws.close()
                if isinstance(error, RequestRefusedError) and error.code in _PLAYER_REFUSALS:
                    # The player is unknown here now, or revoked: saying hello again
                    # would be refused again (and count as a guess).
                    return f"the server refused this player: {error.message}"
                if isinstance(error, RequestRefusedError) and error.code in _RETRIED_HELLO:
                    # Busy (a session without a player yet): the server is there and
                    # says when to come back, so the session is not given up meanwhile.
                    deadline = max(deadline, time.monotonic() + BUSY_WAIT_MAX)
                    await self._wait_while_busy(error, busy_waits)
                    busy_waits += 1
                    continue
                logger.info("reconnecting: %s", error)
                await asyncio.sleep(delay)
                delay = min(delay * 2, _BACKOFF_MAX)
                continue
            self._ws = ws
            self._publish(self._resumed(welcome))
            return None
        return f"the server could not be reached again within {self.reconnect_for:g} s"

    def _resumed(self, welcome: Welcome) -> Reconnected:
        """Drop the seated rooms the server did not give back; watch the others again."""
        resumed = set(welcome.resumed_rooms)
        lost = [
            code
            for code, room in self.rooms.items()
            if room.you is not None and code not in resumed
        ]
        for code in lost:
            del self.rooms[code]
        # Kept until each watch again is answered: a drop before that leaves them
        # for the next reconnection to watch again (never forgotten on the way).
        self._watch_codes = {
            room: code for room, code in self._watch_codes.items() if room in self.rooms
        }
        self._spawn(self._watch_again(list(self._watch_codes.items())))
        return Reconnected(resumed_rooms=list(welcome.resumed_rooms), lost_rooms=lost)

    async def _watch_again(self, watched: Iterable[tuple[str, str]]) -> None:
        for room, code in watched:
            try:
                await self.request(Watch(code=code))
            except RequestRefusedError:
                # The room is gone: tell subscribers as if we had left it.
                self._watch_codes.pop(room, None)
                self.rooms.pop(room, None)
                self._publish(Left(room=room))
            except ClientError:
                return  # dropped again: the next reconnect tries again

    # -- incoming --------------------------------------------------------------------

    def _dispatch(self, frame: str | bytes) -> None:
        try:
            message = decode_printable(frame)
        except ValueError:
            # A newer server may send what this client does not know: skip it.
            logger.debug("skipping an undecodable server message: %.200r", frame)
            return
        self._track(message)
        request_id = message.id
        if isinstance(request_id, int) and request_id in self._pending:
            future = self._pending.pop(request_id)
            if not future.done():
                future.set_result(message)
        elif isinstance(message, Error) and request_id is None and self._pending:
            # Refused before it was read (rate_limited): the oldest request waiting.
            oldest = min(self._pending)
            future = self._pending.pop(oldest)
            if not future.done():
                future.set_result(message)
        self._publish(message)

    def _track(self, message: ServerMessage) -> None:
        """Fold ``message`` into the tracked rooms; ask again for a room out of step."""
        if isinstance(message, State):
            code = message.room.code
            room = self.rooms.get(code)
            if room is None:
                self.rooms[code] = TrackedRoom(message.room)
            else:
                room.apply(message)
            return
        if isinstance(message, Left | RoomClosed):
            # Nothing more comes from that room: left, or closed by the teacher.
            self.rooms.pop(message.room, None)
            self._watch_codes.pop(message.room, None)
            return
        room_code = getattr(message, "room", None)
        tracked = self.rooms.get(room_code) if isinstance(room_code, str) else None
        if tracked is not None and not tracked.apply(message):
            self._spawn(self._resync(tracked.code))

    async def _resync(self, code: str) -> None:
        with contextlib.suppress(ClientError):
            await self.request(GetState(room=code))

    # -- plumbing --------------------------------------------------------------------

    def _publish(self, event: SessionEvent) -> None:
        for listener in tuple(self._listeners):
            try:
                listener(event)
            except Exception:  # a listener's bug must not stop the session
                logger.exception("a session listener failed")
        for queue in self._subscribers:
            queue.put_nowait(event)

    def _end(self, reason: str) -> None:
        self.ended = SessionEnded(reason)
        self._publish(self.ended)

    def _fail_pending(self, error: Exception) -> None:
        pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(error)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
