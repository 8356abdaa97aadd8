"""Every game in one PostgreSQL database: the game store of a cluster.

:class:`PostgresGameStore` has the public API of :class:`boardroom.server.store.GameStore`,
both made of the same parts of :mod:`boardroom.server.store` (every method, its arguments,
checks, return type and typed errors written once there), and their contracts,
which :mod:`boardroom.server.store` states; what differs is said here. Several server
processes may use one database at once.

- **Durability**: :meth:`~PostgresGameStore.append_move` returns only once its
  move is committed, and PostgreSQL returns from a COMMIT only once it is flushed
  to its write-ahead log on disk, with ``synchronous_commit`` and ``fsync`` on:
  :meth:`~PostgresGameStore.open` checks both and refuses to run if either is off.
  Moves appended while a write is under way share the next transaction (group
  commit); a refused one fails alone.
- **Order**: writes run one at a time in the order they were called, and every
  operation sees the writes called before it (:mod:`boardroom.server.store.base`); reads run
  side by side on the pool. Between processes, a write that
  reads a game before writing it holds the game's row lock.
- **Schema**: the same tables, columns, constraints and append-only rules as
  SQLite's, as PL/pgSQL triggers, with its version in a ``schema_version`` table
  (:mod:`boardroom.server.store.postgres.schema`); a database from a newer Boardroom raises
  :class:`~boardroom.server.store.SchemaVersionError`.
- **Errors**: the same tree; PostgreSQL's and asyncpg's own (server down,
  connection lost, disk full) become :class:`~boardroom.server.store.StorageFailedError`.

The package is SQLite's sibling (:mod:`boardroom.server.store.sqlite`), with its modules
of the same names (but ``sql``): ``schema`` as ordered migrations with a
``schema_version`` table, ``base`` (:class:`~boardroom.server.store.postgres.base.PostgresBase`:
the pool, the settings checked, one transaction), and a module per part
supplying the SQL of that part of :mod:`boardroom.server.store`.

The methods, their contracts and argument checks, the order of transactions and
the group commit are :mod:`boardroom.server.store`'s, once for both backends; so are the
records and the row decoders (:mod:`boardroom.server.store.rows`).
"""

from __future__ import annotations

from boardroom.server.store.postgres.analyses import PostgresAnalyses
from boardroom.server.store.postgres.classroom import PostgresClassroom
from boardroom.server.store.postgres.games import PostgresGames
from boardroom.server.store.postgres.players import PostgresPlayers
from boardroom.server.store.postgres.ratings import PostgresRatings
from boardroom.server.store.postgres.tournaments import PostgresTournaments

__all__ = ["PostgresGameStore"]


class PostgresGameStore(
    PostgresGames,
    PostgresPlayers,
    PostgresClassroom,
    PostgresTournaments,
    PostgresRatings,
    PostgresAnalyses,
):
    """The games of one PostgreSQL database, with its players, and what class mode,
    its tournaments and the ratings keep beside them. See the package docstring.

    ``PostgresGameStore(url)`` does no I/O; :meth:`open` does. ``url`` is a
    ``postgresql://`` or ``postgres://`` URL
    (:class:`~boardroom.server.store.postgres.base.PostgresBase`).
    """
