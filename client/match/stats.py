"""The statistics of a match: pentanomial counts, the GSPRT, Elo with its 95% interval.

Pure: numbers in, numbers out (no I/O, no clock, no randomness). The methods are
fishtest's, the framework that tests Stockfish's changes, and fastchess's, which
follows it; the mathematics is Michel Van den Bergh's. Written from these
sources (read, not copied):

- [NEP] M. Van den Bergh, "Normalized Elo: practical considerations",
  https://hardy.uhasselt.be/Fishtest/normalized_elo_practical.pdf (section 4.1:
  the maximum-likelihood distribution with a given t-value).
- [MLE] M. Van den Bergh, "A note on the maximum likelihood estimate for a
  multinomial with a given expectation value",
  http://hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf (proposition 1.1).
- [FT] fishtest, ``server/fishtest/stats/LLRcalc.py`` (``LLR_logistic``,
  ``LLR_normalized``, ``regularize``) and ``stat_util.py`` (``get_elo``,
  ``update_SPRT``), https://github.com/official-stockfish/fishtest.

**Pairs.** A match is played in pairs of games from the same opening, colours
swapped. A pair scores 0, 1/2, 1, 3/2 or 2 points for A, and the *pentanomial*
counts how many pairs scored each: ``[LL, LD+DL, LW+WL+DD, WD+DW, WW]``. Pairs
are the samples: the opening's bias cancels within a pair, so the pentanomial's
variance is smaller than the games' and the test decides sooner.

**The GSPRT** (generalized sequential probability ratio test, [FT]). Each pair
class ``i`` has value ``a_i = i / 4`` (A's mean score per game in the pair) and
empirical frequency ``f_i = n_i / N``; empty classes count ``1e-3`` pairs
(fishtest's regularization, so that a log is never taken of zero). For a
hypothesis H on the true score distribution, ``p^H`` is the distribution closest
to ``f`` (maximum likelihood) that satisfies H, and::

    LLR = N * sum_i f_i * (log p^H1_i - log p^H0_i)

The test stops when LLR leaves ``(log(beta/(1-alpha)), log((1-beta)/alpha))`` (Wald's bounds):
below, H0 is accepted; above, H1.

- *Logistic Elo* (``model="logistic"``): H is "the expected score is
  ``s = 1/(1 + 10^(-elo/400))``". The MLE is ``p_i = f_i / (1 + x (a_i - s))``
  with ``x`` the root of ``sum_i f_i (a_i - s) / (1 + x (a_i - s)) = 0`` [MLE].
- *Normalized Elo* (``model="normalized"``, fishtest's and fastchess's default,
  and ours): H is "the t-value ``(mu - 1/2) / sigma`` of the pair distribution is
  ``t = nelo / (800 / ln 10) * sqrt 2``" (the ``sqrt 2`` turns a per-game t-value
  into a per-pair one: a pair's two games). Normalized Elo measures how far apart
  two players are in units of the noise, so its bounds mean the same on a drawish
  game and a decisive one. Its MLE [NEP 4.1] has the same form,
  ``p_i = f_i / (1 + x b_i)``, with ``b_i = a_i - 1/2 - t sigma (1 + ((mu - a_i)/sigma)^2)/2``
  computed from the current ``mu, sigma`` of ``p``: repeated until ``p`` is still.

**Elo and its interval** ([FT] ``get_elo``, as fastchess prints it): the mean
score per game ``mu`` over the regularized pentanomial, its per-game variance
``v = sum_i n_i (i/2 - 2mu)^2 / (2N)``, the interval ``mu ± 1.96 sqrt(v / 2N)``,
each end turned into logistic Elo, ``-400 log10(1/mu - 1)`` (mu kept within
``[0.001, 0.999]``, so a match won every game reads about +1200, not infinity).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

EloModel = Literal["normalized", "logistic"]
MODELS: tuple[EloModel, ...] = ("normalized", "logistic")

REGULARIZATION = 1e-3
"""Pairs counted in each empty pentanomial class ([FT] ``regularize``)."""
NELO_PER_T = 800 / math.log(10)
"""Normalized Elo per unit of per-game t-value (about 347.44, [NEP])."""
Z_95 = 1.959963984540054
"""The standard normal quantile of 0.975: the half width of a 95% interval."""
SCORE_CLAMP = 1e-3
"""Scores are kept within [SCORE_CLAMP, 1 - SCORE_CLAMP] before turning into Elo."""

PAIR_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A's mean score per game in a pair of each pentanomial class."""


