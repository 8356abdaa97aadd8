"""The games on PostgreSQL: created, seated, started, each move (group commit),
finished; read back whole. The same contracts as :mod:`server.store.games`, with
the same checks and refusals (:mod:`server.store.checks`) and the same records
(:mod:`server.store.rows`); what differs is the SQL and how a batch of moves is
written (two round trips for the lot, the batch's games locked in id order).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from server.core.records import GameRecord, GameState, SeatRecord, Termination
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
from server.store.errors import GameNotFoundError, StoreError
from server.store.postgres.base import Connection, PostgresBase
from server.store.rows import GAME_COLUMNS, game_records
from shared.games import Player

__all__ = ["PostgresGames", "load_games"]


class PostgresGames(PostgresBase):
    """The games: created, seated, started, each move (group commit), finished,
    and read back whole. See :mod:`server.store.postgres` for the contracts."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        # Moves waiting for the next group commit, and the task that will commit them.
        self._pending_moves: list[PendingMove] = []
        self._move_batch: asyncio.Task[None] | None = None

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
        """Store a new game and return its id (:meth:`server.store.GameStore.create_game`)."""
        new = new_game(room, game, seats, options, at, number, started_at)

        async def body(db: Connection) -> int:
            game_id: int = await db.fetchval(
                "INSERT INTO games (room, number, game, options, state, created_at, started_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                *new.row,
            )
            await db.executemany(
                "INSERT INTO seats (game_id, side, name, kind, ai_level, session, player)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7)",
                [(game_id, *row) for row in new.seats],
            )
            return game_id

        return await self._transaction(body, write=True, what=f"creating a {new.game} game")

    async def update_seat(self, game_id: int, side: Player, player: SeatRecord | None) -> None:
        """Put ``player`` in seat ``side``, or empty it with None, while the game is
        waiting (:meth:`server.store.GameStore.update_seat`)."""
        check_game_id(game_id)
        side = check_side(side)
        row = None if player is None else seat_row(player)

        async def body(db: Connection) -> None:
            check_seat_change(game_id, await _locked_state(db, game_id))
            if row is None:
                await db.execute(
                    "DELETE FROM seats WHERE game_id = $1 AND side = $2", game_id, int(side)
                )
            else:
                await db.execute(
                    "INSERT INTO seats (game_id, side, name, kind, ai_level, session, player)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id, side) DO UPDATE"
                    " SET name = excluded.name, kind = excluded.kind,"
                    " ai_level = excluded.ai_level, session = excluded.session,"
                    " player = excluded.player",
                    game_id,
                    int(side),
                    *row,
                )

        await self._transaction(body, write=True, what=f"seating game {game_id}")

    async def start_game(self, game_id: int, at: float) -> None:
        """Mark the game playing from ``at`` (:meth:`server.store.GameStore.start_game`)."""
        check_game_id(game_id)
        started_at = check_time("at", at)

        async def body(db: Connection) -> None:
            state = await _locked_state(db, game_id)
            seated = await db.fetchval("SELECT count(*) FROM seats WHERE game_id = $1", game_id)
            check_start(game_id, state, seated)
            await db.execute(
                "UPDATE games SET state = 'playing', started_at = $1 WHERE id = $2",
                started_at,
                game_id,
            )

        await self._transaction(body, write=True, what=f"starting game {game_id}")

    async def append_move(
        self, game_id: int, ply: int, move: str, at: float, clock_ms: int | None = None
    ) -> None:
        """Append the move at ``ply`` to a game in play; when this returns, the move
        is committed, flushed to PostgreSQL's WAL on disk (synchronous_commit, checked
        at open): only then may the room announce it
        (:meth:`server.store.GameStore.append_move` for the refusals).

        Moves appended while a write is under way share the next transaction
        (group commit: one flush for the lot); a refused one fails alone."""
        pending = pending_move(game_id, ply, move, at, clock_ms)
        if self._move_batch is None:
            # Scheduled after the write called last; moves appended until it starts
            # join it. Raises StoreClosedError (before the move is queued) if closed.
            self._move_batch = self._schedule(self._commit_moves, write=True)
        self._pending_moves.append(pending)
        # Shielded: a cancelled caller stops waiting; its move is stored or not as a whole.
        await asyncio.shield(pending.stored)

    async def _commit_moves(self, pool: asyncpg.Pool) -> None:
        """Commit the moves waiting now, in one transaction, and tell their callers."""
        batch, self._pending_moves = self._pending_moves, []
        self._move_batch = None  # moves appended from now on wait for the next batch
        what = f"storing {len(batch)} move{'s' if len(batch) > 1 else ''}"
        try:
            refusals = await self._in_transaction(
                pool, functools.partial(_append_moves, batch), write=True, what=what
            )
        except BaseException as error:
            fail_moves(batch, error)
            if not isinstance(error, Exception):
                raise
            return
        settle_moves(batch, refusals)

    async def finish_game(
        self, game_id: int, winner: Player | None, termination: Termination, at: float
    ) -> None:
        """Record the end of the game (:meth:`server.store.GameStore.finish_game`)."""
        check_game_id(game_id)
        side = check_ending(winner, termination)
        finished_at = check_time("at", at)

        async def body(db: Connection) -> None:
            check_finish(game_id, await _locked_state(db, game_id), termination)
            await db.execute(
                "UPDATE games SET state = 'finished', winner = $1, termination = $2,"
                " finished_at = $3 WHERE id = $4",
                side,
                termination.value,
                finished_at,
                game_id,
            )

        await self._transaction(body, write=True, what=f"finishing game {game_id}")

    # -- reads ------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord:
        """The whole record of one game. Raises :class:`GameNotFoundError`."""
        check_game_id(game_id)

        async def body(db: Connection) -> list[GameRecord]:
            return await load_games(db, _BY_ID, (game_id,))

        records = await self._transaction(body, write=False, what=f"reading game {game_id}")
        if not records:
            raise GameNotFoundError(game_id)
        return records[0]

    async def unfinished_games(self) -> list[GameRecord]:
        """Every game waiting or in play, whole, oldest first: what the server
        restores after a restart."""

        async def body(db: Connection) -> list[GameRecord]:
            return await load_games(db, _UNFINISHED, ())

        return await self._transaction(body, write=False, what="reading unfinished games")

    async def games_by_state(self) -> dict[GameState, int]:
        """How many games are in each state (every state present), for ``/metrics``."""

        async def body(db: Connection) -> dict[GameState, int]:
            counts = dict.fromkeys(GameState, 0)
            for state, count in await db.fetch("SELECT state, count(*) FROM games GROUP BY state"):
                counts[GameState(state)] = count
            return counts

        return await self._transaction(body, write=False, what="counting games")


