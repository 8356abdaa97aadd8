"""What runs on the store's SQLite thread, shared by every part of the store: one
transaction around a body (:func:`in_transaction`) and one value of a query (:func:`scalar`).

The functions here are synchronous and take the connection in hand; the event loop
reaches them only through :class:`boardroom.server.store.sqlite.base.SQLiteBase`, one trip per
transaction.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from boardroom.server.store.errors import StorageFailedError, StorageUnavailableError

_T = TypeVar("_T")


def in_transaction(
    db: sqlite3.Connection, body: Callable[[sqlite3.Connection], _T], write: bool, failed: str
) -> _T:
    """Run ``body(db)`` between BEGIN and COMMIT (ROLLBACK if it raises), on the
    store's thread. SQLite's errors become :class:`StorageFailedError` (``failed``
    says what failed)."""
    try:
        # IMMEDIATE takes the write lock first, so what the body reads (the next
        # ply) cannot change before it writes, even from another process.
        db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            result = body(db)
            # With synchronous=FULL, COMMIT returns once the WAL is on disk.
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise
    except sqlite3.Error as error:
        if is_busy(error):
            raise StorageUnavailableError(f"{failed}: {error}") from error
        raise StorageFailedError(f"{failed}: {error}") from error
    return result


def is_busy(error: sqlite3.Error) -> bool:
    """True for SQLite's "busy" and "locked" errors (another connection held the
    lock past the busy timeout): they pass once it lets go, so the operation is
    worth retrying; every other SQLite error is not."""
    if not isinstance(error, sqlite3.OperationalError):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    text = str(error)
    return "database is locked" in text or "database is busy" in text


def scalar(db: sqlite3.Connection, sql: str, parameters: Iterable[Any] = ()) -> Any:
    row = db.execute(sql, tuple(parameters)).fetchone()
    return None if row is None else row[0]
