"""Exact solving (:func:`solve`, :func:`solve_move`) and analysis (:func:`analyze`).

Oracles: the Connect Four solver test sets in ``data/connect4`` (exact scores on
the same stone scale as :func:`solve`), the known value of 4x4 tic-tac-toe (a
draw), hand-made positions, and the solver's own consistency: a position's score
is the best of its children's, negated.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest
from repo_paths import REPO_ROOT

from boardroom.shared.engine import SCORE_UNIT, Result, analyze, solve, solve_move
from boardroom.shared.games import Game, Position, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

DATA = REPO_ROOT / "data" / "connect4"
SAMPLE_SEED = 20240601
SAMPLES = {"Test_L3_R1": 50, "Test_L2_R1": 50, "Test_L2_R2": 12}
"""Positions drawn from each set: end game (easy), middle (easy), middle (medium).
The middle-medium ones take up to about 0.1 s each to solve."""


class Published(NamedTuple):
    """One line of a test set: the moves from the empty board and the exact score."""

    test_set: str
    moves: str
    score: int


def sampled_lines() -> list[Published]:
    """A fixed random sample of each test set."""
    sample = []
    rng = random.Random(SAMPLE_SEED)
    for name, count in SAMPLES.items():
        lines = (DATA / name).read_text().split("\n")
        entries = [line.split() for line in lines if line.strip()]
        sample += [Published(name, m, int(score)) for m, score in rng.sample(entries, count)]
    return sample


SAMPLED = sampled_lines()


def published_id(published: Published) -> str:
    return f"{published.test_set}:{published.moves}"


def win_now_stones(game: Game, ply: int) -> int:
    """The stone score of winning with the next stone, at ``ply``."""
    half = (game.grid.cells + 1) // 2
    return half + 1 - (ply // 2 + 1)


def move_value(game: Game, position: Position, move: int) -> int:
    """The stone score of playing ``move``: from the rules if it ends the game (a
    win, or a draw on the last cell), else the child's solved score negated."""
    child = game.play(position, move)
    outcome = game.outcome(child)
    if outcome.winner is not None:
        return win_now_stones(game, position.ply)
    if outcome.is_over:
        return 0
    return -solve(game, child)


def value_by_children(game: Game, position: Position) -> int:
    """The stone score of ``position`` as the best of its moves' scores."""
    return max(move_value(game, position, move) for move in game.legal_moves(position))


def random_ongoing_position(game: Game, seed: int, plies: range) -> Position:
    """A position after random legal play, stopped before any move that ends the game."""
    rng = random.Random(seed)
    position = game.new()
    for _ in range(rng.choice(plies)):
        move = rng.choice(game.legal_moves(position))
        child = game.play_unchecked(position, move)
        if game.outcome(child).is_over:
            break
        position = child
    return position


def test_4x4_tic_tac_toe_is_a_draw() -> None:
    """The empty 4x4 board solves to 0, and ``solve_move`` proves the draw too."""
    game = get_game("tictactoe4")
    assert solve(game, game.new()) == 0
    result = solve_move(game, game.new())
    assert result.exact
    assert result.score == 0
    assert result.value.result is Result.DRAW
    assert str(result.value) == "draw"


@pytest.mark.parametrize("published", SAMPLED, ids=published_id)
def test_connect_four_test_set_position_solves_to_its_published_score(
    published: Published,
) -> None:
    """``solve`` gives exactly the score of the standard test set."""
    game = get_game("connect4")
    assert solve(game, game.from_moves(published.moves)) == published.score


@pytest.mark.parametrize("published", SAMPLED[40:60], ids=published_id)
def test_solve_move_plays_a_move_that_keeps_the_published_score(published: Published) -> None:
    """``solve_move`` returns the published score, proven, and its move is worth it."""
    game = get_game("connect4")
    position = game.from_moves(published.moves)
    score = published.score
    result = solve_move(game, position)
    assert result.exact
    assert result.score == score * SCORE_UNIT
    assert result.pv[0] == result.move
    assert move_value(game, position, result.move) == score


