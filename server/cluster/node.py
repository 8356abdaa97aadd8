"""One process of a cluster: the hub's :class:`~boardroom.server.hub.boundary.RoomsElsewhere`,
its inbox, its heartbeat and the takeover of dead processes' rooms.

Life cycle (boardroom.server.lifecycle runs it): :meth:`ClusterNode.connect` before the
hub starts (Redis reachable, this process alive in the directory), then the hub
starts with :meth:`ClusterNode.claim_room` deciding which stored rooms it takes
back, then :meth:`ClusterNode.serve` hands the node the hub and starts reading
the inbox, and :meth:`ClusterNode.close` at the end.

As a gateway (the client's connection is here) the node sends the hub's
messages for other processes' rooms on (:meth:`forward`), remembers which
processes act for each session (``_links``) and tells them when the connection
closes. As an owner it acts for sessions of other gateways through
:class:`~boardroom.server.cluster.relay.RemoteOutbox` es, one per gateway and session, so
that the hub's "is this still the session's connection?" checks hold.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import enum
import functools
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Literal

import aiohttp
import msgspec
from aiohttp import web
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError

from boardroom.server.cluster.directory import HEARTBEAT_S, HEARTBEAT_TTL_S, Directory
from boardroom.server.cluster.envelopes import (
    Answer,
    Ask,
    Attach,
    Close,
    Deliver,
    Envelope,
    Forward,
    Frame,
    Gone,
    Hangup,
    RoomsMoved,
    decode,
)
from boardroom.server.cluster.relay import Publisher, RemoteOutbox
from boardroom.server.connection import Connection
from boardroom.server.core.lobby import RoomCodes, RoomPage, normalise_code
from boardroom.server.core.room_output import ClientId
from boardroom.server.core.sessions import Session, session_id_for
from boardroom.server.hub import GameServer, Peer, resolve_game
from boardroom.server.hub.boundary import SessionRecord
from boardroom.shared.protocol.close_codes import CLOSE_SERVICE_RESTART, CLOSE_TRY_AGAIN_LATER
from boardroom.shared.protocol.codec import decode_client_message, encode_message
from boardroom.shared.protocol.errors import ProtocolError
from boardroom.shared.protocol.messages import ClientMessage, Join, QuickMatch, RoomSummary, Watch

logger = logging.getLogger(__name__)


class ClusterError(Exception):
    """This process cannot join the cluster as asked (the message says why)."""


class Route(enum.Enum):
    """Where a new connection's messages go (:meth:`ClusterNode.route`)."""

    HERE = "here"
    """This process's hub: no class runs, or this process is the class's home."""
    HOME = "home"
    """Every frame to the class's home, which runs the class (a gateway)."""
    NOWHERE = "nowhere"
    """The cluster runs a class whose home is away (restarting): try again soon."""


CLOSE_TRY_AGAIN = CLOSE_TRY_AGAIN_LATER
"""1013: the class's home is away (clients retry)."""
CLOSE_HOME_GONE = CLOSE_SERVICE_RESTART
"""1012: the home this connection was carried to died."""
CLOSE_ROOM_MOVED = CLOSE_SERVICE_RESTART
"""1012: a room this connection watched was on a process that died; it is taken
over elsewhere, and the client watches it again on reconnecting."""

