"""What a class's tournaments (:mod:`boardroom.server.tournaments`) keep: four tables beside
the games. The tournaments, their entrants (in seed order), their rounds (with
the bye) and every pairing with its room, game and result
(:class:`TournamentRecord`); a result, once stored, never changes.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from boardroom.server.store.base import Handle, StoreBase
from boardroom.server.store.checks import (
    NewTournament,
    check_time,
    new_tournament,
    pairing_changes,
    pairing_rows,
)
from boardroom.server.store.errors import TournamentNotFoundError
from boardroom.server.store.rows import (
    TOURNAMENT_COLUMNS,
    EntrantRecord,
    PairingRecord,
    Row,
    TournamentRecord,
    tournament_records,
)

__all__ = [
    "EntrantRecord",
    "PairingRecord",
    "RoundRows",
    "TournamentRecord",
    "TournamentRows",
    "TournamentStorage",
    "tournament_queries",
]

TournamentRows = tuple[list[Row], list[Row], list[Row], list[Row]]
"""A class's tournaments, entrants, rounds and pairings, as
:func:`~boardroom.server.store.rows.tournament_records` takes them."""

RoundRows = tuple[tuple[int, int, str | None, float], list[tuple[object, ...]]]
"""A round's row (``tournament_id, round, bye, opened_at``) and its pairings'
(``tournament_id, round, board, first, second, room, game_id, starts_by, result``)."""


def tournament_queries(parameter: str) -> tuple[str, str, str, str]:
    """The queries of :data:`TournamentRows`, with ``parameter`` (the backend's
    spelling of the first parameter: ``?``, ``$1``) for the class's name."""
    return (
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE class = {parameter}"  # noqa: S608
        " ORDER BY id DESC",
        "SELECT e.tournament_id, e.entrant, e.name, e.kind, e.withdrawn"  # noqa: S608
        " FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
        f" WHERE t.class = {parameter} ORDER BY e.tournament_id, e.seed",
        "SELECT r.tournament_id, r.round, r.bye FROM tournament_rounds r"  # noqa: S608
        f" JOIN tournaments t ON t.id = r.tournament_id WHERE t.class = {parameter}"
        " ORDER BY r.round",
        "SELECT g.tournament_id, g.round, g.board, g.first, g.second, g.room, g.game_id,"  # noqa: S608
        " g.starts_by, g.result FROM tournament_games g"
        f" JOIN tournaments t ON t.id = g.tournament_id WHERE t.class = {parameter}"
        " ORDER BY g.round, g.board",
    )


class TournamentStorage(StoreBase[Handle]):
    """A class's tournaments: created with their entrants, paired round by round,
    each pairing updated until its result, ended; read back whole."""

    async def create_tournament(
        self,
        *,
        class_name: str,
        name: str,
        game: str,
        format: str,
        rounds: int,
        double: bool,
        clock: Mapping[str, Any],
        no_show_seconds: float,
        entrants: Sequence[EntrantRecord],
        at: float,
        hints: bool = False,
        autopilot: str = "off",
    ) -> TournamentRecord:
        """Store a new running tournament and its entrants (in seed order); the
        record stored (no round yet). Raises :class:`InvalidRecordError` for values
        the schema refuses, another tournament of the class running included.
        ``autopilot``: an engine level, or ``off`` (checked by the caller)."""
        new = new_tournament(
            class_name,
            name,
            game,
            format,
            rounds,
            double,
            clock,
            no_show_seconds,
            entrants,
            at,
            hints,
            autopilot,
        )
        tournament_id = await self._insert_tournament(
            new, refused=f"tournament {name!r} does not store", what=f"creating tournament {name!r}"
        )
        return new.stored(tournament_id)

    async def open_round(
        self,
        tournament_id: int,
        number: int,
        bye: str | None,
        pairings: Sequence[PairingRecord],
        at: float,
    ) -> None:
        """Store round ``number`` of the tournament: its bye and its pairings (some
        may carry a result already: games decided without being played)."""
        opened_at = check_time("at", at)
        boards = pairing_rows(pairings)
        rows = (
            (tournament_id, number, bye, opened_at),
            [(tournament_id, number, *board) for board in boards],
        )
        await self._insert_round(
            rows,
            refused=f"round {number} of tournament {tournament_id} does not store",
            what=f"pairing round {number}",
        )

    async def update_pairing(
        self,
        tournament_id: int,
        number: int,
        board: int,
        *,
        room: str | None = None,
        starts_by: float | None = None,
        game_id: int | None = None,
        result: str | None = None,
    ) -> None:
        """Set what is given of one pairing. A pairing with a result is final:
        :class:`InvalidRecordError` (as for values the schema refuses)."""
        changes = pairing_changes(room, starts_by, game_id, result)
        if not changes:
            return
        changed = await self._update_pairing(
            (tournament_id, number, board),
            changes,
            refused=f"board {board} of round {number}",
            what=f"updating board {board}",
        )
        if not changed:
            raise TournamentNotFoundError(tournament_id)

    async def withdraw_entrant(self, tournament_id: int, entrant: str) -> None:
        """Mark the entrant withdrawn (a student removed from the class)."""
        await self._withdraw(tournament_id, entrant, what=f"withdrawing {entrant}")

    async def end_tournament(self, tournament_id: int, status: str, at: float) -> None:
        """Mark a running tournament ``finished`` or ``cancelled`` at ``at``."""
        ended_at = check_time("at", at)
        ended = await self._end(
            (status, ended_at, tournament_id),
            refused=f"status {status!r}",
            what=f"ending tournament {tournament_id}",
        )
        if not ended:
            raise TournamentNotFoundError(tournament_id)

    async def tournaments(self, class_name: str) -> list[TournamentRecord]:
        """Every tournament of ``class_name``, whole, newest first."""
        rows = await self._tournament_rows(class_name, what="reading the tournaments")
        return tournament_records(*rows)

    # -- what a backend supplies --------------------------------------------------------
    # A write the schema refuses raises InvalidRecordError, "{refused}: {the reason}".

    @abstractmethod
    async def _insert_tournament(self, new: NewTournament, *, refused: str, what: str) -> int:
        """Insert the tournament and its entrants in one write; its id."""

    @abstractmethod
    async def _insert_round(self, rows: RoundRows, *, refused: str, what: str) -> None:
        """Insert the round and its pairings in one write."""

    @abstractmethod
    async def _update_pairing(
        self, key: tuple[int, int, int], changes: dict[str, Any], *, refused: str, what: str
    ) -> bool:
        """Set ``changes`` (column: value) on the pairing ``(tournament_id,
        round, board)`` in one write; whether there is one."""

    @abstractmethod
    async def _withdraw(self, tournament_id: int, entrant: str, *, what: str) -> None:
        """Mark the entrant withdrawn in one write."""

    @abstractmethod
    async def _end(self, row: tuple[str, float, int], *, refused: str, what: str) -> bool:
        """Set ``(status, finished_at)`` of the running tournament of that id in one
        write; whether there is one."""

    @abstractmethod
    async def _tournament_rows(self, class_name: str, *, what: str) -> TournamentRows:
        """The class's tournaments (:data:`~boardroom.server.store.rows.TOURNAMENT_COLUMNS`,
        newest first), entrants (by tournament, in seed order), rounds and
        pairings (in round then board order), in one read."""
