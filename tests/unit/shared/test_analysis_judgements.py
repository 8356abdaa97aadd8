"""Reviews of real Connect Four games judged by the game-theoretic value, checked
against bitbully (an independent C++ solver with its 12-stone database), never
against our own engine only: a move that lowers the value is a blunder and a
turning point, a move that keeps it is never a mistake or a blunder.

bitbully's ``BoardCore.play`` takes 0-based columns (``"3"`` is our column 4);
its scores are stone scores for the player to move, as ours
(:mod:`boardroom.shared.engine.scores`).
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import bitbully.bitbully_core as bbc
import bitbully_databases
import pytest

from boardroom.shared.engine import SCORE_UNIT
from boardroom.shared.engine.analysis import (
    Judgement,
    MoveReview,
    PositionValue,
    accuracy,
    analyse_position,
    estimated,
    review_move,
    turning_points,
)
from boardroom.shared.games import Position, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

CONNECT4 = get_game("connect4")
DATABASE = Path(bitbully_databases.__file__).parent / "assets" / "book_12ply_distances.dat"

THROWN_WIN = "444444325"
"""The issue's game against the perfect AI: X's 9th move (5) turns a win in 17
into a loss in 17; 6 kept the win."""
PERFECT_AGAINST_EASY = "46644147714"
"""The issue's AI match that was judged wrong (perfect is X): the old rules called
perfect's 11th move (4) a blunder on two estimates and gave easy 100%."""
LATE_GAMES = (
    "426552522655664464414653111113333377227777",
    "354454215442551221425216777766677333336611",
    "521411422255544442553233333777777111666666",
)
"""Three whole games (medium against medium, easy against easy): reviewed from
20 stones on, as played and with random moves from there."""
FROM_STONES = 20


@cache
def solver() -> bbc.BitBullyCore:
    return bbc.BitBullyCore(DATABASE)


def board(moves: str) -> bbc.BoardCore:
    found = bbc.BoardCore()
    assert found.play("".join(str(int(column) - 1) for column in moves))
    return found


