"""``boardroom bench engine``: the engine against its baselines, in one run.

Sections, each printing its numbers with the targets marked PASS or FAIL:

1. tic-tac-toe from the empty board: the plain reference minimax
   (:func:`boardroom.shared.engine.minimax`, every node of the game tree, one run) against
   the production search (:func:`boardroom.shared.engine.solve_move`, the median of
   several runs, since one takes about a millisecond);
2. 4x4 four-in-a-row from the empty board: a full solve, which must be a draw;
3. Connect Four, the standard solver test sets (``data/connect4``, each line a
   move string and its exact score), solved by the engine's exact solver (the
   compiled one, :mod:`boardroom.shared.engine.native`, unless ``BOARDROOM_ENGINE=python``):
   correct count, mean time and mean nodes per position, nodes against the
   published figures of Pascal Pons' solver; then (3b) the compiled solver against
   the pure-Python one on the same first positions of each set, as a time ratio
   (same nodes: one algorithm), and the compiled code's first-compile and
   cached-load times, each measured in a fresh process;
4. the peer, easyAI, where it is installed, on the first positions of each set,
   each under a time budget: (a) as shipped, with its own ConnectFour game, on
   which the speed-up targets are judged; (b) its search on a bitboard adapter
   (:mod:`boardroom.client.bench.peer_easyai`), a stricter comparison shown for scale;
5. the C++ peer, bitbully, where it is installed (:mod:`boardroom.client.bench.engine_bitbully`,
   over the adapter :mod:`boardroom.client.bench.peer_bitbully`),
   on every position of section 3 and on an early-game set (``data/connect4/Early_13_16``,
   :mod:`boardroom.client.bench.early_set`), without its opening book and with it: correct
   count, mean time and nodes, and our time over bitbully's on the same positions.

A summary of every target ends the run. :func:`main` returns 1 if the engine gave
a wrong answer anywhere and 0 otherwise: a missed speed target is reported, not
an error, because timings move with the machine's load.
"""

from __future__ import annotations

import gc
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from types import ModuleType
from typing import Any

from boardroom.client.bench.engine_run import (
    DATA_DIR,
    TEST_SETS,
    Run,
    Solved,
    Target,
    format_lines,
    format_ratio,
    format_seconds,
    heading,
    read_test_set,
    solve_connect4,
    solve_rows,
)
from boardroom.client.conditions import condition_lines, load_average
from boardroom.shared.engine import minimax, solve_move, solvers
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.engine.scores import Result, stone_score
from boardroom.shared.games import GridGame, get_game

TICTACTOE_RUNS = 21
"""Runs of our tic-tac-toe solve: one takes about a millisecond, too short to time once."""
TICTACTOE4_RUNS = 3
"""Runs of the 4x4 solve, about 0.15 s each."""
NODES_RATIO_TARGET = 100
TIME_RATIO_TARGET = 50
TICTACTOE4_TIME_TARGET = 1.0
REFERENCE_NODES_FACTOR = 1.5
"""Our mean nodes may be this many times the reference solver's."""
PEER_SPEEDUP_TARGET = 100
NATIVE_SPEEDUP_TARGET = 10
"""The compiled solver against the pure one on ``Test_L2_R2`` (issue 16)."""
PURE_SAMPLE = 100
"""Positions per set solved again by the pure solver for the ratio (about 0.15-0.3 s
each on the middle-medium set: the whole set would take minutes more)."""

PEER_BUDGET_SECONDS = 60.0
"""Seconds easyAI gets per position. On the bitboard adapter it solves end-easy and
middle-easy positions in milliseconds to seconds, but took 19-92 s on each of the
first three middle-medium positions (about 0.5 GB of table per 4 million moves)."""
PEER_SET_BUDGETS = 2
"""Once the peer has spent this many per-position budgets on one set (time-outs
included), it skips the rest of the set: this bounds the run at a few minutes."""
STOCK_BUDGET_SECONDS = 10.0
"""Least seconds per position for easyAI's own ConnectFour game. Without a table it
needs seconds to minutes even for some end-game positions, so many positions time
out and give only a lower bound on the speed-up; see :data:`STOCK_PROOF_FACTOR`."""
STOCK_PROOF_FACTOR = 150
"""easyAI as shipped gets at least this many times our time on each position (up to
:data:`STOCK_BUDGET_MAX_SECONDS`), so that a time-out there still proves a speed-up
of this factor, above the 100x target, instead of an inconclusive bound."""
STOCK_BUDGET_MAX_SECONDS = 120.0
EARLY_SAMPLE = 200
"""Lines of the early-game set solved in section 5 (all of it: about 20 s for ours)."""


