"""A whole load test: the servers it starts, its phases, and what they measured.

:func:`run_load` makes the run :class:`~boardroom.client.loadtest.options.LoadOptions`
describe: one phase (rooms, idle or echo), or two with ``--compare-echo`` (the
echo baseline, then the real server, with the same clients). Each phase:

1. reads the server's ``/metrics`` (memory before any connection);
2. starts the workers and waits until they are ready;
3. gives them one timeline: a ramp-up at ``--connect-rate`` connections a
   second, a short settle, then the measured window of ``--duration`` seconds;
4. reads ``/metrics`` as the window opens and just before it closes (memory,
   CPU time and loop-lag buckets at both ends), and every few seconds between,
   while the live display shows the workers' snapshots;
5. waits for every worker's final count (games in flight at the deadline are
   finished or found stuck, then connections are closed) and reads ``/healthz``.

A Ctrl-C ends the measured window at once and the phase finishes as at the
deadline (the report says it was interrupted); a second one, or SIGTERM,
abandons the run (:class:`RunAbandonedError`) once the servers we started are
stopped and the workers ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidURI

from boardroom.client.loadtest.errors import CannotRunError, ProbeError, RunAbandonedError
from boardroom.client.loadtest.frames import move_frame
from boardroom.client.loadtest.metrics_probe import (
    Probe,
    ProcessProbe,
    ServerProbe,
    ServerReading,
    ServersProbe,
)
from boardroom.client.loadtest.options import LoadOptions, Mode
from boardroom.client.loadtest.pool import WorkerPool
from boardroom.client.loadtest.progress import Progress
from boardroom.client.loadtest.rooms import STALL_SECONDS
from boardroom.client.loadtest.stats import WorkerStats
from boardroom.client.loadtest.worker import Timing, WorkerPlan
from boardroom.client.local_server import LocalServerError, local_process

START_DELAY = 0.2
"""Seconds between giving the workers their timeline and its start."""
RAMP_SETTLE = 0.5
"""Seconds after the last connection's slot before the window opens: its
handshake, hello and room set-up finish meanwhile."""
PROBE_INTERVAL = 2.0
"""Seconds between readings of ``/metrics`` for the live display and peak memory."""
END_PROBE_LEAD = 0.5
"""The window's last reading is taken this long before the deadline, while every
connection is still held (at the deadline, the workers start closing)."""
FINISH_ALLOWANCE = STALL_SECONDS + 30.0
"""Seconds after the deadline for the workers to report: in-flight waits end
within STALL_SECONDS, and closing thousands of connections takes a few more."""
UNPACED_SERVER_RATE = "100000"
"""The rate limit given to a server we start for an unpaced run: out of the way."""
ECHO_READY = re.compile(rb"Echo server on port (\d+)")


@dataclass
class PhaseResult:
    """What one phase measured."""

    kind: str
    """``server`` (the game server, rooms or idle) or ``echo``."""
    mode: Mode
    url: str
    """The (first) server's WebSocket address."""
    started: bool
    """Whether the tool started this server."""
    event_loop: str | None
    """The server's event loop, as ``/healthz`` (or our own flags) said."""
    planned_connections: int
    ramp_seconds: float
    duration: float
    stats: WorkerStats
    per_worker: list[WorkerStats]
    client_loops: list[str]
    before: ServerReading | None = None
    window_start: ServerReading | None = None
    window_end: ServerReading | None = None
    rss_peak: float | None = None
    health: dict[str, Any] | None = None
    server_flags: tuple[str, ...] = ()
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    urls: tuple[str, ...] = ()
    """Every server of the phase (several: a cluster's processes, figures summed)."""


@dataclass
class LoadReport:
    """The phases of one run, in the order they ran (echo baseline first)."""

    options: LoadOptions
    seed: int
    phases: list[PhaseResult]

    @property
    def interrupted(self) -> bool:
        return any(phase.interrupted for phase in self.phases)


