"""Glicko-2 ratings as pure arithmetic: ratings and results in, new ratings out.

This follows Mark Glickman's "Example of the Glicko-2 system" (glicko.net) step by
step; the comments name its steps and the variables its symbols (mu, phi, sigma, v,
delta). Nothing here reads a clock or a database: the caller decides what a rating
period is.

Two ways in:

- :func:`update` is the paper's algorithm for one player over one rating period,
  given every result of the period (none at all is allowed: the deviation grows).
- :func:`rate_game` is what Boardroom uses. As on Lichess, each game is its own
  rating period for both players, and both are updated from their ratings *before*
  the game, so the order in which the two are computed does not matter. The paper
  recommends periods of 10-15 games per player; one game per period makes ratings
  follow each game at once, which a leaderboard for a class needs, at the price of
  a volatility that learns little from any one game and so moves slowly.

Two additions to the paper, both taken from Lichess and applied to the deviation a
player comes out with (the inputs, opponents included, are used as given):

- The deviation is clamped to [:data:`MIN_DEVIATION`, :data:`MAX_DEVIATION`]
  (the constants say why).
- A player is :attr:`Rating.provisional` while the deviation is above
  :data:`PROVISIONAL_DEVIATION` (Lichess shows such a rating with a "?").

Bad input raises :class:`RatingError` (a :class:`ValueError`) naming it.

>>> winner, loser = rate_game(Rating(), Rating(), 1.0)
>>> round(winner.rating, 2), round(loser.rating, 2), round(winner.deviation, 2)
(1662.31, 1337.69, 290.32)
>>> winner.provisional
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "CONVERGENCE_TOLERANCE",
    "MAX_DEVIATION",
    "MIN_DEVIATION",
    "PROVISIONAL_DEVIATION",
    "SCORES",
    "TAU",
    "Rating",
    "RatingError",
    "rate_game",
    "update",
]

SCALE = 173.7178
"""Glicko (r, RD) to Glicko-2 (mu, phi) units: mu = (r - 1500) / SCALE, phi = RD / SCALE.

The paper's constant, 400 / ln 10 rounded to four decimals; using it (rather than
the exact quotient) keeps our numbers on the paper's."""

TAU = 0.5
"""The system constant tau: how far the volatility may move in one period.

The paper suggests 0.3 to 1.2 and uses 0.5 in its example; smaller values keep
improbable results from moving the volatility, and so the ratings, by much. Lichess
runs 0.75. We start from the paper's value; every function takes ``tau`` so that
others can be tried against real class results."""

MIN_DEVIATION = 45.0
"""The smallest deviation a player comes out of a game with (Lichess's floor).

Only the volatility widens the deviation again between games, so the deviation of a
regular levels off where the two balance: near 60 at the newcomers' volatility of
0.06, and lower as the volatility falls for a player whose results keep matching
expectations (near 42 at 0.03), where a game moves the rating by a few points
only. Students improve quickly: the floor keeps every game worth enough points for
the rating to keep up. With one game per period and tau = 0.5 the volatility moves
slowly, so the floor is a backstop that rarely binds."""

MAX_DEVIATION = 350.0
"""The largest deviation: that of a newcomer (:class:`Rating`'s default).

The no-games step adds the volatility to the deviation each period and nothing in
Glicko-2 stops it, but no player is less known than one who has never played, and
a deviation past it would let a single game throw the rating hundreds of points.
Lichess caps at its own newcomers' value (500) the same way."""

PROVISIONAL_DEVIATION = 110.0
"""Above this deviation a rating is provisional (Lichess's threshold).

A newcomer gets below it after about 10 games against established players, or
about 20 against other newcomers (whose results count for less)."""

CONVERGENCE_TOLERANCE = 1e-6
"""ε of the paper's volatility iteration: it stops when the bracket is this narrow."""

SCORES = (0.0, 0.5, 1.0)
"""The scores a game can give a player: a loss, a draw, a win."""