# -- sections -------------------------------------------------------------------------


def bench_tictactoe(run: Run) -> None:
    """Section 1: the plain minimax against our search on the empty 3x3 board."""
    heading("1. tic-tac-toe, empty board: plain minimax vs our search")
    game = get_game("tictactoe")
    assert isinstance(game, GridGame)
    start = game.new()
    gc.collect()
    began = time.perf_counter()
    plain = minimax(game, start)
    plain_seconds = time.perf_counter() - began

    kernel_for(game)  # built once per game and process; not part of a search
    results = [solve_move(game, start) for _ in range(TICTACTOE_RUNS)]
    times = [result.elapsed for result in results]
    ours_median, ours_best = statistics.median(times), min(times)
    nodes = results[0].nodes
    values = {stone_score(result.score) for result in results}
    right = plain.score == 0 and values == {0}
    run.wrong_answers += not right

    print(f"  {'':<22} {'nodes':>10} {'time':>12}")
    plain_time = format_seconds(plain_seconds)
    print(f"  {'plain minimax':<22} {plain.nodes:>10,} {plain_time:>12}  one run")
    print(
        f"  {'ours (solve_move)':<22} {nodes:>10,} {format_seconds(ours_median):>12}  "
        f"median of {TICTACTOE_RUNS} runs (best {format_seconds(ours_best)})"
    )
    node_ratio = plain.nodes / max(nodes, 1)
    time_ratio = plain_seconds / ours_median
    print(f"  {'ratio':<22} {format_ratio(node_ratio):>10} {format_ratio(time_ratio):>12}")
    print(
        f"  value: plain {plain.score}, ours {sorted(values)} (0 = draw): "
        + ("agree" if right else "WRONG")
    )
    section = "tic-tac-toe"
    run.targets += [
        Target(
            section,
            f">= {NODES_RATIO_TARGET}x fewer nodes",
            format_ratio(node_ratio),
            node_ratio >= NODES_RATIO_TARGET,
        ),
        Target(
            section,
            f">= {TIME_RATIO_TARGET}x less time (median)",
            format_ratio(time_ratio),
            time_ratio >= TIME_RATIO_TARGET,
        ),
    ]
    print()
    for target in run.targets[-2:]:
        print(target.line())


def bench_tictactoe4(run: Run) -> None:
    """Section 2: a full solve of 4x4 four-in-a-row."""
    heading("2. 4x4 four-in-a-row, empty board: full solve")
    game = get_game("tictactoe4")
    assert isinstance(game, GridGame)
    kernel_for(game)
    gc.collect()
    results = [solve_move(game, game.new()) for _ in range(TICTACTOE4_RUNS)]
    seconds = statistics.median(result.elapsed for result in results)
    result = results[0]
    draw = all(r.value.result is Result.DRAW and r.score == 0 for r in results)
    run.wrong_answers += not draw
    print(
        f"  time {format_seconds(seconds)} (median of {TICTACTOE4_RUNS} runs, best "
        f"{format_seconds(min(r.elapsed for r in results))}), {result.nodes:,} nodes, "
        f"value {result.value} (score {result.score}), best move {result.move_text}"
    )
    section = "4x4"
    run.targets += [
        Target(section, "value is a draw (0)", str(result.value), draw),
        Target(
            section,
            f"solve in < {TICTACTOE4_TIME_TARGET:g} s",
            format_seconds(seconds),
            seconds < TICTACTOE4_TIME_TARGET,
        ),
    ]
    print()
    for target in run.targets[-2:]:
        print(target.line())


