"""Plain minimax: the classic algorithm, kept readable, as reference and test oracle.

It walks every move of every position through the public :class:`~shared.games.Game`
interface, with no pruning, no table and no move ordering, and counts the nodes
it visits. From the empty tic-tac-toe board it visits the whole game tree,
549,946 nodes. With a ``depth`` it stops at the horizon and scores the position
there with :func:`horizon_value`, which the production search also applies at its
horizon, so the two can be compared value for value at the same depth.

Scores are those of :mod:`shared.engine.scores`, for the player to move.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.engine.evaluation import make_evaluator
from shared.engine.kernel import kernel_for
from shared.engine.scores import SCORE_UNIT, half_cells
from shared.games.base import GridGame, Move, Position, Status


@dataclass(frozen=True, slots=True)
class MinimaxResult:
    """Value for the player to move, a best move (None at a leaf), nodes visited."""

    score: int
    move: Move | None
    nodes: int


def minimax(game: GridGame, position: Position, *, depth: int | None = None) -> MinimaxResult:
    """The minimax value of ``position``, searching every line to the end of the
    game, or to ``depth`` plies and :func:`horizon_value` there."""
    nodes = 0

    def value(node: Position, remaining: int | None) -> tuple[int, Move | None]:
        nonlocal nodes
        nodes += 1
        outcome = game.outcome(node)
        if outcome.status is Status.WIN:
            # The player who just moved made a line: the player to move has lost.
            winner_stones = (node.ply + 1) // 2
            return -(half_cells(game.grid.cells) + 1 - winner_stones) * SCORE_UNIT, None
        if outcome.status is Status.DRAW:
            return 0, None
        if remaining == 0:
            return horizon_value(game, node), None
        best_score, best_move = None, None
        for move in game.legal_moves(node):
            child = game.play_unchecked(node, move)
            child_score, _ = value(child, None if remaining is None else remaining - 1)
            if best_score is None or -child_score > best_score:
                best_score, best_move = -child_score, move
        assert best_score is not None  # an ongoing game always has a legal move
        return best_score, best_move

    score, move = value(position, depth)
    return MinimaxResult(score, move, nodes)


def horizon_value(game: GridGame, position: Position) -> int:
    """The value of an ongoing position where a depth-limited search stops.

    What is certain without searching comes first: a win on the next move, a loss
    to two threats (or, with gravity, to a threat we would have to play under),
    a draw when too few cells are left for anyone to finish a line. Otherwise the
    heuristic evaluation, kept within the scores still possible.
    """
    kernel = kernel_for(game)
    ply = position.ply
    cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
    occupied = cur | opp
    empty = kernel.board & ~occupied
    half = kernel.half
    playable = kernel.playable(occupied)
    if kernel.winning_cells(cur, empty) & playable:
        return (half - ply // 2) * SCORE_UNIT
    opp_wins = kernel.winning_cells(opp, empty)
    forced = playable & opp_wins
    moves = forced if forced else playable
    if kernel.gravity:
        moves &= ~(opp_wins >> 1)
    if forced & (forced - 1) or not moves:
        return -(half - (ply + 1) // 2) * SCORE_UNIT
    if ply >= kernel.cells - 2:
        return 0
    low = -(half - (ply + 3) // 2) * SCORE_UNIT
    high = (half - (ply + 2) // 2) * SCORE_UNIT
    estimate = make_evaluator(kernel)(cur, opp, opp_wins, ply)
    return max(low, min(high, estimate))
