"""The lobby: every room by its codes, the public room list and quick match.

Three codes reach a room:

- the **room code** (6 characters) names it in every message (``"room": "K7Q2MX"``).
  In a *public* room it also lets anyone join a free seat or watch.
- the **join code** (8 characters) takes a seat in a *private* room; seated
  players get it in their ``state`` to pass on.
- the **watch code** (8 characters) lets a spectator in, and nothing more.

A private room's room code alone gets nobody in: a spectator learns it from the
``state`` it is sent, so it must not open a seat. Codes use an alphabet without
look-alikes (no 0/O, 1/I/L), are case-insensitive and come from :mod:`secrets`.

Quick match keeps one queue per game (canonical name): a seeker joins the oldest
quick-match room still waiting for that game, or opens a new one and waits in it.
A quick-match room leaves the queue for good when its first game starts: a seat
freed after a game belongs to a player who has asked for nothing new (the one
left may be leaving too, or reading the final board), so a seeker must not
start a game there.

The public list goes out a page at a time (:meth:`Lobby.public_page`), so its
answer stays small however many rooms are open.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from boardroom.server.core.room_output import RoomStatus
from boardroom.shared.protocol.messages import ROOMS_PAGE_DEFAULT, RoomSummary

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ROOM_CODE_LENGTH = 6
SECRET_CODE_LENGTH = 8

Access = Literal["seat", "watch"]


def new_code(length: int) -> str:
    """A random code of ``length`` characters from :data:`CODE_ALPHABET`."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normalise_code(code: str) -> str:
    """Codes are read case-insensitively and without surrounding spaces."""
    return code.strip().upper()


class ListedRoom(Protocol):
    """What the lobby needs to know of a room (the server's room host)."""

    code: str

    @property
    def public(self) -> bool: ...

    @property
    def game_name(self) -> str: ...

    @property
    def quick(self) -> bool: ...

    @property
    def has_free_seat(self) -> bool: ...

    @property
    def status(self) -> RoomStatus: ...

    def summary(self) -> RoomSummary: ...


R = TypeVar("R", bound=ListedRoom)


@dataclass(frozen=True, slots=True)
class RoomCodes:
    """A new room's three codes (join and watch codes only for private rooms)."""

    room: str
    join: str | None
    watch: str | None


@dataclass(frozen=True, slots=True)
class RoomPage:
    """One page of the public room list, and how many public rooms there are in all."""

    rooms: list[RoomSummary]
    total: int


class Lobby(Generic[R]):
    """Rooms by code. Not thread-safe; used from the event loop only."""

    def __init__(self) -> None:
        self._rooms: dict[str, R] = {}
        self._join_codes: dict[str, str] = {}
        self._watch_codes: dict[str, str] = {}
        self._secret_codes: dict[str, tuple[str | None, str | None]] = {}

    def __len__(self) -> int:
        return len(self._rooms)

    def __iter__(self) -> Iterator[R]:
        return iter(list(self._rooms.values()))

    def __contains__(self, code: str) -> bool:
        return code in self._rooms

    def new_codes(self, *, private: bool) -> RoomCodes:
        """Fresh codes, unused by any room (and, for a private room, its secret codes)."""
        taken = self._rooms.keys() | self._join_codes.keys() | self._watch_codes.keys()

        def fresh(length: int) -> str:
            while True:
                code = new_code(length)
                if code not in taken:
                    return code

        room = fresh(ROOM_CODE_LENGTH)
        if not private:
            return RoomCodes(room, None, None)
        return RoomCodes(room, fresh(SECRET_CODE_LENGTH), fresh(SECRET_CODE_LENGTH))

    def add(self, room: R, codes: RoomCodes) -> None:
        """Register ``room`` under ``codes`` (from :meth:`new_codes`, or restored)."""
        self._rooms[codes.room] = room
        if codes.join is not None:
            self._join_codes[codes.join] = codes.room
        if codes.watch is not None:
            self._watch_codes[codes.watch] = codes.room
        self._secret_codes[codes.room] = (codes.join, codes.watch)

    def remove(self, code: str) -> None:
        """Forget the room and its codes (idempotent)."""
        self._rooms.pop(code, None)
        join, watch = self._secret_codes.pop(code, (None, None))
        if join is not None:
            self._join_codes.pop(join, None)
        if watch is not None:
            self._watch_codes.pop(watch, None)

    def get(self, code: str) -> R | None:
        """The room with this room code (any room: members act by room code)."""
        return self._rooms.get(normalise_code(code))

    def find(self, code: str, access: Access) -> R | None:
        """The room that ``code`` lets a newcomer into for ``access``: a public
        room by its room code; a private room by its join code (to sit or watch)
        or its watch code (to watch). None when the code opens nothing."""
        code = normalise_code(code)
        room = self._rooms.get(code)
        if room is not None:
            return room if room.public else None
        room_code = self._join_codes.get(code)
        if room_code is None and access == "watch":
            room_code = self._watch_codes.get(code)
        return self._rooms.get(room_code) if room_code is not None else None

    def public_page(
        self, game: str | None = None, *, offset: int = 0, limit: int = ROOMS_PAGE_DEFAULT
    ) -> RoomPage:
        """Summaries of the public rooms (of ``game`` if given), rooms with a free
        seat first, then oldest first: ``limit`` of them from position ``offset``
        (0 is the first), and how many there are in all. Only the page is summarised."""
        rooms = [r for r in self._rooms.values() if r.public and game in (None, r.game_name)]
        rooms.sort(key=lambda r: not r.has_free_seat)  # stable: creation order within
        page = rooms[offset : offset + limit] if limit > 0 else []
        return RoomPage([r.summary() for r in page], total=len(rooms))

    def quick_match_room(self, game: str, exclude: set[str]) -> R | None:
        """The oldest quick-match room for ``game`` waiting for a second player
        before its first game, skipping the codes in ``exclude`` (the seeker's own
        rooms)."""
        for room in self._rooms.values():
            if not room.quick or room.game_name != game or room.code in exclude:
                continue
            if room.status == "waiting" and room.has_free_seat:
                return room
        return None
