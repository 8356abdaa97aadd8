"""The production search against the plain reference, position by position.

:func:`~boardroom.shared.engine.minimax` walks every move through the public rules and
applies :func:`~boardroom.shared.engine.minimax.horizon_value` at its horizon;
:meth:`~boardroom.shared.engine.negamax.Searcher.negamax` prunes, orders, forces blocks,
narrows its window by the stones left and keeps a symmetry-reduced table. At the
same depth, with the full window, both must give the same value.

Positions come from random legal play, cut back to the last one where the player
to move cannot win at once (negamax requires that; its callers take such wins
before calling it).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardroom.shared.engine import minimax
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.engine.negamax import Searcher
from boardroom.shared.engine.scores import INFINITY, SCORE_UNIT
from boardroom.shared.games import Game, GridGame, Position, Status, get_game

EQUIVALENCE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def grid_game(name: str) -> GridGame:
    game = get_game(name)
    assert isinstance(game, GridGame)
    return game


def can_win_at_once(game: Game, position: Position) -> bool:
    """True if some legal move makes a line (by the rules, not the kernel)."""
    return any(
        game.outcome(game.play_unchecked(position, move)).status is Status.WIN
        for move in game.legal_moves(position)
    )


@st.composite
def quiet_positions(draw: st.DrawFn, name: str, max_plies: int) -> Position:
    """An ongoing position of game ``name`` where the player to move cannot win at once."""
    game = get_game(name)
    position = quiet = game.new()
    for _ in range(draw(st.integers(0, max_plies))):
        position = game.play_unchecked(position, draw(st.sampled_from(game.legal_moves(position))))
        if game.outcome(position).is_over:
            break
        if not can_win_at_once(game, position):
            quiet = position
    return quiet


def negamax_value(
    name: str,
    position: Position,
    depth: int,
    *,
    alpha: int = -INFINITY,
    beta: int = INFINITY,
    searcher: Searcher | None = None,
) -> int:
    """The production node function's value of ``position`` at ``depth``."""
    kernel = kernel_for(grid_game(name))
    ply = position.ply
    cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
    opp_wins = kernel.winning_cells(opp, kernel.board & ~(cur | opp))
    searcher = searcher or Searcher(kernel)
    return searcher.negamax(cur, opp, opp_wins, ply, alpha, beta, depth)


def assert_equivalent(name: str, position: Position, depth: int) -> None:
    game = grid_game(name)
    expected = minimax(game, position, depth=depth).score
    assert negamax_value(name, position, depth) == expected, game.move_string(position)


@settings(EQUIVALENCE, max_examples=150)
@given(quiet_positions("tictactoe", 8), st.integers(1, 3))
def test_negamax_matches_plain_minimax_on_tictactoe(position: Position, depth: int) -> None:
    """3x3: equal values at depths 1 to 3."""
    assert_equivalent("tictactoe", position, depth)


@settings(EQUIVALENCE, max_examples=80)
@given(quiet_positions("tictactoe4", 15), st.integers(1, 3))
def test_negamax_matches_plain_minimax_on_tictactoe4(position: Position, depth: int) -> None:
    """4x4 (8 symmetries in the table key): equal values at depths 1 to 3."""
    assert_equivalent("tictactoe4", position, depth)


@settings(EQUIVALENCE, max_examples=150)
@given(quiet_positions("connect4", 41), st.integers(1, 3))
def test_negamax_matches_plain_minimax_on_connect_four(position: Position, depth: int) -> None:
    """Connect Four (gravity, mirror keys, never under a threat): equal at depths 1 to 3."""
    assert_equivalent("connect4", position, depth)


@settings(EQUIVALENCE, max_examples=60)
@given(quiet_positions("mnk-5-4-3", 19), st.integers(1, 3))
def test_negamax_matches_plain_minimax_on_a_5x4_board(position: Position, depth: int) -> None:
    """5x4, three in a row (rectangle: 4 symmetries): equal values at depths 1 to 3."""
    assert_equivalent("mnk-5-4-3", position, depth)


