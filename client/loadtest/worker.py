"""One worker process: the asyncio clients of its share of the rooms (or idle
connections), and the stats it sends back.

One Python process cannot open and drive enough connections to load a server
(its event loop uses one core), so the main process starts several of these with
the ``spawn`` start method and talks to each through two queues::

    main -> worker   commands: Timing (once), then StopNow or None
    worker -> main   results:  Ready, then a Snapshot a second, then the final
                     Snapshot (or Failed, if the worker broke)

Everything that crosses is a small frozen dataclass (stats are copied before
they are queued: the queue pickles them later, in its own thread). A worker
ignores SIGINT: a Ctrl-C at the terminal reaches every process of the group,
and the main process decides, sending StopNow.
"""

from __future__ import annotations

import asyncio
import copy
import os
import queue
import random
import signal
import time
import traceback
from dataclasses import dataclass
from multiprocessing.queues import Queue
from typing import Any

from boardroom.client.loadtest.idle import IdleConnection
from boardroom.client.loadtest.options import Mode
from boardroom.client.loadtest.process_setup import client_loop, raise_open_file_limit
from boardroom.client.loadtest.rooms import AiRoom, EchoRoom, PairRoom, RoomBase, RoomSetting
from boardroom.client.loadtest.run_clock import RunClock
from boardroom.client.loadtest.stats import WorkerStats
from boardroom.shared.protocol.messages import Level

SNAPSHOT_INTERVAL = 1.0
"""Seconds between the stats a worker sends for the live display."""
HANDSHAKES_IN_FLIGHT = 100
"""Connections a worker opens at once at most: when the server falls behind the
ramp, handshakes queue here rather than pile up on the server."""
CLOSES_IN_FLIGHT = 200
"""Idle connections closed at once at the end."""


@dataclass(frozen=True)
class WorkerPlan:
    """What one worker does, fixed before it starts."""

    index: int
    mode: Mode
    urls: tuple[str, ...]
    """The servers; each client goes to one (:func:`boardroom.client.loadtest.rooms.server_for`)."""
    game: str
    rooms: tuple[int, ...]
    """The numbers of this worker's rooms (out of all the run's)."""
    ai_rooms: frozenset[int]
    """Which of them have a player against the server's AI."""
    idle: int
    """Idle connections (mode ``idle``)."""
    spectators: int
    ai_level: Level
    think: float
    rate: float | None
    burst: int
    connect_rate: float
    """This worker's share of the ramp's connections a second."""
    seed: str
    echo_frame: str


@dataclass(frozen=True)
class Timing:
    """The run's moments (``time.monotonic()`` values, see :class:`RunClock`)."""

    start: float
    window_start: float
    deadline: float


@dataclass(frozen=True)
class StopNow:
    """End the run now, finishing as at the deadline."""


@dataclass(frozen=True)
class Ready:
    """The worker is up and waits for its :class:`Timing`."""

    index: int
    event_loop: str


@dataclass(frozen=True)
class Snapshot:
    """The worker's stats so far, as of ``at`` (``time.monotonic()``); ``final``:
    its last word, after closing."""

    index: int
    stats: WorkerStats
    final: bool
    at: float = 0.0


@dataclass(frozen=True)
class Failed:
    """The worker broke; ``error`` is the traceback, for the report."""

    index: int
    error: str


