"""What every section of ``boardroom bench engine`` shares: the Connect Four test
sets and how they are read, our exact solves of their lines, the run's targets
and verdicts, and the report's number formats (:mod:`boardroom.client.bench.engine` runs
the sections; :mod:`boardroom.client.bench.engine_bitbully` is section 5).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from boardroom.shared.engine import solvers
from boardroom.shared.engine.kernel import SearchKernel
from boardroom.shared.engine.negamax import Searcher
from boardroom.shared.games import GridGame, Position

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "connect4"
"""The standard test sets, as published with Pons' solver: ``<moves> <score>`` lines."""


@dataclass(frozen=True, slots=True)
class TestSet:
    """One standard Connect Four test set and its targets."""

    name: str
    label: str
    reference_nodes: int
    """Mean nodes per position of Pons' solver, as published on blog.gamesolver.org."""
    time_target: float
    """Seconds: our mean time per position must stay under this."""


TEST_SETS = (
    TestSet("Test_L3_R1", "end-easy", 51, 0.001),
    TestSet("Test_L2_R1", "middle-easy", 450, 0.010),
    TestSet("Test_L2_R2", "middle-medium", 39_900, 1.0),
)


@dataclass(frozen=True, slots=True)
class Target:
    """A goal and what this run measured. ``passed`` is None if it could not be measured."""

    section: str
    goal: str
    measured: str
    passed: bool | None

    @property
    def verdict(self) -> str:
        return "n/a" if self.passed is None else "PASS" if self.passed else "FAIL"

    def line(self) -> str:
        return f"  {self.goal:<40} {self.measured:<34} {self.verdict}"


@dataclass(frozen=True, slots=True)
class Solved:
    """Our exact solve of one test-set position. ``line`` counts from 1."""

    line: int
    moves: str
    expected: int
    score: int
    nodes: int
    seconds: float

    @property
    def correct(self) -> bool:
        return self.score == self.expected


@dataclass(slots=True)
class Run:
    """What the sections found: the targets, and whether every answer was right."""

    targets: list[Target]
    wrong_answers: int = 0


def format_seconds(seconds: float) -> str:
    """``0.123 ms``, ``45.6 ms`` or ``2.46 s``."""
    if seconds < 0.001:
        return f"{seconds * 1000:.3f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


def format_ratio(ratio: float) -> str:
    """``2,582x`` or ``1.66x``."""
    return f"{ratio:,.0f}x" if ratio >= 100 else f"{ratio:.2f}x" if ratio < 10 else f"{ratio:.1f}x"


def format_lines(lines: Sequence[int]) -> str:
    """Line numbers as ranges: ``1-3, 7, 9-12``."""
    parts: list[str] = []
    start = previous = None
    for number in [*sorted(lines), None]:
        if start is not None and previous is not None and number != previous + 1:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
            start = None
        if start is None:
            start = number
        previous = number
    return ", ".join(parts) if parts else "none"


def heading(title: str) -> None:
    print()
    print(title)
    print("-" * len(title))


def solve_connect4(
    kernel: SearchKernel, position: Position, *, pure: bool = False
) -> tuple[int, int]:
    """The exact stone score of ``position`` and the nodes searched for it.

    The root logic of :func:`boardroom.shared.engine.search.solve`, rebuilt from public pieces
    to read the node count: an immediate win is scored without search (0 nodes, as
    the reference solver counts it), anything else goes to a fresh exact searcher
    (:func:`boardroom.shared.engine.solvers.exact_searcher`, or the pure
    :class:`~boardroom.shared.engine.negamax.Searcher` if ``pure``) with the bounds the stones
    allow.
    """
    ply = position.ply
    cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
    occupied = cur | opp
    half = kernel.half
    if kernel.winning_cells(cur, kernel.board & ~occupied) & kernel.playable(occupied):
        return half - ply // 2, 0
    searcher = Searcher(kernel) if pure else solvers.exact_searcher(kernel)
    score = searcher.solve(cur, opp, ply, low=-(half - (ply + 1) // 2), high=half - (ply + 2) // 2)
    return score, searcher.nodes


def read_test_set(test_set: TestSet, sample: int | None) -> list[tuple[int, str, int]]:
    """(line number, moves, score) of the first ``sample`` lines (all if None)."""
    rows: list[tuple[int, str, int]] = []
    path = DATA_DIR / test_set.name
    with path.open(encoding="ascii") as lines:
        for number, line in enumerate(lines, start=1):
            if sample is not None and len(rows) >= sample:
                break
            if line.strip():
                moves, score = line.split()
                rows.append((number, moves, int(score)))
    return rows


def solve_rows(
    game: GridGame, kernel: SearchKernel, rows: Sequence[tuple[int, str, int]]
) -> list[Solved]:
    """Our exact solve of each (line, moves, expected score) row, timed apart."""
    gc.collect()
    results: list[Solved] = []
    for number, moves, expected in rows:
        position = game.from_moves(moves)
        began = time.perf_counter()
        score, nodes = solve_connect4(kernel, position)
        seconds = time.perf_counter() - began
        results.append(Solved(number, moves, expected, score, nodes, seconds))
    return results
