"""The production search: negamax with alpha-beta and a transposition table.

One node function serves two modes:

- *exact* (``depth=EXACT_DEPTH``): search to the end of the game. The solver
  (:meth:`Searcher.solve`) drives it with null windows, halving the interval of
  possible stone scores each time, as the Connect Four solver literature does;
- *depth-limited*: iterative deepening (:meth:`Searcher.deepen`) with the
  heuristic evaluation at the horizon, under a deadline.

What every node does, in order (the tricks are those of the bitboard Connect Four
solvers, generalised to any board):

1. Invariant: the side to move cannot win at once. The parent only plays moves
   that leave no immediate win for the child (it blocks, and on gravity boards it
   never plays under an opponent's winning cell), and the root checks wins first.
2. Forced moves: if the opponent has two immediate wins we lose next move; if one,
   we must block it.
   On Connect Four, exact search stops at 12 stones and takes the position's
   value from the opening database (:mod:`boardroom.shared.engine.opening_database`).
3. Score bounds from the clock of stones: nobody can win before their second
   stone from now, which narrows the window before anything is searched.
4. Transposition table: stored lower/upper bounds narrow the window further; the
   stored best move is tried first.
5. Move ordering: table move, then moves by the number of winning cells they
   create (threats), then history (moves that caused cut-offs elsewhere), then
   centre first. The threat sets computed for ordering are handed to the child,
   which needs exactly them for step 2.

Scores prefer the fastest win and the slowest loss (see :mod:`boardroom.shared.engine.scores`).

This is the readable reference. Exact mode is also compiled, step for step, in
:mod:`boardroom.shared.engine.native` (numba, uint64 bitboards, a numpy table): its
:class:`~boardroom.shared.engine.native.NativeSearcher` subclasses :class:`Searcher` and
replaces only :meth:`Searcher.negamax`, and visits the same nodes. A change to
the exact search here must be made there too; the tests compare node counts.
"""

from __future__ import annotations

import time

from boardroom.shared.engine import opening_database as database
from boardroom.shared.engine.evaluation import Evaluator, evaluator_for
from boardroom.shared.engine.kernel import SearchKernel
from boardroom.shared.engine.scores import INFINITY, SCORE_UNIT

EXACT_DEPTH = 1 << 10
"""Depth used for search to the end of the game: more plies than any board has."""
TABLE_MAX_ENTRIES = 2_000_000
"""The table is cleared when it grows past this (about 400 MB); searches under the
engine's time budgets stay far below it."""
CHECK_EVERY = 256
"""Nodes between looks at the clock: 1-2 ms of Connect Four search in CPython, about
10 ms on a gomoku board, where the evaluation at the horizon costs more."""


class SearchInterrupted(Exception):  # noqa: N818 - a signal, not an error
    """The deadline or node budget ran out; the search unwinds to its caller."""