class StatsError(ValueError):
    """Arguments the statistics cannot work with (the message says which)."""


def pair_class(first: float, second: float) -> int:
    """The pentanomial class (0 to 4) of a pair in which A scored ``first`` and
    ``second`` (1 a win, 1/2 a draw, 0 a loss): twice the pair's points.

    >>> pair_class(1, 1), pair_class(1, 0), pair_class(0.5, 0.5), pair_class(0, 0.5)
    (4, 2, 2, 1)
    """
    for score in (first, second):
        if score not in (0, 0.5, 1):
            raise StatsError(f"a game scores 0, 0.5 or 1, not {score!r}")
    return round(2 * (first + second))


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's stopping bounds for the LLR: ``(log(beta/(1-alpha)), log((1-beta)/alpha))``.

    >>> [round(bound, 4) for bound in sprt_bounds(0.05, 0.05)]
    [-2.9444, 2.9444]
    """
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 0.5:
            raise StatsError(f"{name} must be between 0 and 0.5, not {value!r}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def logistic_score(elo: float) -> float:
    """The expected score of a player ``elo`` logistic Elo stronger.

    >>> logistic_score(0), round(logistic_score(400), 6)
    (0.5, 0.909091)
    """
    return 1 / (1 + 10 ** (-elo / 400))


def logistic_elo(score: float) -> float:
    """The logistic Elo difference of an expected ``score`` (kept within
    [0.001, 0.999]).

    >>> round(logistic_elo(0.75), 3), logistic_elo(1.0) == logistic_elo(0.999)
    (190.849, True)
    """
    score = min(max(score, SCORE_CLAMP), 1 - SCORE_CLAMP)
    return -400 * math.log10(1 / score - 1)


def _check_counts(counts: Sequence[int]) -> None:
    if len(counts) != 5:
        raise StatsError(f"a pentanomial has 5 counts, not {len(counts)}")
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in counts):
        raise StatsError(f"pentanomial counts are whole numbers, 0 or more: {list(counts)!r}")


def regularized(counts: Sequence[int]) -> list[float]:
    """``counts`` with every empty class counted as :data:`REGULARIZATION` pairs."""
    _check_counts(counts)
    return [float(n) if n else REGULARIZATION for n in counts]


def mean_and_variance(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    """Mean and variance of the distribution with ``probs`` on ``values``."""
    mean = sum(p * a for a, p in zip(values, probs, strict=True))
    return mean, sum(p * (a - mean) ** 2 for a, p in zip(values, probs, strict=True))


def _tilt_root(weights: Sequence[float], shifts: Sequence[float]) -> float:
    """The ``x`` with ``sum_i w_i b_i / (1 + x b_i) = 0`` and every ``1 + x b_i > 0``.

    The sum falls as ``x`` grows, from plus infinity at ``-1/max b`` to minus
    infinity at ``-1/min b``, so one root lies between: found by bisection.
    """
    high_b, low_b = max(shifts), min(shifts)
    if not (high_b > 0 > low_b):
        raise StatsError("the hypothesis lies outside what the pair scores can reach")
    lower, upper = -1 / high_b, -1 / low_b

    def total(x: float) -> float:
        return sum(w * b / (1 + x * b) for w, b in zip(weights, shifts, strict=True))

    for _ in range(200):
        middle = (lower + upper) / 2
        if middle in (lower, upper):
            break
        if total(middle) > 0:
            lower = middle
        else:
            upper = middle
    return (lower + upper) / 2


def mle_with_mean(probs: Sequence[float], mean: float) -> list[float]:
    """The distribution on :data:`PAIR_VALUES` closest to ``probs`` (maximum
    likelihood) whose expectation is ``mean`` ([MLE] proposition 1.1).

    >>> [round(p, 6) for p in mle_with_mean([0.5, 0, 0, 0, 0.5], 0.75)]
    [0.25, 0.0, 0.0, 0.0, 0.75]
    """
    shifts = [a - mean for a in PAIR_VALUES]
    x = _tilt_root(probs, shifts)
    return [p / (1 + x * b) for p, b in zip(probs, shifts, strict=True)]


def mle_with_t_value(
    probs: Sequence[float], t_value: float, *, reference: float = 0.5
) -> list[float]:
    """The distribution on :data:`PAIR_VALUES` closest to ``probs`` (maximum
    likelihood) whose t-value ``(mu - reference) / sigma`` is ``t_value`` ([NEP] 4.1):
    a fixed point, started from the uniform distribution."""
    current = [1 / len(probs)] * len(probs)
    for _ in range(100):
        mean, variance = mean_and_variance(PAIR_VALUES, current)
        sigma = math.sqrt(variance)
        shifts = [
            a - reference - t_value * sigma * (1 + ((mean - a) / sigma) ** 2) / 2
            for a in PAIR_VALUES
        ]
        x = _tilt_root(probs, shifts)
        following = [p / (1 + x * b) for p, b in zip(probs, shifts, strict=True)]
        if max(abs(f - c) for f, c in zip(following, current, strict=True)) < 1e-12:
            return following
        current = following
    return current


def llr(counts: Sequence[int], elo0: float, elo1: float, model: EloModel = "normalized") -> float:
    """The GSPRT's log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``)
    for the pentanomial ``counts``, in the Elo ``model`` (see the module docstring).

    >>> llr([0, 0, 0, 0, 0], 0, 5)
    0.0
    """
    if model not in MODELS:
        raise StatsError(f"the Elo model is normalized or logistic, not {model!r}")
    if not elo0 < elo1:
        raise StatsError(f"elo0 must be less than elo1 (elo0={elo0!r}, elo1={elo1!r})")
    _check_counts(counts)
    if sum(counts) == 0:
        return 0.0
    weights = regularized(counts)
    total = sum(weights)
    probs = [n / total for n in weights]
    if model == "logistic":
        h0, h1 = (mle_with_mean(probs, logistic_score(elo)) for elo in (elo0, elo1))
    else:
        h0, h1 = (mle_with_t_value(probs, elo / NELO_PER_T * math.sqrt(2)) for elo in (elo0, elo1))
    return total * sum(
        p * (math.log(q1) - math.log(q0)) for p, q0, q1 in zip(probs, h0, h1, strict=True)
    )


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """A's Elo over B with a 95% interval, from the pentanomial."""

    elo: float
    """Logistic Elo of the mean score."""
    low: float
    high: float
    """The 95% interval's ends, in logistic Elo."""
    normalized: float
    """Normalized Elo: ``(mu - 1/2) / sigma_game * 800 / ln 10``, with ``sigma_game`` the
    per-game spread a pair's variance implies (``sqrt(2 var)`` [NEP])."""
    score: float
    """A's mean score per game (regularized pentanomial)."""

    @property
    def margin(self) -> float:
        """Half the interval's width: the ``±`` printed beside the Elo."""
        return (self.high - self.low) / 2