def bench_connect4(run: Run, sample: int | None) -> dict[str, list[Solved]]:
    """Section 3: every position of the sample of each test set, solved exactly."""
    heading("3. Connect Four, standard test sets: exact scores, a fresh search per position")
    which = "all lines" if sample is None else f"the first {sample} lines"
    print(f"  {which} of each set in {DATA_DIR}")
    print(
        "  nodes: Searcher.nodes (negamax calls); reference: Pascal Pons' solver, "
        "published mean nodes"
    )
    if sample is not None:
        print("  (the reference is a mean over all 1000 lines: on a sample it compares roughly)")
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    kernel = kernel_for(game)
    print(f"  solver: {solvers.backend(kernel)} (load and compile times: section 3b)")
    solved: dict[str, list[Solved]] = {}
    print()
    print(
        f"  {'set':<26} {'positions':>9} {'correct':>8} {'mean time':>10} {'max time':>10}"
        f" {'mean nodes':>11} {'reference':>10} {'ours/ref':>9}"
    )
    targets: list[Target] = []
    for test_set in TEST_SETS:
        try:
            rows = read_test_set(test_set, sample)
        except OSError as error:
            print(f"  {test_set.name}: cannot read the set ({error}): skipped")
            targets.append(Target(test_set.label, "set solved", "set missing", None))
            continue
        results = solve_rows(game, kernel, rows)
        solved[test_set.name] = results
        count = len(results)
        correct = sum(result.correct for result in results)
        run.wrong_answers += count - correct
        mean_time = statistics.fmean(result.seconds for result in results)
        mean_nodes = statistics.fmean(result.nodes for result in results)
        ratio = mean_nodes / test_set.reference_nodes
        name = f"{test_set.name} {test_set.label}"
        print(
            f"  {name:<26} {count:>9} {correct:>8} {format_seconds(mean_time):>10}"
            f" {format_seconds(max(r.seconds for r in results)):>10} {mean_nodes:>11,.1f}"
            f" {test_set.reference_nodes:>10,} {format_ratio(ratio):>9}",
            flush=True,
        )
        for result in results:
            if not result.correct:
                print(
                    f"    WRONG: line {result.line} {result.moves}: "
                    f"expected {result.expected}, got {result.score}"
                )
        targets += [
            Target(test_set.label, "100% correct", f"{correct}/{count}", correct == count),
            Target(
                test_set.label,
                f"mean nodes <= {REFERENCE_NODES_FACTOR}x reference",
                f"{mean_nodes:,.1f} = {format_ratio(ratio)} of {test_set.reference_nodes:,}",
                ratio <= REFERENCE_NODES_FACTOR,
            ),
            Target(
                test_set.label,
                f"mean time < {format_seconds(test_set.time_target)}",
                format_seconds(mean_time),
                mean_time < test_set.time_target,
            ),
        ]
    print()
    for target in targets:
        print(f"  {target.section + ':':<15}" + target.line()[2:])
    run.targets += targets
    return solved


_LOAD_SCRIPT = """
import time
began = time.perf_counter()
from boardroom.shared.engine import solvers
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.games import get_game
print(time.perf_counter() - began, solvers.warm_up(kernel_for(get_game("connect4"))))
"""


