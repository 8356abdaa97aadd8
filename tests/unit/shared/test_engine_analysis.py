"""Post-game analysis (shared.engine.analysis): real searches over real games, no mocks."""

from __future__ import annotations

import pickle
from dataclasses import replace

import msgspec
import pytest

from shared.engine import SCORE_UNIT, search, solve, solve_move, solvers
from shared.engine.analysis import (
    Judgement,
    MoveReview,
    PositionValue,
    accuracy,
    analyse_game,
    analyse_position,
    review_move,
    turning_points,
    winning_chances,
)
from shared.engine.scores import POINTS
from shared.errors import IllegalMoveError, SearchLimitsError, UnknownGameError
from shared.games import get_game

TICTACTOE = get_game("tictactoe")
CONNECT4 = get_game("connect4")

X_THROWS_AWAY_THE_WIN = "b2 a1 c3 a3 a2 b1 c1 c2 b3"
"""O's b1 (move 6) walks into a loss; X's c1 (move 7) misses the win on c2, and
the game ends drawn; the last move is the only one left."""
BLUNDERS_BOTH_WAYS = "b1 c2 a1 a2 c1"
"""O's edge reply c2 loses a drawn game; X's a1 throws the win away for a loss
(O could win), O's a2 throws that win away and X wins."""


@pytest.fixture(scope="module")
def perfect_against_medium() -> str:
    """A Connect Four game of perfect (X) against medium (O) from the empty
    board, played out now with ``search`` (about a second: the opening book,
    then quick exact solves): perfect wins."""
    position, seed = CONNECT4.new(), 0
    while not CONNECT4.outcome(position).is_over:
        level = "perfect" if position.ply % 2 == 0 else "medium"
        position = CONNECT4.play(position, search(CONNECT4, position, level=level, seed=seed).move)
        seed += 1
    return CONNECT4.move_string(position)


def judgements(reviews: list[MoveReview]) -> list[str]:
    return [review.judgement.value for review in reviews]


def test_a_thrown_away_win_is_a_mistake_and_a_turning_point():
    """Exact values judge by the result: draw to loss is a blunder, win to draw a
    mistake; both are turning points, said with the move that kept the result."""
    reviews = list(analyse_game(TICTACTOE, X_THROWS_AWAY_THE_WIN))

    assert judgements(reviews) == [
        *["best"] * 5,
        "blunder",
        "mistake",
        "best",
        "forced",
    ]
    seventh = reviews[6]
    assert (seventh.side, seventh.move, seventh.best) == ("X", "c1", "c2")
    assert (seventh.value_before, seventh.value_after) == ("win in 1", "draw")
    assert seventh.line == ("c2",) and seventh.exact
    assert [point.text for point in turning_points(reviews)] == [
        "move 6 (O): b1 threw away the draw and lost in 1; c2 held the draw",
        "move 7 (X): c1 threw away the win; c2 won in 1",
    ]
    assert [point.ply for point in turning_points(reviews)] == [5, 6]


def test_a_win_turned_into_a_loss_is_a_blunder():
    """Win to loss is a blunder, whoever makes it; the winner's last move is best."""
    reviews = list(analyse_game(TICTACTOE, BLUNDERS_BOTH_WAYS))

    assert judgements(reviews) == ["best", "blunder", "blunder", "blunder", "best"]
    assert turning_points(reviews)[1].text == (
        "move 3 (X): a1 threw away the win and lost in 3; b2 won in 3"
    )
    assert accuracy(reviews, "X") < 100 and accuracy(reviews, "O") < 100


def test_perfect_play_is_all_best_with_accuracy_100():
    """A game of perfect moves on both sides: every move best (the last, forced),
    no turning point, both players 100."""
    position = TICTACTOE.new()
    while not TICTACTOE.outcome(position).is_over:
        position = TICTACTOE.play(position, solve_move(TICTACTOE, position).move)

    reviews = list(analyse_game(TICTACTOE, TICTACTOE.move_string(position)))

    assert len(reviews) == 9
    assert set(judgements(reviews[:-1])) == {"best"} and reviews[-1].judgement is Judgement.FORCED
    assert all(review.value_before == review.value_after == "draw" for review in reviews)
    assert turning_points(reviews) == []
    assert accuracy(reviews, "X") == accuracy(reviews, "O") == 100.0


