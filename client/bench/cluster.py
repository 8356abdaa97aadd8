"""``boardroom bench cluster``: the same load against one process and against clusters.

One run, so that the figures compare: it starts a private Redis and PostgreSQL
(:mod:`boardroom.client.bench.services`), then for each setup in turn starts the server
processes, drives them with ``boardroom loadtest``'s rooms
(:func:`boardroom.client.loadtest.runner.run_load`, the clients spread over the processes
as a shared port would: :func:`boardroom.client.loadtest.rooms.server_for`) and stops
them. The setups, the first being the baseline of every ratio::

    1 process, SQLite        the embedded default
    1 process, PostgreSQL    the cluster's store, without the cluster
    N processes, cluster     --cluster on the Redis, one PostgreSQL database

Besides moves a second, latency and CPU (the servers' own ``/metrics``, summed
over the processes; Redis's ``INFO``; PostgreSQL's processes from ``/proc``), it
counts what one move costs the shared parts: Redis commands, publishes and bytes
(``INFO``, reset before each setup's load) and PostgreSQL commits and WAL fsyncs
(``pg_stat_database``, ``pg_stat_wal``), over the whole load of the setup (its
rooms' set-up included) divided by its moves. docs/benchmarks.md, "A cluster
under load", reads them.

Everything shares this machine's cores: the load workers, every server process,
Redis and PostgreSQL. The conditions printed first say how many there are.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import secrets
import statistics
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardroom.client.bench.services import (
    INSTALL_HINT,
    PostgresServer,
    RedisServer,
    ServiceError,
    descendants,
    missing_programs,
    start_postgres,
    start_redis,
)
from boardroom.client.conditions import condition_lines
from boardroom.client.loadtest.errors import CannotRunError, ProbeError
from boardroom.client.loadtest.metrics_probe import ServerProbe, ServerReading
from boardroom.client.loadtest.options import LOAD_GAME, LoadOptions
from boardroom.client.loadtest.progress import Progress
from boardroom.client.loadtest.report import machine_conditions, report_json
from boardroom.client.loadtest.runner import UNPACED_SERVER_RATE, run_load
from boardroom.client.local_server import LocalServerError, local_process


@dataclass(frozen=True)
class Setup:
    """Server processes to measure: how many, and on which store."""

    processes: int
    postgres: bool

    @property
    def name(self) -> str:
        if self.processes == 1:
            return f"1 process, {'PostgreSQL' if self.postgres else 'SQLite'}"
        return f"{self.processes} processes, cluster"

    @property
    def cluster(self) -> bool:
        return self.processes > 1


@dataclass(frozen=True)
class ProcessCpu:
    """One server process over a setup's whole load, as its ``/metrics`` said."""

    cpu_seconds: float
    """Its CPU time (the process's own: not its engine worker's)."""
    moves: float
    """The moves played in its rooms (a relayed move counts where its room is)."""
    core: int | None = None
    """The core it was pinned to (None: not pinned)."""
    wakes: int | None = None
    """The times its loop's thread slept and was woken (the main thread's voluntary
    context switches, from ``/proc``; None where not read): paced, what a move
    costs is mostly the waking for it (docs/benchmarks.md, "Paced, a fourth pass")."""


@dataclass
class Measured:
    """One setup's load report, and what the shared parts counted meanwhile."""

    setup: Setup
    data: dict[str, Any]
    redis: dict[str, int]
    postgres: dict[str, int]
    redis_cpu: float | None = None
    postgres_cpu: float | None = None
    processes: list[ProcessCpu] = field(default_factory=list)
    """Each server process's CPU and moves (empty: its ``/metrics`` could not be read)."""

    def window_cpu_per_move_us(self) -> float | None:
        """All the server processes' CPU time a move in the load's measured window
        (the rooms' set-up and ramp-up left out), in µs; else over the whole load
        (:meth:`cpu_per_move_us`)."""
        server = self.data["result"].get("server") or {}
        per_move = server.get("cpu_per_move_us") or {}
        total = per_move.get("total")
        return float(total) if total else self.cpu_per_move_us()

    def cpu_per_move_us(self) -> float | None:
        """All the server processes' CPU time over all their moves, in µs."""
        moves = sum(process.moves for process in self.processes)
        if not moves:
            return None
        return sum(process.cpu_seconds for process in self.processes) / moves * 1e6


