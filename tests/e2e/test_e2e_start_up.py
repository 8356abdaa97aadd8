"""A start-up that fails part way gives back everything it took, whatever failed.

``boardroom serve`` starts its resources in order (the database lock, the store,
the engine pool, the hub, the lag monitor, then class mode and tournaments; see
``server/lifecycle.py``). When one of them fails, those already started are
released, the last first: the lock is free for the next server, the database is
closed (its WAL file folded back), no engine worker is left running and no task
of the server's is left on the loop. Each test breaks a real database file where
a real server reads it, at a later step than the one before.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
from pathlib import Path

import pytest
from harness import TIMEOUT
from harness import test_config as config_for  # not collected as a test under this name

from boardroom.server.cli import serve
from boardroom.server.single_server import DatabaseLock
from boardroom.server.store import GameStore, SchemaVersionError, StorageFailedError


async def a_database_without(database: Path, table: str) -> None:
    """A database of this version that has lost ``table``: it opens, and fails
    at the first read of that table."""
    async with GameStore(database):
        pass
    with sqlite3.connect(database) as db:
        db.execute(f"DROP TABLE {table}")
    db.close()


async def assert_everything_released(database: Path, children_before: set[object]) -> None:
    lock = DatabaseLock(str(database))
    lock.acquire()  # raises DatabaseInUseError while this process still holds it
    lock.release()
    assert not Path(f"{database}-wal").exists(), "the database was left open"
    assert set(multiprocessing.active_children()) <= children_before, "engine workers left"
    left = asyncio.all_tasks() - {asyncio.current_task()}
    if left:
        # Cancelled tasks end on their next turn; one that was never cancelled runs on.
        _, pending = await asyncio.wait(left, timeout=TIMEOUT)
        assert not pending, f"tasks left running: {pending}"


async def test_a_database_from_a_newer_boardroom_stops_the_start_and_frees_the_lock(
    db_path: Path,
) -> None:
    """The store refuses the file: the lock taken before it is given back."""
    with sqlite3.connect(db_path) as db:
        db.execute("PRAGMA user_version = 999")
    db.close()
    children = set(multiprocessing.active_children())

    with pytest.raises(SchemaVersionError):
        await serve(config_for(db_path))

    await assert_everything_released(db_path, children)


async def test_a_failed_restore_releases_the_engine_pool_the_store_and_the_lock(
    db_path: Path,
) -> None:
    """The hub cannot read the games to restore: the pool started before it is
    closed, then the store, then the lock."""
    await a_database_without(db_path, "seats")
    children = set(multiprocessing.active_children())

    with pytest.raises(StorageFailedError, match="unfinished games"):
        await serve(config_for(db_path))

    await assert_everything_released(db_path, children)


async def test_a_feature_that_fails_to_start_releases_everything_started_before_it(
    db_path: Path,
) -> None:
    """Class mode starts, then the tournaments cannot be read: the classroom, the
    lag monitor, the hub, the pool, the store and the lock are all given back."""
    await a_database_without(db_path, "tournaments")
    children = set(multiprocessing.active_children())

    with pytest.raises(StorageFailedError, match="tournaments"):
        await serve(config_for(db_path, class_name="7B"))

    await assert_everything_released(db_path, children)
