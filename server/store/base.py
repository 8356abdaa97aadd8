"""What every store is over: the database opened and closed, and its transactions
run in the order they were called, whatever the backend.

:class:`StoreBase` holds a backend's handle on its database (SQLite's thread,
PostgreSQL's pool) while open, and keeps the order callers rely on:

- **Writes run one at a time, in the order they were called**: each write waits
  for the write called before it to end (a chain of tasks), so a room's writes
  land in the order it made them.
- **An operation sees every write called before it**: a read waits for the write
  called last before it, then runs; reads do not wait for each other.
- **Cancellation**: a transaction runs in a task of its own, and callers await it
  shielded, so a cancelled caller stops waiting and the transaction still ends
  with COMMIT or ROLLBACK; :meth:`~StoreBase.close` waits for every one under way.

A backend (:mod:`boardroom.server.store.sqlite`, :mod:`boardroom.server.store.postgres`) supplies
how to connect and disconnect, how one transaction runs on its handle, and the
SQL of each part; the parts (:mod:`boardroom.server.store.games` and the others) hold the
public methods, their contracts and their argument checks, once for both.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, Generic, Self, TypeVar

from boardroom.server.store.errors import StoreClosedError, StoreError
from boardroom.server.store.rows import StoreInfo

__all__ = ["SCHEMA_VERSION", "StoreBase", "StoreInfo"]

SCHEMA_VERSION = 12
"""The schema this code reads and writes, on either backend: a database of either
kind at version N holds the same tables (SQLite keeps it as ``PRAGMA
user_version``, PostgreSQL in a ``schema_version`` table)."""

_T = TypeVar("_T")
Handle = TypeVar("Handle")
"""A backend's open database: what a transaction of it runs on."""


class StoreBase(ABC, Generic[Handle]):
    """One database, shared by every part of the store, open between :meth:`open`
    and :meth:`close`. Creating the object does no I/O.

    A part reaches the database only through its backend's ``_transaction``, or,
    for the writes it batches itself (the group commit of moves), through
    :meth:`_schedule`, so that the order above holds and :meth:`close` waits."""

    def __init__(self) -> None:
        self._handle: Handle | None = None
        self._inflight: set[asyncio.Task[Any]] = set()
        # The write called last: the next write, and every read, waits for it.
        self._last_write: asyncio.Task[Any] | None = None

    @property
    @abstractmethod
    def path(self) -> str:
        """The database: a file, or a URL without its password."""

    @abstractmethod
    async def _connect(self) -> Handle:
        """Open the database, set it up and migrate its schema; close what was
        opened and raise if any of it fails."""

    @abstractmethod
    async def _disconnect(self, handle: Handle) -> None:
        """Close the database, once no transaction of this store is under way."""

    @abstractmethod
    async def info(self) -> StoreInfo:
        """How the open database is set up, as it reports it."""

    # -- life cycle -------------------------------------------------------------------

    async def open(self) -> None:
        """Open the database and bring its schema up to :data:`SCHEMA_VERSION`.

        Raises :class:`SchemaVersionError` for a database from a newer Boardroom and
        :class:`StorageFailedError` if it cannot be opened or used (the backend says
        what it checks)."""
        if self._handle is not None:
            raise StoreError(f"the store on {self.path} is already open")
        self._handle = await self._connect()

    async def close(self) -> None:
        """Wait for the operations under way, then close the database. Idempotent.

        Operations called after this starts raise :class:`StoreClosedError`.
        """
        handle, self._handle = self._handle, None
        if handle is None:
            return
        # Let every started transaction finish (they are never cancelled midway).
        await asyncio.gather(*self._inflight, return_exceptions=True)
        self._last_write = None
        await self._disconnect(handle)

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

    # -- transactions -----------------------------------------------------------------

    def _schedule(
        self, work: Callable[[Handle], Awaitable[_T]], *, write: bool
    ) -> asyncio.Task[_T]:
        """Start ``work`` on the open database in a task of its own, once the write
        called last has ended; a write becomes the one the next operations wait
        for. Raises :class:`StoreClosedError` if the store is not open."""
        handle = self._handle
        if handle is None:
            raise StoreClosedError(f"the store on {self.path} is not open")
        after = self._last_write

        async def run() -> _T:
            if after is not None:
                # Its outcome is its caller's. Waited on even once it has ended: the
                # loop turns that takes let the moves read meanwhile join this batch
                # (skipped, issue 29 measured smaller batches, more store CPU a move).
                await asyncio.wait([after])
            return await work(handle)

        task = asyncio.create_task(run())
        if write:
            self._last_write = task
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)
        return task
