"""This process's inbox: :class:`Inbox` reads its channel and hands each envelope on.

Contract: every envelope published to this process (or to every process) is
handed to the part whose job it is, exactly once, and never one of this
process's own (but its ``RoomsMoved``: it learns its own rooms' moves too).
What is quick and touches no room (a reply to a client, an answer, an ask) is
done at once; the rest runs in its session's order (:meth:`Process.in_order`),
so the messages of one session, or the frames of one carried connection, never
overtake each other. A broken subscription (Redis restarting) is read again
until it is back; an envelope that does not decode is dropped, logged.

Two readers keep that contract: :meth:`Inbox.keep_subscribed`, over a
:class:`~boardroom.server.cluster.wire.Subscription` read by hand, which acts on
each message from the connection's own callback (issue 29: paced, redis-py's
reading cost a relayed message more CPU than acting on it); and
:meth:`Inbox.read_forever`, over redis-py's pub/sub, where the wire cannot go
(TLS, a Unix socket).
"""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any

from redis.asyncio.client import PubSub
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from boardroom.server.cluster.class_home import ClassHome
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
    decode_bundle,
)
from boardroom.server.cluster.gateway import RESYNC_BEFORE_S, Gateway
from boardroom.server.cluster.hello_hold import HelloHold
from boardroom.server.cluster.owners import RoomOwners
from boardroom.server.cluster.process import Process, stop_if_cancelled
from boardroom.server.cluster.remote_clients import RemoteClients
from boardroom.server.cluster.wire import Subscription
from boardroom.server.connection import Connection
from boardroom.server.core.room_output import ClientId

logger = logging.getLogger(__name__)

INBOX_RETRY_S = 0.1
"""How soon the inbox reads again after its connection failed."""
INBOX_CONNECT_TIMEOUT_S = 5.0
"""How long subscribing again may take, at most, before it is tried again."""


