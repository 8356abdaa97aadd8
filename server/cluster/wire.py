"""Commands to Redis written by hand: :class:`Wire`, for the relay's publishes.

Contract: a :class:`Wire` is one TCP connection to Redis (RESP2, the protocol
every Redis speaks), authenticated and on its database as the URL's options
say. :meth:`Wire.send` writes commands already packed (:func:`pack_publish`) in
one write and returns a future of their replies, in order, parsed by hiredis
in the connection's own callback: no task, no stream and no timer of
redis-py's per call. A reply that does not come within the deadline, or a
connection that breaks, fails every pending future (a
:class:`~redis.exceptions.TimeoutError` or
:class:`~redis.exceptions.ConnectionError`, as redis-py's) and closes the wire
for good: the caller connects a new one. An error reply is a
:class:`~redis.exceptions.ResponseError` in the replies' place.

Why (issue 29): paced, a batch of the relay is mostly one publish, and redis-py
cost about 30 µs of CPU a publish in its layers (a task for the write's
timeout, a stream, the reply read through half a dozen coroutines) against
about 8 µs written and read by hand. Only what the relay needs is here: the
directory's commands stay with redis-py, as do TLS and Unix sockets
(:func:`wire_options` says None for those, and the relay uses redis-py).
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Any, cast

import hiredis
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError


def pack(*parts: bytes) -> bytes:
    """One command in RESP: ``pack(b"PUBLISH", channel, data)``."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n%s\r\n" % (len(part), part))
    return b"".join(out)


def pack_publish(channel: bytes, data: bytes) -> bytes:
    """``PUBLISH channel data`` in RESP.

    >>> pack_publish(b"c", b"hi")
    b'*3\\r\\n$7\\r\\nPUBLISH\\r\\n$1\\r\\nc\\r\\n$2\\r\\nhi\\r\\n'
    """
    return b"*3\r\n$7\r\nPUBLISH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n" % (
        len(channel),
        channel,
        len(data),
        data,
    )


def wire_options(connection_class: type, options: dict[str, Any]) -> dict[str, Any] | None:
    """What a :class:`Wire` needs from a redis-py pool's ``connection_class`` and
    ``connection_kwargs``; None where the wire cannot speak for the pool (TLS,
    a Unix socket, a connection class of someone else's)."""
    if connection_class is not Connection:
        return None
    return {
        "host": options.get("host", "localhost"),
        "port": int(options.get("port", 6379)),
        "username": options.get("username"),
        "password": options.get("password"),
        "db": int(options.get("db", 0) or 0),
        "connect_timeout": options.get("socket_connect_timeout"),
    }


class _Pending:
    __slots__ = ("count", "deadline", "future", "replies")

    def __init__(self, future: asyncio.Future[list[Any]], count: int) -> None:
        self.future = future
        self.replies: list[Any] = []
        self.count = count
        self.deadline: asyncio.TimerHandle | None = None


class Wire(asyncio.Protocol):
    """One connection to Redis, commands in, replies out (see the module docstring)."""

    def __init__(self, timeout: float) -> None:
        self._timeout = timeout
        self._reader = hiredis.Reader(replyError=ResponseError)
        self._pending: collections.deque[_Pending] = collections.deque()
        self._transport: asyncio.Transport | None = None
        self._broken: BaseException | None = None

    @classmethod
    async def connect(cls, options: dict[str, Any], timeout: float) -> Wire:
        """A wire to the Redis ``options`` (:func:`wire_options`) names, logged in
        and on its database; replies bounded by ``timeout`` seconds each."""
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(options["connect_timeout"] or timeout):
                _, wire = await loop.create_connection(
                    lambda: cls(timeout), options["host"], options["port"]
                )
                hello = _login(options)
                if hello:
                    for reply in await wire.send(b"".join(hello), len(hello)):
                        if isinstance(reply, ResponseError):
                            wire.close()
                            raise RedisConnectionError(f"Redis refused the connection: {reply}")
        except TimeoutError as error:
            raise RedisTimeoutError("Timeout connecting to Redis") from error
        except OSError as error:
            raise RedisConnectionError(f"Error connecting to Redis: {error}") from error
        return wire

    def send(self, packed: bytes, count: int) -> asyncio.Future[list[Any]]:
        """Write ``packed`` (``count`` commands); the future's result is their
        ``count`` replies, in order."""
        loop = asyncio.get_running_loop()
        pending = _Pending(loop.create_future(), count)
        if self._broken is not None or self._transport is None:
            pending.future.set_exception(
                RedisConnectionError("the connection to Redis is closed")
                if self._broken is None
                else self._broken
            )
            return pending.future
        pending.deadline = loop.call_later(self._timeout, self._overdue, pending)
        self._pending.append(pending)
        self._transport.write(packed)
        return pending.future

    def close(self) -> None:
        self._fail(RedisConnectionError("the connection to Redis was closed"))

    # -- asyncio.Protocol -------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are no asyncio.Transport subclass: duck-typed.
        self._transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        reader = self._reader
        reader.feed(data)
        while (reply := reader.gets()) is not False:
            if not self._pending:
                self._fail(RedisConnectionError("Redis sent a reply nobody asked for"))
                return
            pending = self._pending[0]
            pending.replies.append(reply)
            if len(pending.replies) == pending.count:
                self._pending.popleft()
                if pending.deadline is not None:
                    pending.deadline.cancel()
                if not pending.future.done():
                    pending.future.set_result(pending.replies)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(RedisConnectionError(f"the connection to Redis broke: {exc or 'closed'}"))

    # -- failing ----------------------------------------------------------------------

    def _overdue(self, pending: _Pending) -> None:
        self._fail(RedisTimeoutError("Redis did not answer in time"))

    def _fail(self, error: BaseException) -> None:
        """Fail every pending future with ``error`` and close: the wire is done."""
        if self._broken is None:
            self._broken = error
        while self._pending:
            pending = self._pending.popleft()
            if pending.deadline is not None:
                pending.deadline.cancel()
            if not pending.future.done():
                pending.future.set_exception(error)
        if self._transport is not None:
            self._transport.close()


