"""One server per database file: an exclusive lock beside it.

Two servers on one file would both restore the same games and both write moves
to them. SQLite would keep each write whole, but the two rooms would disagree
about the game. So a server takes an exclusive ``flock`` on ``<database>.lock``
for its whole life and refuses to start when another holds it. The lock is
released by the OS when the process dies, however it dies (SIGKILL included),
so a crash never leaves a stale lock behind.

A PostgreSQL database (a ``postgresql://`` or ``postgres://`` URL) takes no lock
file: it is the store of a cluster, whose servers share it on purpose, and a URL
names no folder to put one in. Who owns which room there is the cluster's business.
"""

from __future__ import annotations

import os

try:
    import fcntl
except ImportError:  # Windows: no flock; one server per file is then up to the operator
    fcntl = None  # type: ignore[assignment]


class DatabaseInUseError(RuntimeError):
    """Another running server holds the database."""


class DatabaseLock:
    """The exclusive lock for ``database`` (``:memory:`` needs none)."""

    def __init__(self, database: str) -> None:
        self.path = f"{database}.lock"
        self._fd: int | None = None
        # The URL schemes of boardroom.server.store.is_postgres_url (a layer above this one).
        is_url = database.startswith(("postgresql://", "postgres://"))
        self._needed = database != ":memory:" and not is_url and fcntl is not None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`DatabaseInUseError` at once."""
        if not self._needed or self._fd is not None:
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DatabaseInUseError(
                f"another Boardroom server is using {self.path.removesuffix('.lock')}: "
                "stop it, or give this one another --database"
            ) from None
        self._fd = fd

    def release(self) -> None:
        """Give the lock back (idempotent); the lock file stays, harmlessly."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
