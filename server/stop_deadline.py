"""A graceful stop that cannot hang: a deadline, and what was stuck when it passed.

``boardroom serve`` stops gracefully on SIGTERM or Ctrl-C (boardroom.server.cli): it tells
the clients, stops the rooms, closes the database after its last write, and
the interpreter then waits for the engine's workers and its threads. Each step
waits on something outside the event loop's control (a client's close
handshake, Redis, PostgreSQL, a worker process, a thread); were one never to
answer, the process would never exit, and a supervisor (systemd, Docker,
Kubernetes) would kill it without a word on why. So the stop has a deadline, as
a supervisor's stop timeout has:

- :class:`StopWatchdog` is a thread of its own, started when the stop begins.
  If the process is still there :data:`STOP_DEADLINE_S` later, it logs where
  every task of the event loop is suspended (:func:`where_tasks_wait`) and
  where every thread is (:func:`where_threads_are`: the loop's own thread too,
  should a call block it), then ends the process with :data:`EXIT_STOP_OVERRAN`.
  A thread rather than a timer on the loop: a loop that is blocked, or already
  closed while the interpreter waits on a thread, runs no timers.
- A second SIGTERM or Ctrl-C during the stop exits at once (boardroom.server.cli), as
  uvicorn and Docker's CLI do: whoever sends it has decided not to wait.

Nothing acknowledged is lost by either: a move is durable before it is
broadcast, and the games in progress come back at the next start.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from types import CoroutineType, GeneratorType
from typing import Any

logger = logging.getLogger("boardroom.server.app")

STOP_DEADLINE_S = 20.0
"""How long a graceful stop may take: the connections' grace (3 s) and aiohttp's
wait for handlers (5 s) at most, then the resources, each a few milliseconds to
a second or two when its server answers."""

EXIT_STOP_OVERRAN = 70
"""The exit status when the stop overran its deadline or a second signal cut it
short (EX_SOFTWARE): a supervisor sees that the stop was not clean."""


def exit_at_once(status: int = EXIT_STOP_OVERRAN) -> None:
    """End the process this moment, the log's last lines written first: no
    cleanup runs, since what is left of it is what would not finish."""
    logging.shutdown()
    sys.stdout.flush()
    os._exit(status)


class StopWatchdog:
    """Ends the process if it has not exited ``seconds`` after :meth:`start`
    (see the module docstring). ``exit_process`` is called with
    :data:`EXIT_STOP_OVERRAN` after the error is logged (a test passes its own)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        seconds: float = STOP_DEADLINE_S,
        *,
        exit_process: Callable[[int], Any] = exit_at_once,
    ) -> None:
        self._loop = loop
        self._seconds = seconds
        self._exit_process = exit_process
        self._thread = threading.Thread(target=self._watch, name="stop-watchdog", daemon=True)

    def start(self) -> None:
        """Start counting (once). A daemon thread: it never keeps a process alive,
        and ends with it, so a stop that finishes in time is never cut."""
        self._thread.start()

    def _watch(self) -> None:
        time.sleep(self._seconds)
        logger.error(
            "the stop did not finish in time: exiting without it",
            extra={
                "deadline_s": self._seconds,
                "waiting": where_tasks_wait(self._loop),
                "threads": where_threads_are(),
            },
        )
        self._exit_process(EXIT_STOP_OVERRAN)


def where_tasks_wait(loop: asyncio.AbstractEventLoop) -> list[str]:
    """One line per task of ``loop``: its name and the chain of awaits it is
    suspended in, outermost first (``file:line function``), ending with what it
    waits for at the bottom: another task (by name: it has a line of its own) or
    a future. Safe to call from another thread for a report: the set of tasks is
    copied, retried if the loop changed it meanwhile."""
    for _ in range(10):
        try:
            tasks = list(asyncio.all_tasks(loop))
            break
        except RuntimeError:  # "Set changed size during iteration": the loop runs on
            continue
    else:
        return ["(the loop's tasks kept changing: not listed)"]
    return sorted(f"{task.get_name()}: {' > '.join(_await_chain(task))}" for task in tasks)


def where_threads_are(frames_each: int = 8) -> list[str]:
    """One line per thread but the caller's: its name and its innermost
    ``frames_each`` frames, outermost first (``file:line function``)."""
    names = {thread.ident: thread.name for thread in threading.enumerate()}
    me = threading.get_ident()
    lines = []
    for ident, frame in sys._current_frames().items():
        if ident == me:
            continue
        stack = traceback.extract_stack(frame)[-frames_each:]
        where = " > ".join(f"{_file(at.filename)}:{at.lineno} {at.name}" for at in stack)
        lines.append(f"{names.get(ident, ident)}: {where}")
    return sorted(lines)


def _await_chain(task: asyncio.Task[Any]) -> list[str]:
    """The frames of ``task``'s coroutine and of what each awaits, then the
    future at the bottom.

    ``Task.get_stack()`` gives one frame for a suspended coroutine; the rest of
    the chain is in each coroutine's ``cr_await`` (a generator's ``gi_yieldfrom``).
    The future at the bottom is hidden inside C iterators there, so it is read
    from the task's ``_fut_waiter`` (CPython's name for it, in both of asyncio's
    Task implementations; absent elsewhere, and the line is one item shorter).
    """
    chain: list[str] = []
    awaitable: object = task.get_coro()
    for _ in range(64):  # a bound, in case of a cycle
        if isinstance(awaitable, CoroutineType):
            frame, awaitable = awaitable.cr_frame, awaitable.cr_await
        elif isinstance(awaitable, GeneratorType):
            frame, awaitable = awaitable.gi_frame, awaitable.gi_yieldfrom
        else:
            break
        if frame is None:
            break  # finished
        chain.append(f"{_file(frame.f_code.co_filename)}:{frame.f_lineno} {frame.f_code.co_name}")
    waiter = getattr(task, "_fut_waiter", None)
    if isinstance(waiter, asyncio.Task):
        chain.append(f"task {waiter.get_name()}")
    elif waiter is not None:
        chain.append(repr(waiter)[:160])
    return chain


def _file(path: str) -> str:
    """A source file's name and its folder's (``cluster/node.py``): enough to find it."""
    return "/".join(path.replace("\\", "/").rsplit("/", 2)[-2:])