class Inbox:
    """What other processes send this one (see the module docstring)."""

    def __init__(
        self,
        process: Process,
        *,
        owners: RoomOwners,
        home: ClassHome,
        gateway: Gateway,
        remote: RemoteClients,
        hello: HelloHold,
    ) -> None:
        self._process = process
        self._owners = owners
        self._home = home
        self._gateway = gateway
        self._remote = remote
        self._hello = hello
        self._back_at: float | None = None
        """When redis-py last connected the subscription again, if not resynced yet."""

    def _connected_again(self, connection: object) -> None:
        """redis-py's connect callback: it runs after redis-py's own, which
        subscribes again (the read that follows receives the confirmation)."""
        self._back_at = asyncio.get_running_loop().time()

    async def read_forever(self, pubsub: PubSub) -> None:
        """Read the subscribed channels and act on each envelope, until cancelled.

        Whenever redis-py connected again (it does so, and subscribes again,
        inside a read: a broken read may not even reach this loop), the next
        read that returns has the gateway ask for what was published to this
        process while it was not subscribed (:meth:`Gateway.resync`): a message
        published to nobody is lost, and pub/sub says so to nobody."""
        loop = asyncio.get_running_loop()
        if pubsub.connection is not None:
            pubsub.connection.register_connect_callback(self._connected_again)
        failed_at: float | None = None
        while True:
            try:
                data = await read_message(pubsub)
            except RedisError:
                stop_if_cancelled()
                # Redis restarted (or the connection broke): the next read
                # connects again and subscribes again (redis-py does both).
                logger.exception("reading the cluster's messages failed; retrying")
                failed_at = loop.time() if failed_at is None else failed_at
                await asyncio.sleep(INBOX_RETRY_S)
                continue
            if self._back_at is not None:
                since = min(self._back_at, failed_at or self._back_at) - RESYNC_BEFORE_S
                self._back_at = failed_at = None
                logger.warning("subscribed to the cluster's messages again: resyncing")
                self._gateway.resync(since)
            if data is not None:
                self._deliver(data)

    async def keep_subscribed(
        self, subscription: Subscription, options: dict[str, Any], channels: list[str]
    ) -> None:
        """Act on what ``subscription`` (subscribed to ``channels``) delivers, as it
        comes, until cancelled; when it breaks, subscribe again (every
        :data:`INBOX_RETRY_S` until Redis takes it) and have the gateway ask for
        what was published to this process meanwhile (:meth:`Gateway.resync`),
        as :meth:`read_forever` does over redis-py."""
        loop = asyncio.get_running_loop()
        try:
            subscription.start(self._deliver)
            while True:
                await subscription.closed
                failed_at = loop.time()
                logger.warning("the cluster's subscription broke; subscribing again")
                while True:
                    try:
                        subscription = await Subscription.connect(
                            options, channels, INBOX_CONNECT_TIMEOUT_S
                        )
                        break
                    except RedisError:
                        stop_if_cancelled()
                        logger.exception("subscribing to the cluster's messages failed; retrying")
                        await asyncio.sleep(INBOX_RETRY_S)
                logger.warning("subscribed to the cluster's messages again: resyncing")
                self._gateway.resync(failed_at - RESYNC_BEFORE_S)
                subscription.start(self._deliver)
        finally:
            subscription.close()

    def _deliver(self, data: bytes) -> None:
        """Act on one message: the envelopes it carries, in order (never a
        process's own, but its ``RoomsMoved``)."""
        for envelope in decode_bundle(data):
            if envelope is None:
                logger.warning("an envelope that does not decode was dropped")
            elif envelope.sender != self._process.node or isinstance(envelope, RoomsMoved):
                try:
                    self._receive(envelope)
                except Exception:
                    logger.exception("acting on another process's message failed")

    def _receive(self, envelope: Envelope) -> None:
        """Act on one envelope: at once if it is quick and touches no room, else
        in its session's order (messages of one session never overtake each other)."""
        process, home = self._process, self._home
        hub = process.hub
        match envelope:
            case Deliver(sessions=sessions, text=text):
                for session in sessions:
                    carried = home.carried.get(session)
                    outbox = hub.outbox_of(ClientId(session)) if carried is None else carried
                    if isinstance(outbox, Connection):
                        outbox.send_text(text)
            case Close(session=session, code=code, reason=reason) if session in home.carried:
                home.carried[session].close(code, reason)
            case Frame():
                key = f"{envelope.sender}/{envelope.connection}"
                process.in_order(key, lambda: home.carried_frame(envelope))
            case Hangup(sender=sender, connection=connection):
                key = f"{sender}/{connection}"
                process.in_order(key, lambda: home.carried_hangup(sender, connection))
            case Close(session=session, code=code, reason=reason):
                outbox = hub.outbox_of(ClientId(session))
                if isinstance(outbox, Connection):
                    outbox.close(code, reason)
            case Answer():
                self._hello.answered(envelope)
            case Ask():
                self._hello.answer(envelope)
            case Forward():
                process.in_order(envelope.session.id, lambda: self._remote.act_for(envelope))
            case Gone(sender=sender, session=session):
                process.in_order(session, lambda: self._remote.gone(sender, session))
            case Attach():
                process.in_order(envelope.session.id, lambda: self._remote.attach(envelope))
            case RoomsMoved():
                self._owners.moved(envelope.rooms, envelope.sender)
                if envelope.previous:
                    process.in_order("", lambda: self._gateway_gone(envelope.previous))
                    self._gateway.watch_again(set(envelope.rooms))
                    self._gateway.resend_to(envelope.previous, set(envelope.rooms))
                self._gateway.reattach(envelope.sender)

    async def _gateway_gone(self, gateway: str) -> None:
        """The process ``gateway`` died: the sessions and carried connections it
        held are away here from now on, as if their connections had closed."""
        await self._remote.gateway_gone(gateway)
        await self._home.gateway_gone(gateway)


async def read_message(pubsub: PubSub) -> bytes | None:
    """The data of the next message published to a subscribed channel; None
    for anything else read (a subscription's confirmation, a health check's
    answer).

    While the subscription's connection is up this reads its replies straight
    from the connection: redis-py's ``get_message`` wraps each read in its retry
    and observability layers, a dozen coroutine frames that every message woke
    through, about half of the inbox's CPU a message (issue 29). Anything but a
    message is handed to ``PubSub.handle_message``, which keeps its books of
    subscriptions. When the connection is down or a read breaks, ``get_message``
    reads instead: it connects again and subscribes again (with its retries,
    and the connect callback that has the gateway resync)."""
    connection = pubsub.connection
    if connection is None or not connection.is_connected:
        item = await pubsub.get_message(timeout=None)
        return item["data"] if item is not None and item["type"] == "message" else None
    await pubsub.check_health()
    try:
        response = await connection.read_response(
            timeout=math.inf, disconnect_on_error=True, push_request=True
        )
    except (RedisConnectionError, RedisTimeoutError):
        # The read disconnected it: the next read connects and subscribes again.
        return await read_message(pubsub)
    if isinstance(response, list) and len(response) == 3 and response[0] == b"message":
        data: bytes = response[2]
        return data
    if response in pubsub.health_check_response:
        return None
    await pubsub.handle_message(response, ignore_subscribe_messages=True)
    return None
