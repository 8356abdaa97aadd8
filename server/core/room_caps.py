"""Caps on open rooms, per session and per network address, as pure bookkeeping.

A room costs the server memory, a line in everyone's room list and, against the
AI, engine time; a script opening rooms in a loop once made 11,144 of them in
20 s from one address and slowed every other player down. So the rooms that a
session may hold *open* at once are capped, and so are those of all the
sessions of one network address together.

What counts: a room counts against the session that opened it (``create_room``,
or a ``quick_match`` that found nobody waiting and opened one) and against the
address it was opened from, while the room is **open**: its game is waiting or
in play (against the AI too) and the opener still holds its seat (connected, or
held in the grace window), or, for an AI match, still watches it. A finished
room does not count (a rematch in it makes it count again), nor one the opener
left, nor a room the session only joined, nor a tournament room (the director
opens those), nor a room restored after a restart (its opener is not known any
more).

This module does no I/O and keeps no room: :class:`RoomCaps` remembers who
opened which room (:meth:`RoomCaps.opened`, :meth:`RoomCaps.forget`), and asks
the caller whether each one is still open (an :data:`OpenTest`) when a new
room is asked for (:meth:`RoomCaps.check`). The hub (:mod:`boardroom.server.hub`) is the
adapter: it checks before it opens a room, and turns a :class:`CapReached` into
a ``too_many_rooms`` error. Check and record happen in one step of the event
loop, so two requests at once cannot both take the last place.

>>> caps = RoomCaps(per_session=2, per_address=3)
>>> still_open = lambda code, opener: True
>>> caps.opened("AAAAAA", "ann", "10.0.0.1"); caps.opened("BBBBBB", "ann", "10.0.0.1")
>>> caps.check("ann", "10.0.0.1", still_open).scope
'session'
>>> caps.check("bob", "10.0.0.1", still_open) is None
True
>>> caps.opened("CCCCCC", "bob", "10.0.0.1")
>>> caps.check("bob", "10.0.0.1", still_open).scope
'address'
>>> caps.check("cat", "10.0.0.2", still_open) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from boardroom.server.core.room_output import ClientId

DEFAULT_ROOMS_PER_SESSION = 4
"""Rooms one session may hold open at once. A person plays one game at a time and
may keep a room waiting for a friend besides; a bot opens one room per game it
plays at once (``boardroom bot --parallel 4``). A script opening rooms in a loop
stops at the fourth."""

DEFAULT_ROOMS_PER_ADDRESS = 60
"""Rooms all the sessions of one network address may hold open at once. A class
reaches the server through one school NAT: thirty students each opening a room,
or each a room for themselves and one for their bot, fit. A script that opens a
new session for every few rooms stops there. (In class mode too: a new ``hello``
is a new student, so the roster bounds nothing; a bigger class raises it.)"""

DEFAULT_AI_MATCHES_PER_SESSION = 2
"""AI matches one session may hold open at once (within its open rooms). An AI
match is the heaviest room there is: the engine plays both seats, move after
move, at the pace its opener chose (none, at pace 0). A person watches one, or
two side by side; four of them from one session once delayed everybody else's
AI by 12 s (issue 28). The same :class:`RoomCaps` bookkeeping counts them."""

DEFAULT_AI_MATCHES_PER_ADDRESS = 8
"""AI matches all the sessions of one network address may hold open at once: a
class watching AI matches on its screens or the projector fits, a script that
opens a new session for every two matches stops at eight (each takes the engine
for up to its whole move budget, 3 s at ``perfect``, every move)."""

K = TypeVar("K", bound=str)

OpenTest = Callable[[str, ClientId], bool]
"""``is_open(code, opener)``: whether the room with this code is still open for
the session that opened it (see the module docstring). Called during
:meth:`RoomCaps.check`; it must only read, never change, the rooms."""


@dataclass(frozen=True, slots=True)
class CapReached:
    """Why a session may not open a room now: the ``scope`` whose cap is reached,
    that cap, and the session's own open rooms (room codes, sorted), the ones it
    may finish or leave."""

    scope: Literal["session", "address"]
    limit: int
    own_rooms: tuple[str, ...]

    def explain_ai_matches(self) -> str:
        """The refusal of an AI match in words (the cap on AI matches reached)."""
        own = ", ".join(self.own_rooms)
        matches = f"{self.limit} AI match{'' if self.limit == 1 else 'es'}"
        if self.scope == "session":
            return (
                f"you already have {matches} running ({own}), the most one player may "
                "have: let one finish, or leave it, before starting another"
            )
        yours = f" (yours: {own})" if own else ""
        return (
            f"the players at your network address already have {matches} running, "
            f"the most the server allows one address{yours}: let one finish or leave "
            "it, or ask whoever runs the server to raise --max-ai-matches-per-address"
        )

    def explain(self) -> str:
        """The refusal in words for the player: the cap, and what to do."""
        own = ", ".join(self.own_rooms)
        rooms = f"{self.limit} open room{'' if self.limit == 1 else 's'}"
        if self.scope == "session":
            return (
                f"you already have {rooms} ({own}), the most one player may have: "
                "finish the game in one, or leave one, before opening another"
            )
        yours = f" (yours: {own})" if own else ""
        return (
            f"the players at your network address already have {rooms}, "
            f"the most the server allows one address{yours}: finish or leave a room, "
            "join someone else's, or ask whoever runs the server to raise "
            "--max-rooms-per-address"
        )


class RoomCaps:
    """Who opened which room, and the caps on the open ones (module docstring).

    Not thread-safe; used from the event loop only. Memory is one entry per room
    remembered: the caller forgets each room when it goes (:meth:`forget`).
    """

    def __init__(self, per_session: int, per_address: int) -> None:
        """``per_address`` 0 is no cap per address. Raise ValueError unless
        ``per_session`` is a whole number >= 1 and ``per_address`` one >= 0."""
        self._per_session = _whole("per_session", per_session, least=1)
        self._per_address = _whole("per_address", per_address, least=0)
        self._openers: dict[str, tuple[ClientId, str]] = {}
        self._by_session: dict[ClientId, set[str]] = {}
        self._by_address: dict[str, set[str]] = {}

    @property
    def per_session(self) -> int:
        """Open rooms one session may hold."""
        return self._per_session

    @property
    def per_address(self) -> int:
        """Open rooms the sessions of one address may hold together; 0: no cap."""
        return self._per_address

    def check(self, session: ClientId, address: str, is_open: OpenTest) -> CapReached | None:
        """Whether ``session``, connected from ``address``, may open one more room:
        None if it may, else the cap it has reached (the session's first). Changes
        nothing: call :meth:`opened` once the room is open."""
        own = sorted(code for code in self._by_session.get(session, ()) if is_open(code, session))
        if len(own) >= self._per_session:
            return CapReached("session", self._per_session, tuple(own))
        if self._per_address and self._open_from(address, is_open) >= self._per_address:
            return CapReached("address", self._per_address, tuple(own))
        return None

    def opened(self, code: str, session: ClientId, address: str) -> None:
        """Room ``code`` was opened by ``session`` from ``address``."""
        self.forget(code)  # a code is never reused while remembered; this keeps it so
        self._openers[code] = (session, address)
        self._by_session.setdefault(session, set()).add(code)
        self._by_address.setdefault(address, set()).add(code)

    def forget(self, code: str) -> None:
        """Room ``code`` is gone (idempotent): it counts against nobody any more."""
        opener = self._openers.pop(code, None)
        if opener is None:
            return
        session, address = opener
        _discard(self._by_session, session, code)
        _discard(self._by_address, address, code)

    def opener(self, code: str) -> tuple[ClientId, str] | None:
        """Who opened room ``code``, and from which address; None if not remembered."""
        return self._openers.get(code)

    def __len__(self) -> int:
        """Rooms remembered."""
        return len(self._openers)

    def _open_from(self, address: str, is_open: OpenTest) -> int:
        count = 0
        for code in self._by_address.get(address, ()):
            if is_open(code, self._openers[code][0]):
                count += 1
                if count == self._per_address:
                    break  # enough to refuse
        return count


def _whole(name: str, value: int, *, least: int) -> int:
    """``value``, or a ValueError naming ``name`` unless it is an int >= ``least``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {type(value).__name__}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value}")
    return value


def _discard(index: dict[K, set[str]], key: K, code: str) -> None:
    codes = index.get(key)
    if codes is not None:
        codes.discard(code)
        if not codes:
            del index[key]