async def run_load(options: LoadOptions, progress: Progress) -> LoadReport:
    """Make the run. Raises :class:`CannotRunError` if it cannot be made, and
    :class:`RunAbandonedError` if a signal abandoned it (after cleaning up)."""
    seed = options.seed if options.seed is not None else random.randrange(2**32)
    report = LoadReport(options, seed, [])
    interrupts = _Interrupts()
    with interrupts.installed():
        try:
            await _run_phases(options, report, progress, interrupts)
        except asyncio.CancelledError:
            if interrupts.abandoned_by is None:
                raise
            raise RunAbandonedError(interrupts.abandoned_by) from None
    return report


async def _run_phases(
    options: LoadOptions, report: LoadReport, progress: Progress, interrupts: _Interrupts
) -> None:
    """The echo baseline (with --compare-echo), then the main phase, into ``report``;
    an interrupted echo phase ends the run there."""
    seed = report.seed
    if options.compare_echo:
        async with _echo_server(options) as (url, pid):
            report.phases.append(
                await _run_phase(options, "echo", (url,), pid, seed, progress, interrupts)
            )
        if interrupts.count:
            return
    mode: Mode = "rooms" if options.compare_echo else options.mode
    async with _target(options) as (urls, pid, flags):
        phase = await _run_phase(options, mode, urls, pid, seed, progress, interrupts)
        phase.server_flags = flags
        report.phases.append(phase)


@contextlib.asynccontextmanager
async def _echo_server(options: LoadOptions) -> AsyncIterator[tuple[str, int | None]]:
    """The echo server of ``--compare-echo``: its URL, and its process id if we
    started it (None: given)."""
    if options.echo_url is not None:
        yield options.echo_url, None
        return
    async with _started_echo_server(options) as started:
        yield started


@contextlib.asynccontextmanager
async def _target(
    options: LoadOptions,
) -> AsyncIterator[tuple[tuple[str, ...], int | None, tuple[str, ...]]]:
    """The servers of the main phase: their URLs, the process id if we started
    it, and the flags we started it with."""
    if not options.start_server:
        assert options.server_urls
        yield options.server_urls, None, ()
        return
    if options.mode == "echo":
        async with _started_echo_server(options) as (url, pid):
            yield (url,), pid, ()
        return
    flags = _server_flags(options)
    try:
        async with local_process(
            "boardroom.server",
            flags,
            database=True,
            own_session=True,
            label="the load test's server",
        ) as started:
            yield (f"ws://127.0.0.1:{started.port}/ws",), started.pid, flags
    except LocalServerError as error:
        raise CannotRunError(str(error)) from None


def _server_flags(options: LoadOptions) -> tuple[str, ...]:
    """Flags for a game server of our own: room for every connection and every
    room from our one address, and the rate limit out of the way of an unpaced run."""
    flags = ["--max-connections-per-address", str(max(64, 2 * options.connections))]
    flags += ["--max-rooms-per-address", "0"]  # each room's opener is its own session
    flags += ["--new-players-per-address", "0"]  # every simulated client is a new player
    if options.rate is None or options.rate > 20 or options.burst > 40:
        flags += ["--rate", UNPACED_SERVER_RATE, "--burst", UNPACED_SERVER_RATE]
    if options.server_loop is not None:
        flags += ["--event-loop", options.server_loop]
    return tuple(flags)


@contextlib.asynccontextmanager
async def _started_echo_server(options: LoadOptions) -> AsyncIterator[tuple[str, int]]:
    flags = () if options.server_loop is None else ("--event-loop", options.server_loop)
    try:
        async with local_process(
            "boardroom.server.echo_server",
            flags,
            ready=ECHO_READY,
            own_session=True,
            label="the echo server",
        ) as started:
            yield f"ws://127.0.0.1:{started.port}/ws", started.pid
    except LocalServerError as error:
        raise CannotRunError(str(error)) from None


