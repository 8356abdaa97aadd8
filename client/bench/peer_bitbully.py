"""bitbully, the C++ peer of ``boardroom bench engine`` and the judge of reviews.

bitbully (PyPI ``bitbully``, MIT) is a Connect Four solver written in C++ and
bound to Python with pybind11: bitboards, MTD(f) over null-window searches, a
transposition table, and optionally an opening book (the 12-stone database of
``bitbully-databases``, with win distances). Its scores are on our stone scale
(positive: the player to move wins; the sets' scale). Importing this module
raises :class:`ImportError` if bitbully is not installed.

:class:`BitbullySolver` solves one position at a time the way the bench solves
ours: the transposition table is cleared and the node counter zeroed before each
position, outside the timed part (clearing bitbully's table takes about 40 ms,
which would swamp end-game positions solved in microseconds), and only the
``mtdf`` call is timed.

Note: ``BoardCore.play`` takes **0-based** columns, also in its string form
(``play("0")`` drops a stone in the leftmost column, ``play("7")`` fails), so
moves are handed over as a list of 0-based ints.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

# Imported by name: bitbully ships no type information, and this keeps mypy's view of
# it (Any) the same whether or not pyproject.toml lists it among untyped modules.
bbc = importlib.import_module("bitbully.bitbully_core")

BOOK_NAME = "book_12ply_distances.dat"
"""The book bitbully is given for the "with its book" line: every position of
up to 12 stones with its exact value and win distance (bitbully-databases)."""


def version() -> str:
    """The installed bitbully version."""
    try:
        return package_version("bitbully")
    except PackageNotFoundError:  # imported from a source tree
        return "unknown version"


def book_path() -> Path | None:
    """The 12-stone book of bitbully-databases, or None if that is not installed."""
    try:
        databases = importlib.import_module("bitbully_databases")
    except ImportError:
        return None
    if databases.__file__ is None:  # a namespace package: not the installed one
        return None
    path = Path(databases.__file__).resolve().parent / "assets" / BOOK_NAME
    return path if path.is_file() else None


def board(moves: str) -> Any:
    """bitbully's board after ``moves`` (1-based columns, as the test sets write them).

    Raises ValueError if bitbully refuses a move (a full column, or a move after a
    four)."""
    core = bbc.BoardCore()
    if moves and not core.play([int(column) - 1 for column in moves]):
        raise ValueError(f"bitbully refused the moves {moves!r}")
    return core


@dataclass(frozen=True, slots=True)
class PeerSolve:
    """bitbully's exact score of one position, its nodes and the seconds it took."""

    score: int
    nodes: int
    seconds: float


class BitbullySolver:
    """One bitbully solver, with or without its opening book (see the module docstring)."""

    def __init__(self, book: Path | None = None) -> None:
        began = time.perf_counter()
        self.core = bbc.BitBullyCore(book) if book is not None else bbc.BitBullyCore()
        self.load_seconds = time.perf_counter() - began
        """Construction, book loading included (about 0.2 s with the 12-stone book)."""
        self.with_book = book is not None and bool(self.core.isBookLoaded())

    def solve(self, moves: str) -> PeerSolve:
        """The exact stone score of the position after ``moves`` for the player to
        move, from a cleared table, and the nodes bitbully counted for it."""
        position = board(moves)
        self.core.resetTranspositionTable()
        self.core.resetNodeCounter()
        began = time.perf_counter()
        score = self.core.mtdf(position, 0)
        seconds = time.perf_counter() - began
        return PeerSolve(int(score), int(self.core.getNodeCounter()), seconds)

    def score_moves(self, moves: str) -> list[int]:
        """bitbully's ``scoreMoves``: the score of each column (0-based index) for
        the player to move, as bitbully returns them (see its documentation for
        full columns)."""
        return [int(score) for score in self.core.scoreMoves(board(moves))]
