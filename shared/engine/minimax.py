"""Plain minimax: the classic algorithm, kept readable, as reference and test oracle.

It walks every move of every position through the public :class:`~boardroom.shared.games.Game`
interface, with no pruning, no table and no move ordering, and counts the nodes
it visits. From the empty tic-tac-toe board it visits the whole game tree,
549,946 nodes. With a ``depth`` it stops at the horizon and scores the position
there with :func:`horizon_value`, which the production search also applies at its
horizon, so the two can be compared value for value at the same depth.

Scores are those of :mod:`boardroom.shared.engine.scores`, for the player to move.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardroom.shared.engine.evaluation import horizon_value
from boardroom.shared.engine.scores import SCORE_UNIT, half_cells
from boardroom.shared.games.base import GridGame, Move, Position, Status

__all__ = ["MinimaxResult", "horizon_value", "minimax"]


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
