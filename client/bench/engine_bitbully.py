"""Section 5 of ``boardroom bench engine``: bitbully (C++) on the same positions.

Every position our solver solved in section 3 (:mod:`boardroom.client.bench.engine`), and
the early-game set (``data/connect4/Early_13_16``, :mod:`boardroom.client.bench.early_set`),
solved by bitbully (:mod:`boardroom.client.bench.peer_bitbully`) without its opening book
(solver against solver: issue 25's target, our time at most
:data:`BITBULLY_RATIO_TARGET` times bitbully's on middle-medium and early) and
with it. docs/benchmarks.md, "Against bitbully (issue 25)", has the figures.
"""

from __future__ import annotations

import gc
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

from boardroom.client.bench.engine_run import (
    TEST_SETS,
    Run,
    Solved,
    Target,
    TestSet,
    format_ratio,
    format_seconds,
    heading,
    read_test_set,
    solve_rows,
)
from boardroom.shared.engine import solvers
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.games import GridGame, get_game

EARLY_SET = TestSet("Early_13_16", "early", 0, 0.0)
"""Section 5's early-game set (:mod:`boardroom.client.bench.early_set`): no published reference
and no time target of its own; bitbully's scores, checked again in the run."""
BITBULLY_RATIO_TARGET = 2.0
"""Issue 25: our mean time at most this many times bitbully's (no book), judged on
the middle-medium and early sets."""
BITBULLY_JUDGED = ("Test_L2_R2", EARLY_SET.name)


@dataclass(frozen=True, slots=True)
class PeerLine:
    """One solver's figures on one set's positions (section 5)."""

    solver: str
    positions: int
    correct: int
    mean_seconds: float
    mean_nodes: float

    def cells(self) -> str:
        return (
            f"{self.solver:<18} {self.positions:>9} {self.correct:>8}"
            f" {format_seconds(self.mean_seconds):>10} {self.mean_nodes:>12,.1f}"
        )


def peer_line(solver: str, results: Sequence[tuple[int, int, int, float]]) -> PeerLine:
    """A :class:`PeerLine` from (expected, score, nodes, seconds) per position."""
    return PeerLine(
        solver,
        len(results),
        sum(expected == score for expected, score, _, _ in results),
        statistics.fmean(seconds for *_, seconds in results),
        statistics.fmean(nodes for _, _, nodes, _ in results),
    )


def bench_bitbully(
    run: Run, solved: dict[str, list[Solved]], early: int, peer: ModuleType | None
) -> None:
    """Section 5: bitbully (C++) on the positions of section 3, and the early set.

    Every position our solver solved in section 3, and the first ``early`` lines of
    the early-game set (solved here by ours first), solved by bitbully without its
    opening book (solver against solver: the ratio and its target), then with it.
    Every score is checked against the set's; a wrong bitbully score is printed,
    not counted against the engine."""
    heading("5. peer: bitbully (C++, pybind11) on the same positions")
    if peer is None:
        print("  bitbully not installed: peer skipped")
        run.targets.append(Target("bitbully", "bitbully measured", "not installed", None))
        return
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    kernel = kernel_for(game)
    sets = [(test_set, solved.get(test_set.name, [])) for test_set in TEST_SETS]
    if early > 0:
        try:
            rows = read_test_set(EARLY_SET, early)
        except OSError as error:
            print(f"  {EARLY_SET.name}: cannot read the set ({error}): skipped")
        else:
            ours_early = solve_rows(game, kernel, rows)
            run.wrong_answers += sum(not result.correct for result in ours_early)
            sets.append((EARLY_SET, ours_early))
    plain = peer.BitbullySolver()
    book = peer.book_path()
    booked = peer.BitbullySolver(book) if book is not None else None
    print(f"  bitbully {peer.version()}: BitBullyCore.mtdf(board, 0), exact scores on the sets'")
    print("  scale; table cleared and node counter zeroed before each position, outside")
    print("  the timed part (the clearing alone takes about 40 ms); nodes: getNodeCounter.")
    print(f"  without its book: constructed in {format_seconds(plain.load_seconds)};")
    if booked is not None and booked.with_book:
        print(f"  with its book ({book}): loaded in {format_seconds(booked.load_seconds)}.")
    else:
        print("  with its book: bitbully-databases not installed (or not loaded): line skipped.")
        booked = None
    print(f"  ours: {solvers.backend(kernel)} solver, times of section 3 (the early set: this")
    print("  section); ours/bitbully is our mean time over bitbully's (no book) on the same")
    print(f"  positions; target <= {BITBULLY_RATIO_TARGET:g}x on middle-medium and early.")
    print()
    print(
        f"  {'set':<26} {'solver':<18} {'positions':>9} {'correct':>8} {'mean time':>10}"
        f" {'mean nodes':>12} {'ours/this':>10}"
    )
    for test_set, ours in sets:
        if not ours:
            continue
        gc.collect()
        lines = [
            peer_line(
                f"ours ({solvers.backend(kernel)})",
                [(r.expected, r.score, r.nodes, r.seconds) for r in ours],
            )
        ]
        wrong: list[str] = []
        for solver, label in ((plain, "bitbully"), (booked, "bitbully + book")):
            if solver is None:
                continue
            results = []
            for r in ours:
                theirs = solver.solve(r.moves)
                results.append((r.expected, theirs.score, theirs.nodes, theirs.seconds))
                if theirs.score != r.expected:
                    wrong.append(
                        f"    {label} WRONG: line {r.line} {r.moves}: expected"
                        f" {r.expected}, got {theirs.score}"
                    )
            lines.append(peer_line(label, results))
        name = f"{test_set.name} {test_set.label}"
        for index, line in enumerate(lines):
            ratio = "" if index == 0 else format_ratio(lines[0].mean_seconds / line.mean_seconds)
            print(f"  {name if index == 0 else '':<26} {line.cells()} {ratio:>10}", flush=True)
        for line_text in wrong:
            print(line_text)
        if test_set.name in BITBULLY_JUDGED and len(lines) > 1:
            ratio_value = lines[0].mean_seconds / lines[1].mean_seconds
            run.targets.append(
                Target(
                    "bitbully",
                    f"{test_set.label}: <= {BITBULLY_RATIO_TARGET:g}x bitbully's time",
                    f"{format_ratio(ratio_value)} on {lines[0].positions}",
                    ratio_value <= BITBULLY_RATIO_TARGET,
                )
            )
    print()
    for target in run.targets:
        if target.section == "bitbully":
            print(target.line())
