"""The teacher's controls as the hub carries them out (class mode).

:class:`ClassControls` pauses and resumes every room, switches hints, closes a
room, announces to everyone, renames, removes, revokes or merges a player's
sessions, and answers who is where. It knows nothing of classes or rosters:
:mod:`boardroom.server.classroom` decides who may do what and calls it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Literal

from boardroom.server.core.players import PlayerId
from boardroom.server.core.room import Room
from boardroom.server.core.room_output import ClientId
from boardroom.server.hub.boundary import PauseChanged, PlayerRemoved
from boardroom.server.hub.rooms import Rooms, hints_step
from boardroom.server.room_host import (
    RoomHost,
    RoomStorageUnavailableError,
    RoomUnavailableError,
    Step,
)
from boardroom.server.store.errors import StorageUnavailableError
from boardroom.shared.protocol.close_codes import CLOSE_REASONS, CLOSE_REMOVED, CLOSE_TOKEN_REVOKED
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.messages import Announcement
from boardroom.shared.protocol.room_closing import Closing
from boardroom.shared.protocol.tournament_ending import TournamentEnding

logger = logging.getLogger(
    "boardroom.server.hub"
)  # the hub's one logger (see boardroom.server.hub.rooms)


class ClassControls:
    """The teacher's controls over the hub's rooms and sessions (see the module docstring)."""

    def __init__(self, rooms: Rooms) -> None:
        self._rooms = rooms
        self._sessions = rooms.sessions
        self._lobby = rooms.lobby

    # -- every room at once -----------------------------------------------------------

    async def pause_all(self) -> int:
        """Pause every room (:meth:`Room.pause <boardroom.server.core.room.Room.pause>`), and
        open new rooms paused until :meth:`resume_all`. Returns how many rooms
        were paused (a room whose storage failed is skipped)."""
        self._rooms.paused = True
        self._rooms.events.publish(PauseChanged(paused=True, at=time.time()))
        return await self._in_every_room(lambda host: host.room.pause)

    async def resume_all(self) -> int:
        """Resume every room (and open new ones running); returns how many."""
        self._rooms.paused = False
        self._rooms.events.publish(PauseChanged(paused=False, at=time.time()))
        return await self._in_every_room(lambda host: host.room.resume)

    async def set_hints(self, allowed: bool) -> int:
        """Allow hints or not in every room, and in the rooms opened from now on
        (the teacher's switch); returns how many rooms were told."""
        self._rooms.hints = allowed
        return await self._in_every_room(
            lambda host: hints_step(host.room, self._rooms.hints_for(host.room))
        )

    async def _in_every_room(self, step_for: Callable[[RoomHost], Step]) -> int:
        # All at once: each room has its own lock, and what the resumes store
        # (AI moves kept in the pause) shares the store's group commits.
        hosts = list(self._lobby)
        # A room whose store refuses for now follows once it can (run_or_retry).
        outcomes = await asyncio.gather(
            *(host.run_or_retry(step_for(host)) for host in hosts), return_exceptions=True
        )
        done = 0
        for host, outcome in zip(hosts, outcomes, strict=True):
            if not isinstance(outcome, BaseException):
                done += 1
            elif not isinstance(outcome, RoomUnavailableError):
                logger.error(
                    "a room failed to pause or resume", exc_info=outcome, extra={"room": host.code}
                )
        return done

    def announce(
        self,
        text: str,
        *,
        source: Literal["teacher", "server"] = "teacher",
        tournament: int | None = None,
        ending: TournamentEnding | None = None,
    ) -> int:
        """Send ``announcement`` with ``text`` to every session connected now, as
        from ``source`` (about ``tournament``, if given; how it ended as codes, if
        ``ending``); returns how many got it."""
        if ending is None:
            message = Announcement(text=text, source=source, tournament=tournament)
        else:
            message = Announcement(
                text=text,
                source=source,
                tournament=tournament,
                kind=ending.kind.value,
                tournament_name=ending.name,
                winners=list(ending.winners),
                points=ending.points,
                round=ending.round,
                players=list(ending.players),
            )
        encoded = encode_message(message)
        reached = 0
        for session in self._sessions:
            if session.outbox is not None:
                session.outbox.send(message, encoded)
                reached += 1
        return reached

    # -- one room ---------------------------------------------------------------------

    async def close_room(self, code: str, reason: str | Closing) -> bool:
        """Close the room with this room code (:meth:`Room.close
        <boardroom.server.core.room.Room.close>`) and drop it; False if there is none. A room
        whose storage failed is dropped as it is."""
        host = self._lobby.get(code)
        if host is None:
            return False
        try:
            await host.run(lambda now: host.room.close(reason, now=now))
        except RoomUnavailableError:
            pass
        except RoomStorageUnavailableError as outage:
            # Its end cannot be stored for now: the room stays; the admin API
            # answers 503 storage_unavailable (ask again).
            retry_after = outage.retry_after or 2.0
            raise StorageUnavailableError(
                f"room {code} is not closed: {outage.message}", retry_after=retry_after
            ) from None
        self._rooms.let_go(host)
        return True

    # -- players and their sessions ---------------------------------------------------

    async def rename_session(self, session_id: ClientId, name: str) -> None:
        """The session is called ``name`` (a checked name) from now on: in new
        rooms, and in its rooms now (:meth:`Room.rename <boardroom.server.core.room.Room.rename>`).
        A session that is not live changes nothing here."""
        self._sessions.rename(session_id, name)
        for host in self._rooms.rooms_with(session_id):
            with contextlib.suppress(RoomUnavailableError):
                await host.run_or_retry(_renaming(host.room, session_id, name))

    async def remove_player(self, player: PlayerId) -> int:
        """End every live session of ``player`` at once (the teacher removed it
        from the class): its resume tokens open nothing from now on, each leaves
        every room (:meth:`Room.remove <boardroom.server.core.room.Room.remove>`: a game in
        progress is resigned), and each connection is closed with
        :data:`~boardroom.shared.protocol.close_codes.CLOSE_REMOVED`. Its player token
        still opens it: a later hello is a new session. Returns how many
        sessions ended; publishes :class:`PlayerRemoved` once, even for none."""
        ended = await self.end_sessions(player, CLOSE_REMOVED, "removed by the teacher")
        self._rooms.events.publish(PlayerRemoved(player, revoked=False))
        return ended

    async def end_player(self, player: PlayerId) -> int:
        """End every live session of ``player`` (its token was just revoked), as
        :meth:`remove_player` does, but closing each connection with
        :data:`~boardroom.shared.protocol.close_codes.CLOSE_TOKEN_REVOKED`; a hello of it
        still under way is refused too. Returns how many sessions ended."""
        self._rooms.revoked.add(player)  # for a hello of it still under way (dispatch)
        ended = await self.end_sessions(
            player, CLOSE_TOKEN_REVOKED, CLOSE_REASONS[CLOSE_TOKEN_REVOKED]
        )
        self._rooms.events.publish(PlayerRemoved(player, revoked=True))
        return ended

    async def end_sessions(self, player: PlayerId, code: int, reason: str) -> int:
        """End every live session of ``player`` as :meth:`remove_player` does,
        closing each connection with ``code`` and ``reason``, and tell nobody:
        the player stays what it was (its key was replaced, say). Returns how
        many sessions ended."""
        ended = self.player_sessions(player)
        for session_id in ended:
            await self._rooms.end_session(session_id, code, reason)
        return len(ended)

    async def merge_player(self, player: PlayerId, into: PlayerId, name: str) -> None:
        """The teacher merged ``player`` into ``into`` (its token now opens
        ``into``): each live session of ``player`` is ``into``'s from now on, and
        is called ``name`` (a checked name), in its rooms too. Games in progress
        are recorded under the player they started with."""
        for session_id in self.player_sessions(player):
            self._sessions.set_player(session_id, into)
            await self.rename_session(session_id, name)

    # -- who is where -----------------------------------------------------------------

    def player_sessions(self, player: PlayerId) -> list[ClientId]:
        """The live sessions of ``player`` (connected or away), oldest first."""
        return self._sessions.of_player(player)

    def session_player(self, session_id: ClientId) -> PlayerId | None:
        """The player the live session is; None if it is not live or has none."""
        session = self._sessions.get(session_id)
        return None if session is None else session.player

    def seated_rooms(self, session_id: ClientId) -> list[str]:
        """Codes of the rooms where the session holds a seat (connected or held)."""
        return [host.code for host in self._lobby if host.room.side_of(session_id) is not None]

    def is_connected(self, session_id: ClientId) -> bool:
        """True while the session is live and has a connection."""
        session = self._sessions.get(session_id)
        return session is not None and session.outbox is not None


def _renaming(room: Room, client: ClientId, name: str) -> Step:
    return lambda now: room.rename(client, name, now=now)
