"""Durable players (:mod:`boardroom.server.core.players`): made, found by their token's
hash, seen, revoked. The methods, their contracts and their checks, for either backend.

The store never sees a token: the hub hands it the token's hash
(:func:`~boardroom.server.core.players.token_hash`) and the public id beside it. A lookup
goes by the hash's index, then :func:`~boardroom.server.core.players.same_token_hash`
compares the stored hash with the one presented in constant time, and that
comparison decides.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable

from boardroom.server.core.players import PlayerRecord, same_token_hash
from boardroom.server.store.base import Handle, StoreBase
from boardroom.server.store.checks import check_time, is_hash, player_row
from boardroom.server.store.errors import InvalidRecordError, PlayerNotFoundError
from boardroom.server.store.rows import Row, player_record

__all__ = ["PlayersStorage"]


class PlayersStorage(StoreBase[Handle]):
    """The players table. See :mod:`boardroom.server.store` for the contracts."""

    async def add_player(self, player: PlayerRecord, token_hash: str | None) -> None:
        """Store a new player, known by ``token_hash`` (64 hex digits; None: a
        player nobody can say hello as). Raises :class:`InvalidRecordError` for
        a kind that is not human or bot, an empty name, a bad hash, or an id or
        hash stored already."""
        row = player_row(player, token_hash)
        await self._insert_player(row, what=f"adding player {player.id}")

    async def player_by_token_hash(self, token_hash: str) -> PlayerRecord | None:
        """The player whose token has this hash (revoked or not); None if none has."""
        if not is_hash(token_hash):
            return None
        row = await self._player_by_hash(token_hash, what="looking up a player")
        if row is None or not same_token_hash(row[-1], token_hash):
            return None
        return player_record(row)

    async def get_player(self, player_id: str) -> PlayerRecord:
        """The player with this id. Raises :class:`PlayerNotFoundError`."""
        row = await self._player(player_id, what=f"reading player {player_id}")
        if row is None:
            raise PlayerNotFoundError(player_id)
        return player_record(row)

    async def player_seen(self, player_id: str, *, name: str, at: float) -> None:
        """The player said hello as ``name`` at ``at``: its name and ``last_seen``
        follow. An unknown id changes nothing."""
        if not isinstance(name, str) or not name.strip():
            raise InvalidRecordError(f"a player's name must be non-empty, not {name!r}")
        seen = check_time("at", at)
        await self._seen(player_id, name, seen, what=f"seeing player {player_id}")

    async def revoke_player(self, player_id: str, at: float) -> PlayerRecord:
        """Revoke the player's token from ``at`` on (a token revoked already keeps
        its first time) and return the player. Raises :class:`PlayerNotFoundError`."""
        revoked_at = check_time("at", at)
        row = await self._revoke(player_id, revoked_at, what=f"revoking player {player_id}")
        if row is None:
            raise PlayerNotFoundError(player_id)
        return player_record(row)

    async def replace_token(self, player_id: str, token_hash: str) -> None:
        """Make ``token_hash`` the player's token from now on: the old token opens
        nothing. Raises :class:`PlayerNotFoundError` for no such player, or a
        revoked or merged one (its token opens nothing of its own), and
        :class:`InvalidRecordError` for a bad hash or one another player has."""
        if not is_hash(token_hash):
            raise InvalidRecordError("a token hash is 64 lower-case hex digits")
        what = f"replacing player {player_id}'s token"
        if not await self._replace_token(player_id, token_hash, what=what):
            raise PlayerNotFoundError(player_id)

    async def player_aliases(self) -> dict[str, str]:
        """Every merged player's id, mapped to the player it was merged into (a
        player merged twice maps to the last: merges re-point earlier ones)."""
        return dict(await self._aliases(what="reading merged players"))

    # -- what a backend supplies --------------------------------------------------------

    @abstractmethod
    async def _insert_player(self, row: tuple[object, ...], *, what: str) -> None:
        """Insert a :func:`~boardroom.server.store.checks.player_row` in one write
        (``player_not_new`` for an id or hash stored already)."""

    @abstractmethod
    async def _player_by_hash(self, token_hash: str, *, what: str) -> Row | None:
        """The :data:`~boardroom.server.store.rows.PLAYER_COLUMNS` and ``token_hash`` of the
        player found by the hash's index; None if none."""

    @abstractmethod
    async def _player(self, player_id: str, *, what: str) -> Row | None:
        """The :data:`~boardroom.server.store.rows.PLAYER_COLUMNS` of the player; None if none."""

    @abstractmethod
    async def _seen(self, player_id: str, name: str, seen: float, *, what: str) -> None:
        """Set the player's name and ``last_seen`` in one write."""

    @abstractmethod
    async def _revoke(self, player_id: str, revoked_at: float, *, what: str) -> Row | None:
        """Set ``revoked_at`` unless set, and read the player back, in one write."""

    @abstractmethod
    async def _replace_token(self, player_id: str, token_hash: str, *, what: str) -> bool:
        """Set the token hash of a player neither revoked nor merged, in one write;
        whether one was changed (:class:`InvalidRecordError` for a hash taken)."""

    @abstractmethod
    async def _aliases(self, *, what: str) -> Iterable[tuple[str, str]]:
        """``(id, merged_into)`` of every merged player."""
