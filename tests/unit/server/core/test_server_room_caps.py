"""The caps on open rooms per session and per address, without a socket.

:class:`RoomCaps` asks the caller which rooms are still open; here a set of open
codes stands for the rooms, so every test is exact.
"""

from __future__ import annotations

import pytest

from boardroom.server.config import ServerConfig
from boardroom.server.core.room_caps import (
    DEFAULT_ROOMS_PER_ADDRESS,
    DEFAULT_ROOMS_PER_SESSION,
    RoomCaps,
)
from boardroom.server.core.room_output import ClientId

ANN, BOB, CAT = ClientId("ann"), ClientId("bob"), ClientId("cat")
SCHOOL, HOME = "203.0.113.7", "198.51.100.2"


class Rooms:
    """Stands for the hub's rooms: which codes are open, for whom."""

    def __init__(self) -> None:
        self.open: set[str] = set()
        self.asked: list[tuple[str, ClientId]] = []

    def is_open(self, code: str, opener: ClientId) -> bool:
        self.asked.append((code, opener))
        return code in self.open

    def open_room(self, caps: RoomCaps, code: str, session: ClientId, address: str) -> None:
        assert caps.check(session, address, self.is_open) is None, code
        caps.opened(code, session, address)
        self.open.add(code)


def test_a_session_at_its_cap_is_refused_with_its_open_rooms() -> None:
    caps, rooms = RoomCaps(per_session=2, per_address=0), Rooms()
    rooms.open_room(caps, "BBBBBB", ANN, SCHOOL)
    rooms.open_room(caps, "AAAAAA", ANN, SCHOOL)
    refusal = caps.check(ANN, SCHOOL, rooms.is_open)
    assert refusal is not None
    assert (refusal.scope, refusal.limit, refusal.own_rooms) == ("session", 2, ("AAAAAA", "BBBBBB"))
    text = refusal.explain()
    assert "2 open rooms" in text and "AAAAAA, BBBBBB" in text
    assert "finish" in text and "leave" in text
    one = RoomCaps(per_session=1, per_address=0)
    one.opened("AAAAAA", BOB, SCHOOL)
    refusal = one.check(BOB, SCHOOL, rooms.is_open)
    assert refusal is not None and "have 1 open room (AAAAAA)" in refusal.explain()


def test_a_room_no_longer_open_frees_a_place() -> None:
    """Finished, or left: the caller's test says it is not open, and it no longer counts."""
    caps, rooms = RoomCaps(per_session=1, per_address=0), Rooms()
    rooms.open_room(caps, "AAAAAA", ANN, SCHOOL)
    assert caps.check(ANN, SCHOOL, rooms.is_open) is not None
    rooms.open.discard("AAAAAA")  # its game finished, or ann left it
    assert caps.check(ANN, SCHOOL, rooms.is_open) is None
    rooms.open.add("AAAAAA")  # a rematch: it counts again
    assert caps.check(ANN, SCHOOL, rooms.is_open) is not None


def test_the_open_test_is_asked_about_each_room_for_its_opener() -> None:
    caps, rooms = RoomCaps(per_session=5, per_address=10), Rooms()
    rooms.open_room(caps, "AAAAAA", ANN, SCHOOL)
    rooms.open_room(caps, "BBBBBB", BOB, SCHOOL)
    rooms.asked.clear()
    caps.check(CAT, SCHOOL, rooms.is_open)
    assert sorted(rooms.asked) == [("AAAAAA", ANN), ("BBBBBB", BOB)]


def test_checking_changes_nothing() -> None:
    caps, rooms = RoomCaps(per_session=1, per_address=0), Rooms()
    for _ in range(3):
        assert caps.check(ANN, SCHOOL, rooms.is_open) is None
    assert len(caps) == 0
    rooms.open_room(caps, "AAAAAA", ANN, SCHOOL)
    assert len(caps) == 1