def setups(sizes: Sequence[int], *, sqlite: bool = True) -> list[Setup]:
    """The baseline (one process on SQLite; with ``sqlite`` False, one on
    PostgreSQL), one process on PostgreSQL, then a cluster of each size."""
    clusters = [Setup(size, True) for size in sizes if size > 1]
    return [*([Setup(1, False)] if sqlite else []), Setup(1, True), *clusters]


def usable_core_list() -> list[int]:
    """The cores this process may run on, in order."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return list(range(os.cpu_count() or 1))


def pin(pid: int, core: int) -> None:
    """Run every thread of the process ``pid`` and of every process under it on
    ``core`` alone (``taskset -a -c CORE -p PID``, for the whole family: a
    thread or process started later inherits it from the one that starts it)."""
    for member in [pid, *descendants(pid)]:
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{member}/task").iterdir():
                with contextlib.suppress(OSError):  # a thread that ended meanwhile
                    os.sched_setaffinity(int(task.name), {core})


def main(
    *,
    sizes: Sequence[int],
    rooms: int,
    duration: float,
    think: float,
    workers: int,
    postgres: PostgresServer | None = None,
    taskset: bool = False,
    sqlite: bool = True,
    runs: int = 1,
) -> int:
    """Measure every setup ``runs`` times and print each run's tables, then how
    the clusters compare with one process on PostgreSQL (over the runs: lowest /
    median / highest); 1 if a service could not run.

    ``postgres``: a PostgreSQL already running to measure on (each PostgreSQL
    setup gets a new database of it); None, what the command does: one of the
    benchmark's own, started and stopped, with nothing else on it. ``taskset``:
    each server process pinned to a core of its own (:func:`pin`). ``sqlite``
    False: no setup on SQLite (the first row, every ratio's baseline, is then
    one process on PostgreSQL)."""
    missing = missing_programs()
    if missing:
        print(f"bench cluster: {', '.join(missing)} missing: {INSTALL_HINT}", file=sys.stderr)
        return 1
    pacing = "flat out (no pacing)" if think == 0 else f"think {think:g} s, unpaced"
    cores = usable_core_list()
    pinned = (
        f"each on a core of its own (process i on core i of {cores}), the rest floating"
        if taskset
        else "not pinned: every process floats over every core"
    )
    print("Boardroom cluster benchmark: the same load on one process and on clusters")
    for line in condition_lines(
        [
            ("load", f"{rooms} rooms of {LOAD_GAME}, {pacing}, {duration:g} s each"),
            ("load workers", f"{workers} processes, on this machine"),
            ("servers", "each with one engine worker (--pool-size 1); uvloop where installed"),
            ("server cores", pinned),
            ("runs", str(runs)),
        ]
    ):
        print(line)
    print(
        "Everything shares these cores: load workers, server processes, Redis, PostgreSQL.",
        flush=True,
    )
    plan = setups(sizes, sqlite=sqlite)
    try:
        every_run = asyncio.run(
            _run(plan, rooms, duration, think, workers, postgres, cores if taskset else None, runs)
        )
    except (ServiceError, CannotRunError, LocalServerError) as error:
        print(f"bench cluster: {error}", file=sys.stderr)
        return 1
    for number, results in enumerate(every_run, 1):
        print()
        if runs > 1:
            load = results[0].data["conditions"]["load_average_at_start"]
            print(f"Run {number} of {runs} (load average {load} at its first setup):")
        print(render(results))
    summary = render_comparison(every_run)
    if summary:
        print()
        print(summary)
    return 0


async def _run(
    plan: list[Setup],
    rooms: int,
    duration: float,
    think: float,
    workers: int,
    running: PostgresServer | None,
    cores: list[int] | None,
    runs: int,
) -> list[list[Measured]]:
    every_run = []
    own_postgres = start_postgres() if running is None else contextlib.nullcontext(running)
    with start_redis() as redis, own_postgres as postgres:
        for number in range(runs):
            results = []
            for setup in plan:
                where = f" (run {number + 1} of {runs})" if runs > 1 else ""
                print(f"\n{setup.name}{where} ...", flush=True)
                results.append(
                    await _measure(setup, redis, postgres, rooms, duration, think, workers, cores)
                )
            every_run.append(results)
    return every_run


async def _measure(
    setup: Setup,
    redis: RedisServer,
    postgres: PostgresServer,
    rooms: int,
    duration: float,
    think: float,
    workers: int,
    cores: list[int] | None,
) -> Measured:
    database = postgres.new_database() if setup.postgres else None
    flags = [
        "--pool-size", "1", "--engine", "python",
        "--max-connections-per-address", str(max(64, 4 * rooms)),
        "--max-rooms-per-address", "0",
        "--new-players-per-address", "0",  # every simulated client is a new player
        "--rate", UNPACED_SERVER_RATE, "--burst", UNPACED_SERVER_RATE,
    ]  # fmt: skip
    if database is not None:
        flags += ["--database", postgres.url(database)]
    if setup.cluster:
        flags += ["--cluster", redis.url, "--cluster-name", f"bench-{secrets.token_hex(3)}"]
    before_pg = postgres.counters(database) if database else {}
    async with _servers(setup, flags, cores) as (urls, pids):
        options = _load(urls, rooms, duration, think, workers)
        redis.reset_counters()
        redis_cpu, pg_cpu = _redis_cpu(redis), postgres.cpu_seconds()
        first, first_wakes = await _read_each(urls), [voluntary_switches(pid) for pid in pids]
        report = await run_load(options, Progress(sys.stderr))
        last, last_wakes = await _read_each(urls), [voluntary_switches(pid) for pid in pids]
        redis_cpu, pg_cpu = _redis_cpu(redis) - redis_cpu, postgres.cpu_seconds() - pg_cpu
        counted = redis.counters() if setup.cluster else {}
    # Read once the servers are gone: a backend's counts reach the statistics when it ends.
    after_pg = postgres.counters(database) if database else {}
    data = report_json(report, machine_conditions())
    window = data["result"]["window_seconds"] or 1.0
    return Measured(
        setup,
        data,
        counted,
        {key: after_pg[key] - before_pg[key] for key in after_pg},
        redis_cpu=redis_cpu / window if setup.cluster else None,
        postgres_cpu=pg_cpu / window if setup.postgres else None,
        processes=_processes(first, last, cores, list(zip(first_wakes, last_wakes, strict=True))),
    )


def voluntary_switches(pid: int) -> int | None:
    """How many times the main thread of ``pid`` gave up its core to wait (slept
    in ``epoll`` and was woken, for an event loop); None where ``/proc`` says not."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            return int(line.split()[1])
    return None


