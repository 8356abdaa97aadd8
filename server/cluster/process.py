"""What every part of a cluster node shares: :class:`Process`.

Contract: one :class:`Process` per server process in a cluster. It holds this
process's id, the directory, the publisher and (once the node serves) the hub,
and runs work that must not overtake other work of the same key (a session's
messages, a carried connection's frames) one piece at a time, in the order it
was handed in (:meth:`Process.in_order`). A piece that fails is logged and
never stops the pieces after it.

It also holds the waits every part agrees on (:data:`HELLO_HOLD_S`,
:data:`TAKEOVER_POLL_S`): how long a message or a hello may wait for the
takeover of a process that died a moment ago, and how often it looks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from boardroom.server.cluster.directory import HEARTBEAT_S, HEARTBEAT_TTL_S, Directory
from boardroom.server.cluster.envelopes import Envelope
from boardroom.server.cluster.relay import Publisher
from boardroom.server.hub import GameServer

logger = logging.getLogger(__name__)

HELLO_HOLD_S = HEARTBEAT_TTL_S + 3 * HEARTBEAT_S
"""How long a resuming hello is held, at most, for the takeover of a process
that died a moment ago: its heartbeat expires within :data:`HEARTBEAT_TTL_S`,
and the next beat of a live process takes its rooms over (a beat, and the
restore from the store). Shorter than a client's wait for its welcome (10 s);
past it the client is told to try again (1013)."""
TAKEOVER_POLL_S = 0.2
"""How often a held hello or room message looks whether the takeover came."""


def stop_if_cancelled() -> None:
    """Raise :class:`asyncio.CancelledError` if the running task was asked to stop.

    Called by the loops that catch :class:`~redis.exceptions.RedisError` and go on:
    a cancellation that lands inside a redis-py call can come out of it as a
    ``RedisError`` (a timeout or a broken connection) instead of
    ``CancelledError``; without this check such a loop would log it, sleep and
    beat on after :meth:`ClusterNode.close` cancelled it, and the process's
    stop would wait for its deadline."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


class Process:
    """This process in the cluster, as its node's parts see it (see the module docstring)."""

    def __init__(self, node: str, directory: Directory, publisher: Publisher) -> None:
        self.node = node
        """This process's id in the cluster: new at every start."""
        self.directory = directory
        self.publisher = publisher
        self._hub: GameServer | None = None
        self._chains: dict[str, asyncio.Task[None]] = {}

    @property
    def hub(self) -> GameServer:
        assert self._hub is not None, "serve() first"
        return self._hub

    @hub.setter
    def hub(self, hub: GameServer) -> None:
        self._hub = hub

    def broadcast(self, envelope: Envelope) -> None:
        """Publish ``envelope`` to every process, this one included."""
        self.publisher.send("*", envelope)

    def in_order(self, key: str, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work`` once every piece handed in before it under ``key`` is done."""
        previous = self._chains.get(key)

        async def run() -> None:
            if previous is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(previous)
            try:
                await work()
            except Exception:
                logger.exception("acting for another process failed", extra={"session": key})

        task = asyncio.create_task(run())
        self._chains[key] = task
        task.add_done_callback(lambda done: self._forget_chain(key, done))

    def _forget_chain(self, key: str, task: asyncio.Task[None]) -> None:
        if self._chains.get(key) is task:
            del self._chains[key]
