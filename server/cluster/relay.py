"""One ordered stream of writes to Redis per process, and a remote client's outbox.

:class:`Publisher` takes commands without waiting (the hub's hooks and a room's
outbox are synchronous) and writes them from one task through one connection,
in the order they came, each batch in one round trip: so what this process
sends another arrives in order, and a burst of messages costs one round trip.
What a batch sends one process in a row goes as one publish
(:func:`~boardroom.server.cluster.envelopes.encode_bundle`), and a message for
several clients of one process as one :class:`Deliver` naming them all
(:meth:`Publisher.deliver`): a relayed move costs Redis one command, and the
process that reads it one message, however many of its clients it is for.

:class:`RemoteOutbox` is, on the owner of a room, the connection of a client
that is connected to another process: what the hub sends it is published to
that process, which writes it to the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from boardroom.server.cluster.directory import Command, Directory
from boardroom.server.cluster.envelopes import Close, Deliver, Envelope, encode_bundle
from boardroom.server.cluster.wire import Wire, pack_publish, wire_options
from boardroom.shared.protocol.close_codes import CLOSE_SESSION_REPLACED
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.messages import ServerMessage

logger = logging.getLogger(__name__)


PUBLISH_RETRY_S = 30.0
"""How long writes that Redis could not take (it is restarting, or the
connection broke) are kept and tried again, in order, before they are given up."""
PUBLISH_TIMEOUT_S = 5.0
"""How long a batch of publishes may take to be written and answered; past it
the connection is dropped and the batch tried again, as after a broken one."""
RESUBSCRIBE_WAIT_S = 3.0
"""After such a failure, how long the first writes wait for the processes they
are for to be subscribed again (a message published to nobody is lost)."""
_RETRY_FIRST_S = 0.05
_RETRY_MAX_S = 1.0


@dataclass
class _Publish:
    """Envelopes sent one after the other to one channel: one publish."""

    channel: str
    envelopes: list[Envelope]
    told: list[Callable[[int], None]] = field(default_factory=list)
    """Told how many subscribers received the publish."""
    awaited: bool = True
    """After a failure, wait for the channel's subscriber (not for the channel of all)."""


_Write = _Publish | Command


