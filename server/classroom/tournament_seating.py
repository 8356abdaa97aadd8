"""The running tournament's rooms as the hub has them, and the calls to their seats.

Contract: :class:`Seating` reads the hub's room snapshots
(:class:`~boardroom.server.hub.boundary.RoomInfo`), never the live rooms, to say
which of the current games still wait for their players and who has sat down
in each, and sends a student the ``match`` that calls them to their seat (their
pages count down to its ``starts_by``). It writes nothing to the store: the
director (:mod:`boardroom.server.classroom.tournament_director`) stores a
pairing's change first, then calls these.
"""

from __future__ import annotations

from boardroom.server.classroom.tournament_entrants import Entrants
from boardroom.server.core.room_output import ClientId
from boardroom.server.hub import GameServer
from boardroom.server.store import PairingRecord
from boardroom.server.tournaments.progress import TournamentProgress
from boardroom.server.tournaments.view import Seated
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import Match

__all__ = ["Seating"]


class Seating:
    """The seats of one class's running tournament (see the module docstring)."""

    def __init__(self, hub: GameServer, entrants: Entrants) -> None:
        self._hub = hub
        self._entrants = entrants

    def waiting(self, progress: TournamentProgress) -> list[PairingRecord]:
        """The current games whose room waits for its players."""
        waiting = []
        for pairing in progress.undecided():
            room = self._hub.room_info(pairing.room) if pairing.room is not None else None
            if pairing.starts_by is not None and (room is None or room.status == "waiting"):
                waiting.append(pairing)
        return waiting

    def seated(self, running: TournamentProgress | None) -> dict[str, Seated]:
        """Who has sat down so far in each room of the running tournament whose
        game has not started, by room code."""
        seated: dict[str, Seated] = {}
        for pairing in running.undecided() if running is not None else []:
            room = self._hub.room_info(pairing.room) if pairing.room is not None else None
            if room is not None and room.status == "waiting":
                seated[room.code] = Seated(
                    first=Player.FIRST in room.taken, second=Player.SECOND in room.taken
                )
        return seated

    def send_match(
        self,
        progress: TournamentProgress,
        pairing: PairingRecord,
        side: Player,
        *,
        only: ClientId | None = None,
    ) -> None:
        """Send ``match`` for ``side`` of the pairing to each session of its
        student (``only`` that one); nothing for the AI, or a room not open."""
        entrant, opponent = (
            (pairing.first, pairing.second)
            if side == Player.FIRST
            else (pairing.second, pairing.first)
        )
        player = self._entrants.player(entrant)
        room = self._hub.room_info(pairing.room) if pairing.room is not None else None
        if player is None or room is None or pairing.starts_by is None:
            return
        code = room.join_code
        assert code is not None  # tournament rooms are private
        match = Match(
            tournament=progress.id,
            tournament_name=progress.record.name,
            round=pairing.round,
            board=pairing.board,
            room=room.code,
            code=code,
            game=progress.record.game,
            side=side,
            opponent=self._entrants.name(opponent),
            starts_by=pairing.starts_by,
        )
        for session in [only] if only is not None else self._hub.player_sessions(player):
            self._hub.send(session, match)