@settings(EQUIVALENCE, max_examples=25)
@given(quiet_positions("mnk-7-7-5", 48), st.integers(1, 2))
def test_negamax_matches_plain_minimax_on_a_7x7_board(position: Position, depth: int) -> None:
    """7x7, five in a row (49 cells: every cell a candidate, no symmetry): equal at
    depths 1 and 2 (depth 3 means some 100,000 leaves for minimax)."""
    assert_equivalent("mnk-7-7-5", position, depth)


def test_negamax_matches_plain_minimax_on_an_empty_gomoku_board() -> None:
    """On an empty 15x15 board every cell is a candidate, so depth 1 matches exactly."""
    assert_equivalent("gomoku", get_game("gomoku").new(), 1)


@settings(EQUIVALENCE, max_examples=15)
@given(quiet_positions("gomoku", 30))
def test_negamax_on_gomoku_never_scores_above_plain_minimax_at_depth_1(
    position: Position,
) -> None:
    """15x15: at most the plain value at depth 1.

    From 50 cells up the search tries only cells within two steps of a stone
    (``kernel.candidates``), a subset of minimax's moves, so its best is at most
    minimax's, and can be less: after ``a4`` the evaluation prefers a far
    central reply for O (minimax +1.53) to every near one (negamax +0.81).
    At depth 2 and deeper the restriction applies to both sides, so no order holds.
    """
    game = grid_game("gomoku")
    expected = minimax(game, position, depth=1).score
    assert negamax_value("gomoku", position, 1) <= expected, game.move_string(position)


@settings(EQUIVALENCE, max_examples=80)
@given(
    st.sampled_from(["tictactoe4", "connect4", "mnk-5-4-3"]).flatmap(
        lambda name: st.tuples(st.just(name), quiet_positions(name, 19))
    ),
    st.integers(1, 3),
    st.lists(
        st.tuples(
            st.integers(-3, 3).map(lambda stones: stones * SCORE_UNIT)
            | st.integers(-400, 400),  # about +-4 points: where estimates lie
            st.sampled_from([1, 2, 50, SCORE_UNIT, 2 * SCORE_UNIT]),
        ),
        min_size=1,
        max_size=5,
    ),
)
def test_negamax_bounds_the_value_in_any_window(
    game_and_position: tuple[str, Position], depth: int, windows: list[tuple[int, int]]
) -> None:
    """Fail-soft alpha-beta, as the solver's null windows rely on: for any window
    (alpha, beta), searched in turn by one searcher sharing its table, a result
    <= alpha bounds the value from above, >= beta from below, and inside it is the
    value itself."""
    name, position = game_and_position
    game = grid_game(name)
    value = minimax(game, position, depth=depth).score
    searcher = Searcher(kernel_for(game))
    for offset, width in windows:
        alpha = value + offset
        beta = alpha + width
        result = negamax_value(name, position, depth, alpha=alpha, beta=beta, searcher=searcher)
        where = f"{game.move_string(position)!r} value {value} window ({alpha}, {beta})"
        if result <= alpha:
            assert value <= result, where
        elif result >= beta:
            assert value >= result, where
        else:
            assert result == value, where


@settings(EQUIVALENCE, max_examples=50)
@given(
    st.sampled_from(["tictactoe", "tictactoe4", "connect4", "mnk-5-4-3", "gomoku"]).flatmap(
        lambda name: st.tuples(st.just(name), quiet_positions(name, 40))
    )
)
def test_compiled_winning_cells_match_the_readable_grid_version(
    game_and_position: tuple[str, Position],
) -> None:
    """``kernel.winning_cells`` (generated code) equals ``Grid.winning_cells`` for
    both players' stones on every position reached in play."""
    name, position = game_and_position
    game = grid_game(name)
    kernel = kernel_for(game)
    empty = game.grid.board_mask & ~position.occupied
    for stones in position.stones:
        assert kernel.winning_cells(stones, empty) == game.grid.winning_cells(stones, empty)