class RatingError(ValueError):
    """Input the ratings refuse: a score, a rating or a game that cannot be rated."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating on the Glicko scale (newcomers: 1500, 350, 0.06).

    ``rating`` is the estimate of strength, ``deviation`` (RD) its uncertainty (a 95%
    interval is about rating ± 2 RD) and ``volatility`` (sigma) how erratically the
    player performs. Raises :class:`RatingError` unless all three are finite and
    the deviation and volatility are positive. The deviation is not clamped here:
    an opponent from elsewhere may be better known than any Boardroom player.
    """

    rating: float = 1500.0
    deviation: float = MAX_DEVIATION
    volatility: float = 0.06

    def __post_init__(self) -> None:
        values = (self.rating, self.deviation, self.volatility)
        if not all(math.isfinite(value) for value in values):
            raise RatingError(f"a rating needs finite numbers, not {self!r}")
        if self.deviation <= 0 or self.volatility <= 0:
            raise RatingError(f"a rating needs a positive deviation and volatility: {self!r}")

    @property
    def provisional(self) -> bool:
        """Whether the rating is still too uncertain to rank (deviation > 110)."""
        return self.deviation > PROVISIONAL_DEVIATION


def update(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period with these ``results``.

    Each result is an opponent's rating at the start of the period and the
    player's score against them (one of :data:`SCORES`). Without results only the
    deviation changes: it grows by the volatility, phi* = sqrt(phi² + sigma²). The
    deviation that comes out is clamped to [:data:`MIN_DEVIATION`, :data:`MAX_DEVIATION`].

    >>> later = update(Rating(1500.0, 200.0, 0.06), [])
    >>> later.rating, round(later.deviation, 2), later.volatility
    (1500.0, 200.27, 0.06)
    """
    if not tau > 0:
        raise RatingError(f"the system constant tau must be positive, not {tau!r}")
    for _, score in results:
        _check_score(score)
    # Step 2: onto the Glicko-2 scale.
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    # Steps 3 and 4: v, the variance of the rating estimated from the games alone,
    # and the sum behind delta (the improvement they suggest), delta = v * score_gap.
    information = 0.0
    score_gap = 0.0
    for opponent, score in results:
        g = _g(opponent.deviation / SCALE)
        expected = _expected(mu, (opponent.rating - 1500.0) / SCALE, g)
        information += g * g * expected * (1.0 - expected)
        score_gap += g * (score - expected)
    if information == 0.0:
        # No games, or only games whose outcome was certain in floating point (thousands
        # of points apart): they say nothing, and v = 1 / 0 would be infinite.
        return Rating(player.rating, _clamp(SCALE * math.hypot(phi, sigma)), sigma)
    v = 1.0 / information
    delta = v * score_gap
    # Step 5: the new volatility.
    new_sigma = _new_volatility(sigma, phi, v, delta, tau)
    # Steps 6 and 7: widen the deviation by the new volatility, then narrow it by
    # what the games tell; move the rating by the surprise in the results.
    phi_star = math.hypot(phi, new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * score_gap
    # Step 8: back onto the Glicko scale.
    return Rating(1500.0 + SCALE * new_mu, _clamp(SCALE * new_phi), new_sigma)


def rate_game(
    first: Rating, second: Rating, score_first: float, *, tau: float = TAU
) -> tuple[Rating, Rating]:
    """Both players' ratings after one game, the game being its own rating period.

    ``score_first`` is the first player's score (one of :data:`SCORES`); the second
    scores the rest. Both are updated from the ratings they had before the game.
    """
    _check_score(score_first)
    return (
        update(first, [(second, score_first)], tau=tau),
        update(second, [(first, 1.0 - score_first)], tau=tau),
    )


def _check_score(score: float) -> None:
    if score not in SCORES:
        raise RatingError(f"a score is 1 (win), 0.5 (draw) or 0 (loss), not {score!r}")


def _clamp(deviation: float) -> float:
    return min(max(deviation, MIN_DEVIATION), MAX_DEVIATION)


def _g(phi: float) -> float:
    """How much a result counts given the opponent's uncertainty (1 when certain)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, g: float) -> float:
    """The expected score against the opponent: a logistic of the weighted gap."""
    x = g * (mu - opponent_mu)
    # Two forms of the same logistic so that exp() never overflows, however far apart.
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: sigma' = exp(A / 2) where A is the root of the paper's f (Illinois method).

    The Illinois variant of regula falsi halves the stale end's value whenever the
    same end stays put, so the bracket [A, B] shrinks on both sides: it converges
    even where plain regula falsi would crawl.
    """
    a = math.log(sigma * sigma)
    delta2 = delta * delta
    spread = phi * phi + v
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - spread - ex) / (2.0 * (spread + ex) ** 2) - (x - a) / tau2

    # The initial bracket: A and B on either side of the root (f changes sign between).
    big_a = a
    if delta2 > spread:
        big_b = math.log(delta2 - spread)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE_TOLERANCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # "<= 0", not "< 0": should f(C) land exactly on 0, "< 0" would keep picking
        # C = B from then on and the bracket would never narrow.
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
