"""Durable players: who a person or a bot is across sessions, and the token that says so.

A *session* (:mod:`boardroom.server.core.sessions`) lasts while a client is connected and
for the grace window after; a *player* lasts. ``hello`` without a player token
makes a new player and hands out its *player token* once: ``bp_`` and 32 random
bytes in URL-safe base64 (43 characters), so that it is recognisable in a file
and never mistaken for a resume token. As with sessions:

- the player's public id is derived from the token (:func:`player_id_for`:
  ``p`` and the first 16 hex digits of its SHA-256), so the id can go into
  records, logs and pages without giving the token away;
- the server stores only the token's hash (:func:`token_hash`, the whole
  SHA-256 in hex), looks a presented token up by that hash, and compares the
  stored hash with :func:`same_token_hash` (constant time), so neither a
  database copy nor the timing of a refusal gives a token away.

Names are display names, free text (:func:`~boardroom.shared.protocol.codec.check_player_name`).
Two different human players may not be online under the same name at once: the
newcomer gets the lowest free number after it (:func:`numbered_name`). A bot may
share a name with anyone.

Pure: no clock (times are passed in), no I/O. :class:`SeenThrottle` decides when
a player's ``last_seen`` is worth writing.

>>> token = new_player_token()
>>> token.startswith("bp_"), len(token), is_player_token(token)
(True, 46, True)
>>> player_id_for(token) == "p" + token_hash(token)[:16]
True
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import NewType

from boardroom.server.core.records import PlayerKind
from boardroom.shared.protocol.codec import MAX_NAME_LENGTH

__all__ = [
    "PLAYER_TOKEN_PREFIX",
    "SEEN_INTERVAL",
    "PlayerId",
    "PlayerRecord",
    "SeenThrottle",
    "is_player_token",
    "name_key",
    "new_player_token",
    "numbered_name",
    "player_id_for",
    "same_token_hash",
    "token_hash",
]

PlayerId = NewType("PlayerId", str)
"""A player's public id: ``p`` and 16 lower-case hex digits."""

PLAYER_TOKEN_PREFIX = "bp_"  # noqa: S105 - a prefix, not a secret
"""Every player token starts so: a resume token never does."""

PLAYER_TOKEN_BYTES = 32
"""Random bytes in a token: 256 bits, beyond any guessing (and guesses are
rate-limited besides)."""

_TOKEN_SHAPE = re.compile(r"bp_[A-Za-z0-9_-]{43}")

SEEN_INTERVAL = 60.0
"""Seconds between two writes of one player's ``last_seen``: "seen today" is
what the field is for, and a load test says hello thousands of times a second,
which must not cost a write each."""


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """One durable player, as the store keeps it. ``name`` is the name it last
    said hello with; times are Unix seconds; ``last_seen`` is written at most
    every :data:`SEEN_INTERVAL`; ``revoked_at`` is None unless its token was
    revoked (then it opens nothing). ``has_token`` is False for a player made
    from old games' names by the schema upgrade: nobody can say hello as it.
    ``merged_into`` is the player this one was merged into (a teacher said two
    roster entries are one person): its token opens that player from then on."""

    id: PlayerId
    name: str
    kind: PlayerKind
    created_at: float
    last_seen: float | None = None
    revoked_at: float | None = None
    has_token: bool = True
    merged_into: PlayerId | None = None

    @property
    def revoked(self) -> bool:
        """True once its token was revoked."""
        return self.revoked_at is not None


def new_player_token() -> str:
    """A fresh player token: ``bp_`` and 43 URL-safe characters."""
    return PLAYER_TOKEN_PREFIX + secrets.token_urlsafe(PLAYER_TOKEN_BYTES)


def is_player_token(text: str) -> bool:
    """True if ``text`` has the shape of a token this server makes (it may still
    be unknown). Anything else cannot be one, and needs no lookup."""
    return _TOKEN_SHAPE.fullmatch(text) is not None


def token_hash(token: str) -> str:
    """What the store keeps of ``token``: its SHA-256, 64 hex digits."""
    return hashlib.sha256(token.encode()).hexdigest()


def player_id_for(token: str) -> PlayerId:
    """The public id of the player ``token`` belongs to (not reversible)."""
    return PlayerId("p" + token_hash(token)[:16])


def same_token_hash(stored: str, presented: str) -> bool:
    """True if the two hashes are equal, in time that does not depend on where
    they differ (:func:`hmac.compare_digest`): the store found the row by an
    index on the hash, and this check is the one that decides."""
    return hmac.compare_digest(stored.encode(), presented.encode())


def name_key(name: str) -> str:
    """What two names must share to clash: the name, case-folded (``Ann`` and
    ``ANN`` clash; so do ``Straße`` and ``STRASSE``)."""
    return name.casefold()


def numbered_name(name: str, taken: Callable[[str], bool]) -> str:
    """``name``, or if ``taken(name)`` the name with the lowest number from 2 up
    that is not taken: ``ann 2``, ``ann 3``... The result still fits
    :data:`~boardroom.shared.protocol.codec.MAX_NAME_LENGTH`: a long name is cut to make
    room for its number.

    ``taken`` answers for a candidate name (it compares by :func:`name_key`).

    >>> numbered_name("ann", lambda n: n.casefold() in {"ann", "ann 2"})
    'ann 3'
    >>> numbered_name("bob", lambda n: False)
    'bob'
    >>> numbered_name("x" * 32, lambda n: n == "x" * 32)
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx 2'
    """
    if not taken(name):
        return name
    number = 2
    while True:
        suffix = f" {number}"
        candidate = name[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
        if not taken(candidate):
            return candidate
        number += 1


class SeenThrottle:
    """When a player's ``last_seen`` is due a write: the first time it is seen,
    then no more than once every ``interval`` seconds.

    Only players written within the last ``interval`` are remembered (forgetting
    one changes no answer: it would be due anyway), so memory grows with the
    players active in the last minute, not with every player ever seen. Times
    are passed in; a time earlier than one seen before counts as no time passing.
    """

    def __init__(self, interval: float = SEEN_INTERVAL) -> None:
        if not interval > 0:
            raise ValueError(f"interval must be > 0 seconds, got {interval!r}")
        self._interval = interval
        # Oldest write first, so the ones to forget are at the front.
        self._written: OrderedDict[str, float] = OrderedDict()

    def due(self, player: str, now: float) -> bool:
        """True if ``player``'s ``last_seen`` should be written at ``now``; the
        write is then taken as done (call once per write)."""
        while self._written:
            oldest, at = next(iter(self._written.items()))
            if now - at < self._interval:
                break
            del self._written[oldest]
        if player in self._written:
            return False
        self._written[player] = now
        return True

    def __len__(self) -> int:
        return len(self._written)
