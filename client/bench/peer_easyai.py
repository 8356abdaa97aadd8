"""easyAI, the peer engine of ``boardroom bench engine``: Connect Four for its search.

easyAI (PyPI ``easyAI``) is a pure-Python game library: negamax with alpha-beta and
an optional transposition table over any game written to its ``TwoPlayerGame``
interface. Importing this module raises :class:`ImportError` if it is not installed.

Two games are given to the same search:

- :class:`BitboardConnectFour`, the peer of record: bitboards in the layout of the
  standard solvers, moves undone in place (``unmake_move``), centre columns first,
  and a table key (``ttentry``), so that the time measured is easyAI's search, not
  the board code around it;
- easyAI's own ``easyAI.games.ConnectFour``, for reference (:func:`solve_stock`).
  It keeps the board in a numpy array, scans all 69 lines for a four at every node,
  has no ``unmake_move`` (the search deep-copies the game at every move) and no
  ``ttentry`` (so no table): it measures numpy and copying more than search.

Both are solved with :class:`easyAI.Negamax` searching to the end of the game with
``win_score`` set to the smallest win, which makes the window (-1, 1) in stone
units: a win/draw/loss solve, the fastest of easyAI's solving modes on these
positions. The result is the sign of the score for the player to move; easyAI's
scores carry a depth bonus (``score * (1 + 0.001 * depth)``), not the exact stone
scale of the test sets.

Each solve runs under a :class:`Budget`: easyAI has no clock of its own, so the
games count their moves and check the time, raising :class:`PeerTimeout` from
inside the search.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from typing import Any

from easyAI import AI_Player, Negamax, TranspositionTable, TwoPlayerGame

WIDTH = 7
HEIGHT = 6
STRIDE = HEIGHT + 1
"""Bits per column: the spare top bit keeps lines from wrapping into the next column."""
CELLS = WIDTH * HEIGHT
HALF = CELLS // 2
"""Stones each player has: a win with the n-th stone scores ``HALF + 1 - n``."""
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
"""Columns (0-based), most central first: the order the standard solvers try them."""
LINE_SHIFTS = (1, STRIDE, STRIDE - 1, STRIDE + 1)
"""Bit distance between neighbours: vertical, horizontal and the two diagonals."""


def version() -> str:
    """The installed easyAI version."""
    try:
        return package_version("easyAI")
    except PackageNotFoundError:  # imported from a source tree
        return "unknown version"


class PeerTimeout(Exception):  # noqa: N818 - a signal, not an error
    """The budget of one solve ran out; raised from inside easyAI's search."""


class Budget:
    """The deadline and move count of one solve, shared by every copy of the game.

    easyAI deep-copies games that cannot undo moves; :meth:`__deepcopy__` returns
    the budget itself so that every copy counts towards, and checks, the same clock.
    The clock is read every ``check_every`` moves: reading it costs about as much
    as a move of the bitboard game.
    """

    def __init__(self, seconds: float, *, check_every: int = 1024) -> None:
        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds
        self.check_every = check_every
        self.moves = 0

    def tick(self) -> None:
        self.moves += 1
        if not self.moves % self.check_every and time.perf_counter() > self.deadline:
            raise PeerTimeout(f"no result within {self.seconds:g} s")

    def __deepcopy__(self, memo: dict[int, Any]) -> Budget:
        return self


class BitboardConnectFour(TwoPlayerGame):  # type: ignore[misc]
    """Connect Four in easyAI's interface, built for speed.

    ``stones[0]`` holds the first player's stones, ``stones[1]`` the second's; the
    cell of column ``c`` and row ``r`` (0 at the bottom) is bit ``c * STRIDE + r``.
    easyAI numbers the players 1 and 2 in ``current_player``.
    """

    def __init__(self, moves: str, budget: Budget) -> None:
        self.players = [AI_Player(None), AI_Player(None)]
        self.current_player = 1
        self.stones = [0, 0]
        self.heights = [0] * WIDTH
        self.ply = 0
        self.budget = budget
        for column in moves:
            self.make_move(int(column) - 1)
            self.switch_player()
        budget.moves = 0

    def possible_moves(self) -> list[int]:
        heights = self.heights
        return [column for column in CENTRE_FIRST if heights[column] < HEIGHT]

    def make_move(self, column: int) -> None:
        self.budget.tick()
        self.stones[self.current_player - 1] |= 1 << (column * STRIDE + self.heights[column])
        self.heights[column] += 1
        self.ply += 1

    def unmake_move(self, column: int) -> None:
        # easyAI switches the player back before undoing: the mover is current again.
        self.heights[column] -= 1
        self.ply -= 1
        self.stones[self.current_player - 1] ^= 1 << (column * STRIDE + self.heights[column])

    def lose(self) -> bool:
        """True if the opponent, who just moved, has four in a row."""
        stones = self.stones[self.opponent_index - 1]
        for shift in LINE_SHIFTS:
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    def is_over(self) -> bool:
        return self.ply == CELLS or self.lose()

    def scoring(self) -> int:
        """The stone score of a finished game for the player to move: negative if lost."""
        if self.lose():
            return -(HALF + 1 - (self.ply + 1) // 2)
        return 0

    def ttentry(self) -> int:
        return self.stones[0] | (self.stones[1] << (WIDTH * STRIDE))


@dataclass(frozen=True, slots=True)
class PeerResult:
    """One solve by easyAI: ``result`` is 1, 0 or -1 (win, draw, loss for the player
    to move), or None if the budget ran out first; ``moves`` counts the moves its
    search made (about the nodes it visited)."""

    result: int | None
    seconds: float
    moves: int

    @property
    def finished(self) -> bool:
        return self.result is not None


def _sign(score: float) -> int:
    return (score > 0) - (score < 0)


def solve_bitboard(moves: str, budget_seconds: float) -> PeerResult:
    """Solve the position after ``moves`` (``"4453"``) with easyAI on the bitboard game."""
    budget = Budget(budget_seconds)
    game = BitboardConnectFour(moves, budget)
    # Stone scores are whole numbers, so a window of (-1, 1) separates win, draw and loss.
    ai = Negamax(CELLS - game.ply, win_score=1, tt=TranspositionTable())
    return _timed(ai, game, budget)


def solve_stock(moves: str, budget_seconds: float) -> PeerResult:
    """Solve the position after ``moves`` with easyAI's own ConnectFour (needs numpy)."""
    from easyAI.games.ConnectFour import ConnectFour

    class TimedConnectFour(ConnectFour):  # type: ignore[misc]
        # easyAI's game unchanged, but counting its moves against the budget.
        def make_move(self, column: int) -> None:
            self.budget.tick()
            super().make_move(column)

    budget = Budget(budget_seconds, check_every=16)  # its moves take ~0.1 ms each
    game = TimedConnectFour([AI_Player(None), AI_Player(None)])
    game.budget = budget
    for column in moves:
        game.make_move(int(column) - 1)
        game.switch_player()
    budget.moves = 0
    # Its scoring is -100 for a loss and 0 otherwise, so the smallest win is 100.
    ai = Negamax(CELLS - len(moves), win_score=100)
    return _timed(ai, game, budget)


def _timed(ai: Any, game: Any, budget: Budget) -> PeerResult:
    budget.deadline = time.perf_counter() + budget.seconds
    started = time.perf_counter()
    try:
        ai(game)
    except PeerTimeout:
        return PeerResult(None, time.perf_counter() - started, budget.moves)
    return PeerResult(_sign(ai.alpha), time.perf_counter() - started, budget.moves)
