"""Limits and levels: deadlines kept, seeds replayed, bad requests refused.

The deadline checks are correctness guarantees, not benchmarks: a search asked
for a fifth of a second must come back within it plus a generous margin (the clock
is read every 256 nodes, about 10 ms of gomoku search), even on a busy machine.
A fifth of a second stops every search below on the clock, not at a depth it
finished: what the margin bounds is the overshoot, the same at any limit.
"""

from __future__ import annotations

import math
import time

import pytest

from boardroom.shared.engine import analyze, search, solve, solve_move
from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason, SearchLimitsError
from boardroom.shared.games import get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

TIME_LIMIT = 0.2
MARGIN = 0.25
"""Generous: the promise is a few milliseconds; other work shares the machine."""

REPLAY_POSITIONS = [
    ("connect4", ""),
    ("connect4", "4453"),
    ("tictactoe4", ""),
    ("tictactoe4", "a1 b2"),
    ("mnk-5-4-3", "c2"),
]
"""Positions where easy and medium finish their depth well inside their clock, so
the seed alone decides the move."""


@pytest.mark.parametrize(
    ("name", "moves", "level"),
    [
        ("connect4", "", None),
        ("connect4", "4453", None),
        ("gomoku", "", None),
        ("gomoku", "h8 h9 i9 g7", None),
        ("gomoku", "h8 h9 i9 g7", "hard"),
        ("gomoku", "h8 h9 i9 g7", "perfect"),
        ("tictactoe4", "", None),
    ],
)
def test_search_returns_a_legal_move_within_its_time_limit(
    name: str, moves: str, level: str | None
) -> None:
    """``time_limit=0.2`` (alone, or overriding a level's budget) is kept, measured
    from outside the call, and the move is legal."""
    game = get_game(name)
    position = game.from_moves(moves)
    started = time.perf_counter()
    result = search(game, position, level=level, time_limit=TIME_LIMIT)
    elapsed = time.perf_counter() - started
    assert elapsed < TIME_LIMIT + MARGIN
    assert result.elapsed <= elapsed
    assert result.move in game.legal_moves(position)
    assert result.depth >= 1


@pytest.mark.parametrize(("name", "moves"), [("connect4", ""), ("gomoku", "h8")])
def test_analyze_returns_within_its_time_limit(name: str, moves: str) -> None:
    """``analyze`` shares ``time_limit`` among the moves, so the whole list comes
    back within it (plus the margin), even with 224 moves to value."""
    game = get_game(name)
    position = game.from_moves(moves)
    started = time.perf_counter()
    values = analyze(game, position, time_limit=TIME_LIMIT)
    elapsed = time.perf_counter() - started
    assert len(values) == len(game.legal_moves(position))
    assert elapsed < TIME_LIMIT + MARGIN


def test_a_depth_limit_stops_the_deepening_at_that_depth() -> None:
    """``depth=3`` alone searches three plies, no more, and says the value is an estimate."""
    game = get_game("connect4")
    result = search(game, game.new(), depth=3)
    assert result.depth == 3
    assert not result.exact
    assert len(result.pv) <= 3


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize(("name", "moves"), REPLAY_POSITIONS)
def test_the_same_seed_replays_the_same_move(name: str, moves: str, level: str) -> None:
    """With a seed, the varied levels are reproducible move for move."""
    game = get_game(name)
    position = game.from_moves(moves)
    for seed in (0, 1, 12345):
        first = search(game, position, level=level, seed=seed)
        again = search(game, position, level=level, seed=seed)
        assert (again.move, again.score) == (first.move, first.score), seed


def test_different_seeds_vary_the_easy_level() -> None:
    """Over a few positions, easy does not always answer with the same move."""
    varied = []
    for name, moves in REPLAY_POSITIONS:
        game = get_game(name)
        position = game.from_moves(moves)
        replies = {search(game, position, level="easy", seed=seed).move for seed in range(8)}
        varied.append(len(replies) > 1)
    assert any(varied)


@pytest.mark.parametrize("level", ["godlike", "", "Perfect!", 3])
def test_an_unknown_level_is_refused_by_name(level: object) -> None:
    """A level that does not exist raises ``SearchLimitsError`` naming it and the choices."""
    game = get_game("tictactoe")
    with pytest.raises(SearchLimitsError) as caught:
        search(game, game.new(), level=level)  # type: ignore[arg-type]
    assert repr(level) in str(caught.value)
    assert "perfect" in str(caught.value)


