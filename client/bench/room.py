"""``boardroom bench room``: the pure room's CPU a move, the server's ``rules`` stage alone.

For each game (tic-tac-toe, Connect Four and gomoku by default) and each tree
measured (this checkout's, and with ``--before DIR`` another checkout's, to
compare a change side by side), a fresh process plays the same seeded random
legal games in one room between two players, a rematch after each, and times
the room's inputs (``time.process_time``): ``server/room_bench.py`` says how.
The rounds take the trees in turn, so both share the machine's load of the
moment; the summary gives each figure's lowest, median and highest over the
rounds, and the ratio of the medians.

The wire output is checked too: each tree's room hashes everything it said
back (messages as the wire encodes them, recipients, events, deadlines), and
the summary says whether the hashes agree across trees and rounds, so a change
that should be invisible to clients can be seen to be. A move refused, or a
move not announced, stops the benchmark.

``--before DIR`` takes a folder holding a ``boardroom`` folder of another
checkout (``git archive main server client shared | tar -x -C DIR/boardroom``),
run with ``PYTHONPATH=DIR``: this checkout's ``server/room_bench.py`` runs as a
file there, so the other tree needs no benchmark of its own, only the room.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardroom.client.conditions import condition_lines

GAMES: dict[str, int] = {"tictactoe": 2000, "connect4": 300, "gomoku": 20}
"""The games measured by default, with their number of games: about 15,000, 6,000
and 2,300 moves, a second or less a round each."""

RUNNER = Path(__file__).resolve().parents[2] / "server" / "room_bench.py"
"""The program that plays and times one tree's room (run as a file, not imported:
the client imports nothing of the server)."""


class BenchError(Exception):
    """A round could not be measured (the message says why)."""


@dataclass(frozen=True)
class Tree:
    """A tree whose room is measured: this checkout's, or another one's (``source``)."""

    name: str
    source: Path | None = None


@dataclass
class Figures:
    """One game's rounds in one tree."""

    games: int
    moves: int
    per_move_us: list[float] = field(default_factory=list)
    digests: set[str] = field(default_factory=set)
    room_module: str = ""


def main(
    *,
    games: dict[str, int] | None = None,
    rounds: int = 3,
    seed: int = 1,
    before: Path | None = None,
) -> int:
    """Measure, print each round's figures and the summary; 1 if a round failed."""
    chosen = dict(GAMES if games is None else games)
    trees = [Tree("this checkout")]
    if before is not None:
        if not (before / "boardroom" / "server").is_dir():
            print(f"bench room: --before {before}: no boardroom/server in it", file=sys.stderr)
            return 1
        trees.insert(0, Tree("before", before))
    print("Boardroom room benchmark: the pure room's CPU a move (the server's rules stage)")
    shown_games = ", ".join(f"{name} {count:,} games" for name, count in chosen.items())
    for line in condition_lines(
        [
            ("games", f"{shown_games}; random legal moves (seed {seed}), a rematch after each"),
            ("room", "two players, no clock, no spectator; each request with an id"),
            ("rounds", f"{rounds}, each tree in turn, a fresh process each"),
            ("trees", ", ".join(_tree_label(tree) for tree in trees)),
        ]
    ):
        print(line)
    figures: dict[tuple[str, str], Figures] = {}
    loads: list[float] = []
    try:
        for number in range(1, rounds + 1):
            load = _one_minute_load()
            if load is not None:
                loads.append(load)
            for game, count in chosen.items():
                shown = []
                for tree in trees:
                    measured = _measure(tree, game, count, seed)
                    got = figures.setdefault((game, tree.name), Figures(count, measured["moves"]))
                    per_move = measured["cpu_seconds"] / measured["moves"] * 1e6
                    got.per_move_us.append(per_move)
                    got.digests.add(measured["digest"])
                    got.room_module = measured["room_module"]
                    shown.append(f"{tree.name} {per_move:.1f} µs")
                print(
                    f"round {number}, load {_number(load, 1)}: {game}, "
                    f"{figures[(game, trees[0].name)].moves:,} moves: {', '.join(shown)} a move",
                    flush=True,
                )
    except BenchError as error:
        print(f"bench room: {error}", file=sys.stderr)
        return 1
    print()
    for tree in trees:
        modules = {figures[(game, tree.name)].room_module for game in chosen}
        print(f"{tree.name}: the room of {', '.join(sorted(modules))}")
    print(render_summary(figures, list(chosen), [tree.name for tree in trees], loads))
    return 0


