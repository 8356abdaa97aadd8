"""The games on PostgreSQL: the SQL of :class:`boardroom.server.store.games.GamesStorage`
(its contracts, checks and group commit), and :func:`load_games`, the reader of
whole records that class mode shares. A group commit is written in two round
trips for its moves, the batch's games locked in id order.
"""

from __future__ import annotations

import functools
from collections.abc import Coroutine, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg

from boardroom.server.core.records import GameRecord, GameState
from boardroom.server.store.checks import (
    NewGame,
    PendingMove,
    check_finish,
    check_seat_change,
    check_start,
    game_state,
    move_refusal,
)
from boardroom.server.store.errors import StorageFailedError, StoreError
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
from boardroom.server.store.postgres.base import SCHEMA_REFUSALS, Connection, PostgresBase
from boardroom.server.store.rows import game_records

__all__ = ["PostgresGames", "load_games"]


class PostgresGames(GamesStorage[asyncpg.Pool], PostgresBase):
    """The games table, its seats and moves, on PostgreSQL."""

    async def _seat(self, game_id: int, side: int, row: SeatRow | None, *, what: str) -> None:
        async def body(db: Connection) -> None:
            check_seat_change(game_id, await _locked_state(db, game_id))
            if row is None:
                await db.execute(
                    "DELETE FROM seats WHERE game_id = $1 AND side = $2", game_id, side
                )
            else:
                await db.execute(
                    "INSERT INTO seats (game_id, side, name, kind, ai_level, session, player)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (game_id, side) DO UPDATE"
                    " SET name = excluded.name, kind = excluded.kind,"
                    " ai_level = excluded.ai_level, session = excluded.session,"
                    " player = excluded.player",
                    game_id,
                    side,
                    *row,
                )

        await self._transaction(body, write=True, what=what)

    async def _start(self, game_id: int, started_at: float, *, what: str) -> None:
        async def body(db: Connection) -> None:
            state = await _locked_state(db, game_id)
            seated = await db.fetchval("SELECT count(*) FROM seats WHERE game_id = $1", game_id)
            check_start(game_id, state, seated)
            await db.execute(
                "UPDATE games SET state = 'playing', started_at = $1 WHERE id = $2",
                started_at,
                game_id,
            )

        await self._transaction(body, write=True, what=what)

    async def _store_batch(
        self, handle: asyncpg.Pool, batch: Sequence[PendingWrite], *, what: str
    ) -> list[BatchResult]:
        write = functools.partial(_write_batch, batch, self.path)
        return await self._in_transaction(handle, write, write=True, what=what)

    async def _read_games(
        self, which: GamesOf, parameters: tuple[Any, ...], *, what: str
    ) -> list[GameRecord]:
        async def body(db: Connection) -> list[GameRecord]:
            return await load_games(db, which, parameters)

        return await self._transaction(body, write=False, what=what)

    async def _count_states(self, *, what: str) -> Iterable[tuple[str, int]]:
        async def body(db: Connection) -> list[tuple[str, int]]:
            rows = await db.fetch("SELECT state, count(*) FROM games GROUP BY state")
            return [(row[0], row[1]) for row in rows]

        return await self._transaction(body, write=False, what=what)


