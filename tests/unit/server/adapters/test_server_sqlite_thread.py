"""SQLiteThread: whole functions run on the connection's own thread, in order."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from boardroom.server.sqlite_thread import SQLiteThread


def _connect_to(path: Path) -> SQLiteThread:
    return SQLiteThread(lambda: sqlite3.connect(path, isolation_level=None))


async def test_calls_run_on_one_thread_other_than_the_loops(tmp_path: Path) -> None:
    """Every call runs on the same worker thread, never the event loop's."""
    db = _connect_to(tmp_path / "a.db")
    await db.open()
    try:
        names = {await db.call(lambda _c: threading.current_thread().name) for _ in range(5)}
    finally:
        await db.close()
    assert len(names) == 1
    assert names != {threading.current_thread().name}


async def test_calls_made_at_once_run_in_the_order_made(tmp_path: Path) -> None:
    """Calls started together run one after another, in the order they were made."""
    db = _connect_to(tmp_path / "a.db")
    await db.open()
    try:
        await db.call(lambda c: c.execute("CREATE TABLE t (n INTEGER)"))
        await asyncio.gather(
            *(
                db.call(lambda c, n: c.execute("INSERT INTO t VALUES (?)", (n,)), n)
                for n in range(50)
            )
        )
        rows = await db.call(lambda c: [n for (n,) in c.execute("SELECT n FROM t ORDER BY rowid")])
    finally:
        await db.close()
    assert rows == list(range(50))


async def test_an_exception_in_a_call_reaches_the_caller(tmp_path: Path) -> None:
    """SQLite's error propagates to the awaiting caller, and the thread goes on."""
    db = _connect_to(tmp_path / "a.db")
    await db.open()
    try:
        with pytest.raises(sqlite3.OperationalError, match="no such table"):
            await db.call(lambda c: c.execute("SELECT * FROM missing"))
        assert await db.call(lambda c: c.execute("SELECT 41 + 1").fetchone()[0]) == 42
    finally:
        await db.close()


async def test_a_cancelled_caller_does_not_stop_its_call(tmp_path: Path) -> None:
    """Cancelling the awaiting task leaves the call to run to its end."""
    db = _connect_to(tmp_path / "a.db")
    await db.open()
    started, release = threading.Event(), threading.Event()

    def slow_insert(c: sqlite3.Connection) -> None:
        started.set()
        release.wait(5)
        c.execute("INSERT INTO t VALUES (1)")

    try:
        await db.call(lambda c: c.execute("CREATE TABLE t (n INTEGER)"))
        task = asyncio.create_task(db.call(slow_insert))
        await asyncio.to_thread(started.wait, 5)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        release.set()
        assert await db.call(lambda c: c.execute("SELECT count(*) FROM t").fetchone()[0]) == 1
    finally:
        await db.close()


async def test_a_call_after_close_is_refused(tmp_path: Path) -> None:
    """Once closed, a call raises RuntimeError instead of touching a closed connection."""
    db = _connect_to(tmp_path / "a.db")
    await db.open()
    await db.close()
    await db.close()  # idempotent
    with pytest.raises(RuntimeError, match="not open"):
        await db.call(lambda c: c.execute("SELECT 1"))


async def test_a_failed_connect_raises_from_open(tmp_path: Path) -> None:
    """A file that cannot be opened fails open() with SQLite's error."""
    db = _connect_to(tmp_path / "no-such-dir" / "a.db")
    with pytest.raises(sqlite3.OperationalError):
        await db.open()


async def test_the_thread_ends_once_closed_and_when_open_fails(tmp_path: Path) -> None:
    """close() ends the worker thread after the calls made before it (their
    results all delivered); a failed open() leaves no thread behind either."""
    before = set(threading.enumerate())
    db = _connect_to(tmp_path / "a.db")
    await db.open()
    (worker,) = set(threading.enumerate()) - before
    calls = [
        asyncio.ensure_future(db.call(lambda c, n: c.execute("SELECT ?", (n,)).fetchone()[0], n))
        for n in range(5)
    ]
    await asyncio.sleep(0)  # the calls are made
    await db.close()
    assert await asyncio.gather(*calls) == list(range(5))
    await asyncio.to_thread(worker.join, 5)
    assert not worker.is_alive()

    failing = _connect_to(tmp_path / "no-such-dir" / "a.db")
    with pytest.raises(sqlite3.OperationalError):
        await failing.open()
    for thread in set(threading.enumerate()) - before - {worker}:
        if thread.name != "sqlite":
            continue  # asyncio.to_thread's own
        await asyncio.to_thread(thread.join, 5)
        assert not thread.is_alive()