async def _read_each(urls: tuple[str, ...]) -> list[ServerReading] | None:
    """Each server process's ``/metrics`` now; None if one could not be read."""
    try:
        return [await asyncio.to_thread(ServerProbe(url).read) for url in urls]
    except ProbeError as error:
        print(f"bench cluster: {error}", file=sys.stderr)
        return None


def _processes(
    first: list[ServerReading] | None,
    last: list[ServerReading] | None,
    cores: list[int] | None,
    wakes: list[tuple[int | None, int | None]],
) -> list[ProcessCpu]:
    """Each process's CPU time, moves and wakes between two readings of them all."""
    if first is None or last is None:
        return []
    processes = []
    for number, (before, after) in enumerate(zip(first, last, strict=True)):
        if None in (before.cpu_seconds, after.cpu_seconds, before.moves, after.moves):
            return []
        processes.append(
            ProcessCpu(
                cpu_seconds=(after.cpu_seconds or 0.0) - (before.cpu_seconds or 0.0),
                moves=(after.moves or 0.0) - (before.moves or 0.0),
                core=None if cores is None else cores[number % len(cores)],
                wakes=_between(*wakes[number]) if number < len(wakes) else None,
            )
        )
    return processes


def _redis_cpu(redis: RedisServer) -> float:
    counters = redis.counters()
    return (counters["used_cpu_user_ms"] + counters["used_cpu_sys_ms"]) / 1000


def _between(before: int | None, after: int | None) -> int | None:
    return None if before is None or after is None else after - before


@contextlib.asynccontextmanager
async def _servers(
    setup: Setup, flags: list[str], cores: list[int] | None
) -> AsyncIterator[tuple[tuple[str, ...], list[int]]]:
    """The setup's server processes, started one after the other (each restores
    and claims what it finds; none is racing another's start); with ``cores``,
    process *i* pinned to ``cores[i]`` (round again past their number). Their
    URLs, and their process ids."""
    async with contextlib.AsyncExitStack() as stack:
        urls, pids = [], []
        for number in range(setup.processes):
            started = await stack.enter_async_context(
                local_process(
                    "boardroom.server",
                    flags,
                    database=not setup.postgres,
                    own_session=True,
                    label=f"server process {number + 1} of {setup.name}",
                )
            )
            if cores is not None:
                pin(started.pid, cores[number % len(cores)])
            urls.append(f"ws://127.0.0.1:{started.port}/ws")
            pids.append(started.pid)
        yield tuple(urls), pids