class Publisher:
    """This process's writes to Redis, in order (see the module docstring).

    Writes that fail for a broken connection are kept and tried again (Redis
    restarting takes a moment), for :data:`PUBLISH_RETRY_S` at most; the first
    ones after such a failure wait until the processes they are published to
    are subscribed again, so that what a client sent in the meantime reaches its
    room. Whatever pub/sub still loses (a subscription down while the publisher
    was not) is mended by the resync of the process whose subscription came
    back (:meth:`boardroom.server.cluster.gateway.Gateway.resync`) and the one
    that follows a Redis restart
    (:meth:`boardroom.server.cluster.heartbeat.Heartbeat.register_again`).

    A batch of publishes alone goes out on a connection of the publisher's own,
    written and read by hand (:class:`~boardroom.server.cluster.wire.Wire`: redis-py's
    layers cost about four times the CPU a publish, a pipeline more still); a
    batch with a directory command in it goes as a pipeline."""

    def __init__(self, redis: Redis, directory: Directory) -> None:
        self._redis = redis
        self._directory = directory
        self._queue: deque[_Write] = deque()
        """What is not written yet (a batch being written is out of it)."""
        self._ready = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._failing_since: float | None = None
        self._connection: AbstractConnection | None = None
        """The connection of publishes where the wire cannot serve (TLS, a Unix socket)."""
        pool = redis.connection_pool
        self._wire_options = wire_options(pool.connection_class, pool.connection_kwargs)
        self._wire: Wire | None = None
        """The publisher's own connection, written by hand (:mod:`.wire`)."""

    def start(self) -> None:
        self._task = asyncio.create_task(self._write_forever())

    def send(
        self, node: str, envelope: Envelope, *, published: Callable[[int], None] | None = None
    ) -> None:
        """Publish ``envelope`` to ``node``'s channel, after everything sent before;
        ``published`` is then told how many subscribers received it (0: ``node``
        died, or its subscription is down, and the envelope is lost)."""
        channel = self._directory.channel(node)
        last = self._queue[-1] if self._queue else None
        if isinstance(last, _Publish) and last.channel == channel:
            last.envelopes.append(envelope)
        else:
            last = _Publish(channel, [envelope], awaited=node != "*")
            self._append(last)
        if published is not None:
            last.told.append(published)

    def deliver(self, node: str, sender: str, session: str, text: str) -> None:
        """Publish ``text`` (a server message) for ``session``'s connection on
        ``node``: added to the :class:`Deliver` last sent there if it is not
        written yet and carries this very text (the same message to another
        receiver), else in a new one."""
        last = self._queue[-1] if self._queue else None
        if isinstance(last, _Publish) and last.channel == self._directory.channel(node):
            envelope = last.envelopes[-1]
            if isinstance(envelope, Deliver) and envelope.text is text:
                envelope.sessions.append(session)
                return
        self.send(node, Deliver(sender, [session], text))

    def do(self, command: Command) -> None:
        """Run ``command`` on Redis, after everything before it; never waits."""
        self._append(command)

    def _append(self, write: _Write) -> None:
        self._queue.append(write)
        self._idle.clear()
        self._ready.set()

    async def flush(self) -> None:
        """Wait until everything queued so far is written (or given up)."""
        await self._idle.wait()

    async def close(self) -> None:
        """Write what is queued, then stop."""
        if self._task is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.flush(), 5.0)
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        if self._connection is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._redis.connection_pool.release(self._connection)
            self._connection = None
        if self._wire is not None:
            self._wire.close()
            self._wire = None

    async def _write_forever(self) -> None:
        loop = asyncio.get_running_loop()
        delay = _RETRY_FIRST_S
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._queue:
                batch = list(self._queue)
                self._queue.clear()
                try:
                    if self._failing_since is not None:
                        await self._wait_for_subscribers(
                            {w.channel for w in batch if isinstance(w, _Publish) and w.awaited}
                        )
                    results = await self._write(batch)
                    for write, received in zip(batch, results, strict=True):
                        if isinstance(write, _Publish):
                            for told in write.told:
                                told(int(received))
                except (RedisConnectionError, RedisTimeoutError) as error:
                    now = loop.time()
                    if self._failing_since is None:
                        self._failing_since = now
                        logger.warning("writing to Redis failed; trying again", exc_info=error)
                    if now - self._failing_since < PUBLISH_RETRY_S:
                        self._queue.extendleft(reversed(batch))  # first again, in order
                        await asyncio.sleep(delay)
                        delay = min(delay * 2, _RETRY_MAX_S)
                        continue
                    # Redis stayed away: what was sent is lost, and the clients it
                    # was for resume once it is back (their moves are in the store).
                    logger.error("Redis stayed away: writes lost", extra={"commands": len(batch)})
                except RedisError:
                    logger.exception("writing to Redis failed", extra={"commands": len(batch)})
                self._failing_since = None
                delay = _RETRY_FIRST_S
            self._idle.set()

    async def _write(self, batch: list[_Write]) -> list[Any]:
        """Write ``batch`` in one round trip; each write's reply, in order."""
        if not all(isinstance(write, _Publish) for write in batch):
            async with self._redis.pipeline(transaction=False) as pipe:
                for write in batch:
                    if isinstance(write, _Publish):
                        pipe.publish(write.channel, encode_bundle(write.envelopes))
                    else:
                        write(pipe)
                return list(await pipe.execute())
        if self._wire_options is not None:
            packed = b"".join(
                pack_publish(write.channel.encode(), encode_bundle(write.envelopes))
                for write in batch
                if isinstance(write, _Publish)
            )
            if self._wire is None:
                self._wire = await Wire.connect(self._wire_options, PUBLISH_TIMEOUT_S)
            try:
                return await self._wire.send(packed, len(batch))
            except BaseException:
                # Broken, late, or cancelled with replies still to come: never read
                # them as the next batch's; the next batch connects again.
                self._wire.close()
                self._wire = None
                raise
        commands = [
            ("PUBLISH", write.channel, encode_bundle(write.envelopes))
            for write in batch
            if isinstance(write, _Publish)
        ]
        connection = self._connection
        if connection is None:
            connection = self._connection = await self._redis.connection_pool.get_connection()  # type: ignore[no-untyped-call]
        try:
            await connection.send_packed_command(
                connection.pack_commands(commands), check_health=False
            )
            return [await connection.read_response() for _ in commands]
        except BaseException:
            # Replies may still come on it: never read them as the next batch's.
            with contextlib.suppress(Exception):
                await connection.disconnect()
            raise

    async def _wait_for_subscribers(self, channels: set[str]) -> None:
        """Until every channel in ``channels`` has a subscriber again, at most
        :data:`RESUBSCRIBE_WAIT_S` (a process that died has none ever again)."""
        if not channels:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RESUBSCRIBE_WAIT_S
        while loop.time() < deadline:
            counts = await self._redis.pubsub_numsub(*channels)
            if all(count > 0 for _, count in counts):
                return
            await asyncio.sleep(_RETRY_FIRST_S)


class RemoteOutbox:
    """A session's connection on the ``gateway`` process, as the hub of this one
    (``node``) sees it: sends and closes are published to the gateway."""

    def __init__(
        self, publisher: Publisher, node: str, gateway: str, session: str, address: str
    ) -> None:
        self._publisher = publisher
        self._node = node
        self.gateway = gateway
        self._session = session
        self.address = address

    def send(self, message: ServerMessage, text: str | None = None) -> None:
        encoded = encode_message(message) if text is None else text
        self._publisher.deliver(self.gateway, self._node, self._session, encoded)

    def replace(self) -> None:
        self.close(CLOSE_SESSION_REPLACED, "the session continued on another connection")

    def close(self, code: int, reason: str) -> None:
        self._publisher.send(self.gateway, Close(self._node, self._session, code, reason))
