"""What the ratings (:mod:`server.ratings`) read: every finished game with a result,
in the order the games finished, and the players' current names. The ratings
keep no table of their own: they are replayed from the games whenever more have
finished (:class:`server.ratings.service.Leaderboards`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from server.core.records import SeatRecord
from server.store.base import StoreBase
from server.store.rows import DRAWS, RATED_COLUMNS, rated_game

__all__ = ["RatingsStorage"]


class RatingsStorage(StoreBase):
    """The games the ratings replay."""

    async def games_with_result(self) -> list[tuple[str, SeatRecord, SeatRecord, str, float]]:
        """Every finished game with a result (a win or a draw), in the order they
        finished (then by id), as ``(game, first seat, second seat, result,
        finished_at)``: what the ratings replay. ``result`` is as
        :attr:`GameRecord.result` gives it (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``).
        Games without a result (aborted, or abandoned by both players) are left out."""
        placeholders = ", ".join("?" * len(DRAWS))  # the values go as parameters

        def body(db: sqlite3.Connection) -> list[tuple[str, SeatRecord, SeatRecord, str, float]]:
            rows = db.execute(
                f"SELECT {RATED_COLUMNS}"  # noqa: S608
                " FROM games g JOIN seats a ON a.game_id = g.id AND a.side = 0"
                " JOIN seats b ON b.game_id = g.id AND b.side = 1"
                " WHERE g.state = 'finished'"
                f" AND (g.winner IS NOT NULL OR g.termination IN ({placeholders}))"
                " ORDER BY g.finished_at, g.id",
                DRAWS,
            )
            return [rated_game(row) for row in rows]

        return await self._transaction(body, write=False, what="reading the rated games")

    async def player_names(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The current display name of each of ``player_ids`` that the players
        table holds (by id); ids it does not hold are left out."""
        wanted = sorted(set(player_ids))

        def body(db: sqlite3.Connection) -> dict[str, str]:
            names: dict[str, str] = {}
            # In slices: SQLite caps the parameters of one statement (999 in old builds).
            for start in range(0, len(wanted), _SLICE):
                part = wanted[start : start + _SLICE]
                placeholders = ", ".join("?" * len(part))  # the values go as parameters
                rows = db.execute(
                    f"SELECT id, name FROM players WHERE id IN ({placeholders})",  # noqa: S608
                    part,
                )
                names.update(rows)
            return names

        return await self._transaction(body, write=False, what="reading the players' names")


_SLICE = 500
