"""The PostgreSQL store's base: one asyncpg pool, the server's settings checked, the
schema migrated, and one transaction run on a connection of the pool.

The order of transactions within a process and cancellation are
:class:`boardroom.server.store.base.StoreBase`'s: writes one at a time in the order called,
each operation after the writes called before it. Reads run side by side on the
pool (REPEATABLE READ, read only: one snapshot for all the statements of one
read, as a SQLite read transaction has). **Other processes** (the other servers
of a cluster, ``psql``) are kept out of a game being written by a row lock on it
(``SELECT ... FOR UPDATE``) in every write that reads before it writes, as
``BEGIN IMMEDIATE`` does on SQLite; the schema's constraints and triggers hold
whatever they do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from typing import TypeAlias, TypeVar

import asyncpg

from boardroom.server.store.base import StoreBase
from boardroom.server.store.errors import (
    StorageFailedError,
    StorageUnavailableError,
    StoreError,
)
from boardroom.server.store.postgres.schema import migrate, schema_version
from boardroom.server.store.rows import StoreInfo

__all__ = ["DRIVER_ERRORS", "SCHEMA_REFUSALS", "Connection", "PostgresBase", "redacted"]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

Connection: TypeAlias = asyncpg.Connection
"""What a transaction's body is given: one connection of the pool, inside the transaction."""

DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError)
"""What asyncpg raises when the server or the connection fails (OSError takes in
refused connections and timeouts): :class:`StorageFailedError` at the boundary."""

TRANSIENT_ERRORS = (
    OSError,  # refused, reset, unreachable: the server is down or restarting
    TimeoutError,  # no answer in time (a stopped or overloaded server, a cut network)
    asyncpg.InterfaceError,  # the connection was closed under the transaction
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08: connection exceptions
    asyncpg.OperatorInterventionError,  # class 57: shutting down, cannot connect now
    asyncpg.InsufficientResourcesError,  # class 53: too many connections, out of memory
    asyncpg.TransactionRollbackError,  # class 40: serialisation failure, deadlock
)
"""The driver's errors that pass with time: refused as
:class:`~boardroom.server.store.errors.StorageUnavailableError` (retry later),
where the rest (SQL or schema errors: a bug, not an outage) stay
:class:`StorageFailedError`. The pool's connections are replaced after one."""

OPERATION_TIMEOUT_S = 5.0
"""How long one transaction may take, its wait for a connection included, before
it is given up as :class:`StorageUnavailableError`: a server that stopped
answering (SIGSTOP, a cut network) would otherwise hold every write of the
process behind it for as long as TCP keeps the connection, minutes. The store's
writes take milliseconds; a write of seconds means the database is not there."""

PROBE_TIMEOUT_S = 1.0
"""The timeout instead, while the database is known to be down (since a transient
failure, until a transaction succeeds): a server that is back answers in
milliseconds, and the writes queued meanwhile are refused in a second each, not
five."""

FAIL_FAST_S = 1.0
"""For this long after a transient failure, a transaction is refused at once
(:class:`StorageUnavailableError`) without trying: the requests that queued behind
the failed one are answered now rather than each after its own timeout."""

SCHEMA_REFUSALS = (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError)
"""What PostgreSQL raises for values the schema refuses (a constraint, a trigger,
a value of the wrong type): where SQLite's store catches ``IntegrityError`` to
raise :class:`~boardroom.server.store.errors.InvalidRecordError`, this one catches these."""

_POOL_SIZE = 8
"""Connections at most: one for the writes (they run one at a time) and the rest
for reads side by side; a cluster of N processes holds N times this, well under
PostgreSQL's default max_connections of 100 for the few processes a machine runs."""

_CLOSE_TIMEOUT_S = 5.0
"""How long closing the pool may take once no transaction of this store is under
way: a connection given back closes in a round trip; one never given back is cut."""
_CONNECT_TIMEOUT_S = 10.0
"""How long to wait for the server at open: a server that is down fails the
start-up with a clear error rather than hanging it."""


