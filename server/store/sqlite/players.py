"""Durable players on SQLite: the SQL of :class:`boardroom.server.store.players.PlayersStorage`,
and :func:`insert_player`, which class mode's enrolment shares."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from boardroom.server.sqlite_thread import SQLiteThread
from boardroom.server.store.checks import player_not_new
from boardroom.server.store.errors import InvalidRecordError
from boardroom.server.store.players import PlayersStorage
from boardroom.server.store.rows import PLAYER_COLUMNS, Row
from boardroom.server.store.sqlite.base import SQLiteBase

__all__ = ["SQLitePlayers", "insert_player"]


class SQLitePlayers(PlayersStorage[SQLiteThread], SQLiteBase):
    """The players table on SQLite."""

    async def _insert_player(self, row: tuple[object, ...], *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            insert_player(db, row)

        await self._transaction(body, write=True, what=what)

    async def _player_by_hash(self, token_hash: str, *, what: str) -> Row | None:
        def body(db: sqlite3.Connection) -> Row | None:
            row: Row | None = db.execute(
                f"SELECT {PLAYER_COLUMNS}, token_hash FROM players"  # noqa: S608
                " WHERE token_hash = ?",
                (token_hash,),
            ).fetchone()
            return row

        return await self._transaction(body, write=False, what=what)

    async def _player(self, player_id: str, *, what: str) -> Row | None:
        def body(db: sqlite3.Connection) -> Row | None:
            return _player_of(db, player_id)

        return await self._transaction(body, write=False, what=what)

    async def _seen(self, player_id: str, name: str, seen: float, *, what: str) -> None:
        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE players SET name = ?, last_seen = ? WHERE id = ?", (name, seen, player_id)
            )

        await self._transaction(body, write=True, what=what)

    async def _revoke(self, player_id: str, revoked_at: float, *, what: str) -> Row | None:
        def body(db: sqlite3.Connection) -> Row | None:
            db.execute(
                "UPDATE players SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?",
                (revoked_at, player_id),
            )
            return _player_of(db, player_id)

        return await self._transaction(body, write=True, what=what)

    async def _replace_token(self, player_id: str, token_hash: str, *, what: str) -> bool:
        def body(db: sqlite3.Connection) -> bool:
            try:
                cursor = db.execute(
                    "UPDATE players SET token_hash = ? WHERE id = ?"
                    " AND revoked_at IS NULL AND merged_into IS NULL",
                    (token_hash, player_id),
                )
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError("that token is another player's") from error
            return cursor.rowcount > 0

        return await self._transaction(body, write=True, what=what)

    async def _aliases(self, *, what: str) -> Iterable[tuple[str, str]]:
        def body(db: sqlite3.Connection) -> list[tuple[str, str]]:
            return db.execute(
                "SELECT id, merged_into FROM players WHERE merged_into IS NOT NULL"
            ).fetchall()

        return await self._transaction(body, write=False, what=what)


def insert_player(db: sqlite3.Connection, row: tuple[object, ...]) -> None:
    """Insert a :func:`~boardroom.server.store.checks.player_row`, inside the caller's write
    transaction. Raises :class:`InvalidRecordError` for an id or a hash stored already."""
    try:
        db.execute(
            "INSERT INTO players (id, token_hash, name, kind, created_at, last_seen)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            row,
        )
    except sqlite3.IntegrityError as error:
        raise player_not_new(row) from error


def _player_of(db: sqlite3.Connection, player_id: str) -> Row | None:
    row: Row | None = db.execute(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = ?",  # noqa: S608
        (player_id,),
    ).fetchone()
    return row
