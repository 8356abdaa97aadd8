"""The perfect level keeps the game's value: on positions of the standard
Connect Four test sets (data/connect4, exact scores), its move leaves the
opponent exactly the opposite score: a win as fast, a loss as slow, a draw a
draw (checked by exact solves)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from repo_paths import REPO_ROOT

from boardroom.shared.engine import opening_database, search, solve
from boardroom.shared.engine.scores import stone_score
from boardroom.shared.games import GridGame, Position, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

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


def bitbully_score(game: GridGame, position: Position) -> int:
    """The exact stone score for the player to move, by bitbully (the independent
    C++ solver, with the 12-stone database it ships beside ours)."""
    bbc = pytest.importorskip("bitbully.bitbully_core")
    table = opening_database.opening_database()
    assert table is not None, "bitbully-databases is a dependency: make install"
    board = bbc.BoardCore()
    # bitbully numbers columns from 0, as our moves do (its move strings too: "0".."6").
    assert board.play(list(position.moves))
    return int(bbc.BitBullyCore(Path(table.path)).mtdf(board, 0))


def held_out_positions(count: int) -> list[str]:
    """Seeded random positions of 2 to 6 stones, reached by openings of any kind
    (most not in perfect's own book), in which the game goes on."""
    game = get_game("connect4")
    rng = random.Random("held out")
    found: list[str] = []
    while len(found) < count:
        position = game.new()
        for _ in range(rng.randint(2, 6)):
            position = game.play(position, rng.choice(game.legal_moves(position)))
        moves = "".join(game.format_move(move) for move in position.moves)
        if not game.outcome(position).is_over and moves not in found:
            found.append(moves)
    return found


@pytest.mark.parametrize("moves", held_out_positions(20))
def test_perfect_keeps_the_value_after_any_opening(moves: str) -> None:
    """From early positions whoever played them (a take-over, a hint, a teacher's
    set-up), perfect's move keeps the game-theoretic value, as bitbully says:
    the opening database makes every position solvable within its budget."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    position = game.from_moves(moves)

    played = search(game, position, level="perfect")

    assert played.exact
    value = bitbully_score(game, position)
    assert stone_score(played.score) == value
    child = game.play(position, played.move)
    assert -bitbully_score(game, child) == value
