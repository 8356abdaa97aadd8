"""Playing levels for people: how deep, how long and how exactly the engine plays.

=========  ==========================================================================
level      how it plays
=========  ==========================================================================
random     a legal move at random
easy       looks two plies ahead: takes a win, blocks a single threat, but walks into
           forks and misses threats that take two moves to build; picks among the
           moves it thinks are nearly best, so it varies
medium     four plies, a little variety
hard       eight plies (within a second), no variety
perfect    exact play wherever a full solve fits in the move budget (on Connect Four,
           with the opening database, from every position); otherwise the
           deepest search the budget allows
=========  ==========================================================================

Randomness comes only from the seed, so a seeded ``easy``, ``medium`` or ``hard``
game can be replayed move for move wherever the depth fits the clock (always on
tic-tac-toe boards and Connect Four; on gomoku the clock stops them first, and
how deep they get depends on the machine). ``perfect`` plays on the clock.

``hard`` stops at a fixed depth rather than deepening until its second is up: on
Connect Four, where depth 8 takes well under a second, that keeps it the same on
every machine, and leaves room below ``perfect``, which with three seconds of
search would otherwise have been only a ply deeper and no stronger in matches.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardroom.shared.engine.scores import POINTS
from boardroom.shared.errors import SearchLimitsError
from boardroom.shared.protocol.messages import Level

__all__ = ["MAX_DEPTH", "Level", "SearchPlan", "parse_level", "plan_search"]


@dataclass(frozen=True, slots=True)
class SearchPlan:
    """What one search will do. Picklable; built by :func:`plan_search`.

    ``depth``: deepest iteration (plies); ``time_limit``: seconds for the whole
    search, or None for no clock; ``margin``: moves scoring within this many
    engine units of the best are equally likely (0 plays the best);
    ``exact_share``: share of the time spent first on trying a full solve
    (0 never tries; 1 with no time limit solves however long it takes);
    ``prove``: the value is what is wanted (hints, reviews), so the full solve
    is tried from any position and a position with one safe move is not cut
    short; only a solve that outlasts its share leaves an estimate.
    """

    depth: int
    time_limit: float | None
    margin: int
    exact_share: float
    random: bool = False
    prove: bool = False


MAX_DEPTH = 64
"""Deeper than needed on any board the engine plays in a human's move time."""

_LEVEL_PLANS = {
    Level.RANDOM: SearchPlan(depth=0, time_limit=None, margin=0, exact_share=0, random=True),
    Level.EASY: SearchPlan(depth=2, time_limit=2.0, margin=2 * POINTS, exact_share=0),
    Level.MEDIUM: SearchPlan(depth=4, time_limit=2.0, margin=POINTS // 2, exact_share=0),
    Level.HARD: SearchPlan(depth=8, time_limit=1.0, margin=0, exact_share=0),
    Level.PERFECT: SearchPlan(depth=MAX_DEPTH, time_limit=3.0, margin=0, exact_share=0.85),
}
"""``perfect`` gives 85% of its 3 s to a full solve where it tries one: a solve
that fits is worth more than the deeper heuristic search the rest of the time
would buy. On Connect Four with the opening database and the compiled solver
every position solves well within it (13 to 16 stones: at most 1.2 s measured,
docs/benchmarks.md "Opening database"); without the database, positions of 8 to
10 stones off the opening book can need 2 s (``boardroom bench perfect``)."""


def parse_level(level: Level | str) -> Level:
    """The :class:`Level` named by ``level``; raises :class:`SearchLimitsError` otherwise."""
    if isinstance(level, Level):
        return level
    try:
        return Level(str(level).strip().lower())
    except ValueError:
        names = ", ".join(item.value for item in Level)
        raise SearchLimitsError(f"unknown level {level!r}: choose one of {names}") from None


def plan_search(
    level: Level | str | None, depth: int | None, time_limit: float | None
) -> SearchPlan:
    """The plan for a search asked for by level and/or explicit limits.

    Explicit ``depth`` and ``time_limit`` override the level's. With neither a
    level nor limits, play perfectly; with limits only, search deterministically
    (no variety) within them, trying a full solve first when only time is given.
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise SearchLimitsError(f"depth={depth!r}: give a whole number of plies, 1 or more")
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
            raise SearchLimitsError(f"time_limit={time_limit!r}: give seconds as a number")
        if not 0 < time_limit <= 3600:
            raise SearchLimitsError(
                f"time_limit={time_limit!r}: give more than 0 and at most 3600 seconds"
            )
    if level is None:
        if depth is None and time_limit is None:
            return _LEVEL_PLANS[Level.PERFECT]
        return SearchPlan(
            depth=depth if depth is not None else MAX_DEPTH,
            time_limit=float(time_limit) if time_limit is not None else None,
            margin=0,
            exact_share=0.5 if depth is None else 0,
        )
    plan = _LEVEL_PLANS[parse_level(level)]
    return SearchPlan(
        depth=depth if depth is not None else plan.depth,
        time_limit=float(time_limit) if time_limit is not None else plan.time_limit,
        margin=plan.margin,
        exact_share=plan.exact_share,
        random=plan.random,
    )
