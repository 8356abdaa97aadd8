"""The hub's way to durable players: a token presented in ``hello`` checked, a
new player made and stored, a known one seen.

The rules are :mod:`server.core.players`; the rows are :mod:`server.store.players`.
Each store call is one transaction on the store's thread, off the event loop:
a lookup per ``hello`` with a token, one INSERT per new player, and a write of
``last_seen`` at most once a minute per player (or when its name changes).

Guessing is rate-limited per network address: each refused token (unknown or
revoked) takes a token from the address's bucket
(:class:`~server.core.limits.AddressRateLimits`, by default
:data:`~server.core.limits.DEFAULT_TOKEN_GUESSES` a
:data:`~server.core.limits.DEFAULT_TOKEN_GUESS_SECONDS`), and while it is
empty, tokens from that address get ``rate_limited`` without being looked up.

Tokens are never logged: this module logs player ids only, and the store sees
hashes only.
"""

from __future__ import annotations

import logging
import time

from server.core.limits import (
    DEFAULT_TOKEN_GUESS_SECONDS,
    DEFAULT_TOKEN_GUESSES,
    AddressRateLimits,
)
from server.core.players import (
    PlayerRecord,
    SeenThrottle,
    is_player_token,
    new_player_token,
    player_id_for,
    token_hash,
)
from server.core.records import PlayerKind
from server.store import Store, StoreError
from shared.protocol.errors import ErrorCode, ProtocolError

__all__ = ["REVOKED", "PlayerDirectory"]

logger = logging.getLogger(__name__)

REVOKED = (
    "this player's token was revoked: it opens nothing any more; say hello "
    "without player_token to be a new player"
)
"""What ``player_token_revoked`` says."""


class PlayerDirectory:
    """Players for the hub's ``hello`` (see the module docstring). ``store`` is
    open for as long as the directory is used."""

    def __init__(
        self,
        store: Store,
        *,
        guesses: int = DEFAULT_TOKEN_GUESSES,
        guess_seconds: float = DEFAULT_TOKEN_GUESS_SECONDS,
    ) -> None:
        self._store = store
        self._refusals = AddressRateLimits(guesses / guess_seconds, guesses)
        self._guesses = guesses
        self._guess_seconds = guess_seconds
        self._seen = SeenThrottle()

    async def known(self, token: str, address: str) -> PlayerRecord:
        """The player ``token`` belongs to. Raises :class:`ProtocolError`:
        ``rate_limited`` (with ``retry_after``, nothing looked up) while
        ``address`` is out of refusals; ``bad_player_token`` for a token no
        player has; ``player_token_revoked`` for a revoked one (the hub then
        closes the connection). A refusal takes one of the address's refusals.
        The token of a player merged into another opens that other player."""
        now = time.monotonic()
        delay = self._refusals.wait(address, now)
        if delay is not None:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"too many refused player tokens from {address}: at most {self._guesses} "
                f"every {self._guess_seconds:g} s; retry in {delay:.2f} s",
                retry_after=round(delay, 2),
            )
        player = None
        if is_player_token(token):  # anything else cannot be one: no lookup
            player = await self._store.player_by_token_hash(token_hash(token))
        if player is None:
            self._refusals.check(address, now)
            raise ProtocolError(
                ErrorCode.BAD_PLAYER_TOKEN,
                "that player token is unknown here: say hello without player_token "
                "to be a new player",
            )
        if player.merged_into is not None and not player.revoked:
            # A teacher merged this player into another: its token opens that one.
            player = await self._store.get_player(player.merged_into)
        if player.revoked:
            self._refusals.check(address, now)
            logger.info("a revoked player token was refused", extra={"player": player.id})
            raise ProtocolError(ErrorCode.PLAYER_TOKEN_REVOKED, REVOKED)
        return player

    async def new(self, name: str, kind: PlayerKind) -> tuple[PlayerRecord, str]:
        """Make and store a new player called ``name`` (a checked name) of ``kind``
        (human or bot); return it and its token, which exists nowhere else: the
        store keeps its hash. Raises :class:`~server.store.StoreError` if it
        cannot be stored."""
        token = new_player_token()
        now = time.time()
        player = PlayerRecord(player_id_for(token), name, kind, created_at=now, last_seen=now)
        # Ids are 64 bits of the hash: two players would share one once in
        # billions of servers. The store would refuse the second (InvalidRecordError).
        await self._store.add_player(player, token_hash(token))
        self._seen.due(player.id, time.monotonic())
        return player, token

    async def seen(self, player: PlayerRecord, name: str) -> None:
        """``player`` said hello as ``name``: store the name if it changed, and
        ``last_seen`` if its minute is up. A failed write is logged, not raised:
        nobody's hello waits on when they were last seen."""
        due = self._seen.due(player.id, time.monotonic())
        if name == player.name and not due:
            return
        try:
            await self._store.player_seen(player.id, name=name, at=time.time())
        except StoreError:
            logger.warning("storing when a player was seen failed", extra={"player": player.id})
