"""``boardroom bench relay``: the relay against a bare echo server, where its CPU goes,
and the paced ceiling, over several runs in one sitting.

Each run measures, one after the other on this machine (so that they share its
load of the moment):

1. an echo server (``boardroom.server.echo_server``): the clients bounce
   move-sized frames off it as fast as they can, the ceiling of what the clients
   and the sockets allow;
2. for each server measured (this checkout's, and with ``--before DIR`` another
   checkout's, to compare a change side by side): the same rooms flat out, for
   moves a second, the ratio to the echo and the server's CPU a move split by
   stage (``/metrics``, server/stage_clock.py; an older server without the
   stage clock shows the total only);
3. then the same server paced: ``--paced-rooms`` rooms thinking ``--think``
   seconds a move (about 1,000 moves a second by default, 1,000 clients), for
   the move latency's p99 at that rate.

The summary gives each figure's spread over the runs (lowest, median, highest),
with the machine's load average at the start of each run: other work on the
machine moves every figure, the ratios to the echo of the same run less.

``--before DIR`` takes a folder holding a ``boardroom`` folder of another
checkout (``git archive main | tar -x -C DIR/boardroom``, or a worktree's
``server``, ``client`` and ``shared`` linked there), run with ``PYTHONPATH=DIR``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardroom.client.conditions import condition_lines
from boardroom.client.loadtest.errors import CannotRunError
from boardroom.client.loadtest.metrics_probe import STAGES
from boardroom.client.loadtest.options import LOAD_GAME, LoadOptions, Mode
from boardroom.client.loadtest.progress import Progress
from boardroom.client.loadtest.report import machine_conditions, report_json, stage_split_text
from boardroom.client.loadtest.runner import ECHO_READY, UNPACED_SERVER_RATE, run_load
from boardroom.client.local_server import LocalServerError, local_process


@dataclass(frozen=True)
class Variant:
    """A server to measure: this checkout's, or another one's (``source``)."""

    name: str
    source: Path | None = None


@dataclass
class RunFigures:
    """What one run measured of one server."""

    load: float | None
    echo_per_second: float
    moves_per_second: float
    cpu_per_move: dict[str, float] | None
    """The server's CPU a move, µs: ``total`` and, from a server with the stage
    clock, each stage and ``other``."""
    paced_per_second: float | None = None
    paced_p99_ms: float | None = None
    failures: dict[str, int] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        return self.moves_per_second / self.echo_per_second if self.echo_per_second else 0.0


def main(
    *,
    runs: int,
    rooms: int,
    duration: float,
    paced_rooms: int,
    think: float,
    workers: int,
    before: Path | None,
) -> int:
    """Make the runs and print each one's figures, then the summary; 1 if a server
    could not run."""
    variants = [Variant("this checkout")]
    if before is not None:
        if not (before / "boardroom" / "server").is_dir():
            print(f"bench relay: --before {before}: no boardroom/server in it", file=sys.stderr)
            return 1
        variants.insert(0, Variant(f"before ({before})", before))
    print("Boardroom relay benchmark: the relay against an echo server, its CPU by stage")
    for line in condition_lines(
        [
            ("flat out", f"{rooms} rooms of {LOAD_GAME}, no pacing, {duration:g} s"),
            ("paced", f"{paced_rooms} rooms thinking {think:g} s a move, {duration:g} s"),
            ("load workers", f"{workers} processes, on this machine"),
            ("servers", ", ".join(variant.name for variant in variants)),
        ]
    ):
        print(line)
    print("Everything shares these cores: load workers, echo and servers.", flush=True)
    figures: dict[str, list[RunFigures]] = {variant.name: [] for variant in variants}
    try:
        for number in range(1, runs + 1):
            print(f"\nrun {number} of {runs} ...", file=sys.stderr, flush=True)
            measured = asyncio.run(_run(variants, rooms, duration, paced_rooms, think, workers))
            for name, run in measured.items():
                figures[name].append(run)
            print(render_run(number, measured), flush=True)
    except (CannotRunError, LocalServerError) as error:
        print(f"bench relay: {error}", file=sys.stderr)
        return 1
    print()
    print(render_summary(figures))
    return 0


async def _run(
    variants: Sequence[Variant],
    rooms: int,
    duration: float,
    paced_rooms: int,
    think: float,
    workers: int,
) -> dict[str, RunFigures]:
    load = _one_minute_load()
    async with local_process(
        "boardroom.server.echo_server", ready=ECHO_READY, own_session=True, label="the echo server"
    ) as echo:
        url = f"ws://127.0.0.1:{echo.port}/ws"
        echoed = await _phase(_options("echo", url, rooms, 0.0, duration, workers))
    echo_rate = echoed["round_trips"]["per_second"] or 0.0
    measured = {}
    for variant in variants:
        async with _server(variant, max(rooms, paced_rooms)) as url:
            flat = await _phase(_options("rooms", url, rooms, 0.0, duration, workers))
            paced = await _phase(_options("rooms", url, paced_rooms, think, duration, workers))
        failures = {**flat["errors"], **flat["room_failures"]}
        for reason, count in {**paced["errors"], **paced["room_failures"]}.items():
            failures[f"paced: {reason}"] = count
        share = (flat.get("server") or {}).get("cpu_share")
        rate = flat["moves"]["per_second"] or 0.0
        split = (flat.get("server") or {}).get("cpu_per_move_us")
        if split is None and share is not None and rate:
            split = {"total": share / rate * 1e6}  # a server without the stage clock
        measured[variant.name] = RunFigures(
            load=load,
            echo_per_second=echo_rate,
            moves_per_second=rate,
            cpu_per_move=split,
            paced_per_second=paced["moves"]["per_second"],
            paced_p99_ms=(paced["move_latency_ms"] or {}).get("p99"),
            failures=failures,
        )
    return measured


@contextlib.asynccontextmanager
async def _server(variant: Variant, rooms: int) -> AsyncIterator[str]:
    flags = [
        "--pool-size", "1", "--engine", "python",
        "--max-connections-per-address", str(max(64, 4 * rooms)),
        "--max-rooms-per-address", "0",
        "--new-players-per-address", "0",
        "--rate", UNPACED_SERVER_RATE, "--burst", UNPACED_SERVER_RATE,
    ]  # fmt: skip
    env = None if variant.source is None else {"PYTHONPATH": str(variant.source.resolve())}
    async with local_process(
        "boardroom.server",
        flags,
        database=True,
        own_session=True,
        label=f"the server of {variant.name}",
        env=env,
    ) as started:
        yield f"ws://127.0.0.1:{started.port}/ws"


async def _phase(options: LoadOptions) -> dict[str, Any]:
    report = await run_load(options, Progress(sys.stderr))
    result: dict[str, Any] = report_json(report, machine_conditions())["result"]
    return result


def _options(
    mode: Mode, url: str, rooms: int, think: float, duration: float, workers: int
) -> LoadOptions:
    return LoadOptions.plain(
        mode, (url,), game=LOAD_GAME, rooms=rooms, think=think, duration=duration, workers=workers
    )


def render_run(number: int, measured: dict[str, RunFigures]) -> str:
    """One run's figures, a line per server."""
    lines = []
    for name, run in measured.items():
        load = "?" if run.load is None else f"{run.load:.1f}"
        split = "?" if run.cpu_per_move is None else _split(run.cpu_per_move)
        paced = (
            f"paced {_number(run.paced_per_second)} moves/s p99 {_number(run.paced_p99_ms, 1)} ms"
        )
        lines.append(
            f"run {number}, load {load}, {name}: echo {run.echo_per_second:,.0f}/s, relay "
            f"{run.moves_per_second:,.0f} moves/s = {run.ratio:.3f} of the echo; {paced}; "
            f"CPU a move {split}"
        )
        if run.failures:
            shown = ", ".join(f"{reason} {count}" for reason, count in sorted(run.failures.items()))
            lines.append(f"  errors and room failures: {shown}")
    return "\n".join(lines)