class Searcher:
    """Searches one position of one game; keeps its table between calls.

    Not thread-safe; one per search task. ``deadline`` is a ``time.perf_counter``
    value, ``max_nodes`` a node budget; either raises :class:`SearchInterrupted`
    from inside the search, which callers catch and fall back on what they have.
    ``opening_database=False`` makes exact search on Connect Four search through
    12 stones instead of asking the database (to check the database, or time
    the search itself).
    """

    def __init__(
        self,
        kernel: SearchKernel,
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
        opening_database: bool = True,
    ) -> None:
        self.kernel = kernel
        self.evaluate: Evaluator = evaluator_for(kernel)
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.nodes = 0
        self.leaf_evaluations = 0
        self.deadline = deadline
        self.max_nodes = max_nodes
        grid = kernel.grid
        self.uses_database = opening_database and database.applies_to(
            grid.width, grid.height, grid.k, gravity=kernel.gravity
        )
        """True if exact search asks the database at 12 stones (it is loaded on the
        first such node; without it, the search goes on as if this were False)."""

    # -- limits ------------------------------------------------------------------

    def _check_limits(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchInterrupted("deadline")
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchInterrupted("node budget")
        if len(self.table) > TABLE_MAX_ENTRIES:
            self.table.clear()

    # -- the node --------------------------------------------------------------------

    def negamax(
        self, cur: int, opp: int, opp_wins: int, ply: int, alpha: int, beta: int, depth: int
    ) -> int:
        """The value of the position for ``cur``, the side to move, within (alpha, beta).

        ``opp_wins`` must be the cells where ``opp`` would complete a line, and
        ``cur`` must have no playable winning cell (see the module docstring).
        Fail-soft: a result <= alpha is an upper bound, >= beta a lower bound.
        """
        self.nodes += 1
        if not self.nodes % CHECK_EVERY:
            self._check_limits()
        kernel = self.kernel
        half = kernel.half
        occupied = cur | opp

        # 2. Forced moves.
        moves = kernel.safe_moves(occupied, opp_wins)
        if not moves:
            return -(half - (ply + 1) // 2) * SCORE_UNIT
        if ply >= kernel.cells - 2:
            return 0  # neither side can complete a line in the last two moves
        if ply == database.PLIES and self.uses_database and depth >= EXACT_DEPTH // 2:
            stones = database.lookup(cur, opp)
            if stones is not None:
                return stones * SCORE_UNIT  # exact: a bound on both sides of any window

        # 3. Bounds from the stones left.
        low = -(half - (ply + 3) // 2) * SCORE_UNIT
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (half - (ply + 2) // 2) * SCORE_UNIT
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta

        # 4. Table.
        key = kernel.key(cur, opp)
        entry = self.table.get(key)
        table_move = 0
        if entry is not None:
            entry_low, entry_high, entry_depth, table_move = entry
            if entry_depth >= depth:
                if entry_low > alpha:
                    alpha = entry_low
                    if alpha >= beta:
                        return alpha
                if entry_high < beta:
                    beta = entry_high
                    if alpha >= beta:
                        return beta

        if depth <= 0:
            self.leaf_evaluations += 1
            estimate = self.evaluate(cur, opp, opp_wins, ply)
            return low if estimate < low else high if estimate > high else estimate

        # 5. Children, best first.
        empty = kernel.board & ~occupied
        winning_cells = kernel.winning_cells
        # History only orders depth-limited search: in exact search the threat
        # count orders better, and mixing history in doubled the solver's nodes.
        history = self.history if depth < EXACT_DEPTH // 2 else _NO_HISTORY
        children = []
        for bit in kernel.candidates(moves, occupied):
            mine = cur | bit
            threats = winning_cells(mine, empty ^ bit)
            if bit == table_move:
                order = INFINITY
            else:
                order = (threats.bit_count() << 32) + history.get(bit, 0)
            children.append((order, bit, mine, threats))
        children.sort(key=_first, reverse=True)

        window_low = alpha
        best = -INFINITY
        best_bit = 0
        for _, bit, mine, threats in children:
            score = -self.negamax(opp, mine, threats, ply + 1, -beta, -alpha, depth - 1)
            if score > best:
                best = score
                best_bit = bit
                if score >= beta:
                    if history is not _NO_HISTORY:
                        history[bit] = history.get(bit, 0) + depth * depth
                    break
                if score > alpha:
                    alpha = score

        if best <= window_low:
            bounds = (-INFINITY, best)
        elif best >= beta:
            bounds = (best, INFINITY)
        else:
            bounds = (best, best)
        if entry is not None and entry[2] == depth:
            bounds = (max(bounds[0], entry[0]), min(bounds[1], entry[1]))
        self.table[key] = (bounds[0], bounds[1], depth, best_bit)
        return best

    def table_move(self, cur: int, opp: int) -> int:
        """The best move the table holds for the position (a single bit), or 0."""
        entry = self.table.get(self.kernel.key(cur, opp))
        return entry[3] if entry is not None else 0

    # -- roots ---------------------------------------------------------------------

    def child_threats(self, cur: int, opp: int, bit: int) -> int:
        """Winning cells of ``cur`` after it plays ``bit``: the child's ``opp_wins``."""
        kernel = self.kernel
        occupied = cur | opp | bit
        return kernel.winning_cells(cur | bit, kernel.board & ~occupied)

    def score_move(
        self, cur: int, opp: int, ply: int, bit: int, alpha: int, beta: int, depth: int
    ) -> int:
        """The value for ``cur`` of playing ``bit``, searched within (alpha, beta).

        ``bit`` must not win at once (the caller checks immediate wins first).
        """
        mine = cur | bit
        threats = self.child_threats(cur, opp, bit)
        return -self.negamax(opp, mine, threats, ply + 1, -beta, -alpha, depth - 1)

    def solve(self, cur: int, opp: int, ply: int, *, low: int, high: int) -> int:
        """The exact stone score of a position with no immediate win for ``cur``,
        known to lie in [low, high], by null-window bisection.

        Each probe asks "is the score above ``probe``?"; probes lean towards 0
        first because short wins and draws are cheap to prove.
        """
        kernel = self.kernel
        opp_wins = kernel.winning_cells(opp, kernel.board & ~(cur | opp))
        while low < high:
            probe = low + (high - low) // 2
            if probe <= 0 and low // 2 < probe:
                probe = low // 2
            elif probe >= 0 and high // 2 > probe:
                probe = high // 2
            at = probe * SCORE_UNIT
            result = self.negamax(cur, opp, opp_wins, ply, at, at + 1, EXACT_DEPTH)
            # Fail-soft results are whole stone scores and may jump past the probe.
            if result <= at:
                high = result // SCORE_UNIT
            else:
                low = result // SCORE_UNIT
        return low


_NO_HISTORY: dict[int, int] = {}


def _first(child: tuple[int, int, int, int]) -> int:
    return child[0]
