"""Who a tournament's entrants are: the students of the roster, or the server AI.

Contract: an entrant is written ``student:NAME`` or ``ai:LEVEL``
(:func:`~boardroom.server.tournaments.spec.parse_entrant`). :class:`Entrants`
answers, for the director (:mod:`boardroom.server.classroom.tournament_director`),
the student an entrant is now (a merged entry: the one it was merged into),
their player, the name to show, and keeps or lets go of their sessions on the
hub. It reads the roster and changes nothing in the store.
"""

from __future__ import annotations

from boardroom.server.classroom.roster import Roster
from boardroom.server.classroom.tournament_errors import UnknownEntrantError
from boardroom.server.core.players import PlayerId
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room_output import ClientId
from boardroom.server.hub import GameServer
from boardroom.server.store import EntrantRecord, StudentRecord
from boardroom.server.tournaments.progress import TournamentProgress
from boardroom.server.tournaments.spec import parse_entrant

__all__ = ["Entrants"]


class Entrants:
    """The entrants of ``roster``'s class's tournaments (see the module docstring)."""

    def __init__(self, roster: Roster, hub: GameServer) -> None:
        self._roster = roster
        self._hub = hub

    def record(self, entrant: str) -> EntrantRecord:
        """The entrant as a new tournament stores it; :class:`UnknownEntrantError`
        for a student who is not on the roster."""
        kind, value = parse_entrant(entrant)
        if kind == "ai":
            return EntrantRecord(entrant, f"AI ({value})", PlayerKind.AI)
        student = self._roster.get(value)
        if student is None:
            raise UnknownEntrantError(
                f"entrants: no student {value!r} on the roster of {self._roster.class_name} "
                "(GET /api/admin/roster lists them)"
            )
        return EntrantRecord(entrant, student.name, student.kind)

    def student(self, entrant: str) -> StudentRecord | None:
        """The student an entrant is now (an entry merged since: the one it was
        merged into), removed or not; None for the AI."""
        kind, value = parse_entrant(entrant)
        return None if kind == "ai" else self._roster.resolve(value)

    def player(self, entrant: str) -> PlayerId | None:
        """The entrant's player; None for the AI."""
        student = self.student(entrant)
        return None if student is None else student.player

    def name(self, entrant: str) -> str:
        """The entrant's name as people read it."""
        student = self.student(entrant)
        if student is not None:
            return student.name
        kind, value = parse_entrant(entrant)
        return f"AI ({value})" if kind == "ai" else entrant

    def keep_sessions(self, progress: TournamentProgress) -> None:
        """Have the hub keep the session that made each student still in the tournament."""
        for entrant in progress.active():
            student = self.student(entrant)
            if student is not None and student.session is not None and not student.removed:
                self._hub.keep_session(
                    ClientId(student.session), student.name, student.kind, student.player
                )

    def release_session(self, entrant: str) -> None:
        """Let the hub forget the entrant's kept session (the tournament is done with it)."""
        student = self.student(entrant)
        if student is not None and student.session is not None:
            self._hub.release_session(ClientId(student.session))
