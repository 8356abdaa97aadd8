"""What the ratings read, on SQLite: the SQL of
:class:`boardroom.server.store.ratings.RatingsStorage`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from boardroom.server.sqlite_thread import SQLiteThread
from boardroom.server.store.ratings import RatingsStorage
from boardroom.server.store.rows import DRAWS, RATED_COLUMNS, Row
from boardroom.server.store.sqlite.base import SQLiteBase

__all__ = ["SQLiteRatings"]


class SQLiteRatings(RatingsStorage[SQLiteThread], SQLiteBase):
    """The games the ratings replay, on SQLite."""

    async def _rated_games(self, with_autopilot: bool, *, what: str) -> Iterable[Row]:
        placeholders = ", ".join("?" * len(DRAWS))  # the values go as parameters
        autopilot = (
            ""
            if with_autopilot
            else " AND NOT EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.autopilot)"
        )

        def body(db: sqlite3.Connection) -> list[Row]:
            return db.execute(
                f"SELECT {RATED_COLUMNS}"  # noqa: S608
                " FROM games g JOIN seats a ON a.game_id = g.id AND a.side = 0"
                " JOIN seats b ON b.game_id = g.id AND b.side = 1"
                " WHERE g.state = 'finished'"
                f" AND (g.winner IS NOT NULL OR g.termination IN ({placeholders}))"
                f"{autopilot} ORDER BY g.finished_at, g.id",
                DRAWS,
            ).fetchall()

        return await self._transaction(body, write=False, what=what)

    async def _names(self, player_ids: list[str], *, what: str) -> Iterable[tuple[str, str]]:
        def body(db: sqlite3.Connection) -> list[tuple[str, str]]:
            names: list[tuple[str, str]] = []
            # In slices: SQLite caps the parameters of one statement (999 in old builds).
            for start in range(0, len(player_ids), _SLICE):
                part = player_ids[start : start + _SLICE]
                placeholders = ", ".join("?" * len(part))  # the values go as parameters
                names += db.execute(
                    f"SELECT id, name FROM players WHERE id IN ({placeholders})",  # noqa: S608
                    part,
                ).fetchall()
            return names

        return await self._transaction(body, write=False, what=what)


_SLICE = 500
