"""What a class's tournaments (:mod:`server.tournaments`) keep: four tables beside
the games. The tournaments, their entrants (in seed order), their rounds (with
the bye) and every pairing with its room, game and result
(:class:`TournamentRecord`); a result, once stored, never changes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from server.store.base import StoreBase
from server.store.checks import check_time, new_tournament, pairing_changes, pairing_rows
from server.store.errors import InvalidRecordError, TournamentNotFoundError
from server.store.rows import (
    TOURNAMENT_COLUMNS,
    EntrantRecord,
    PairingRecord,
    TournamentRecord,
    tournament_records,
)

__all__ = ["EntrantRecord", "PairingRecord", "TournamentRecord", "TournamentStorage"]


class TournamentStorage(StoreBase):
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
    ) -> TournamentRecord:
        """Store a new running tournament and its entrants (in seed order); the
        record stored (no round yet). Raises :class:`InvalidRecordError` for values
        the schema refuses, another tournament of the class running included."""
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
        )

        def body(db: sqlite3.Connection) -> int:
            try:
                cursor = db.execute(
                    "INSERT INTO tournaments (class, name, game, format, rounds, double, clock,"
                    " no_show_seconds, created_at, hints) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    new.row,
                )
                tournament_id = cursor.lastrowid
                assert tournament_id is not None
                db.executemany(
                    "INSERT INTO tournament_entrants (tournament_id, seed, entrant, name, kind)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(tournament_id, *row) for row in new.entrants],
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"tournament {name!r} does not store: {error}") from error
            return tournament_id

        return new.stored(
            await self._transaction(body, write=True, what=f"creating tournament {name!r}")
        )

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

        def body(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, bye, opened_at)"
                    " VALUES (?, ?, ?, ?)",
                    (tournament_id, number, bye, opened_at),
                )
                db.executemany(
                    "INSERT INTO tournament_games (tournament_id, round, board, first, second,"
                    " room, game_id, starts_by, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(tournament_id, number, *board) for board in boards],
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(
                    f"round {number} of tournament {tournament_id} does not store: {error}"
                ) from error

        await self._transaction(body, write=True, what=f"pairing round {number}")

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
        # Column names from the fixed keys above only: no outside text reaches the SQL.
        assignments = ", ".join(f"{column} = ?" for column in changes)

        def body(db: sqlite3.Connection) -> None:
            try:
                cursor = db.execute(
                    f"UPDATE tournament_games SET {assignments}"  # noqa: S608
                    " WHERE tournament_id = ? AND round = ? AND board = ?",
                    (*changes.values(), tournament_id, number, board),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"board {board} of round {number}: {error}") from error
            if cursor.rowcount != 1:
                raise TournamentNotFoundError(tournament_id)

        if changes:
            await self._transaction(body, write=True, what=f"updating board {board}")

    async def withdraw_entrant(self, tournament_id: int, entrant: str) -> None:
        """Mark the entrant withdrawn (a student removed from the class)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE tournament_entrants SET withdrawn = 1"
                " WHERE tournament_id = ? AND entrant = ?",
                (tournament_id, entrant),
            )

        await self._transaction(body, write=True, what=f"withdrawing {entrant}")

    async def end_tournament(self, tournament_id: int, status: str, at: float) -> None:
        """Mark a running tournament ``finished`` or ``cancelled`` at ``at``."""
        ended_at = check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            try:
                cursor = db.execute(
                    "UPDATE tournaments SET status = ?, finished_at = ?"
                    " WHERE id = ? AND status = 'running'",
                    (status, ended_at, tournament_id),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"status {status!r}: {error}") from error
            if cursor.rowcount != 1:
                raise TournamentNotFoundError(tournament_id)

        await self._transaction(body, write=True, what=f"ending tournament {tournament_id}")

    async def tournaments(self, class_name: str) -> list[TournamentRecord]:
        """Every tournament of ``class_name``, whole, newest first."""

        def body(db: sqlite3.Connection) -> list[TournamentRecord]:
            return _load_tournaments(db, class_name)

        return await self._transaction(body, write=False, what="reading the tournaments")


def _load_tournaments(db: sqlite3.Connection, class_name: str) -> list[TournamentRecord]:
    entrants = db.execute(
        "SELECT e.tournament_id, e.entrant, e.name, e.kind, e.withdrawn"
        " FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE t.class = ? ORDER BY e.tournament_id, e.seed",
        (class_name,),
    ).fetchall()
    rounds = db.execute(
        "SELECT r.tournament_id, r.round, r.bye FROM tournament_rounds r"
        " JOIN tournaments t ON t.id = r.tournament_id WHERE t.class = ? ORDER BY r.round",
        (class_name,),
    ).fetchall()
    pairings = db.execute(
        "SELECT g.tournament_id, g.round, g.board, g.first, g.second, g.room, g.game_id,"
        " g.starts_by, g.result FROM tournament_games g"
        " JOIN tournaments t ON t.id = g.tournament_id WHERE t.class = ?"
        " ORDER BY g.round, g.board",
        (class_name,),
    ).fetchall()
    tournaments = db.execute(
        f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE class = ?"  # noqa: S608
        " ORDER BY id DESC",
        (class_name,),
    )
    return tournament_records(tournaments, entrants, rounds, pairings)
