"""A class's tournaments on SQLite: the SQL of
:class:`boardroom.server.store.tournaments.TournamentStorage`."""

from __future__ import annotations

import sqlite3
from typing import Any

from boardroom.server.sqlite_thread import SQLiteThread
from boardroom.server.store.checks import NewTournament
from boardroom.server.store.errors import InvalidRecordError
from boardroom.server.store.sqlite.base import SQLiteBase
from boardroom.server.store.tournaments import (
    RoundRows,
    TournamentRows,
    TournamentStorage,
    tournament_queries,
)

__all__ = ["SQLiteTournaments"]


class SQLiteTournaments(TournamentStorage[SQLiteThread], SQLiteBase):
    """The tournaments' tables on SQLite."""

    async def _insert_tournament(self, new: NewTournament, *, refused: str, what: str) -> int:
        def body(db: sqlite3.Connection) -> int:
            try:
                cursor = db.execute(
                    "INSERT INTO tournaments (class, name, game, format, rounds, double, clock,"
                    " no_show_seconds, created_at, hints, autopilot)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                raise InvalidRecordError(f"{refused}: {error}") from error
            return tournament_id

        return await self._transaction(body, write=True, what=what)

    async def _insert_round(self, rows: RoundRows, *, refused: str, what: str) -> None:
        row, boards = rows

        def body(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, bye, opened_at)"
                    " VALUES (?, ?, ?, ?)",
                    row,
                )
                db.executemany(
                    "INSERT INTO tournament_games (tournament_id, round, board, first, second,"
                    " room, game_id, starts_by, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    boards,
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"{refused}: {error}") from error

        await self._transaction(body, write=True, what=what)

    async def _update_pairing(
        self, key: tuple[int, int, int], changes: dict[str, Any], *, refused: str, what: str
    ) -> bool:
        # Column names from the fixed keys of pairing_changes only: no outside text.
        assignments = ", ".join(f"{column} = ?" for column in changes)

        def body(db: sqlite3.Connection) -> bool:
            try:
                cursor = db.execute(
                    f"UPDATE tournament_games SET {assignments}"  # noqa: S608
                    " WHERE tournament_id = ? AND round = ? AND board = ?",
                    (*changes.values(), *key),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"{refused}: {error}") from error
            return cursor.rowcount == 1

        return await self._transaction(body, write=True, what=what)

    async def _withdraw(self, tournament_id: int, entrant: str, *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE tournament_entrants SET withdrawn = 1"
                " WHERE tournament_id = ? AND entrant = ?",
                (tournament_id, entrant),
            )

        await self._transaction(body, write=True, what=what)

    async def _end(self, row: tuple[str, float, int], *, refused: str, what: str) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            try:
                cursor = db.execute(
                    "UPDATE tournaments SET status = ?, finished_at = ?"
                    " WHERE id = ? AND status = 'running'",
                    row,
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"{refused}: {error}") from error
            return cursor.rowcount == 1

        return await self._transaction(body, write=True, what=what)

    async def _tournament_rows(self, class_name: str, *, what: str) -> TournamentRows:
        def body(db: sqlite3.Connection) -> TournamentRows:
            tournaments, entrants, rounds, pairings = [
                db.execute(sql, (class_name,)).fetchall() for sql in tournament_queries("?")
            ]
            return tournaments, entrants, rounds, pairings

        return await self._transaction(body, write=False, what=what)
