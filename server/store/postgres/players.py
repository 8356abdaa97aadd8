"""Durable players on PostgreSQL: the SQL of :class:`boardroom.server.store.players.PlayersStorage`,
and :func:`insert_player`, which class mode's enrolment shares."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import asyncpg

from boardroom.server.store.checks import player_not_new
from boardroom.server.store.errors import InvalidRecordError
from boardroom.server.store.players import PlayersStorage
from boardroom.server.store.postgres.base import SCHEMA_REFUSALS, Connection, PostgresBase
from boardroom.server.store.rows import PLAYER_COLUMNS, Row

__all__ = ["PostgresPlayers", "insert_player"]


class PostgresPlayers(PlayersStorage[asyncpg.Pool], PostgresBase):
    """The players table on PostgreSQL."""

    async def _insert_player(self, row: tuple[object, ...], *, what: str) -> None:
        async def body(db: Connection) -> None:
            await insert_player(db, row)

        await self._transaction(body, write=True, what=what)

    async def _player_by_hash(self, token_hash: str, *, what: str) -> Row | None:
        async def body(db: Connection) -> Row | None:
            row: Row | None = await db.fetchrow(
                f"SELECT {PLAYER_COLUMNS}, token_hash FROM players"  # noqa: S608
                " WHERE token_hash = $1",
                token_hash,
            )
            return row

        return await self._transaction(body, write=False, what=what)

    async def _player(self, player_id: str, *, what: str) -> Row | None:
        async def body(db: Connection) -> Row | None:
            return await _player_of(db, player_id)

        return await self._transaction(body, write=False, what=what)

    async def _seen(self, player_id: str, name: str, seen: float, *, what: str) -> None:
        async def body(db: Connection) -> None:
            await db.execute(
                "UPDATE players SET name = $1, last_seen = $2 WHERE id = $3", name, seen, player_id
            )

        await self._transaction(body, write=True, what=what)

    async def _revoke(self, player_id: str, revoked_at: float, *, what: str) -> Row | None:
        async def body(db: Connection) -> Row | None:
            await db.execute(
                "UPDATE players SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2",
                revoked_at,
                player_id,
            )
            return await _player_of(db, player_id)

        return await self._transaction(body, write=True, what=what)

    async def _replace_token(self, player_id: str, token_hash: str, *, what: str) -> bool:
        async def body(db: Connection) -> bool:
            try:
                changed = await db.fetchval(
                    "UPDATE players SET token_hash = $1 WHERE id = $2"
                    " AND revoked_at IS NULL AND merged_into IS NULL RETURNING id",
                    token_hash,
                    player_id,
                )
            except SCHEMA_REFUSALS as error:
                raise InvalidRecordError("that token is another player's") from error
            return changed is not None

        return await self._transaction(body, write=True, what=what)

    async def _aliases(self, *, what: str) -> Iterable[tuple[str, str]]:
        async def body(db: Connection) -> list[tuple[str, str]]:
            rows = await db.fetch(
                "SELECT id, merged_into FROM players WHERE merged_into IS NOT NULL"
            )
            return [(row[0], row[1]) for row in rows]

        return await self._transaction(body, write=False, what=what)


async def insert_player(db: Connection, row: Sequence[object]) -> None:
    """Insert a :func:`~boardroom.server.store.checks.player_row`, inside the caller's write
    transaction. Raises :class:`InvalidRecordError` for an id or a hash stored already."""
    try:
        await db.execute(
            "INSERT INTO players (id, token_hash, name, kind, created_at, last_seen)"
            " VALUES ($1, $2, $3, $4, $5, $6)",
            *row,
        )
    except SCHEMA_REFUSALS as error:
        raise player_not_new(row) from error


async def _player_of(db: Connection, player_id: str) -> Row | None:
    row: Row | None = await db.fetchrow(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1",  # noqa: S608
        player_id,
    )
    return row