SUBSCRIPTION_PING_S = 5.0
"""How often a quiet subscription asks Redis whether it is still there (as
redis-py's health check did): one that heard nothing for twice as long is
taken for broken and closed, and subscribed again."""


class Subscription(asyncio.Protocol):
    """This process's subscription to its channels, read by hand: each message's
    data is handed to the callback given to :meth:`start`, in order, from the
    connection's own callback (no task and no read a message). :attr:`closed`
    is done once the connection is gone, for whatever reason; the owner then
    subscribes again with a new one."""

    def __init__(self) -> None:
        self._reader = hiredis.Reader(replyError=ResponseError)
        self._transport: asyncio.Transport | None = None
        self._confirmations = 0
        self._subscribed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._deliver: Callable[[bytes], None] | None = None
        self._early: list[bytes] = []
        self._heard_at = 0.0
        self._ping: asyncio.TimerHandle | None = None
        self._login_replies = 0

    @classmethod
    async def connect(
        cls, options: dict[str, Any], channels: list[str], timeout: float
    ) -> Subscription:
        """Connected to the Redis ``options`` names, logged in, and subscribed to
        ``channels`` (confirmed); messages are kept until :meth:`start`."""
        loop = asyncio.get_running_loop()
        subscription: Subscription | None = None
        try:
            async with asyncio.timeout(options["connect_timeout"] or timeout):
                _, subscription = await loop.create_connection(
                    cls, options["host"], options["port"]
                )
                subscription._confirmations = -len(channels)
                login = _login(options)
                subscribe = pack(b"SUBSCRIBE", *(channel.encode() for channel in channels))
                assert subscription._transport is not None
                subscription._login_replies = len(login)
                subscription._transport.write(b"".join([*login, subscribe]))
                await asyncio.shield(subscription._subscribed)
        except BaseException as error:
            if subscription is not None:
                subscription.close()
            if isinstance(error, TimeoutError):
                raise RedisTimeoutError("Timeout subscribing on Redis") from error
            if isinstance(error, OSError):
                raise RedisConnectionError(f"Error connecting to Redis: {error}") from error
            raise
        subscription._heard_at = loop.time()
        subscription._ping = loop.call_later(SUBSCRIPTION_PING_S, subscription._check)
        return subscription

    def start(self, deliver: Callable[[bytes], None]) -> None:
        """Hand every message to ``deliver`` from now on (those that came since
        the subscription was confirmed first)."""
        self._deliver = deliver
        early, self._early = self._early, []
        for data in early:
            deliver(data)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()
        self._gone(RedisConnectionError("the subscription was closed"))

    # -- asyncio.Protocol -------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's: duck-typed

    def data_received(self, data: bytes) -> None:
        self._heard_at = asyncio.get_running_loop().time()
        reader = self._reader
        reader.feed(data)
        while (reply := reader.gets()) is not False:
            if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
                if self._deliver is None:
                    self._early.append(reply[2])
                else:
                    self._deliver(reply[2])
            elif self._login_replies:
                self._login_replies -= 1
                if isinstance(reply, ResponseError):
                    self._gone(RedisConnectionError(f"Redis refused the connection: {reply}"))
                    return
            elif isinstance(reply, list) and reply and reply[0] == b"subscribe":
                self._confirmations += 1
                if self._confirmations == 0 and not self._subscribed.done():
                    self._subscribed.set_result(None)
            elif isinstance(reply, ResponseError):
                self._gone(RedisConnectionError(f"Redis refused the subscription: {reply}"))
                return
            # else: a ping's answer; hearing it was the point

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone(RedisConnectionError(f"the subscription's connection broke: {exc or 'closed'}"))

    # -- health -----------------------------------------------------------------------

    def _check(self) -> None:
        """Every :data:`SUBSCRIPTION_PING_S`: ping if quiet; closed if silent too long."""
        loop = asyncio.get_running_loop()
        quiet = loop.time() - self._heard_at
        if quiet > 2 * SUBSCRIPTION_PING_S:
            self.close()
            return
        if quiet >= SUBSCRIPTION_PING_S and self._transport is not None:
            self._transport.write(pack(b"PING"))
        self._ping = loop.call_later(SUBSCRIPTION_PING_S, self._check)

    def _gone(self, error: BaseException) -> None:
        if self._ping is not None:
            self._ping.cancel()
            self._ping = None
        if self._transport is not None:
            self._transport.close()
        if not self._subscribed.done():
            self._subscribed.set_exception(error)
            self._subscribed.exception()  # retrieved: connect() may have stopped waiting
        if not self.closed.done():
            self.closed.set_result(None)


def _login(options: dict[str, Any]) -> list[bytes]:
    """The commands that log a new connection in and choose its database."""
    commands = []
    if options["password"] is not None:
        login = [options["username"]] if options["username"] else []
        login.append(options["password"])
        commands.append(pack(b"AUTH", *(str(part).encode() for part in login)))
    if options["db"]:
        commands.append(pack(b"SELECT", str(options["db"]).encode()))
    return commands
