"""Glicko-2: the paper's worked example, a game worked by hand, and the rules around them.

Ratings go in and come out as numbers, so every test is exact and instantaneous.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardroom.server.ratings.glicko2 import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    Rating,
    RatingError,
    rate_game,
    update,
)

ratings = st.floats(min_value=100.0, max_value=3000.0)
deviations = st.floats(min_value=MIN_DEVIATION, max_value=MAX_DEVIATION)
volatilities = st.floats(min_value=0.02, max_value=0.12)
players = st.builds(Rating, ratings, deviations, volatilities)


# -- The paper's example and a game by hand ----------------------------------------------


def test_glickmans_worked_example_gives_the_papers_numbers() -> None:
    """1500/200/0.06 beating 1400/30 and losing to 1550/100 and 1700/300 (tau 0.5)."""
    player = Rating(1500.0, 200.0, 0.06)
    results = [
        (Rating(1400.0, 30.0), 1.0),
        (Rating(1550.0, 100.0), 0.0),
        (Rating(1700.0, 300.0), 0.0),
    ]

    after = update(player, results, tau=0.5)

    # The paper prints mu' = -0.2069 and phi' = 0.8722 on its own scale, then
    # r' = 173.7178 * -0.2069 + 1500 = 1464.06: from the rounded mu'. The unrounded
    # value is 1464.0507, so the rating agrees with the print to within 0.01.
    assert round((after.rating - 1500.0) / 173.7178, 4) == -0.2069
    assert round(after.deviation / 173.7178, 4) == 0.8722
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_first_game_between_newcomers_matches_the_hand_computation() -> None:
    """Two newcomers (1500/350/0.06), the first wins: 1662.31 and 1337.69, RD 290.32."""
    # By hand, on the Glicko-2 scale (173.7178 points to a unit), for the winner:
    #   phi   = 350 / 173.7178                        = 2.014762
    #   g     = 1 / sqrt(1 + 3 phi² / pi²)            = 0.669069  (opponent equally unsure)
    #   E     = 1 / (1 + exp(-g * (0 - 0)))           = 0.5       (equal ratings)
    #   v     = 1 / (g² E (1 - E))                    = 8.935475
    #   delta = v g (1 - E)                           = 2.989226  (feeds the volatility step)
    #   sigma' stays 0.06: the iteration moves it by 3e-7, far below what shows here
    #   phi*  = sqrt(phi² + sigma²)                   = 2.015655
    #   phi'  = 1 / sqrt(1 / phi*² + 1 / v)           = 1.671210  -> RD' = 290.32
    #   mu'   = 0 + phi'² g (1 - E)                   = 0.934337  -> r'  = 1662.31
    # The loser is the mirror image: score 0 gives (0 - E) = -0.5, so mu' = -0.934337.
    winner, loser = rate_game(Rating(), Rating(), 1.0)

    assert round(winner.rating, 2) == 1662.31
    assert round(loser.rating, 2) == 1337.69
    assert round(winner.deviation, 2) == round(loser.deviation, 2) == 290.32
    assert winner.volatility == pytest.approx(0.06, abs=1e-6)
    # The same steps as code, independent of the module:
    assert (winner.rating, winner.deviation) == pytest.approx(
        plain_glicko2(1500, 350, 1500, 350, 1), abs=0.01
    )


def test_the_winner_and_loser_of_a_first_game_move_symmetrically_around_1500() -> None:
    """Equal newcomers gain and lose the same number of points, and end equally sure."""
    winner, loser = rate_game(Rating(), Rating(), 1.0)

    assert winner.rating - 1500.0 == pytest.approx(1500.0 - loser.rating)
    assert winner.rating > 1500.0
    assert winner.deviation == pytest.approx(loser.deviation)


@given(players, players, st.sampled_from([0.0, 0.5, 1.0]))
def test_the_module_agrees_with_the_formulas_written_out_plainly(
    first: Rating, second: Rating, score: float
) -> None:
    """Any one game: rating and RD as the paper's steps give them (volatility held)."""
    after, _ = rate_game(first, second, score)
    # The module moves the volatility (by about 1e-4 at most in one game) and clamps the
    # deviation; plain_glicko2 does neither. That leaves a few thousandths of a point.
    rating, deviation = plain_glicko2(
        first.rating, first.deviation, second.rating, second.deviation, score, first.volatility
    )
    assert after.rating == pytest.approx(rating, abs=0.05)
    clamped = min(max(deviation, MIN_DEVIATION), MAX_DEVIATION)
    assert after.deviation == pytest.approx(clamped, abs=0.05)


