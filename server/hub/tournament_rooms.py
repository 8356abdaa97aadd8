"""Tournament rooms as the hub opens and closes them (for :mod:`boardroom.server.tournaments`).

:class:`TournamentRooms` opens a private room whose sides are reserved for two
players (or the server AI), seats the AI, closes a room whose game did not
start, keeps a tournament's sessions between rounds and sends a session a
message. The tournament director (:mod:`boardroom.server.classroom.tournament_director`)
decides when; the hub knows nothing of pairings or standings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardroom.server.core.players import PlayerId
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import RoomOptions
from boardroom.server.core.room_output import ClientId, Output
from boardroom.server.hub.rooms import Rooms
from boardroom.server.room_host import RoomUnavailableError
from boardroom.shared.games import Game, Player
from boardroom.shared.protocol.messages import Clock, Level, ServerMessage
from boardroom.shared.protocol.room_closing import Closing


class TournamentRooms:
    """A tournament's rooms and sessions on the hub (see the module docstring)."""

    def __init__(self, rooms: Rooms) -> None:
        self._rooms = rooms
        self._sessions = rooms.sessions
        self._lobby = rooms.lobby

    def open_tournament_room(
        self,
        game: Game,
        *,
        clock: Clock,
        first: PlayerId | None,
        second: PlayerId | None,
        hints: bool = False,
        spectator_delay: int | None = None,
        autopilot: Level | None = None,
        spectator_delay_seconds: float | None = None,
    ) -> str:
        """Open a private tournament room (:class:`~boardroom.server.core.room.RoomOptions`
        ``tournament``) whose sides are reserved for these players (any session
        of each); None is a side for the server AI (:meth:`seat_ai`). Its
        spectators see the game ``spectator_delay`` plies late, or
        ``spectator_delay_seconds`` seconds late if above 0 (both None: the
        server's ``--spectator-delay`` or ``--spectator-delay-seconds``), the
        teacher live. A seat whose grace
        window runs out is played by the engine at ``autopilot`` (the
        tournament's choice), or lost by abandonment if None. It opens
        paused during a pause. Returns its room code. Raises ``ValueError`` for
        options that do not fit together."""
        codes = self._lobby.new_codes(private=True)
        options = RoomOptions(
            public=False,
            clock=clock,
            grace_seconds=self._rooms.config.grace_seconds,
            join_code=codes.join,
            watch_code=codes.watch,
            tournament=True,
            reserved_first=first,
            reserved_second=second,
            hints=hints,  # the tournament's own switch, off unless it asked for hints
            autopilot=autopilot,  # the tournament's own, not --autopilot
            **self._spectator_delay(spectator_delay, spectator_delay_seconds),
        )
        return self._rooms.add_room(game, codes, options).code

    def _spectator_delay(self, plies: int | None, seconds: float | None) -> dict[str, Any]:
        """The room options of a tournament's delay: its seconds if above 0, else
        its plies; the server's (seconds if above 0, else plies) if it gave neither."""
        if seconds:
            return {"spectator_delay": 0, "spectator_delay_seconds": seconds}
        if plies is not None or seconds is not None:
            return {"spectator_delay": plies or 0, "spectator_delay_seconds": 0.0}
        config = self._rooms.config
        if config.spectator_delay_seconds:
            return {"spectator_delay": 0, "spectator_delay_seconds": config.spectator_delay_seconds}
        return {"spectator_delay": config.spectator_delay, "spectator_delay_seconds": 0.0}

    async def seat_ai(self, code: str, level: Level) -> None:
        """Seat the server AI at ``level`` in the room's free side that nobody
        reserved. Raises ``ValueError`` if there is none, ``LookupError`` for no
        such room, :class:`RoomUnavailableError` if the room failed."""
        host = self._lobby.get(code)
        if host is None:
            raise LookupError(f"no room {code!r}")
        # If its game cannot be stored for now, the AI sits down once it can.
        await host.run_or_retry(lambda now: host.room.add_ai(level, now=now))

    async def close_room_unless_started(
        self, code: str, reason: str | Closing | Callable[[dict[str, bool]], str | Closing]
    ) -> dict[str, bool] | None:
        """Close the room (as ``close_room``) if its first game has not
        started. Returns, by side, whether someone sat there (held seats
        included) when it closed, nobody in a room whose storage failed; None if
        the game had started or there is no such room. The check and the close
        are one room input: nobody sits down between them. ``reason`` may be
        made from who sat (the same dict), to tell the members what it meant."""
        host = self._lobby.get(code)
        if host is None:
            return None
        room = host.room
        seated: dict[str, bool] | None = None

        def step(now: float) -> Output:
            nonlocal seated
            if room.status != "waiting":
                return room.tick(now)
            seated = {side: room.is_taken(side) for side in (Player.FIRST, Player.SECOND)}
            said = reason if isinstance(reason, str | Closing) else reason(seated)
            return room.close(said, now=now)

        try:
            await host.run(step)
        except RoomUnavailableError:
            seated = {
                Player.FIRST: False,
                Player.SECOND: False,
            }  # its storage failed: nobody plays there
        if seated is not None:
            self._rooms.let_go(host)
        return seated

    def game_id(self, code: str, game_number: int) -> int | None:
        """The store's id of game ``game_number`` of room ``code`` while it is in play."""
        return self._rooms.recorder.game_id(code, game_number)

    def send(self, session_id: ClientId, message: ServerMessage) -> bool:
        """Send ``message`` to the session if it is connected; whether it was."""
        session = self._sessions.get(session_id)
        if session is None or session.outbox is None:
            return False
        session.outbox.send(message)
        return True

    def keep_session(
        self, session_id: ClientId, name: str, kind: PlayerKind, player: str | None = None
    ) -> None:
        """Keep the session (registering it, idle, if it is not live: after a
        restart, as ``player``'s if known) until :meth:`release_session`, however
        long it stays away: a tournament's players keep their identity between rounds."""
        known = None if player is None else PlayerId(player)
        self._sessions.adopt(session_id, name, kind, player=known)
        self._rooms.kept.add(session_id)

    def release_session(self, session_id: ClientId) -> None:
        """Let the sweeper forget the session again once it is idle."""
        self._rooms.kept.discard(session_id)