def truth(moves: str) -> int:
    """bitbully's stone score of the position after ``moves``, for the player to move;
    a finished game's result as our engine scores it."""
    position = CONNECT4.from_moves(moves)
    outcome = CONNECT4.outcome(position)
    if outcome.is_over:
        return 0 if outcome.winner is None else -(22 - (position.ply + 1) // 2)
    return int(solver().mtdf(board(moves), 0))


def bitbully_value(moves: str) -> PositionValue:
    """A position's exact value as bitbully gives it, with its best move."""
    position = CONNECT4.from_moves(moves)
    score = truth(moves)
    if CONNECT4.outcome(position).is_over:
        return PositionValue(score * SCORE_UNIT, True, "", (), 0)
    by_column = list(solver().scoreMoves(board(moves)))
    best = max(range(7), key=lambda column: by_column[column])
    legal = len(CONNECT4.legal_moves(position))
    return PositionValue(score * SCORE_UNIT, True, str(best + 1), (str(best + 1),), legal)


def lowered(moves: str, ply: int) -> bool:
    """True if move ``ply`` of ``moves`` lowered the value (bitbully's signs)."""
    before, after = truth(moves[:ply]), -truth(moves[: ply + 1])
    return (after > 0) - (after < 0) < (before > 0) - (before < 0)


def bitbully_reviews(moves: str) -> list[MoveReview]:
    """Every move of ``moves`` judged by our rules on bitbully's values."""
    reviews = []
    position = CONNECT4.new()
    for ply, move in enumerate(moves):
        before, after = bitbully_value(moves[:ply]), bitbully_value(moves[: ply + 1])
        reviews.append(review_move(CONNECT4, position, move, before, after))
        position = CONNECT4.play(position, CONNECT4.parse_move(position, move))
    return reviews


def test_the_move_that_threw_away_the_win_is_a_blunder_and_a_turning_point():
    """The issue's game, judged on bitbully's values: move 9 is a blunder, said in
    words; every earlier move kept the value and is best; X's accuracy shows it."""
    reviews = bitbully_reviews(THROWN_WIN)
    ninth = reviews[8]
    assert (ninth.value_before, ninth.value_after) == ("win in 17", "loss in 17")
    assert ninth.judgement is Judgement.BLUNDER and ninth.lowered and ninth.best == "6"
    assert [r.judgement for r in reviews[:8]] == [Judgement.BEST] * 8
    (point,) = turning_points(reviews)
    assert point.ply == 8 and point.kind == "win_to_loss"
    assert point.text == "move 9 (X): 5 threw away the win and lost in 17; 6 won in 17"
    assert accuracy(reviews, "O") == 100.0 > accuracy(reviews, "X")
    assert not estimated(reviews)


def test_perfect_keeps_the_value_and_gets_no_blunder():
    """The perfect-vs-easy match, on bitbully's values: nobody lowered the value
    (easy lost faster, perfect won a move slower once), so no move is worse than
    good, there is no turning point, and both have 100%."""
    reviews = bitbully_reviews(PERFECT_AGAINST_EASY)
    assert not any(lowered(PERFECT_AGAINST_EASY, ply) for ply in range(len(reviews)))
    assert {r.judgement for r in reviews} <= {Judgement.BEST, Judgement.GOOD}
    assert reviews[10].judgement is Judgement.BEST  # the old rules' "4?? blunder"
    assert [r.ply for r in reviews if r.judgement is Judgement.GOOD] == [1, 5, 8]
    assert turning_points(reviews) == []
    assert accuracy(reviews, "X") == accuracy(reviews, "O") == 100.0


def random_continuation(moves: str, seed: int) -> str:
    """``moves`` to :data:`FROM_STONES` stones, then random moves to the end."""
    rng = random.Random(seed)
    position = CONNECT4.from_moves(moves[:FROM_STONES])
    while not CONNECT4.outcome(position).is_over:
        position = CONNECT4.play(position, rng.choice(CONNECT4.legal_moves(position)))
    return CONNECT4.move_string(position)


def review_from(moves: str, start: int) -> list[MoveReview]:
    """Our engine's reviews of moves ``start`` on (the server's way: one value a position)."""
    position: Position = CONNECT4.from_moves(moves[:start])
    before = analyse_position(CONNECT4, position, seconds=1.0)
    reviews = []
    for move in moves[start:]:
        child = CONNECT4.play(position, CONNECT4.parse_move(position, move))
        after = analyse_position(CONNECT4, child, seconds=1.0)
        reviews.append(review_move(CONNECT4, position, move, before, after))
        position, before = child, after
    return reviews


@pytest.mark.parametrize(
    "moves",
    [
        *LATE_GAMES,
        *(random_continuation(game, seed) for seed, game in enumerate(LATE_GAMES)),
        random_continuation(LATE_GAMES[0], 7),
    ],
)
def test_late_connect_four_reviews_judge_by_bitbullys_values(moves):
    """From 20 stones on (solved in milliseconds): every value exact and
    bitbully's; a move that lowers the value is a blunder and a turning point,
    and only those are; a move that keeps it is at worst an inaccuracy."""
    reviews = review_from(moves, FROM_STONES)
    for review in reviews:
        ply = review.ply
        assert review.exact, review
        assert review.score_before == truth(moves[:ply]) * SCORE_UNIT, review
        assert review.score_after == -truth(moves[: ply + 1]) * SCORE_UNIT, review
        if lowered(moves, ply):
            assert review.judgement is Judgement.BLUNDER and review.lowered, review
        else:
            assert review.judgement not in (Judgement.MISTAKE, Judgement.BLUNDER), review
    assert [point.ply for point in turning_points(reviews)] == [
        ply for ply in range(FROM_STONES, len(moves)) if lowered(moves, ply)
    ]
    assert not estimated(reviews)
