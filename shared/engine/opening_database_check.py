"""The opening database checked against our own solver, on a seeded sample.

:func:`check_sample` draws database entries at random (seeded), decodes each key
back to a position, solves it with the exact solver with the database turned off
(so nothing of the database takes part), and compares. It is the test suite's
check (tests/unit/shared/test_engine_opening_database.py takes a small sample)
and the way to run a large one, e.g. from the shell (entries, then a seed)::

    .venv/bin/python -m boardroom.shared.engine.opening_database_check 1000 25

About 0.13 s a position with the compiled solver on one core (200 in about
27 s, docs/benchmarks.md "Opening database").

:func:`time_solves` measures what the database buys: ``solve`` and
``solve_move`` on seeded random positions by stone count::

    .venv/bin/python -m boardroom.shared.engine.opening_database_check --timings 30
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from boardroom.shared.engine import opening_database as database
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.engine.solvers import exact_searcher, warm_up
from boardroom.shared.games import GridGame, Position, get_game

__all__ = ["Checked", "check_sample", "main"]


@dataclass(frozen=True, slots=True)
class Checked:
    """One entry checked: its ``key``, the stored stone score, our solver's score,
    the position as X's and O's bitboards, and the seconds the solve took."""

    key: int
    stored: int
    solved: int
    first: int
    second: int
    seconds: float

    @property
    def agrees(self) -> bool:
        return self.stored == self.solved


def check_sample(
    size: int, *, seed: int = 25, table: database.OpeningDatabase | None = None
) -> Iterator[Checked]:
    """Solve ``size`` entries drawn with ``seed`` from ``table`` (the process's
    database when None; raises LookupError without one), one at a time."""
    if table is None:
        table = database.opening_database()
    if table is None:
        raise LookupError("the opening database is not available (see the log)")
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    kernel = kernel_for(game)
    half = kernel.half
    low, high = -(half - (database.PLIES + 1) // 2), half - (database.PLIES + 2) // 2
    for index in random.Random(seed).sample(range(len(table)), size):
        key = int(table.keys[index])
        first, second = database.decode_key(key)
        began = time.perf_counter()
        solver = exact_searcher(kernel, opening_database=False)
        solved = solver.solve(first, second, database.PLIES, low=low, high=high)
        seconds = time.perf_counter() - began
        yield Checked(key, int(table.scores[index]), solved, first, second, seconds)


def random_position(stones: int, rng: random.Random) -> Position:
    """A Connect Four position of ``stones`` random moves, game not over."""
    game = get_game("connect4")
    while True:
        position = game.new()
        for _ in range(stones):
            position = game.play_unchecked(position, rng.choice(game.legal_moves(position)))
            if game.outcome(position).is_over:
                break
        else:
            return position


def time_solves(
    counts: Sequence[int] = (0, 4, 8, 11, 12, 13, 14, 15, 16), *, sample: int = 30, seed: int = 25
) -> Iterator[tuple[int, list[float], list[float]]]:
    """For each stone count, the seconds of ``solve`` and of ``solve_move`` on
    ``sample`` seeded random positions (one for the empty board), after the
    solver and the database are loaded (not timed)."""
    from boardroom.shared.engine.search import solve, solve_move

    game = get_game("connect4")
    assert isinstance(game, GridGame)
    warm_up(kernel_for(game))
    rng = random.Random(seed)
    for stones in counts:
        solves: list[float] = []
        moves: list[float] = []
        for _ in range(sample if stones else 1):
            position = random_position(stones, rng)
            began = time.perf_counter()
            solve(game, position)
            solves.append(time.perf_counter() - began)
            began = time.perf_counter()
            solve_move(game, position)
            moves.append(time.perf_counter() - began)
        yield stones, solves, moves


def main(argv: list[str] | None = None) -> int:
    """Check ``argv[0]`` entries (default 200), print a summary; 1 if any disagree.
    ``--timings [N]`` prints :func:`time_solves` of N positions a count instead."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "--timings":
        sample = int(args[1]) if len(args) > 1 else 30
        for stones, solves, moves in time_solves(sample=sample):
            print(
                f"{stones:2d} stones ({len(solves)}): solve mean {statistics.mean(solves):.3f} s"
                f" max {max(solves):.3f} s; solve_move mean {statistics.mean(moves):.3f} s"
                f" max {max(moves):.3f} s"
            )
        return 0
    size = int(args[0]) if args else 200
    seed = int(args[1]) if len(args) > 1 else 25
    wrong = 0
    spent = 0.0
    for done, checked in enumerate(check_sample(size, seed=seed), 1):
        spent += checked.seconds
        if not checked.agrees:
            wrong += 1
            print(f"key {checked.key}: database {checked.stored}, solver {checked.solved}")
        if done % 50 == 0:
            print(f"{done} checked, {wrong} disagree, {spent:.1f} s")
    print(f"{size} entries (seed {seed}): {size - wrong} agree, {wrong} disagree, {spent:.1f} s")
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
