"""The games: created, seated, started, each move, finished; read back whole, and
every unfinished game restored after a restart.

:meth:`GamesStorage.append_move` makes the store's first promise: when it returns,
the move survives a SIGKILL of the server and a power cut. Moves appended while a
transaction is under way are committed together in the next one (group commit:
one fsync for the lot), each caller still returning only once its own move is on
disk; a refused move in such a batch fails alone.

Records are append-only (see :mod:`server.core.records` for the order they are
written in); the schema (:mod:`server.store.schema`) holds the same rules.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from server.core.records import GameRecord, GameState, SeatRecord, Termination
from server.sqlite_thread import SQLiteThread
from server.store.base import StoreBase
from server.store.checks import (
    PendingMove,
    check_ending,
    check_finish,
    check_game_id,
    check_seat_change,
    check_side,
    check_start,
    check_time,
    fail_moves,
    game_state,
    move_refusal,
    new_game,
    pending_move,
    seat_row,
    settle_moves,
)
from server.store.errors import GameNotFoundError, StoreClosedError, StoreError
from server.store.rows import GAME_COLUMNS, game_records
from server.store.sql import scalar
from shared.games import Player

__all__ = ["GamesStorage", "load_games"]


class GamesStorage(StoreBase):
    """The games: created, seated, started, each move (group commit), finished,
    and read back whole. See :mod:`server.store` for the contracts."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(path)
        # Moves waiting for the next group commit, and the task committing them.
        self._pending_moves: list[PendingMove] = []
        self._move_writer: asyncio.Task[None] | None = None

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
        new = new_game(room, game, seats, options, at, number, started_at)

        def body(db: sqlite3.Connection) -> int:
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

        return await self._transaction(body, write=True, what=f"creating a {new.game} game")

    async def update_seat(self, game_id: int, side: Player, player: SeatRecord | None) -> None:
        """Put ``player`` in seat ``side`` (replacing whoever was there), or empty
        it with None. Only while the game is :attr:`~GameState.WAITING`: the players
        of a started game are part of its record."""
        check_game_id(game_id)
        side = check_side(side)
        row = None if player is None else seat_row(player)

        def body(db: sqlite3.Connection) -> None:
            check_seat_change(game_id, _state_of(db, game_id))
            if row is None:
                db.execute("DELETE FROM seats WHERE game_id = ? AND side = ?", (game_id, int(side)))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO seats"
                    " (game_id, side, name, kind, ai_level, session, player)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, int(side), *row),
                )

        await self._transaction(body, write=True, what=f"seating game {game_id}")

    async def start_game(self, game_id: int, at: float) -> None:
        """Mark the game :attr:`~GameState.PLAYING` from ``at``; moves may follow.

        Raises :class:`GameStateError` unless it is waiting with both seats taken.
        """
        check_game_id(game_id)
        started_at = check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            seated = scalar(db, "SELECT count(*) FROM seats WHERE game_id = ?", (game_id,))
            check_start(game_id, _state_of(db, game_id), seated)
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
        pending = pending_move(game_id, ply, move, at, clock_ms)
        db = self._db
        if db is None:
            raise StoreClosedError(f"the store on {self._path} is not open")
        self._pending_moves.append(pending)
        if self._move_writer is None:
            self._move_writer = asyncio.create_task(self._write_pending_moves(db))
            self._inflight.add(self._move_writer)
            self._move_writer.add_done_callback(self._inflight.discard)
        # Shielded: a cancelled caller stops waiting; its move is stored or not as a whole.
        await asyncio.shield(pending.stored)

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
                    fail_moves(batch, error)
                    if not isinstance(error, Exception):
                        raise
                    continue
                settle_moves(batch, refusals)
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
        check_game_id(game_id)
        side = check_ending(winner, termination)
        finished_at = check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            check_finish(game_id, _state_of(db, game_id), termination)
            db.execute(
                "UPDATE games SET state = 'finished', winner = ?, termination = ?,"
                " finished_at = ? WHERE id = ?",
                (side, termination.value, finished_at, game_id),
            )

        await self._transaction(body, write=True, what=f"finishing game {game_id}")

    # -- reads ------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord:
        """The whole record of one game. Raises :class:`GameNotFoundError`."""
        check_game_id(game_id)

        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return load_games(db, _BY_ID, (game_id,))

        records = await self._transaction(body, write=False, what=f"reading game {game_id}")
        if not records:
            raise GameNotFoundError(game_id)
        return records[0]

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game waiting or in play, whole, oldest first: what the server
        restores after a restart."""

        def body(db: sqlite3.Connection) -> list[GameRecord]:
            return load_games(db, _UNFINISHED, ())

        return await self._transaction(body, write=False, what="reading unfinished games")

    async def games_by_state(self) -> dict[GameState, int]:
        """How many games are in each state (every state present), for ``/metrics``."""

        def body(db: sqlite3.Connection) -> dict[GameState, int]:
            counts = dict.fromkeys(GameState, 0)
            for state, count in db.execute("SELECT state, count(*) FROM games GROUP BY state"):
                counts[GameState(state)] = count
            return counts

        return await self._transaction(body, write=False, what="counting games")


# -- rows and records -----------------------------------------------------------------


def _append_moves(batch: Sequence[PendingMove], db: sqlite3.Connection) -> list[StoreError | None]:
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
        refusal = move_refusal(pending, *(row or (None, 0)))
        refusals.append(refusal)
        if refusal is not None:
            continue
        db.execute(
            "INSERT INTO moves (game_id, ply, move, at, clock_ms) VALUES (?, ?, ?, ?, ?)",
            (game_id, ply, pending.move, pending.at, pending.clock_ms),
        )
    return refusals


def _state_of(db: sqlite3.Connection, game_id: int) -> GameState:
    return game_state(game_id, scalar(db, "SELECT state FROM games WHERE id = ?", (game_id,)))


# The games this part reads: fixed clauses, so no text from outside reaches the SQL.
_BY_ID = "g.id = ?"
_UNFINISHED = "g.state <> 'finished'"


def load_games(
    db: sqlite3.Connection,
    where: str,
    parameters: tuple[Any, ...],
) -> list[GameRecord]:
    """The whole records of the games that ``where`` selects, oldest first.

    ``where`` is a condition on ``games g`` (its ``?`` filled from ``parameters``)
    that goes into the SQL as it is: always one of the store's own fixed clauses
    (``_BY_ID`` and ``_UNFINISHED`` here, ``_OF_CLASS`` in
    :mod:`server.store.classroom`), never text from outside."""
    games = db.execute(
        f"SELECT {GAME_COLUMNS} FROM games g WHERE {where} ORDER BY g.id",  # noqa: S608
        parameters,
    ).fetchall()
    seats = db.execute(
        "SELECT s.game_id, s.side, s.name, s.kind, s.ai_level, s.session, s.player"  # noqa: S608
        f" FROM seats s JOIN games g ON g.id = s.game_id WHERE {where}",
        parameters,
    ).fetchall()
    moves = db.execute(
        "SELECT m.game_id, m.ply, m.move, m.at, m.clock_ms"  # noqa: S608
        f" FROM moves m JOIN games g ON g.id = m.game_id WHERE {where} ORDER BY m.game_id, m.ply",
        parameters,
    ).fetchall()
    return game_records(games, seats, moves)
