"""Durable players on PostgreSQL: made, found by their token's hash, seen, revoked
(the contracts of :mod:`server.store.players`, the same checks and records)."""

from __future__ import annotations

from collections.abc import Sequence

from server.core.players import PlayerRecord, same_token_hash
from server.store.checks import check_time, is_hash, player_not_new, player_row
from server.store.errors import InvalidRecordError, PlayerNotFoundError
from server.store.postgres.base import SCHEMA_REFUSALS, Connection, PostgresBase
from server.store.rows import PLAYER_COLUMNS, player_record

__all__ = ["PostgresPlayers", "insert_player"]


class PostgresPlayers(PostgresBase):
    """The players table. See :mod:`server.store.players` for the contracts."""

    async def add_player(self, player: PlayerRecord, token_hash: str | None) -> None:
        """Store a new player, known by ``token_hash``
        (:meth:`server.store.GameStore.add_player`)."""
        row = player_row(player, token_hash)

        async def body(db: Connection) -> None:
            await insert_player(db, row)

        await self._transaction(body, write=True, what=f"adding player {player.id}")

    async def player_by_token_hash(self, token_hash: str) -> PlayerRecord | None:
        """The player whose token has this hash (revoked or not); None if none has."""
        if not is_hash(token_hash):
            return None

        async def body(db: Connection) -> PlayerRecord | None:
            row = await db.fetchrow(
                f"SELECT {PLAYER_COLUMNS}, token_hash FROM players"  # noqa: S608
                " WHERE token_hash = $1",
                token_hash,
            )
            if row is None or not same_token_hash(row[-1], token_hash):
                return None
            return player_record(row)

        return await self._transaction(body, write=False, what="looking up a player")

    async def get_player(self, player_id: str) -> PlayerRecord:
        """The player with this id. Raises :class:`PlayerNotFoundError`."""

        async def body(db: Connection) -> PlayerRecord | None:
            return await _player_of(db, player_id)

        player = await self._transaction(body, write=False, what=f"reading player {player_id}")
        if player is None:
            raise PlayerNotFoundError(player_id)
        return player

    async def player_seen(self, player_id: str, *, name: str, at: float) -> None:
        """The player said hello as ``name`` at ``at``: its name and ``last_seen``
        follow. An unknown id changes nothing."""
        if not isinstance(name, str) or not name.strip():
            raise InvalidRecordError(f"a player's name must be non-empty, not {name!r}")
        seen = check_time("at", at)

        async def body(db: Connection) -> None:
            await db.execute(
                "UPDATE players SET name = $1, last_seen = $2 WHERE id = $3", name, seen, player_id
            )

        await self._transaction(body, write=True, what=f"seeing player {player_id}")

    async def revoke_player(self, player_id: str, at: float) -> PlayerRecord:
        """Revoke the player's token from ``at`` on (a token revoked already keeps
        its first time) and return the player. Raises :class:`PlayerNotFoundError`."""
        revoked_at = check_time("at", at)

        async def body(db: Connection) -> PlayerRecord | None:
            await db.execute(
                "UPDATE players SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2",
                revoked_at,
                player_id,
            )
            return await _player_of(db, player_id)

        player = await self._transaction(body, write=True, what=f"revoking player {player_id}")
        if player is None:
            raise PlayerNotFoundError(player_id)
        return player

    async def replace_token(self, player_id: str, token_hash: str) -> None:
        """Make ``token_hash`` the player's token from now on
        (:meth:`server.store.GameStore.replace_token` for the refusals)."""
        if not is_hash(token_hash):
            raise InvalidRecordError("a token hash is 64 lower-case hex digits")

        async def body(db: Connection) -> None:
            try:
                changed = await db.fetchval(
                    "UPDATE players SET token_hash = $1 WHERE id = $2"
                    " AND revoked_at IS NULL AND merged_into IS NULL RETURNING id",
                    token_hash,
                    player_id,
                )
            except SCHEMA_REFUSALS as error:
                raise InvalidRecordError("that token is another player's") from error
            if changed is None:
                raise PlayerNotFoundError(player_id)

        await self._transaction(body, write=True, what=f"replacing player {player_id}'s token")

    async def player_aliases(self) -> dict[str, str]:
        """Every merged player's id, mapped to the player it was merged into."""

        async def body(db: Connection) -> dict[str, str]:
            rows = await db.fetch(
                "SELECT id, merged_into FROM players WHERE merged_into IS NOT NULL"
            )
            return {row[0]: row[1] for row in rows}

        return await self._transaction(body, write=False, what="reading merged players")


async def insert_player(db: Connection, row: Sequence[object]) -> None:
    """Insert a :func:`~server.store.checks.player_row`, inside the caller's write
    transaction. Raises :class:`InvalidRecordError` for an id or a hash stored already."""
    try:
        await db.execute(
            "INSERT INTO players (id, token_hash, name, kind, created_at, last_seen)"
            " VALUES ($1, $2, $3, $4, $5, $6)",
            *row,
        )
    except SCHEMA_REFUSALS as error:
        raise player_not_new(row) from error


async def _player_of(db: Connection, player_id: str) -> PlayerRecord | None:
    row = await db.fetchrow(
        f"SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1",  # noqa: S608
        player_id,
    )
    return None if row is None else player_record(row)
