"""The store's exceptions: every error it raises on purpose, each also the builtin it means::

    StoreError
    ├── GameNotFoundError(StoreError, LookupError)       no game with that id
    ├── StudentNotFoundError(StoreError, LookupError)    no student with that id
    ├── TournamentNotFoundError(StoreError, LookupError) no tournament with that id
    ├── PlayerNotFoundError(StoreError, LookupError)     no player with that id
    ├── StaleWriteError(StoreError, ValueError)          a ply that is not the next one
    ├── GameStateError(StoreError, ValueError)           a write the game's state forbids
    ├── InvalidRecordError(StoreError, ValueError)       arguments that make no valid record
    │   └── ClassCodeTakenError                          a class code another student has
    ├── UnreadableRecordError(StoreError, ValueError)    a stored value this code does not know
    ├── SchemaVersionError(StoreError, RuntimeError)     the file is from a newer Boardroom
    ├── StoreClosedError(StoreError, RuntimeError)       used before open() or after close()
    └── StorageFailedError(StoreError, OSError)          SQLite failed: disk full, I/O error,
        │                                                corrupt file, lock held too long
        └── StorageUnavailableError                      for now only: the database is down,
                                                         unreachable, busy or locked; retry

A refused write (any of these) changes nothing. :mod:`boardroom.server.store` exports them all.
"""

from __future__ import annotations

__all__ = [
    "ClassCodeTakenError",
    "GameNotFoundError",
    "GameStateError",
    "InvalidRecordError",
    "PlayerNotFoundError",
    "SchemaVersionError",
    "StaleWriteError",
    "StorageFailedError",
    "StorageUnavailableError",
    "StoreClosedError",
    "StoreError",
    "StudentNotFoundError",
    "TournamentNotFoundError",
    "UnreadableRecordError",
]


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


class PlayerNotFoundError(StoreError, LookupError):
    """No player has the id given."""

    def __init__(self, player_id: str) -> None:
        super().__init__(f"no player with id {player_id!r} in the store")
        self.player_id = player_id


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


class UnreadableRecordError(StoreError, ValueError):
    """A stored record holds a value this Boardroom does not know: an ending
    (termination) that a newer Boardroom wrote, the schema no longer listing them.
    Upgrade Boardroom to read it; the record itself is left as it is."""


class SchemaVersionError(StoreError, RuntimeError):
    """The database file was written by a newer Boardroom (its schema version is
    higher than :data:`SCHEMA_VERSION`); this one will not touch it."""


class StoreClosedError(StoreError, RuntimeError):
    """The store was used before :meth:`GameStore.open` or after :meth:`GameStore.close`."""


class StorageFailedError(StoreError, OSError):
    """SQLite could not do the operation (disk full, I/O error, corrupt file, write
    lock held too long by another process); the operation did not take effect.
    The SQLite error is the ``__cause__``."""


STORAGE_RETRY_SECONDS = 2.0
"""How long a client is told to wait (``retry_after``) before it tries again an
operation refused as ``storage_unavailable``."""


class StorageUnavailableError(StorageFailedError):
    """A :class:`StorageFailedError` that is expected to pass: the database could not
    be reached or answered too late (PostgreSQL stopped, restarting or unreachable,
    a connection lost, a timeout), or was busy (SQLite's write lock held by another
    connection past the busy timeout, a serialisation failure). The operation did not
    take effect, or, for a commit cut off on its way, may have: retrying it later is
    the cure. ``retry_after`` is the seconds to wait first. Errors that retrying
    cannot cure (a schema or programming error, a corrupt file, a full disk on
    SQLite) stay a plain :class:`StorageFailedError`."""

    def __init__(self, message: str, *, retry_after: float = STORAGE_RETRY_SECONDS) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ClassCodeTakenError(InvalidRecordError):
    """A class code (its lookup hash) that another student has already: draw
    another (codes are drawn at random, so this is rare)."""