async def _run_phase(
    options: LoadOptions,
    mode: Mode,
    urls: tuple[str, ...],
    pid: int | None,
    seed: int,
    progress: Progress,
    interrupts: _Interrupts,
) -> PhaseResult:
    """One phase against the servers at ``urls`` (``pid``: the process, if we
    started it)."""
    kind = "echo" if mode == "echo" else "server"
    started = pid is not None
    server_probe = None if kind == "echo" else ServersProbe([ServerProbe(url) for url in urls])
    # An echo server has no /metrics: its process is read from /proc if it is ours.
    probe: Probe | None = server_probe or (None if pid is None else ProcessProbe(pid))
    health = await _check_reachable(urls, server_probe)
    before = await _read(probe)
    plans = _plans(options, mode, urls, seed)
    connections = _connections(options, mode)
    ramp = connections / options.connect_rate
    pool = WorkerPool(plans)
    try:
        await pool.start()
        start = time.monotonic() + START_DELAY
        window_start = start + ramp + RAMP_SETTLE
        deadline = window_start + options.duration
        pool.begin(Timing(start, window_start, deadline))
        readings = _Readings(probe, before)
        progress.begin(kind, mode, connections, window_start, deadline)

        def end_window_now() -> None:
            pool.stop_now()
            readings.cut()

        interrupts.end_window = end_window_now
        end_lead = min(END_PROBE_LEAD, options.duration / 4)
        # Not a TaskGroup: a CannotRunError must come out as itself, not in a group.
        reading_tasks = [
            asyncio.create_task(readings.take_at(window_start, "window_start")),
            asyncio.create_task(readings.take_at(deadline - end_lead, "window_end")),
            asyncio.create_task(readings.every(PROBE_INTERVAL, deadline)),
        ]
        try:
            while not pool.finished:
                await asyncio.sleep(0.25)
                pool.collect()
                progress.update(
                    pool.merged(), pool.recent_rate(), readings.latest, readings.window_start
                )
                if time.monotonic() > deadline + FINISH_ALLOWANCE:
                    raise CannotRunError(
                        f"the load workers did not finish within {FINISH_ALLOWANCE:g} s "
                        "of the end of the run"
                    )
        finally:
            readings.stop()
            await asyncio.gather(*reading_tasks, return_exceptions=True)
            interrupts.end_window = None
            progress.end()
    finally:
        await pool.close()
    health_end = await _health(server_probe)
    event_loop = (health_end or health or {}).get("event_loop")
    if event_loop is None and started:
        event_loop = options.server_loop or "asyncio"
    return PhaseResult(
        kind=kind,
        mode=mode,
        url=urls[0],
        urls=urls,
        started=started,
        event_loop=event_loop,
        planned_connections=connections,
        ramp_seconds=ramp,
        duration=options.duration,
        stats=pool.merged(),
        per_worker=[pool.latest[i] for i in sorted(pool.latest)],
        client_loops=sorted(pool.event_loops),
        before=before,
        window_start=readings.window_start,
        window_end=readings.window_end,
        rss_peak=readings.rss_peak,
        health=health_end,
        interrupted=interrupts.count > 0,
    )


async def _check_reachable(
    urls: tuple[str, ...], probe: ServersProbe | None
) -> dict[str, Any] | None:
    """Make sure every server answers before starting workers; their ``/healthz``
    (None for an echo server, which is checked with one WebSocket connection)."""
    if probe is not None:
        try:
            return await asyncio.to_thread(probe.health)
        except ProbeError as error:
            where = urls[0] if len(urls) == 1 else "one of the --server addresses"
            raise CannotRunError(
                f"no Boardroom server answers at {where} ({error}): start one "
                "(boardroom serve), give its address with --server, or use --start-server"
            ) from None
    (url,) = urls
    try:
        async with connect(url, compression=None, open_timeout=10):
            return None
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
        raise CannotRunError(f"no echo server answers at {url}: {error}") from None


async def _read(probe: Probe | None) -> ServerReading | None:
    if probe is None:
        return None
    try:
        return await asyncio.to_thread(probe.read)
    except ProbeError:
        return None  # a server too busy to answer: that reading is missing, not fatal


async def _health(probe: ServersProbe | None) -> dict[str, Any] | None:
    if probe is None:
        return None
    try:
        return await asyncio.to_thread(probe.health)
    except ProbeError:
        return None


