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
interleaves on the connection.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
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
        self._executor: ThreadPoolExecutor | None = None
        self._connection: sqlite3.Connection | None = None

    async def open(self) -> None:
        """Start the thread and connect; the connection's errors propagate."""
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        try:
            self._connection = await self._run(self._connect)
        except BaseException:
            self._executor.shutdown(wait=False)
            self._executor = None
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
        executor, self._executor = self._executor, None
        if executor is None:
            return
        try:
            if connection is not None:
                await asyncio.get_running_loop().run_in_executor(executor, connection.close)
        finally:
            executor.shutdown(wait=False)

    def _run(self, function: Callable[..., _T], *args: Any) -> asyncio.Future[_T]:
        assert self._executor is not None
        return asyncio.get_running_loop().run_in_executor(self._executor, _timed, function, *args)


def _timed(function: Callable[..., _T], *args: Any) -> _T:
    """``function(*args)``, on the thread, its CPU time counted to the ``store`` stage."""
    started = stage_clock.mark()
    try:
        return function(*args)
    finally:
        stage_clock.add("store", started)
