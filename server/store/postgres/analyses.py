"""The post-game analyses on PostgreSQL: the SQL of
:class:`boardroom.server.store.analyses.AnalysisStorage`."""

from __future__ import annotations

from collections.abc import Iterable

import asyncpg

from boardroom.server.store.analyses import AnalysisStorage
from boardroom.server.store.postgres.base import Connection, PostgresBase
from boardroom.server.store.rows import Row

__all__ = ["PostgresAnalyses"]


class PostgresAnalyses(AnalysisStorage[asyncpg.Pool], PostgresBase):
    """The analyses' rows on PostgreSQL."""

    async def _reviews(self, game_id: int, rules: int, *, what: str) -> tuple[list[Row], bool]:
        async def body(db: Connection) -> tuple[list[Row], bool]:
            rows = await db.fetch(
                "SELECT ply, review FROM analysis_moves WHERE game_id = $1"
                " AND rules_version = $2 ORDER BY ply",
                game_id,
                rules,
            )
            done = await db.fetchval(
                "SELECT 1 FROM analyses WHERE game_id = $1 AND rules_version = $2", game_id, rules
            )
            return list(rows), done is not None

        return await self._transaction(body, write=False, what=what)

    async def _add_review(
        self, game_id: int, ply: int, review: str, rules: int, *, what: str
    ) -> None:
        async def body(db: Connection) -> None:
            await db.execute(
                "INSERT INTO analysis_moves (game_id, ply, review, rules_version)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (game_id, ply) DO UPDATE"
                " SET review = excluded.review, rules_version = excluded.rules_version"
                " WHERE analysis_moves.rules_version < excluded.rules_version",
                game_id,
                ply,
                review,
                rules,
            )

        await self._transaction(body, write=True, what=what)

    async def _finish_analysis(self, row: tuple[int, float, float, int], *, what: str) -> None:
        async def body(db: Connection) -> None:
            await db.execute(
                "INSERT INTO analyses (game_id, seconds_per_position, finished_at, rules_version)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO UPDATE"
                " SET seconds_per_position = excluded.seconds_per_position,"
                " finished_at = excluded.finished_at, rules_version = excluded.rules_version"
                " WHERE analyses.rules_version < excluded.rules_version",
                *row,
            )

        await self._transaction(body, write=True, what=what)

    async def _add_hint(self, row: tuple[int, int, int, str, float], *, what: str) -> None:
        async def body(db: Connection) -> None:
            await db.execute(
                "INSERT INTO hints (game_id, ply, side, move, at) VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT DO NOTHING",
                *row,
            )

        await self._transaction(body, write=True, what=what)

    async def _hints(self, game_id: int, *, what: str) -> Iterable[tuple[int, str]]:
        async def body(db: Connection) -> list[tuple[int, str]]:
            rows = await db.fetch("SELECT ply, move FROM hints WHERE game_id = $1", game_id)
            return [(row[0], row[1]) for row in rows]

        return await self._transaction(body, write=False, what=what)

    async def _unanalysed(self, since: float, limit: int, rules: int, *, what: str) -> list[int]:
        async def body(db: Connection) -> list[int]:
            rows = await db.fetch(
                "SELECT id FROM games g WHERE state = 'finished' AND finished_at >= $1"
                " AND NOT EXISTS (SELECT 1 FROM analyses a WHERE a.game_id = g.id"
                " AND a.rules_version >= $3)"
                " ORDER BY finished_at, id LIMIT $2",
                since,
                limit,
                rules,
            )
            return [row[0] for row in rows]

        return await self._transaction(body, write=False, what=what)

    async def _analyses_of(
        self, game_ids: list[int], rules: int, *, what: str
    ) -> tuple[Iterable[tuple[int, str]], Iterable[tuple[int, int, str]]]:
        async def body(
            db: Connection,
        ) -> tuple[list[tuple[int, str]], list[tuple[int, int, str]]]:
            # Two queries for all the games, rather than two a game.
            reviews = await db.fetch(
                "SELECT m.game_id, m.review FROM analysis_moves m"
                " JOIN analyses a ON a.game_id = m.game_id AND a.rules_version = $2"
                " WHERE m.game_id = ANY($1::bigint[]) AND m.rules_version = $2"
                " ORDER BY m.game_id, m.ply",
                game_ids,
                rules,
            )
            hints = await db.fetch(
                "SELECT game_id, ply, move FROM hints WHERE game_id = ANY($1::bigint[])", game_ids
            )
            return [(r[0], r[1]) for r in reviews], [(h[0], h[1], h[2]) for h in hints]

        return await self._transaction(body, write=False, what=what)
