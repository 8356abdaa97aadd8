"""One process of a cluster: :class:`ClusterNode`, the hub's
:class:`~boardroom.server.hub.boundary.RoomsElsewhere`, over its parts.

Life cycle (boardroom.server.lifecycle runs it): :meth:`ClusterNode.connect` before the
hub starts (Redis reachable, this process alive in the directory), then the hub
starts with :meth:`ClusterNode.claim_room` deciding which stored rooms it takes
back, then :meth:`ClusterNode.serve` hands the node the hub and starts reading
the inbox, and :meth:`ClusterNode.close` at the end.

Each method hands its call to the part whose job it is (each module documents
its contract), all sharing one :class:`~boardroom.server.cluster.process.Process`:

- :class:`~boardroom.server.cluster.owners.RoomOwners`: which live process owns a room;
- :class:`~boardroom.server.cluster.gateway.Gateway`: as a gateway (the client's
  connection is here), the hub's messages for other processes' rooms sent on,
  and the processes that act for each session told when it comes and goes;
- :class:`~boardroom.server.cluster.remote_clients.RemoteClients`: as an owner, the
  sessions of other gateways acted for through
  :class:`~boardroom.server.cluster.relay.RemoteOutbox` es, one per gateway and session;
- :class:`~boardroom.server.cluster.hello_hold.HelloHold`: a resuming hello held for
  the takeover of a process that died a moment ago;
- :class:`~boardroom.server.cluster.class_home.ClassHome`: a class's home, and the
  connections carried to it whole;
- :class:`~boardroom.server.cluster.inbox.Inbox`: what the other processes send;
- :class:`~boardroom.server.cluster.heartbeat.Heartbeat`: liveness, registering
  again after a Redis restart, the takeover of dead processes' rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets

import aiohttp
from aiohttp import web
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError

from boardroom.server.cluster.class_home import CLOSE_TRY_AGAIN, ClassHome, ClusterError, Route
from boardroom.server.cluster.directory import Directory
from boardroom.server.cluster.envelopes import RoomsMoved
from boardroom.server.cluster.gateway import Gateway
from boardroom.server.cluster.heartbeat import Heartbeat
from boardroom.server.cluster.hello_hold import HelloHold
from boardroom.server.cluster.inbox import Inbox
from boardroom.server.cluster.owners import RoomOwners
from boardroom.server.cluster.process import HELLO_HOLD_S, Process
from boardroom.server.cluster.relay import Publisher
from boardroom.server.cluster.remote_clients import RemoteClients
from boardroom.server.cluster.wire import Subscription, wire_options
from boardroom.server.connection import Connection
from boardroom.server.core.lobby import RoomCodes, RoomPage
from boardroom.server.core.sessions import Session, session_id_for
from boardroom.server.hub import GameServer
from boardroom.server.hub.boundary import SessionRecord
from boardroom.shared.protocol.messages import ClientMessage, RoomSummary

__all__ = [
    "CLOSE_TRY_AGAIN",
    "CLUSTER",
    "HELLO_HOLD_S",
    "ClusterError",
    "ClusterNode",
    "Route",
]

REDIS_CONNECT_TIMEOUT_S = 5.0
"""How long connecting to Redis, or closing a connection to it, may take."""
REDIS_TIMEOUT_S = 5.0
"""How long one Redis command may wait for its answer (the inbox's read waits
for messages without it): a Redis that stops answering is a RedisError, logged
and retried, never a process stuck for good (at its stop above all). redis-py 8
has these two by default; said here, they hold whatever its defaults become."""
REDIS_RETRIES = 3
"""Times a command is tried again on a new connection after a connection error."""
REDIS_RETRY_CAP_S = 0.5
"""The longest wait between two such tries."""
REDIS_HEALTH_CHECK_S = 5
"""A pooled connection idle this long is checked (PING) before it is used again."""
LEAVE_TIMEOUT_S = 2.0
"""How long a stopping process tries to tell the directory it is leaving."""
HTTP_TIMEOUT_S = 30.0
"""How long a class's HTTP request passed on to its home may take."""


