"""The rules' quick paths say what the slow ones say (issue 29): a board's rows
drawn from an earlier position's, the free moves from the moves played, a
position's outcome and legal moves at once, and each cell's name made once."""

from __future__ import annotations

import itertools
import random

import pytest

from boardroom.shared.games import Game, Position, get_game
from boardroom.shared.games.base import GridGame
from boardroom.shared.games.grid import iter_bits

GAMES = ["tictactoe", "tictactoe4", "connect4", "gomoku", "mnk-2-2-2", "mnk-7-3-3", "othello"]


def random_game(game: Game, rng: random.Random) -> list[Position]:
    """Every position of one game of random legal moves, the first empty."""
    positions = [game.new()]
    while moves := game.legal_moves(positions[-1]):
        positions.append(game.play_unchecked(positions[-1], rng.choice(moves)))
    return positions


def rows_cell_by_cell(game: GridGame, position: Position) -> tuple[str, ...]:
    """The board as it was drawn before issue 29: a bit test a cell."""
    grid, (first, second) = game.grid, position.stones
    return tuple(
        "".join(
            "X"
            if first & grid.cell(column, row)
            else "O"
            if second & grid.cell(column, row)
            else "."
            for column in range(grid.width)
        )
        for row in reversed(range(grid.height))
    )


@pytest.mark.parametrize("name", GAMES)
def test_rows_drawn_from_any_earlier_position_are_the_rows(name: str) -> None:
    game, rng = get_game(name), random.Random(name)
    for _ in range(5):
        positions = random_game(game, rng)
        rows = game.board_rows(positions[0])
        for before, position in itertools.pairwise(positions):
            rows = game.board_rows_after(rows, before, position)  # a move on
            assert rows == game.board_rows(position)
            if isinstance(game, GridGame):
                assert rows == rows_cell_by_cell(game, position)
        # Any two positions, either way: a new game drawn over the last one's end.
        earlier, later = positions[len(positions) // 2], positions[-1]
        assert game.board_rows_after(game.board_rows(later), later, earlier) == game.board_rows(
            earlier
        )
        assert game.board_rows_after(game.board_rows(earlier), earlier, later) == game.board_rows(
            later
        )


@pytest.mark.parametrize("name", [name for name in GAMES if name != "othello"])
def test_the_free_moves_are_the_playable_cells_with_or_without_the_moves_played(
    name: str,
) -> None:
    game = get_game(name)
    assert isinstance(game, GridGame)
    rng = random.Random(name)
    for _ in range(5):
        for position in random_game(game, rng):
            cells = game.playable_cells(position.occupied)
            expected = sorted(game.move_of_bit(bit) for bit in iter_bits(cells))
            assert game.free_moves(position) == expected
            # Stones without the moves that put them there: the bitboards decide.
            assert game.free_moves(Position(position.stones, ())) == expected


@pytest.mark.parametrize("name", GAMES)
def test_the_outcome_and_the_legal_moves_at_once_are_each_alone(name: str) -> None:
    game, rng = get_game(name), random.Random(name)
    for _ in range(5):
        for position in random_game(game, rng):
            outcome, legal = game.outcome_and_legal_moves(position)
            assert outcome == game.outcome(position)
            assert legal == game.legal_moves(position)
            assert game.to_move(position).number == position.ply % 2


@pytest.mark.parametrize("name", GAMES)
def test_every_move_is_named_as_the_notation_reads_it_back(name: str) -> None:
    game, rng = get_game(name), random.Random(name)
    for position in random_game(game, rng):
        for move in game.legal_moves(position):
            assert game.parse_move(position, game.format_move(move)) == move
        assert game.from_moves(game.move_string(position)) == position
