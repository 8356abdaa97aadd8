"""What the post-game analyses (:mod:`server.analysis`) keep: each judged move of
a finished game as the engine yields it, which games are judged whole, and the
hints players were given during their games (shown in the analysis).

A review is stored as JSON text (one ``analysis_moves`` row per move), written
as soon as it is made, so that an analysis cut short (a restart, a busy engine)
resumes from the first move without one, and a finished one is read back rather
than searched again: two analyses of one game may differ where values are
estimates, and the first one stands.

Every review and finished analysis is stored with the version of the rules it
was made by (``rules``: :data:`shared.engine.analysis.ANALYSIS_VERSION`, which
the caller passes; 1 for those stored before schema 9). Reading with a version
sees only what was made by it: an analysis made under other rules reads as not
made (no reviews, not complete), and storing a move's review or the finished
analysis under newer rules replaces the older one. So an old analysis is made
again when next viewed, never mixed with new reviews.
"""

from __future__ import annotations

import sqlite3

from server.store.base import StoreBase
from server.store.rows import complete_reviews

__all__ = ["AnalysisStorage"]


class AnalysisStorage(StoreBase):
    """The analyses' rows."""

    async def analysis(self, game_id: int, *, rules: int) -> tuple[list[str], bool]:
        """The reviews of game ``game_id`` stored under rules version ``rules`` (JSON
        texts, by ply from 0, with no gap) and whether that analysis is complete."""

        def body(db: sqlite3.Connection) -> tuple[list[str], bool]:
            rows = db.execute(
                "SELECT ply, review FROM analysis_moves WHERE game_id = ? AND rules_version = ?"
                " ORDER BY ply",
                (game_id, rules),
            ).fetchall()
            done = db.execute(
                "SELECT 1 FROM analyses WHERE game_id = ? AND rules_version = ?", (game_id, rules)
            ).fetchone()
            return complete_reviews(rows, done is not None)

        return await self._transaction(body, write=False, what="reading an analysis")

    async def add_review(self, game_id: int, ply: int, review: str, *, rules: int) -> None:
        """Store the review (JSON text) of move ``ply`` of game ``game_id``, made under
        rules version ``rules``; a review already stored for that move under the same
        rules or newer ones stands (the first analysis is kept), one of older rules
        is replaced."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO analysis_moves (game_id, ply, review, rules_version)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, ply) DO UPDATE"
                " SET review = excluded.review, rules_version = excluded.rules_version"
                " WHERE analysis_moves.rules_version < excluded.rules_version",
                (game_id, ply, review, rules),
            )

        await self._transaction(body, write=True, what="storing a move's review")

    async def finish_analysis(
        self, game_id: int, *, seconds_per_position: float, at: float, rules: int
    ) -> None:
        """Mark game ``game_id``'s analysis under rules version ``rules`` complete
        (every move's review stored under them); replaces the mark of older rules."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO analyses (game_id, seconds_per_position, finished_at, rules_version)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE"
                " SET seconds_per_position = excluded.seconds_per_position,"
                " finished_at = excluded.finished_at, rules_version = excluded.rules_version"
                " WHERE analyses.rules_version < excluded.rules_version",
                (game_id, seconds_per_position, at, rules),
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

    async def unanalysed_games(self, *, since: float, limit: int, rules: int) -> list[int]:
        """Ids of games finished at ``since`` or later whose analysis under rules
        version ``rules`` (or newer) is not complete, the earliest finished first,
        at most ``limit``."""

        def body(db: sqlite3.Connection) -> list[int]:
            rows = db.execute(
                "SELECT id FROM games g WHERE state = 'finished' AND finished_at >= ?"
                " AND NOT EXISTS (SELECT 1 FROM analyses a WHERE a.game_id = g.id"
                " AND a.rules_version >= ?)"
                " ORDER BY finished_at, id LIMIT ?",
                (since, rules, limit),
            )
            return [game_id for (game_id,) in rows.fetchall()]

        return await self._transaction(body, write=False, what="finding games to analyse")

    async def analyses_of(
        self, game_ids: list[int], *, rules: int
    ) -> dict[int, tuple[list[str], dict[int, str]]]:
        """For each of ``game_ids``: its complete analysis' reviews under rules
        version ``rules`` (JSON texts by ply; empty if there is none complete under
        them) and its hints (move by ply)."""

        def body(db: sqlite3.Connection) -> dict[int, tuple[list[str], dict[int, str]]]:
            found: dict[int, tuple[list[str], dict[int, str]]] = {
                game_id: ([], {}) for game_id in game_ids
            }
            for game_id in game_ids:
                done = db.execute(
                    "SELECT 1 FROM analyses WHERE game_id = ? AND rules_version = ?",
                    (game_id, rules),
                )
                if done.fetchone() is not None:
                    rows = db.execute(
                        "SELECT review FROM analysis_moves WHERE game_id = ?"
                        " AND rules_version = ? ORDER BY ply",
                        (game_id, rules),
                    )
                    found[game_id][0].extend(review for (review,) in rows.fetchall())
                hints = db.execute("SELECT ply, move FROM hints WHERE game_id = ?", (game_id,))
                found[game_id][1].update(hints.fetchall())
            return found

        return await self._transaction(body, write=False, what="reading analyses")
