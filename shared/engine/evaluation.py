"""Heuristic evaluation for depth-limited search: open lines and threats.

An *open line* is a window of ``k`` cells that holds none of the opponent's
stones: a line one could still complete. Windows count for more the fuller they
are. A *threat* is an empty cell that would complete a line; on a gravity board
a threat also counts more on the rows where the zugzwang of the endgame favours
its owner (odd rows, counting from 1, for the first player; even rows for the
second), the classic Connect Four parity rule.

Scores are from the point of view of the player to move, in engine units
(:mod:`boardroom.shared.engine.scores`), and always within ``HEURISTIC_LIMIT``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from boardroom.shared.engine.kernel import SearchKernel, kernel_for
from boardroom.shared.engine.scores import HEURISTIC_LIMIT, POINTS, SCORE_UNIT
from boardroom.shared.games.base import GridGame, Position

Evaluator = Callable[[int, int, int, int], int]
"""``evaluate(cur, opp, opp_wins, ply)``: estimate for the side to move."""

TEMPO_PERCENT = 125
"""The side to move gets this share of its open-line score: it plays first."""
THREAT_POINTS = 3 * POINTS
PARITY_POINTS = 2 * POINTS


def make_evaluator(kernel: SearchKernel) -> Evaluator:
    """The evaluation function for ``kernel``'s game."""
    grid = kernel.grid
    k = grid.k
    # A window with c stones is worth 8**(c-1)/8 points: each stone multiplies it.
    weights = [0] + [(POINTS * 8 ** (c - 1)) // 8 for c in range(1, k + 1)]
    winning_cells = kernel.winning_cells
    board = kernel.board
    odd_rows = 0  # rows 1, 3, 5... counted from 1 at the bottom
    for column in range(grid.width):
        for row in range(0, grid.height, 2):
            odd_rows |= grid.cell(column, row)
    gravity = kernel.gravity

    def open_lines(own: int, other: int) -> int:
        counts = grid.window_counts(own, other)
        return sum(w * n for w, n in zip(weights, counts, strict=True))

    def evaluate(cur: int, opp: int, opp_wins: int, ply: int) -> int:
        score = open_lines(cur, opp) * TEMPO_PERCENT // 100 - open_lines(opp, cur)
        if gravity:
            empty = board & ~(cur | opp)
            cur_wins = winning_cells(cur, empty)
            score += THREAT_POINTS * (cur_wins.bit_count() - opp_wins.bit_count())
            # The player to move at an even ply moved first.
            first_wins, second_wins = (cur_wins, opp_wins) if ply % 2 == 0 else (opp_wins, cur_wins)
            parity = (first_wins & odd_rows).bit_count() - (second_wins & ~odd_rows).bit_count()
            score += PARITY_POINTS * (parity if ply % 2 == 0 else -parity)
        if score > HEURISTIC_LIMIT:
            return HEURISTIC_LIMIT
        if score < -HEURISTIC_LIMIT:
            return -HEURISTIC_LIMIT
        return score

    return evaluate


@functools.cache
def evaluator_for(kernel: SearchKernel) -> Evaluator:
    """The (cached) evaluation function of ``kernel``'s game."""
    return make_evaluator(kernel)


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
    if not kernel.safe_moves(occupied, opp_wins):
        return -(half - (ply + 1) // 2) * SCORE_UNIT
    if ply >= kernel.cells - 2:
        return 0
    low = -(half - (ply + 3) // 2) * SCORE_UNIT
    high = (half - (ply + 2) // 2) * SCORE_UNIT
    estimate = evaluator_for(kernel)(cur, opp, opp_wins, ply)
    return max(low, min(high, estimate))
