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

Class mode (:mod:`server.classroom`) keeps two small tables beside the games:
``settings`` (the teacher's admin token, made once and kept) and ``students`` (a
class's roster: :class:`StudentRecord`), and reads a class's games and results
through the seats' sessions. Its tournaments (:mod:`server.tournaments`) keep
four more: the tournaments, their entrants, their rounds (with the bye) and
every pairing with its room, game and result (:class:`TournamentRecord`).

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

Records are append-only (see :mod:`server.core.records` for the order they are written
in). The schema enforces the same rules as the code, with CHECK constraints and
triggers, so that no other writer (the ``sqlite3`` shell) can break a record either.

Exceptions, each also the builtin it means::

    StoreError
    ├── GameNotFoundError(StoreError, LookupError)       no game with that id
    ├── StudentNotFoundError(StoreError, LookupError)    no student with that id
    ├── TournamentNotFoundError(StoreError, LookupError) no tournament with that id
    ├── StaleWriteError(StoreError, ValueError)          a ply that is not the next one
    ├── GameStateError(StoreError, ValueError)           a write the game's state forbids
    ├── InvalidRecordError(StoreError, ValueError)       arguments that make no valid record
    ├── SchemaVersionError(StoreError, RuntimeError)     the file is from a newer Boardroom
    ├── StoreClosedError(StoreError, RuntimeError)       used before open() or after close()
    └── StorageFailedError(StoreError, OSError)          SQLite failed: disk full, I/O error,
                                                         corrupt file, lock held too long

A refused write (any of these) changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import os
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, TypeVar

from server.core.records import (
    GameRecord,
    GameState,
    MoveRecord,
    PgnResult,
    PlayerKind,
    SeatRecord,
    Termination,
)
from server.sqlite_thread import SQLiteThread
from shared.errors import GameError
from shared.games import Player, get_game

__all__ = [
    "SCHEMA_VERSION",
    "EntrantRecord",
    "GameNotFoundError",
    "GameStateError",
    "GameStore",
    "InvalidRecordError",
    "PairingRecord",
    "SchemaVersionError",
    "StaleWriteError",
    "StorageFailedError",
    "StoreClosedError",
    "StoreError",
    "StoreInfo",
    "StudentNotFoundError",
    "StudentRecord",
    "StudentResults",
    "TournamentNotFoundError",
    "TournamentRecord",
    "migrate",
]

_T = TypeVar("_T")


# -- errors ---------------------------------------------------------------------------


class StoreError(Exception):
    """Root of every error the store raises on purpose."""


class GameNotFoundError(StoreError, LookupError):
    """No game has the id given."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id} in the store")
        self.game_id = game_id


class StudentNotFoundError(StoreError, LookupError):
    """No student has the id given."""

    def __init__(self, student_id: str) -> None:
        super().__init__(f"no student with id {student_id!r} in the store")
        self.student_id = student_id


class TournamentNotFoundError(StoreError, LookupError):
    """No tournament has the id given."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"no tournament with id {tournament_id} in the store")
        self.tournament_id = tournament_id


class StaleWriteError(StoreError, ValueError):
    """A move whose ply is not the next one of its game: a duplicate, or a write
    made against a record that has moved on. ``expected_ply`` is the next ply."""

    def __init__(self, game_id: int, ply: int, expected_ply: int) -> None:
        what = "already stored" if ply < expected_ply else "ahead of the record"
        super().__init__(
            f"game {game_id}: ply {ply} is {what}; the next move must have ply {expected_ply}"
        )
        self.game_id = game_id
        self.ply = ply
        self.expected_ply = expected_ply


class GameStateError(StoreError, ValueError):
    """A write the game's state forbids: a move before the start or after the end,
    starting twice, finishing twice, changing a seat once the game has started."""


class InvalidRecordError(StoreError, ValueError):
    """Arguments that describe no valid record: an unknown game, options that are
    not a JSON object, an empty name, a winner where the ending has none, a time
    that is not a finite number of Unix seconds, and the like."""


class SchemaVersionError(StoreError, RuntimeError):
    """The database file was written by a newer Boardroom (its schema version is
    higher than :data:`SCHEMA_VERSION`); this one will not touch it."""


class StoreClosedError(StoreError, RuntimeError):
    """The store was used before :meth:`GameStore.open` or after :meth:`GameStore.close`."""


class StorageFailedError(StoreError, OSError):
    """SQLite could not do the operation (disk full, I/O error, corrupt file, write
    lock held too long by another process); the operation did not take effect.
    The SQLite error is the ``__cause__``."""


# -- schema ---------------------------------------------------------------------------

SCHEMA_VERSION = 4
"""The schema this code reads and writes, kept in the file as ``PRAGMA user_version``."""

_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # Version 0 (an empty file) to 1. A migration is frozen once released: the next
    # change to the schema is a new entry, never an edit here. The CHECK lists spell
    # out the enums of server.core.records as they were at this version.
    (
        # AUTOINCREMENT: a game's id is its address (GET /api/games/{id}), so an id
        # is never handed out again, even if an operator purges old games.
        """
        CREATE TABLE games (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            room        TEXT    NOT NULL CHECK (room <> ''),
            game        TEXT    NOT NULL,
            options     TEXT    NOT NULL,
            state       TEXT    NOT NULL DEFAULT 'waiting'
                                CHECK (state IN ('waiting', 'playing', 'finished')),
            winner      INTEGER CHECK (winner IN (0, 1)),
            termination TEXT    CHECK (termination IN ('line', 'full_board', 'resignation',
                                       'agreement', 'timeout', 'abandonment', 'aborted')),
            created_at  REAL    NOT NULL,
            started_at  REAL,
            finished_at REAL,
            CHECK ((state = 'finished') = (termination IS NOT NULL AND finished_at IS NOT NULL)),
            CHECK (state <> 'playing' OR started_at IS NOT NULL),
            CHECK (winner IS NULL OR state = 'finished')
        )
        """,
        # Serves both unfinished_games() at start-up and the per-state counts of /metrics.
        "CREATE INDEX games_by_state ON games (state)",
        "CREATE INDEX games_by_room ON games (room)",
        """
        CREATE TABLE seats (
            game_id  INTEGER NOT NULL REFERENCES games (id),
            side     INTEGER NOT NULL CHECK (side IN (0, 1)),
            name     TEXT    NOT NULL CHECK (name <> ''),
            kind     TEXT    NOT NULL CHECK (kind IN ('human', 'bot', 'ai')),
            ai_level TEXT,
            CHECK ((kind = 'ai') = (ai_level IS NOT NULL)),
            PRIMARY KEY (game_id, side)
        ) WITHOUT ROWID
        """,
        # WITHOUT ROWID keyed by (game_id, ply): a game's moves sit together, in order.
        """
        CREATE TABLE moves (
            game_id  INTEGER NOT NULL REFERENCES games (id),
            ply      INTEGER NOT NULL CHECK (ply >= 0),
            move     TEXT    NOT NULL CHECK (move <> ''),
            at       REAL    NOT NULL,
            clock_ms INTEGER CHECK (clock_ms >= 0),
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID
        """,
        """
        CREATE TRIGGER moves_append_in_order BEFORE INSERT ON moves
        WHEN NEW.ply <> (SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game_id = NEW.game_id)
          OR (SELECT state FROM games WHERE id = NEW.game_id) IS NOT 'playing'
        BEGIN
            SELECT RAISE(ABORT, 'a move must have the next ply of a game in play');
        END
        """,
        """
        CREATE TRIGGER moves_are_never_updated BEFORE UPDATE ON moves
        BEGIN
            SELECT RAISE(ABORT, 'moves are append-only');
        END
        """,
        """
        CREATE TRIGGER moves_are_never_deleted BEFORE DELETE ON moves
        BEGIN
            SELECT RAISE(ABORT, 'moves are append-only');
        END
        """,
    ),
    # Version 1 to 2: what a restart needs to give a room back to its players.
    (
        # The session id (not the resume token) holding a human or bot seat, so
        # that a restored seat can be reclaimed; NULL for the AI, and for seats
        # stored before this version. Private: never in an export.
        "ALTER TABLE seats ADD COLUMN session TEXT CHECK (session <> '')",
        # The game's number within its room: 1, then 2, 3, ... for rematches.
        # Games stored before this version were each a room's first.
        "ALTER TABLE games ADD COLUMN number INTEGER NOT NULL DEFAULT 1 CHECK (number >= 1)",
    ),
    # Version 2 to 3: class mode (server/classroom).
    (
        # Values the server makes once and keeps across restarts, by fixed keys
        # of the code: the teacher's admin token, so the teacher's link lasts.
        """
        CREATE TABLE settings (
            key   TEXT PRIMARY KEY CHECK (key <> ''),
            value TEXT NOT NULL
        ) WITHOUT ROWID
        """,
        # A class's roster: one student per session that said hello in class
        # mode. The id is public (the admin API names students by it); the
        # session is private and links a student to their seats. A removed
        # student is kept (marked), so their games still export under a name.
        """
        CREATE TABLE students (
            id         TEXT    PRIMARY KEY CHECK (id <> ''),
            class      TEXT    NOT NULL CHECK (class <> ''),
            session    TEXT    NOT NULL CHECK (session <> ''),
            name       TEXT    NOT NULL CHECK (name <> ''),
            kind       TEXT    NOT NULL CHECK (kind IN ('human', 'bot')),
            removed    INTEGER NOT NULL DEFAULT 0 CHECK (removed IN (0, 1)),
            first_seen REAL    NOT NULL,
            UNIQUE (class, session)
        ) WITHOUT ROWID
        """,
        # A class's games and results are found from its students' sessions.
        "CREATE INDEX seats_by_session ON seats (session)",
    ),
    # Version 3 to 4: a class's tournaments (server/tournaments).
    (
        """
        CREATE TABLE tournaments (
            id              INTEGER PRIMARY KEY AUTOINCREMENT,
            class           TEXT    NOT NULL CHECK (class <> ''),
            name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
            game            TEXT    NOT NULL,
            format          TEXT    NOT NULL CHECK (format IN ('round_robin', 'swiss')),
            rounds          INTEGER NOT NULL CHECK (rounds >= 1),
            double          INTEGER NOT NULL DEFAULT 0 CHECK (double IN (0, 1)),
            clock           TEXT    NOT NULL,
            no_show_seconds REAL    NOT NULL CHECK (no_show_seconds > 0),
            status          TEXT    NOT NULL DEFAULT 'running'
                                    CHECK (status IN ('running', 'finished', 'cancelled')),
            created_at      REAL    NOT NULL,
            finished_at     REAL,
            CHECK ((status = 'running') = (finished_at IS NULL)),
            CHECK (double = 0 OR format = 'round_robin')
        )
        """,
        # One tournament at a time per class: the director checks first, this holds.
        "CREATE UNIQUE INDEX tournaments_one_running ON tournaments (class)"
        " WHERE status = 'running'",
        # Entrants in seed order: a roster student (by its public id) or an AI level.
        """
        CREATE TABLE tournament_entrants (
            tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
            seed          INTEGER NOT NULL CHECK (seed >= 1),
            entrant       TEXT    NOT NULL CHECK (entrant GLOB 'student:?*' OR entrant IN
                                  ('ai:random', 'ai:easy', 'ai:medium', 'ai:hard', 'ai:perfect')),
            name          TEXT    NOT NULL CHECK (name <> ''),
            kind          TEXT    NOT NULL CHECK (kind IN ('human', 'bot', 'ai')),
            withdrawn     INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
            CHECK ((kind = 'ai') = (entrant GLOB 'ai:*')),
            PRIMARY KEY (tournament_id, entrant),
            UNIQUE (tournament_id, seed)
        ) WITHOUT ROWID
        """,
        # A round exists once it is paired: its pairings come in the same transaction.
        """
        CREATE TABLE tournament_rounds (
            tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
            round         INTEGER NOT NULL CHECK (round >= 1),
            bye           TEXT,
            opened_at     REAL    NOT NULL,
            PRIMARY KEY (tournament_id, round),
            FOREIGN KEY (tournament_id, bye) REFERENCES tournament_entrants (tournament_id, entrant)
        ) WITHOUT ROWID
        """,
        # Each pairing of a round, board by board: its room (NULL until opened, or
        # never for a game decided without one), the game played there, the
        # no-show deadline, and the result once known (then never changed).
        """
        CREATE TABLE tournament_games (
            tournament_id INTEGER NOT NULL,
            round         INTEGER NOT NULL,
            board         INTEGER NOT NULL CHECK (board >= 1),
            first         TEXT    NOT NULL,
            second        TEXT    NOT NULL CHECK (second <> first),
            room          TEXT    CHECK (room <> ''),
            game_id       INTEGER REFERENCES games (id),
            starts_by     REAL,
            result        TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2', '+:-', '-:+', '-:-')),
            CHECK (game_id IS NULL OR room IS NOT NULL),
            PRIMARY KEY (tournament_id, round, board),
            FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round),
            FOREIGN KEY (tournament_id, first)
                REFERENCES tournament_entrants (tournament_id, entrant),
            FOREIGN KEY (tournament_id, second)
                REFERENCES tournament_entrants (tournament_id, entrant)
        ) WITHOUT ROWID
        """,
        """
        CREATE TRIGGER tournament_results_are_final BEFORE UPDATE ON tournament_games
        WHEN OLD.result IS NOT NULL
        BEGIN
            SELECT RAISE(ABORT, 'a tournament game with a result does not change');
        END
        """,
    ),
)
assert len(_MIGRATIONS) == SCHEMA_VERSION


