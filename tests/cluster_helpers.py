"""Two processes of one cluster listening on one port (``--reuse-port``), for tests.

:func:`shared_port` starts two real ``boardroom serve --cluster`` children on the
test's own Redis and a new PostgreSQL database, the second given the port the
kernel gave the first, and yields a :class:`SharedPort`: the processes, each one's
node id (:attr:`SharedPort.nodes`, in the order they started), and the cluster's
directory in Redis, read as the cluster itself records it.
"""

from __future__ import annotations

import contextlib
import secrets
import signal
from collections.abc import AsyncIterator

from harness import ServerProcess
from redis.asyncio import Redis
from services import PostgresServer, RedisServer


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
