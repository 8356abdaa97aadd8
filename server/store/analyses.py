"""What the post-game analyses (:mod:`server.analysis`) keep: each judged move of
a finished game as the engine yields it, which games are judged whole, and the
hints players were given during their games (shown in the analysis).

A review is stored as JSON text (one ``analysis_moves`` row per move), written
as soon as it is made, so that an analysis cut short (a restart, a busy engine)
resumes from the first move without one, and a finished one is read back rather
than searched again: two analyses of one game may differ where values are
estimates, and the first one stands.
"""

from __future__ import annotations

import sqlite3

from server.store.base import StoreBase
from server.store.rows import complete_reviews

__all__ = ["AnalysisStorage"]


class AnalysisStorage(StoreBase):
    """The analyses' rows."""

    async def analysis(self, game_id: int) -> tuple[list[str], bool]:
        """The stored reviews of game ``game_id`` (JSON texts, by ply from 0, with no
        gap) and whether the analysis is complete."""

        def body(db: sqlite3.Connection) -> tuple[list[str], bool]:
            rows = db.execute(
                "SELECT ply, review FROM analysis_moves WHERE game_id = ? ORDER BY ply",
                (game_id,),
            ).fetchall()
            done = db.execute("SELECT 1 FROM analyses WHERE game_id = ?", (game_id,)).fetchone()
            return complete_reviews(rows, done is not None)

        return await self._transaction(body, write=False, what="reading an analysis")

    async def add_review(self, game_id: int, ply: int, review: str) -> None:
        """Store the review (JSON text) of move ``ply`` of game ``game_id``; a review
        already stored for that move stands (the first analysis is kept)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR IGNORE INTO analysis_moves (game_id, ply, review) VALUES (?, ?, ?)",
                (game_id, ply, review),
            )

        await self._transaction(body, write=True, what="storing a move's review")

    async def finish_analysis(
        self, game_id: int, *, seconds_per_position: float, at: float
    ) -> None:
        """Mark game ``game_id``'s analysis complete (every move's review stored)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR IGNORE INTO analyses (game_id, seconds_per_position, finished_at)"
                " VALUES (?, ?, ?)",
                (game_id, seconds_per_position, at),
            )

        await self._transaction(body, write=True, what="storing an analysis")

    async def add_hint(self, game_id: int, ply: int, move: str, at: float) -> None:
        """Store that the player to move at ``ply`` of game ``game_id`` was given
        ``move`` as a hint (the first hint at a ply is the one kept)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT OR IGNORE INTO hints (game_id, ply, side, move, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, ply, ply % 2, move, at),
            )

        await self._transaction(body, write=True, what="storing a hint")

    async def hints(self, game_id: int) -> dict[int, str]:
        """The hints given in game ``game_id``: the hinted move by ply."""

        def body(db: sqlite3.Connection) -> dict[int, str]:
            rows = db.execute("SELECT ply, move FROM hints WHERE game_id = ?", (game_id,))
            return dict(rows.fetchall())

        return await self._transaction(body, write=False, what="reading the hints")

    async def unanalysed_games(self, *, since: float, limit: int) -> list[int]:
        """Ids of games finished at ``since`` or later whose analysis is not
        complete, the earliest finished first, at most ``limit``."""

        def body(db: sqlite3.Connection) -> list[int]:
            rows = db.execute(
                "SELECT id FROM games g WHERE state = 'finished' AND finished_at >= ?"
                " AND NOT EXISTS (SELECT 1 FROM analyses a WHERE a.game_id = g.id)"
                " ORDER BY finished_at, id LIMIT ?",
                (since, limit),
            )
            return [game_id for (game_id,) in rows.fetchall()]

        return await self._transaction(body, write=False, what="finding games to analyse")

    async def analyses_of(self, game_ids: list[int]) -> dict[int, tuple[list[str], dict[int, str]]]:
        """For each of ``game_ids``: its complete analysis' reviews (JSON texts by
        ply; empty if not complete) and its hints (move by ply)."""

        def body(db: sqlite3.Connection) -> dict[int, tuple[list[str], dict[int, str]]]:
            found: dict[int, tuple[list[str], dict[int, str]]] = {
                game_id: ([], {}) for game_id in game_ids
            }
            for game_id in game_ids:
                done = db.execute("SELECT 1 FROM analyses WHERE game_id = ?", (game_id,))
                if done.fetchone() is not None:
                    rows = db.execute(
                        "SELECT review FROM analysis_moves WHERE game_id = ? ORDER BY ply",
                        (game_id,),
                    )
                    found[game_id][0].extend(review for (review,) in rows.fetchall())
                hints = db.execute("SELECT ply, move FROM hints WHERE game_id = ?", (game_id,))
                found[game_id][1].update(hints.fetchall())
            return found

        return await self._transaction(body, write=False, what="reading analyses")