def test_the_sessions_of_one_address_share_its_cap_and_other_addresses_do_not() -> None:
    caps, rooms = RoomCaps(per_session=2, per_address=3), Rooms()
    rooms.open_room(caps, "AAAAAA", ANN, SCHOOL)
    rooms.open_room(caps, "BBBBBB", ANN, SCHOOL)
    rooms.open_room(caps, "CCCCCC", BOB, SCHOOL)
    refusal = caps.check(BOB, SCHOOL, rooms.is_open)
    assert refusal is not None
    assert (refusal.scope, refusal.limit, refusal.own_rooms) == ("address", 3, ("CCCCCC",))
    assert "network address" in refusal.explain() and "CCCCCC" in refusal.explain()
    cats = caps.check(CAT, SCHOOL, rooms.is_open)
    assert cats is not None and cats.own_rooms == ()
    assert "yours" not in cats.explain()
    assert caps.check(CAT, HOME, rooms.is_open) is None
    # The session's own cap is told first: it is what that player can act on.
    session_first = caps.check(ANN, SCHOOL, rooms.is_open)
    assert session_first is not None and session_first.scope == "session"


def test_a_room_counts_against_the_address_it_was_opened_from() -> None:
    """A session that moves to another address takes nothing with it: its room
    still counts where it was opened (and against the session, wherever it is)."""
    caps, rooms = RoomCaps(per_session=2, per_address=1), Rooms()
    rooms.open_room(caps, "AAAAAA", ANN, SCHOOL)
    assert caps.check(ANN, HOME, rooms.is_open) is None
    refusal = caps.check(BOB, SCHOOL, rooms.is_open)
    assert refusal is not None and refusal.scope == "address"


def test_no_cap_per_address_when_it_is_zero() -> None:
    caps, rooms = RoomCaps(per_session=1, per_address=0), Rooms()
    for number in range(200):
        rooms.open_room(caps, f"R{number:05}", ClientId(f"s{number}"), SCHOOL)
    assert caps.per_address == 0


def test_forgetting_a_room_frees_its_place_and_its_memory() -> None:
    caps, rooms = RoomCaps(per_session=1, per_address=1), Rooms()
    rooms.open_room(caps, "AAAAAA", ANN, SCHOOL)
    caps.forget("AAAAAA")
    caps.forget("AAAAAA")  # idempotent
    caps.forget("NEVER1")
    assert len(caps) == 0 and caps._by_session == {} and caps._by_address == {}
    assert caps.check(ANN, SCHOOL, rooms.is_open) is None


def test_a_code_opened_again_counts_once_for_its_new_opener() -> None:
    caps, rooms = RoomCaps(per_session=1, per_address=0), Rooms()
    rooms.open_room(caps, "AAAAAA", ANN, SCHOOL)
    caps.opened("AAAAAA", BOB, HOME)
    assert len(caps) == 1
    assert caps.check(ANN, SCHOOL, rooms.is_open) is None
    assert caps.check(BOB, HOME, rooms.is_open) is not None


@pytest.mark.parametrize(
    ("per_session", "per_address", "named"),
    [(0, 10, "per_session"), (2.5, 10, "per_session"), (True, 10, "per_session"),
     (3, -1, "per_address"), (3, 1.0, "per_address")],
)  # fmt: skip
def test_bad_caps_are_value_errors_naming_the_cap(
    per_session: object, per_address: object, named: str
) -> None:
    with pytest.raises(ValueError, match=named):
        RoomCaps(per_session, per_address)  # type: ignore[arg-type]


def test_the_server_settings_default_to_the_module_defaults() -> None:
    config = ServerConfig()
    assert config.max_rooms_per_session == DEFAULT_ROOMS_PER_SESSION == 4
    assert config.max_rooms_per_address == DEFAULT_ROOMS_PER_ADDRESS == 60


def test_the_default_caps_fit_a_class_behind_one_address() -> None:
    """Thirty students behind one school NAT, each opening a room for themselves
    and one for their bot, all fit; one more room from there does not."""
    caps, rooms = RoomCaps(DEFAULT_ROOMS_PER_SESSION, DEFAULT_ROOMS_PER_ADDRESS), Rooms()
    for student in range(30):
        for room in ("me", "bot"):
            rooms.open_room(caps, f"{student:02}{room}", ClientId(f"student{student}"), SCHOOL)
    refusal = caps.check(ClientId("latecomer"), SCHOOL, rooms.is_open)
    assert refusal is not None and refusal.scope == "address"
    assert caps.check(ClientId("latecomer"), HOME, rooms.is_open) is None
