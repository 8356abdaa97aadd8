"""Every game in one database: created, seated, started, each move, finished.

The store is the server's one way to the database, with one interface and two
backends: :class:`GameStore` on a SQLite file (:mod:`boardroom.server.store.sqlite`: one
server), :class:`PostgresGameStore` on PostgreSQL (:mod:`boardroom.server.store.postgres`:
the store of a cluster). :func:`open_store` gives the store for a database name,
a file or a URL; the rest of the server names either as :data:`Store`. The store
makes one promise above the others: **when** ``append_move`` **returns, the move
survives a SIGKILL of the server and a power cut**, so the room broadcasts a move
only after that.

Use it as an async context manager, or call ``open()`` and ``close()`` (from
aiohttp's ``cleanup_ctx``)::

    async with GameStore("boardroom.db") as store:
        game_id = await store.create_game("K3F9", "tictactoe", (SeatRecord("ada"), None), at=now)
        await store.update_seat(game_id, Player.SECOND, SeatRecord("AI", PlayerKind.AI, "easy"))
        await store.start_game(game_id, at=now)
        await store.append_move(game_id, 0, "b2", at=now)
        await store.finish_game(game_id, Player.FIRST, Termination.LINE, at=now)

A room that only records a game once it starts (as :class:`boardroom.server.recorder.GameRecorder`
does) creates it already started, in one transaction, with
``create_game(..., started_at=now)``.

After a crash, ``unfinished_games()`` gives back every game to restore.

Concurrency and cancellation (:mod:`boardroom.server.store.base`): each operation is one
transaction; writes run one at a time in the order they were called, and every
operation sees the writes called before it, with one exception that makes the
store fast: moves appended while a write is under way are **committed together**
in the next transaction (group commit: one flush for the lot rather than one
each), and each ``append_move`` still returns only once its own move is on disk.
A refused move in such a batch (stale, or its game not in play) fails alone; the
others are stored. A game's creation and its end join the batch too, and the move
that ends a game goes with that end in one write, both or neither
(``append_final_move``). Cancelling a caller does not cut its transaction short: it
runs to its end (commit or rollback) in the background, the caller just does not
learn which, and ``close()`` waits for it. So the database is never left
half-written; a room whose ``append_move`` was cancelled should reload the game
before writing again.

Records are append-only (see :mod:`boardroom.server.core.records` for the order they are written
in). Each backend's schema enforces the same rules as the code, with CHECK
constraints and triggers, so that no other writer (the ``sqlite3`` shell, ``psql``)
can break a record either; the list of endings is the code's alone
(:class:`~boardroom.server.core.records.Termination`): a game a newer Boardroom ended in a
way this one does not know reads as :class:`UnreadableRecordError`.

Errors: :class:`StoreError` and its subtree (:mod:`boardroom.server.store.errors` draws it), each
also the builtin it means (``GameNotFoundError`` is a ``LookupError``). A refused write
changes nothing.

The package: the interface, once, and a backend per database::

    errors       the exception tree
    rows         the records both backends return, and their rows decoded
    checks       the argument checks (before any transaction)
    base         StoreBase: open and close, transactions in order, SCHEMA_VERSION
    games        create, seat, start, append moves (group commit), finish, restore
    players      durable players: made, found by their token's hash, seen, revoked
    classroom    class mode: settings, students, a class's results and games
    tournaments  a class's tournaments: entrants, rounds, pairings and results
    ratings      the finished games the ratings replay
    analyses     post-game analyses and the hints given
    sqlite       the SQL of each part on SQLite, and GameStore
    postgres     the same on PostgreSQL, and PostgresGameStore

Each part (``games``, ``players``...) is an abstract class over
:class:`~boardroom.server.store.base.StoreBase` with the public methods, their contracts and
argument checks; a backend's part of the same name subclasses it with only its
SQL (the abstract ``_`` methods), and each backend's store combines its parts:
one object that the app opens and closes, one order of transactions. The parts
import the base and never each other, except that a backend's games reader
(``load_games``) and players' insert serve its class mode too (``pyproject.toml``
holds these rules as import contracts).
"""

from __future__ import annotations

from typing import TypeAlias

from boardroom.server.store.base import SCHEMA_VERSION, StoreInfo
from boardroom.server.store.errors import (
    ClassCodeTakenError,
    GameNotFoundError,
    GameStateError,
    InvalidRecordError,
    PlayerNotFoundError,
    SchemaVersionError,
    StaleWriteError,
    StorageFailedError,
    StorageUnavailableError,
    StoreClosedError,
    StoreError,
    StudentNotFoundError,
    TournamentNotFoundError,
    UnreadableRecordError,
)
from boardroom.server.store.postgres import PostgresGameStore
from boardroom.server.store.rows import (
    ClassCodeRecord,
    EntrantRecord,
    PairingRecord,
    StudentRecord,
    StudentResults,
    TournamentRecord,
)
from boardroom.server.store.sqlite import GameStore
from boardroom.server.store.sqlite.schema import migrate

__all__ = [
    "SCHEMA_VERSION",
    "ClassCodeRecord",
    "ClassCodeTakenError",
    "EntrantRecord",
    "GameNotFoundError",
    "GameStateError",
    "GameStore",
    "InvalidRecordError",
    "PairingRecord",
    "PlayerNotFoundError",
    "PostgresGameStore",
    "SchemaVersionError",
    "StaleWriteError",
    "StorageFailedError",
    "StorageUnavailableError",
    "Store",
    "StoreClosedError",
    "StoreError",
    "StoreInfo",
    "StudentNotFoundError",
    "StudentRecord",
    "StudentResults",
    "TournamentNotFoundError",
    "TournamentRecord",
    "UnreadableRecordError",
    "is_postgres_url",
    "migrate",
    "open_store",
]


Store: TypeAlias = GameStore | PostgresGameStore
"""Either store: what the server annotates with. Both have the public methods of
the parts of this package, written once; a union rather than a class combining
the abstract parts, so that mypy still checks each call against both backends
(their public methods are kept alike by a test, test_server_store_api)."""

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(database: str) -> bool:
    """Whether ``database`` names a PostgreSQL database (a ``postgresql://`` or
    ``postgres://`` URL) rather than a SQLite file."""
    return database.startswith(_POSTGRES_SCHEMES)


def open_store(database: str) -> Store:
    """The store of ``database``, not opened yet: a :class:`PostgresGameStore` for
    a ``postgresql://`` or ``postgres://`` URL, else a :class:`GameStore` on the
    SQLite file of that path. Use it as ``async with open_store(database) as store``,
    or call ``open()`` and ``close()``."""
    if is_postgres_url(database):
        return PostgresGameStore(database)
    return GameStore(database)