def plain_glicko2(
    rating: float,
    rd: float,
    opponent_rating: float,
    opponent_rd: float,
    score: float,
    volatility: float = 0.06,
) -> tuple[float, float]:
    """The paper's steps 2-4 and 6-8 for one game, the volatility left as it was."""
    mu = (rating - 1500) / 173.7178
    phi = rd / 173.7178
    mu_j = (opponent_rating - 1500) / 173.7178
    phi_j = opponent_rd / 173.7178
    g = 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)
    expected = 1 / (1 + math.exp(-g * (mu - mu_j)))
    v = 1 / (g**2 * expected * (1 - expected))
    phi_star = math.sqrt(phi**2 + volatility**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * g * (score - expected)
    return 173.7178 * new_mu + 1500, 173.7178 * new_phi


# -- Periods without games and the clamps ------------------------------------------------


def test_a_period_without_games_widens_the_deviation_and_keeps_the_rest() -> None:
    """No games: RD 200 becomes sqrt(200² + (0.06 * 173.7178)²), the rating stays."""
    player = Rating(1620.0, 200.0, 0.06)

    after = update(player, [])

    assert after.rating == 1620.0
    assert after.volatility == 0.06
    assert after.deviation == pytest.approx(math.hypot(200.0, 0.06 * 173.7178))
    assert after.deviation > player.deviation


def test_a_newcomers_deviation_does_not_grow_past_the_maximum() -> None:
    """Without games a newcomer's RD would pass 350; it is clamped to 350."""
    assert update(Rating(), []).deviation == MAX_DEVIATION == 350.0


def test_a_well_known_players_deviation_does_not_fall_below_the_minimum() -> None:
    """Two steady 45-RD players drawing would come out near 44.7; they stay at 45."""
    steady = Rating(1500.0, 45.0, 0.01)

    first, second = rate_game(steady, steady, 0.5)

    assert first.deviation == second.deviation == MIN_DEVIATION == 45.0


@given(players, players, st.sampled_from([0.0, 0.5, 1.0]))
def test_a_game_always_leaves_both_deviations_within_the_clamps(
    first: Rating, second: Rating, score: float
) -> None:
    """Whoever plays and whatever the result, both RDs end within [45, 350]."""
    for after in rate_game(first, second, score):
        assert MIN_DEVIATION <= after.deviation <= MAX_DEVIATION


def test_a_rating_is_provisional_while_its_deviation_is_above_110() -> None:
    """Newcomers are provisional; at RD 110 or below a rating is established."""
    assert Rating().provisional
    assert Rating(deviation=110.01).provisional
    assert not Rating(deviation=110.0).provisional
    assert not Rating(deviation=60.0).provisional


# -- What results do to ratings ------------------------------------------------------------


@given(ratings, deviations, deviations)
def test_a_draw_between_equal_ratings_leaves_both_unchanged(
    rating: float, first_rd: float, second_rd: float
) -> None:
    """Equal ratings, however sure: a draw was the expected score, so nobody moves."""
    first, second = rate_game(Rating(rating, first_rd), Rating(rating, second_rd), 0.5)

    assert first.rating == pytest.approx(rating)
    assert second.rating == pytest.approx(rating)


def test_a_draw_between_newcomers_leaves_both_at_1500() -> None:
    """The simplest case of the rule above, exactly."""
    first, second = rate_game(Rating(), Rating(), 0.5)

    assert first.rating == second.rating == 1500.0
    assert first.deviation < 350.0


@given(players, players)
def test_the_winner_always_gains_and_the_loser_always_loses(first: Rating, second: Rating) -> None:
    """However unequal the players, a win is worth something and a loss costs something."""
    winner, loser = rate_game(first, second, 1.0)

    assert winner.rating > first.rating
    assert loser.rating < second.rating


@given(ratings, ratings, deviations, st.sampled_from([0.0, 0.5, 1.0]))
def test_players_of_equal_deviation_exchange_rating_points(
    first_rating: float, second_rating: float, deviation: float, score: float
) -> None:
    """Equal RD and volatility: what one gains the other loses (up to rounding)."""
    first, second = Rating(first_rating, deviation), Rating(second_rating, deviation)

    first_after, second_after = rate_game(first, second, score)

    total_before = first.rating + second.rating
    assert first_after.rating + second_after.rating == pytest.approx(total_before, abs=1e-6)


@given(players, players, st.sampled_from([0.0, 0.5, 1.0]))
def test_rating_a_game_does_not_depend_on_which_player_is_first(
    first: Rating, second: Rating, score: float
) -> None:
    """Both are rated from their pre-game ratings, so swapping seats swaps the results."""
    first_after, second_after = rate_game(first, second, score)

    assert rate_game(second, first, 1.0 - score) == (second_after, first_after)


def test_an_upset_raises_the_volatility_and_an_expected_result_lowers_it() -> None:
    """A 1400 beating an 1800 is a surprise; the 1800 winning is not."""
    favourite, underdog = Rating(1800.0, 80.0), Rating(1400.0, 80.0)

    expected_winner, _ = rate_game(favourite, underdog, 1.0)
    upset_loser, _ = rate_game(favourite, underdog, 0.0)

    assert expected_winner.volatility < 0.06 < upset_loser.volatility


def test_a_smaller_tau_keeps_the_volatility_steadier() -> None:
    """tau bounds the volatility's move: the same upset moves it less at 0.3 than at 1.2."""
    favourite, underdog = Rating(1800.0, 80.0), Rating(1400.0, 80.0)

    calm, _ = rate_game(favourite, underdog, 0.0, tau=0.3)
    wild, _ = rate_game(favourite, underdog, 0.0, tau=1.2)

    assert 0.06 < calm.volatility < wild.volatility


def test_ratings_thousands_of_points_apart_are_rated_without_error() -> None:
    """An outcome certain in floating point says nothing: only the deviation moves."""
    giant, minnow = Rating(9000.0, 60.0), Rating(100.0, 60.0)

    giant_after, minnow_after = rate_game(giant, minnow, 1.0)

    assert giant_after.rating == pytest.approx(9000.0)
    assert minnow_after.rating == pytest.approx(100.0)


# -- Bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("score", [2.0, -1.0, 0.25, math.nan])
def test_a_score_other_than_win_draw_or_loss_is_refused(score: float) -> None:
    """Scores are 1, 0.5 or 0; anything else names itself in the error."""
    with pytest.raises(RatingError, match="a score is"):
        rate_game(Rating(), Rating(), score)
    with pytest.raises(ValueError):
        update(Rating(), [(Rating(), score)])


@pytest.mark.parametrize(
    "values",
    [(1500.0, 0.0, 0.06), (1500.0, -5.0, 0.06), (1500.0, 350.0, 0.0), (math.inf, 350.0, 0.06)],
)
def test_a_rating_without_a_positive_deviation_and_volatility_or_finite_numbers_is_refused(
    values: tuple[float, float, float],
) -> None:
    """A rating must be finite, with a deviation and a volatility above zero."""
    with pytest.raises(RatingError):
        Rating(*values)


def test_a_tau_that_is_not_positive_is_refused() -> None:
    """tau is a positive constant; 0 would divide by zero in the volatility step."""
    with pytest.raises(RatingError, match="tau"):
        update(Rating(), [(Rating(), 1.0)], tau=0.0)
