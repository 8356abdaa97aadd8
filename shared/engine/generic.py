"""The generic search: alpha-beta over any :class:`~shared.games.Game`, for games
the bitboard kernel does not know (their spec says :attr:`Search.GENERIC`: Othello).

It reads the game only through the :class:`~shared.games.Game` interface
(``legal_moves``, ``play_unchecked``, ``outcome``, ``to_move``,
``position_key``), and the game's own evaluation (:attr:`GameSpec.evaluation
<shared.games.spec.GameSpec.evaluation>`, in points) at its horizon. The
algorithm is the textbook one, kept small:

- negamax with alpha-beta, fail-soft;
- iterative deepening up to the plan's depth under its deadline
  (:func:`search_position`), the root moves re-ordered by the last depth's scores;
- move ordering: the transposition table's move, then the moves that caused
  cut-offs elsewhere (history), then, a few plies from the horizon, the static
  value of the position each move leads to;
- a transposition table keyed by :meth:`~shared.games.Game.position_key` (the
  stones and the side to move), holding bounds, the best move, and whether the
  bounds are exact: a subtree searched to the end of every line with no
  evaluation at a horizon holds proven values, which any later depth may reuse.

Scores are those of :mod:`shared.engine.scores`: an ended game is scored like a
line on a grid, ``(half + 1 - the winner's moves) * SCORE_UNIT`` with ``half``
half of :attr:`~shared.games.Game.max_plies` (a faster win scores higher), 0
for a draw; an evaluation lies strictly within one unit. A result is *exact*
only where every line was searched to the end of the game (no evaluation was
used), or is a win or loss the search saw to the end: everywhere else it is an
estimate, and :class:`~shared.engine.search.SearchResult` says so.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from shared.engine.levels import SearchPlan
from shared.engine.scores import HEURISTIC_LIMIT, INFINITY, POINTS, SCORE_UNIT, is_decisive
from shared.errors import UnknownGameError
from shared.games import Game, GridGame, Move, Position, spec_for
from shared.games.spec import Evaluation, Search

CHECK_EVERY = 64
"""Nodes between looks at the clock: a few milliseconds of Othello in CPython."""
TABLE_MAX_ENTRIES = 500_000
"""The table is cleared when it grows past this; a move's budget stays far below."""
ORDER_MIN_DEPTH = 2
"""From this many plies above the horizon, children are ordered by their static
value too (an evaluation each): below it, ordering costs more than it saves."""
PROVEN_DEPTH = 1 << 10
"""The depth stored with a proven (exact) entry: deeper than any search asks."""


class SearchInterrupted(Exception):  # noqa: N818 - a signal, not an error
    """The deadline ran out; carries the best (move, score) finished at the root."""


def uses_generic_search(game: Game) -> bool:
    """True if ``game`` is played by this search rather than the bitboard kernel:
    its spec says :attr:`Search.GENERIC`, or it is not a registered game and not
    a :class:`~shared.games.GridGame`."""
    try:
        return spec_for(game).search is Search.GENERIC
    except UnknownGameError:
        return not isinstance(game, GridGame)


def evaluation_of(game: Game) -> Evaluation | None:
    """The game's evaluation hook, from its spec (None: every estimate is even)."""
    try:
        return spec_for(game).evaluation
    except UnknownGameError:
        return None


