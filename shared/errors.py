"""Exceptions raised by the game rules and the engine.

Every exception raised on purpose by ``shared`` derives from :class:`BoardroomError`,
and also from the builtin whose meaning it carries, so callers may catch either::

    BoardroomError
    ├── GameError
    │   ├── UnknownGameError(GameError, LookupError)      no game by that name
    │   ├── GameOptionsError(GameError, ValueError)        bad m, n, k for a board
    │   └── IllegalMoveError(GameError, ValueError)        a move the rules refuse
    └── EngineError
        └── SearchLimitsError(EngineError, ValueError)     bad level, depth or time

Messages name the input at fault and say what would have been accepted, so that
the server can pass them on to a person unchanged.
"""

from __future__ import annotations

import enum
import functools
from typing import Any


class BoardroomError(Exception):
    """Root of every error that ``shared`` raises on purpose."""


class GameError(BoardroomError):
    """A problem with a game, its options, or a move in it."""


class UnknownGameError(GameError, LookupError):
    """No game is registered under the requested name."""


class GameOptionsError(GameError, ValueError):
    """Board options (sizes, line length) outside what the game supports."""


class IllegalMoveReason(enum.Enum):
    """Why a move was refused; stable names that the wire protocol may carry."""

    NOT_A_MOVE = "not_a_move"
    """The text is not a move in this game's notation at all."""
    OFF_BOARD = "off_board"
    """Well-formed, but names a cell or column outside the board."""
    OCCUPIED = "occupied"
    """The cell already holds a stone."""
    COLUMN_FULL = "column_full"
    """Connect Four: the column has no room left."""
    GAME_OVER = "game_over"
    """The game has already ended; no move is legal."""
    FLIPS_NOTHING = "flips_nothing"
    """Othello: a disc there would bracket none of the opponent's discs."""
    CANNOT_PASS = "cannot_pass"  # noqa: S105 - a reason, not a password
    """Othello: a pass while a legal move remains."""


class IllegalMoveError(GameError, ValueError):
    """A move that the rules refuse, with the input and the reason.

    ``move_text`` is the input as given (or the formatted move), ``reason`` an
    :class:`IllegalMoveReason`.
    """

    def __init__(self, message: str, *, move_text: str, reason: IllegalMoveReason) -> None:
        super().__init__(message)
        self.move_text = move_text
        self.reason = reason

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Crosses process boundaries (engine workers): the keyword-only fields
        # are not in ``args``, so the default pickling could not rebuild it.
        rebuild = functools.partial(type(self), move_text=self.move_text, reason=self.reason)
        return rebuild, (str(self),)


class EngineError(BoardroomError):
    """A problem with a request to the engine."""


class SearchLimitsError(EngineError, ValueError):
    """A search was asked for with an unknown level or an impossible limit."""
