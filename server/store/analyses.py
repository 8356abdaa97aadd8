"""What the post-game analyses (:mod:`boardroom.server.analysis`) keep, for either backend:
each judged move of a finished game as the engine yields it, which games are judged whole, and the
hints players were given during their games (shown in the analysis).

A review is stored as JSON text (one ``analysis_moves`` row per move), written
as soon as it is made, so that an analysis cut short (a restart, a busy engine)
resumes from the first move without one, and a finished one is read back rather
than searched again: two analyses of one game may differ where values are
estimates, and the first one stands.

Every review and finished analysis is stored with the version of the rules it
was made by (``rules``: :data:`boardroom.shared.engine.analysis.ANALYSIS_VERSION`, which
the caller passes; 1 for those stored before schema 9). Reading with a version
sees only what was made by it: an analysis made under other rules reads as not
made (no reviews, not complete), and storing a move's review or the finished
analysis under newer rules replaces the older one. So an old analysis is made
again when next viewed, never mixed with new reviews.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable

from boardroom.server.store.base import Handle, StoreBase
from boardroom.server.store.rows import Row, complete_reviews

__all__ = ["AnalysisStorage"]


class AnalysisStorage(StoreBase[Handle]):
    """The analyses' rows."""

    async def analysis(self, game_id: int, *, rules: int) -> tuple[list[str], bool]:
        """The reviews of game ``game_id`` stored under rules version ``rules`` (JSON
        texts, by ply from 0, with no gap) and whether that analysis is complete."""
        rows, done = await self._reviews(game_id, rules, what="reading an analysis")
        return complete_reviews(rows, done)

    async def add_review(self, game_id: int, ply: int, review: str, *, rules: int) -> None:
        """Store the review (JSON text) of move ``ply`` of game ``game_id``, made under
        rules version ``rules``; a review already stored for that move under the same
        rules or newer ones stands (the first analysis is kept), one of older rules
        is replaced."""
        await self._add_review(game_id, ply, review, rules, what="storing a move's review")

    async def finish_analysis(
        self, game_id: int, *, seconds_per_position: float, at: float, rules: int
    ) -> None:
        """Mark game ``game_id``'s analysis under rules version ``rules`` complete
        (every move's review stored under them); replaces the mark of older rules."""
        row = (game_id, seconds_per_position, at, rules)
        await self._finish_analysis(row, what="storing an analysis")

    async def add_hint(self, game_id: int, ply: int, move: str, at: float) -> None:
        """Store that the player to move at ``ply`` of game ``game_id`` was given
        ``move`` as a hint (the first hint at a ply is the one kept)."""
        await self._add_hint((game_id, ply, ply % 2, move, at), what="storing a hint")

    async def hints(self, game_id: int) -> dict[int, str]:
        """The hints given in game ``game_id``: the hinted move by ply."""
        return dict(await self._hints(game_id, what="reading the hints"))

    async def unanalysed_games(self, *, since: float, limit: int, rules: int) -> list[int]:
        """Ids of games finished at ``since`` or later whose analysis under rules
        version ``rules`` (or newer) is not complete, the earliest finished first,
        at most ``limit``."""
        return await self._unanalysed(since, limit, rules, what="finding games to analyse")

    async def analyses_of(
        self, game_ids: list[int], *, rules: int
    ) -> dict[int, tuple[list[str], dict[int, str]]]:
        """For each of ``game_ids``: its complete analysis' reviews under rules
        version ``rules`` (JSON texts by ply; empty if there is none complete under
        them) and its hints (move by ply)."""
        found: dict[int, tuple[list[str], dict[int, str]]] = {
            game_id: ([], {}) for game_id in game_ids
        }
        reviews, hints = await self._analyses_of(game_ids, rules, what="reading analyses")
        for game_id, review in reviews:
            found[game_id][0].append(review)
        for game_id, ply, move in hints:
            found[game_id][1][ply] = move
        return found

    # -- what a backend supplies --------------------------------------------------------

    @abstractmethod
    async def _reviews(self, game_id: int, rules: int, *, what: str) -> tuple[list[Row], bool]:
        """The game's ``(ply, review)`` rows under ``rules`` in ply order, and
        whether its analysis under them is marked complete, in one read."""

    @abstractmethod
    async def _add_review(
        self, game_id: int, ply: int, review: str, rules: int, *, what: str
    ) -> None:
        """Insert the review, or replace one of older rules, in one write."""

    @abstractmethod
    async def _finish_analysis(self, row: tuple[int, float, float, int], *, what: str) -> None:
        """Insert ``(game_id, seconds_per_position, finished_at, rules_version)`` into
        analyses, or replace a row of older rules, in one write."""

    @abstractmethod
    async def _add_hint(self, row: tuple[int, int, int, str, float], *, what: str) -> None:
        """Insert ``(game_id, ply, side, move, at)`` into hints unless the ply has one."""

    @abstractmethod
    async def _hints(self, game_id: int, *, what: str) -> Iterable[tuple[int, str]]:
        """The game's ``(ply, move)`` hints."""

    @abstractmethod
    async def _unanalysed(self, since: float, limit: int, rules: int, *, what: str) -> list[int]:
        """What :meth:`unanalysed_games` returns, in one read."""

    @abstractmethod
    async def _analyses_of(
        self, game_ids: list[int], rules: int, *, what: str
    ) -> tuple[Iterable[tuple[int, str]], Iterable[tuple[int, int, str]]]:
        """In one read: ``(game_id, review)`` of the games' analyses complete under
        ``rules``, by game then ply, and ``(game_id, ply, move)`` of their hints."""
