"""``boardroom bench perfect``'s pieces: the early openings it builds are what it
says (their values exact, their stones in range), and its check of a move."""

from __future__ import annotations

from client.bench.perfect import check_move, early_positions
from shared.engine import solve
from shared.games import GridGame, get_game


def test_early_openings_have_their_exact_values_and_are_reproducible() -> None:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    # From 14 stones (the bench's own start, 8, makes each solve take seconds).
    openings = early_positions(game, 2, seed=7, stones=(14, 16))

    assert openings == early_positions(game, 2, seed=7, stones=(14, 16))
    for moves, value in openings:
        position = game.from_moves(moves)
        assert 14 <= position.ply <= 16
        assert not game.outcome(position).is_over
        assert solve(game, position) == value


def test_a_move_of_perfect_is_checked_against_the_files_value() -> None:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    position = game.from_moves("2252576253462244111563365343671351441")  # Test_L2_R1: -1
    assert check_move(game, position, -1).kept
    assert not check_move(game, position, 3).kept  # a value the position does not have