class _Readings:
    """The phase's readings of ``/metrics``: the named ones and the latest."""

    def __init__(self, probe: Probe | None, before: ServerReading | None) -> None:
        self.probe = probe
        self.latest = before
        self.window_start: ServerReading | None = None
        self.window_end: ServerReading | None = None
        self.rss_peak = before.rss_bytes if before is not None else None
        self._woken = asyncio.Event()
        """Set by a cut or a stop: the readings due wait no more."""
        self._stopped = asyncio.Event()

    def cut(self) -> None:
        """The window ends now (a Ctrl-C): take the readings still due at once."""
        self._woken.set()

    def stop(self) -> None:
        """Take no more readings."""
        self._stopped.set()
        self._woken.set()

    async def take_at(self, when: float, name: str) -> None:
        """Take a reading at ``when`` (or at once if the window is cut before) and
        keep it as ``name``; nothing if stopped first."""
        if self.probe is None:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, when - time.monotonic())):
                await self._woken.wait()
        if self._stopped.is_set():
            return
        reading = await self._take()
        if reading is not None:
            setattr(self, name, reading)

    async def every(self, interval: float, until: float) -> None:
        """Take a reading every ``interval`` seconds until ``until`` (or a stop)."""
        while self.probe is not None and time.monotonic() < until:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(interval):
                    await self._stopped.wait()
            if self._stopped.is_set():
                return
            await self._take()

    async def _take(self) -> ServerReading | None:
        reading = await _read(self.probe)
        if reading is not None:
            self.latest = reading
            if reading.rss_bytes is not None:
                self.rss_peak = max(self.rss_peak or 0.0, reading.rss_bytes)
        return reading


def _connections(options: LoadOptions, mode: Mode) -> int:
    if mode == "idle":
        return options.idle
    if mode == "echo":
        return 2 * options.rooms
    return options.connections


def _plans(options: LoadOptions, mode: Mode, urls: tuple[str, ...], seed: int) -> list[WorkerPlan]:
    """Share the rooms (or idle connections) among the workers, round robin; the
    AI rooms spread evenly through the rooms."""
    workers = options.worker_count
    ai = options.ai_rooms if mode == "rooms" else 0
    rooms = options.rooms
    ai_rooms = frozenset(n for n in range(rooms) if (n + 1) * ai // rooms > n * ai // rooms)
    idle_each, idle_left = divmod(options.idle, workers)
    frame = move_frame(options.game)
    return [
        WorkerPlan(
            index=index,
            mode=mode,
            urls=urls,
            game=options.game,
            rooms=tuple(range(index, rooms, workers)) if mode != "idle" else (),
            ai_rooms=ai_rooms,
            idle=idle_each + (1 if index < idle_left else 0) if mode == "idle" else 0,
            spectators=options.spectators if mode == "rooms" else 0,
            ai_level=options.ai_level,
            think=options.think if mode == "rooms" else 0.0,
            rate=options.rate,
            burst=options.burst,
            connect_rate=options.connect_rate / workers,
            seed=f"{seed}/{index}",
            echo_frame=frame,
        )
        for index in range(workers)
    ]


class _Interrupts:
    """Signals during a run: the first Ctrl-C in a phase ends its window now; a
    second one, or one between phases, or SIGTERM (a supervisor wants us gone)
    cancels the run, whose cleanup stops our servers and workers."""

    def __init__(self) -> None:
        self.count = 0
        self.end_window: Callable[[], None] | None = None
        """What ends the running phase's window now (None between phases)."""
        self.abandoned_by: int | None = None
        self._task: asyncio.Task[Any] | None = None

    @contextlib.contextmanager
    def installed(self) -> Iterator[None]:
        loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        installed = []
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(signum, self._signalled, signum)
            except (NotImplementedError, RuntimeError):  # no signal handlers on this loop
                continue
            installed.append(signum)
        try:
            yield
        finally:
            for signum in installed:
                loop.remove_signal_handler(signum)

    def _signalled(self, signum: int) -> None:
        if signum == signal.SIGINT:
            self.count += 1
            if self.count == 1 and self.end_window is not None:
                self.end_window()
                return
        if self.abandoned_by is None and self._task is not None:
            self.abandoned_by = signum
            self._task.cancel()
