"""Post-game analysis (boardroom.shared.engine.analysis): real searches over real games, no
mocks."""

from __future__ import annotations

import math
import pickle
from dataclasses import replace

import msgspec
import pytest

from boardroom.shared.engine import SCORE_UNIT, search, solve, solve_move, solvers
from boardroom.shared.engine.analysis import (
    EVEN_CHANCES,
    INACCURACY_DROP,
    MISTAKE_DROP,
    MUCH_SLOWER,
    Judgement,
    MoveReview,
    PositionValue,
    accuracy,
    analyse_game,
    analyse_position,
    estimated,
    review_move,
    turning_points,
    winning_chances,
)
from boardroom.shared.engine.scores import POINTS
from boardroom.shared.errors import IllegalMoveError, SearchLimitsError, UnknownGameError
from boardroom.shared.games import get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

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


def test_a_thrown_away_win_is_a_blunder_and_a_turning_point():
    """Exact values judge by the result: draw to loss and win to draw are both
    blunders (they lower the value) and turning points, said with the move that
    kept the result: O let X win in one, then X missed that win in one."""
    reviews = list(analyse_game(TICTACTOE, X_THROWS_AWAY_THE_WIN))

    assert judgements(reviews) == [
        *["best"] * 5,
        "blunder",
        "blunder",
        "best",
        "forced",
    ]
    seventh = reviews[6]
    assert (seventh.side, seventh.move, seventh.best) == ("X", "c1", "c2")
    assert (seventh.value_before, seventh.value_after) == ("win in 1", "draw")
    assert seventh.line == ("c2",) and seventh.exact
    assert [point.text for point in turning_points(reviews)] == [
        "move 6 (O): b1 threw away the draw and let X win in one; c2 held the draw",
        "move 7 (X): c1 missed a win in one; c2 won at once",
    ]
    points = turning_points(reviews)
    assert [(p.ply, p.kind, p.move, p.best, p.lets_win_in_one) for p in points] == [
        (5, "threw_away_draw", "b1", "c2", True),
        (6, "missed_win_in_one", "c1", "c2", False),
    ]
    assert all(review.lowered for review in reviews[5:7])
    assert not any(review.lowered for review in reviews[:5] + reviews[7:])


def test_a_win_turned_into_a_loss_is_a_blunder():
    """Win to loss is a blunder, whoever makes it; the winner's last move is best."""
    reviews = list(analyse_game(TICTACTOE, BLUNDERS_BOTH_WAYS))

    assert judgements(reviews) == ["best", "blunder", "blunder", "blunder", "best"]
    assert [point.text for point in turning_points(reviews)[1:]] == [
        "move 3 (X): a1 threw away the win and lost in 3; b2 won in 3",
        "move 4 (O): a2 threw away the win and let X win in one; c1 won in 3",
    ]
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


# The rules on hand-made values (the ladder of the module docstring), not the engine.

POSITION = CONNECT4.from_moves("4444")


def value(points: float, *, exact: bool = False, best: str = "3") -> PositionValue:
    """A value for the mover: ``points`` of estimate, or with ``exact`` a stone
    score (positive a win, 0 a draw, negative a loss)."""
    score = round(points * POINTS) if not exact else round(points) * SCORE_UNIT
    return PositionValue(score, exact, best, (best, "4"), moves=7)


def review(before: PositionValue, after_for_mover: PositionValue, move: str = "1") -> MoveReview:
    after = replace(after_for_mover, score=-after_for_mover.score)
    return review_move(CONNECT4, POSITION, move, before, after)


def judge(before: PositionValue, after_for_mover: PositionValue, move: str = "1") -> Judgement:
    return review(before, after_for_mover, move).judgement


