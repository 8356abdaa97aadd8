"""What a game is, for everything that lists, offers, or searches games: :class:`GameSpec`.

A game's own module (``shared/games/connect4.py``, ``mnk.py``, ...) declares its
specs in a module-level ``GAME_SPECS`` tuple; :mod:`boardroom.shared.games.registry` finds
them. Nothing else in the tree lists games: the CLI and its help, the terminal,
the engine pool's warm-up, the bench, the load test and the browser (through
``GET /api/games``) all read the registry.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardroom.shared.games.endings import Termination

if TYPE_CHECKING:
    from boardroom.shared.games.base import Game, Position

Evaluation = Callable[["Game", "Position"], float]
"""``evaluate(game, position)``: a heuristic value of an ongoing position for the
player to move, in points (what a hint shows: ``+1.25``; on Othello a corner is
worth about 3), positive when the player to move stands better. The generic
search applies it at its horizon; values beyond 1000 points are clamped."""


class BoardKind(enum.Enum):
    """How a board looks and how a move names a place on it."""

    CELLS = "cells"
    """A grid where a move names any cell, by column letter and row number (``b2``)."""
    COLUMNS = "columns"
    """A grid of columns where a move names a column by its number (``4``) and the
    stone falls to the lowest free cell."""


class Search(enum.Enum):
    """Which of the engine's searches plays a game: a capability of the game."""

    BITBOARD = "bitboard"
    """The compiled k-in-a-row kernel (bitboards, threat evaluation): exact
    wherever the board can be solved in time."""
    GENERIC = "generic"
    """Alpha-beta over any :class:`~boardroom.shared.games.base.Game`, with the game's own
    evaluation at the horizon: values are estimates unless the game ends within
    the search."""


@dataclass(frozen=True, slots=True)
class SizeOption:
    """One size a family of boards takes (``m`` for the m,n,k games)."""

    name: str
    """The option's key (``m``), as ``get_game(..., m=5)`` and the browser send it."""
    meaning: str
    """What it sizes, for people (``columns``)."""
    low: int
    high: int
    """The inclusive range accepted."""


@dataclass(frozen=True, kw_only=True)
class GameSpec:
    """One game (or family of boards) as the registry offers it.

    ``build`` makes the :class:`~boardroom.shared.games.base.Game`: with no arguments for a
    single game, with every :attr:`sizes` option as a keyword for a family (which
    checks them and raises :class:`~boardroom.shared.errors.GameOptionsError`). A family's
    boards are named ``NAME-A-B-C`` by :attr:`sized_name`'s pattern.
    """

    name: str
    """The game's name on the wire, in the CLI and in stored games (``connect4``)."""
    title: str
    """Its name for people (``Connect Four``)."""
    summary: str
    """What it is, in one line for menus and help (``7 columns by 6 rows, four in a row``)."""
    board: BoardKind
    moves_help: str
    """How a move is written, for people (``a column, 1 to 7``)."""
    endings: tuple[Termination, ...]
    """How its rules can end a game (a subset of :meth:`Termination.of_rules`)."""
    search: Search
    build: Callable[..., Game]
    aliases: tuple[str, ...] = ()
    """Other names people type for it (``c4``); never on the wire."""
    sizes: tuple[SizeOption, ...] = ()
    """Empty for one game; the sizes of a family of boards (m,n,k) otherwise."""
    menu_order: int = 100
    """Where it is listed: lower first (the registry sorts by this, then name)."""
    default: bool = False
    """True for the one game chosen when nobody chose (quick match, ``boardroom
    play --local``, the forms' first choice): see
    :func:`~boardroom.shared.games.registry.default_game`. Menu order is for
    listing (small boards first); which game a person is offered first is this."""
    warm_up: bool = True
    """True if the engine pool prepares its search at start (false for a
    family: each board is prepared when first played)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Facts a client may show (``{"line": 4}``), served as they are."""
    evaluation: Evaluation | None = None
    """The game's heuristic for the generic search (:attr:`Search.GENERIC`), kept
    in a module of its own beside the rules (``othello_evaluation.py``); None:
    the search values only ends of games (every estimate is even). Unused by
    the bitboard kernel, which has its own."""

    @property
    def is_family(self) -> bool:
        """True for a family of boards that takes sizes (``mnk``)."""
        return bool(self.sizes)

    @property
    def sized_name(self) -> str:
        """How a family's board is named, for help (``mnk-M-N-K``); the name of a
        single game."""
        return "-".join([self.name, *(size.name.upper() for size in self.sizes)])

    def describe(self) -> dict[str, Any]:
        """The spec as ``GET /api/games`` serves it (JSON types only)."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "board": self.board.value,
            "moves_help": self.moves_help,
            "endings": [ending.value for ending in self.endings],
            "search": self.search.value,
            "sizes": [
                {"name": s.name, "meaning": s.meaning, "min": s.low, "max": s.high}
                for s in self.sizes
            ],
            **self.extra,
        }
