"""A class's tournaments on PostgreSQL: the SQL of
:class:`boardroom.server.store.tournaments.TournamentStorage`."""

from __future__ import annotations

from typing import Any

import asyncpg

from boardroom.server.store.checks import NewTournament
from boardroom.server.store.errors import InvalidRecordError
from boardroom.server.store.postgres.base import SCHEMA_REFUSALS, Connection, PostgresBase
from boardroom.server.store.tournaments import (
    RoundRows,
    TournamentRows,
    TournamentStorage,
    tournament_queries,
)

__all__ = ["PostgresTournaments"]


class PostgresTournaments(TournamentStorage[asyncpg.Pool], PostgresBase):
    """The tournaments' tables on PostgreSQL."""

    async def _insert_tournament(self, new: NewTournament, *, refused: str, what: str) -> int:
        async def body(db: Connection) -> int:
            try:
                tournament_id: int = await db.fetchval(
                    "INSERT INTO tournaments (class, name, game, format, rounds, double, clock,"
                    " no_show_seconds, created_at, hints, autopilot)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                    *new.row,
                )
                await db.executemany(
                    "INSERT INTO tournament_entrants (tournament_id, seed, entrant, name, kind)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    [(tournament_id, *row) for row in new.entrants],
                )
            except SCHEMA_REFUSALS as error:
                raise InvalidRecordError(f"{refused}: {error}") from error
            return tournament_id

        return await self._transaction(body, write=True, what=what)

    async def _insert_round(self, rows: RoundRows, *, refused: str, what: str) -> None:
        row, boards = rows

        async def body(db: Connection) -> None:
            try:
                await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, bye, opened_at)"
                    " VALUES ($1, $2, $3, $4)",
                    *row,
                )
                await db.executemany(
                    "INSERT INTO tournament_games (tournament_id, round, board, first, second,"
                    " room, game_id, starts_by, result)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    boards,
                )
            except SCHEMA_REFUSALS as error:
                raise InvalidRecordError(f"{refused}: {error}") from error

        await self._transaction(body, write=True, what=what)

    async def _update_pairing(
        self, key: tuple[int, int, int], changes: dict[str, Any], *, refused: str, what: str
    ) -> bool:
        # Column names from the fixed keys of pairing_changes only: no outside text.
        assignments = ", ".join(f"{column} = ${n}" for n, column in enumerate(changes, start=4))

        async def body(db: Connection) -> bool:
            try:
                changed = await db.fetchval(
                    f"UPDATE tournament_games SET {assignments}"  # noqa: S608
                    " WHERE tournament_id = $1 AND round = $2 AND board = $3 RETURNING board",
                    *key,
                    *changes.values(),
                )
            except SCHEMA_REFUSALS as error:
                raise InvalidRecordError(f"{refused}: {error}") from error
            return changed is not None

        return await self._transaction(body, write=True, what=what)

    async def _withdraw(self, tournament_id: int, entrant: str, *, what: str) -> None:
        async def body(db: Connection) -> None:
            await db.execute(
                "UPDATE tournament_entrants SET withdrawn = 1"
                " WHERE tournament_id = $1 AND entrant = $2",
                tournament_id,
                entrant,
            )

        await self._transaction(body, write=True, what=what)

    async def _end(self, row: tuple[str, float, int], *, refused: str, what: str) -> bool:
        async def body(db: Connection) -> bool:
            try:
                changed = await db.fetchval(
                    "UPDATE tournaments SET status = $1, finished_at = $2"
                    " WHERE id = $3 AND status = 'running' RETURNING id",
                    *row,
                )
            except SCHEMA_REFUSALS as error:
                raise InvalidRecordError(f"{refused}: {error}") from error
            return changed is not None

        return await self._transaction(body, write=True, what=what)

    async def _tournament_rows(self, class_name: str, *, what: str) -> TournamentRows:
        async def body(db: Connection) -> TournamentRows:
            tournaments, entrants, rounds, pairings = [
                list(await db.fetch(sql, class_name)) for sql in tournament_queries("$1")
            ]
            return tournaments, entrants, rounds, pairings

        return await self._transaction(body, write=False, what=what)
