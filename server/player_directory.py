"""The hub's way to durable players: a token presented in ``hello`` checked, a
new player made and stored, a known one seen.

The rules are :mod:`boardroom.server.core.players`; the rows are
:mod:`boardroom.server.store.players`. Each store call is one transaction on the store's thread, off
the event loop: a lookup per ``hello`` with a token, one INSERT per new player, and a write of
``last_seen`` at most once a minute per player (or when its name changes).

Every token presented is looked up (by its hash, one indexed row), so a valid
token always gets in, whoever else shares its network address. Guessing is
slowed per address instead: each refused token (unknown or revoked) counts, and
past :data:`~boardroom.server.core.limits.DEFAULT_TOKEN_GUESSES` a
:data:`~boardroom.server.core.limits.DEFAULT_TOKEN_GUESS_SECONDS` each refusal is answered
late (:class:`~boardroom.server.core.limits.RefusalDelays`, up to
:data:`~boardroom.server.core.limits.DEFAULT_REFUSAL_DELAY_MAX`): the connection reads
nothing else meanwhile, so one address guesses about one token a second at most.

New players are capped per address (:class:`~boardroom.server.core.limits.AddressRateLimits`,
:data:`~boardroom.server.core.limits.DEFAULT_NEW_PLAYERS` at once, then one every
:data:`~boardroom.server.core.limits.DEFAULT_NEW_PLAYER_SECONDS`): past it a hello that
would make one gets ``rate_limited`` with ``retry_after``, and nothing is made.

In class mode an unknown token is refused with ``unknown_class_token`` rather
than ``bad_player_token``: a class's students come in by the key on their card,
and a mistyped one must make nobody (a client that knows only
``bad_player_token`` would say hello again without it, and be a new student).

Tokens are never logged: this module logs player ids only, and the store sees
hashes only.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from boardroom.server.core.limits import (
    DEFAULT_NEW_PLAYER_SECONDS,
    DEFAULT_NEW_PLAYERS,
    DEFAULT_REFUSAL_DELAY_MAX,
    DEFAULT_TOKEN_GUESS_SECONDS,
    DEFAULT_TOKEN_GUESSES,
    AddressRateLimits,
    RefusalDelays,
)
from boardroom.server.core.players import (
    PlayerRecord,
    SeenThrottle,
    is_player_token,
    new_player_token,
    player_id_for,
    token_hash,
)
from boardroom.server.core.records import PlayerKind
from boardroom.server.store import PlayerNotFoundError, Store, StoreError
from boardroom.shared.protocol.errors import ErrorCode, ProtocolError

__all__ = ["NOT_A_CLASS_KEY", "REVOKED", "PlayerDirectory"]

logger = logging.getLogger(__name__)

REVOKED = (
    "this player's token was revoked: it opens nothing any more; say hello "
    "without player_token to be a new player"
)
"""What ``player_token_revoked`` says."""

NOT_A_CLASS_KEY = (
    "this link is not valid: ask your teacher for your card (the class's server "
    "does not know this key, and makes nobody new from it)"
)
"""What ``unknown_class_token`` says."""


class PlayerDirectory:
    """Players for the hub's ``hello`` (see the module docstring). ``store`` is
    open for as long as the directory is used. ``new_players`` 0 puts no cap on
    the players an address makes; ``sleep`` waits out a delayed refusal (tests
    give their own)."""

    def __init__(
        self,
        store: Store,
        *,
        class_mode: bool = False,
        guesses: int = DEFAULT_TOKEN_GUESSES,
        guess_seconds: float = DEFAULT_TOKEN_GUESS_SECONDS,
        max_refusal_delay: float = DEFAULT_REFUSAL_DELAY_MAX,
        new_players: int = DEFAULT_NEW_PLAYERS,
        new_player_seconds: float = DEFAULT_NEW_PLAYER_SECONDS,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._store = store
        self._class_mode = class_mode
        self._refusals = RefusalDelays(guesses / guess_seconds, guesses, max_refusal_delay)
        self._new_players = new_players
        self._new_player_seconds = new_player_seconds
        self._creations = (
            AddressRateLimits(1.0 / new_player_seconds, new_players) if new_players else None
        )
        # Spectators (a Watch tab, a projector, a parent looking in) keep no
        # token, so each visit makes a player: they get a bucket of their own,
        # as large, so that watching never uses up what a class needs to join.
        self._watcher_creations = (
            AddressRateLimits(1.0 / new_player_seconds, new_players) if new_players else None
        )
        self._sleep = sleep
        self._seen = SeenThrottle()

    async def known(self, token: str, address: str) -> PlayerRecord:
        """The player ``token`` belongs to. Raises :class:`ProtocolError`:
        ``bad_player_token`` for a token no player has (``unknown_class_token``
        in class mode); ``player_token_revoked`` for a revoked one (the hub then
        closes the connection). The token is always looked up: a valid one is
        never held up. A refusal counts for ``address``, and once the address
        has used up its refusals it is raised only after a delay (see the
        module docstring). The token of a player merged into another opens that
        other player."""
        player = None
        if is_player_token(token):  # anything else cannot be one: no lookup
            player = await self._store.player_by_token_hash(token_hash(token))
        if player is not None and player.merged_into is not None and not player.revoked:
            # A teacher merged this player into another: its token opens that one.
            player = await self._store.get_player(player.merged_into)
        if player is not None and not player.revoked:
            return player
        delay = self._refusals.refuse(address, time.monotonic())
        if delay > 0:
            # The connection reads nothing else while it waits: guessing is slow.
            await self._sleep(delay)
        if player is None:
            if self._class_mode:
                raise ProtocolError(ErrorCode.UNKNOWN_CLASS_TOKEN, NOT_A_CLASS_KEY)
            raise ProtocolError(
                ErrorCode.BAD_PLAYER_TOKEN,
                "that player token is unknown here: say hello without player_token "
                "to be a new player",
            )
        logger.info("a revoked player token was refused", extra={"player": player.id})
        raise ProtocolError(ErrorCode.PLAYER_TOKEN_REVOKED, REVOKED)

    async def revoked(self, player_id: str) -> bool:
        """Whether the store has ``player_id``'s token revoked (by the admin
        API, or by ``boardroom token revoke`` beside this server); False for a
        player it does not know. Raises :class:`~boardroom.server.store.StoreError`
        if it cannot be read."""
        try:
            player = await self._store.get_player(player_id)
        except PlayerNotFoundError:
            return False
        return player.revoked

    async def new(
        self,
        name: str,
        kind: PlayerKind,
        address: str | None = None,
        *,
        watch_only: bool = False,
    ) -> tuple[PlayerRecord, str]:
        """Make and store a new player called ``name`` (a checked name) of ``kind``
        (human or bot); return it and its token, which exists nowhere else: the
        store keeps its hash. A hello's player counts for its ``address``: past
        the cap, :class:`ProtocolError` ``rate_limited`` (with ``retry_after``)
        and nothing is made (the teacher's and the admin's new players come with
        no address, and are not capped). A ``watch_only`` hello's player counts
        in a cap of its own, the same size, so that spectators never keep a
        student out. Raises :class:`~boardroom.server.store.StoreError` if it cannot be
        stored."""
        creations = self._watcher_creations if watch_only else self._creations
        if address is not None and creations is not None:
            delay = creations.check(address, time.monotonic())
            if delay is not None:
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"too many new players from {address}: at most {self._new_players} "
                    f"at once, then one every {self._new_player_seconds:g} s; "
                    f"retry in {delay:.1f} s (or say hello with your player_token)",
                    retry_after=round(delay, 2),
                )
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
