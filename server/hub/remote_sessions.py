"""Sessions whose connection is on another process of a cluster (for
:mod:`boardroom.server.cluster`).

A cluster's node relays a client's message to the process that holds its room;
:class:`RemoteSessions` lets that process's hub act on it as if the connection
were its own: the session is adopted here, its messages go to a
:class:`~boardroom.server.hub.peer.PeerConnection` that reaches the client through the
other process, and the message is dispatched as a relayed one (never sent on
again).
"""

from __future__ import annotations

import contextlib

from boardroom.server.core.room_output import ClientId
from boardroom.server.core.sessions import Outbox, Session
from boardroom.server.hub.boundary import SessionRecord
from boardroom.server.hub.dispatch import Dispatcher
from boardroom.server.hub.peer import Peer, PeerConnection
from boardroom.server.hub.rooms import Rooms, for_client
from boardroom.server.room_host import RoomUnavailableError
from boardroom.shared.protocol.messages import ClientMessage


class RemoteSessions:
    """Sessions of other processes' connections on this hub (see the module docstring)."""

    def __init__(self, rooms: Rooms, dispatcher: Dispatcher) -> None:
        self._rooms = rooms
        self._sessions = rooms.sessions
        self._dispatcher = dispatcher

    async def attach(
        self, record: SessionRecord, outbox: PeerConnection, *, rejoin: bool
    ) -> Session:
        """Messages for the session go to ``outbox`` from now on (a connection on
        another process of the cluster, reached through it); with ``rejoin`` the
        session's rooms here are told it is back (their ``state`` follows)."""
        session = self._rooms.adopt_session(record)
        if session.outbox is not outbox:
            if session.outbox is not None:
                session.outbox.replace()
            session.outbox = outbox
            session.idle_since = None
        if rejoin:
            for code in sorted(session.rooms):
                host = self._rooms.lobby.get(code)
                if host is not None:
                    with contextlib.suppress(RoomUnavailableError):
                        await host.run_or_retry(
                            for_client(host.room.reconnected, session.id),
                            wanted=lambda: session.outbox is outbox,
                        )
        return session

    async def handle_for(
        self, record: SessionRecord, outbox: PeerConnection, token: str, message: ClientMessage
    ) -> None:
        """Act on ``message``, sent by the session ``record`` describes through
        another process of the cluster, as if its connection were here: answers
        go to ``outbox`` (which becomes the session's, as :meth:`attach` does)."""
        session = await self.attach(record, outbox, rejoin=False)
        await self._dispatcher.handle(Peer(outbox, session, token, relayed=True), message)

    async def detach(self, session_id: ClientId, outbox: PeerConnection) -> None:
        """The connection behind ``outbox`` closed: the session is away, as when
        its own connection here closes (nothing if it moved on meanwhile)."""
        session = self._sessions.get(session_id)
        if session is not None and session.outbox is outbox:
            await self._rooms.disconnected(Peer(outbox, session))

    def outbox_of(self, session_id: ClientId) -> Outbox | None:
        """Where the session's messages go now; None if it is away or unknown."""
        session = self._sessions.get(session_id)
        return None if session is None else session.outbox

    def live_session(self, session_id: ClientId) -> Session | None:
        """The live session with this id, if any."""
        return self._sessions.get(session_id)

    def knows(self, session_id: ClientId) -> bool:
        """True while the session is live here (connected, away within its grace, or held)."""
        return self._sessions.get(session_id) is not None