def render_summary(
    figures: dict[tuple[str, str], Figures],
    games: Sequence[str],
    trees: Sequence[str],
    loads: Sequence[float],
) -> str:
    """A row per game: each tree's µs a move (lowest / median / highest over the
    rounds), the ratio of the last tree's median to the first's, and whether the
    wire output was the same in every tree and round.

    >>> one = {("tictactoe", "this checkout"): Figures(10, 76, [30.0, 28.0, 29.0], {"ab"})}
    >>> print(render_summary(one, ["tictactoe"], ["this checkout"], [1.5]).splitlines()[-2])
    | tictactoe | 10 | 76 | 28.0 / 29.0 / 30.0 | the same in every round |
    """
    ratio = len(trees) > 1
    head = "| game | games | moves | " + " | ".join(f"{tree}: µs a move" for tree in trees)
    head += " | this checkout / before |" if ratio else " |"
    lines = [
        head + " wire output |",
        "|---" * (4 + len(trees) + ratio) + "|",
    ]
    for game in games:
        rows = [figures[(game, tree)] for tree in trees]
        cells = [_spread(row.per_move_us) for row in rows]
        if ratio:
            first, last = (statistics.median(row.per_move_us) for row in (rows[0], rows[-1]))
            cells.append(f"{last / first:.2f}")
        digests = set().union(*(row.digests for row in rows))
        same = "the same in every round" if len(trees) == 1 else "the same in both trees"
        cells.append(same if len(digests) == 1 else "DIFFERENT")
        lines.append(f"| {game} | {rows[0].games:,} | {rows[0].moves:,} | {' | '.join(cells)} |")
    lines.append(f"load average (1 min) at each round's start: {_spread(list(loads), 1)}")
    return "\n".join(lines)


def _measure(tree: Tree, game: str, count: int, seed: int) -> dict[str, Any]:
    """One run of the room program in ``tree``: its JSON line, checked."""
    env = dict(os.environ)
    if tree.source is not None:
        env["PYTHONPATH"] = str(tree.source.resolve())
    # -P: the runner's folder stays off sys.path, so "boardroom" is the tree's.
    command = [sys.executable, "-P", str(RUNNER), game, str(count), str(seed)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)  # noqa: S603 - our own program
    if done.returncode != 0:
        raise BenchError(f"the room of {tree.name} failed on {game}:\n{done.stderr.strip()}")
    measured: dict[str, Any] = json.loads(done.stdout)
    if measured["refused"] or measured["moved"] != measured["moves"]:
        raise BenchError(
            f"the room of {tree.name} on {game}: {measured['moves']} moves sent, "
            f"{measured['moved']} announced, {measured['refused']} refusals"
        )
    return measured


def _tree_label(tree: Tree) -> str:
    return tree.name if tree.source is None else f"{tree.name} (PYTHONPATH={tree.source})"


def _one_minute_load() -> float | None:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows has no load average
        return None


def _spread(values: Sequence[float], digits: int = 1) -> str:
    """``lowest / median / highest`` (one value: itself); ``?`` for none."""
    if not values:
        return "?"
    if len(values) == 1:
        return _number(values[0], digits)
    picked = (min(values), statistics.median(values), max(values))
    return " / ".join(_number(value, digits) for value in picked)


def _number(value: float | None, digits: int = 1) -> str:
    return "?" if value is None else f"{value:,.{digits}f}"
