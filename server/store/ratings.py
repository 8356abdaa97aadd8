"""What the ratings (:mod:`boardroom.server.ratings`) read: every finished game with a result,
in the order the games finished, and the players' current names. The ratings
keep no table of their own: they are replayed from the games whenever more have
finished (:class:`boardroom.server.ratings.service.Leaderboards`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable

from boardroom.server.core.records import SeatRecord
from boardroom.server.store.base import Handle, StoreBase
from boardroom.server.store.rows import Row, rated_game

__all__ = ["RatingsStorage"]


class RatingsStorage(StoreBase[Handle]):
    """The games the ratings replay."""

    async def games_with_result(
        self, *, with_autopilot: bool = False
    ) -> list[tuple[str, SeatRecord, SeatRecord, str, float]]:
        """Every finished game with a result (a win or a draw), in the order they
        finished (then by id), as ``(game, first seat, second seat, result,
        finished_at)``: what the ratings replay. ``result`` is as
        :attr:`GameRecord.result` gives it (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``).
        Games without a result (aborted, or abandoned by both players) are left out,
        and so are games with a move the server's engine made for an absent player
        (the room's autopilot) unless ``with_autopilot``."""
        rows = await self._rated_games(with_autopilot, what="reading the rated games")
        return [rated_game(row) for row in rows]

    async def player_names(self, player_ids: Iterable[str]) -> dict[str, str]:
        """The current display name of each of ``player_ids`` that the players
        table holds (by id); ids it does not hold are left out."""
        wanted = sorted(set(player_ids))
        return dict(await self._names(wanted, what="reading the players' names"))

    # -- what a backend supplies --------------------------------------------------------

    @abstractmethod
    async def _rated_games(self, with_autopilot: bool, *, what: str) -> Iterable[Row]:
        """The rows (:data:`~boardroom.server.store.rows.RATED_COLUMNS`) of the finished games
        with a winner or a draw (:data:`~boardroom.server.store.rows.DRAWS`), without an
        autopilot move unless ``with_autopilot``, in the order they finished, then by id."""

    @abstractmethod
    async def _names(self, player_ids: list[str], *, what: str) -> Iterable[tuple[str, str]]:
        """``(id, name)`` of each of the players the table holds."""