def measure_load(cache_dir: str) -> str:
    """How the compiled solver gets ready in a fresh process with numba's cache in
    ``cache_dir``: the process's own warm-up line (see :func:`solvers.warm_up`)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    done = subprocess.run(  # noqa: S603 - our own interpreter and script
        [sys.executable, "-c", _LOAD_SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if done.returncode:
        return f"failed: {done.stderr.strip().splitlines()[-1:]}"
    engine_seconds, _, line = done.stdout.strip().partition(" ")
    return f"{line} (importing the engine took {float(engine_seconds):.2f} s before)"


def bench_native(
    run: Run, solved: dict[str, list[Solved]], pure_sample: int, numba_cache: str | None = None
) -> None:
    """Section 3b: the compiled solver against the pure one, and its load times
    (see :func:`main` for ``numba_cache``)."""
    heading("3b. compiled (numba) vs pure-Python exact solver, same positions")
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    kernel = kernel_for(game)
    if solvers.backend(kernel) != "native":
        print(f"  section 3 ran the pure solver ({solvers.warm_up(kernel)}): nothing to compare")
        run.targets.append(Target("native", "compiled solver measured", "not running", None))
        return
    if numba_cache is None:
        with tempfile.TemporaryDirectory(prefix="boardroom-numba-") as empty:
            print(f"  first compile, fresh process, empty cache: {measure_load(empty)}")
            print(f"  cached load, fresh process, same cache:    {measure_load(empty)}")
    else:
        print(f"  first compile: not measured (numba's cache given: {numba_cache})")
        print(f"  cached load, fresh process, that cache:    {measure_load(numba_cache)}")
    print(f"  the first {pure_sample} positions of each set solved again by the pure solver")
    print("  (BOARDROOM_ENGINE=python); nodes must be equal: one algorithm")
    print()
    print(
        f"  {'set':<26} {'positions':>9} {'native mean':>12} {'pure mean':>10}"
        f" {'same nodes':>10} {'ratio':>7}"
    )
    for test_set in TEST_SETS:
        results = solved.get(test_set.name, [])[:pure_sample]
        if not results:
            continue
        gc.collect()
        pure_times: list[float] = []
        same = 0
        for ours in results:
            position = game.from_moves(ours.moves)
            began = time.perf_counter()
            score, nodes = solve_connect4(kernel, position, pure=True)
            pure_times.append(time.perf_counter() - began)
            same += nodes == ours.nodes and score == ours.score
        run.wrong_answers += len(results) - same
        native_mean = statistics.fmean(r.seconds for r in results)
        pure_mean = statistics.fmean(pure_times)
        ratio = pure_mean / native_mean
        name = f"{test_set.name} {test_set.label}"
        print(
            f"  {name:<26} {len(results):>9} {format_seconds(native_mean):>12}"
            f" {format_seconds(pure_mean):>10} {f'{same}/{len(results)}':>10}"
            f" {format_ratio(ratio):>7}",
            flush=True,
        )
        if test_set.name == "Test_L2_R2":
            run.targets.append(
                Target(
                    "native",
                    f"{test_set.label}: >= {NATIVE_SPEEDUP_TARGET}x the pure solver",
                    f"{format_ratio(ratio)} on {len(results)}",
                    ratio >= NATIVE_SPEEDUP_TARGET,
                )
            )
    print()
    for target in run.targets:
        if target.section == "native":
            print(target.line())


def load_peer(adapter: str) -> ModuleType | None:
    """A peer's adapter module (``boardroom.client.bench.peer_easyai``...), or None if the
    peer it wraps is not installed (the adapter's import fails)."""
    try:
        return importlib.import_module(adapter)
    except ImportError:
        return None


@dataclass(frozen=True, slots=True)
class PeerGame:
    """One way of running easyAI: a title, how it is set up, and its solve function."""

    title: str
    description: tuple[str, ...]
    solve: Callable[[str, float], Any]
    budget: float
    """Seconds per position (the least, with ``proof_factor``)."""
    judged: bool
    """True if the speed-up targets are judged on this peer."""
    proof_factor: float | None = None
    """If set, each position gets this many times our time on it, within
    [``budget``, :data:`STOCK_BUDGET_MAX_SECONDS`]."""

    def budget_for(self, ours: Solved) -> float:
        """Seconds easyAI gets on the position ``ours`` solved."""
        if self.proof_factor is None:
            return self.budget
        wanted = self.proof_factor * ours.seconds
        return min(max(self.budget, wanted), STOCK_BUDGET_MAX_SECONDS)


def peer_games(peer: ModuleType, budget: float) -> list[PeerGame]:
    """easyAI as shipped (judged), then easyAI's search on a bitboard game (for scale)."""
    return [
        PeerGame(
            title="4a. easyAI as shipped: easyAI.games.ConnectFour",
            description=(
                f"easyAI {peer.version()}: its own ConnectFour game (numpy board, copied at",
                "every move, no table key, so no transposition table) and Negamax with",
                "alpha-beta to the end of the game, window (-1, 1): a win/draw/loss solve,",
                "compared by sign with the set's score. The speed-up targets are judged here.",
            ),
            solve=peer.solve_stock,
            budget=min(budget, STOCK_BUDGET_SECONDS),
            judged=True,
            proof_factor=STOCK_PROOF_FACTOR if budget >= STOCK_BUDGET_SECONDS else None,
        ),
        PeerGame(
            title="4b. easyAI's search on a bitboard game (client/bench/peer_easyai.py)",
            description=(
                "The same Negamax, now with its TranspositionTable, on a bitboard Connect Four",
                "adapter written for this benchmark: a stricter peer than any easyAI ships,",
                "showing what is left once the board code is as fast as ours. No target.",
            ),
            solve=peer.solve_bitboard,
            budget=budget,
            judged=False,
        ),
    ]


def bench_peer(
    run: Run,
    solved: dict[str, list[Solved]],
    peer_sample: int,
    peer: ModuleType | None,
    budget: float = PEER_BUDGET_SECONDS,
) -> None:
    """Section 4: easyAI on the first ``peer_sample`` positions of each set solved."""
    heading("4. peer: easyAI on the same positions")
    if peer is None:
        print("  easyAI not installed: peer skipped")
        run.targets.append(Target("peer", "easyAI measured", "not installed", None))
        return
    if peer_sample <= 0:
        print("  --peer-sample 0: peer skipped")
        run.targets.append(Target("peer", "easyAI measured", "not asked", None))
        return
    if any(len(results) < peer_sample for results in solved.values()):
        print(f"  --peer-sample {peer_sample} is capped at the positions of section 3")
    for game in peer_games(peer, budget):
        _bench_peer_game(run, solved, peer_sample, game)
    print()
    for target in run.targets:
        if target.section == "peer":
            print(target.line())


def _bench_peer_game(
    run: Run, solved: dict[str, list[Solved]], peer_sample: int, game: PeerGame
) -> None:
    """One peer table: each set's first positions, each under its budget."""
    budget = game.budget
    set_budget = PEER_SET_BUDGETS * budget
    if game.proof_factor is not None:
        budget_text = (
            f"{game.proof_factor:g} times ours on each position, at least {budget:g} s and at"
            f" most {STOCK_BUDGET_MAX_SECONDS:g} s"
        )
        set_budget = PEER_SET_BUDGETS * STOCK_BUDGET_MAX_SECONDS
    else:
        budget_text = f"{budget:g} s per position"
    print()
    print(f"  {game.title}")
    for line in (
        *game.description,
        f"Budget: {budget_text};",
        f"once {set_budget:g} s are spent on a set, the rest of it is skipped.",
        "Ours: the times of section 3 on the same positions (exact scores).",
    ):
        print(f"  {line}")
    print()
    print(
        f"  {'set':<26} {'ran':>4} {'solved':>6} {'correct':>7} {'easyAI mean':>12}"
        f" {'ours mean':>10} {'speed-up':>9}"
    )
    notes: list[str] = []
    for test_set in TEST_SETS:
        results = solved.get(test_set.name, [])[:peer_sample]
        if not results:
            continue
        finished: list[tuple[Solved, float, int]] = []
        timed_out: list[tuple[Solved, float]] = []
        skipped: list[Solved] = []
        spent = 0.0
        for ours in results:
            if spent >= set_budget:
                skipped.append(ours)
                continue
            gc.collect()
            try:
                allowed = game.budget_for(ours)
                theirs = game.solve(ours.moves, allowed)
            except ImportError as error:  # easyAI's own game needs numpy
                print(f"  not run: {error}")
                return
            spent += theirs.seconds
            if theirs.finished:
                finished.append((ours, theirs.seconds, theirs.result))
            else:
                timed_out.append((ours, allowed))
        name = f"{test_set.name} {test_set.label}"
        ran = len(finished) + len(timed_out)
        correct = sum(result == _sign(ours.expected) for ours, _, result in finished)
        goal = f"{test_set.label}: >= {PEER_SPEEDUP_TARGET}x faster"
        if finished:
            theirs_mean = statistics.fmean(seconds for _, seconds, _ in finished)
            ours_mean = statistics.fmean(ours.seconds for ours, _, _ in finished)
            speedup = theirs_mean / ours_mean
            print(
                f"  {name:<26} {ran:>4} {len(finished):>6} {correct:>7}"
                f" {format_seconds(theirs_mean):>12} {format_seconds(ours_mean):>10}"
                f" {format_ratio(speedup):>9}",
                flush=True,
            )
            measured = f"{format_ratio(speedup)} on {len(finished)} solved"
            if timed_out:
                measured += f", {len(timed_out)} timed out"
            if game.judged:
                run.targets.append(Target("peer", goal, measured, speedup >= PEER_SPEEDUP_TARGET))
        else:
            print(f"  {name:<26} {ran:>4} {0:>6} {'-':>7} {'-':>12} {'-':>10} {'-':>9}")
        notes.append(
            f"  {test_set.name}: solved lines {format_lines([o.line for o, _, _ in finished])}"
        )
        if timed_out:
            ours_mean = statistics.fmean(ours.seconds for ours, _ in timed_out)
            allowed_mean = statistics.fmean(allowed for _, allowed in timed_out)
            bound = allowed_mean / ours_mean
            notes.append(
                f"    timed out (after {format_seconds(allowed_mean)} on average): lines"
                f" {format_lines([ours.line for ours, _ in timed_out])};"
                f" ours took {format_seconds(ours_mean)} on them: speed-up > {format_ratio(bound)}"
            )
            if not finished and game.judged:
                # Only a lower bound: it can prove the target, never disprove it.
                met = True if bound >= PEER_SPEEDUP_TARGET else None
                verdict = "" if met else "; inconclusive"
                run.targets.append(
                    Target("peer", goal, f"> {format_ratio(bound)} (all timed out{verdict})", met)
                )
        if skipped:
            notes.append(
                f"    skipped, {set_budget:g} s spent on the set: lines "
                f"{format_lines([o.line for o in skipped])}"
            )
    print()
    print("\n".join(notes))


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def summary(run: Run) -> None:
    heading("summary")
    for target in run.targets:
        print(f"  {target.section + ':':<15}" + target.line()[2:])
    verdicts = [target.passed for target in run.targets]
    print()
    print(
        f"  {verdicts.count(True)} passed, {verdicts.count(False)} failed, "
        f"{verdicts.count(None)} n/a (not measured, or inconclusive); "
        + (
            "every answer of the engine was right"
            if not run.wrong_answers
            else f"{run.wrong_answers} WRONG answers from the engine"
        )
    )
    print(f"  load average at end: {load_average()}")


def main(
    *,
    sample: int | None = None,
    peer_sample: int = 20,
    peer_budget: float = PEER_BUDGET_SECONDS,
    pure_sample: int = PURE_SAMPLE,
    early: int = EARLY_SAMPLE,
    numba_cache: str | None = None,
) -> int:
    """Run every section and print the results; 1 if the engine answered wrongly.

    ``sample`` limits each Connect Four set to its first lines (None: all 1000);
    ``peer_sample`` is how many of those the peer gets, ``peer_budget`` the seconds
    it may spend on each; ``pure_sample`` how many the pure solver solves again;
    ``early`` how many lines of the early-game set ours and bitbully solve (0: none).
    ``numba_cache``: None, section 3b times the compiled solver's first compile
    in a fresh process and an empty numba cache, then its load from that cache
    (what the benchmark reports); a folder, only the load from that cache (the
    test suite's warm one, which spares it a cold compile of about 20 s).
    """
    if sample is not None and sample < 1:
        print("boardroom bench engine: --sample must be at least 1")
        return 2
    if peer_sample < 0:
        print("boardroom bench engine: --peer-sample must not be negative")
        return 2
    if early < 0:
        print("boardroom bench engine: --early must not be negative")
        return 2
    # Section 5 builds on this module's pieces (sets, runs, formats), so it is
    # imported once they exist.
    from boardroom.client.bench.engine_bitbully import bench_bitbully

    peer = load_peer("boardroom.client.bench.peer_easyai")
    bitbully = load_peer("boardroom.client.bench.peer_bitbully")
    title = "Boardroom engine benchmark"
    print(title)
    print("=" * len(title))
    extra = [
        ("started", datetime.now().astimezone().isoformat(timespec="seconds")),
        ("easyAI", peer.version() if peer is not None else "not installed"),
        ("bitbully", bitbully.version() if bitbully is not None else "not installed"),
    ]
    for line in condition_lines(extra):
        print(f"  {line}")
    print("  all times are wall clock, one process, one thread")
    run = Run(targets=[])
    bench_tictactoe(run)
    bench_tictactoe4(run)
    solved = bench_connect4(run, sample)
    bench_native(run, solved, pure_sample, numba_cache)
    bench_peer(run, solved, peer_sample, peer, peer_budget)
    bench_bitbully(run, solved, early, bitbully)
    summary(run)
    return 1 if run.wrong_answers else 0
