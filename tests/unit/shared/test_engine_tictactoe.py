"""The engine on every tic-tac-toe position, against an oracle written here.

The oracle is plain minimax, memoised by position, on the stone scale of
:mod:`boardroom.shared.engine.scores`: 0 for a draw; when the player who just moved made a
line at ply ``p``, the player to move scores ``-(HALF + 1 - (p + 1) // 2)``, one
more than the stones the winner still had in hand, negated. It uses only the
public rules (:meth:`legal_moves`, :meth:`play_unchecked`, :meth:`outcome`), so it
shares no code with the engine.
"""

from __future__ import annotations

import functools

import pytest

from boardroom.shared.engine import SCORE_UNIT, Result, analyze, minimax, search, solve, solve_move
from boardroom.shared.games import GridGame, Player, Position, Status, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver


def _tictactoe() -> GridGame:
    game = get_game("tictactoe")
    assert isinstance(game, GridGame)
    return game


GAME = _tictactoe()
HALF = (GAME.grid.cells + 1) // 2
"""Most stones one player can place on the board: 5."""


_ORACLE: dict[tuple[int, int], int] = {}
"""Memo of :func:`oracle`, by board: the value does not depend on the move order."""


def oracle(position: Position) -> int:
    """The exact stone score of ``position`` for the player to move."""
    value = _ORACLE.get(position.stones)
    if value is None:
        outcome = GAME.outcome(position)
        if outcome.status is Status.WIN:
            value = -(HALF + 1 - (position.ply + 1) // 2)
        elif outcome.status is Status.DRAW:
            value = 0
        else:
            value = max(-oracle(child) for child in _children(position))
        _ORACLE[position.stones] = value
    return value


def _children(position: Position) -> list[Position]:
    return [GAME.play_unchecked(position, move) for move in GAME.legal_moves(position)]


@functools.cache
def reachable_positions() -> dict[tuple[int, int], Position]:
    """Every position reachable from the empty board, one per distinct board."""
    found: dict[tuple[int, int], Position] = {}
    stack = [GAME.new()]
    while stack:
        position = stack.pop()
        if position.stones in found:
            continue
        found[position.stones] = position
        stack.extend(_children(position))
    return found


def ongoing_positions() -> list[Position]:
    return [p for p in reachable_positions().values() if not GAME.outcome(p).is_over]


def move_value(position: Position, move: int) -> int:
    """The exact stone score, for the player to move in ``position``, of playing ``move``."""
    return -oracle(GAME.play_unchecked(position, move))


def expected_result(stones: int) -> Result:
    if stones > 0:
        return Result.WIN
    if stones < 0:
        return Result.LOSS
    return Result.DRAW


def test_there_are_5478_reachable_positions_of_which_4520_are_ongoing() -> None:
    """The enumeration the oracle runs on finds the well-known 5,478 boards."""
    assert len(reachable_positions()) == 5478
    assert len(ongoing_positions()) == 4520


def test_the_oracle_is_a_draw_from_the_empty_board_and_fast_wins_score_higher() -> None:
    """The oracle's scale: 0 from the start; X to win with its third stone scores
    5 + 1 - 3 = 3; O, who must block and then meets a fork, loses to X's fourth: -2."""
    assert oracle(GAME.new()) == 0
    assert oracle(GAME.from_moves("a1 b1 a2 b2")) == 3
    assert oracle(GAME.from_moves("a1 b1 a2")) == -2


def test_the_oracle_agrees_with_plain_minimax_on_positions_with_four_stones_or_more() -> None:
    """The reference ``minimax`` (engine units) and the oracle (stones) agree exactly."""
    checked = 0
    for position in ongoing_positions():
        if position.ply >= 4:  # earlier positions have the biggest trees: keep this quick
            expected = oracle(position) * SCORE_UNIT
            assert minimax(GAME, position).score == expected, GAME.move_string(position)
            checked += 1
    assert checked > 4000


def test_perfect_search_keeps_the_value_of_every_position() -> None:
    """On every ongoing position the perfect level plays a move worth exactly the
    position's value, proven, and reports that value."""
    failures = []
    for position in ongoing_positions():
        expected = oracle(position)
        result = search(GAME, position, level="perfect")
        problems = []
        if result.move not in GAME.legal_moves(position):
            problems.append(f"illegal move {result.move}")
        elif move_value(position, result.move) != expected:
            problems.append(f"move {result.move_text} worth {move_value(position, result.move)}")
        if not result.exact or result.score != expected * SCORE_UNIT:
            problems.append(f"score {result.score / SCORE_UNIT} exact={result.exact}")
        if result.value.result is not expected_result(expected):
            problems.append(f"value {result.value}")
        if problems:
            failures.append(f"{GAME.move_string(position)!r} (value {expected}): {problems}")
    assert failures == []


def test_solve_gives_the_exact_stone_score_of_every_position() -> None:
    """``solve`` equals the oracle's stone score, fast wins and slow losses included."""
    failures = []
    for position in ongoing_positions():
        stones = solve(GAME, position)
        if stones != oracle(position):
            failures.append((GAME.move_string(position), stones, oracle(position)))
    assert failures == []


def test_solve_move_plays_a_move_that_keeps_the_value_of_every_position() -> None:
    """``solve_move`` picks a move worth the position's exact value, with that score."""
    failures = []
    for position in ongoing_positions():
        result = solve_move(GAME, position)
        expected = oracle(position)
        if move_value(position, result.move) != expected or result.score != expected * SCORE_UNIT:
            failures.append((GAME.move_string(position), result.move_text, expected))
    assert failures == []


@pytest.mark.parametrize("moves", ["", "b2", "a1 b2", "a1 b1 a2", "a1 b2 c3", "a1 b1 a2 b2"])
def test_analyze_values_every_move_exactly(moves: str) -> None:
    """Each move ``analyze`` lists carries its exact value, and the list is best first."""
    position = GAME.from_moves(moves)
    values = analyze(GAME, position)
    assert sorted(move for move, _ in values) == GAME.legal_moves(position)
    for move, value in values:
        assert value.exact
        assert value.score == move_value(position, move) * SCORE_UNIT, GAME.format_move(move)
    assert [value.score for _, value in values] == sorted(
        (value.score for _, value in values), reverse=True
    )


Winners = frozenset[Player | None]


def _outcomes_with_engine(
    position: Position, engine: Player, memo: dict[tuple[int, int], Winners]
) -> Winners:
    """The winners (None for a draw) of every game from ``position`` in which
    ``engine`` plays the perfect level and its opponent tries every move."""
    if position.stones in memo:
        return memo[position.stones]
    outcome = GAME.outcome(position)
    if outcome.is_over:
        found = frozenset([outcome.winner])
    elif GAME.to_move(position) is engine:
        move = search(GAME, position, level="perfect").move
        found = _outcomes_with_engine(GAME.play(position, move), engine, memo)
        # Never throw away what the position is worth: a won position is won, a
        # drawn one is never lost.
        value = oracle(position)
        if value > 0:
            assert found == {engine}, GAME.move_string(position)
        elif value == 0:
            assert engine.other not in found, GAME.move_string(position)
    else:
        found = Winners().union(
            *(_outcomes_with_engine(child, engine, memo) for child in _children(position))
        )
    memo[position.stones] = found
    return found


@pytest.mark.parametrize("engine", [Player.FIRST, Player.SECOND], ids=["as X", "as O"])
def test_perfect_never_loses_to_any_sequence_of_opponent_moves(engine: Player) -> None:
    """Walking the whole tree with the engine on one side, no game ends in its loss,
    and every error of the opponent that gives a won position is punished."""
    outcomes = _outcomes_with_engine(GAME.new(), engine, {})
    assert engine.other not in outcomes
    assert engine in outcomes  # the opponent has losing moves, and they lose
    assert None in outcomes  # and with best play it is a draw