WIN, DRAW, LOSS = 9, 0, -9
"""Stone scores: a win, a draw, a loss (exact when passed with ``exact=True``)."""


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        # Both proven: lowering the value is a blunder...
        (WIN, DRAW, Judgement.BLUNDER),
        (WIN, LOSS, Judgement.BLUNDER),
        (DRAW, LOSS, Judgement.BLUNDER),
        # ...keeping it never worse than an inaccuracy, by the speed.
        (WIN, WIN, Judgement.BEST),
        (WIN, WIN - 1, Judgement.GOOD),
        (WIN, WIN - (MUCH_SLOWER - 1), Judgement.GOOD),
        (WIN, WIN - MUCH_SLOWER, Judgement.INACCURACY),
        (WIN, 1, Judgement.INACCURACY),  # the slowest win there is
        (DRAW, DRAW, Judgement.BEST),
        (LOSS, LOSS, Judgement.BEST),
        (LOSS, LOSS - 1, Judgement.GOOD),  # a loss one move sooner
        (LOSS, LOSS - MUCH_SLOWER, Judgement.INACCURACY),
        (LOSS, DRAW, Judgement.BEST),  # better than proven: cannot happen, not held against
    ],
)
def test_between_proven_values_the_move_is_judged_by_the_result(before, after, expected):
    assert judge(value(before, exact=True), value(after, exact=True)) is expected


def test_the_engines_own_move_keeping_a_proven_value_is_best_however_slow():
    """Two proven values from two sources (a database, a solve) name the same
    result: the engine's move keeps it, whatever distance each says."""
    assert judge(value(WIN, exact=True), value(2, exact=True), move="3") is Judgement.BEST
    assert judge(value(WIN, exact=True), value(DRAW, exact=True), move="3") is Judgement.BLUNDER


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        # A proven value before, an estimate after: judged by the sides only, at
        # worst an inaccuracy. Was the win kept? Unknown: the estimate's side says.
        (value(WIN, exact=True), value(4.0), Judgement.INACCURACY),  # even: below the win
        (value(WIN, exact=True), value(-30.0), Judgement.INACCURACY),
        (value(WIN, exact=True), value(12.65), Judgement.GOOD),  # perfect's move, not re-proven
        (value(WIN, exact=True), value(45.0), Judgement.GOOD),
        (value(DRAW, exact=True), value(-10.0), Judgement.INACCURACY),
        (value(DRAW, exact=True), value(-1.0), Judgement.GOOD),
        (value(DRAW, exact=True), value(3.0), Judgement.GOOD),
        (value(DRAW, exact=True), value(20.0), Judgement.BEST),
        (value(LOSS, exact=True), value(-25.0), Judgement.GOOD),  # nothing left to lose
        (value(LOSS, exact=True), value(0.0), Judgement.BEST),
        # An estimate before, a proven value after: the same.
        (value(3.0), value(LOSS, exact=True), Judgement.INACCURACY),  # was it lost before?
        (value(30.0), value(DRAW, exact=True), Judgement.INACCURACY),
        (value(3.0), value(DRAW, exact=True), Judgement.GOOD),
        (value(-30.0), value(LOSS, exact=True), Judgement.GOOD),
        (value(-3.0), value(WIN, exact=True), Judgement.BEST),
    ],
)
def test_a_proven_value_is_never_compared_with_an_estimate_to_call_a_move_bad(
    before, after, expected
):
    judged = review(before, after)
    assert judged.judgement is expected
    assert not judged.exact and not judged.lowered
    # The accuracy loses what an estimate's inaccuracy does for a worse side, else nothing.
    worse = expected is Judgement.INACCURACY
    assert judged.drop == (INACCURACY_DROP if worse else 0.0)


def test_an_estimate_counts_as_even_near_zero_against_a_proven_value():
    edge = math.log((1 + EVEN_CHANCES) / (1 - EVEN_CHANCES)) / 0.1  # points at the edge
    assert judge(value(WIN, exact=True), value(edge + 0.05)) is Judgement.GOOD
    assert judge(value(WIN, exact=True), value(edge - 0.05)) is Judgement.INACCURACY


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (2.0, 2.0, Judgement.BEST),
        (2.0, 5.0, Judgement.BEST),  # better than the engine thought
        (2.0, 1.0, Judgement.GOOD),
        (2.0, -1.5, Judgement.GOOD),  # 0.17 of winning chances: Lichess's inaccuracy, not ours
        (2.0, -3.0, Judgement.INACCURACY),  # 0.2 to 0.4
        (2.0, -7.0, Judgement.MISTAKE),  # 0.4 or more
        (20.0, -30.0, Judgement.MISTAKE),  # from winning to losing: an estimate proves no blunder
    ],
)
def test_estimates_are_judged_cautiously_by_the_drop_in_winning_chances(before, after, expected):
    judged = review(value(before), value(after))
    assert judged.judgement is expected and not judged.exact and not judged.lowered