def _load(
    urls: tuple[str, ...], rooms: int, duration: float, think: float, workers: int
) -> LoadOptions:
    return LoadOptions.plain(
        "rooms", urls, game=LOAD_GAME, rooms=rooms, think=think, duration=duration, workers=workers
    )


def render(results: list[Measured]) -> str:
    """Two tables: the load's figures with ratios to the first setup, then what a
    move cost Redis and PostgreSQL."""
    baseline = _moves_per_second(results[0])
    lines = [
        f"| setup | moves/s | vs {results[0].setup.name} | move p50 / p99 ms "
        "| servers' CPU (cores) "
        "| Redis CPU | PostgreSQL CPU | errors, lost games |",
        "|---|---:|---:|---|---:|---:|---:|---|",
    ]
    for measured in results:
        result = measured.data["result"]
        latency = result["move_latency_ms"] or {}
        rate = _moves_per_second(measured)
        share = (result.get("server") or {}).get("cpu_share")
        errors = sum(result["errors"].values()) + sum(result["room_failures"].values())
        lines.append(
            f"| {measured.setup.name} | {rate:,.0f} | {rate / baseline:.2f} "
            f"| {_ms(latency.get('p50'))} / {_ms(latency.get('p99'))} "
            f"| {_share(share)} | {_share(measured.redis_cpu)} | {_share(measured.postgres_cpu)} "
            f"| {errors}, {result['games']['lost']} |"
        )
    lines += [
        "",
        "Per move (the setup's whole load, its rooms' set-up included, over its moves):",
        "| setup | moves | Redis commands | publishes | Lua scripts | Redis bytes in / out "
        "| PostgreSQL commits | rows inserted | WAL fsyncs "
        "| CPU µs: servers / Redis / PostgreSQL |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---|",
    ]
    for measured in results:
        moves = measured.data["result"]["moves"]["total"] or 1
        redis, pg = measured.redis, measured.postgres
        scripts = redis.get("calls:evalsha", 0) + redis.get("calls:eval", 0)

        per = functools.partial(_per, moves=moves)

        bytes_io = (
            f"{per(redis['total_net_input_bytes'])} / {per(redis['total_net_output_bytes'])}"
            if redis
            else ""
        )
        lines.append(
            f"| {measured.setup.name} | {moves:,} "
            f"| {per(redis.get('total_commands_processed'))} "
            f"| {per(redis.get('calls:publish'))} | {per(scripts) if redis else ''} | {bytes_io} "
            f"| {per(pg.get('xact_commit'))} | {per(pg.get('tup_inserted'))} "
            f"| {per(pg.get('wal_sync'))} | {_cpu_per_move(measured)} |"
        )
    lines += ["", *_process_table(results)]
    for measured in results:
        if measured.redis:
            moves = measured.data["result"]["moves"]["total"] or 1
            calls = sorted(
                (
                    (count, name.removeprefix("calls:"))
                    for name, count in measured.redis.items()
                    if name.startswith("calls:")
                ),
                reverse=True,
            )
            shown = ", ".join(f"{name} {count / moves:.2f}" for count, name in calls[:8])
            lines.append(f"Redis calls per move, {measured.setup.name}: {shown}")
    for measured in results:
        result = measured.data["result"]
        failed = {**result["errors"], **result["room_failures"]}
        if failed:  # a run is read with its failures, never without them
            shown = ", ".join(f"{reason} {count}" for reason, count in sorted(failed.items()))
            lines.append(f"Errors and room failures, {measured.setup.name}: {shown}")
    return "\n".join(lines)