def migrate(db: sqlite3.Connection) -> int:
    """Bring the schema of ``db`` up to :data:`SCHEMA_VERSION` and return it.

    Call inside a write transaction (``BEGIN IMMEDIATE``), so that the steps and
    the new ``user_version`` land together or not at all, and so that two
    processes opening a new file at once cannot both create the tables. Raises
    :class:`SchemaVersionError` for a file from a newer schema.
    """
    version = _scalar(db, "PRAGMA user_version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"the database has schema version {version}, newer than this Boardroom's "
            f"({SCHEMA_VERSION}): upgrade Boardroom, or use another database file"
        )
    for step in range(version, SCHEMA_VERSION):
        for statement in _MIGRATIONS[step]:
            db.execute(statement)
        # user_version is in the file header, written by this same transaction.
        db.execute(f"PRAGMA user_version = {step + 1:d}")
    return SCHEMA_VERSION


# -- the store ------------------------------------------------------------------------

_BUSY_TIMEOUT_S = 5.0
"""How long to wait for the write lock held by another process (the ``sqlite3``
shell, a backup) before failing: well beyond any such hold, and still bounded."""

_SYNCHRONOUS_NAMES = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


@dataclass(frozen=True, slots=True)
class StoreInfo:
    """How the open database is set up, read back from SQLite (for logs and checks)."""

    path: str
    schema_version: int
    journal_mode: str
    """``"wal"``."""
    synchronous: str
    """``"FULL"``: every commit is synced to disk before it returns."""


