"""Hints and review values on Connect Four are exact, from the empty board on
(:func:`boardroom.shared.engine.search.value_search`, :func:`boardroom.shared.engine.analyze`,
:func:`boardroom.shared.engine.analysis.analyse_position`), and agree with bitbully, the
independent C++ solver; other games keep their old kind of value.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardroom.shared.engine import analyze, opening_database, search
from boardroom.shared.engine.analysis import DEFAULT_SECONDS_PER_POSITION, analyse_position
from boardroom.shared.engine.scores import stone_score
from boardroom.shared.engine.search import value_search
from boardroom.shared.games import GridGame, Position, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

bbc = pytest.importorskip("bitbully.bitbully_core")

CONNECT4 = get_game("connect4")
THROWN_WIN = "444444325"
"""The issue's game against perfect: X's 9th move (5) turns a win in 17 into a loss."""


def bitbully() -> object:
    table = opening_database.opening_database()
    assert table is not None, "bitbully-databases is a dependency: make install"
    return bbc.BitBullyCore(Path(table.path))


def board_of(position: Position) -> object:
    board = bbc.BoardCore()
    assert board.play(list(position.moves))  # bitbully's columns count from 0, as ours
    return board


def test_every_position_of_a_game_is_valued_exactly_within_the_review_budget() -> None:
    """Each position of the issue's game, from the empty board, at the review's
    budget (0.2 s, which no longer caps Connect Four's solve): exact, bitbully's
    value, and the move that threw the win is seen as one."""
    solver = bitbully()
    values = []
    for stones in range(len(THROWN_WIN) + 1):
        position = CONNECT4.from_moves(THROWN_WIN[:stones])
        found = analyse_position(CONNECT4, position, seconds=DEFAULT_SECONDS_PER_POSITION)
        assert found.exact, stones
        assert stone_score(found.score) == solver.mtdf(board_of(position), 0), stones
        values.append(stone_score(found.score))
    assert values[8] > 0 > -values[9]  # X was winning before its 9th move, lost after


@pytest.mark.parametrize("moves", ["", "4453", "44444432", "4453452"])
def test_hints_value_every_move_exactly(moves: str) -> None:
    """``analyze`` (hints) gives every legal move its exact value, bitbully's."""
    position = CONNECT4.from_moves(moves)
    expected = bitbully().scoreMoves(board_of(position))
    values = analyze(CONNECT4, position, time_limit=0.2)
    assert len(values) == len(CONNECT4.legal_moves(position))
    for move, value in values:
        assert value.exact, (moves, move)
        assert stone_score(value.score) == expected[move], (moves, move)


def test_positions_past_twelve_stones_are_solved_in_full() -> None:
    """Seeded random positions of 13 to 16 stones: proven, as bitbully says."""
    solver = bitbully()
    rng = random.Random("past twelve")
    checked = 0
    while checked < 6:
        position = CONNECT4.new()
        for _ in range(rng.randint(13, 16)):
            position = CONNECT4.play(position, rng.choice(CONNECT4.legal_moves(position)))
            if CONNECT4.outcome(position).is_over:
                break
        if CONNECT4.outcome(position).is_over:
            continue
        found = value_search(CONNECT4, position, time_limit=0.05)
        assert found.exact
        assert stone_score(found.score) == solver.mtdf(board_of(position), 0)
        checked += 1


def test_without_the_database_values_are_searched_under_the_budget_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Database off: an early position off the book gets an estimate, labelled as
    one, rather than a solve that cannot finish."""
    monkeypatch.setenv(opening_database.DATABASE_ENV, "off")
    found = value_search(CONNECT4, CONNECT4.from_moves("1177"), time_limit=0.2)
    assert not found.exact and not found.book


@pytest.mark.parametrize(("name", "exact"), [("tictactoe", True), ("gomoku", False)])
def test_other_games_keep_their_kind_of_value(name: str, exact: bool) -> None:
    """Tic-tac-toe is solved as before; gomoku stays an estimate."""
    game = get_game(name)
    assert isinstance(game, GridGame)
    found = analyse_position(game, game.new(), seconds=0.2)
    assert found.exact is exact


def test_a_position_with_one_safe_move_gets_a_proven_hint() -> None:
    """After the issue's X 5, O has one reply that does not lose at once: the
    hint (perfect's search) proves its value rather than glance at it, so it
    never shows a guess after a proven value."""
    position = CONNECT4.from_moves(THROWN_WIN)
    found = search(CONNECT4, position, level="perfect")
    assert found.exact
    assert stone_score(found.score) == bitbully().mtdf(board_of(position), 0)
