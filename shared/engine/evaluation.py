"""Heuristic evaluation for depth-limited search: open lines and threats.

An *open line* is a window of ``k`` cells that holds none of the opponent's
stones: a line one could still complete. Windows count for more the fuller they
are. A *threat* is an empty cell that would complete a line; on a gravity board
a threat also counts more on the rows where the zugzwang of the endgame favours
its owner (odd rows, counting from 1, for the first player; even rows for the
second), the classic Connect Four parity rule.

Scores are from the point of view of the player to move, in engine units
(:mod:`shared.engine.scores`), and always within ``HEURISTIC_LIMIT``.
"""

from __future__ import annotations

from collections.abc import Callable

from shared.engine.kernel import SearchKernel
from shared.engine.scores import HEURISTIC_LIMIT, POINTS

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