def test_level_names_are_read_case_insensitively() -> None:
    """``"Hard"`` and ``" hard "`` name the hard level."""
    game = get_game("tictactoe")
    for level in ("Hard", " hard "):
        assert search(game, game.from_moves("b2"), level=level).move in range(9)


@pytest.mark.parametrize("depth", [0, -1, True, False, 2.5, "3"])
def test_a_bad_depth_is_refused_by_value(depth: object) -> None:
    """Depth must be a whole number of plies, 1 or more (and not a bool)."""
    game = get_game("tictactoe")
    with pytest.raises(SearchLimitsError) as caught:
        search(game, game.new(), depth=depth)  # type: ignore[arg-type]
    assert f"depth={depth!r}" in str(caught.value)


@pytest.mark.parametrize("time_limit", [0, -1, "fast", True, math.nan, math.inf, 3601])
def test_a_bad_time_limit_is_refused_by_value(time_limit: object) -> None:
    """A time limit must be a number of seconds, above 0 and at most an hour."""
    game = get_game("tictactoe")
    for call in (search, analyze):
        with pytest.raises(SearchLimitsError) as caught:
            call(game, game.new(), time_limit=time_limit)  # type: ignore[arg-type]
        assert f"time_limit={time_limit!r}" in str(caught.value)


def test_search_limits_errors_are_value_errors() -> None:
    """Callers that only know the builtins can catch a bad limit as ``ValueError``."""
    game = get_game("tictactoe")
    with pytest.raises(ValueError, match="depth=0"):
        search(game, game.new(), depth=0)


@pytest.mark.parametrize(
    ("name", "moves"),
    [
        ("tictactoe", "a1 b1 a2 b2 a3"),  # X wins
        ("tictactoe", "a1 b2 c3 b1 b3 a3 c1 c2 a2"),  # full board, a draw
        ("connect4", "1212121"),  # X wins in column 1
    ],
)
def test_a_finished_game_has_no_move_to_search_for(name: str, moves: str) -> None:
    """``search``, ``solve``, ``solve_move`` and ``analyze`` raise ``IllegalMoveError``
    with reason ``GAME_OVER`` once the game has ended."""
    game = get_game(name)
    position = game.from_moves(moves)
    assert game.outcome(position).is_over
    for call in (search, solve, solve_move, analyze):
        with pytest.raises(IllegalMoveError) as caught:
            call(game, position)
        assert caught.value.reason is IllegalMoveReason.GAME_OVER


@pytest.mark.parametrize(
    ("name", "moves"),
    [
        ("tictactoe", ""),
        ("tictactoe", "b2 a1 c3"),
        ("tictactoe4", "a1 b2 c3"),
        ("connect4", "444444"),  # column 4 full
        ("connect4", "1112223334"),
        ("mnk-5-4-3", "a1"),
        ("gomoku", "h8 h9"),
    ],
)
def test_the_random_level_plays_legal_moves(name: str, moves: str) -> None:
    """Whatever the seed, a random move is legal (never a full column or a taken cell)."""
    game = get_game(name)
    position = game.from_moves(moves)
    legal = game.legal_moves(position)
    for seed in range(40):
        result = search(game, position, level="random", seed=seed)
        assert result.move in legal
        assert result.move_text == game.format_move(result.move)


def test_the_random_level_can_pick_any_empty_cell_of_a_big_board() -> None:
    """Random means any legal move, not only the cells near a stone that the search
    restricts itself to on boards of 50 cells or more."""
    game = get_game("gomoku")
    position = game.from_moves("h8")
    near = {f"{column}{row}" for column in "fghij" for row in range(6, 11)}
    picked = {search(game, position, level="random", seed=seed).move_text for seed in range(60)}
    assert picked - near


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_varied_level_stopped_by_the_clock_still_picks_a_legal_move(level: str) -> None:
    """When the clock cuts a deeper pass short, variety draws from the last finished depth.

    Regression: the unfinished pass could report a best score above every finished
    one by more than the margin, leaving nothing to choose from (IndexError).
    """
    game = get_game("tictactoe4")
    position = game.from_moves("a1 b2")
    for seed in range(50):
        result = search(game, position, level=level, time_limit=0.003, seed=seed)
        assert result.move in game.legal_moves(position)
