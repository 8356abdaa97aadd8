"""What the ratings read, on PostgreSQL (the contracts of :mod:`server.store.ratings`)."""

from __future__ import annotations

from collections.abc import Iterable

from server.core.records import SeatRecord
from server.store.postgres.base import Connection, PostgresBase
from server.store.rows import DRAWS, RATED_COLUMNS, rated_game

__all__ = ["PostgresRatings"]


class PostgresRatings(PostgresBase):
    """The games the ratings replay."""

    async def games_with_result(self) -> list[tuple[str, SeatRecord, SeatRecord, str, float]]:
        """Every finished game with a result, in the order they finished (then by
        id) (:meth:`server.store.GameStore.games_with_result`)."""

        async def body(db: Connection) -> list[tuple[str, SeatRecord, SeatRecord, str, float]]:
            rows = await db.fetch(
                f"SELECT {RATED_COLUMNS}"  # noqa: S608
                " FROM games g JOIN seats a ON a.game_id = g.id AND a.side = 0"
                " JOIN seats b ON b.game_id = g.id AND b.side = 1"
                " WHERE g.state = 'finished'"
                " AND (g.winner IS NOT NULL OR g.termination = ANY($1::text[]))"
                " ORDER BY g.finished_at, g.id",
                list(DRAWS),
            )
            return [rated_game(row) for row in rows]

        return await self._transaction(body, write=False, what="reading the rated games")

    async def player_names(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The current display name of each of ``player_ids`` that the players
        table holds (by id); ids it does not hold are left out."""
        wanted = sorted(set(player_ids))

        async def body(db: Connection) -> dict[str, str]:
            # One array parameter, however many ids: PostgreSQL has no cap to slice under.
            rows = await db.fetch("SELECT id, name FROM players WHERE id = ANY($1::text[])", wanted)
            return {row[0]: row[1] for row in rows}

        return await self._transaction(body, write=False, what="reading the players' names")