def test_every_connect_four_move_is_reviewed_and_exact_values_match_solve(
    perfect_against_medium: str,
):
    """perfect against medium: a review per move, in order; where a value is
    marked exact it is the solver's (checked past the book, where solving is
    quick); perfect's moves all keep its win and no turning point is its.

    A second a position, not the default 0.2 s: each of these positions is
    solved in milliseconds on a quiet machine, but on a loaded one a position
    not proved in time is judged on an estimate, and its move may then read as
    "good" rather than "best" (seen once, at a load of 4)."""
    reviews = list(analyse_game(CONNECT4, perfect_against_medium, seconds_per_position=1.0))

    moves = list(perfect_against_medium)
    assert [review.move for review in reviews] == moves
    assert [review.ply for review in reviews] == list(range(len(moves)))
    assert [review.side for review in reviews] == ["XO"[ply % 2] for ply in range(len(moves))]
    assert reviews[0].exact_before  # the empty board: from the opening book
    checked = 0
    for review in reviews[12:]:
        before = CONNECT4.from_moves(perfect_against_medium[: review.ply])
        after = CONNECT4.play(before, CONNECT4.parse_move(before, review.move))
        if review.exact_before:
            assert review.score_before == solve(CONNECT4, before) * SCORE_UNIT, review
            checked += 1
        if review.exact_after and not CONNECT4.outcome(after).is_over:
            assert review.score_after == -solve(CONNECT4, after) * SCORE_UNIT, review
    assert checked >= 5
    assert reviews[-1].value_after == "win in 1" and reviews[-1].side == "X"
    assert accuracy(reviews, "X") == 100.0
    assert all(review.judgement in (Judgement.BEST, Judgement.FORCED) for review in reviews[::2])
    assert all(point.ply % 2 == 1 for point in turning_points(reviews))


@pytest.mark.parametrize("stones", [30, 33, 35])
def test_a_position_with_one_safe_move_is_valued_exactly(stones, monkeypatch):
    """With the pure solver (no Connect Four position solves everywhere, so the
    opening database's policy is off), search() only glances at a position where
    one move does not lose at once (a heuristic +39 for a drawn position); the
    review follows that move and gets the exact value. (With the compiled solver
    and the database, search() proves such a position itself:
    test_engine_exact_values.py.)"""
    monkeypatch.setenv(solvers.ENGINE_ENV, "python")
    game_moves = "426552522655664464414653111113333377227777"  # medium against medium
    position = CONNECT4.from_moves(game_moves[:stones])
    assert not search(CONNECT4, position, level="perfect", time_limit=0.2).exact

    found = analyse_position(CONNECT4, position, seconds=0.2)

    assert found.exact and found.score == solve(CONNECT4, position) * SCORE_UNIT
    assert found.line[0] == found.best


def test_reviews_come_one_position_at_a_time():
    """The first review is yielded once positions 0 and 1 are searched, before
    any later one: the clock (read before and after each position) says which."""
    reads: list[int] = []

    def clock() -> float:
        reads.append(len(reads))
        return float(len(reads))

    reviews = analyse_game(TICTACTOE, X_THROWS_AWAY_THE_WIN, clock=clock)
    assert reads == []  # nothing is searched until asked

    first = next(reviews)
    assert first.ply == 0 and len(reads) == 4  # positions 0 and 1
    assert first.seconds == 1.0  # the clock's reading, not the wall's

    second = next(reviews)
    assert second.ply == 1 and len(reads) == 6  # one more position
    assert len(list(reviews)) == 7 and len(reads) == 2 * 10  # ten positions in all


def test_an_unfinished_game_is_reviewed_up_to_its_last_move():
    """The last move is judged against a search of the position it left."""
    reviews = list(analyse_game("tictactoe", "b2 a2 a1"))

    assert judgements(reviews) == ["best", "blunder", "best"]
    # Both values count the mover's moves from before the move, this one included.
    assert reviews[-1].value_before == reviews[-1].value_after == "win in 3"
    assert reviews[-1].exact_after


def test_an_empty_game_has_nothing_to_review():
    assert list(analyse_game(TICTACTOE, "")) == []
    assert accuracy([], "X") == 100.0


@pytest.mark.parametrize(
    ("game", "moves", "error"),
    [
        ("tictactoe", "b2 b2", IllegalMoveError),
        ("tictactoe", "b2 z9", IllegalMoveError),
        ("connect4", "4444444", IllegalMoveError),
        ("tictactoe", "a1 b1 a2 b2 a3 c3", IllegalMoveError),  # a move after the win
        ("chess", "e4", UnknownGameError),
    ],
)
def test_bad_input_raises_the_engines_typed_errors_at_once(game, moves, error):
    """Before anything is searched or yielded: the call itself raises."""
    with pytest.raises(error):
        analyse_game(game, moves)


