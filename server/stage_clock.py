"""Where the server's CPU goes on the relay path, by stage: the stage clock.

A relayed move passes through five stages the server can time on its own thread:
``decode`` (a client's frame into a message), ``rules`` (the room's pure step:
validation, result, clocks), ``encode`` (each message sent, once for all its
receivers), ``write`` (frames put on the sockets) and ``store`` (the SQLite
thread's transactions, group commit included). Each stage's CPU time is summed
here, in nanoseconds of **thread** CPU time (:func:`time.thread_time_ns`): time
spent waiting (an fsync, a busy core) is not counted, and work done on another
thread is counted to that thread's stage only.

The server exports the sums on ``/metrics`` as
``boardroom_stage_cpu_seconds_total{stage=...}``; the load test reads them at
both ends of its window and divides by the moves played in between (``boardroom
loadtest`` and ``boardroom bench relay`` print the split). What the process spent
outside the five (aiohttp's frame parsing, the dispatch, asyncio's own machinery,
a PostgreSQL store's driver) is the process's CPU time minus their sum.

The clock is always on: a reading costs about 0.3 µs on Linux, and a relayed move
takes about twelve (docs/benchmarks.md), a few µs against hundreds. The sums are
process-wide (several servers in one test process share them), kept in a plain
dict: each stage is added to from one thread only (``store`` from the SQLite
thread, the rest from the event loop's), so no lock is needed.

>>> started = mark()
>>> add("encode", started)
>>> cpu_seconds()["encode"] >= 0.0
True
"""

from __future__ import annotations

import time
from typing import Final, Literal

__all__ = ["STAGES", "Stage", "add", "cpu_seconds", "mark"]

Stage = Literal["decode", "rules", "encode", "write", "store"]
STAGES: Final[tuple[Stage, ...]] = ("decode", "rules", "encode", "write", "store")
"""The stages, in the order a move passes through them (the store before the
messages are encoded: a move is stored before anyone is told of it)."""

mark = time.thread_time_ns
"""The calling thread's CPU time now, in nanoseconds: a stage's start."""

_totals: dict[str, int] = dict.fromkeys(STAGES, 0)


def add(stage: Stage, started: int) -> None:
    """Count the calling thread's CPU time since ``started`` (a :func:`mark`) to ``stage``."""
    _totals[stage] += time.thread_time_ns() - started


def cpu_seconds() -> dict[str, float]:
    """Each stage's CPU time since the process started, in seconds."""
    return {stage: nanoseconds / 1e9 for stage, nanoseconds in _totals.items()}
