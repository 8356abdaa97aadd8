"""One ordered stream of writes to Redis per process, and a remote client's outbox.

:class:`Publisher` takes commands without waiting (the hub's hooks and a room's
outbox are synchronous) and writes them from one task through one connection,
in the order they came, each batch as one pipeline: so what this process sends
another arrives in order, and a burst of messages costs one round trip.

:class:`RemoteOutbox` is, on the owner of a room, the connection of a client
that is connected to another process: what the hub sends it is published to
that process, which writes it to the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque

from redis.asyncio import Redis
from redis.exceptions import RedisError

from boardroom.server.cluster.directory import Command, Directory
from boardroom.server.cluster.envelopes import Close, Deliver, Envelope, encode
from boardroom.shared.protocol.close_codes import CLOSE_SESSION_REPLACED
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.messages import ServerMessage

logger = logging.getLogger(__name__)


class Publisher:
    """This process's writes to Redis, in order (see the module docstring)."""

    def __init__(self, redis: Redis, directory: Directory) -> None:
        self._redis = redis
        self._directory = directory
        self._queue: deque[Command] = deque()
        self._ready = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._write_forever())

    def send(self, node: str, envelope: Envelope) -> None:
        """Publish ``envelope`` to ``node``'s channel, after everything sent before."""
        channel, data = self._directory.channel(node), encode(envelope)
        self.do(lambda pipe: pipe.publish(channel, data))

    def do(self, command: Command) -> None:
        """Run ``command`` on Redis, after everything before it; never waits."""
        self._queue.append(command)
        self._idle.clear()
        self._ready.set()

    async def flush(self) -> None:
        """Wait until everything queued so far is written (or failed)."""
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

    async def _write_forever(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            while self._queue:
                batch = list(self._queue)
                self._queue.clear()
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for command in batch:
                            command(pipe)
                        await pipe.execute()
                except RedisError:
                    # Redis is away: what was sent is lost, and the clients it was
                    # for resume once it is back (their moves are in the store).
                    logger.exception("writing to Redis failed", extra={"commands": len(batch)})
            self._idle.set()


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
        self._publisher.send(self.gateway, Deliver(self._node, self._session, encoded))

    def replace(self) -> None:
        self.close(CLOSE_SESSION_REPLACED, "the session continued on another connection")

    def close(self, code: int, reason: str) -> None:
        self._publisher.send(self.gateway, Close(self._node, self._session, code, reason))