class _PooledConnection(asyncpg.Connection):  # type: ignore[misc]
    """A pool's connection given back as it is, but for an open transaction.

    asyncpg resets a connection when it returns to the pool with ``SELECT
    pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``: one more round
    trip to the server a transaction, for a group commit of moves a fifth of its
    trips (issue 29). This store leaves nothing for it to undo: no session
    setting (``SET``), no ``LISTEN``, no cursor outside a transaction, no session
    advisory lock (the schema's migration takes a transaction's lock, released at
    its end). asyncpg still rolls back a transaction left open, whatever the
    query (``Connection.reset``'s documented contract for a subclass)."""

    def get_reset_query(self) -> str:
        return ""


_DURABLE_COMMITS = ("on", "remote_write", "remote_apply", "local")
"""The values of ``synchronous_commit`` under which a COMMIT returns only once the
commit is flushed to this server's WAL on disk (the other values add waits for
standbys). ``off`` returns before the flush: a crash of PostgreSQL can lose the
last commits, so an acknowledged move; the store refuses to run with it."""


def redacted(url: str) -> str:
    """``url`` without its password, to show in logs and errors."""
    parts = urllib.parse.urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


class PostgresBase(StoreBase[asyncpg.Pool]):
    """One PostgreSQL database behind an asyncpg pool, shared by every part of the
    store (as :class:`boardroom.server.store.sqlite.base.SQLiteBase` is for SQLite).

    ``url`` is a ``postgresql://`` (or ``postgres://``) URL, as libpq takes it:
    ``postgresql://USER:PASSWORD@HOST:PORT/DATABASE``. Creating the object does no
    I/O; :meth:`open` does: it connects, checks that commits are durable, and
    migrates the schema; it raises :class:`StorageFailedError` if the server cannot
    be reached or used, or runs with ``synchronous_commit`` or ``fsync`` off.

    A part runs its SQL through :meth:`_transaction`: an async function of one
    connection of the pool, run between BEGIN and COMMIT.
    """

    def __init__(self, url: str, *, timeout: float = OPERATION_TIMEOUT_S) -> None:
        super().__init__()
        self._url = url
        self._timeout = timeout
        self._failed_at: float | None = None
        """Monotonic time of the last transient failure, if none succeeded since."""

    @property
    def path(self) -> str:
        """The database's URL, without its password."""
        return redacted(self._url)

    async def _connect(self) -> asyncpg.Pool:
        try:
            pool = await asyncpg.create_pool(
                self._url,
                min_size=1,
                max_size=_POOL_SIZE,
                timeout=_CONNECT_TIMEOUT_S,
                connection_class=_PooledConnection,
            )
        except (*DRIVER_ERRORS, ValueError) as error:  # ValueError: a malformed URL
            raise StorageFailedError(f"cannot open the database {self.path}: {error}") from error
        try:
            await self._check_durability(pool)
            await self._in_transaction(pool, migrate, write=True, what="migrating the schema")
        except BaseException:
            await pool.close()
            raise
        return pool

    async def _check_durability(self, pool: asyncpg.Pool) -> None:
        try:
            synchronous = await pool.fetchval("SHOW synchronous_commit")
            fsync = await pool.fetchval("SHOW fsync")
        except DRIVER_ERRORS as error:
            raise StorageFailedError(f"cannot use the database {self.path}: {error}") from error
        # Checked, not set: a server set up to lose commits is the operator's to
        # change (ALTER SYSTEM, or ALTER DATABASE ... RESET synchronous_commit),
        # and must not be hidden by a setting of this one connection.
        if synchronous not in _DURABLE_COMMITS:
            raise StorageFailedError(
                f"the database {self.path} runs with synchronous_commit = {synchronous}: "
                "a commit would return before it is on disk, and a crash could lose "
                "acknowledged moves; set it to on"
            )
        if fsync != "on":
            raise StorageFailedError(
                f"the database {self.path} runs with fsync = {fsync}: commits are not "
                "flushed to disk, and a crash could lose acknowledged moves; set it to on"
            )

    async def _disconnect(self, handle: asyncpg.Pool) -> None:
        try:
            # asyncpg's close waits for every connection to be given back, without end.
            await asyncio.wait_for(handle.close(), _CLOSE_TIMEOUT_S)
        except TimeoutError:
            logger.warning("the database's connections did not close in time: cut off")
            handle.terminate()

    async def info(self) -> StoreInfo:
        """The schema version and ``synchronous_commit``, as PostgreSQL reports them
        (``journal_mode`` is ``"wal"``: PostgreSQL always writes ahead)."""

        async def body(db: Connection) -> StoreInfo:
            return StoreInfo(
                path=self.path,
                schema_version=await schema_version(db),
                journal_mode="wal",
                synchronous=str(await db.fetchval("SHOW synchronous_commit")),
            )

        return await self._transaction(body, write=False, what="reading the settings")

    # -- transactions -----------------------------------------------------------------

    async def _transaction(
        self,
        body: Callable[[Connection], Awaitable[_T]],
        *,
        write: bool,
        what: str,
    ) -> _T:
        """Run ``body`` in one transaction, in the order of
        :class:`~boardroom.server.store.base.StoreBase`."""

        def work(pool: asyncpg.Pool) -> Awaitable[_T]:
            return self._in_transaction(pool, body, write=write, what=what)

        return await asyncio.shield(self._schedule(work, write=write))

    async def _in_transaction(
        self,
        pool: asyncpg.Pool,
        body: Callable[[Connection], Awaitable[_T]],
        *,
        write: bool,
        what: str,
    ) -> _T:
        """Run ``body`` between BEGIN and COMMIT (ROLLBACK if it raises) on a
        connection of the pool; PostgreSQL's and asyncpg's errors become
        :class:`StorageFailedError`."""
        # READ COMMITTED for writes, with row locks where they read before writing;
        # REPEATABLE READ for reads: their statements all see one snapshot.
        isolation = "read_committed" if write else "repeatable_read"
        held: list[Connection] = []
        timeout = self._timeout
        if self._failed_at is not None:
            since = time.monotonic() - self._failed_at
            if since < FAIL_FAST_S:
                raise StorageUnavailableError(
                    f"{what} not tried in {self.path}: it failed {since:.1f} s ago"
                )
            timeout = min(timeout, PROBE_TIMEOUT_S)

        async def attempt() -> _T:
            db = await pool.acquire()
            held.append(db)
            async with db.transaction(isolation=isolation, readonly=not write):
                # With synchronous_commit on, COMMIT returns once the WAL is on disk.
                return await body(db)

        # A task of its own rather than asyncio.timeout: a timed-out transaction
        # rolls back, and the ROLLBACK would wait on the silent server in turn.
        # Cutting the connection ends both at once.
        task = asyncio.ensure_future(attempt())
        try:
            done, _ = await asyncio.wait({task}, timeout=timeout)
            if not done:
                _cut(held)
                task.cancel()
            try:
                result = await task
            except asyncio.CancelledError:
                if done:
                    raise
                raise TimeoutError(f"no answer in {timeout:g} s") from None
        except StoreError:
            raise  # the body's own refusals (and StorageFailedError is an OSError)
        except TRANSIENT_ERRORS as error:
            # The connection (and likely every one in the pool) is stale: cut it
            # rather than hand it back, and have the pool open new ones.
            if self._failed_at is None:
                logger.warning("the database %s is unavailable: %s", self.path, error)
            self._failed_at = time.monotonic()
            _cut(held)
            await pool.expire_connections()
            raise StorageUnavailableError(f"{what} failed in {self.path}: {error}") from error
        except DRIVER_ERRORS as error:
            raise StorageFailedError(f"{what} failed in {self.path}: {error}") from error
        finally:
            for db in held:
                with contextlib.suppress(*DRIVER_ERRORS):
                    await pool.release(db)
        if self._failed_at is not None:
            logger.warning("the database %s answers again", self.path)
            self._failed_at = None
        return result


def _cut(held: list[Connection]) -> None:
    """Close the connections in ``held`` at once, without a word to the server
    (whatever they were waiting on fails); one already closed is skipped."""
    for db in held:
        with contextlib.suppress(asyncpg.InterfaceError):
            db.terminate()