@dataclass(frozen=True, slots=True)
class StudentRecord:
    """One student of a class (class mode). ``id`` is public: the teacher's API
    names the student by it. ``session`` is the session id (a
    :class:`~server.core.records.SeatRecord`'s ``session``) that links the student to
    their seats; private, so left out of ``repr``. ``kind`` is
    :attr:`~PlayerKind.HUMAN` or :attr:`~PlayerKind.BOT`; ``first_seen`` Unix seconds."""

    id: str
    class_name: str
    session: str = field(repr=False)
    name: str
    kind: PlayerKind
    first_seen: float
    removed: bool = False


@dataclass(frozen=True, slots=True)
class EntrantRecord:
    """One entrant of a tournament: ``entrant`` is ``student:<id>`` or ``ai:<level>``;
    ``name`` and ``kind`` (human, bot or ai) as they were when it was made."""

    entrant: str
    name: str
    kind: PlayerKind
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class PairingRecord:
    """One game of a tournament round: ``first`` and ``second`` are entrants;
    ``room`` and ``starts_by`` (the no-show deadline, Unix seconds) once its room
    opened, ``game_id`` once its game started, ``result`` once decided (the
    notation of :class:`server.tournaments.players.Outcome`)."""

    round: int
    board: int
    first: str
    second: str
    room: str | None = None
    game_id: int | None = None
    starts_by: float | None = None
    result: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament as stored. ``clock`` is the protocol's ``Clock`` as a JSON
    object; ``entrants`` are in seed order; ``byes`` has one entry per round
    paired so far (the entrant sitting it out, or None); ``pairings`` are in
    round then board order."""

    id: int
    class_name: str
    name: str
    game: str
    format: str
    rounds: int
    double: bool
    clock: dict[str, Any]
    no_show_seconds: float
    status: str
    created_at: float
    finished_at: float | None
    entrants: tuple[EntrantRecord, ...]
    byes: dict[int, str | None]
    pairings: tuple[PairingRecord, ...]


@dataclass(frozen=True, slots=True)
class StudentResults:
    """A student's finished games in their class: ``played`` counts them all, so
    ``played - won - drawn - lost`` ended with no result (aborted, or both gone)."""

    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0


class GameStore:
    """The games of one SQLite file. See the module docstring for the contracts.

    ``path`` is the database file (created if missing, with its directory already
    there); ``":memory:"`` gives a private in-memory database for tests, with no
    durability. Creating the object does no I/O; :meth:`open` does.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._path = os.fspath(path)
        # One connection on one thread, one whole transaction per call: statements of
        # two operations never interleave, and transactions run in the order called.
        self._db: SQLiteThread | None = None
        self._inflight: set[asyncio.Task[Any]] = set()
        self._pending_moves: list[_PendingMove] = []
        self._move_writer: asyncio.Task[None] | None = None

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    # -- life cycle -------------------------------------------------------------------

    async def open(self) -> None:
        """Open the file, set WAL and synchronous=FULL, and migrate the schema.

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
            self._db = db
            await self._transaction(migrate, write=True, what="migrating the schema")
        except BaseException:
            self._db = None
            await db.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        # isolation_level=None: the stdlib driver opens no transactions of its own;
        # each operation says BEGIN and COMMIT itself.
        return sqlite3.connect(self._path, isolation_level=None, timeout=_BUSY_TIMEOUT_S)

    def _configure(self, db: sqlite3.Connection) -> None:
        try:
            # WAL: readers never block the writer, and a commit appends to one file.
            # It needs shared memory, so the file must be on a local filesystem.
            mode = _scalar(db, "PRAGMA journal_mode = WAL")
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

    async def __aenter__(self) -> GameStore:
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
            synchronous = _scalar(db, "PRAGMA synchronous")
            return StoreInfo(
                path=self._path,
                schema_version=int(_scalar(db, "PRAGMA user_version")),
                journal_mode=str(_scalar(db, "PRAGMA journal_mode")),
                synchronous=_SYNCHRONOUS_NAMES.get(synchronous, str(synchronous)),
            )

        return await self._transaction(body, write=False, what="reading the settings")

    # -- writes -----------------------------------------------------------------------

    async def create_game(
        self,
        room: str,
        game: str,
        seats: Sequence[SeatRecord | None] = (None, None),
        *,
        options: Mapping[str, Any] | None = None,
        at: float,
        number: int = 1,
        started_at: float | None = None,
    ) -> int:
        """Store a new game and return its id.

        ``room`` is the room's code; ``game`` a game name, stored in its canonical
        form (``"mnk-3-3-3"`` is stored as ``"tictactoe"``); ``seats`` the players
        already seated, first player's seat first, None where empty; ``options``
        a JSON object (public or private, who moves first, clock settings), stored
        as given; ``at`` the creation time; ``number`` the game's number within
        its room (1, then 2, 3, ... for rematches).

        The game is :attr:`~GameState.WAITING`, unless ``started_at`` is given:
        then it is created already :attr:`~GameState.PLAYING` from that time, in
        the same transaction (as :meth:`start_game` would, so both seats must be
        taken), and no crash can leave it created but not started.
        """
        if not isinstance(room, str) or not room:
            raise InvalidRecordError(f"room must be a non-empty string, not {room!r}")
        name = _canonical_game(game)
        seat_rows = _seat_rows(seats)
        options_text = _options_json(options)
        created_at = _check_time("at", at)
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise InvalidRecordError(f"number must be an int of at least 1, not {number!r}")
        state, start = GameState.WAITING, None
        if started_at is not None:
            state, start = GameState.PLAYING, _check_time("started_at", started_at)
            if len(seat_rows) != 2:
                raise InvalidRecordError("a game created already started needs both seats taken")

        def body(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (room, number, game, options, state, created_at, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (room, number, name, options_text, state.value, created_at, start),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            db.executemany(
                "INSERT INTO seats (game_id, side, name, kind, ai_level, session)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, *row) for row in seat_rows],
            )
            return game_id

        return await self._transaction(body, write=True, what=f"creating a {name} game")

    async def update_seat(self, game_id: int, side: Player, player: SeatRecord | None) -> None:
        """Put ``player`` in seat ``side`` (replacing whoever was there), or empty
        it with None. Only while the game is :attr:`~GameState.WAITING`: the players
        of a started game are part of its record."""
        _check_game_id(game_id)
        side = _check_side(side)
        row = None if player is None else _seat_row(player)

        def body(db: sqlite3.Connection) -> None:
            state = _state_of(db, game_id)
            if state is not GameState.WAITING:
                raise GameStateError(
                    f"game {game_id} is {state.value}: seats can change only before it starts"
                )
            if row is None:
                db.execute("DELETE FROM seats WHERE game_id = ? AND side = ?", (game_id, int(side)))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO seats (game_id, side, name, kind, ai_level, session)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, int(side), *row),
                )

        await self._transaction(body, write=True, what=f"seating game {game_id}")

    async def start_game(self, game_id: int, at: float) -> None:
        """Mark the game :attr:`~GameState.PLAYING` from ``at``; moves may follow.

        Raises :class:`GameStateError` unless it is waiting with both seats taken.
        """
        _check_game_id(game_id)
        started_at = _check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            state = _state_of(db, game_id)
            if state is not GameState.WAITING:
                raise GameStateError(f"game {game_id} is {state.value}: it cannot start again")
            seated = _scalar(db, "SELECT count(*) FROM seats WHERE game_id = ?", (game_id,))
            if seated != 2:
                raise GameStateError(f"game {game_id} cannot start with an empty seat")
            db.execute(
                "UPDATE games SET state = 'playing', started_at = ? WHERE id = ?",
                (started_at, game_id),
            )

        await self._transaction(body, write=True, what=f"starting game {game_id}")

    async def append_move(
        self, game_id: int, ply: int, move: str, at: float, clock_ms: int | None = None
    ) -> None:
        """Append the move ``move`` (its notation) at ``ply`` to a game in play.

        When this returns, the move is on disk and survives a crash or a power
        cut: only then may the room announce it. ``ply`` is the number of moves
        before this one (:attr:`GameRecord.next_ply`), so a duplicate or an
        out-of-order write raises :class:`StaleWriteError`, and a game not in play
        :class:`GameStateError`; neither changes anything. ``at`` is when the
        move was made and ``clock_ms`` the mover's time left when it moved,
        before any increment (None without a clock). The rules are the room's
        business: the store does not check that the move is legal.
        """
        _check_game_id(game_id)
        if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
            raise InvalidRecordError(f"ply must be an int of at least 0, not {ply!r}")
        if not isinstance(move, str) or not move or any(c.isspace() for c in move):
            raise InvalidRecordError(
                f"move must be one move's notation, non-empty and without spaces, not {move!r}"
            )
        made_at = _check_time("at", at)
        if clock_ms is not None and (
            not isinstance(clock_ms, int) or isinstance(clock_ms, bool) or clock_ms < 0
        ):
            raise InvalidRecordError(f"clock_ms must be None or an int >= 0, not {clock_ms!r}")

        db = self._db
        if db is None:
            raise StoreClosedError(f"the store on {self._path} is not open")
        stored: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending_moves.append(_PendingMove(game_id, ply, move, made_at, clock_ms, stored))
        if self._move_writer is None:
            self._move_writer = asyncio.create_task(self._write_pending_moves(db))
            self._inflight.add(self._move_writer)
            self._move_writer.add_done_callback(self._inflight.discard)
        # Shielded: a cancelled caller stops waiting; its move is stored or not as a whole.
        await asyncio.shield(stored)

    async def _write_pending_moves(self, db: SQLiteThread) -> None:
        """Commit the moves waiting, a batch per transaction, until none wait.

        It holds ``db`` from its start: :meth:`close` waits for it (it is in
        ``_inflight``), so the moves appended before ``close`` are all written."""
        try:
            while self._pending_moves:
                batch, self._pending_moves = self._pending_moves, []
                what = f"storing {len(batch)} move{'s' if len(batch) > 1 else ''}"
                try:
                    refusals = await self._run_transaction(
                        db, functools.partial(_append_moves, batch), write=True, what=what
                    )
                except BaseException as error:
                    for pending in batch:
                        if not pending.stored.done():
                            pending.stored.set_exception(error)
                    if not isinstance(error, Exception):
                        raise
                    continue
                for pending, refusal in zip(batch, refusals, strict=True):
                    if pending.stored.done():
                        continue
                    if refusal is None:
                        pending.stored.set_result(None)
                    else:
                        pending.stored.set_exception(refusal)
        finally:
            self._move_writer = None

    async def finish_game(
        self, game_id: int, winner: Player | None, termination: Termination, at: float
    ) -> None:
        """Record the end of the game: ``winner`` (None for a draw or no result),
        how it ended, and when. Nothing can be written to it afterwards.

        ``winner`` must fit ``termination`` (:meth:`Termination.allows`), else
        :class:`InvalidRecordError`. A game that never started can only be
        :attr:`~Termination.ABORTED`; a finished game cannot finish again
        (:class:`GameStateError`).
        """
        _check_game_id(game_id)
        if not isinstance(termination, Termination):
            raise InvalidRecordError(f"termination must be a Termination, not {termination!r}")
        winner = None if winner is None else _check_side(winner)
        if not termination.allows(winner):
            having = "no winner" if winner is None else f"a winner ({winner.symbol})"
            raise InvalidRecordError(f"a game ended by {termination.value} cannot have {having}")
        finished_at = _check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            state = _state_of(db, game_id)
            if state is GameState.FINISHED:
                raise GameStateError(f"game {game_id} is already finished")
            if state is GameState.WAITING and termination is not Termination.ABORTED:
                raise GameStateError(
                    f"game {game_id} never started: it can end only as aborted, "
                    f"not by {termination.value}"
                )
            db.execute(
                "UPDATE games SET state = 'finished', winner = ?, termination = ?,"
                " finished_at = ? WHERE id = ?",
                (None if winner is None else int(winner), termination.value, finished_at, game_id),
            )

        await self._transaction(body, write=True, what=f"finishing game {game_id}")

    # -- reads ------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord:
        """The whole record of one game. Raises :class:`GameNotFoundError`."""
        _check_game_id(game_id)

        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return _load_games(db, "id", (game_id,))

        records = await self._transaction(body, write=False, what=f"reading game {game_id}")
        if not records:
            raise GameNotFoundError(game_id)
        return records[0]

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game waiting or in play, whole, oldest first: what the server
        restores after a restart."""

        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return _load_games(db, "unfinished", ())

        return await self._transaction(body, write=False, what="reading unfinished games")

    async def games_by_state(self) -> dict[GameState, int]:
        """How many games are in each state (every state present), for ``/metrics``."""

        def body(db: sqlite3.Connection) -> dict[GameState, int]:
            counts = dict.fromkeys(GameState, 0)
            for state, count in db.execute("SELECT state, count(*) FROM games GROUP BY state"):
                counts[GameState(state)] = count
            return counts

        return await self._transaction(body, write=False, what="counting games")

    # -- class mode -------------------------------------------------------------------

    async def setting(self, key: str, default: str) -> str:
        """The setting ``key``, stored as ``default`` first if it has none: one
        transaction, so the first value stored is the one every later call reads."""
        if not key or not isinstance(default, str):
            raise InvalidRecordError(f"a setting needs a key and a text value, not {key!r}")

        def body(db: sqlite3.Connection) -> str:
            db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, default))
            value: str = _scalar(db, "SELECT value FROM settings WHERE key = ?", (key,))
            return value

        return await self._transaction(body, write=True, what=f"reading the setting {key}")

    async def add_student(self, student: StudentRecord) -> None:
        """Store a new student. Raises :class:`InvalidRecordError` for a kind that
        is not human or bot, an empty field, or an id or a (class, session)
        already stored."""
        if not isinstance(student, StudentRecord):
            raise InvalidRecordError(f"a student is a StudentRecord, not {student!r}")
        if student.kind not in (PlayerKind.HUMAN, PlayerKind.BOT):
            raise InvalidRecordError(f"a student is a human or a bot, not {student.kind!r}")
        if not all((student.id, student.class_name, student.session, student.name.strip())):
            raise InvalidRecordError("a student needs an id, a class, a session and a name")
        first_seen = _check_time("first_seen", student.first_seen)
        row = (
            student.id,
            student.class_name,
            student.session,
            student.name,
            student.kind.value,
            int(student.removed),
            first_seen,
        )

        def body(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO students (id, class, session, name, kind, removed, first_seen)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"student {student.id!r} is stored already") from error

        await self._transaction(body, write=True, what=f"adding student {student.id}")

    async def update_student(
        self,
        student_id: str,
        *,
        name: str | None = None,
        kind: PlayerKind | None = None,
        removed: bool | None = None,
    ) -> None:
        """Change what is given of a student. Raises :class:`StudentNotFoundError`,
        or :class:`InvalidRecordError` for an empty name or a kind that is not
        human or bot."""
        changes: dict[str, object] = {}
        if name is not None:
            if not isinstance(name, str) or not name.strip():
                raise InvalidRecordError(f"a student's name must be non-empty, not {name!r}")
            changes["name"] = name
        if kind is not None:
            if kind not in (PlayerKind.HUMAN, PlayerKind.BOT):
                raise InvalidRecordError(f"a student is a human or a bot, not {kind!r}")
            changes["kind"] = kind.value
        if removed is not None:
            changes["removed"] = int(bool(removed))
        # Column names from the fixed keys above only: no outside text reaches the SQL.
        assignments = ", ".join(f"{column} = ?" for column in changes)

        def body(db: sqlite3.Connection) -> None:
            if _scalar(db, "SELECT 1 FROM students WHERE id = ?", (student_id,)) is None:
                raise StudentNotFoundError(student_id)
            if changes:
                db.execute(
                    f"UPDATE students SET {assignments} WHERE id = ?",  # noqa: S608
                    (*changes.values(), student_id),
                )

        await self._transaction(body, write=True, what=f"updating student {student_id}")

    async def students(self, class_name: str) -> list[StudentRecord]:
        """Every student of ``class_name``, removed ones included, first seen first."""

        def body(db: sqlite3.Connection) -> list[StudentRecord]:
            rows = db.execute(
                "SELECT id, class, session, name, kind, first_seen, removed FROM students"
                " WHERE class = ? ORDER BY first_seen, id",
                (class_name,),
            )
            return [
                StudentRecord(
                    id=row[0],
                    class_name=row[1],
                    session=row[2],
                    name=row[3],
                    kind=PlayerKind(row[4]),
                    first_seen=row[5],
                    removed=bool(row[6]),
                )
                for row in rows
            ]

        return await self._transaction(body, write=False, what="reading the students")

    async def class_results(self, class_name: str) -> dict[str, StudentResults]:
        """Each student's finished games in ``class_name``, by student id (students
        without any are left out)."""

        def body(db: sqlite3.Connection) -> dict[str, StudentResults]:
            rows = db.execute(
                "SELECT st.id, count(*), total(g.winner = s.side), total(g.winner = 1 - s.side),"
                " total(g.termination IN ('full_board', 'agreement'))"
                " FROM students st JOIN seats s ON s.session = st.session"
                " JOIN games g ON g.id = s.game_id"
                " WHERE st.class = ? AND g.state = 'finished' GROUP BY st.id",
                (class_name,),
            )
            return {
                student: StudentResults(played, int(won), int(drawn), int(lost))
                for student, played, won, lost, drawn in rows
            }

        return await self._transaction(body, write=False, what="reading the class's results")

    async def class_games(self, class_name: str) -> list[GameRecord]:
        """Every game in which a student of ``class_name`` (removed or not) held a
        seat, whole, oldest first."""

        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return _load_games(db, "class", (class_name,))

        return await self._transaction(body, write=False, what="reading the class's games")

    # -- tournaments (class mode) -----------------------------------------------------

    async def create_tournament(
        self,
        *,
        class_name: str,
        name: str,
        game: str,
        format: str,
        rounds: int,
        double: bool,
        clock: Mapping[str, Any],
        no_show_seconds: float,
        entrants: Sequence[EntrantRecord],
        at: float,
    ) -> TournamentRecord:
        """Store a new running tournament and its entrants (in seed order); the
        record stored (no round yet). Raises :class:`InvalidRecordError` for values
        the schema refuses, another tournament of the class running included."""
        clock_text = _options_json(clock)
        created_at = _check_time("at", at)
        rows = [(seed, e.entrant, e.name, e.kind.value) for seed, e in enumerate(entrants, start=1)]

        def body(db: sqlite3.Connection) -> int:
            try:
                cursor = db.execute(
                    "INSERT INTO tournaments (class, name, game, format, rounds, double, clock,"
                    " no_show_seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        class_name,
                        name,
                        game,
                        format,
                        rounds,
                        int(double),
                        clock_text,
                        no_show_seconds,
                        created_at,
                    ),
                )
                tournament_id = cursor.lastrowid
                assert tournament_id is not None
                db.executemany(
                    "INSERT INTO tournament_entrants (tournament_id, seed, entrant, name, kind)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(tournament_id, *row) for row in rows],
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"tournament {name!r} does not store: {error}") from error
            return tournament_id

        tournament_id = await self._transaction(
            body, write=True, what=f"creating tournament {name!r}"
        )
        return TournamentRecord(
            id=tournament_id,
            class_name=class_name,
            name=name,
            game=game,
            format=format,
            rounds=rounds,
            double=double,
            clock=dict(clock),
            no_show_seconds=no_show_seconds,
            status="running",
            created_at=created_at,
            finished_at=None,
            entrants=tuple(entrants),
            byes={},
            pairings=(),
        )

    async def open_round(
        self,
        tournament_id: int,
        number: int,
        bye: str | None,
        pairings: Sequence[PairingRecord],
        at: float,
    ) -> None:
        """Store round ``number`` of the tournament: its bye and its pairings (some
        may carry a result already: games decided without being played)."""
        opened_at = _check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO tournament_rounds (tournament_id, round, bye, opened_at)"
                    " VALUES (?, ?, ?, ?)",
                    (tournament_id, number, bye, opened_at),
                )
                db.executemany(
                    "INSERT INTO tournament_games (tournament_id, round, board, first, second,"
                    " room, game_id, starts_by, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            tournament_id,
                            number,
                            p.board,
                            p.first,
                            p.second,
                            p.room,
                            p.game_id,
                            p.starts_by,
                            p.result,
                        )
                        for p in pairings
                    ],
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(
                    f"round {number} of tournament {tournament_id} does not store: {error}"
                ) from error

        await self._transaction(body, write=True, what=f"pairing round {number}")

    async def update_pairing(
        self,
        tournament_id: int,
        number: int,
        board: int,
        *,
        room: str | None = None,
        starts_by: float | None = None,
        game_id: int | None = None,
        result: str | None = None,
    ) -> None:
        """Set what is given of one pairing. A pairing with a result is final:
        :class:`InvalidRecordError` (as for values the schema refuses)."""
        changes: dict[str, object] = {}
        if room is not None:
            changes["room"] = room
        if starts_by is not None:
            changes["starts_by"] = _check_time("starts_by", starts_by)
        if game_id is not None:
            changes["game_id"] = game_id
        if result is not None:
            changes["result"] = result
        # Column names from the fixed keys above only: no outside text reaches the SQL.
        assignments = ", ".join(f"{column} = ?" for column in changes)

        def body(db: sqlite3.Connection) -> None:
            try:
                cursor = db.execute(
                    f"UPDATE tournament_games SET {assignments}"  # noqa: S608
                    " WHERE tournament_id = ? AND round = ? AND board = ?",
                    (*changes.values(), tournament_id, number, board),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"board {board} of round {number}: {error}") from error
            if cursor.rowcount != 1:
                raise TournamentNotFoundError(tournament_id)

        if changes:
            await self._transaction(body, write=True, what=f"updating board {board}")

    async def withdraw_entrant(self, tournament_id: int, entrant: str) -> None:
        """Mark the entrant withdrawn (a student removed from the class)."""

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE tournament_entrants SET withdrawn = 1"
                " WHERE tournament_id = ? AND entrant = ?",
                (tournament_id, entrant),
            )

        await self._transaction(body, write=True, what=f"withdrawing {entrant}")

    async def end_tournament(self, tournament_id: int, status: str, at: float) -> None:
        """Mark a running tournament ``finished`` or ``cancelled`` at ``at``."""
        ended_at = _check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            try:
                cursor = db.execute(
                    "UPDATE tournaments SET status = ?, finished_at = ?"
                    " WHERE id = ? AND status = 'running'",
                    (status, ended_at, tournament_id),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError(f"status {status!r}: {error}") from error
            if cursor.rowcount != 1:
                raise TournamentNotFoundError(tournament_id)

        await self._transaction(body, write=True, what=f"ending tournament {tournament_id}")

    async def tournaments(self, class_name: str) -> list[TournamentRecord]:
        """Every tournament of ``class_name``, whole, newest first."""

        def body(db: sqlite3.Connection) -> list[TournamentRecord]:
            return _load_tournaments(db, class_name)

        return await self._transaction(body, write=False, what="reading the tournaments")

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
        return await db.call(_in_transaction, body, write, f"{what} failed in {self._path}")

    # -- ratings (server/ratings) -----------------------------------------------------

    async def games_with_result(self) -> list[tuple[str, SeatRecord, SeatRecord, str, float]]:
        """Every finished game with a result (a win or a draw), in the order they
        finished (then by id), as ``(game, first seat, second seat, result,
        finished_at)``: what the ratings replay. ``result`` is as
        :attr:`GameRecord.result` gives it (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``).
        Games without a result (aborted, or abandoned by both players) are left out."""
        draws = tuple(termination.value for termination in Termination if termination.is_draw)
        # By the winner's side as stored; the query keeps only wins and draws.
        results = {
            0: PgnResult.FIRST_WINS.value,
            1: PgnResult.SECOND_WINS.value,
            None: PgnResult.DRAW.value,
        }
        placeholders = ", ".join("?" * len(draws))  # the values go as parameters

        def body(db: sqlite3.Connection) -> list[tuple[str, SeatRecord, SeatRecord, str, float]]:
            rows = db.execute(
                "SELECT g.game, g.winner, g.finished_at,"  # noqa: S608
                " a.name, a.kind, a.ai_level, a.session, b.name, b.kind, b.ai_level, b.session"
                " FROM games g JOIN seats a ON a.game_id = g.id AND a.side = 0"
                " JOIN seats b ON b.game_id = g.id AND b.side = 1"
                " WHERE g.state = 'finished'"
                f" AND (g.winner IS NOT NULL OR g.termination IN ({placeholders}))"
                " ORDER BY g.finished_at, g.id",
                draws,
            )
            return [
                (
                    game,
                    SeatRecord(row[0], PlayerKind(row[1]), row[2], row[3]),
                    SeatRecord(row[4], PlayerKind(row[5]), row[6], row[7]),
                    results[winner],
                    finished_at,
                )
                for game, winner, finished_at, *row in rows
            ]

        return await self._transaction(body, write=False, what="reading the rated games")


def _in_transaction(
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
        raise StorageFailedError(f"{failed}: {error}") from error
    return result


# -- rows and records -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _PendingMove:
    """A move waiting for the next group commit, and the future its caller awaits."""

    game_id: int
    ply: int
    move: str
    at: float
    clock_ms: int | None
    stored: asyncio.Future[None]


def _append_moves(batch: Sequence[_PendingMove], db: sqlite3.Connection) -> list[StoreError | None]:
    """Insert each move of ``batch`` that fits its game (in one open transaction);
    per move, None if inserted or the error refusing it (nothing written for it)."""
    refusals: list[StoreError | None] = []
    for pending in batch:
        game_id, ply = pending.game_id, pending.ply
        row = db.execute(
            "SELECT state, (SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game_id = ?)"
            " FROM games WHERE id = ?",
            (game_id, game_id),
        ).fetchone()
        if row is None:
            refusals.append(GameNotFoundError(game_id))
            continue
        state, expected_ply = GameState(row[0]), row[1]
        if state is not GameState.PLAYING:
            refusals.append(
                GameStateError(
                    f"game {game_id} is {state.value}: moves are added only to a game in play"
                )
            )
            continue
        if ply != expected_ply:
            refusals.append(StaleWriteError(game_id, ply, expected_ply))
            continue
        db.execute(
            "INSERT INTO moves (game_id, ply, move, at, clock_ms) VALUES (?, ?, ?, ?, ?)",
            (game_id, ply, pending.move, pending.at, pending.clock_ms),
        )
        refusals.append(None)
    return refusals


def _scalar(db: sqlite3.Connection, sql: str, parameters: Iterable[Any] = ()) -> Any:
    row = db.execute(sql, tuple(parameters)).fetchone()
    return None if row is None else row[0]


def _state_of(db: sqlite3.Connection, game_id: int) -> GameState:
    state = _scalar(db, "SELECT state FROM games WHERE id = ?", (game_id,))
    if state is None:
        raise GameNotFoundError(game_id)
    return GameState(state)


# Which games _load_games reads; fixed clauses, so no text from outside reaches the SQL.
_GAME_FILTERS = {
    "id": "g.id = ?",
    "unfinished": "g.state <> 'finished'",
    "class": "g.id IN (SELECT s.game_id FROM seats s JOIN students st"
    " ON st.session = s.session WHERE st.class = ?)",
}


def _load_games(
    db: sqlite3.Connection,
    which: Literal["id", "unfinished", "class"],
    parameters: tuple[Any, ...],
) -> list[GameRecord]:
    where = _GAME_FILTERS[which]
    games = db.execute(
        "SELECT g.id, g.room, g.game, g.options, g.state, g.winner, g.termination,"  # noqa: S608
        " g.created_at, g.started_at, g.finished_at, g.number"
        f" FROM games g WHERE {where} ORDER BY g.id",
        parameters,
    )
    seats: dict[int, list[SeatRecord | None]] = {}
    for game_id, side, name, kind, ai_level, session in db.execute(
        "SELECT s.game_id, s.side, s.name, s.kind, s.ai_level, s.session"  # noqa: S608
        f" FROM seats s JOIN games g ON g.id = s.game_id WHERE {where}",
        parameters,
    ):
        seat = SeatRecord(name, PlayerKind(kind), ai_level, session)
        seats.setdefault(game_id, [None, None])[side] = seat
    moves: dict[int, list[MoveRecord]] = {}
    for game_id, ply, move, at, clock_ms in db.execute(
        "SELECT m.game_id, m.ply, m.move, m.at, m.clock_ms"  # noqa: S608
        f" FROM moves m JOIN games g ON g.id = m.game_id WHERE {where} ORDER BY m.game_id, m.ply",
        parameters,
    ):
        moves.setdefault(game_id, []).append(MoveRecord(ply, move, at, clock_ms))
    records = []
    for row in games:
        game_id = row[0]
        first, second = seats.get(game_id, (None, None))
        records.append(
            GameRecord(
                id=game_id,
                room=row[1],
                number=row[10],
                game=row[2],
                options=json.loads(row[3]),
                seats=(first, second),
                moves=tuple(moves.get(game_id, ())),
                state=GameState(row[4]),
                winner=None if row[5] is None else Player(row[5]),
                termination=None if row[6] is None else Termination(row[6]),
                created_at=row[7],
                started_at=row[8],
                finished_at=row[9],
            )
        )
    return records


def _load_tournaments(db: sqlite3.Connection, class_name: str) -> list[TournamentRecord]:
    entrants: dict[int, list[EntrantRecord]] = {}
    for tournament_id, entrant, name, kind, withdrawn in db.execute(
        "SELECT e.tournament_id, e.entrant, e.name, e.kind, e.withdrawn"
        " FROM tournament_entrants e JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE t.class = ? ORDER BY e.tournament_id, e.seed",
        (class_name,),
    ):
        record = EntrantRecord(entrant, name, PlayerKind(kind), bool(withdrawn))
        entrants.setdefault(tournament_id, []).append(record)
    byes: dict[int, dict[int, str | None]] = {}
    for tournament_id, number, bye in db.execute(
        "SELECT r.tournament_id, r.round, r.bye FROM tournament_rounds r"
        " JOIN tournaments t ON t.id = r.tournament_id WHERE t.class = ? ORDER BY r.round",
        (class_name,),
    ):
        byes.setdefault(tournament_id, {})[number] = bye
    pairings: dict[int, list[PairingRecord]] = {}
    for tournament_id, *row in db.execute(
        "SELECT g.tournament_id, g.round, g.board, g.first, g.second, g.room, g.game_id,"
        " g.starts_by, g.result FROM tournament_games g"
        " JOIN tournaments t ON t.id = g.tournament_id WHERE t.class = ?"
        " ORDER BY g.round, g.board",
        (class_name,),
    ):
        pairings.setdefault(tournament_id, []).append(PairingRecord(*row))
    return [
        TournamentRecord(
            id=row[0],
            class_name=row[1],
            name=row[2],
            game=row[3],
            format=row[4],
            rounds=row[5],
            double=bool(row[6]),
            clock=json.loads(row[7]),
            no_show_seconds=row[8],
            status=row[9],
            created_at=row[10],
            finished_at=row[11],
            entrants=tuple(entrants.get(row[0], ())),
            byes=byes.get(row[0], {}),
            pairings=tuple(pairings.get(row[0], ())),
        )
        for row in db.execute(
            "SELECT id, class, name, game, format, rounds, double, clock, no_show_seconds,"
            " status, created_at, finished_at FROM tournaments WHERE class = ? ORDER BY id DESC",
            (class_name,),
        )
    ]


# -- argument checks (before any transaction, so a refused write touches nothing) ----


def _check_game_id(game_id: object) -> None:
    if not isinstance(game_id, int) or isinstance(game_id, bool):
        raise InvalidRecordError(f"a game id is an int, not {game_id!r}")


def _check_side(side: object) -> Player:
    if isinstance(side, Player):
        return side
    if isinstance(side, int) and not isinstance(side, bool) and side in (0, 1):
        return Player(side)
    raise InvalidRecordError(f"a seat is Player.FIRST or Player.SECOND, not {side!r}")


def _check_time(name: str, at: object) -> float:
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at) or at < 0:
        raise InvalidRecordError(f"{name} must be a time in Unix seconds (time.time()), not {at!r}")
    return float(at)


def _canonical_game(game: object) -> str:
    if not isinstance(game, str):
        raise InvalidRecordError(f"game must be a game name, not {game!r}")
    try:
        return get_game(game).name
    except GameError as error:
        raise InvalidRecordError(str(error)) from error


def _options_json(options: Mapping[str, Any] | None) -> str:
    if options is None:
        return "{}"
    if not isinstance(options, Mapping) or not all(isinstance(key, str) for key in options):
        raise InvalidRecordError(f"options must be a JSON object with string keys, not {options!r}")
    try:
        return json.dumps(dict(options), sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidRecordError(f"options must be JSON: {error}") from error


def _seat_rows(
    seats: Sequence[SeatRecord | None],
) -> list[tuple[int, str, str, str | None, str | None]]:
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence) or len(seats) != 2:
        raise InvalidRecordError(
            f"seats must be two entries (first player's, second's), SeatRecord or None, "
            f"not {seats!r}"
        )
    return [(side, *_seat_row(seat)) for side, seat in enumerate(seats) if seat is not None]


def _seat_row(seat: SeatRecord) -> tuple[str, str, str | None, str | None]:
    if not isinstance(seat, SeatRecord):
        raise InvalidRecordError(f"a seat is a SeatRecord or None, not {seat!r}")
    if not isinstance(seat.name, str) or not seat.name.strip():
        raise InvalidRecordError(f"a player's name must be a non-empty string, not {seat.name!r}")
    if not isinstance(seat.kind, PlayerKind):
        raise InvalidRecordError(f"a player's kind must be a PlayerKind, not {seat.kind!r}")
    is_ai = seat.kind is PlayerKind.AI
    if is_ai != (isinstance(seat.ai_level, str) and bool(seat.ai_level)):
        raise InvalidRecordError(
            "an AI seat needs its level (ai_level) and no other seat may have one; "
            f"got kind {seat.kind.value!r} with ai_level {seat.ai_level!r}"
        )
    # A session is who may reclaim the seat: the server's AI is nobody's to reclaim.
    # The messages leave the session's value out: it is private, and errors get logged.
    if seat.session is not None and is_ai:
        raise InvalidRecordError("an AI seat has no session (session must be None)")
    if seat.session is not None and (not isinstance(seat.session, str) or not seat.session):
        raise InvalidRecordError("a seat's session must be None or a non-empty string")
    return (seat.name, seat.kind.value, seat.ai_level, seat.session)
