"""The store's base: the SQLite file opened, set up and closed, its thread, and
its transactions, run one at a time in the order they were called.

SQLite runs on a thread of its own (:class:`server.sqlite_thread.SQLiteThread`:
the stdlib driver, one trip from the loop per transaction), in WAL mode with
``synchronous=FULL``, so the event loop never waits on the disk and a committed
transaction survives a power cut. A transaction runs in a task of its own,
shielded, so a cancelled caller never leaves one halfway (see :mod:`server.store`).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self, TypeVar

from server.sqlite_thread import SQLiteThread
from server.store.errors import StorageFailedError, StoreClosedError, StoreError
from server.store.rows import StoreInfo
from server.store.schema import migrate
from server.store.sql import in_transaction, scalar

__all__ = ["StoreBase", "StoreInfo"]

_T = TypeVar("_T")

_BUSY_TIMEOUT_S = 5.0
"""How long to wait for the write lock held by another process (the ``sqlite3``
shell, a backup) before failing: well beyond any such hold, and still bounded."""

_SYNCHRONOUS_NAMES = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


class StoreBase:
    """One SQLite file on a thread of its own, shared by every part of the store.

    ``path`` is the database file (created if missing, with its directory already
    there); ``":memory:"`` gives a private in-memory database for tests, with no
    durability. Creating the object does no I/O; :meth:`open` does.

    The parts of the store (:mod:`server.store.games` and the others) subclass it,
    and :class:`server.store.GameStore` combines them: one object, one connection
    and one order of transactions for all. A part reaches the database only through
    :meth:`_transaction`, or, for work it batches itself (the group commit of
    moves), through :meth:`_run_transaction` in a task it adds to ``_inflight``,
    so that :meth:`close` waits for it.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._path = os.fspath(path)
        # One connection on one thread, one whole transaction per call: statements of
        # two operations never interleave, and transactions run in the order called.
        self._db: SQLiteThread | None = None
        self._inflight: set[asyncio.Task[Any]] = set()

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    # -- life cycle -------------------------------------------------------------------

    async def open(self) -> None:
        """Open the file, set WAL and synchronous=FULL, migrate the schema, and turn
        foreign keys on.

        Raises :class:`SchemaVersionError` for a file from a newer Boardroom and
        :class:`StorageFailedError` if the file cannot be opened or used in WAL mode.
        """
        if self._db is not None:
            raise StoreError(f"the store on {self._path} is already open")
        db = SQLiteThread(self._connect)
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
        self._db = db

    def _connect(self) -> sqlite3.Connection:
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

    async def close(self) -> None:
        """Wait for the operations under way, then close the file. Idempotent.

        Operations called after this starts raise :class:`StoreClosedError`.
        """
        db, self._db = self._db, None
        if db is None:
            return
        # Let every started transaction finish (they are never cancelled midway).
        await asyncio.gather(*self._inflight, return_exceptions=True)
        await db.close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

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

    # -- transactions -----------------------------------------------------------------

    async def _transaction(
        self,
        body: Callable[[sqlite3.Connection], _T],
        *,
        write: bool,
        what: str,
    ) -> _T:
        """Run ``body`` in one transaction, after every operation called before it.

        The transaction runs in its own task, shielded: a cancelled caller stops
        waiting, but the transaction still ends with COMMIT or ROLLBACK, never
        halfway with the connection left inside it.
        """
        db = self._db
        if db is None:
            raise StoreClosedError(f"the store on {self._path} is not open")
        task = asyncio.create_task(self._run_transaction(db, body, write=write, what=what))
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)
        return await asyncio.shield(task)

    async def _run_transaction(
        self,
        db: SQLiteThread,
        body: Callable[[sqlite3.Connection], _T],
        *,
        write: bool,
        what: str,
    ) -> _T:
        return await db.call(in_transaction, body, write, f"{what} failed in {self._path}")