def test_the_thresholds_are_more_cautious_than_lichess():
    assert (INACCURACY_DROP, MISTAKE_DROP) == (0.2, 0.4)


def test_the_engines_own_move_is_best_whatever_the_two_searches_said():
    """Neighbouring positions searched to different horizons disagree a little:
    not the player's fault."""
    review = review_move(CONNECT4, POSITION, "3", value(6.0), replace(value(-1.0), score=100))
    assert review.judgement is Judgement.BEST and review.drop == 0.0 and review.line == ()
    engines = review_move(
        CONNECT4, POSITION, "3", value(6.0), replace(value(LOSS, exact=True), score=-LOSS)
    )
    assert engines.judgement is Judgement.BEST  # an estimate, then a loss: the engine's choice


def test_the_only_legal_move_is_forced_and_not_counted():
    before = replace(value(-6.0), moves=1)
    review = review_move(CONNECT4, POSITION, "1", before, replace(value(6.0), score=6 * POINTS))
    assert review.judgement is Judgement.FORCED
    assert accuracy([review], "X") == 100.0
    proven = review_move(
        CONNECT4, POSITION, "1", replace(value(WIN, exact=True), moves=1), value(0, exact=True)
    )
    assert proven.judgement is Judgement.FORCED


def test_accuracy_counts_results_between_proven_values():
    """A move that keeps the value scores 100, a much slower win too (its mark
    says it); a win thrown to a draw or a draw to a loss 8.5, a win to a loss 0."""
    kept = review(value(WIN, exact=True), value(1, exact=True))
    assert kept.judgement is Judgement.INACCURACY and accuracy([kept], "X") == 100.0
    for before, after, expected in [(WIN, DRAW, 8.5), (DRAW, LOSS, 8.5), (WIN, LOSS, 0.0)]:
        lowered = review(value(before, exact=True), value(after, exact=True))
        assert round(accuracy([lowered], "X"), 1) == expected


def test_a_player_who_never_lowered_the_value_has_the_higher_accuracy():
    """Between proven values: slow, sloppy but value-keeping moves against one
    move that lowered the value in many perfect ones."""
    sloppy = [review(value(WIN, exact=True), value(1, exact=True)) for _ in range(20)]
    careless = [review(value(DRAW, exact=True), value(DRAW, exact=True)) for _ in range(39)]
    careless.append(review(value(DRAW, exact=True), value(LOSS, exact=True)))
    assert accuracy(sloppy, "X") == 100.0 > accuracy(careless, "X")


def test_a_review_resting_on_an_estimate_is_marked_estimated():
    proven = review(value(WIN, exact=True), value(WIN, exact=True))
    assert not estimated([proven]) and not estimated([])
    assert estimated([proven, review(value(WIN, exact=True), value(4.0))])
    forced = review_move(CONNECT4, POSITION, "1", replace(value(2.0), moves=1), value(-2.0))
    assert not estimated([proven, forced])  # a forced move is not judged


def test_estimate_mistakes_are_turning_points_said_as_estimates():
    mistake = review(value(2.0), value(-7.0))
    (point,) = turning_points([mistake])
    assert point.kind == "estimate_drop" and point.best == "3"
    assert point.text == "move 5 (X): 1 went from +2.00 to -7.00 (estimates); 3 was worth +2.00"
    assert turning_points([review(value(WIN, exact=True), value(-30.0))]) == []


def test_winning_chances_follow_the_sign_and_saturate():
    assert winning_chances(0, exact=True) == 0.0
    assert winning_chances(-2 * SCORE_UNIT, exact=False) == -1.0
    assert 0 < winning_chances(3 * POINTS, exact=False) < winning_chances(30 * POINTS, exact=False)
