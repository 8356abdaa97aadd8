"""What the ratings read, on PostgreSQL: the SQL of
:class:`boardroom.server.store.ratings.RatingsStorage`."""

from __future__ import annotations

from collections.abc import Iterable

import asyncpg

from boardroom.server.store.postgres.base import Connection, PostgresBase
from boardroom.server.store.ratings import RatingsStorage
from boardroom.server.store.rows import DRAWS, RATED_COLUMNS, Row

__all__ = ["PostgresRatings"]


class PostgresRatings(RatingsStorage[asyncpg.Pool], PostgresBase):
    """The games the ratings replay, on PostgreSQL."""

    async def _rated_games(self, with_autopilot: bool, *, what: str) -> Iterable[Row]:
        autopilot = (
            ""
            if with_autopilot
            else " AND NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.autopilot)"
        )

        async def body(db: Connection) -> list[Row]:
            return list(
                await db.fetch(
                    f"SELECT {RATED_COLUMNS}"  # noqa: S608
                    " FROM games g JOIN seats a ON a.game_id = g.id AND a.side = 0"
                    " JOIN seats b ON b.game_id = g.id AND b.side = 1"
                    " WHERE g.state = 'finished'"
                    " AND (g.winner IS NOT NULL OR g.termination = ANY($1::text[]))"
                    f"{autopilot} ORDER BY g.finished_at, g.id",
                    list(DRAWS),
                )
            )

        return await self._transaction(body, write=False, what=what)

    async def _names(self, player_ids: list[str], *, what: str) -> Iterable[tuple[str, str]]:
        async def body(db: Connection) -> list[tuple[str, str]]:
            # One array parameter, however many ids: PostgreSQL has no cap to slice under.
            rows = await db.fetch(
                "SELECT id, name FROM players WHERE id = ANY($1::text[])", player_ids
            )
            return [(row[0], row[1]) for row in rows]

        return await self._transaction(body, write=False, what=what)