def _process_table(results: list[Measured]) -> list[str]:
    """Each setup's CPU a move, all its server processes' together and each one's."""
    single = _single_postgres(results)
    lines = [
        "CPU a move by server process (their /metrics over the setup's whole load: "
        "CPU time over the moves their rooms played):",
        "| setup | moves | servers' CPU µs a move | vs 1 process, PostgreSQL "
        "| each process: CPU µs over all the moves (its own moves) "
        "| servers' CPU µs a move in the measured window | servers' wakes a move |",
        "|---|---:|---:|---:|---|---:|---:|",
    ]
    for measured in results:
        total = measured.cpu_per_move_us()
        moves = sum(process.moves for process in measured.processes)
        if total is None:
            lines.append(f"| {measured.setup.name} | - | - | - | - | - | - |")
            continue
        each = ", ".join(
            f"{process.cpu_seconds / moves * 1e6:.0f} ({process.moves / moves:.0%})"
            + ("" if process.core is None else f" on core {process.core}")
            for process in measured.processes
        )
        versus = "" if single is None else f"{total / single:.2f}x"
        window = measured.window_cpu_per_move_us()
        wakes = [process.wakes for process in measured.processes]
        woken = "-" if None in wakes else f"{sum(w or 0 for w in wakes) / moves:.2f}"
        lines.append(
            f"| {measured.setup.name} | {moves:,.0f} | {total:.0f} | {versus} | {each} "
            f"| {'-' if window is None else f'{window:.0f}'} | {woken} |"
        )
    return lines


def _single_postgres(results: list[Measured]) -> float | None:
    """One process on PostgreSQL's CPU a move, in µs (None: not measured)."""
    for measured in results:
        if measured.setup == Setup(1, True):
            return measured.cpu_per_move_us()
    return None


def render_comparison(every_run: list[list[Measured]]) -> str:
    """Each cluster against one process on PostgreSQL, run by run and over the
    runs (lowest / median / highest): its moves a second as a share of the one
    process's, and its CPU a move (all its processes, in the measured window) as
    a multiple of it. Empty when no run measured both."""
    ratios: dict[str, list[tuple[float, float, float, float]]] = {}
    for results in every_run:
        single = next((m for m in results if m.setup == Setup(1, True)), None)
        if single is None:
            continue
        single_rate, single_cpu = _moves_per_second(single), single.window_cpu_per_move_us()
        for measured in results:
            cpu = measured.window_cpu_per_move_us()
            if not measured.setup.cluster or not single_rate or not cpu or not single_cpu:
                continue
            rate = _moves_per_second(measured)
            ratios.setdefault(measured.setup.name, []).append(
                (rate / single_rate, cpu / single_cpu, cpu, single_cpu)
            )
    if not ratios:
        return ""
    lines = [
        "Against 1 process, PostgreSQL (each run; then lowest / median / highest):",
        "| cluster | moves/s, share of 1 process | CPU a move, multiple of 1 process "
        "| CPU µs a move in the measured window: cluster / 1 process |",
        "|---|---|---|---|",
    ]
    for name, figures in ratios.items():
        for rate, cpu, cluster_us, single_us in figures:
            lines.append(
                f"| {name} | {rate:.2f} | {cpu:.2f}x | {cluster_us:.0f} / {single_us:.0f} |"
            )
        if len(figures) > 1:
            lines.append(
                f"| {name}, over {len(figures)} runs | {_spread([f[0] for f in figures], 2)} "
                f"| {_spread([f[1] for f in figures], 2)} "
                f"| cluster {_spread([f[2] for f in figures], 0)}; "
                f"1 process {_spread([f[3] for f in figures], 0)} |"
            )
    return "\n".join(lines)


def _spread(values: Sequence[float], digits: int) -> str:
    """``lowest / median / highest``."""
    picked = (min(values), statistics.median(values), max(values))
    return " / ".join(f"{value:.{digits}f}" for value in picked)


def _per(count: int | None, moves: int) -> str:
    return "" if count is None else f"{count / moves:.2f}"


def _cpu_per_move(measured: Measured) -> str:
    """CPU time per move in the window, in µs: the servers', Redis's, PostgreSQL's."""
    rate = _moves_per_second(measured)
    share = (measured.data["result"].get("server") or {}).get("cpu_share")
    shares = (share, measured.redis_cpu, measured.postgres_cpu)
    return " / ".join("-" if s is None or not rate else f"{s / rate * 1e6:.0f}" for s in shares)


def _moves_per_second(measured: Measured) -> float:
    return float(measured.data["result"]["moves"]["per_second"] or 0.0)


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _share(value: float | None) -> str:
    return "" if value is None else f"{value:.2f}"
