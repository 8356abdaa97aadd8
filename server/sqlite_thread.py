"""One SQLite connection on a thread of its own, driven from the event loop.

SQLite's calls block (a commit waits for fsync), so they must not run on the event
loop. :class:`SQLiteThread` owns one :class:`sqlite3.Connection` on one worker
thread and runs whole functions there: ``await thread.call(fn, *args)`` runs
``fn(connection, *args)`` and returns what it returns. A transaction written as
one function therefore costs **one** trip between the loop and the thread,
however many statements it runs. (aiosqlite, used before, makes a trip per
statement and per fetch, five or six per stored move: those trips cost more
server CPU than SQLite itself; docs/benchmarks.md has the figures.)

Calls run one at a time, in the order they were made: nothing of two calls ever
interleaves on the connection. The thread takes them from a queue and hands each
outcome back with one ``call_soon_threadsafe``: a call's round trip costs 13 µs
of CPU (both threads) where a one-worker ``ThreadPoolExecutor`` with
``run_in_executor`` cost 28 (its work item, its future chained to the loop's, its
idle-worker semaphore; issue 29). A group commit is one call.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from boardroom.server import stage_clock

_T = TypeVar("_T")


class SQLiteThread:
    """A connection to one SQLite file, used only from its own thread.

    ``connect`` is called on that thread and makes the connection (so that
    sqlite3's same-thread check holds). Use :meth:`open`, then :meth:`call` any
    number of times, then :meth:`close`.
    """

    def __init__(self, connect: Callable[[], sqlite3.Connection]) -> None:
        self._connect = connect
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._connection: sqlite3.Connection | None = None

    async def open(self) -> None:
        """Start the thread and connect; the connection's errors propagate."""
        self._jobs = queue.SimpleQueue()  # this thread's own, should the object be reopened
        self._thread = threading.Thread(
            target=_work, args=(self._jobs,), name="sqlite", daemon=True
        )
        self._thread.start()
        try:
            self._connection = await self._run(self._connect)
        except BaseException:
            self._stop()
            raise

    async def call(self, function: Callable[..., _T], *args: Any) -> _T:
        """Run ``function(connection, *args)`` on the thread and return its result
        (or raise its exception). Cancelling the caller does not stop a call that
        has started: it runs to its end; the caller just stops waiting."""
        connection = self._connection
        if connection is None:
            raise RuntimeError("the SQLite thread is not open")
        return await self._run(function, connection, *args)

    async def close(self) -> None:
        """Close the connection after the calls already made, and end the thread."""
        connection, self._connection = self._connection, None
        if self._thread is None:
            return
        try:
            if connection is not None:
                await self._run(connection.close)
        finally:
            self._stop()

    def _stop(self) -> None:
        self._jobs.put(None)  # after every call made: the thread ends there
        self._thread = None

    def _run(self, function: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        assert self._thread is not None
        done: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._jobs.put((done, function, args))
        return done


_Job = tuple["asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]
"""A call waiting for the thread: its caller's future, the function, its arguments."""


def _work(jobs: queue.SimpleQueue[_Job | None]) -> None:
    """The thread: each call in turn, its CPU time counted to the ``store`` stage,
    its outcome handed to its caller's loop; until the stop mark."""
    while (job := jobs.get()) is not None:
        done, function, args = job
        started = stage_clock.mark()
        try:
            outcome: tuple[bool, Any] = (True, function(*args))
        except BaseException as error:  # the caller's to see, on the loop
            outcome = (False, error)
        finally:
            stage_clock.add("store", started)
        with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits any more
            done.get_loop().call_soon_threadsafe(_settle, done, outcome)


def _settle(done: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    """On the loop: the caller's future gets the call's outcome, unless it stopped waiting."""
    if done.cancelled():
        return
    succeeded, value = outcome
    if succeeded:
        done.set_result(value)
    else:
        done.set_exception(value)
