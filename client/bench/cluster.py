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
import secrets
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from boardroom.client.bench.services import (
    INSTALL_HINT,
    PostgresServer,
    RedisServer,
    ServiceError,
    missing_programs,
    start_postgres,
    start_redis,
)
from boardroom.client.conditions import condition_lines
from boardroom.client.loadtest.errors import CannotRunError
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


@dataclass
class Measured:
    """One setup's load report, and what the shared parts counted meanwhile."""

    setup: Setup
    data: dict[str, Any]
    redis: dict[str, int]
    postgres: dict[str, int]
    redis_cpu: float | None = None
    postgres_cpu: float | None = None


def setups(sizes: Sequence[int]) -> list[Setup]:
    """The baseline, one process on PostgreSQL, then a cluster of each size."""
    return [Setup(1, False), Setup(1, True), *(Setup(size, True) for size in sizes if size > 1)]


def main(
    *,
    sizes: Sequence[int],
    rooms: int,
    duration: float,
    think: float,
    workers: int,
    postgres: PostgresServer | None = None,
) -> int:
    """Measure every setup and print both tables; 1 if a service could not run.

    ``postgres``: a PostgreSQL already running to measure on (each PostgreSQL
    setup gets a new database of it); None, what the command does: one of the
    benchmark's own, started and stopped, with nothing else on it."""
    missing = missing_programs()
    if missing:
        print(f"bench cluster: {', '.join(missing)} missing: {INSTALL_HINT}", file=sys.stderr)
        return 1
    pacing = "flat out (no pacing)" if think == 0 else f"think {think:g} s, unpaced"
    print("Boardroom cluster benchmark: the same load on one process and on clusters")
    for line in condition_lines(
        [
            ("load", f"{rooms} rooms of {LOAD_GAME}, {pacing}, {duration:g} s each"),
            ("load workers", f"{workers} processes, on this machine"),
            ("servers", "each with one engine worker (--pool-size 1); uvloop where installed"),
        ]
    ):
        print(line)
    print(
        "Everything shares these cores: load workers, server processes, Redis, PostgreSQL.",
        flush=True,
    )
    try:
        results = asyncio.run(_run(setups(sizes), rooms, duration, think, workers, postgres))
    except (ServiceError, CannotRunError, LocalServerError) as error:
        print(f"bench cluster: {error}", file=sys.stderr)
        return 1
    print()
    print(render(results))
    return 0


async def _run(
    plan: list[Setup],
    rooms: int,
    duration: float,
    think: float,
    workers: int,
    running: PostgresServer | None,
) -> list[Measured]:
    results = []
    own_postgres = start_postgres() if running is None else contextlib.nullcontext(running)
    with start_redis() as redis, own_postgres as postgres:
        for setup in plan:
            print(f"\n{setup.name} ...", flush=True)
            results.append(await _measure(setup, redis, postgres, rooms, duration, think, workers))
    return results


async def _measure(
    setup: Setup,
    redis: RedisServer,
    postgres: PostgresServer,
    rooms: int,
    duration: float,
    think: float,
    workers: int,
) -> Measured:
    database = postgres.new_database() if setup.postgres else None
    flags = [
        "--pool-size", "1", "--engine", "python",
        "--max-connections-per-address", str(max(64, 4 * rooms)),
        "--max-rooms-per-address", "0",
        "--rate", UNPACED_SERVER_RATE, "--burst", UNPACED_SERVER_RATE,
    ]  # fmt: skip
    if database is not None:
        flags += ["--database", postgres.url(database)]
    if setup.cluster:
        flags += ["--cluster", redis.url, "--cluster-name", f"bench-{secrets.token_hex(3)}"]
    before_pg = postgres.counters(database) if database else {}
    async with _servers(setup, flags) as urls:
        options = _load(urls, rooms, duration, think, workers)
        redis.reset_counters()
        redis_cpu, pg_cpu = _redis_cpu(redis), postgres.cpu_seconds()
        report = await run_load(options, Progress(sys.stderr))
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
    )


def _redis_cpu(redis: RedisServer) -> float:
    counters = redis.counters()
    return (counters["used_cpu_user_ms"] + counters["used_cpu_sys_ms"]) / 1000


@contextlib.asynccontextmanager
async def _servers(setup: Setup, flags: list[str]) -> AsyncIterator[tuple[str, ...]]:
    """The setup's server processes, started one after the other (each restores
    and claims what it finds; none is racing another's start)."""
    async with contextlib.AsyncExitStack() as stack:
        urls = []
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
            urls.append(f"ws://127.0.0.1:{started.port}/ws")
        yield tuple(urls)


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
        "| setup | moves/s | vs 1 process, SQLite | move p50 / p99 ms | servers' CPU (cores) "
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
