"""Two processes of one cluster listening on one port (``--reuse-port``), for tests.

:func:`shared_port` starts two real ``boardroom serve --cluster`` children on the
test's own Redis and a new PostgreSQL database, the second given the port the
kernel gave the first, and yields a :class:`SharedPort`: the processes, each one's
node id (:attr:`SharedPort.nodes`, in the order they started), and the cluster's
directory in Redis, read as the cluster itself records it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import signal
from collections.abc import AsyncIterator, Awaitable, Callable

from harness import ServerProcess
from redis.asyncio import Redis
from services import PostgresServer, RedisServer, start_redis


class SharedPort:
    """Two processes of one cluster on one port, and the cluster's directory."""

    def __init__(
        self, processes: list[ServerProcess], redis: Redis, name: str, database: str
    ) -> None:
        self.processes = processes
        self.nodes: list[str] = []
        """Each process's node id in the cluster, in the order of :attr:`processes`."""
        self.redis = redis
        self.name = name
        self.database = database

    @property
    def ws_url(self) -> str:
        return self.processes[0].ws_url

    async def owner(self, room: str) -> str:
        """The process (its node id) that owns ``room``, as the directory says."""
        value = await self.redis.hget(f"{self.name}:room:{room}", "owner")
        assert value is not None, room
        return value.decode()

    async def live_nodes(self) -> set[str]:
        """The node ids the directory holds alive."""
        return {node.decode() for node in await self.redis.smembers(f"{self.name}:nodes")}


@contextlib.asynccontextmanager
async def shared_port(
    redis_server: RedisServer,
    postgres_server: PostgresServer,
    *,
    stop: signal.Signals = signal.SIGTERM,
) -> AsyncIterator[SharedPort]:
    """Two cluster processes on one port (see the module docstring), stopped with
    ``stop`` at the end (SIGKILL where a test leaves them in any state)."""
    name = f"test-{secrets.token_hex(4)}"
    database = postgres_server.new_database()
    flags = ("--cluster", redis_server.url, "--cluster-name", name, "--engine", "python")
    first = await ServerProcess.start(database, *flags, "--reuse-port")
    processes = [first]
    redis = Redis.from_url(redis_server.url)
    cluster = SharedPort(processes, redis, name, database)
    try:
        cluster.nodes.extend(await cluster.live_nodes())
        processes.append(
            await ServerProcess.start(database, *flags, "--reuse-port", "--port", str(first.port))
        )
        assert processes[1].port == first.port
        cluster.nodes.extend(await cluster.live_nodes() - set(cluster.nodes))
        assert len(cluster.nodes) == 2, cluster.nodes
        yield cluster
    finally:
        await redis.aclose()
        for process in processes:
            await process.stop(stop)


@contextlib.asynccontextmanager
async def two_processes(
    postgres_server: PostgresServer, name: str
) -> AsyncIterator[tuple[ServerProcess, ServerProcess, Redis]]:
    """Two ``boardroom serve --cluster`` children of the cluster ``name``, each on
    a port of its own, on a Redis of their own (the test may kill its
    connections) and a new database, and a client of that Redis; all stopped at
    the end whatever their state."""
    database = postgres_server.new_database()
    with start_redis() as server:
        flags = ("--cluster", server.url, "--cluster-name", name, "--engine", "python")
        first = await ServerProcess.start(database, *flags)
        second = await ServerProcess.start(database, *flags)
        redis = Redis.from_url(server.url)
        try:
            yield first, second, redis
        finally:
            await redis.aclose()
            for process in (first, second):
                await process.stop(signal.SIGKILL)


async def published_so_far(redis: Redis) -> int:
    """How many PUBLISH commands Redis has run since it started."""
    stats = await redis.info("commandstats")
    return int(stats.get("cmdstat_publish", {}).get("calls", 0))


async def published_once_more(redis: Redis, before: int) -> None:
    """Wait until Redis has run a PUBLISH more than ``before``."""
    while await published_so_far(redis) == before:
        await asyncio.sleep(0.01)


async def reply_lost_while_unsubscribed(
    owner: ServerProcess,
    gateway: ServerProcess,
    redis: Redis,
    send: Callable[[], Awaitable[object] | object],
) -> None:
    """A move's reply published while its gateway's subscription is down: the
    owner is stopped (SIGSTOP), ``send`` makes the gateway's player move (its
    relayed move reaches the owner), then the gateway is stopped too, its
    pub/sub connection killed, and the owner let go: its reply goes to nobody.
    Both processes run again at the end, whatever happened."""
    owner.process.send_signal(signal.SIGSTOP)
    gateway_stopped = False
    try:
        before = await published_so_far(redis)
        sent = send()
        if isinstance(sent, Awaitable):
            await sent
        await published_once_more(redis, before)  # the relayed move, to the owner
        gateway.process.send_signal(signal.SIGSTOP)
        gateway_stopped = True
        await redis.client_kill_filter(_type="pubsub")
        before = await published_so_far(redis)
        owner.process.send_signal(signal.SIGCONT)
        await published_once_more(redis, before)  # the owner's reply, to nobody
    finally:
        owner.process.send_signal(signal.SIGCONT)
        if gateway_stopped:
            gateway.process.send_signal(signal.SIGCONT)