@pytest.mark.parametrize(
    ("name", "moves", "stones"),
    [
        ("tictactoe", "a1 b1 a2 b2", 5 + 1 - 3),
        ("connect4", "112233", 22 - 4),
        ("mnk-5-4-3", "a1 a2 b1 b2", 10 + 1 - 3),
        ("gomoku", "h8 a1 i8 a2 j8 a3 k8 a4", 113 + 1 - 5),
    ],
)
def test_solve_scores_an_immediate_win_by_the_stones_left(
    name: str, moves: str, stones: int
) -> None:
    """With a line to complete, the score is one more than the stones left in hand
    after it; that holds on a gomoku board too, which could never be solved in full."""
    game = get_game(name)
    assert solve(game, game.from_moves(moves)) == stones


def test_solve_scores_a_double_threat_as_a_loss_to_the_next_stone() -> None:
    """O, facing X's open three on the bottom row, loses to X's fourth stone: -(22 - 4)."""
    game = get_game("connect4")
    assert solve(game, game.from_moves("22334")) == -18


@pytest.mark.parametrize(
    ("name", "plies"),
    [
        ("tictactoe4", range(6, 13)),
        ("mnk-4-4-3", range(0, 10)),
        ("mnk-5-4-3", range(0, 15)),
        ("connect4", range(20, 37)),
    ],
)
@pytest.mark.parametrize("seed", range(6))
def test_solve_is_the_best_of_its_children_negated(name: str, plies: range, seed: int) -> None:
    """The null-window bisection agrees with a one-ply expansion over solved children."""
    game = get_game(name)
    position = random_ongoing_position(game, seed, plies)
    assert solve(game, position) == value_by_children(game, position), game.move_string(position)


def test_analyze_marks_the_winning_move_win_in_1_and_lists_it_first() -> None:
    """X to play a3 completes column a: that move comes first, as ``win in 1``."""
    game = get_game("tictactoe")
    values = analyze(game, game.from_moves("a1 b1 a2 b2"))
    move, value = values[0]
    assert game.format_move(move) == "a3"
    assert value.result is Result.WIN
    assert value.moves == 1
    assert str(value) == "win in 1"
    assert value.score == 3 * SCORE_UNIT


def test_analyze_marks_a_blunder_as_a_loss() -> None:
    """Neither winning at a3 nor blocking at b3 lets O complete column b: ``loss in 1``."""
    game = get_game("tictactoe")
    values = dict(analyze(game, game.from_moves("a1 b1 a2 b2")))
    blunder = values[game.parse_move(game.new(), "c3")]
    assert blunder.result is Result.LOSS
    assert str(blunder) == "loss in 1"
    assert blunder.score == -3 * SCORE_UNIT
    block = values[game.parse_move(game.new(), "b3")]
    assert block.score > blunder.score


def test_analyze_marks_every_move_lost_against_a_double_threat() -> None:
    """O cannot stop both ends of X's three on the bottom row: each move is ``loss in 1``."""
    game = get_game("connect4")
    values = analyze(game, game.from_moves("22334"))
    assert len(values) == 7
    assert {str(value) for _, value in values} == {"loss in 1"}


@pytest.mark.parametrize(
    ("name", "moves"),
    [
        ("tictactoe", ""),
        ("tictactoe", "b2 a1"),
        ("tictactoe4", "a1 b2"),
        ("connect4", ""),
        ("connect4", "4453"),
        ("connect4", "112233"),
        ("mnk-5-4-3", "c2"),
    ],
)
def test_analyze_lists_every_legal_move_best_first(name: str, moves: str) -> None:
    """One entry per legal move, sorted by value from best to worst."""
    # The limit only bounds the run: sorted they must be, proven or estimated.
    game = get_game(name)
    position = game.from_moves(moves)
    values = analyze(game, position, time_limit=0.2)
    assert sorted(move for move, _ in values) == game.legal_moves(position)
    scores = [value.score for _, value in values]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("published", SAMPLED[:6], ids=published_id)
def test_analyze_values_each_move_as_its_solved_child(published: Published) -> None:
    """In Connect Four end games every move's value is proven, equals its child's
    solved score negated, and the best of them is the position's published score."""
    game = get_game("connect4")
    position = game.from_moves(published.moves)
    values = analyze(game, position)
    for move, value in values:
        assert value.exact, game.format_move(move)
        assert value.score == move_value(game, position, move) * SCORE_UNIT, game.format_move(move)
    assert values[0][1].score == published.score * SCORE_UNIT