def elo_estimate(counts: Sequence[int]) -> EloEstimate:
    """A's Elo over B and its 95% interval ([FT] ``get_elo``, module docstring).

    >>> estimate = elo_estimate([0, 0, 10, 0, 0])
    >>> round(estimate.elo, 6), estimate.low < 0 < estimate.high
    (0.0, True)
    """
    weights = regularized(counts)
    pairs = sum(weights)
    games = 2 * pairs
    mean = sum(n * i / 2 for i, n in enumerate(weights)) / games
    variance = sum(n * (i / 2 - 2 * mean) ** 2 for i, n in enumerate(weights)) / games
    spread = Z_95 * math.sqrt(variance / games)
    probs = [n / pairs for n in weights]
    _, pair_variance = mean_and_variance(PAIR_VALUES, probs)
    return EloEstimate(
        elo=logistic_elo(mean),
        low=logistic_elo(mean - spread),
        high=logistic_elo(mean + spread),
        normalized=(mean - 0.5) / math.sqrt(2 * pair_variance) * NELO_PER_T,
        score=mean,
    )


Decision = Literal["H0", "H1"]


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential test: H0 ``elo <= elo0`` against H1 ``elo >= elo1``, with
    error rates ``alpha`` (accepting H1 when H0 holds) and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: EloModel = "normalized"

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise StatsError(
                f"elo0 must be less than elo1 (elo0={self.elo0!r}, elo1={self.elo1!r})"
            )
        if self.model not in MODELS:
            raise StatsError(f"the Elo model is normalized or logistic, not {self.model!r}")
        sprt_bounds(self.alpha, self.beta)

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper) bounds of the LLR."""
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, counts: Sequence[int]) -> float:
        """The LLR of ``counts`` under this test."""
        return llr(counts, self.elo0, self.elo1, self.model)

    def decision(self, counts: Sequence[int]) -> Decision | None:
        """``H1`` once the LLR reaches the upper bound, ``H0`` the lower; else None."""
        value = self.llr(counts)
        lower, upper = self.bounds
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None
