"""This process's heartbeat: :class:`Heartbeat`, liveness, re-registration, takeovers.

Contract: every :data:`~boardroom.server.cluster.directory.HEARTBEAT_S` the
heartbeat, until cancelled, and whatever Redis does meanwhile (a failed beat is
logged and the next one tries again):

- renews this process's liveness in the directory, and reads the class's home
  (:meth:`~boardroom.server.cluster.class_home.ClassHome.follow`) and which
  processes are alive (:attr:`~boardroom.server.cluster.owners.RoomOwners.live`);
- finding its keys gone (Redis restarted empty, or failed over), registers
  again everything this process owns and has every process resync its rooms'
  sessions (:meth:`Heartbeat.register_again`);
- takes over the rooms of each dead process whose takeover it wins in Redis
  (:meth:`Heartbeat.take_over`), except in a class's cluster, whose rooms all
  live in its home;
- forgets what the gateway and the owner's side kept for sessions that no
  longer live here.
"""

from __future__ import annotations

import asyncio
import logging

from redis.exceptions import RedisError

from boardroom.server.cluster.class_home import ClassHome, ClusterError, Route
from boardroom.server.cluster.directory import HEARTBEAT_S
from boardroom.server.cluster.envelopes import RoomsMoved
from boardroom.server.cluster.gateway import Gateway
from boardroom.server.cluster.owners import RoomOwners
from boardroom.server.cluster.process import Process, stop_if_cancelled
from boardroom.server.cluster.remote_clients import RemoteClients

logger = logging.getLogger(__name__)


class Heartbeat:
    """This process's beats and what they find (see the module docstring)."""

    def __init__(
        self,
        process: Process,
        *,
        owners: RoomOwners,
        home: ClassHome,
        gateway: Gateway,
        remote: RemoteClients,
    ) -> None:
        self._process = process
        self._owners = owners
        self._home = home
        self._gateway = gateway
        self._remote = remote

    async def beat_forever(self) -> None:
        """Beat, then wait a beat, until cancelled."""
        process, directory = self._process, self._process.directory
        while True:
            self._gateway.prune()
            self._remote.prune()
            try:
                registered = await directory.beat(process.node)
                if not registered:
                    await self.register_again()
                if self._home.class_name:
                    await self._home.claim()
                self._home.follow(await directory.class_home())
                live, dead = await directory.nodes()
                # Right after Redis came back empty the others may not have beaten
                # yet: they are still taken as alive until the next beat.
                owners = self._owners
                owners.live = set(live) if registered else owners.live | set(live)
                for node in dead:
                    # A class's rooms all live in its home: no other process takes them.
                    if self._home.route() is not Route.HERE:
                        break
                    if await directory.start_takeover(node, process.node):
                        await self.take_over(node)
            except RedisError:
                stop_if_cancelled()
                logger.exception("the cluster's heartbeat failed; retrying")
            except ClusterError:
                # Another process took the class's home while this one missed its
                # beats: the two would both run the class. Say it loudly.
                logger.exception("this process is no longer its class's home")
            await asyncio.sleep(HEARTBEAT_S)

    async def register_again(self) -> None:
        """Redis lost this process's keys (it restarted empty, or failed over to
        a replica that had not got them): put back what this process owns (its
        rooms' codes, owners and lobby lines, its sessions, its class's home),
        then have every process send this one's rooms their sessions again
        (Attach: each gets its rooms' whole ``state``), which mends whatever
        room traffic was lost while the subscriptions were down."""
        logger.warning("the cluster's Redis lost this process's keys: registering them again")
        process = self._process
        await self._home.claim_again()
        hub = process.hub
        await hub.tell_elsewhere_again()
        for record in hub.session_records():
            process.publisher.do(process.directory.save_session(record))
        await process.publisher.flush()
        await process.directory.mark_registered(process.node)
        process.broadcast(RoomsMoved(process.node, "", [info.code for info in hub.rooms()]))

    async def take_over(self, dead: str) -> None:
        """Restore the dead process's rooms that have a game in play from the
        store, drop the others from the directory, and tell every process."""
        process, directory = self._process, self._process.directory
        rooms = set(await directory.owned(dead))

        async def theirs(code: str) -> bool:
            return code in rooms and await directory.claim_room(code, process.node)

        restored = await process.hub.restore_rooms(theirs)
        taken = sorted(code for code in rooms if process.hub.has_room(code))
        for code in sorted(rooms - set(taken)):
            if await directory.owner(code) == dead:
                process.publisher.do(directory.drop_room(code))
        await directory.end_takeover(dead)
        logger.info(
            "took over a dead process's rooms",
            extra={"node": dead, "restored_rooms": restored, "dropped": len(rooms) - len(taken)},
        )
        process.broadcast(RoomsMoved(process.node, dead, taken))
