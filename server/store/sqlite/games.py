"""The games on SQLite: the SQL of :class:`boardroom.server.store.games.GamesStorage` (its
contracts, checks and group commit), and :func:`load_games`, the reader of whole
records that class mode shares.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from boardroom.server.core.records import GameRecord, GameState
from boardroom.server.sqlite_thread import SQLiteThread
from boardroom.server.store.checks import (
    NewGame,
    PendingMove,
    check_finish,
    check_seat_change,
    check_start,
    game_state,
    move_refusal,
)
from boardroom.server.store.errors import StorageFailedError, StorageUnavailableError, StoreError
from boardroom.server.store.games import (
    BatchResult,
    GamesOf,
    GamesStorage,
    PendingEnd,
    PendingGame,
    PendingWrite,
    SeatRow,
    game_queries,
)
from boardroom.server.store.rows import game_records
from boardroom.server.store.sqlite.base import SQLiteBase
from boardroom.server.store.sqlite.sql import is_busy, scalar

__all__ = ["SQLiteGames", "load_games"]


class SQLiteGames(GamesStorage[SQLiteThread], SQLiteBase):
    """The games table, its seats and moves, on SQLite."""

    async def _seat(self, game_id: int, side: int, row: SeatRow | None, *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            check_seat_change(game_id, _state_of(db, game_id))
            if row is None:
                db.execute("DELETE FROM seats WHERE game_id = ? AND side = ?", (game_id, side))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO seats"
                    " (game_id, side, name, kind, ai_level, session, player)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, side, *row),
                )

        await self._transaction(body, write=True, what=what)

    async def _start(self, game_id: int, started_at: float, *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            seated = scalar(db, "SELECT count(*) FROM seats WHERE game_id = ?", (game_id,))
            check_start(game_id, _state_of(db, game_id), seated)
            db.execute(
                "UPDATE games SET state = 'playing', started_at = ? WHERE id = ?",
                (started_at, game_id),
            )

        await self._transaction(body, write=True, what=what)

    async def _store_batch(
        self, handle: SQLiteThread, batch: Sequence[PendingWrite], *, what: str
    ) -> list[BatchResult]:
        write = functools.partial(_write_batch, batch, self.path)
        run = self._runner(write, True, what)
        return await run(handle)

    async def _read_games(
        self, which: GamesOf, parameters: tuple[Any, ...], *, what: str
    ) -> list[GameRecord]:
        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return load_games(db, which, parameters)

        return await self._transaction(body, write=False, what=what)

    async def _count_states(self, *, what: str) -> Iterable[tuple[str, int]]:
        def body(db: sqlite3.Connection) -> list[tuple[str, int]]:
            return db.execute("SELECT state, count(*) FROM games GROUP BY state").fetchall()

        return await self._transaction(body, write=False, what=what)


def _write_batch(
    batch: Sequence[PendingWrite], path: str, db: sqlite3.Connection
) -> list[BatchResult]:
    """Write each write of ``batch`` that fits (in one open transaction, in order);
    per write, a :data:`BatchResult` (nothing written for a refused one)."""
    results: list[BatchResult] = []
    for pending in batch:
        match pending:
            case PendingMove(ending=None):
                results.append(_append_move(pending, db))
            case PendingMove():
                what = "storing a game's last move and its end"
                results.append(_alone(db, path, what, _append_final_move, pending))
            case PendingGame():
                results.append(_alone(db, path, "creating a game", _insert_game, pending.new))
            case PendingEnd():
                results.append(_alone(db, path, "finishing a game", _finish, pending))
    return results


def _append_move(pending: PendingMove, db: sqlite3.Connection) -> StoreError | None:
    """Insert the move, or say why it does not fit its game (nothing written).

    One statement a move: the schema's trigger ``moves_append_in_order`` checks
    what :func:`move_refusal` does (the game in play, the next ply) and aborts the
    insert alone, not the batch's transaction, if it does not fit; only then is the
    game read, to name the refusal. (The game was read before every insert, and
    the trigger read it again: issue 29.)"""
    game_id = pending.game_id
    try:
        db.execute(
            "INSERT INTO moves (game_id, ply, move, at, clock_ms, autopilot)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, pending.ply, pending.move, pending.at, pending.clock_ms, pending.autopilot),
        )
    except sqlite3.IntegrityError:
        row = db.execute(
            "SELECT state, (SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game_id = ?)"
            " FROM games WHERE id = ?",
            (game_id, game_id),
        ).fetchone()
        refusal = move_refusal(pending, *(row or (None, 0)))
        if refusal is None:
            raise  # not the trigger's refusal: the database's own error, as before
        return refusal
    return None


def _append_final_move(db: sqlite3.Connection, pending: PendingMove) -> None:
    """The move, then the end it brings (``pending.ending``); raises the refusal of
    either (in :func:`_alone`'s savepoint: nothing of both is left written)."""
    refusal = _append_move(pending, db)
    if refusal is not None:
        raise refusal
    assert pending.ending is not None  # only a move with its end comes here
    _finish(db, PendingEnd(pending.game_id, pending.ending, pending.stored))


_T = TypeVar("_T")


def _alone(
    db: sqlite3.Connection,
    path: str,
    what: str,
    write: Callable[[sqlite3.Connection, Any], _T],
    argument: Any,
) -> _T | StoreError:
    """``write(db, argument)`` within a savepoint: its result, or what refused it
    (its StoreError, or SQLite's error as a StorageFailedError), with nothing of
    it left written and the rest of the batch going on."""
    db.execute("SAVEPOINT one_write")
    try:
        result = write(db, argument)
    except (StoreError, sqlite3.Error) as error:
        db.execute("ROLLBACK TO one_write")
        db.execute("RELEASE one_write")
        if isinstance(error, StoreError):
            return error
        failed = StorageUnavailableError if is_busy(error) else StorageFailedError
        return failed(f"{what} failed in {path}: {error}")
    db.execute("RELEASE one_write")
    return result


def _insert_game(db: sqlite3.Connection, new: NewGame) -> int:
    cursor = db.execute(
        "INSERT INTO games (room, number, game, options, state, created_at, started_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        new.row,
    )
    game_id = cursor.lastrowid
    assert game_id is not None
    db.executemany(
        "INSERT INTO seats (game_id, side, name, kind, ai_level, session, player)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, *row) for row in new.seats],
    )
    return game_id


def _finish(db: sqlite3.Connection, pending: PendingEnd) -> None:
    game_id = pending.game_id
    side, termination, finished_at = pending.ending
    check_finish(game_id, _state_of(db, game_id), termination)
    db.execute(
        "UPDATE games SET state = 'finished', winner = ?, termination = ?,"
        " finished_at = ? WHERE id = ?",
        (side, termination.value, finished_at, game_id),
    )


def _state_of(db: sqlite3.Connection, game_id: int) -> GameState:
    return game_state(game_id, scalar(db, "SELECT state FROM games WHERE id = ?", (game_id,)))


def load_games(
    db: sqlite3.Connection, which: GamesOf, parameters: tuple[Any, ...]
) -> list[GameRecord]:
    """The whole records of the games that ``which`` selects (its ``?`` filled
    from ``parameters``), oldest first, in the caller's transaction."""
    games, seats, moves = (
        db.execute(query, parameters).fetchall() for query in game_queries(which, "?")
    )
    return game_records(games, seats, moves)