@pytest.mark.parametrize("seconds", [0, -1, 4000, "fast"])
def test_a_bad_budget_is_refused(seconds):
    with pytest.raises(SearchLimitsError):
        analyse_game(TICTACTOE, "b2", seconds_per_position=seconds)


def test_an_illegal_move_names_itself():
    with pytest.raises(IllegalMoveError, match="move 2"):
        analyse_game(TICTACTOE, "b2 b2 a1")


def test_a_review_is_plain_data_for_json_and_pickle():
    """msgspec encodes it as JSON and decodes it back equal; it pickles."""
    review = next(analyse_game(TICTACTOE, "b2 a2"))
    encoded = msgspec.json.encode(review)
    assert b'"judgement":"best"' in encoded
    assert msgspec.json.decode(encoded, type=MoveReview) == review
    assert pickle.loads(pickle.dumps(review)) == review


# Judgements between estimates, on hand-made values: the rules, not the engine.

POSITION = CONNECT4.from_moves("4444")


def value(points: float, *, exact: bool = False, best: str = "3") -> PositionValue:
    score = round(points * POINTS) if not exact else round(points) * SCORE_UNIT
    return PositionValue(score, exact, best, (best, "4"), moves=7)


def judge(before: PositionValue, after_for_mover: PositionValue, move: str = "1") -> Judgement:
    after = replace(after_for_mover, score=-after_for_mover.score)
    return review_move(CONNECT4, POSITION, move, before, after).judgement


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (2.0, 2.0, Judgement.BEST),
        (2.0, 5.0, Judgement.BEST),  # better than the engine thought
        (2.0, 1.0, Judgement.GOOD),
        (2.0, -0.5, Judgement.INACCURACY),  # 0.1 to 0.2 of winning chances
        (2.0, -3.0, Judgement.MISTAKE),
        (2.0, -6.0, Judgement.BLUNDER),
    ],
)
def test_estimates_are_judged_by_the_drop_in_winning_chances(before, after, expected):
    assert judge(value(before), value(after)) is expected


def test_the_engines_own_move_is_best_whatever_the_two_searches_said():
    """Neighbouring positions searched to different horizons disagree a little:
    not the player's fault."""
    review = review_move(CONNECT4, POSITION, "3", value(6.0), replace(value(-1.0), score=100))
    assert review.judgement is Judgement.BEST and review.drop == 0.0 and review.line == ()


def test_a_proven_win_against_an_estimate_is_at_most_an_inaccuracy():
    """A proven win then an estimate of +4: whether the win was kept is unknown,
    the upper hand was; a proven win then an estimate of -4 is a change of side."""
    assert judge(value(5, exact=True), value(4.0)) is Judgement.INACCURACY
    assert judge(value(5, exact=True), value(-4.0)) is Judgement.BLUNDER
    assert judge(value(8.0), value(0, exact=True)) is Judgement.MISTAKE  # as win to draw
    assert judge(value(4.0), value(-3, exact=True)) is Judgement.BLUNDER


def test_the_only_legal_move_is_forced_and_not_counted():
    before = replace(value(-6.0), moves=1)
    review = review_move(CONNECT4, POSITION, "1", before, replace(value(6.0), score=6 * POINTS))
    assert review.judgement is Judgement.FORCED
    assert accuracy([review], "X") == 100.0


def test_slower_wins_are_good_then_inaccurate():
    """The same result slower by up to two of the winner's moves is good; more, an inaccuracy."""
    assert judge(value(9, exact=True), value(9, exact=True)) is Judgement.BEST
    assert judge(value(9, exact=True), value(7, exact=True)) is Judgement.GOOD
    assert judge(value(9, exact=True), value(6, exact=True)) is Judgement.INACCURACY
    assert judge(value(-6, exact=True), value(-9, exact=True)) is Judgement.INACCURACY


def test_winning_chances_follow_the_sign_and_saturate():
    assert winning_chances(0, exact=True) == 0.0
    assert winning_chances(-2 * SCORE_UNIT, exact=False) == -1.0
    assert 0 < winning_chances(3 * POINTS, exact=False) < winning_chances(30 * POINTS, exact=False)
