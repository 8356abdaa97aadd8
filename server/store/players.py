"""Durable players (:mod:`server.core.players`): made, found by their token's
hash, seen, revoked.

The store never sees a token: the hub hands it the token's hash
(:func:`~server.core.players.token_hash`) and the public id beside it. A lookup
goes by the hash's index, then :func:`~server.core.players.same_token_hash`
compares the stored hash with the one presented in constant time, and that
comparison decides.
"""

from __future__ import annotations

import sqlite3

from server.core.players import PlayerRecord, same_token_hash
from server.store.base import StoreBase
from server.store.checks import check_time, is_hash, player_not_new, player_row
from server.store.errors import InvalidRecordError, PlayerNotFoundError
from server.store.rows import PLAYER_COLUMNS as _COLUMNS
from server.store.rows import player_record as _player

__all__ = ["PlayersStorage", "insert_player"]


class PlayersStorage(StoreBase):
    """The players table. See :mod:`server.store` for the contracts."""

    async def add_player(self, player: PlayerRecord, token_hash: str | None) -> None:
        """Store a new player, known by ``token_hash`` (64 hex digits; None: a
        player nobody can say hello as). Raises :class:`InvalidRecordError` for
        a kind that is not human or bot, an empty name, a bad hash, or an id or
        hash stored already."""
        row = player_row(player, token_hash)

        def body(db: sqlite3.Connection) -> None:
            insert_player(db, row)

        await self._transaction(body, write=True, what=f"adding player {player.id}")

    async def player_by_token_hash(self, token_hash: str) -> PlayerRecord | None:
        """The player whose token has this hash (revoked or not); None if none has."""
        if not is_hash(token_hash):
            return None

        def body(db: sqlite3.Connection) -> PlayerRecord | None:
            row = db.execute(
                f"SELECT {_COLUMNS}, token_hash FROM players WHERE token_hash = ?",  # noqa: S608
                (token_hash,),
            ).fetchone()
            if row is None or not same_token_hash(row[-1], token_hash):
                return None
            return _player(row)

        return await self._transaction(body, write=False, what="looking up a player")

    async def get_player(self, player_id: str) -> PlayerRecord:
        """The player with this id. Raises :class:`PlayerNotFoundError`."""

        def body(db: sqlite3.Connection) -> PlayerRecord | None:
            row = db.execute(
                f"SELECT {_COLUMNS} FROM players WHERE id = ?",  # noqa: S608
                (player_id,),
            ).fetchone()
            return None if row is None else _player(row)

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

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE players SET name = ?, last_seen = ? WHERE id = ?", (name, seen, player_id)
            )

        await self._transaction(body, write=True, what=f"seeing player {player_id}")

    async def revoke_player(self, player_id: str, at: float) -> PlayerRecord:
        """Revoke the player's token from ``at`` on (a token revoked already keeps
        its first time) and return the player. Raises :class:`PlayerNotFoundError`."""
        revoked_at = check_time("at", at)

        def body(db: sqlite3.Connection) -> PlayerRecord | None:
            db.execute(
                "UPDATE players SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?",
                (revoked_at, player_id),
            )
            row = db.execute(
                f"SELECT {_COLUMNS} FROM players WHERE id = ?",  # noqa: S608
                (player_id,),
            ).fetchone()
            return None if row is None else _player(row)

        player = await self._transaction(body, write=True, what=f"revoking player {player_id}")
        if player is None:
            raise PlayerNotFoundError(player_id)
        return player

    async def replace_token(self, player_id: str, token_hash: str) -> None:
        """Make ``token_hash`` the player's token from now on: the old token opens
        nothing. Raises :class:`PlayerNotFoundError` for no such player, or a
        revoked or merged one (its token opens nothing of its own), and
        :class:`InvalidRecordError` for a bad hash or one another player has."""
        if not is_hash(token_hash):
            raise InvalidRecordError("a token hash is 64 lower-case hex digits")

        def body(db: sqlite3.Connection) -> None:
            try:
                changed = db.execute(
                    "UPDATE players SET token_hash = ? WHERE id = ?"
                    " AND revoked_at IS NULL AND merged_into IS NULL",
                    (token_hash, player_id),
                ).rowcount
            except sqlite3.IntegrityError as error:
                raise InvalidRecordError("that token is another player's") from error
            if not changed:
                raise PlayerNotFoundError(player_id)

        await self._transaction(body, write=True, what=f"replacing player {player_id}'s token")

    async def player_aliases(self) -> dict[str, str]:
        """Every merged player's id, mapped to the player it was merged into (a
        player merged twice maps to the last: merges re-point earlier ones)."""

        def body(db: sqlite3.Connection) -> dict[str, str]:
            rows = db.execute("SELECT id, merged_into FROM players WHERE merged_into IS NOT NULL")
            return dict(rows)

        return await self._transaction(body, write=False, what="reading merged players")


def insert_player(db: sqlite3.Connection, row: tuple[object, ...]) -> None:
    """Insert a :func:`player_row`, inside the caller's write transaction.
    Raises :class:`InvalidRecordError` for an id or a hash stored already."""
    try:
        db.execute(
            "INSERT INTO players (id, token_hash, name, kind, created_at, last_seen)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            row,
        )
    except sqlite3.IntegrityError as error:
        raise player_not_new(row) from error