def worker_main(plan: WorkerPlan, commands: Queue[Any], results: Queue[Any]) -> None:
    """The worker process's entry point (a top-level function, for ``spawn``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise_open_file_limit()
    factory, loop_name = client_loop()
    parent = os.getppid()
    try:
        with asyncio.Runner(loop_factory=factory) as runner:
            runner.run(_work(plan, loop_name, commands, results, parent))
    except BaseException:
        results.put(Failed(plan.index, traceback.format_exc()))
        raise
    finally:
        if os.getppid() != parent:
            # Nobody reads the queue any more: exit without flushing it (which
            # would block for ever once its pipe is full).
            results.cancel_join_thread()


async def _work(
    plan: WorkerPlan, loop_name: str, commands: Queue[Any], results: Queue[Any], parent: int
) -> None:
    results.put(Ready(plan.index, loop_name))
    command = await asyncio.to_thread(_first_command, commands, parent)
    stats = WorkerStats()
    if not isinstance(command, Timing):
        results.put(Snapshot(plan.index, stats, final=True))
        return
    clock = RunClock(command.start, command.window_start, command.deadline)
    window = _Window(stats, clock)
    listener = asyncio.create_task(_listen(commands, clock, window))
    reporter = asyncio.create_task(_report(plan.index, stats, results, clock, parent))
    try:
        if plan.mode == "idle":
            await _hold_idle(plan, stats, clock)
        else:
            await _run_rooms(plan, stats, clock)
    finally:
        window.close()
        reporter.cancel()
        commands.put(None)  # wakes the listener's thread, which blocks in get()
        await asyncio.gather(listener, reporter, return_exceptions=True)
    results.put(Snapshot(plan.index, stats, final=True, at=time.monotonic()))


async def _run_rooms(plan: WorkerPlan, stats: WorkerStats, clock: RunClock) -> None:
    setting = RoomSetting(
        urls=plan.urls,
        game=plan.game,
        stats=stats,
        clock=clock,
        think=plan.think,
        rate=plan.rate,
        burst=plan.burst,
        spectators=plan.spectators,
        ai_level=plan.ai_level,
        echo_frame=plan.echo_frame,
        rng=random.Random(plan.seed),
        handshakes=asyncio.Semaphore(HANDSHAKES_IN_FLIGHT),
    )
    rooms: list[tuple[float, RoomBase]] = []
    opened = 0.0
    for number in plan.rooms:
        room: RoomBase
        if plan.mode == "echo":
            room, connections = EchoRoom(setting, number), 2
        elif number in plan.ai_rooms:
            room, connections = AiRoom(setting, number), 1 + plan.spectators
        else:
            room, connections = PairRoom(setting, number), 2 + plan.spectators
        rooms.append((clock.start + opened / plan.connect_rate, room))
        opened += connections
    async with asyncio.TaskGroup() as group:
        for slot, room in rooms:
            group.create_task(_start_at(clock, slot, room))


async def _start_at(clock: RunClock, slot: float, room: RoomBase) -> None:
    if await clock.pause_until(slot):
        await room.run()


async def _hold_idle(plan: WorkerPlan, stats: WorkerStats, clock: RunClock) -> None:
    handshakes = asyncio.Semaphore(HANDSHAKES_IN_FLIGHT)
    held = [
        IdleConnection(
            plan.urls[number % len(plan.urls)],
            f"idle{plan.index}-{number}",
            stats,
            clock,
            handshakes,
        )
        for number in range(plan.idle)
    ]
    try:
        async with asyncio.TaskGroup() as group:
            for number, connection in enumerate(held):
                slot = clock.start + number / plan.connect_rate
                group.create_task(_hold_from(clock, slot, connection))
    finally:
        closes = asyncio.Semaphore(CLOSES_IN_FLIGHT)

        async def close(connection: IdleConnection) -> None:
            async with closes:
                await connection.close()

        await asyncio.gather(*(close(c) for c in held), return_exceptions=True)


async def _hold_from(clock: RunClock, slot: float, connection: IdleConnection) -> None:
    if await clock.pause_until(slot):
        await connection.hold()


class _Window:
    """Measures this process's CPU time over the window, and the connections held
    at the deadline, at those moments (timers on the loop)."""

    def __init__(self, stats: WorkerStats, clock: RunClock) -> None:
        self.stats = stats
        self._cpu_at_start: float | None = None
        self._wall_at_start = 0.0
        self._closed = False
        loop = asyncio.get_running_loop()
        now = time.monotonic()
        self._timers = [
            loop.call_later(max(0.0, clock.window_start - now), self.open),
            loop.call_later(max(0.0, clock.deadline - now), self.close),
        ]

    def open(self) -> None:
        self._cpu_at_start = time.process_time()
        self._wall_at_start = time.monotonic()

    def close(self) -> None:
        """The deadline: note what it found (once; later calls do nothing)."""
        if self._closed:
            return
        self._closed = True
        for timer in self._timers:
            timer.cancel()
        self.stats.connections_at_deadline = self.stats.connections_open
        if self._cpu_at_start is not None:
            self.stats.cpu_seconds_in_window = time.process_time() - self._cpu_at_start
            self.stats.window_seconds = time.monotonic() - self._wall_at_start


def _first_command(commands: Queue[Any], parent: int) -> object:
    """The main process's first command; None if it goes away before sending one."""
    while True:
        try:
            return commands.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:
                return None


async def _listen(commands: Queue[Any], clock: RunClock, window: _Window) -> None:
    while (command := await asyncio.to_thread(commands.get)) is not None:
        if isinstance(command, StopNow):
            clock.stop()
            window.close()


async def _report(
    index: int, stats: WorkerStats, results: Queue[Any], clock: RunClock, parent: int
) -> None:
    """Send a snapshot every second; end the run if the main process has gone
    (killed: nobody will send StopNow, and nobody reads the snapshots)."""
    while True:
        await asyncio.sleep(SNAPSHOT_INTERVAL)
        if os.getppid() != parent:
            clock.stop()
            return
        results.put(Snapshot(index, copy.deepcopy(stats), final=False, at=time.monotonic()))
