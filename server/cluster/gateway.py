"""A gateway's side of the relay: :class:`Gateway`, for the sessions connected here.

Contract: :meth:`Gateway.forward` sends a client's message for a room of another
live process to that room's owner (False: no other process has the room, and
the hub answers as for a room that does not exist), and remembers which
processes act for each session connected here, so that they hear when it comes
back (:meth:`Gateway.welcomed`) or goes (:meth:`Gateway.disconnected`). A
message is never lost to an owner that died a moment ago: unreceived, it is
sent again to the room's owner once known; received, it is kept
:data:`~boardroom.server.cluster.process.HELLO_HOLD_S` and sent again to the
process that takes the dead one's rooms over (:meth:`Gateway.resend_to`),
which refuses as stale a move already made. When rooms move (a takeover, a
process registering again after a Redis restart), the sessions connected here
are attached to the rooms' new owner (:meth:`Gateway.reattach`) and those that
watched a moved room are closed (1012) to watch it again (:meth:`Gateway.watch_again`).
When this process's own subscription was down (Redis restarting, its connection
broken), whatever the owners published to it meanwhile reached nobody: once it
is subscribed again it asks them for it (:meth:`Gateway.resync`), its players
and its spectators alike, without closing anyone's connection.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging

from boardroom.server.cluster.envelopes import Attach, Forward, Gone
from boardroom.server.cluster.owners import RoomOwners
from boardroom.server.cluster.process import HELLO_HOLD_S, TAKEOVER_POLL_S, Process
from boardroom.server.connection import Connection
from boardroom.server.core.room_output import ClientId
from boardroom.server.core.sessions import Session
from boardroom.server.hub.boundary import SessionRecord
from boardroom.shared.protocol.close_codes import CLOSE_SERVICE_RESTART
from boardroom.shared.protocol.codec import decode_client_message, encode_message
from boardroom.shared.protocol.messages import (
    ClientMessage,
    Leave,
    MakeMove,
    SendChat,
    Watch,
)

logger = logging.getLogger(__name__)

CLOSE_ROOM_MOVED = CLOSE_SERVICE_RESTART
"""1012: a room this connection watched was on a process that died; it is taken
over elsewhere, and the client watches it again on reconnecting."""
ATTACH_RETRY_S = 0.1
"""How soon an Attach that reached nobody (its process's subscription is down
too, for a moment) is sent again."""
ATTACH_RETRY_FOR_S = 3.0
"""How long such an Attach is sent again, at most (a process that stays
unsubscribed longer is taken for dead: its heartbeat expires)."""
RESYNC_WATCH_ID = "resync"
"""The ``id`` of the ``watch`` a resync sends for a spectator (:meth:`Gateway.resync`):
no client request has it, so its answer (the room's ``state``, taken in as any
``state``; an ``error`` if the room is gone meanwhile) is never taken for the
answer to a request the client is waiting for."""
RESYNC_BEFORE_S = 3.0
"""On a resync, moves sent on this long before the subscription was seen down
(or, unseen, came back) are sent again too: their replies may have been
published while it was down."""


class Gateway:
    """The sessions connected here that act through other processes (see the module docstring)."""

    def __init__(self, process: Process, owners: RoomOwners) -> None:
        self._process = process
        self._owners = owners
        self._links: dict[str, set[str]] = {}
        """The processes that act for each session connected here."""
        self._tokens: dict[str, str] = {}
        self._addresses: dict[str, str] = {}
        self.attach_to: dict[str, set[str]] = {}
        """The processes that know each resuming session, told once it is welcomed."""
        self._watched: dict[str, dict[str, str]] = {}
        """The rooms of other processes each session connected here watches, each
        with the code it watches by (a private room's join or watch code)."""
        self._recent: collections.deque[tuple[float, str, str | None, Forward]] = (
            collections.deque()
        )
        """The messages sent on lately, in case their owner dies unanswering."""

    async def forward(
        self, session: Session, token: str, address: str, message: ClientMessage
    ) -> bool:
        """Send ``message`` on to its room's owner, if another live process (see
        :meth:`boardroom.server.hub.boundary.RoomsElsewhere.forward`)."""
        room, owner = await self._owners.owner_for(session, message)
        if owner is None:
            return False
        if isinstance(message, Watch) and room is not None:
            self._watched.setdefault(session.id, {})[room] = message.code
        elif isinstance(message, Leave) and room is not None:
            self._watched.get(session.id, {}).pop(room, None)
        self._links.setdefault(session.id, set()).add(owner)
        self._tokens[session.id] = token
        self._addresses[session.id] = address
        record = SessionRecord.of(session)
        deadline = asyncio.get_running_loop().time() + 2 * HELLO_HOLD_S
        forward = Forward(self._process.node, record, token, address, encode_message(message))
        self._send_forward(owner, room, forward, deadline)
        return True

    def _send_forward(
        self, owner: str, room: str | None, forward: Forward, deadline: float
    ) -> None:
        """Publish ``forward`` to ``owner``; if nobody received it (the owner died
        a moment ago: its heartbeat has not expired yet), send it again to the
        room's owner once it is known, here or elsewhere, until ``deadline``.
        Received, it is kept a moment (:data:`HELLO_HOLD_S`): if the owner dies
        before answering, its takeover sends it again (:meth:`resend_to`)."""

        def published(received: int) -> None:
            if received:
                now = asyncio.get_running_loop().time()
                self._recent.append((now, owner, room, forward))
                while self._recent and self._recent[0][0] < now - HELLO_HOLD_S:
                    self._recent.popleft()
                return
            key = f"again:{forward.session.id}"
            self._process.in_order(key, lambda: self._forward_again(owner, room, forward, deadline))

        self._process.publisher.send(owner, forward, published=published)

    def resend_to(self, dead: str, taken: set[str]) -> None:
        """The rooms ``taken`` of the dead process ``dead`` were taken over: what
        was sent to them shortly before may have died unanswered with it. It is
        sent again, in order, to the new owner: a move the dead process had
        already made is refused there as stale, which answers the client. What
        could be carried out twice is not sent again (:func:`_safe_to_send_again`):
        most of what is kept was answered long before the owner died."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2 * HELLO_HOLD_S
        for _, owner, room, forward in list(self._recent):
            if owner == dead and room in taken and _safe_to_send_again(forward):
                key = f"again:{forward.session.id}"
                self._process.in_order(
                    key,
                    functools.partial(self._forward_again, dead, room, forward, deadline),
                )
        self._recent = collections.deque(
            item for item in self._recent if not (item[1] == dead and item[2] in taken)
        )

    async def _forward_again(
        self, dead: str, room: str | None, forward: Forward, deadline: float
    ) -> None:
        process, directory = self._process, self._process.directory
        loop = asyncio.get_running_loop()
        if room is None or loop.time() >= deadline:
            logger.warning("a relayed message was lost", extra={"session": forward.session.id})
            return
        owner = await directory.owner(room)
        if owner is None and await self._owners.rebuilt():  # Redis came back empty
            owner = await directory.owner(room)
        while owner == dead and not await directory.alive(dead):
            # Dead, and its rooms not yet taken over: wait for the new owner.
            if loop.time() >= deadline:
                return
            await asyncio.sleep(TAKEOVER_POLL_S)
            owner = await directory.owner(room)
        if owner == dead:
            await asyncio.sleep(TAKEOVER_POLL_S)  # its heartbeat lives a moment longer
        if owner is not None and owner != process.node:
            self._owners.remember(room, owner)
            self._send_forward(owner, room, forward, deadline)
            return
        # The room came here (or is gone): act on it here, as for a connection here.
        outbox = process.hub.outbox_of(ClientId(forward.session.id))
        if isinstance(outbox, Connection):
            message = decode_client_message(forward.text)
            await process.hub.handle_for(forward.session, outbox, forward.token, message)

    def welcomed(self, session: Session, token: str, address: str) -> None:
        """The session was welcomed here: the processes that know it are told
        where it is now (:attr:`attach_to`, which the hello hold filled)."""
        process = self._process
        self._tokens[session.id] = token
        self._addresses[session.id] = address
        record = SessionRecord.of(session)
        process.publisher.do(process.directory.save_session(record))
        for node in self.attach_to.pop(session.id, set()):
            self._links.setdefault(session.id, set()).add(node)
            process.publisher.send(node, Attach(process.node, record, token, address))

    def disconnected(self, session: Session) -> None:
        """The session's connection here closed: the processes acting for it are told."""
        for node in self._links.get(session.id, ()):
            self._process.publisher.send(node, Gone(self._process.node, session.id))

    def reattach(self, owner: str) -> None:
        """``owner`` took rooms over: the sessions connected here that act through
        other processes tell it where they are (it knows only those it restored)."""
        process = self._process
        hub = process.hub
        for session_id in list(self._links):
            outbox = hub.outbox_of(ClientId(session_id))
            token = self._tokens.get(session_id)
            session = hub.live_session(ClientId(session_id))
            if not isinstance(outbox, Connection) or token is None or session is None:
                continue
            record = SessionRecord.of(session)
            if owner == process.node:
                process.in_order(session_id, functools.partial(self._rejoin_here, record, outbox))
                continue
            self._links[session_id].add(owner)
            address = self._addresses.get(session_id, "")
            self._attach(owner, Attach(process.node, record, token, address))

    def _attach(self, owner: str, attach: Attach, deadline: float | None = None) -> None:
        """Publish ``attach`` to ``owner``; sent again while it reaches nobody and
        ``owner`` lives, for :data:`ATTACH_RETRY_FOR_S` at most: after a Redis
        restart its subscription may come back a moment after this one's. Idempotent:
        the owner gives the session's rooms their whole ``state`` each time."""
        loop = asyncio.get_running_loop()
        until = loop.time() + ATTACH_RETRY_FOR_S if deadline is None else deadline

        def published(received: int) -> None:
            if received or loop.time() >= until or owner not in self._owners.live:
                return
            loop.call_later(ATTACH_RETRY_S, self._attach, owner, attach, until)

        self._process.publisher.send(owner, attach, published=published)

    def resync(self, since: float) -> None:
        """This process's subscription is up again after being down, at most
        since ``since`` (loop time): what the owners published to it meanwhile
        (moves, replies, a :class:`RoomsMoved`) reached nobody and is lost.

        Rather than number every message and keep what was sent, each session
        connected here is attached again to every process it acts through
        (:meth:`reattach`'s Attach: its rooms' whole ``state`` comes back, which
        mends any kind of lost room traffic at once), and the moves it sent
        since ``since`` are sent again: a reply that was lost would leave its
        client waiting for it until its own timeout (a bot's 30 s), and a move
        already made is refused again as stale, which answers it. Only moves
        with a ``ply`` are sent again (sending anything else twice could do it
        twice). A spectator of a room elsewhere watches it again, by the code it
        watched by (:data:`RESYNC_WATCH_ID`; a spectator of the room already,
        it just gets the whole ``state``), its connection kept: closed (1012)
        to watch again by itself only if the room is nowhere else now."""
        process = self._process
        hub = process.hub
        for session_id, nodes in list(self._links.items()):
            outbox = hub.outbox_of(ClientId(session_id))
            token = self._tokens.get(session_id)
            session = hub.live_session(ClientId(session_id))
            if not isinstance(outbox, Connection) or token is None or session is None:
                continue
            record = SessionRecord.of(session)
            address = self._addresses.get(session_id, "")
            for node in sorted(nodes - {process.node}):
                self._attach(node, Attach(process.node, record, token, address))
        deadline = asyncio.get_running_loop().time() + 2 * HELLO_HOLD_S
        for sent_at, owner, room, forward in list(self._recent):
            if sent_at < since or room is None:
                continue
            message = decode_client_message(forward.text)
            if isinstance(message, MakeMove) and message.ply is not None:
                self._send_forward(owner, room, forward, deadline)
        for session_id, watched in list(self._watched.items()):
            for code in watched.values():
                again = functools.partial(self._watch_again, session_id, code)
                process.in_order(f"watch:{session_id}", again)

    async def _watch_again(self, session_id: str, code: str) -> None:
        """The session watches again, by ``code``, a room elsewhere (:meth:`resync`)."""
        hub = self._process.hub
        outbox = hub.outbox_of(ClientId(session_id))
        token = self._tokens.get(session_id)
        session = hub.live_session(ClientId(session_id))
        if not isinstance(outbox, Connection) or token is None or session is None:
            return
        address = self._addresses.get(session_id, "")
        watch = Watch(code=code, id=RESYNC_WATCH_ID)
        if not await self.forward(session, token, address, watch):
            outbox.close(CLOSE_ROOM_MOVED, "the game you watch moved to another server")

    async def _rejoin_here(self, record: SessionRecord, outbox: Connection) -> None:
        await self._process.hub.attach(record, outbox, rejoin=True)

    def watch_again(self, moved: set[str]) -> None:
        """Rooms of a dead process were taken over (``moved``): a restored room
        knows its seats, not its spectators. The spectators connected here are
        told so with a close (1012, the room's server restarted): their clients
        reconnect at once and watch their rooms again, in the room's new home."""
        hub = self._process.hub
        for session_id, rooms in list(self._watched.items()):
            if not rooms.keys() & moved:
                continue
            for room in moved:
                rooms.pop(room, None)
            outbox = hub.outbox_of(ClientId(session_id))
            if isinstance(outbox, Connection):
                outbox.close(CLOSE_ROOM_MOVED, "the game you watch moved to another server")

    def prune(self) -> None:
        """Forget what this process kept for sessions that no longer live here."""
        hub = self._process.hub
        for session_id in [s for s in self._links if not hub.knows(ClientId(s))]:
            for table in (self._links, self._tokens, self._addresses):
                table.pop(session_id, None)
        for session_id in [s for s in self._watched if not hub.knows(ClientId(s))]:
            del self._watched[session_id]


def _safe_to_send_again(forward: Forward) -> bool:
    """Whether ``forward`` may be sent again to a dead owner's successor without
    being carried out twice. The gateway does not know which of its recent
    messages were answered, so a repeat must be refused where it was already
    carried out: a move with its ``ply`` is (``stale_move``); one without could
    be made again in a later position (a Connect Four column still open), and a
    chat line would be said twice, so neither is sent again. The client sees on
    re-attaching whether such a move was made (the room's ``state``);
    docs/protocol.md asks cluster clients to send the ply."""
    message = decode_client_message(forward.text)
    if isinstance(message, MakeMove):
        return message.ply is not None
    return not isinstance(message, SendChat)
