"""The SQLite store's base: the file opened, set up and closed, on a thread of its
own, and one transaction run there.

SQLite runs on a thread of its own (:class:`boardroom.server.sqlite_thread.SQLiteThread`:
the stdlib driver, one trip from the loop per transaction), in WAL mode with
``synchronous=FULL``, so the event loop never waits on the disk and a committed
transaction survives a power cut. The order of transactions and cancellation are
:class:`boardroom.server.store.base.StoreBase`'s.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from boardroom.server.sqlite_thread import SQLiteThread
from boardroom.server.store.base import StoreBase
from boardroom.server.store.errors import StorageFailedError, StorageUnavailableError
from boardroom.server.store.rows import StoreInfo
from boardroom.server.store.sqlite.schema import migrate
from boardroom.server.store.sqlite.sql import in_transaction, scalar

__all__ = ["SQLiteBase"]

_T = TypeVar("_T")

_BUSY_TIMEOUT_S = 5.0
"""How long to wait for the write lock held by another process (the ``sqlite3``
shell, a backup) before failing: well beyond any such hold, and still bounded."""

_FAIL_FAST_S = 1.0
"""For this long after a write found the file locked past the busy timeout, the
writes queued behind it are refused at once (``StorageUnavailableError``)."""

_SYNCHRONOUS_NAMES = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


class SQLiteBase(StoreBase[SQLiteThread]):
    """One SQLite file on a thread of its own, shared by every part of the store.

    ``path`` is the database file (created if missing, with its directory already
    there); ``":memory:"`` gives a private in-memory database for tests, with no
    durability. Creating the object does no I/O; :meth:`open` does: it sets WAL
    and synchronous=FULL, migrates the schema, and turns foreign keys on; it raises
    :class:`StorageFailedError` if the file cannot be opened or used in WAL mode.

    A part runs its SQL through :meth:`_transaction`: a function of the
    connection, run on the thread between BEGIN and COMMIT.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__()
        self._path = os.fspath(path)
        self._busy_at: float | None = None
        """Monotonic time a write last found the file locked, if none was stored since."""

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    async def _connect(self) -> SQLiteThread:
        # One connection on one thread, one whole transaction per call: statements of
        # two operations never interleave.
        db = SQLiteThread(self._open_file)
        try:
            await db.open()
        except sqlite3.Error as error:
            raise StorageFailedError(f"cannot open the database {self._path}: {error}") from error
        try:
            await db.call(self._configure)
            failed = f"migrating the schema failed in {self._path}"
            await db.call(in_transaction, migrate, True, failed)
            await db.call(self._enforce_foreign_keys)
        except BaseException:
            await db.close()
            raise
        return db

    async def _disconnect(self, handle: SQLiteThread) -> None:
        await handle.close()

    def _open_file(self) -> sqlite3.Connection:
        # isolation_level=None: the stdlib driver opens no transactions of its own;
        # each operation says BEGIN and COMMIT itself.
        return sqlite3.connect(self._path, isolation_level=None, timeout=_BUSY_TIMEOUT_S)

    def _configure(self, db: sqlite3.Connection) -> None:
        try:
            # WAL: readers never block the writer, and a commit appends to one file.
            # It needs shared memory, so the file must be on a local filesystem.
            mode = scalar(db, "PRAGMA journal_mode = WAL")
            if mode != "wal" and self._path != ":memory:":
                raise StorageFailedError(
                    f"the database {self._path} cannot use WAL mode (journal mode {mode!r}): "
                    "put it on a local filesystem"
                )
            # FULL, not NORMAL: under WAL, NORMAL syncs the log only at checkpoints,
            # which survives a killed process (the OS still holds the writes) but can
            # lose the last commits to a power cut or an OS crash. FULL syncs the log
            # at every commit, so an acknowledged move is never lost, whatever stops
            # the server. It costs one fsync per commit; moves made at the same time
            # share one (group commit, in append_move).
            db.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as error:
            raise StorageFailedError(f"cannot set up the database {self._path}: {error}") from error

    def _enforce_foreign_keys(self, db: sqlite3.Connection) -> None:
        # Only once migrated: a migration that rebuilds a table needs them off, and
        # the pragma cannot change inside the migration's transaction.
        try:
            db.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as error:
            raise StorageFailedError(f"cannot set up the database {self._path}: {error}") from error

    async def info(self) -> StoreInfo:
        """The journal mode, synchronous level and schema version, as SQLite reports them."""

        def body(db: sqlite3.Connection) -> StoreInfo:
            synchronous = scalar(db, "PRAGMA synchronous")
            return StoreInfo(
                path=self._path,
                schema_version=int(scalar(db, "PRAGMA user_version")),
                journal_mode=str(scalar(db, "PRAGMA journal_mode")),
                synchronous=_SYNCHRONOUS_NAMES.get(synchronous, str(synchronous)),
            )

        return await self._transaction(body, write=False, what="reading the settings")

    async def _transaction(
        self, body: Callable[[sqlite3.Connection], _T], *, write: bool, what: str
    ) -> _T:
        """Run ``body`` on the thread in one transaction, in the order of
        :class:`~boardroom.server.store.base.StoreBase`; SQLite's errors become
        :class:`StorageFailedError` (``what`` says what failed)."""
        return await asyncio.shield(self._schedule(self._runner(body, write, what), write=write))

    def _runner(
        self, body: Callable[[sqlite3.Connection], _T], write: bool, what: str
    ) -> Callable[[SQLiteThread], Awaitable[_T]]:
        """What runs ``body`` in a transaction on the store's thread, for
        :meth:`~boardroom.server.store.base.StoreBase._schedule`."""
        failed = f"{what} failed in {self._path}"
        if not write:
            return lambda db: db.call(in_transaction, body, write, failed)

        async def run(db: SQLiteThread) -> _T:
            # Another program holds the write lock: for a moment after a write
            # waited the busy timeout out, the writes queued behind it are
            # refused at once rather than each after a busy timeout of its own.
            if self._busy_at is not None:
                since = time.monotonic() - self._busy_at
                if since < _FAIL_FAST_S:
                    raise StorageUnavailableError(
                        f"{what} not tried in {self._path}: the database was locked "
                        f"{since:.1f} s ago"
                    )
            try:
                result: _T = await db.call(in_transaction, body, write, failed)
            except StorageUnavailableError:
                self._busy_at = time.monotonic()
                raise
            self._busy_at = None
            return result

        return run