def render_summary(figures: dict[str, list[RunFigures]]) -> str:
    """Each figure's lowest / median / highest over the runs, a row per server.

    >>> run = RunFigures(2.0, 1000.0, 300.0, {"total": 400.0}, 900.0, 20.5)
    >>> print(render_summary({"this checkout": [run]}).splitlines()[-1])
    | this checkout | 0.300 | 300 | 1,000 | 900 | 20.5 | 400 | 400 µs | 2.0 |
    """
    lines = [
        "| server | relay / echo | relay moves/s | echo/s | paced moves/s | paced p99 ms "
        "| CPU a move, µs | its split, median run | load average |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, runs in figures.items():
        middle = sorted(runs, key=lambda run: run.ratio)[len(runs) // 2]
        split = "?" if middle.cpu_per_move is None else _split(middle.cpu_per_move)
        lines.append(
            f"| {name} | {_spread([run.ratio for run in runs], 3)} "
            f"| {_spread([run.moves_per_second for run in runs])} "
            f"| {_spread([run.echo_per_second for run in runs])} "
            f"| {_spread([run.paced_per_second for run in runs])} "
            f"| {_spread([run.paced_p99_ms for run in runs], 1)} "
            f"| {_spread([(run.cpu_per_move or {}).get('total') for run in runs])} "
            f"| {split} | {_spread([run.load for run in runs], 1)} |"
        )
    return "\n".join(lines)


def _one_minute_load() -> float | None:
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows has no load average
        return None


def _split(per_move: dict[str, float]) -> str:
    if all(stage in per_move for stage in STAGES):
        return stage_split_text(per_move)
    return f"{per_move['total']:.0f} µs"


def _spread(values: Sequence[float | None], digits: int = 0) -> str:
    """``lowest / median / highest`` (one value: itself); ``?`` for a missing one."""
    known = [value for value in values if value is not None]
    if not known:
        return "?"
    if len(known) == 1:
        return _number(known[0], digits)
    picked = (min(known), statistics.median(known), max(known))
    return " / ".join(_number(value, digits) for value in picked)


def _number(value: float | None, digits: int = 0) -> str:
    return "?" if value is None else f"{value:,.{digits}f}"
