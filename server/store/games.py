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
import json
import os
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.core.records import (
    GameRecord,
    GameState,
    MoveRecord,
    PlayerKind,
    SeatRecord,
    Termination,
)
from server.sqlite_thread import SQLiteThread
from server.store.base import StoreBase
from server.store.checks import check_time, options_json
from server.store.errors import (
    GameNotFoundError,
    GameStateError,
    InvalidRecordError,
    StaleWriteError,
    StoreClosedError,
    StoreError,
)
from server.store.sql import scalar
from shared.errors import GameError
from shared.games import Player, get_game

__all__ = ["GamesStorage", "load_games"]


class GamesStorage(StoreBase):
    """The games: created, seated, started, each move (group commit), finished,
    and read back whole. See :mod:`server.store` for the contracts."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(path)
        # Moves waiting for the next group commit, and the task committing them.
        self._pending_moves: list[_PendingMove] = []
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
        if not isinstance(room, str) or not room:
            raise InvalidRecordError(f"room must be a non-empty string, not {room!r}")
        name = _canonical_game(game)
        seat_rows = _seat_rows(seats)
        options_text = options_json(options)
        created_at = check_time("at", at)
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise InvalidRecordError(f"number must be an int of at least 1, not {number!r}")
        state, start = GameState.WAITING, None
        if started_at is not None:
            state, start = GameState.PLAYING, check_time("started_at", started_at)
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
                "INSERT INTO seats (game_id, side, name, kind, ai_level, session, player)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
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
        _check_game_id(game_id)
        started_at = check_time("at", at)

        def body(db: sqlite3.Connection) -> None:
            state = _state_of(db, game_id)
            if state is not GameState.WAITING:
                raise GameStateError(f"game {game_id} is {state.value}: it cannot start again")
            seated = scalar(db, "SELECT count(*) FROM seats WHERE game_id = ?", (game_id,))
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
        made_at = check_time("at", at)
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
        finished_at = check_time("at", at)

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


def _state_of(db: sqlite3.Connection, game_id: int) -> GameState:
    state = scalar(db, "SELECT state FROM games WHERE id = ?", (game_id,))
    if state is None:
        raise GameNotFoundError(game_id)
    return GameState(state)


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
        "SELECT g.id, g.room, g.game, g.options, g.state, g.winner, g.termination,"  # noqa: S608
        " g.created_at, g.started_at, g.finished_at, g.number"
        f" FROM games g WHERE {where} ORDER BY g.id",
        parameters,
    )
    seats: dict[int, list[SeatRecord | None]] = {}
    for game_id, side, name, kind, ai_level, session, player in db.execute(
        "SELECT s.game_id, s.side, s.name, s.kind, s.ai_level, s.session, s.player"  # noqa: S608
        f" FROM seats s JOIN games g ON g.id = s.game_id WHERE {where}",
        parameters,
    ):
        seat = SeatRecord(name, PlayerKind(kind), ai_level, session, player)
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


def _canonical_game(game: object) -> str:
    if not isinstance(game, str):
        raise InvalidRecordError(f"game must be a game name, not {game!r}")
    try:
        return get_game(game).name
    except GameError as error:
        raise InvalidRecordError(str(error)) from error


def _seat_rows(
    seats: Sequence[SeatRecord | None],
) -> list[tuple[int, str, str, str | None, str | None, str | None]]:
    if isinstance(seats, str | bytes) or not isinstance(seats, Sequence) or len(seats) != 2:
        raise InvalidRecordError(
            f"seats must be two entries (first player's, second's), SeatRecord or None, "
            f"not {seats!r}"
        )
    return [(side, *_seat_row(seat)) for side, seat in enumerate(seats) if seat is not None]


def _seat_row(seat: SeatRecord) -> tuple[str, str, str | None, str | None, str | None]:
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
    # The player must be stored already (a foreign key): the hub stores it at its hello.
    if seat.player is not None and (is_ai or not isinstance(seat.player, str) or not seat.player):
        raise InvalidRecordError(
            f"a seat's player must be None or, for a human or bot, a player id, not {seat.player!r}"
        )
    return (seat.name, seat.kind.value, seat.ai_level, seat.session, seat.player)
