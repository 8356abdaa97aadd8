"""Engine scores and the values shown to people.

One integer scale serves exact and heuristic results alike:

- an exact result is a *stone score* times :data:`SCORE_UNIT`. The stone score is
  the scale of the standard Connect Four test sets, for every board: 0 for a draw;
  for a win, one more than the stones the winner still had in hand when the line
  was made (``ceil(cells / 2) + 1 - winner's stones``), so a faster win scores
  higher; negative for the side that loses, so a slower loss scores higher;
- a heuristic estimate lies strictly between ``-SCORE_UNIT`` and ``SCORE_UNIT``:
  below the smallest win, above the smallest loss.

Searching on multiples of one unit lets the exact solver run its null-window
tests at whole stone scores while the depth-limited search mixes in estimates.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

SCORE_UNIT = 1 << 20
"""One stone of the exact scale."""
HEURISTIC_LIMIT = SCORE_UNIT - 1
"""Largest magnitude an evaluation may return."""
POINTS = 100
"""Heuristic units per displayed point (an open line of k-1 is worth about 5 points)."""
INFINITY = 1 << 40
"""Beyond every score: the initial search window."""


class Result(enum.Enum):
    """A proven result for the player to move."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


def half_cells(cells: int) -> int:
    """The most stones one player can place on a board of ``cells`` cells."""
    return (cells + 1) // 2


@dataclass(frozen=True, slots=True)
class Value:
    """What a position (or a move) is worth to the player to move.

    ``result`` is set when the value is proven; ``moves`` then counts the moves the
    winner still has to play (``None`` for a draw or an estimate). ``str()`` gives
    the form shown in hints: ``win in 3``, ``loss in 2``, ``draw``, ``+1.25``.
    """

    score: int
    result: Result | None
    moves: int | None = None

    @property
    def exact(self) -> bool:
        """True if the value is proven by search to the end of the game."""
        return self.result is not None

    def __str__(self) -> str:
        if self.result is Result.DRAW:
            return "draw"
        if self.result is not None:
            return f"{self.result.value} in {self.moves}"
        return f"{self.score / POINTS:+.2f}"


def stone_score(score: int) -> int:
    """The exact stone score of an exact engine ``score``."""
    return score // SCORE_UNIT if score >= 0 else -((-score) // SCORE_UNIT)


def is_decisive(score: int) -> bool:
    """True if ``score`` is a proven win or loss (not a draw, not an estimate)."""
    return abs(score) >= SCORE_UNIT


def make_value(score: int, *, exact: bool, cells: int, ply: int) -> Value:
    """The :class:`Value` of engine ``score`` for the player to move at ``ply``.

    A decisive score is always exact; a score of 0 is a draw only if ``exact``.
    """
    half = half_cells(cells)
    if is_decisive(score):
        stones = stone_score(score)
        if stones > 0:
            # Winner's stones at the win: half + 1 - stones; it has ply // 2 now.
            return Value(score, Result.WIN, half + 1 - stones - ply // 2)
        return Value(score, Result.LOSS, half + 1 + stones - (ply + 1) // 2)
    if exact:
        return Value(score, Result.DRAW)
    return Value(score, None)
