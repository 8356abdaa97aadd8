"""Reviews of whole Connect Four games, judged move by move against an independent solver.

Issue 25's "done": AI matches and random-move games are reviewed by
:func:`boardroom.shared.engine.analysis.analyse_game`, and every position's value and
every judgement is checked against bitbully (tests/connect4_oracle.py), a C++
solver with its own reader of the opening database:

- every value is exact and equal to the solver's;
- every move that lowers the game-theoretic value (a win to a draw or a loss, a
  draw to a loss) is a blunder and a turning point;
- no move that keeps the value is a mistake or a blunder, and the ``perfect``
  level's moves, which keep it always, get no "??".
"""

from __future__ import annotations

import random

import pytest
from connect4_oracle import CONNECT4, result, stone_score

from boardroom.shared.engine import search
from boardroom.shared.engine.analysis import Judgement, MoveReview, analyse_game, turning_points
from boardroom.shared.engine.scores import stone_score as engine_stones

pytestmark = [
    pytest.mark.e2e,  # whole games searched and solved: seconds each
    pytest.mark.usefixtures("compiled_solver_ready"),
]


def play(levels: tuple[str, str], seed: int, opening: str = "") -> str:
    """A whole game from ``opening`` between two levels (``random`` included), X
    first; the moves as the engine writes them."""
    position = CONNECT4.from_moves(opening)
    while not CONNECT4.outcome(position).is_over:
        level = levels[position.ply & 1]
        found = search(CONNECT4, position, level=level, seed=seed * 100 + position.ply)
        position = CONNECT4.play(position, found.move)
    return "".join(CONNECT4.format_move(move) for move in position.moves)


def random_game(seed: int) -> str:
    """A game of uniformly random legal moves."""
    rng = random.Random(seed)
    position = CONNECT4.new()
    while not CONNECT4.outcome(position).is_over:
        position = CONNECT4.play(position, rng.choice(CONNECT4.legal_moves(position)))
    return "".join(CONNECT4.format_move(move) for move in position.moves)


def check_against_the_solver(moves: str, reviews: list[MoveReview]) -> list[int]:
    """Assert what the module docstring promises for one reviewed game; the plies
    of the moves that lowered the value."""
    assert len(reviews) == len(moves)
    turning = {point.ply for point in turning_points(reviews)}
    lowered = []
    for review in reviews:
        ply = review.ply
        before = stone_score(moves[:ply])
        after = -stone_score(moves[: ply + 1])
        where = f"{moves}: move {ply + 1} ({review.side} {review.move}), {review}"
        assert review.exact_before and review.exact_after, where
        assert engine_stones(review.score_before) == before, where
        assert engine_stones(review.score_after) == after, where
        if result(after) < result(before):
            lowered.append(ply)
            assert review.judgement is Judgement.BLUNDER, where
            assert ply in turning, where
        else:
            assert review.judgement not in (Judgement.MISTAKE, Judgement.BLUNDER), where
            assert ply not in turning, where
    return lowered


MATCHES = [
    (("perfect", "easy"), 1),
    (("easy", "perfect"), 2),
    (("medium", "medium"), 3),
    (("hard", "medium"), 4),
]


@pytest.mark.parametrize(("levels", "seed"), MATCHES, ids=["-".join(m[0]) for m in MATCHES])
def test_an_ai_match_is_judged_by_the_values_the_solver_proves(
    levels: tuple[str, str], seed: int
) -> None:
    moves = play(levels, seed)
    reviews = list(analyse_game(CONNECT4, moves))
    check_against_the_solver(moves, reviews)
    if "perfect" in levels:
        perfect_side = "XO"[levels.index("perfect")]
        mine = [r for r in reviews if r.side == perfect_side]
        assert all(r.judgement is not Judgement.BLUNDER for r in mine)
        assert all(result(r.score_after) == result(r.score_before) for r in mine)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_random_game_has_its_every_lost_result_called_a_blunder(seed: int) -> None:
    moves = random_game(seed)
    reviews = list(analyse_game(CONNECT4, moves))
    lowered = check_against_the_solver(moves, reviews)
    assert lowered, "a random game throws the result away somewhere"


def test_the_perfect_ai_match_the_old_rules_misjudged_has_no_blunder_for_perfect() -> None:
    """Perfect (X) against easy (O): 4 6 6 4 4 1 4 4 7 1, then perfect's 4 at
    move 11, which the old review called "4?? blunder (+14.07->+4.46)"."""
    opening = "46644144714"
    assert stone_score(opening[:10]) > 0 and -stone_score(opening) == stone_score(opening[:10])
    moves = play(("perfect", "easy"), 7, opening)
    reviews = list(analyse_game(CONNECT4, moves))
    check_against_the_solver(moves, reviews)
    assert reviews[10].judgement is Judgement.BEST
    assert not [r for r in reviews if r.side == "X" and r.judgement is Judgement.BLUNDER]


def test_the_move_that_threw_the_win_away_is_a_blunder_and_a_turning_point() -> None:
    """4 4 4 4 4 4 3 2 5 against perfect: X's 5 at move 9 turns a win in 17 into
    a loss in 17 (the old review: "?! inaccuracy", "Turning points: none")."""
    moves = play(("perfect", "perfect"), 5, "444444325")
    reviews = list(analyse_game(CONNECT4, moves))
    check_against_the_solver(moves, reviews)
    ninth = reviews[8]
    assert (ninth.value_before, ninth.value_after) == ("win in 17", "loss in 17")
    assert ninth.judgement is Judgement.BLUNDER
    (point,) = turning_points(reviews)
    assert point.ply == 8 and "threw away the win" in point.text
