"""The post-game analyses on SQLite: the SQL of
:class:`boardroom.server.store.analyses.AnalysisStorage`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from boardroom.server.sqlite_thread import SQLiteThread
from boardroom.server.store.analyses import AnalysisStorage
from boardroom.server.store.rows import Row
from boardroom.server.store.sqlite.base import SQLiteBase

__all__ = ["SQLiteAnalyses"]


class SQLiteAnalyses(AnalysisStorage[SQLiteThread], SQLiteBase):
    """The analyses' rows on SQLite."""

    async def _reviews(self, game_id: int, rules: int, *, what: str) -> tuple[list[Row], bool]:
        def body(db: sqlite3.Connection) -> tuple[list[Row], bool]:
            rows = db.execute(
                "SELECT ply, review FROM analysis_moves WHERE game_id = ? AND rules_version = ?"
                " ORDER BY ply",
                (game_id, rules),
            ).fetchall()
            done = db.execute(
                "SELECT 1 FROM analyses WHERE game_id = ? AND rules_version = ?", (game_id, rules)
            ).fetchone()
            return rows, done is not None

        return await self._transaction(body, write=False, what=what)

    async def _add_review(
        self, game_id: int, ply: int, review: str, rules: int, *, what: str
    ) -> None:
        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO analysis_moves (game_id, ply, review, rules_version)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, ply) DO UPDATE"
                " SET review = excluded.review, rules_version = excluded.rules_version"
                " WHERE analysis_moves.rules_version < excluded.rules_version",
                (game_id, ply, review, rules),
            )

        await self._transaction(body, write=True, what=what)

    async def _finish_analysis(self, row: tuple[int, float, float, int], *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO analyses (game_id, seconds_per_position, finished_at, rules_version)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE"
                " SET seconds_per_position = excluded.seconds_per_position,"
                " finished_at = excluded.finished_at, rules_version = excluded.rules_version"
                " WHERE analyses.rules_version < excluded.rules_version",
                row,
            )

        await self._transaction(body, write=True, what=what)

    async def _add_hint(self, row: tuple[int, int, int, str, float], *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR IGNORE INTO hints (game_id, ply, side, move, at) VALUES (?, ?, ?, ?, ?)",
                row,
            )

        await self._transaction(body, write=True, what=what)

    async def _hints(self, game_id: int, *, what: str) -> Iterable[tuple[int, str]]:
        def body(db: sqlite3.Connection) -> list[tuple[int, str]]:
            return db.execute(
                "SELECT ply, move FROM hints WHERE game_id = ?", (game_id,)
            ).fetchall()

        return await self._transaction(body, write=False, what=what)

    async def _unanalysed(self, since: float, limit: int, rules: int, *, what: str) -> list[int]:
        def body(db: sqlite3.Connection) -> list[int]:
            rows = db.execute(
                "SELECT id FROM games g WHERE state = 'finished' AND finished_at >= ?"
                " AND NOT EXISTS (SELECT 1 FROM analyses a WHERE a.game_id = g.id"
                " AND a.rules_version >= ?)"
                " ORDER BY finished_at, id LIMIT ?",
                (since, rules, limit),
            )
            return [game_id for (game_id,) in rows.fetchall()]

        return await self._transaction(body, write=False, what=what)

    async def _analyses_of(
        self, game_ids: list[int], rules: int, *, what: str
    ) -> tuple[Iterable[tuple[int, str]], Iterable[tuple[int, int, str]]]:
        def body(
            db: sqlite3.Connection,
        ) -> tuple[list[tuple[int, str]], list[tuple[int, int, str]]]:
            reviews: list[tuple[int, str]] = []
            hints: list[tuple[int, int, str]] = []
            # A game at a time: SQLite caps the parameters of one statement.
            for game_id in game_ids:
                reviews += db.execute(
                    "SELECT m.game_id, m.review FROM analysis_moves m"
                    " JOIN analyses a ON a.game_id = m.game_id AND a.rules_version = ?"
                    " WHERE m.game_id = ? AND m.rules_version = ? ORDER BY m.ply",
                    (rules, game_id, rules),
                ).fetchall()
                hints += db.execute(
                    "SELECT game_id, ply, move FROM hints WHERE game_id = ?", (game_id,)
                ).fetchall()
            return reviews, hints

        return await self._transaction(body, write=False, what=what)
