"""The classic material the engine grew from, checked against the engine."""

from __future__ import annotations

import pytest

from boardroom.shared.engine import minimax, search, solve
from boardroom.shared.games import Player, Status, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver


def test_plain_minimax_walks_the_whole_tic_tac_toe_tree() -> None:
    """From the empty 3x3 board plain minimax visits all 549,946 nodes and finds a draw."""
    game = get_game("tictactoe")
    result = minimax(game, game.new())
    assert result.nodes == 549_946
    assert result.score == 0


def test_alpha_beta_search_needs_far_fewer_nodes_than_plain_minimax() -> None:
    """The production solve of the empty 3x3 board visits under 1% of minimax's nodes."""
    game = get_game("tictactoe")
    assert solve(game, game.new()) == 0
    result = search(game, game.new(), level="perfect")
    assert result.exact
    assert result.nodes * 100 <= 549_946


@pytest.mark.parametrize(
    # hard plays on its own one-second clock: two whole games take about 4 s.
    "level",
    ["easy", "medium", pytest.param("hard", marks=pytest.mark.e2e), "perfect"],
)
def test_no_level_loses_to_a_plain_column_on_the_4x4_board(level: str) -> None:
    """A player that only fills column a bottom up never beats the engine on 4x4.

    The classic depth-4 player lost this way; ours must see the column coming
    whichever side it plays.
    """
    game = get_game("tictactoe4")
    column = ["a1", "a2", "a3", "a4"]
    for engine_side in (Player.SECOND, Player.FIRST):
        position = game.new()
        while not game.outcome(position).is_over:
            if game.to_move(position) is engine_side:
                move = search(game, position, level=level, seed=7).move
            else:
                taken = game.move_string(position).split()
                free = [cell for cell in column if cell not in taken]
                if free:
                    move = game.parse_move(position, free[0])
                else:  # the column is full: play on sensibly
                    move = search(game, position, level="hard").move
            position = game.play(position, move)
        outcome = game.outcome(position)
        assert not (outcome.status is Status.WIN and outcome.winner is not engine_side)