def terminal_score(game: Game, position: Position) -> int:
    """The exact score of an ended ``position`` for the player to move (see the
    module docstring)."""
    winner = game.outcome(position).winner
    if winner is None:
        return 0
    half = (game.max_plies + 1) // 2
    ply = position.ply
    if winner is game.to_move(position):
        return (half + 1 - ply // 2) * SCORE_UNIT
    return -(half + 1 - (ply + 1) // 2) * SCORE_UNIT


def static_score(game: Game, position: Position, evaluation: Evaluation | None) -> int:
    """The evaluation of an ongoing ``position`` in engine units, within the
    heuristic range (:data:`~shared.engine.scores.HEURISTIC_LIMIT`)."""
    if evaluation is None:
        return 0
    score = round(evaluation(game, position) * POINTS)
    return max(-HEURISTIC_LIMIT, min(HEURISTIC_LIMIT, score))


class GenericSearcher:
    """Searches positions of one game; keeps its table and history between calls.

    ``deadline`` is a ``time.perf_counter`` value; past it the search raises
    :class:`SearchInterrupted`. ``leaf_evaluations`` counts the estimates used
    since it was last reset (0 after a search: the result is proven).
    """

    def __init__(
        self,
        game: Game,
        *,
        deadline: float | None = None,
        evaluation: Evaluation | None = None,
    ) -> None:
        self.game = game
        self.evaluation = evaluation
        self.deadline = deadline
        self.table: dict[object, tuple[int, int, int, Move | None, bool]] = {}
        self.history: dict[Move, int] = {}
        self.nodes = 0
        self.leaf_evaluations = 0

    def _check_limits(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchInterrupted("deadline")
        if len(self.table) > TABLE_MAX_ENTRIES:
            self.table.clear()

    def static(self, position: Position) -> int:
        """The evaluation of an ongoing position, in engine units."""
        return static_score(self.game, position, self.evaluation)

    def negamax(self, position: Position, alpha: int, beta: int, depth: int) -> int:
        """The value of ``position`` for the player to move within (alpha, beta),
        searched ``depth`` plies deep (fail-soft: a result <= alpha is an upper
        bound, >= beta a lower bound)."""
        self.nodes += 1
        if not self.nodes % CHECK_EVERY:
            self._check_limits()
        game = self.game
        moves = game.legal_moves(position)
        if not moves:
            return terminal_score(game, position)
        if depth <= 0:
            self.leaf_evaluations += 1
            return self.static(position)

        key = game.position_key(position)
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            low, high, stored_depth, table_move, proven = entry
            if stored_depth >= depth and (low >= beta or high <= alpha or low == high):
                if not proven:
                    self.leaf_evaluations += 1  # an estimate, reused
                return low if low >= beta or low == high else high

        estimates_before = self.leaf_evaluations
        children = self._ordered(position, moves, table_move, depth)
        window_low = alpha
        best, best_move = -INFINITY, children[0][1]
        for _, move, child in children:
            score = -self.negamax(child, -beta, -alpha, depth - 1)
            if score > best:
                best, best_move = score, move
                if score >= beta:
                    self.history[move] = self.history.get(move, 0) + depth * depth
                    break
                alpha = max(alpha, score)

        proven = self.leaf_evaluations == estimates_before
        low, high = best, best
        if best <= window_low:
            low = -INFINITY
        elif best >= beta:
            high = INFINITY
        self.table[key] = (low, high, PROVEN_DEPTH if proven else depth, best_move, proven)
        return best

    def _ordered(
        self, position: Position, moves: list[Move], table_move: Move | None, depth: int
    ) -> list[tuple[int, Move, Position]]:
        """The children of ``position``, most promising first."""
        game, history = self.game, self.history
        children = []
        for index, move in enumerate(moves):
            child = game.play_unchecked(position, move)
            if move == table_move:
                order = INFINITY
            else:
                order = history.get(move, 0) * SCORE_UNIT - index
                if depth >= ORDER_MIN_DEPTH and self.evaluation is not None:
                    order -= self.static(child)
            children.append((order, move, child))
        children.sort(key=lambda child: -child[0])
        return children

    def ordered_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """``moves`` most promising first, by the static value of where they lead."""
        return [move for _, move, _ in self._ordered(position, moves, None, ORDER_MIN_DEPTH)]

    def table_move(self, position: Position) -> Move | None:
        """The best move the table holds for ``position``, or None."""
        entry = self.table.get(self.game.position_key(position))
        return entry[3] if entry is not None else None

    def principal_variation(self, position: Position, first: Move, limit: int) -> tuple[Move, ...]:
        """The table's line from ``position``, starting with ``first`` (at most ``limit`` moves)."""
        game = self.game
        line: list[Move] = []
        move: Move | None = first
        while move is not None and len(line) < limit and move in game.legal_moves(position):
            line.append(move)
            position = game.play_unchecked(position, move)
            move = self.table_move(position)
        return tuple(line)


@dataclass(frozen=True, slots=True)
class Found:
    """What :func:`search_position` found: the move, its score for the player to
    move, whether it is proven, the expected line, the nodes and the deepest
    finished iteration."""

    move: Move
    score: int
    exact: bool
    pv: tuple[Move, ...]
    nodes: int
    depth: int


def search_position(
    game: Game, position: Position, plan: SearchPlan, *, rng: random.Random, deadline: float | None
) -> Found:
    """Carry out ``plan`` on an ongoing ``position`` (see the module docstring).

    A plan with an exact share (``perfect``, :func:`~shared.engine.search.solve`)
    deepens as far as the game can last; any other stops at the plan's depth.
    With a margin (the varied levels), every root move is scored with a full
    window and one among the near-best is picked with ``rng``.
    """
    moves = game.legal_moves(position)
    if plan.random:
        return Found(rng.choice(moves), 0, False, (), 0, 0)
    searcher = GenericSearcher(game, deadline=deadline, evaluation=evaluation_of(game))
    order = searcher.ordered_moves(position, moves)
    remaining = game.max_plies - position.ply
    limit = max(plan.depth, remaining) if plan.exact_share > 0 else min(plan.depth, remaining)
    best_move, best_score, reached, exact = order[0], 0, 0, False
    scores: dict[Move, int] = {}
    for depth in range(1, limit + 1):
        searcher.leaf_evaluations = 0
        try:
            found = _search_root(searcher, position, order, depth, full_window=plan.margin > 0)
        except SearchInterrupted as stop:
            if stop.args[1:] and stop.args[1] is not None:
                best_move, best_score = stop.args[1]
            break
        scores = found
        best_move = max(order, key=lambda m: (scores[m], -order.index(m)))
        best_score = scores[best_move]
        reached = depth
        exact = searcher.leaf_evaluations == 0 or is_decisive(best_score)
        if exact:
            break
        order.sort(key=lambda m: -scores[m])
    if plan.margin > 0 and scores and not exact:
        top = max(scores.values())
        best_move = rng.choice([m for m in order if scores[m] >= top - plan.margin])
        best_score = scores[best_move]
    pv = searcher.principal_variation(position, best_move, max(reached, 1))
    return Found(best_move, best_score, exact, pv, searcher.nodes, reached)


def _search_root(
    searcher: GenericSearcher,
    position: Position,
    order: list[Move],
    depth: int,
    *,
    full_window: bool,
) -> dict[Move, int]:
    """Scores of the root moves at ``depth``: each exact for that depth with
    ``full_window``, else only the best (the rest are upper bounds). On
    interruption, :class:`SearchInterrupted` carries the best (move, score)
    finished at this depth if more than one move was."""
    game = searcher.game
    scores: dict[Move, int] = {}
    alpha = -INFINITY
    best: tuple[Move, int] | None = None
    for move in order:
        child = game.play_unchecked(position, move)
        low = -INFINITY if full_window else alpha
        try:
            score = -searcher.negamax(child, -INFINITY, -low, depth - 1)
        except SearchInterrupted:
            raise SearchInterrupted("deadline", best if len(scores) > 1 else None) from None
        scores[move] = score
        if score > alpha:
            alpha, best = score, (move, score)
    return scores


def solve_position(game: Game, position: Position) -> int:
    """The exact score of an ongoing ``position`` for the player to move, searched
    to the end of every line however long it takes (engine units)."""
    searcher = GenericSearcher(game)
    return searcher.negamax(position, -INFINITY, INFINITY, game.max_plies)
