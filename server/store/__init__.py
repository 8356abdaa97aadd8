"""Every game in one SQLite file: created, seated, started, each move, finished.

:class:`GameStore` is the server's one way to the database. SQLite runs in WAL mode
on a thread of its own (:class:`server.sqlite_thread.SQLiteThread`: the stdlib
driver, one trip from the loop per transaction), so the event loop never waits on
the disk. The store makes one promise above the others: **when**
:meth:`GameStore.append_move` **returns, the move survives a SIGKILL of the server
and a power cut**, so the room broadcasts a move only after that.

Use it as an async context manager, or call :meth:`~GameStore.open` and
:meth:`~GameStore.close` (from aiohttp's ``cleanup_ctx``)::

    async with GameStore("boardroom.db") as store:
        game_id = await store.create_game("K3F9", "tictactoe", (SeatRecord("ada"), None), at=now)
        await store.update_seat(game_id, Player.SECOND, SeatRecord("AI", PlayerKind.AI, "easy"))
        await store.start_game(game_id, at=now)
        await store.append_move(game_id, 0, "b2", at=now)
        await store.finish_game(game_id, Player.FIRST, Termination.LINE, at=now)

A room that only records a game once it starts (as :class:`server.recorder.GameRecorder`
does) creates it already started, in one transaction, with
``create_game(..., started_at=now)``.

After a crash, :meth:`~GameStore.unfinished_games` gives back every game to restore.

Concurrency and cancellation: each operation is one SQLite transaction, and
operations run one at a time in the order they were called, with one exception
that makes the store fast: moves appended while a transaction is under way are
**committed together** in the next one (group commit: one fsync for the lot
rather than one each), and each ``append_move`` still returns only once its own
move is on disk. A refused move in such a batch (stale, or its game not in play)
fails alone; the others are stored. Cancelling a caller
does not cut its transaction short: it runs to its end (commit or rollback) in
the background, the caller just does not learn which, and :meth:`~GameStore.close`
waits for it. So the database is never left half-written; a room whose
``append_move`` was cancelled should reload the game before writing again.

PostgreSQL is the store of a cluster: :class:`~server.store.postgres.PostgresGameStore`
keeps these contracts over one asyncpg pool (its package says what differs), and
:func:`open_store` gives the store for a database name, a file or a URL. The rest
of the server names either as :data:`Store`.

Records are append-only (see :mod:`server.core.records` for the order they are written
in). The schema enforces the same rules as the code, with CHECK constraints and
triggers, so that no other writer (the ``sqlite3`` shell) can break a record either.

Errors: :class:`StoreError` and its subtree (:mod:`server.store.errors` draws it), each
also the builtin it means (``GameNotFoundError`` is a ``LookupError``). A refused write
changes nothing.

The package, a module per job::

    errors       the exception tree
    sql          what runs on SQLite's thread: a transaction around a body, one value
    schema       every table, as one ordered list of migrations, and migrate()
    checks       the argument checks several parts share (before any transaction)
    base         StoreBase: the file opened and closed, its thread, transactions in order
    games        create, seat, start, append moves (group commit), finish, restore
    players      durable players: made, found by their token's hash, seen, revoked
    classroom    class mode: settings, students, a class's results and games
    tournaments  a class's tournaments: entrants, rounds, pairings and results
    ratings      the finished games the ratings replay
    analyses     post-game analyses and the hints given
    rows         the records both stores return, and their rows decoded
    postgres     the same store on PostgreSQL (a package of the same parts)

:class:`GameStore` is every part over one :class:`~server.store.base.StoreBase`: one
object that the app opens and closes, one connection, one order of transactions.
The parts import the base and never each other, except that the games' reader
(:func:`~server.store.games.load_games`) serves class mode too (``pyproject.toml``
holds these rules as import contracts).
"""

from __future__ import annotations

from typing import TypeAlias

from server.store.analyses import AnalysisStorage
from server.store.base import StoreInfo
from server.store.classroom import (
    ClassCodeRecord,
    ClassroomStorage,
    StudentRecord,
    StudentResults,
)
from server.store.errors import (
    ClassCodeTakenError,
    GameNotFoundError,
    GameStateError,
    InvalidRecordError,
    PlayerNotFoundError,
    SchemaVersionError,
    StaleWriteError,
    StorageFailedError,
    StoreClosedError,
    StoreError,
    StudentNotFoundError,
    TournamentNotFoundError,
    UnreadableRecordError,
)
from server.store.games import GamesStorage
from server.store.players import PlayersStorage
from server.store.postgres import PostgresGameStore
from server.store.ratings import RatingsStorage
from server.store.schema import SCHEMA_VERSION, migrate
from server.store.tournaments import (
    EntrantRecord,
    PairingRecord,
    TournamentRecord,
    TournamentStorage,
)

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


class GameStore(
    GamesStorage,
    PlayersStorage,
    ClassroomStorage,
    TournamentStorage,
    RatingsStorage,
    AnalysisStorage,
):
    """The games of one SQLite file, with its players, and what class mode, its
    tournaments and the ratings keep beside them. See the package docstring for the contracts.

    ``GameStore(path)`` does no I/O; :meth:`open` does. What ``path`` may be
    (a file, or ``":memory:"`` for tests): :class:`~server.store.base.StoreBase`.
    """


Store: TypeAlias = GameStore | PostgresGameStore
"""Either store: what the server annotates with. A union rather than a Protocol:
the backends are two and known, a Protocol would restate some forty signatures a
third time, and mypy checks every call made through a ``Store`` against both
classes (their public methods are kept alike by a test, test_server_store_api)."""

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
