"""The SPRT arithmetic of ``boardroom match`` (client/match/stats.py), against
values computed independently of it.

Where the reference values come from:

- hand arithmetic (bounds, logistic Elo, the two-point maximum-likelihood case,
  the Elo interval of a pentanomial with two classes);
- ``INDEPENDENT``: each hypothesis's maximum-likelihood distribution found by a
  generic constrained optimizer instead of the papers' fixed points: SciPy's
  SLSQP (``scipy.optimize.minimize``) maximizing ``sum n_i log p_i`` over the
  simplex with the constraint ``sum p_i a_i = s`` (logistic) or
  ``(mu - 1/2) - t sigma = 0`` (normalized), started from 30 random points,
  the best feasible answer kept; then ``LLR = sum n_i log(p1_i / p0_i)``. The
  regularization (an empty class counts 1e-3) is fishtest's;
- a fastchess run's printed summary, quoted in public study notes on SPRT:
  ``Ptnml(0-2): [0, 0, 2, 0, 37]`` and ``LLR: 2.96 (-2.94, 2.94) [0.00, 20.00]``
  (fastchess's default model, normalized Elo).
"""

from __future__ import annotations

import math

import pytest

from boardroom.client.match.stats import (
    NELO_PER_T,
    Sprt,
    StatsError,
    elo_estimate,
    llr,
    logistic_elo,
    logistic_score,
    mle_with_mean,
    pair_class,
    sprt_bounds,
)

INDEPENDENT = [
    # counts, elo0, elo1, normalized LLR, logistic LLR
    ([3, 10, 20, 12, 5], 0, 25, 0.3307014542508684, 0.3227686576800566),
    ([0, 0, 2, 0, 37], 0, 20, 2.9620164704705245, 2.180485182933256),
    ([10, 20, 40, 25, 15], -10, 10, 1.063109044043764, 1.3068915481640722),
    ([1, 5, 30, 8, 2], 0, 50, 0.43573861205275355, -0.7461389634656639),
    ([0, 0, 10, 0, 0], 0, 50, -0.39981253, -1.5349158986130276),
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "normalized", "logistic"), INDEPENDENT)
def test_llr_matches_a_generic_optimizer(
    counts: list[int], elo0: float, elo1: float, normalized: float, logistic: float
) -> None:
    assert llr(counts, elo0, elo1, "normalized") == pytest.approx(normalized, abs=1e-6)
    assert llr(counts, elo0, elo1, "logistic") == pytest.approx(logistic, abs=1e-6)


def test_llr_matches_fastchess_printed_example() -> None:
    assert round(llr([0, 0, 2, 0, 37], 0, 20), 2) == 2.96


def test_llr_agrees_with_the_closed_form_approximation_on_a_large_sample() -> None:
    # Van den Bergh, "Normalized Elo practical", section 4.2: for many pairs the
    # GSPRT is close to games/2 * log((1 + (t - t0)^2) / (1 + (t - t1)^2)), with
    # t the observed per-game t-value: a different formula, so a check of its own.
    counts = [10789, 19328, 33806, 19402, 10543]
    pairs = sum(counts)
    values = [i / 4 for i in range(5)]
    mean = sum(n * a for n, a in zip(counts, values, strict=True)) / pairs
    variance = sum(n * (a - mean) ** 2 for n, a in zip(counts, values, strict=True)) / pairs
    t = (mean - 0.5) / math.sqrt(2 * variance)
    t0, t1 = 0 / NELO_PER_T, 2 / NELO_PER_T
    approximation = pairs * math.log((1 + (t - t0) ** 2) / (1 + (t - t1) ** 2))
    assert llr(counts, 0, 2) == pytest.approx(approximation, rel=1e-3)


def test_no_pairs_no_evidence() -> None:
    assert llr([0, 0, 0, 0, 0], 0, 50) == 0.0


def test_bounds_are_walds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    # log(0.05 / 0.95) = -log(19)
    assert lower == pytest.approx(-math.log(19))
    assert upper == pytest.approx(math.log(19))
    lower, upper = sprt_bounds(0.05, 0.10)
    assert lower == pytest.approx(math.log(0.10 / 0.95))
    assert upper == pytest.approx(math.log(0.90 / 0.05))


def test_pair_classes() -> None:
    assert [pair_class(*pair) for pair in [(0, 0), (0, 0.5), (0.5, 0), (1, 0), (0.5, 0.5)]] == [
        0,
        1,
        1,
        2,
        2,
    ]
    assert [pair_class(*pair) for pair in [(1, 0.5), (0.5, 1), (1, 1)]] == [3, 3, 4]
    with pytest.raises(StatsError):
        pair_class(2, 0)


def test_logistic_elo_by_hand() -> None:
    assert logistic_score(400) == pytest.approx(10 / 11)
    assert logistic_elo(0.75) == pytest.approx(400 * math.log10(3))
    assert logistic_elo(0.25) == pytest.approx(-400 * math.log10(3))
    assert logistic_elo(1.0) == pytest.approx(400 * math.log10(999))


def test_mle_with_mean_two_points_by_hand() -> None:
    # Half the mass on 0 and half on 1, asked for mean 3/4: the likelihood
    # 1/2 log p0 + 1/2 log p1 with p0 + p1 = 1 and p1 = 3/4 has one answer.
    assert mle_with_mean([0.5, 0, 0, 0, 0.5], 0.75) == pytest.approx([0.25, 0, 0, 0, 0.75])


def test_elo_interval_by_hand() -> None:
    # 5 pairs lost twice, 5 won twice: mean 1/2; per-game variance 1/2 (pair points
    # 0 or 2, so (i/2 - 1)^2 = 1, over 2 games a pair), 20 games: the interval
    # is 1/2 +- 1.96 sqrt(1/2 / 20). The regularization's 0.003 pairs move it a hair.
    estimate = elo_estimate([5, 0, 0, 0, 5])
    half = 1.959964 * math.sqrt(0.5 / 20)
    assert estimate.elo == pytest.approx(0, abs=1e-9)
    assert estimate.high == pytest.approx(400 * math.log10((0.5 + half) / (0.5 - half)), abs=0.5)
    assert estimate.low == pytest.approx(-estimate.high, abs=1e-6)
    assert estimate.margin == pytest.approx(estimate.high, abs=1e-6)


def test_decisions() -> None:
    test = Sprt(0, 50)
    assert test.decision([0, 0, 0, 0, 16]) is None
    assert test.decision([0, 0, 0, 0, 17]) == "H1"
    assert test.decision([0, 0, 80, 0, 0]) == "H0"


@pytest.mark.parametrize(
    "arguments",
    [
        {"elo0": 5, "elo1": 5},
        {"elo0": 0, "elo1": 5, "alpha": 0},
        {"elo0": 0, "elo1": 5, "beta": 0.7},
        {"elo0": 0, "elo1": 5, "model": "bayes"},
    ],
)
def test_bad_tests_are_refused(arguments: dict) -> None:
    with pytest.raises(StatsError):
        Sprt(**arguments)


@pytest.mark.parametrize(
    "counts", [[1, 2, 3], [1, 2, 3, 4, -5], [1, 2, 3, 4, 0.5], [True, 0, 0, 0, 0]]
)
def test_bad_counts_are_refused(counts: list) -> None:
    with pytest.raises(StatsError):
        llr(counts, 0, 5)
