"""``boardroom bench analysis``: how long a whole game's analysis takes.

Issue 17's target: a finished 42-move Connect Four game analysed within 10 s on
one engine worker. This process is that one worker: it runs
:func:`boardroom.shared.engine.analysis.analyse_game` on whole 42-move games (real games
between engine levels, stored below), once with the compiled solver and once
with the pure-Python one (``BOARDROOM_ENGINE=python``, read at each search), and
prints for each the wall time, how many positions got an exact value, and the
longest wait between two reviews (what a reader of the review page waits for
the next move to fill in). The budget per position is the server's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from boardroom.client.conditions import condition_lines
from boardroom.shared.engine.analysis import DEFAULT_SECONDS_PER_POSITION, analyse_game
from boardroom.shared.engine.solvers import ENGINE_ENV

GAMES = (
    "426552522655664464414653111113333377227777",
    "354454215442551221425216777766677333336611",
    "521411422255544442553233333777777111666666",
)
"""Three whole Connect Four games, 42 moves each (medium against medium, seeds 100
and 320; easy against easy, seed 60)."""
TARGET_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class Timed:
    """One game's analysis: wall seconds, exact positions, the longest wait
    between two reviews (the first one included)."""

    seconds: float
    exact: int
    moves: int
    longest_wait: float


def time_analysis(moves: str, budget: float) -> Timed:
    """Analyse the Connect Four game ``moves`` with ``budget`` seconds a position."""
    started = last = time.perf_counter()
    exact = count = 0
    longest = 0.0
    for review in analyse_game("connect4", moves, seconds_per_position=budget):
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
        exact += review.exact_before
        count += 1
    return Timed(time.perf_counter() - started, exact, count, longest)


@contextmanager
def _solver(build: str) -> Iterator[None]:
    """Run the block with the engine's exact solver forced to ``build``."""
    before = os.environ.get(ENGINE_ENV)
    if build == "python":
        os.environ[ENGINE_ENV] = "python"
    else:
        os.environ.pop(ENGINE_ENV, None)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(ENGINE_ENV, None)
        else:
            os.environ[ENGINE_ENV] = before


def main(games: Sequence[str] = GAMES, budget: float = DEFAULT_SECONDS_PER_POSITION) -> int:
    """Print the figures; 0 (a missed target is printed FAIL: timings move with
    the machine's load)."""
    for line in condition_lines():
        print(line)
    print(f"Whole-game analysis, Connect Four, {budget:g} s a position, one process:")
    totals: dict[str, float] = {}
    for build in ("compiled", "python"):
        with _solver(build):
            for number, moves in enumerate(games, 1):
                timed = time_analysis(moves, budget)
                totals[build] = totals.get(build, 0.0) + timed.seconds
                verdict = "PASS" if timed.seconds <= TARGET_SECONDS else "FAIL"
                print(
                    f"  {build:8} game {number}: {timed.moves} moves in {timed.seconds:5.2f} s"
                    f" ({verdict}: target {TARGET_SECONDS:g} s), {timed.exact}/{timed.moves}"
                    f" exact, longest wait {timed.longest_wait:.2f} s"
                )
    ratio = totals["python"] / totals["compiled"] if totals.get("compiled") else 0.0
    print(f"  compiled against pure: {ratio:.2f}x less time over the {len(games)} games")
    return 0
