"""How a game ends: the one vocabulary of endings, owned by the rules.

The rules end a game in their own ways (:attr:`Termination.LINE`,
:attr:`Termination.COUNT`, :attr:`Termination.NO_MOVES`,
:attr:`Termination.FULL_BOARD`); the room ends it in the ways every game shares
(resignation, agreement, timeout, abandonment, aborted). The server's records,
the store, the wire (``result.termination``) and every client read this one list:
a new game that ends a new way adds a member here, and nothing else lists them
(the store keeps the value as text, with no CHECK list of its own).

>>> Termination.COUNT.allows(None), Termination.LINE.allows(None)
(True, False)
>>> [ending.value for ending in Termination.of_rules()]
['line', 'count', 'no_moves', 'full_board']
"""

from __future__ import annotations

import enum


class Termination(enum.Enum):
    """How a game ended. Each member says whether the game may have a winner."""

    # -- endings the rules decide -------------------------------------------------
    LINE = "line"
    """The winner made a line (of ``k`` on a grid, four in Connect Four)."""
    COUNT = "count"
    """Neither side could move and the stones were counted: most stones wins,
    an equal count is a draw (Othello)."""
    NO_MOVES = "no_moves"
    """The side to move had no legal move, and in this game that loses."""
    FULL_BOARD = "full_board"
    """The board filled up with no line: a draw."""

    # -- endings the room decides, the same in every game ---------------------------
    RESIGNATION = "resignation"
    """The loser resigned (or left a game in progress, which resigns it)."""
    AGREEMENT = "agreement"
    """A draw offer was accepted."""
    TIMEOUT = "timeout"
    """The loser's clock ran out."""
    ABANDONMENT = "abandonment"
    """A dropped player did not come back within the grace window: the side that
    waited wins; with no winner, both sides were gone (no result)."""
    ABORTED = "aborted"
    """Ended before it really began (before the first move, or never started),
    or stopped by the teacher closing its room (class mode): no result."""

    @classmethod
    def of_rules(cls) -> tuple[Termination, ...]:
        """The endings a game's rules decide, as opposed to the room's."""
        return (cls.LINE, cls.COUNT, cls.NO_MOVES, cls.FULL_BOARD)

    def allows(self, winner: object | None) -> bool:
        """True if a game ending this way may have ``winner`` (None: no winner)."""
        if self in _DECISIVE:
            return winner is not None
        if self in (Termination.ABANDONMENT, Termination.COUNT):
            return True
        return winner is None

    @property
    def is_draw(self) -> bool:
        """True if a game ending this way without a winner shares the point: a
        full board, an agreement, an equal count. (Aborted games and games
        abandoned by both sides have no result: see :meth:`allows`.)"""
        return self in _MAY_DRAW


_DECISIVE = frozenset(
    {Termination.LINE, Termination.NO_MOVES, Termination.RESIGNATION, Termination.TIMEOUT}
)
_MAY_DRAW = frozenset({Termination.FULL_BOARD, Termination.AGREEMENT, Termination.COUNT})
