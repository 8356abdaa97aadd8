"""Which live process owns a room: :class:`RoomOwners`, a gateway's look-ups.

Contract: :meth:`RoomOwners.owner_for` names the room a client's message is for
and the live process *other than this one* that owns it (None for what is not
known, or a room of this process). Owners read from the directory are kept (a
room changes owner only when its owner dies, and the new owner tells every
process, :meth:`RoomOwners.moved`); liveness is as of the last beat
(:attr:`RoomOwners.live`, which the heartbeat sets). A look-up never answers
"no such room" for a room that only seems gone for a moment:

- its owner died a moment ago: the look-up waits for the takeover
  (:data:`~boardroom.server.cluster.process.HELLO_HOLD_S` at most);
- Redis came back empty and the directory is being rebuilt: the look-up waits
  for every process known alive to register again (:data:`REBUILD_WAIT_S` at
  most, :meth:`RoomOwners.rebuilt`) and looks again.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from boardroom.server.cluster.directory import HEARTBEAT_S, Directory
from boardroom.server.cluster.process import HELLO_HOLD_S, TAKEOVER_POLL_S
from boardroom.server.core.lobby import normalise_code
from boardroom.server.core.sessions import Session
from boardroom.server.hub import resolve_game
from boardroom.shared.protocol.messages import ClientMessage, Join, QuickMatch, Watch

OWNERS_KEPT = 100_000
"""Room owners a gateway keeps in memory before it starts over (a few MB at most)."""
REBUILD_WAIT_S = 2 * HEARTBEAT_S + 1.0
"""How long a look-up that missed waits for a directory being rebuilt (every
process registers again at its first beat after Redis came back empty)."""


class RoomOwners:
    """The owners of rooms, as this process knows them (see the module docstring)."""

    def __init__(self, node: str, directory: Directory) -> None:
        self.node = node
        self.directory = directory
        self._owners: dict[str, str] = {}
        """The owner of each room a message was sent on to (see live_owner)."""
        self.live: set[str] = set()
        """The processes alive at the last beat."""

    def moved(self, rooms: list[str], owner: str) -> None:
        """``owner`` said it owns ``rooms`` (it took them over, or registered again)."""
        self._owners.update(dict.fromkeys(rooms, owner))
        self.live.add(owner)

    def remember(self, room: str, owner: str) -> None:
        """``owner`` owns ``room``, as the directory said just now."""
        self._owners[room] = owner

    async def owner_for(
        self, session: Session, message: ClientMessage
    ) -> tuple[str | None, str | None]:
        """(the room that takes ``message``, the live process other than this
        one that owns it); None for what is not known."""
        if isinstance(message, QuickMatch):
            game = resolve_game(message.game, message.m, message.n, message.k).name
            for waiting in await self.directory.quick_rooms(game):
                if waiting not in session.rooms and (owner := await self.live_owner(waiting)):
                    return waiting, owner
            return None, None
        room: str | None
        if isinstance(message, Watch | Join):
            access: Literal["watch", "seat"] = "watch" if isinstance(message, Watch) else "seat"
            room = await self.directory.locate(message.code, access)
            if room is None and await self.rebuilt():
                room = await self.directory.locate(message.code, access)
        else:
            room = normalise_code(getattr(message, "room", ""))
        owner = None if room is None else await self.live_owner(room)
        if (
            owner is None
            and room is not None
            and not isinstance(message, Watch | Join)
            and await self.directory.owner(room) is None
            and await self.rebuilt()
        ):
            # Unknown in a directory that was being rebuilt: looked up again.
            owner = await self.live_owner(room)
        return room, owner

    async def live_owner(self, room: str) -> str | None:
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
        if owner not in self.live:
            # Started since the last beat, or dead: ask (a miss, so rare).
            if not await self.directory.alive(owner):
                return await self._owner_after_takeover(room, owner)
            self.live.add(owner)
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
            if owner is None and await self.rebuilt():
                continue  # Redis came back empty: the owner registers again
            if owner == dead and await self.directory.alive(dead):
                self.live.add(dead)  # alive after all: its keys were lost with Redis
                return dead
            if owner != dead:
                self._owners.pop(room, None)
                if owner is None or owner == self.node:
                    return None
                self._owners[room] = owner
                self.live.add(owner)
                return owner
        return None

    async def rebuilt(self) -> bool:
        """After a miss in the directory: if it is being rebuilt (Redis restarted
        empty, and a process known alive has not registered again yet), wait
        until it is, :data:`REBUILD_WAIT_S` at most, and say True (look again);
        False when nothing was missing."""
        nodes = sorted(self.live | {self.node})
        if await self.directory.all_registered(nodes):
            return False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REBUILD_WAIT_S
        while loop.time() < deadline:
            await asyncio.sleep(TAKEOVER_POLL_S)
            if await self.directory.all_registered(nodes):
                break
        return True
