"""Ratings per game from the history of rated games, and the leaderboard that shows them.

Pure functions over value types: the server reads the finished rated games from the
store, calls :func:`replay` and keeps (or recomputes) the result; :func:`leaderboard`
turns one game's ratings into the rows of the page and of ``GET /api/leaderboard``.

Nothing here keeps state: replaying the same games always gives the same standings,
so the server may cache them or recompute them, and a change to the rating rules
(tau, the clamps) can be applied to the past by replaying it.

>>> games = [
...     RatedGame("connect4", "ada", "bob", 1.0, finished_at=200.0),
...     RatedGame("connect4", "bob", "cy", 0.5, finished_at=100.0),
... ]
>>> for row in leaderboard(replay(games)["connect4"]):
...     print(row.rank, row.player, row.rating, row.games, row.wins, row.draws, row.losses)
1 ada 1668 1 1 0 0
2 cy 1500 1 0 1 0
3 bob 1376 2 0 1 1
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from boardroom.server.ratings.glicko2 import SCORES, TAU, Rating, RatingError, rate_game

__all__ = ["LeaderboardRow", "PlayerRating", "RatedGame", "leaderboard", "replay"]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One finished rated game: what :func:`replay` needs to know about it.

    ``game`` is the game type's name (``"connect4"``), ``first`` and ``second`` the
    players' ids, ``score_first`` the first player's score (1 win, 0.5 draw, 0 loss)
    and ``finished_at`` when it ended (Unix seconds, as the store keeps it). Raises
    :class:`~boardroom.server.ratings.glicko2.RatingError` for another score or a player
    against themselves.
    """

    game: str
    first: str
    second: str
    score_first: float
    finished_at: float

    def __post_init__(self) -> None:
        if self.score_first not in SCORES:
            raise RatingError(
                f"a score is 1 (win), 0.5 (draw) or 0 (loss), not {self.score_first!r}"
            )
        if self.first == self.second:
            raise RatingError(f"{self.first!r} cannot play a rated game against themselves")


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's standing in one game type: the rating and the results behind it."""

    rating: Rating = field(default_factory=Rating)
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """How many rated games of this type the player has finished."""
        return self.wins + self.draws + self.losses

    def after_game(self, rating: Rating, score: float) -> PlayerRating:
        """This standing after one more game: its new ``rating`` and its ``score``."""
        return PlayerRating(
            rating,
            self.wins + (score == 1.0),
            self.draws + (score == 0.5),
            self.losses + (score == 0.0),
        )


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a leaderboard, with the numbers as people read them (whole points).

    ``rank`` is shared by players level on shown rating and games ("1, 1, 3"), and
    ``provisional`` marks a rating still too uncertain to trust (shown with a "?").
    ``player_id`` is the durable player's public id, so that two players shown
    under one name are told apart (None: a player known otherwise, such as the
    AI or a name from before players were kept; :mod:`boardroom.server.ratings.service`).
    """

    rank: int
    player: str
    rating: int
    deviation: int
    provisional: bool
    games: int
    wins: int
    draws: int
    losses: int
    player_id: str | None = None


def replay(games: Iterable[RatedGame], *, tau: float = TAU) -> dict[str, dict[str, PlayerRating]]:
    """Every player's standing per game type after all ``games``, in any order.

    The games are rated in the order they finished, each as its own rating period
    (:func:`~boardroom.server.ratings.glicko2.rate_game`), every player starting as a
    newcomer in every game type: a Connect Four rating says nothing about gomoku.
    Games finished at the same instant are taken in a fixed order (by player ids,
    then score) so that the result never depends on the order of the input. Only
    players who have finished a game appear; a game type without games is absent.
    """
    standings: dict[str, dict[str, PlayerRating]] = {}
    for game in sorted(games, key=_replay_order):
        players = standings.setdefault(game.game, {})
        first = players.get(game.first, PlayerRating())
        second = players.get(game.second, PlayerRating())
        new_first, new_second = rate_game(first.rating, second.rating, game.score_first, tau=tau)
        players[game.first] = first.after_game(new_first, game.score_first)
        players[game.second] = second.after_game(new_second, 1.0 - game.score_first)
    return standings


def leaderboard(
    ratings: Mapping[str, PlayerRating], *, include_provisional: bool = True
) -> list[LeaderboardRow]:
    """The rows of one game type's leaderboard, best first.

    ``ratings`` maps player ids to standings in one game type (one value of what
    :func:`replay` returns). Rows are ordered by shown (whole-point) rating, highest
    first, then by games played, most first, then by player id. Ordering by the
    shown rating rather than the exact one keeps the page consistent: two players
    shown at 1523 are level on rating, the busier one is listed first, and if they
    have also played as many games they share the rank. Players without games are
    left out, and so are provisional ones unless ``include_provisional``.
    """
    shown = [
        (player, standing)
        for player, standing in ratings.items()
        if standing.games > 0 and (include_provisional or not standing.rating.provisional)
    ]
    shown.sort(key=lambda entry: (-_whole(entry[1].rating.rating), -entry[1].games, entry[0]))
    rows: list[LeaderboardRow] = []
    for position, (player, standing) in enumerate(shown, start=1):
        rating = _whole(standing.rating.rating)
        level = bool(rows) and (rows[-1].rating, rows[-1].games) == (rating, standing.games)
        rows.append(
            LeaderboardRow(
                rank=rows[-1].rank if level else position,
                player=player,
                rating=rating,
                deviation=_whole(standing.rating.deviation),
                provisional=standing.rating.provisional,
                games=standing.games,
                wins=standing.wins,
                draws=standing.draws,
                losses=standing.losses,
            )
        )
    return rows


def _replay_order(game: RatedGame) -> tuple[float, str, str, float]:
    return (game.finished_at, game.first, game.second, game.score_first)


def _whole(value: float) -> int:
    # Halves round up, as people round; round() would show 1522.5 as 1522.
    return math.floor(value + 0.5)
