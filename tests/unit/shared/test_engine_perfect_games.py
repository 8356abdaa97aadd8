"""From the empty Connect Four board, the perfect level as the first player wins
every game, against every level, and as the second player every game against
every level below it: the opening book's moves (boardroom.shared.engine.book), then exact
solves with the compiled solver. Real games, each move a real search under the
level's own budget."""

from __future__ import annotations

import pytest

from boardroom.shared.engine import search
from boardroom.shared.engine.book import packaged_book
from boardroom.shared.games import GridGame, Player, get_game

pytestmark = [
    pytest.mark.e2e,  # whole games: several seconds each
    pytest.mark.usefixtures("compiled_solver_ready"),
]


GAMES = [
    *((level, seed) for level in ("random", "easy", "medium") for seed in (0, 1, 2)),
    ("hard", 0),  # hard and perfect play no variety: one game each says it all
    ("perfect", 0),
]


@pytest.mark.parametrize(("opponent", "seed"), GAMES)
def test_perfect_playing_first_wins_against_every_level(opponent: str, seed: int) -> None:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    book = packaged_book(game)
    assert book is not None and book.plies >= 8, "the opening book is not in the package"
    position = game.new()
    seeds = iter(range(seed * 1000, seed * 1000 + 1000))
    while not game.outcome(position).is_over:
        level = "perfect" if position.ply % 2 == 0 else opponent
        played = search(game, position, level=level, seed=next(seeds))
        position = game.play(position, played.move)

    assert game.outcome(position).winner is Player.FIRST, game.move_string(position)


SECOND_GAMES = [
    *((level, seed) for level in ("random", "easy", "medium") for seed in (0, 1, 2)),
    ("hard", 0),
]


@pytest.mark.parametrize(("opponent", "seed"), SECOND_GAMES)
def test_perfect_playing_second_beats_every_level_below_it(opponent: str, seed: int) -> None:
    """The first player wins with perfect play, so perfect as the second player can
    lose only to perfect (the last case above); each level below gives the game
    away somewhere, and perfect, on its book's moves (1 to 7 stones) and then
    exact solves, never gives it back."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    position = game.new()
    seeds = iter(range(seed * 1000, seed * 1000 + 1000))
    from_book = 0
    while not game.outcome(position).is_over:
        level = opponent if position.ply % 2 == 0 else "perfect"
        played = search(game, position, level=level, seed=next(seeds))
        from_book += level == "perfect" and played.book
        position = game.play(position, played.move)

    assert game.outcome(position).winner is Player.SECOND, game.move_string(position)
    assert from_book == 4  # its moves on 1, 3, 5 and 7 stones