async def _write_batch(
    batch: Sequence[PendingWrite], path: str, db: Connection
) -> list[BatchResult]:
    """Write each write of ``batch`` that fits (in one open transaction, in order);
    per write, a :data:`BatchResult` (nothing written for a refused one).

    The games the batch moves or ends are locked first, in id order (two servers
    locking the same games never wait for each other in a circle), with the next
    ply of each; the moves go in one round trip for each run of them between
    new games and ends, and a new game or an end in a savepoint of its own."""
    locked = sorted({p.game_id for p in batch if not isinstance(p, PendingGame)})
    games: dict[int, list[Any]] = {}
    if locked:
        games = {
            row[0]: [row[1], row[2]]
            for row in await db.fetch(
                "SELECT g.id, g.state,"
                " (SELECT coalesce(max(m.ply) + 1, 0) FROM moves m WHERE m.game_id = g.id)"
                " FROM games g WHERE g.id = ANY($1::bigint[]) ORDER BY g.id FOR UPDATE",
                locked,
            )
        }
    results: list[BatchResult] = []
    rows: list[tuple[Any, ...]] = []
    for pending in batch:
        if isinstance(pending, PendingMove) and pending.ending is None:
            state, expected_ply = games.get(pending.game_id, (None, 0))
            refusal = move_refusal(pending, state, expected_ply)
            results.append(refusal)
            if refusal is None:
                games[pending.game_id][1] = expected_ply + 1  # a later move of the batch
                rows.append(
                    (
                        pending.game_id,
                        pending.ply,
                        pending.move,
                        pending.at,
                        pending.clock_ms,
                        pending.autopilot,
                    )
                )
            continue
        await _insert_moves(db, rows)
        if isinstance(pending, PendingGame):
            results.append(await _alone(db, path, "creating a game", _insert_game(db, pending.new)))
        elif isinstance(pending, PendingMove):
            game = games.get(pending.game_id)
            what = "storing a game's last move and its end"
            result = await _alone(db, path, what, _append_final_move(db, pending, game))
            if result is None and game is not None:
                game[0] = GameState.FINISHED.value  # a later move of the batch is refused
            results.append(result)
        else:
            game = games.get(pending.game_id)
            result = await _alone(db, path, "finishing a game", _finish(db, pending, game))
            if result is None and game is not None:
                game[0] = GameState.FINISHED.value  # a later move of the batch is refused
            results.append(result)
    await _insert_moves(db, rows)
    return results


async def _insert_moves(db: Connection, rows: list[tuple[Any, ...]]) -> None:
    """Insert the moves of ``rows`` (checked already), and empty it."""
    if rows:
        await db.executemany(
            "INSERT INTO moves (game_id, ply, move, at, clock_ms, autopilot)"
            " VALUES ($1, $2, $3, $4, $5, $6)",
            rows,
        )
        rows.clear()


_T = TypeVar("_T")


async def _alone(
    db: Connection, path: str, what: str, write: Coroutine[Any, Any, _T]
) -> _T | StoreError:
    """``write`` within a savepoint: its result, or what refused it (its
    StoreError, or the schema's refusal as a StorageFailedError), with nothing of
    it left written and the rest of the batch going on. A failure of the
    connection ends the whole batch."""
    try:
        async with db.transaction():
            return await write
    except StoreError as error:
        return error
    except SCHEMA_REFUSALS as error:
        return StorageFailedError(f"{what} failed in {path}: {error}")


async def _insert_game(db: Connection, new: NewGame) -> int:
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


async def _finish(db: Connection, pending: PendingEnd, game: list[Any] | None) -> None:
    """The end, checked against the game's state as locked at the batch's start
    (``game``: None if there is no such game)."""
    game_id = pending.game_id
    side, termination, finished_at = pending.ending
    check_finish(game_id, game_state(game_id, None if game is None else game[0]), termination)
    await db.execute(
        "UPDATE games SET state = 'finished', winner = $1, termination = $2,"
        " finished_at = $3 WHERE id = $4",
        side,
        termination.value,
        finished_at,
        game_id,
    )


async def _append_final_move(db: Connection, pending: PendingMove, game: list[Any] | None) -> None:
    """The move, then the end it brings (``pending.ending``), checked against the
    game as locked at the batch's start (``game``: its state and next ply, None if
    there is no such game); raises the refusal of either (in :func:`_alone`'s
    savepoint: nothing of both is left written)."""
    state, expected_ply = (None, 0) if game is None else game
    refusal = move_refusal(pending, state, expected_ply)
    if refusal is not None:
        raise refusal
    assert pending.ending is not None  # only a move with its end comes here
    await _insert_moves(
        db,
        [
            (
                pending.game_id,
                pending.ply,
                pending.move,
                pending.at,
                pending.clock_ms,
                pending.autopilot,
            )
        ],
    )
    await _finish(db, PendingEnd(pending.game_id, pending.ending, pending.stored), game)


async def _locked_state(db: Connection, game_id: int) -> GameState:
    """The game's state, its row locked until the transaction ends."""
    state = await db.fetchval("SELECT state FROM games WHERE id = $1 FOR UPDATE", game_id)
    return game_state(game_id, state)


async def load_games(
    db: Connection, which: GamesOf, parameters: tuple[Any, ...]
) -> list[GameRecord]:
    """The whole records of the games that ``which`` selects (its ``$1`` filled
    from ``parameters``), oldest first, in the caller's transaction."""
    games, seats, moves = [
        await db.fetch(query, *parameters) for query in game_queries(which, "$1")
    ]
    return game_records(games, seats, moves)
