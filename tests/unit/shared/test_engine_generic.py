"""The generic search (:mod:`shared.engine.generic`): alpha-beta over any Game,
checked against plain minimax written here over the same interface, against the
bitboard kernel's exact values on tic-tac-toe, and on Othello at every level.
"""

from __future__ import annotations

import random

import pytest

from server.engine_pool import centre_first_move
from shared.engine import analyze, search, solve
from shared.engine.explain import summary
from shared.engine.generic import (
    GenericSearcher,
    SearchInterrupted,
    evaluation_of,
    search_position,
    solve_position,
    static_score,
    terminal_score,
    uses_generic_search,
)
from shared.engine.levels import Level, plan_search
from shared.engine.scores import SCORE_UNIT, is_decisive, stone_score
from shared.engine.search import quick_move
from shared.errors import IllegalMoveError, IllegalMoveReason
from shared.games import Game, Position, game_specs, get_game
from shared.games.othello import PASS
from shared.games.spec import Search

OTHELLO = get_game("othello")
PASS_LINE = "d3 c3 e6 d2 d1 e1 b2 c1"
"""Black to move must pass here (tests/unit/shared/test_games_othello.py)."""


def minimax(game: Game, position: Position, depth: int) -> int:
    """Plain minimax over the Game interface with the generic search's scores."""
    moves = game.legal_moves(position)
    if not moves:
        return terminal_score(game, position)
    if depth == 0:
        return static_score(game, position, evaluation_of(game))
    return max(-minimax(game, game.play_unchecked(position, m), depth - 1) for m in moves)


def random_position(game: Game, plies: int, seed: int) -> Position:
    rng = random.Random(seed)
    position = game.new()
    while position.ply < plies and game.legal_moves(position):
        position = game.play_unchecked(position, rng.choice(game.legal_moves(position)))
    return position


def test_the_search_is_picked_by_the_games_capability() -> None:
    for spec in game_specs():
        game = spec.build(**{s.name: s.low + 2 for s in spec.sizes})
        assert uses_generic_search(game) is (spec.search is Search.GENERIC)
    assert uses_generic_search(OTHELLO)
    assert not uses_generic_search(get_game("connect4"))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_alpha_beta_with_its_table_gives_the_minimax_value(seed: int, depth: int) -> None:
    position = random_position(OTHELLO, 6 + 7 * seed, seed)
    found = search(OTHELLO, position, depth=depth)
    assert found.score == minimax(OTHELLO, position, depth)
    assert found.move in OTHELLO.legal_moves(position)
    assert not found.exact and found.depth == depth


@pytest.mark.parametrize("seed", range(3))
def test_an_endgame_searched_to_the_end_is_exact_and_right(seed: int) -> None:
    position = random_position(OTHELLO, 56, seed)
    assume_ongoing = OTHELLO.legal_moves(position)
    assert assume_ongoing
    found = search(OTHELLO, position, level="perfect")
    assert found.exact and found.value.exact
    truth = minimax(OTHELLO, position, OTHELLO.max_plies)
    assert found.score == truth
    assert solve(OTHELLO, position) == stone_score(truth)
    assert str(found.value) in {"draw"} or str(found.value).split()[0] in {"win", "loss"}


def test_the_generic_search_solves_tictactoe_as_the_kernel_does() -> None:
    game = get_game("tictactoe")
    for text in ("", "b2", "b2 a1", "a1 b2 c3", "b2 a2 a1"):
        position = game.from_moves(text)
        assert solve_position(game, position) == solve(game, position) * SCORE_UNIT


def test_every_level_plays_othello_and_perfect_is_labelled_an_estimate() -> None:
    position = OTHELLO.new()
    for level in Level:
        found = search(OTHELLO, position, level=level, seed=7)
        assert found.move in OTHELLO.legal_moves(position)
        assert not found.exact
    perfect = search(OTHELLO, position, level="perfect", time_limit=0.3)
    assert summary(perfect).endswith(f"best guess after depth {perfect.depth}: {perfect.value}")


def test_a_side_that_must_pass_is_told_to_pass() -> None:
    position = OTHELLO.from_moves(PASS_LINE)
    for level in ("random", "easy", "hard"):
        found = search(OTHELLO, position, level=level, seed=1)
        assert (found.move, found.move_text) == (PASS, "pass")


def test_a_seeded_varied_level_is_reproducible() -> None:
    position = random_position(OTHELLO, 10, 3)
    moves = {search(OTHELLO, position, level="easy", seed=5).move for _ in range(3)}
    assert len(moves) == 1


def test_a_finished_game_has_nothing_to_search() -> None:
    finished = OTHELLO.from_moves("d3 c3 f5 f4 f3 d2 d1 e3 b3")
    with pytest.raises(IllegalMoveError) as caught:
        search(OTHELLO, finished, level="easy")
    assert caught.value.reason is IllegalMoveReason.GAME_OVER


def test_a_search_past_its_deadline_stops_and_the_root_still_answers() -> None:
    position = random_position(OTHELLO, 20, 1)
    with pytest.raises(SearchInterrupted):
        GenericSearcher(OTHELLO, deadline=0.0).negamax(position, -SCORE_UNIT, SCORE_UNIT, 5)
    plan = plan_search(None, 30, 0.05)
    found = search_position(OTHELLO, position, plan, rng=random.Random(1), deadline=0.0)
    assert found.move in OTHELLO.legal_moves(position) and found.depth < 30


def test_analyze_values_every_othello_move_best_first() -> None:
    position = random_position(OTHELLO, 12, 2)
    values = analyze(OTHELLO, position, time_limit=0.5)
    assert sorted(m for m, _ in values) == sorted(OTHELLO.legal_moves(position))
    scores = [value.score for _, value in values]
    assert scores == sorted(scores, reverse=True)
    assert all(not value.exact for _, value in values)


def test_analyze_proves_an_othello_endgame() -> None:
    position = random_position(OTHELLO, 56, 0)
    values = analyze(OTHELLO, position, time_limit=5.0)
    assert all(value.exact for _, value in values)
    best = values[0][1]
    assert best.score == minimax(OTHELLO, position, OTHELLO.max_plies)
    assert is_decisive(best.score) or best.score == 0


def test_a_quick_move_needs_no_search_and_is_legal_in_every_game() -> None:
    """The fallback when no search can run: the kernel's centre-first order on the
    grid boards (the engine pool's own fallback), the evaluation's favourite on
    Othello, the pass when it is the only move."""
    for name, moves in (("tictactoe", "b2"), ("connect4", "444444"), ("gomoku", "h8")):
        game = get_game(name)
        assert quick_move(game, game.from_moves(moves)) == centre_first_move(name, moves)
    for plies in (0, 10, 30):
        position = random_position(OTHELLO, plies, plies)
        assert quick_move(OTHELLO, position) in OTHELLO.legal_moves(position)
    assert quick_move(OTHELLO, OTHELLO.from_moves(PASS_LINE)) == PASS