async def _append_moves(batch: Sequence[PendingMove], db: Connection) -> list[StoreError | None]:
    """Insert each move of ``batch`` that fits its game (in one open transaction);
    per move, None if inserted or the error refusing it (nothing written for it).

    The batch's games are locked first, in id order (two servers locking the same
    games never wait for each other in a circle), with the next ply of each."""
    games = {
        row[0]: [row[1], row[2]]
        for row in await db.fetch(
            "SELECT g.id, g.state,"
            " (SELECT coalesce(max(m.ply) + 1, 0) FROM moves m WHERE m.game_id = g.id)"
            " FROM games g WHERE g.id = ANY($1::bigint[]) ORDER BY g.id FOR UPDATE",
            sorted({pending.game_id for pending in batch}),
        )
    }
    refusals: list[StoreError | None] = []
    rows = []
    for pending in batch:
        state, expected_ply = games.get(pending.game_id, (None, 0))
        refusal = move_refusal(pending, state, expected_ply)
        refusals.append(refusal)
        if refusal is None:
            games[pending.game_id][1] = expected_ply + 1  # a later move of the batch
            rows.append((pending.game_id, pending.ply, pending.move, pending.at, pending.clock_ms))
    if rows:
        await db.executemany(
            "INSERT INTO moves (game_id, ply, move, at, clock_ms) VALUES ($1, $2, $3, $4, $5)",
            rows,
        )
    return refusals


async def _locked_state(db: Connection, game_id: int) -> GameState:
    """The game's state, its row locked until the transaction ends."""
    state = await db.fetchval("SELECT state FROM games WHERE id = $1 FOR UPDATE", game_id)
    return game_state(game_id, state)


# The games this part reads: fixed clauses, so no text from outside reaches the SQL.
_BY_ID = "g.id = $1"
_UNFINISHED = "g.state <> 'finished'"


async def load_games(db: Connection, where: str, parameters: tuple[Any, ...]) -> list[GameRecord]:
    """The whole records of the games that ``where`` selects, oldest first.

    ``where`` is a condition on ``games g`` (its ``$1``... filled from
    ``parameters``): always one of the store's own fixed clauses, never text from
    outside (as :func:`server.store.games.load_games`)."""
    games = await db.fetch(
        f"SELECT {GAME_COLUMNS} FROM games g WHERE {where} ORDER BY g.id",  # noqa: S608
        *parameters,
    )
    seats = await db.fetch(
        "SELECT s.game_id, s.side, s.name, s.kind, s.ai_level, s.session, s.player"  # noqa: S608
        f" FROM seats s JOIN games g ON g.id = s.game_id WHERE {where}",
        *parameters,
    )
    moves = await db.fetch(
        "SELECT m.game_id, m.ply, m.move, m.at, m.clock_ms"  # noqa: S608
        f" FROM moves m JOIN games g ON g.id = m.game_id WHERE {where} ORDER BY m.game_id, m.ply",
        *parameters,
    )
    return game_records(games, seats, moves)
