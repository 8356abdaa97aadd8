"""boardroom.server.stop_deadline: a stop that overruns ends the process, saying where it waits.

The watchdog is given its own ``exit_process`` here (pytest's process must live);
``tests/e2e/test_e2e_durability.py`` sends a real server the second signal.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import pytest

from boardroom.server.stop_deadline import EXIT_STOP_OVERRAN, StopWatchdog, where_tasks_wait


class Exits:
    """What the watchdog would end the process with, and when it did."""

    def __init__(self) -> None:
        self.statuses: list[int] = []
        self.called = threading.Event()

    def __call__(self, status: int) -> None:
        self.statuses.append(status)
        self.called.set()


def the_overrun(caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    (record,) = [r for r in caplog.records if r.getMessage().startswith("the stop did not")]
    return record


async def test_a_stop_stuck_on_an_await_ends_the_process_and_the_log_names_the_await(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The stop waits on a step that never answers, two coroutines down: at the
    deadline the process is ended with status 70, and the error lists the task
    with its chain of awaits down to the future it waits on."""
    caplog.set_level(logging.ERROR, logger="boardroom.server.app")
    never = asyncio.Event()

    async def close_the_unanswering_thing() -> None:
        await never.wait()

    async def stop() -> None:
        await close_the_unanswering_thing()

    stuck = asyncio.create_task(stop(), name="the-stop")
    exits = Exits()
    StopWatchdog(asyncio.get_running_loop(), 0.05, exit_process=exits).start()
    while not exits.called.is_set():
        await asyncio.sleep(0.01)
    assert exits.statuses == [EXIT_STOP_OVERRAN]

    waiting: list[str] = the_overrun(caplog).waiting  # type: ignore[attr-defined]
    (line,) = [w for w in waiting if w.startswith("the-stop: ")]
    frames = line.removeprefix("the-stop: ").split(" > ")
    assert frames[0].endswith(" stop") and frames[1].endswith(" close_the_unanswering_thing"), line
    assert frames[2].startswith("asyncio/locks.py:") and frames[2].endswith(" wait"), line
    assert frames[3].startswith("<Future pending"), line
    never.set()
    await stuck


def test_a_loop_blocked_by_a_call_is_caught_too(caplog: pytest.LogCaptureFixture) -> None:
    """A call that blocks the event loop's thread runs no timer of the loop; the
    watchdog's thread still ends the process, and shows the call in the threads."""
    caplog.set_level(logging.ERROR, logger="boardroom.server.app")
    exits = Exits()

    async def blocking_stop() -> None:
        StopWatchdog(asyncio.get_running_loop(), 0.05, exit_process=exits).start()
        while not exits.called.is_set():
            time.sleep(0.01)  # blocking the loop is the point

    asyncio.run(blocking_stop())
    assert exits.statuses == [EXIT_STOP_OVERRAN]
    threads: list[str] = the_overrun(caplog).threads  # type: ignore[attr-defined]
    (main,) = [t for t in threads if t.startswith("MainThread: ")]
    assert main.endswith(" blocking_stop"), main


async def test_a_task_awaiting_another_names_it() -> None:
    """The chain ends at the task it waits for, which has its own line."""
    never = asyncio.Event()
    inner = asyncio.create_task(never.wait(), name="inner")

    async def outer_body() -> None:
        await inner

    outer = asyncio.create_task(outer_body(), name="outer")
    await asyncio.sleep(0)
    lines = where_tasks_wait(asyncio.get_running_loop())
    (line,) = [w for w in lines if w.startswith("outer: ")]
    assert line.endswith(" outer_body > task inner"), line
    assert any(w.startswith("inner: ") for w in lines), lines
    never.set()
    await asyncio.gather(inner, outer)