class ClusterNode:
    """This process in the cluster (see the module docstring)."""

    def __init__(
        self, url: str, name: str, *, class_name: str = "", node: str | None = None
    ) -> None:
        self.url = url
        self.class_name = class_name
        """The class this process is the home of ("": none)."""
        self.node = node or f"n{secrets.token_hex(4)}"
        """This process's id in the cluster: new at every start."""
        self._redis: Redis = Redis.from_url(
            url,
            socket_connect_timeout=REDIS_CONNECT_TIMEOUT_S,
            socket_timeout=REDIS_TIMEOUT_S,
            # A pooled connection that a restarted Redis closed fails once: it is
            # dropped and the command retried on a new one, never reused.
            retry=Retry(ExponentialBackoff(cap=REDIS_RETRY_CAP_S, base=0.05), REDIS_RETRIES),
            health_check_interval=REDIS_HEALTH_CHECK_S,
        )
        self.directory = Directory(self._redis, name)
        self.publisher = Publisher(self._redis, self.directory)
        self._process = Process(self.node, self.directory, self.publisher)
        self._owners = RoomOwners(self.node, self.directory)
        self._home = ClassHome(self._process, class_name)
        self._gateway = Gateway(self._process, self._owners)
        self._remote = RemoteClients(self._process)
        self._hello = HelloHold(self._process, self._home, self._gateway)
        self._inbox = Inbox(
            self._process,
            owners=self._owners,
            home=self._home,
            gateway=self._gateway,
            remote=self._remote,
            hello=self._hello,
        )
        self._heartbeat = Heartbeat(
            self._process,
            owners=self._owners,
            home=self._home,
            gateway=self._gateway,
            remote=self._remote,
        )
        self._pubsub: PubSub | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._http: aiohttp.ClientSession | None = None

    # -- life cycle ---------------------------------------------------------------------

    async def connect(self) -> None:
        """Reach Redis and say this process is alive; raises if Redis is unreachable."""
        try:
            await self._redis.ping()
            await self.directory.beat(self.node)
            await self.directory.mark_registered(self.node)
            if self.class_name:
                await self._home.claim()
            await self._home.read()
            self._owners.live = set((await self.directory.nodes())[0])
        except BaseException:
            await self._redis.aclose()
            raise
        self.publisher.start()

    def http_session(self) -> aiohttp.ClientSession:
        """The HTTP client that passes a class's requests on to its home
        (boardroom.server.cluster.proxy)."""
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=HTTP_TIMEOUT_S))
        return self._http

    async def advertise(self, url: str) -> None:
        """The class's home serves HTTP at ``url``: the others send it their HTTP requests."""
        await self._home.advertise(url)

    def route(self) -> Route:
        """Where a new connection's messages go, as the directory said at the last beat."""
        return self._home.route()

    @property
    def home_http(self) -> str | None:
        """The class's home's HTTP address, when another process is the home."""
        return self._home.home_http

    def carry(self, connection: Connection) -> str:
        """Carry ``connection`` whole to the class's home; its id for :meth:`carry_frame`."""
        return self._home.carry(connection)

    def carry_frame(self, carried: str, text: str) -> None:
        """Send one frame of a carried connection to the home."""
        self._home.carry_frame(carried, text)

    def hang_up(self, carried: str) -> None:
        """A carried connection closed."""
        self._home.hang_up(carried)

    async def claim_room(self, code: str) -> bool:
        """Whether this process takes a stored room back at its start: no live
        process owns it (its owner died, or the cluster restarted)."""
        return await self.directory.claim_room(code, self.node)

    async def serve(self, hub: GameServer) -> None:
        """Act for the cluster with ``hub``: read the inbox, beat, take over the dead."""
        self._process.hub = hub
        hub.elsewhere = self
        channels = [self.directory.channel(self.node), self.directory.channel("*")]
        pool = self._redis.connection_pool
        options = wire_options(pool.connection_class, pool.connection_kwargs)
        if options is not None:
            subscription = await Subscription.connect(options, channels, REDIS_CONNECT_TIMEOUT_S)
            inbox = self._inbox.keep_subscribed(subscription, options, channels)
        else:  # TLS, a Unix socket: redis-py's pub/sub
            self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            await self._pubsub.subscribe(*channels)
            inbox = self._inbox.read_forever(self._pubsub)
        self._tasks = [
            asyncio.create_task(inbox),
            asyncio.create_task(self._heartbeat.beat_forever()),
        ]
        restored = [info.code for info in hub.rooms()]
        if restored:
            self._process.broadcast(RoomsMoved(self.node, "", restored))

    async def close(self) -> None:
        """Stop reading and beating, write what is queued, and leave the cluster."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.publisher.close()
        if self._http is not None:
            await self._http.close()
        # Leaving is a courtesy: the others see this process dead at its TTL anyway.
        with contextlib.suppress(RedisError, TimeoutError):
            await asyncio.wait_for(self._leave(), LEAVE_TIMEOUT_S)
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, TimeoutError):
                await asyncio.wait_for(self._pubsub.aclose(), LEAVE_TIMEOUT_S)  # type: ignore[no-untyped-call]
        with contextlib.suppress(RedisError):
            await self._redis.aclose()  # each connection's close is bounded by its timeout

    async def _leave(self) -> None:
        await self.directory.leave(self.node)
        if self.class_name:
            await self.directory.leave_home(self.node)

    @property
    def hub(self) -> GameServer:
        return self._process.hub

    # -- the hub's RoomsElsewhere ---------------------------------------------------------

    async def forward(
        self, session: Session, token: str, address: str, message: ClientMessage
    ) -> bool:
        return await self._gateway.forward(session, token, address, message)

    async def public_page(self, game: str | None, offset: int, limit: int) -> RoomPage:
        return await self.directory.public_page(game, offset, limit)

    async def claim_codes(self, codes: RoomCodes, *, restored: bool = False) -> bool:
        return await self.directory.claim_codes(codes, self.node, force=restored)

    async def release_codes(self, codes: RoomCodes) -> None:
        self.publisher.do(self.directory.release_codes(codes))

    async def recall(self, token: str) -> SessionRecord | None:
        record = await self.directory.recall(session_id_for(token))
        if record is None and await self._owners.rebuilt():
            record = await self.directory.recall(session_id_for(token))
        return record

    async def rooms_elsewhere(self, session: Session, token: str) -> list[str] | None:
        return await self._hello.rooms_elsewhere(session, token)

    def welcomed(self, session: Session, token: str, address: str) -> None:
        self._gateway.welcomed(session, token, address)

    def disconnected(self, session: Session) -> None:
        self._gateway.disconnected(session)

    def room_changed(self, code: str, summary: RoomSummary | None, quick_open: bool) -> None:
        self.publisher.do(self.directory.list_room(code, summary, quick_open))

    def room_dropped(self, code: str) -> None:
        self.publisher.do(self.directory.drop_room(code))


CLUSTER = web.AppKey("cluster", ClusterNode)
"""This process in its cluster (``--cluster``), set by boardroom.server.lifecycle from the
hub's entry on; unset for a server alone."""
