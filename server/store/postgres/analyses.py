"""What the post-game analyses keep, on PostgreSQL (the contracts of
:mod:`server.store.analyses`: the first review stored for a move under a rules
version stands; one of older rules is replaced, and is not read under newer)."""

from __future__ import annotations

from server.store.postgres.base import Connection, PostgresBase
from server.store.rows import complete_reviews

__all__ = ["PostgresAnalyses"]


class PostgresAnalyses(PostgresBase):
    """The analyses' rows."""

    async def analysis(self, game_id: int, *, rules: int) -> tuple[list[str], bool]:
        """The reviews of game ``game_id`` stored under rules version ``rules`` (JSON
        texts, by ply from 0, with no gap) and whether that analysis is complete."""

        async def body(db: Connection) -> tuple[list[str], bool]:
            rows = await db.fetch(
                "SELECT ply, review FROM analysis_moves WHERE game_id = $1"
                " AND rules_version = $2 ORDER BY ply",
                game_id,
                rules,
            )
            done = await db.fetchval(
                "SELECT 1 FROM analyses WHERE game_id = $1 AND rules_version = $2", game_id, rules
            )
            return complete_reviews(rows, done is not None)

        return await self._transaction(body, write=False, what="reading an analysis")

    async def add_review(self, game_id: int, ply: int, review: str, *, rules: int) -> None:
        """Store the review (JSON text) of move ``ply`` of game ``game_id``, made under
        rules version ``rules``; a review already stored for that move under the same
        rules or newer ones stands (the first analysis is kept), one of older rules
        is replaced."""

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

        await self._transaction(body, write=True, what="storing a move's review")

    async def finish_analysis(
        self, game_id: int, *, seconds_per_position: float, at: float, rules: int
    ) -> None:
        """Mark game ``game_id``'s analysis under rules version ``rules`` complete
        (every move's review stored under them); replaces the mark of older rules."""

        async def body(db: Connection) -> None:
            await db.execute(
                "INSERT INTO analyses (game_id, seconds_per_position, finished_at, rules_version)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (game_id) DO UPDATE"
                " SET seconds_per_position = excluded.seconds_per_position,"
                " finished_at = excluded.finished_at, rules_version = excluded.rules_version"
                " WHERE analyses.rules_version < excluded.rules_version",
                game_id,
                seconds_per_position,
                at,
                rules,
            )

        await self._transaction(body, write=True, what="storing an analysis")

    async def add_hint(self, game_id: int, ply: int, move: str, at: float) -> None:
        """Store that the player to move at ``ply`` of game ``game_id`` was given
        ``move`` as a hint (the first hint at a ply is the one kept)."""

        async def body(db: Connection) -> None:
            await db.execute(
                "INSERT INTO hints (game_id, ply, side, move, at) VALUES ($1, $2, $3, $4, $5)"
                " ON CONFLICT DO NOTHING",
                game_id,
                ply,
                ply % 2,
                move,
                at,
            )

        await self._transaction(body, write=True, what="storing a hint")

    async def hints(self, game_id: int) -> dict[int, str]:
        """The hints given in game ``game_id``: the hinted move by ply."""

        async def body(db: Connection) -> dict[int, str]:
            rows = await db.fetch("SELECT ply, move FROM hints WHERE game_id = $1", game_id)
            return {row[0]: row[1] for row in rows}

        return await self._transaction(body, write=False, what="reading the hints")

    async def unanalysed_games(self, *, since: float, limit: int, rules: int) -> list[int]:
        """Ids of games finished at ``since`` or later whose analysis under rules
        version ``rules`` (or newer) is not complete, the earliest finished first,
        at most ``limit``."""

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

        return await self._transaction(body, write=False, what="finding games to analyse")

    async def analyses_of(
        self, game_ids: list[int], *, rules: int
    ) -> dict[int, tuple[list[str], dict[int, str]]]:
        """For each of ``game_ids``: its complete analysis' reviews under rules
        version ``rules`` (JSON texts by ply; empty if there is none complete under
        them) and its hints (move by ply)."""

        async def body(db: Connection) -> dict[int, tuple[list[str], dict[int, str]]]:
            found: dict[int, tuple[list[str], dict[int, str]]] = {
                game_id: ([], {}) for game_id in game_ids
            }
            # Two queries for all the games, rather than three a game.
            for game_id, review in await db.fetch(
                "SELECT m.game_id, m.review FROM analysis_moves m"
                " JOIN analyses a ON a.game_id = m.game_id AND a.rules_version = $2"
                " WHERE m.game_id = ANY($1::bigint[]) AND m.rules_version = $2"
                " ORDER BY m.game_id, m.ply",
                game_ids,
                rules,
            ):
                found[game_id][0].append(review)
            for game_id, ply, move in await db.fetch(
                "SELECT game_id, ply, move FROM hints WHERE game_id = ANY($1::bigint[])", game_ids
            ):
                found[game_id][1][ply] = move
            return found

        return await self._transaction(body, write=False, what="reading analyses")
