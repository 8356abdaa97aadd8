"""A class's tournaments on PostgreSQL (the contracts of :mod:`server.store.tournaments`,
the same checks and records)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.store.checks import check_time, new_tournament, pairing_changes, pairing_rows
from server.store.errors import InvalidRecordError, TournamentNotFoundError
from server.store.postgres.base import SCHEMA_REFUSALS, Connection, PostgresBase
from server.store.rows import (
    TOURNAMENT_COLUMNS,
    EntrantRecord,
    PairingRecord,
    TournamentRecord,
    tournament_records,
)

__all__ = ["PostgresTournaments"]


class PostgresTournaments(PostgresBase):
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
        """Store a new running tournament and its entrants, and return it
        (:meth:`server.store.GameStore.create_tournament`)."""
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

        async def body(db: Connection) -> int:
            try:
                tournament_id: int = await db.fetchval(
                    "INSERT INTO tournaments (class, name, game, format, rounds, double, clock,"
                    " no_show_seconds, created_at, hints)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
                    *new.row,
                )
                await db.executemany(
                    "INSERT INTO tournament_entrants (tournament_id, seed, entrant, name, kind)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    [(tournament_id, *row) for row in new.entrants],
                )
            except SCHEMA_REFUSALS as error:
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
        """Store round ``number`` of the tournament: its bye and its pairings."""
        opened_at = check_time("at", at)
        boards = pairing_rows(pairings)

        async def body(db: Connection) -> None:
            try:
                await db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, bye, opened_at)"
                    " VALUES ($1, $2, $3, $4)",
                    tournament_id,
                    number,
                    bye,
                    opened_at,
                )
                await db.executemany(
                    "INSERT INTO tournament_games (tournament_id, round, board, first, second,"
                    " room, game_id, starts_by, result)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                    [(tournament_id, number, *board) for board in boards],
                )
            except SCHEMA_REFUSALS as error:
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
        """Set what is given of one pairing; a pairing with a result is final
        (:meth:`server.store.GameStore.update_pairing`)."""
        changes = pairing_changes(room, starts_by, game_id, result)
        # Column names from the fixed keys of pairing_changes only: no outside text.
        assignments = ", ".join(f"{column} = ${n}" for n, column in enumerate(changes, start=4))

        async def body(db: Connection) -> None:
            try:
                changed = await db.fetchval(
                    f"UPDATE tournament_games SET {assignments}"  # noqa: S608
                    " WHERE tournament_id = $1 AND round = $2 AND board = $3 RETURNING board",
                    tournament_id,
                    number,
                    board,
                    *changes.values(),
                )
            except SCHEMA_REFUSALS as error:
                raise InvalidRecordError(f"board {board} of round {number}: {error}") from error
            if changed is None:
                raise TournamentNotFoundError(tournament_id)

        if changes:
            await self._transaction(body, write=True, what=f"updating board {board}")

    async def withdraw_entrant(self, tournament_id: int, entrant: str) -> None:
        """Mark the entrant withdrawn (a student removed from the class)."""

        async def body(db: Connection) -> None:
            await db.execute(
                "UPDATE tournament_entrants SET withdrawn = 1"
                " WHERE tournament_id = $1 AND entrant = $2",
                tournament_id,
                entrant,
            )

        await self._transaction(body, write=True, what=f"withdrawing {entrant}")

    async def end_tournament(self, tournament_id: int, status: str, at: float) -> None:
        """Mark a running tournament ``finished`` or ``cancelled`` at ``at``."""
        ended_at = check_time("at", at)

        async def body(db: Connection) -> None:
            try:
                changed = await db.fetchval(
                    "UPDATE tournaments SET status = $1, finished_at = $2"
                    " WHERE id = $3 AND status = 'running' RETURNING id",
                    status,
                    ended_at,
                    tournament_id,
                )
            except SCHEMA_REFUSALS as error:
                raise InvalidRecordError(f"status {status!r}: {error}") from error
            if changed is None:
                raise TournamentNotFoundError(tournament_id)

        await self._transaction(body, write=True, what=f"ending tournament {tournament_id}")

    async def tournaments(self, class_name: str) -> list[TournamentRecord]:
        """Every tournament of ``class_name``, whole, newest first."""

        async def body(db: Connection) -> list[TournamentRecord]:
            return tournament_records(
                await db.fetch(
                    f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE class = $1"  # noqa: S608
                    " ORDER BY id DESC",
                    class_name,
                ),
                await db.fetch(
                    "SELECT e.tournament_id, e.entrant, e.name, e.kind, e.withdrawn"
                    " FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
                    " WHERE t.class = $1 ORDER BY e.tournament_id, e.seed",
                    class_name,
                ),
                await db.fetch(
                    "SELECT r.tournament_id, r.round, r.bye FROM tournament_rounds r"
                    " JOIN tournaments t ON t.id = r.tournament_id WHERE t.class = $1"
                    " ORDER BY r.round",
                    class_name,
                ),
                await db.fetch(
                    "SELECT g.tournament_id, g.round, g.board, g.first, g.second, g.room,"
                    " g.game_id, g.starts_by, g.result FROM tournament_games g"
                    " JOIN tournaments t ON t.id = g.tournament_id WHERE t.class = $1"
                    " ORDER BY g.round, g.board",
                    class_name,
                ),
            )

        return await self._transaction(body, write=False, what="reading the tournaments")
