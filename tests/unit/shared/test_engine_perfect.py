"""The perfect level keeps the game's value: on positions of the standard
Connect Four test sets (data/connect4, exact scores), its move leaves the
opponent exactly the opposite score: a win as fast, a loss as slow, a draw a
draw (checked by exact solves)."""

from __future__ import annotations

import pytest
from repo_paths import REPO_ROOT

from shared.engine import search, solve
from shared.games import GridGame, get_game

SAMPLE = 8
"""Positions per set: each move is a real perfect-level search (native solver)."""


def sample(name: str) -> list[tuple[str, int]]:
    lines = (REPO_ROOT / "data" / "connect4" / name).read_text().splitlines()[:SAMPLE]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


CASES = [
    (name, *case) for name in ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2") for case in sample(name)
]


@pytest.mark.parametrize(("test_set", "moves", "score"), CASES)
def test_perfects_move_keeps_the_exact_value(test_set: str, moves: str, score: int) -> None:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    position = game.from_moves(moves)

    played = search(game, position, level="perfect")

    child = game.play(position, played.move)
    outcome = game.outcome(child)
    if outcome.is_over:  # it won at once, or filled the board for a draw
        assert score == (0 if outcome.winner is None else solve(game, position))
    else:
        assert -solve(game, child) == score
