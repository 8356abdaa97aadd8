"""Othello's evaluation: what the generic search thinks of a position at its horizon.

The classic textbook heuristic, in four terms, each the player to move's minus
the opponent's:

- *corners*: a disc on a corner can never be flipped, and anchors the edges;
  :data:`CORNER_POINTS` each;
- *X-squares* (b2, g2, b7, g7, diagonal to a corner): a disc there while its
  corner is empty usually hands the corner over; :data:`X_SQUARE_POINTS` each;
- *mobility*: the number of legal moves; having moves (and leaving the opponent
  few) is what wins the middle game; :data:`MOBILITY_POINTS` a move;
- *discs*: only near the end, when the count is about to decide
  (:data:`LATE_EMPTIES` empty cells or fewer); in the middle game fewer discs
  is often better, and this term is left out.

The value is in points for the player to move, the unit hints show (``+1.25``):
a corner is worth about what three more moves are. It lives beside the rules
(:mod:`shared.games.othello` names it in its ``GameSpec``, ``evaluation``) and
reads the position through the rules' bitboards: bit ``row * 8 + column`` is a
cell, bit 0 being a1 (see the rules' docstring).
"""

from __future__ import annotations

from typing import Protocol, cast

from shared.games.base import Game, Position

CORNER_POINTS = 3.0
X_SQUARE_POINTS = 1.5
MOBILITY_POINTS = 0.5
DISC_POINTS = 0.25
LATE_EMPTIES = 14

_SIZE = 8
_FULL = (1 << (_SIZE * _SIZE)) - 1


def _cell(name: str) -> int:
    return 1 << ((int(name[1]) - 1) * _SIZE + ord(name[0]) - ord("a"))


CORNERS = _cell("a1") | _cell("h1") | _cell("a8") | _cell("h8")
X_SQUARES = ((_cell("a1"), _cell("b2")), (_cell("h1"), _cell("g2")),
             (_cell("a8"), _cell("b7")), (_cell("h8"), _cell("g7")))  # fmt: skip
"""Each corner with the cell diagonal to it."""


class DiscGame(Protocol):
    """What the evaluation asks of the rules (:class:`~shared.games.othello.Othello`)."""

    def sides(self, position: Position) -> tuple[int, int]:
        """The discs of the player to move and of the other."""
        ...

    def legal_cells(self, own: int, other: int) -> int:
        """Where ``own`` may put a disc."""
        ...


def evaluate(game: Game, position: Position) -> float:
    """The value of an ongoing ``position`` for the player to move, in points
    (see the module docstring).

    >>> from shared.games import get_game
    >>> othello = get_game("othello")
    >>> evaluate(othello, othello.new())
    0.0
    >>> evaluate(othello, othello.from_moves("f5 f6"))  # Black: 4 moves, White would have 5
    -0.5
    """
    rules = cast(DiscGame, game)
    own, other = rules.sides(position)
    value = CORNER_POINTS * ((own & CORNERS).bit_count() - (other & CORNERS).bit_count())
    empty = _FULL & ~(own | other)
    for corner, x_square in X_SQUARES:
        if corner & empty:
            value -= X_SQUARE_POINTS * (bool(own & x_square) - bool(other & x_square))
    mobility = rules.legal_cells(own, other).bit_count() - rules.legal_cells(other, own).bit_count()
    value += MOBILITY_POINTS * mobility
    if empty.bit_count() <= LATE_EMPTIES:
        value += DISC_POINTS * (own.bit_count() - other.bit_count())
    return float(value)