INBOX_RETRY_S = 0.1
"""How soon the inbox reads again after its connection failed."""
OWNERS_KEPT = 100_000
"""Room owners a gateway keeps in memory before it starts over (a few MB at most)."""
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
ASK_TIMEOUT_S = 2.0
"""How long a gateway waits for the other processes to say where a resuming
session holds seats: a live process answers in a millisecond; a process that
died a moment ago never does, and the gateway then waits for its takeover
(:data:`HELLO_HOLD_S`)."""
HELLO_HOLD_S = HEARTBEAT_TTL_S + 3 * HEARTBEAT_S
"""How long a resuming hello is held, at most, for the takeover of a process
that died a moment ago: its heartbeat expires within :data:`HEARTBEAT_TTL_S`,
and the next beat of a live process takes its rooms over (a beat, and the
restore from the store). Shorter than a client's wait for its welcome (10 s);
past it the client is told to try again (1013)."""
REBUILD_WAIT_S = 2 * HEARTBEAT_S + 1.0
"""How long a look-up that missed waits for a directory being rebuilt (every
process registers again at its first beat after Redis came back empty)."""
TAKEOVER_POLL_S = 0.2
"""How often a held hello or room message looks whether the takeover came."""


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
        self._hub: GameServer | None = None
        self._pubsub: PubSub | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._outboxes: dict[tuple[str, str], RemoteOutbox] = {}
        self._links: dict[str, set[str]] = {}
        """Gateway: the processes that act for each session connected here."""
        self._tokens: dict[str, str] = {}
        self._addresses: dict[str, str] = {}
        self._chains: dict[str, asyncio.Task[None]] = {}
        self._questions = itertools.count(1)
        self._answers: dict[int, asyncio.Queue[Answer]] = {}
        self._attach_to: dict[str, set[str]] = {}
        self._watched: dict[str, set[str]] = {}
        self._recent: collections.deque[tuple[float, str, str | None, Forward]] = (
            collections.deque()
        )
        """Gateway: the messages sent on lately, in case their owner dies unanswering."""
        """Gateway: the rooms of other processes each session connected here watches."""
        self._owners: dict[str, str] = {}
        """Gateway: the owner of each room a message was sent on to (see _live_owner)."""
        self._live: set[str] = set()
        """The processes alive at the last beat."""
        self._class: tuple[str | None, str | None, str | None] = (None, None, None)
        """What the directory last said of the cluster's class: (class, home, HTTP)."""
        self._carried: dict[str, Connection] = {}
        """Gateway: the connections carried whole to the class's home, by id."""
        self._carried_ids = itertools.count(1)
        self._http: aiohttp.ClientSession | None = None
        self._carried_peers: dict[tuple[str, str], Peer] = {}
        self._home_url = ""
        """The HTTP address this process serves a class's requests at, once advertised."""
        """Home: the peers of connections carried here whole, by (gateway, connection)."""

    # -- life cycle ---------------------------------------------------------------------

    async def connect(self) -> None:
        """Reach Redis and say this process is alive; raises if Redis is unreachable."""
        try:
            await self._redis.ping()
            await self.directory.beat(self.node)
            await self.directory.mark_registered(self.node)
            if self.class_name:
                await self._claim_home()
            self._class = await self.directory.class_home()
            self._live = set((await self.directory.nodes())[0])
        except BaseException:
            await self._redis.aclose()
            raise
        self.publisher.start()

    async def _claim_home(self) -> None:
        refused = await self.directory.claim_home(self.node, self.class_name)
        if refused.startswith("home:"):
            raise ClusterError(
                f"another process of the cluster ({refused[5:]}) is its class's home: "
                "start the others without --class"
            )
        if refused.startswith("class:"):
            raise ClusterError(
                f"the cluster runs the class {refused[6:]!r}: give the same --class, or "
                "another --cluster-name"
            )

    def http_session(self) -> aiohttp.ClientSession:
        """The HTTP client that passes a class's requests on to its home
        (boardroom.server.cluster.proxy)."""
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=HTTP_TIMEOUT_S))
        return self._http

    async def advertise(self, url: str) -> None:
        """The class's home serves HTTP at ``url``: the others send it their HTTP requests."""
        if self.class_name:
            self._home_url = url
            await self.directory.advertise_home(url)
            self._class = await self.directory.class_home()

    def route(self) -> Route:
        """Where a new connection's messages go, as the directory said at the last beat."""
        running, home, _ = self._class
        if running is None or home == self.node:
            return Route.HERE
        return Route.NOWHERE if home is None else Route.HOME

    @property
    def home_http(self) -> str | None:
        """The class's home's HTTP address, when another process is the home."""
        _, home, http = self._class
        return http if home is not None and home != self.node else None

    def carry(self, connection: Connection) -> str:
        """Carry ``connection`` whole to the class's home; its id for :meth:`carry_frame`."""
        carried = f"c{next(self._carried_ids)}"
        self._carried[carried] = connection
        return carried

    def carry_frame(self, carried: str, text: str) -> None:
        """Send one frame of a carried connection to the home."""
        connection = self._carried.get(carried)
        _, home, _ = self._class
        if connection is None:
            return
        if home is None or home == self.node:
            connection.close(CLOSE_HOME_GONE, "the class's server restarted: reconnect")
            return
        self.publisher.send(home, Frame(self.node, carried, connection.address, text))

    def hang_up(self, carried: str) -> None:
        """A carried connection closed."""
        if self._carried.pop(carried, None) is None:
            return
        _, home, _ = self._class
        if home is not None and home != self.node:
            self.publisher.send(home, Hangup(self.node, carried))

    async def claim_room(self, code: str) -> bool:
        """Whether this process takes a stored room back at its start: no live
        process owns it (its owner died, or the cluster restarted)."""
        return await self.directory.claim_room(code, self.node)

    async def serve(self, hub: GameServer) -> None:
        """Act for the cluster with ``hub``: read the inbox, beat, take over the dead."""
        self._hub = hub
        hub.elsewhere = self
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.directory.channel(self.node), self.directory.channel("*"))
        self._tasks = [
            asyncio.create_task(self._read_inbox(self._pubsub)),
            asyncio.create_task(self._beat_forever()),
        ]
        restored = [info.code for info in hub.rooms()]
        if restored:
            self._broadcast(RoomsMoved(self.node, "", restored))

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
        assert self._hub is not None, "serve() first"
        return self._hub

    # -- the hub's RoomsElsewhere ---------------------------------------------------------

    async def forward(
        self, session: Session, token: str, address: str, message: ClientMessage
    ) -> bool:
        room, owner = await self._owner_for(session, message)
        if owner is None:
            return False
        if isinstance(message, Watch) and room is not None:
            self._watched.setdefault(session.id, set()).add(room)
        self._links.setdefault(session.id, set()).add(owner)
        self._tokens[session.id] = token
        self._addresses[session.id] = address
        record = SessionRecord.of(session)
        deadline = asyncio.get_running_loop().time() + 2 * HELLO_HOLD_S
        forward = Forward(self.node, record, token, address, encode_message(message))
        self._send_forward(owner, room, forward, deadline)
        return True

    def _send_forward(
        self, owner: str, room: str | None, forward: Forward, deadline: float
    ) -> None:
        """Publish ``forward`` to ``owner``; if nobody received it (the owner died
        a moment ago: its heartbeat has not expired yet), send it again to the
        room's owner once it is known, here or elsewhere, until ``deadline``.
        Received, it is kept a moment (:data:`HELLO_HOLD_S`): if the owner dies
        before answering, its takeover sends it again (:meth:`_resend_to`)."""

        def published(received: int) -> None:
            if received:
                now = asyncio.get_running_loop().time()
                self._recent.append((now, owner, room, forward))
                while self._recent and self._recent[0][0] < now - HELLO_HOLD_S:
                    self._recent.popleft()
                return
            key = f"again:{forward.session.id}"
            self._in_order(key, lambda: self._forward_again(owner, room, forward, deadline))

        self.publisher.send(owner, forward, published=published)

    def _resend_to(self, dead: str, taken: set[str]) -> None:
        """The rooms ``taken`` of the dead process ``dead`` were taken over: what
        was sent to them shortly before may have died unanswered with it. It is
        sent again, in order, to the new owner: a move the dead process had
        already made is refused there as stale, which answers the client."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2 * HELLO_HOLD_S
        for _, owner, room, forward in list(self._recent):
            if owner == dead and room in taken:
                key = f"again:{forward.session.id}"
                self._in_order(
                    key,
                    functools.partial(self._forward_again, dead, room, forward, deadline),
                )
        self._recent = collections.deque(
            item for item in self._recent if not (item[1] == dead and item[2] in taken)
        )

    async def _forward_again(
        self, dead: str, room: str | None, forward: Forward, deadline: float
    ) -> None:
        loop = asyncio.get_running_loop()
        if room is None or loop.time() >= deadline:
            logger.warning("a relayed message was lost", extra={"session": forward.session.id})
            return
        owner = await self.directory.owner(room)
        if owner is None and await self._rebuilt():  # Redis came back empty
            owner = await self.directory.owner(room)
        while owner == dead and not await self.directory.alive(dead):
            # Dead, and its rooms not yet taken over: wait for the new owner.
            if loop.time() >= deadline:
                return
            await asyncio.sleep(TAKEOVER_POLL_S)
            owner = await self.directory.owner(room)
        if owner == dead:
            await asyncio.sleep(TAKEOVER_POLL_S)  # its heartbeat lives a moment longer
        if owner is not None and owner != self.node:
            self._owners[room] = owner
            self._send_forward(owner, room, forward, deadline)
            return
        # The room came here (or is gone): act on it here, as for a connection here.
        outbox = self.hub.outbox_of(ClientId(forward.session.id))
        if isinstance(outbox, Connection):
            message = decode_client_message(forward.text)
            await self.hub.handle_for(forward.session, outbox, forward.token, message)

    async def _owner_for(
        self, session: Session, message: ClientMessage
    ) -> tuple[str | None, str | None]:
        """(the room that takes ``message``, the live process other than this
        one that owns it); None for what is not known."""
        if isinstance(message, QuickMatch):
            game = resolve_game(message.game, message.m, message.n, message.k).name
            for waiting in await self.directory.quick_rooms(game):
                if waiting not in session.rooms and (owner := await self._live_owner(waiting)):
                    return waiting, owner
            return None, None
        room: str | None
        if isinstance(message, Watch | Join):
            access: Literal["watch", "seat"] = "watch" if isinstance(message, Watch) else "seat"
            room = await self.directory.locate(message.code, access)
            if room is None and await self._rebuilt():
                room = await self.directory.locate(message.code, access)
        else:
            room = normalise_code(getattr(message, "room", ""))
        owner = None if room is None else await self._live_owner(room)
        if (
            owner is None
            and room is not None
            and not isinstance(message, Watch | Join)
            and await self.directory.owner(room) is None
            and await self._rebuilt()
        ):
            # Unknown in a directory that was being rebuilt: looked up again.
            owner = await self._live_owner(room)
        return room, owner

    async def _live_owner(self, room: str) -> str | None:
        """The room's owner if it is another live process. Owners are kept once
        read: a room changes owner only when its owner dies, and the new owner
        says so to every process (RoomsMoved); liveness is as of the last beat."""
        owner = self._owners.get(room)
        if owner is None:
            owner = await self.directory.owner(room)
            if owner is None:
                return None
            if len(self._owners) >= OWNERS_KEPT:
                self._owners.clear()
            self._owners[room] = owner
        if owner == self.node:
            return None
        if owner not in self._live:
            # Started since the last beat, or dead: ask (a miss, so rare).
            if not await self.directory.alive(owner):
                return await self._owner_after_takeover(room, owner)
            self._live.add(owner)
        return owner

    async def _owner_after_takeover(self, room: str, dead: str) -> str | None:
        """The room's owner once the dead process ``dead`` is taken over (waited
        for, :data:`HELLO_HOLD_S` at most): a message for its room waits for the
        room rather than be refused as for a room that does not exist. None if
        the room is gone, is this process's now, or the takeover did not come."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + HELLO_HOLD_S
        while loop.time() < deadline:
            await asyncio.sleep(TAKEOVER_POLL_S)
            owner = await self.directory.owner(room)
            if owner is None and await self._rebuilt():
                continue  # Redis came back empty: the owner registers again
            if owner == dead and await self.directory.alive(dead):
                self._live.add(dead)  # alive after all: its keys were lost with Redis
                return dead
            if owner != dead:
                self._owners.pop(room, None)
                if owner is None or owner == self.node:
                    return None
                self._owners[room] = owner
                self._live.add(owner)
                return owner
        return None

    async def public_page(self, game: str | None, offset: int, limit: int) -> RoomPage:
        return await self.directory.public_page(game, offset, limit)

    async def claim_codes(self, codes: RoomCodes, *, restored: bool = False) -> bool:
        return await self.directory.claim_codes(codes, self.node, force=restored)

    async def release_codes(self, codes: RoomCodes) -> None:
        self.publisher.do(self.directory.release_codes(codes))

    async def recall(self, token: str) -> SessionRecord | None:
        record = await self.directory.recall(session_id_for(token))
        if record is None and await self._rebuilt():
            record = await self.directory.recall(session_id_for(token))
        return record

    async def _rebuilt(self) -> bool:
        """After a miss in the directory: if it is being rebuilt (Redis restarted
        empty, and a process known alive has not registered again yet), wait
        until it is, :data:`REBUILD_WAIT_S` at most, and say True (look again);
        False when nothing was missing."""
        nodes = sorted(self._live | {self.node})
        if await self.directory.all_registered(nodes):
            return False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REBUILD_WAIT_S
        while loop.time() < deadline:
            await asyncio.sleep(TAKEOVER_POLL_S)
            if await self.directory.all_registered(nodes):
                break
        return True

    async def rooms_elsewhere(self, session: Session, token: str) -> list[str] | None:
        """Ask every other process where the session holds seats. A process that
        does not answer within :data:`ASK_TIMEOUT_S` (it died a moment ago: its
        heartbeat has not expired yet), or a dead one whose rooms are not taken
        over yet, may hold some of them: then wait for its takeover and ask
        again, until :data:`HELLO_HOLD_S` has passed (None: the hub has the
        client try again). A class's cluster never takes rooms over (they all
        live in its home), so there it does not wait."""
        deadline = asyncio.get_running_loop().time() + HELLO_HOLD_S
        while True:
            live, dead = await self.directory.nodes()
            others = [node for node in live if node != self.node]
            known, rooms, silent = await self._ask_where(session, others)
            waiting_for = silent | set(dead)
            if not waiting_for or self._class[0] is not None:
                self._attach_to[session.id] = known
                return sorted(rooms)
            if asyncio.get_running_loop().time() >= deadline:
                logger.warning(
                    "a resuming session waited for a takeover in vain",
                    extra={"session": session.id, "nodes": sorted(waiting_for)},
                )
                return None
            await self._wait_for_takeover(waiting_for, deadline)

    async def _ask_where(
        self, session: Session, others: list[str]
    ) -> tuple[set[str], set[str], set[str]]:
        """(the processes that know the session, its seats there, the processes
        that did not answer within :data:`ASK_TIMEOUT_S`)."""
        if not others:
            return set(), set(), set()
        question = next(self._questions)
        answers: asyncio.Queue[Answer] = asyncio.Queue()
        self._answers[question] = answers
        known: set[str] = set()
        rooms: set[str] = set()
        answered: set[str] = set()
        try:
            for node in others:
                self.publisher.send(node, Ask(self.node, question, session.id))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(ASK_TIMEOUT_S):
                    while len(answered) < len(others):
                        answer = await answers.get()
                        answered.add(answer.sender)
                        if answer.known:
                            known.add(answer.sender)
                        rooms.update(answer.rooms)
        finally:
            del self._answers[question]
        return known, rooms, set(others) - answered

    async def _wait_for_takeover(self, nodes: set[str], deadline: float) -> None:
        """Until one of ``nodes`` is taken over (gone from the directory's
        processes) or :data:`TAKEOVER_POLL_S` times ten, at most to ``deadline``."""
        loop = asyncio.get_running_loop()
        until = min(deadline, loop.time() + 10 * TAKEOVER_POLL_S)
        while loop.time() < until:
            await asyncio.sleep(TAKEOVER_POLL_S)
            live, dead = await self.directory.nodes()
            if nodes - set(live) - set(dead):
                return

    def welcomed(self, session: Session, token: str, address: str) -> None:
        self._tokens[session.id] = token
        self._addresses[session.id] = address
        record = SessionRecord.of(session)
        self.publisher.do(self.directory.save_session(record))
        for node in self._attach_to.pop(session.id, set()):
            self._links.setdefault(session.id, set()).add(node)
            self.publisher.send(node, Attach(self.node, record, token, address))

    def disconnected(self, session: Session) -> None:
        for node in self._links.get(session.id, ()):
            self.publisher.send(node, Gone(self.node, session.id))

    def room_changed(self, code: str, summary: RoomSummary | None, quick_open: bool) -> None:
        self.publisher.do(self.directory.list_room(code, summary, quick_open))

    def room_dropped(self, code: str) -> None:
        self.publisher.do(self.directory.drop_room(code))

    # -- the inbox ----------------------------------------------------------------------

    async def _read_inbox(self, pubsub: PubSub) -> None:
        while True:
            try:
                item = await pubsub.get_message(timeout=None)
            except RedisError:
                # Redis restarted (or the connection broke): the next read
                # connects again and subscribes again (redis-py does both).
                logger.exception("reading the cluster's messages failed; retrying")
                await asyncio.sleep(INBOX_RETRY_S)
                continue
            if item is None or item.get("type") != "message":
                continue
            try:
                envelope = decode(item["data"])
            except msgspec.DecodeError:
                logger.warning("an envelope that does not decode was dropped")
                continue
            if envelope.sender == self.node and not isinstance(envelope, RoomsMoved):
                continue
            self._receive(envelope)

    def _receive(self, envelope: Envelope) -> None:
        """Act on one envelope: at once if it is quick and touches no room, else
        in its session's order (messages of one session never overtake each other)."""
        hub = self.hub
        match envelope:
            case Deliver(session=session, text=text) if session in self._carried:
                self._carried[session].send_text(text)
            case Close(session=session, code=code, reason=reason) if session in self._carried:
                self._carried[session].close(code, reason)
            case Frame():
                key = f"{envelope.sender}/{envelope.connection}"
                self._in_order(key, lambda: self._carried_frame(envelope))
            case Hangup(sender=sender, connection=connection):
                key = f"{sender}/{connection}"
                self._in_order(key, lambda: self._carried_hangup(sender, connection))
            case Deliver(session=session, text=text):
                outbox = hub.outbox_of(ClientId(session))
                if isinstance(outbox, Connection):
                    outbox.send_text(text)
            case Close(session=session, code=code, reason=reason):
                outbox = hub.outbox_of(ClientId(session))
                if isinstance(outbox, Connection):
                    outbox.close(code, reason)
            case Answer():
                queue = self._answers.get(envelope.question)
                if queue is not None:
                    queue.put_nowait(envelope)
            case Ask(sender=sender, question=question, session=session):
                known = hub.knows(ClientId(session))
                rooms = hub.seated_rooms(ClientId(session)) if known else []
                self.publisher.send(sender, Answer(self.node, question, known, rooms))
            case Forward():
                self._in_order(envelope.session.id, lambda: self._act_for(envelope))
            case Gone(sender=sender, session=session):
                self._in_order(session, lambda: self._gone(sender, session))
            case Attach():
                self._in_order(envelope.session.id, lambda: self._attach(envelope))
            case RoomsMoved():
                self._owners.update(dict.fromkeys(envelope.rooms, envelope.sender))
                self._live.add(envelope.sender)
                if envelope.previous:
                    self._in_order("", lambda: self._gateway_gone(envelope.previous))
                    self._watch_again(set(envelope.rooms))
                    self._resend_to(envelope.previous, set(envelope.rooms))
                self._reattach(envelope.sender)

    def _in_order(self, key: str, work: Callable[[], Awaitable[None]]) -> None:
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

    def _outbox(self, gateway: str, session: str, address: str) -> RemoteOutbox:
        outbox = self._outboxes.get((gateway, session))
        if outbox is None:
            outbox = RemoteOutbox(self.publisher, self.node, gateway, session, address)
            self._outboxes[gateway, session] = outbox
        return outbox

    async def _act_for(self, forward: Forward) -> None:
        outbox = self._outbox(forward.sender, forward.session.id, forward.address)
        try:
            message = decode_client_message(forward.text)
        except ProtocolError:
            logger.warning("a relayed message does not decode", extra={"node": forward.sender})
            return
        await self.hub.handle_for(forward.session, outbox, forward.token, message)

    async def _carried_frame(self, frame: Frame) -> None:
        key = (frame.sender, frame.connection)
        peer = self._carried_peers.get(key)
        if peer is None:
            outbox = RemoteOutbox(
                self.publisher, self.node, frame.sender, frame.connection, frame.address
            )
            peer = self._carried_peers[key] = Peer(outbox)
        try:
            message = decode_client_message(frame.text)
        except ProtocolError as refusal:
            self.hub.refuse(peer, refusal.code, refusal.message, refusal.request_id)
            return
        await self.hub.handle(peer, message)

    async def _carried_hangup(self, gateway: str, connection: str) -> None:
        peer = self._carried_peers.pop((gateway, connection), None)
        if peer is not None:
            await self.hub.disconnected(peer)

    async def _gone(self, gateway: str, session: str) -> None:
        outbox = self._outboxes.pop((gateway, session), None)
        if outbox is not None:
            await self.hub.detach(ClientId(session), outbox)

    async def _attach(self, attach: Attach) -> None:
        if not self.hub.knows(ClientId(attach.session.id)):
            return
        outbox = self._outbox(attach.sender, attach.session.id, attach.address)
        await self.hub.attach(attach.session, outbox, rejoin=True)

    def _reattach(self, owner: str) -> None:
        """``owner`` took rooms over: the sessions connected here that act through
        other processes tell it where they are (it knows only those it restored)."""
        hub = self.hub
        for session_id in list(self._links):
            outbox = hub.outbox_of(ClientId(session_id))
            token = self._tokens.get(session_id)
            session = hub.live_session(ClientId(session_id))
            if not isinstance(outbox, Connection) or token is None or session is None:
                continue
            record = SessionRecord.of(session)
            if owner == self.node:
                self._in_order(session_id, functools.partial(self._rejoin_here, record, outbox))
                continue
            self._links[session_id].add(owner)
            address = self._addresses.get(session_id, "")
            self.publisher.send(owner, Attach(self.node, record, token, address))

    def _watch_again(self, moved: set[str]) -> None:
        """Rooms of a dead process were taken over (``moved``): a restored room
        knows its seats, not its spectators. The spectators connected here are
        told so with a close (1012, the room's server restarted): their clients
        reconnect at once and watch their rooms again, in the room's new home."""
        hub = self.hub
        for session_id, rooms in list(self._watched.items()):
            if not rooms & moved:
                continue
            rooms -= moved
            outbox = hub.outbox_of(ClientId(session_id))
            if isinstance(outbox, Connection):
                outbox.close(CLOSE_ROOM_MOVED, "the game you watch moved to another server")

    async def _gateway_gone(self, gateway: str) -> None:
        """The process ``gateway`` died: the sessions whose connections it held
        are away here from now on, as if their connections had closed (their
        seats are held for the grace window, and their opponents told)."""
        for (via, session), outbox in list(self._outboxes.items()):
            if via == gateway:
                del self._outboxes[via, session]
                await self.hub.detach(ClientId(session), outbox)
        for via, connection in [key for key in self._carried_peers if key[0] == gateway]:
            await self._carried_hangup(via, connection)

    async def _rejoin_here(self, record: SessionRecord, outbox: Connection) -> None:
        await self.hub.attach(record, outbox, rejoin=True)

    # -- heartbeats and takeovers -------------------------------------------------------

    def _prune(self) -> None:
        """Forget what this process kept for sessions that no longer live here."""
        hub = self.hub
        for session_id in [s for s in self._links if not hub.knows(ClientId(s))]:
            for table in (self._links, self._tokens, self._addresses):
                table.pop(session_id, None)
        for session_id in [s for s in self._watched if not hub.knows(ClientId(s))]:
            del self._watched[session_id]
        for key in [k for k in self._outboxes if not hub.knows(ClientId(k[1]))]:
            del self._outboxes[key]

    async def _beat_forever(self) -> None:
        while True:
            self._prune()
            try:
                registered = await self.directory.beat(self.node)
                if not registered:
                    await self._register_again()
                if self.class_name:
                    await self._claim_home()
                self._follow_home(await self.directory.class_home())
                live, dead = await self.directory.nodes()
                # Right after Redis came back empty the others may not have beaten
                # yet: they are still taken as alive until the next beat.
                self._live = set(live) if registered else self._live | set(live)
                for node in dead:
                    # A class's rooms all live in its home: no other process takes them.
                    if self.route() is not Route.HERE:
                        break
                    if await self.directory.start_takeover(node, self.node):
                        await self._take_over(node)
            except RedisError:
                logger.exception("the cluster's heartbeat failed; retrying")
            except ClusterError:
                # Another process took the class's home while this one missed its
                # beats: the two would both run the class. Say it loudly.
                logger.exception("this process is no longer its class's home")
            await asyncio.sleep(HEARTBEAT_S)

    async def _register_again(self) -> None:
        """Redis lost this process's keys (it restarted empty, or failed over to
        a replica that had not got them): put back what this process owns (its
        rooms' codes, owners and lobby lines, its sessions, its class's home),
        then have every process send this one's rooms their sessions again
        (Attach: each gets its rooms' whole ``state``), which mends whatever
        room traffic was lost while the subscriptions were down."""
        logger.warning("the cluster's Redis lost this process's keys: registering them again")
        if self.class_name:
            await self._claim_home()
            if self._home_url:
                await self.directory.advertise_home(self._home_url)
        hub = self.hub
        await hub.tell_elsewhere_again()
        for record in hub.session_records():
            self.publisher.do(self.directory.save_session(record))
        await self.publisher.flush()
        await self.directory.mark_registered(self.node)
        self._broadcast(RoomsMoved(self.node, "", [info.code for info in hub.rooms()]))

    def _follow_home(self, now: tuple[str | None, str | None, str | None]) -> None:
        """The directory's word on the class, at this beat: connections carried
        to a home that is no longer it are closed (their clients reconnect)."""
        before, self._class = self._class[1], now
        if before is not None and before != now[1] and self._carried:
            for connection in list(self._carried.values()):
                connection.close(CLOSE_HOME_GONE, "the class's server restarted: reconnect")
            self._carried.clear()

    async def _take_over(self, dead: str) -> None:
        """Restore the dead process's rooms that have a game in play from the
        store, drop the others from the directory, and tell every process."""
        rooms = set(await self.directory.owned(dead))

        async def theirs(code: str) -> bool:
            return code in rooms and await self.directory.claim_room(code, self.node)

        restored = await self.hub.restore_rooms(theirs)
        taken = sorted(code for code in rooms if self.hub.has_room(code))
        for code in sorted(rooms - set(taken)):
            if await self.directory.owner(code) == dead:
                self.publisher.do(self.directory.drop_room(code))
        await self.directory.end_takeover(dead)
        logger.info(
            "took over a dead process's rooms",
            extra={"node": dead, "restored_rooms": restored, "dropped": len(rooms) - len(taken)},
        )
        self._broadcast(RoomsMoved(self.node, dead, taken))

    def _broadcast(self, envelope: Envelope) -> None:
        self.publisher.send("*", envelope)


CLUSTER = web.AppKey("cluster", ClusterNode)
"""This process in its cluster (``--cluster``), set by boardroom.server.lifecycle from the
hub's entry on; unset for a server alone."""
