"""An owner's side of the relay: :class:`RemoteClients`, the clients of other gateways.

Contract: this process's hub acts on a message relayed by another process (its
*gateway*) as if the client's connection were its own, through one
:class:`~boardroom.server.cluster.relay.RemoteOutbox` per gateway and session, the same
one every time, so that the hub's "is this still the session's connection?"
checks hold (:meth:`RemoteClients.act_for`). A session whose gateway says it
left (:meth:`RemoteClients.gone`), or whose gateway died
(:meth:`RemoteClients.gateway_gone`), is away here, as if its connection had
closed: its seats are held for the grace window and its opponents told. A
session that came back on another gateway is attached there again
(:meth:`RemoteClients.attach`), if this process knows it.
"""

from __future__ import annotations

import logging

from boardroom.server.cluster.envelopes import Attach, Forward
from boardroom.server.cluster.process import Process
from boardroom.server.cluster.relay import RemoteOutbox
from boardroom.server.core.room_output import ClientId
from boardroom.shared.protocol.codec import decode_client_message
from boardroom.shared.protocol.errors import ProtocolError

logger = logging.getLogger(__name__)


class RemoteClients:
    """The sessions of other gateways this process acts for (see the module docstring)."""

    def __init__(self, process: Process) -> None:
        self._process = process
        self._outboxes: dict[tuple[str, str], RemoteOutbox] = {}

    def _outbox(self, gateway: str, session: str, address: str) -> RemoteOutbox:
        outbox = self._outboxes.get((gateway, session))
        if outbox is None:
            process = self._process
            outbox = RemoteOutbox(process.publisher, process.node, gateway, session, address)
            self._outboxes[gateway, session] = outbox
        return outbox

    async def act_for(self, forward: Forward) -> None:
        """Act on a client's message that its gateway sent on."""
        outbox = self._outbox(forward.sender, forward.session.id, forward.address)
        try:
            message = decode_client_message(forward.text)
        except ProtocolError:
            logger.warning("a relayed message does not decode", extra={"node": forward.sender})
            return
        await self._process.hub.handle_for(forward.session, outbox, forward.token, message)

    async def gone(self, gateway: str, session: str) -> None:
        """The session's connection at ``gateway`` closed."""
        outbox = self._outboxes.pop((gateway, session), None)
        if outbox is not None:
            await self._process.hub.detach(ClientId(session), outbox)

    async def attach(self, attach: Attach) -> None:
        """The session is connected at ``attach.sender`` now (a resume, or a resync)."""
        hub = self._process.hub
        if not hub.knows(ClientId(attach.session.id)):
            return
        outbox = self._outbox(attach.sender, attach.session.id, attach.address)
        await hub.attach(attach.session, outbox, rejoin=True)

    async def gateway_gone(self, gateway: str) -> None:
        """The process ``gateway`` died: the sessions whose connections it held
        are away here from now on, as if their connections had closed (their
        seats are held for the grace window, and their opponents told)."""
        for (via, session), outbox in list(self._outboxes.items()):
            if via == gateway:
                del self._outboxes[via, session]
                await self._process.hub.detach(ClientId(session), outbox)

    def prune(self) -> None:
        """Forget the outboxes of sessions that no longer live here."""
        hub = self._process.hub
        for key in [k for k in self._outboxes if not hub.knows(ClientId(k[1]))]:
            del self._outboxes[key]
