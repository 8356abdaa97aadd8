"""A class on a cluster: its home, and the connections carried there whole.

Contract: one process of a cluster, started with ``--class``, is the class's
*home* (:meth:`ClassHome.claim` raises :class:`ClusterError` when another
process is, or the cluster runs another class). Every connection to another
process is carried to the home frame for frame (:meth:`ClassHome.carry`,
:meth:`ClassHome.carry_frame`, :meth:`ClassHome.hang_up`); the home acts on
those frames as if the connections were its own (:meth:`ClassHome.carried_frame`,
:meth:`ClassHome.carried_hangup`). What is known of the class is the
directory's word at the last beat (:meth:`ClassHome.follow`): a connection
carried to a home that is no longer it is closed (1012), and its client
reconnects. With the home away a new connection goes nowhere
(:attr:`Route.NOWHERE`: its client is told to try again, 1013).
"""

from __future__ import annotations

import enum
import itertools

from boardroom.server.cluster.envelopes import Frame, Hangup
from boardroom.server.cluster.process import Process
from boardroom.server.cluster.relay import RemoteOutbox
from boardroom.server.connection import Connection
from boardroom.server.hub import Peer
from boardroom.shared.protocol.close_codes import CLOSE_SERVICE_RESTART, CLOSE_TRY_AGAIN_LATER
from boardroom.shared.protocol.codec import decode_client_message
from boardroom.shared.protocol.errors import ProtocolError


class ClusterError(Exception):
    """This process cannot join the cluster as asked (the message says why)."""


class Route(enum.Enum):
    """Where a new connection's messages go (:meth:`ClassHome.route`)."""

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


class ClassHome:
    """The cluster's class as this process sees it (see the module docstring)."""

    def __init__(self, process: Process, class_name: str) -> None:
        self._process = process
        self.class_name = class_name
        """The class this process is the home of ("": none)."""
        self._class: tuple[str | None, str | None, str | None] = (None, None, None)
        """What the directory last said of the cluster's class: (class, home, HTTP)."""
        self.carried: dict[str, Connection] = {}
        """Gateway: the connections carried whole to the class's home, by id."""
        self._carried_ids = itertools.count(1)
        self._carried_peers: dict[tuple[str, str], Peer] = {}
        """Home: the peers of connections carried here whole, by (gateway, connection)."""
        self._home_url = ""
        """The HTTP address this process serves a class's requests at, once advertised."""

    async def claim(self) -> None:
        """Be the class's home; raises :class:`ClusterError` if it cannot be."""
        directory, node = self._process.directory, self._process.node
        refused = await directory.claim_home(node, self.class_name)
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

    async def claim_again(self) -> None:
        """Put back this process's claim to be the home (and its HTTP address)
        in a directory that lost them."""
        if self.class_name:
            await self.claim()
            if self._home_url:
                await self._process.directory.advertise_home(self._home_url)

    async def read(self) -> None:
        """Take the directory's word on the class, as it is now."""
        self._class = await self._process.directory.class_home()

    async def advertise(self, url: str) -> None:
        """The class's home serves HTTP at ``url``: the others send it their HTTP requests."""
        if self.class_name:
            self._home_url = url
            await self._process.directory.advertise_home(url)
            await self.read()

    @property
    def running(self) -> str | None:
        """The class the cluster runs, as the directory said at the last beat (None: none)."""
        return self._class[0]

    def route(self) -> Route:
        """Where a new connection's messages go, as the directory said at the last beat."""
        running, home, _ = self._class
        if running is None or home == self._process.node:
            return Route.HERE
        return Route.NOWHERE if home is None else Route.HOME

    @property
    def home_http(self) -> str | None:
        """The class's home's HTTP address, when another process is the home."""
        _, home, http = self._class
        return http if home is not None and home != self._process.node else None

    def follow(self, now: tuple[str | None, str | None, str | None]) -> None:
        """The directory's word on the class, at this beat: connections carried
        to a home that is no longer it are closed (their clients reconnect)."""
        before, self._class = self._class[1], now
        if before is not None and before != now[1] and self.carried:
            for connection in list(self.carried.values()):
                connection.close(CLOSE_HOME_GONE, "the class's server restarted: reconnect")
            self.carried.clear()

    # -- a gateway's side ---------------------------------------------------------------

    def carry(self, connection: Connection) -> str:
        """Carry ``connection`` whole to the class's home; its id for :meth:`carry_frame`."""
        carried = f"c{next(self._carried_ids)}"
        self.carried[carried] = connection
        return carried

    def carry_frame(self, carried: str, text: str) -> None:
        """Send one frame of a carried connection to the home."""
        connection = self.carried.get(carried)
        _, home, _ = self._class
        if connection is None:
            return
        if home is None or home == self._process.node:
            connection.close(CLOSE_HOME_GONE, "the class's server restarted: reconnect")
            return
        node = self._process.node
        self._process.publisher.send(home, Frame(node, carried, connection.address, text))

    def hang_up(self, carried: str) -> None:
        """A carried connection closed."""
        if self.carried.pop(carried, None) is None:
            return
        _, home, _ = self._class
        if home is not None and home != self._process.node:
            self._process.publisher.send(home, Hangup(self._process.node, carried))

    # -- the home's side ----------------------------------------------------------------

    async def carried_frame(self, frame: Frame) -> None:
        """Act on one frame of a connection carried here, as on a connection's own."""
        process = self._process
        key = (frame.sender, frame.connection)
        peer = self._carried_peers.get(key)
        if peer is None:
            outbox = RemoteOutbox(
                process.publisher, process.node, frame.sender, frame.connection, frame.address
            )
            peer = self._carried_peers[key] = Peer(outbox)
        try:
            message = decode_client_message(frame.text)
        except ProtocolError as refusal:
            process.hub.refuse(peer, refusal.code, refusal.message, refusal.request_id)
            return
        await process.hub.handle(peer, message)

    async def carried_hangup(self, gateway: str, connection: str) -> None:
        """A connection carried here closed."""
        peer = self._carried_peers.pop((gateway, connection), None)
        if peer is not None:
            await self._process.hub.disconnected(peer)

    async def gateway_gone(self, gateway: str) -> None:
        """The process ``gateway`` died: the connections it carried here are closed."""
        for via, connection in [key for key in self._carried_peers if key[0] == gateway]:
            await self.carried_hangup(via, connection)
