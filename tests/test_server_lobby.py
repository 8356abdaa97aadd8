"""The lobby's codes and the sessions' tokens, without a socket."""

from __future__ import annotations

from dataclasses import dataclass, field

from server.lobby import CODE_ALPHABET, ROOM_CODE_LENGTH, Lobby, RoomCodes
from server.room_output import RoomStatus
from server.sessions import SessionRegistry, session_id_for
from shared.protocol.messages import RoomSummary


@dataclass
class FakeRoom:
    """The lobby's view of a room; a real one needs the whole server around it."""

    code: str
    public: bool = True
    game_name: str = "connect4"
    quick: bool = False
    has_free_seat: bool = True
    status: RoomStatus = "waiting"
    players: list[str] = field(default_factory=list)

    def summary(self) -> RoomSummary:
        return RoomSummary(
            code=self.code,
            game=self.game_name,
            title="",
            status=self.status,
            players=self.players,
            spectators=0,
        )


def register(lobby: Lobby[FakeRoom], *, private: bool = False, **fields: object) -> FakeRoom:
    codes = lobby.new_codes(private=private)
    room = FakeRoom(codes.room, public=not private, **fields)  # type: ignore[arg-type]
    lobby.add(room, codes)
    return room


def test_codes_are_short_unambiguous_and_distinct() -> None:
    lobby: Lobby[FakeRoom] = Lobby()
    codes = {lobby.new_codes(private=False).room for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == ROOM_CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set("01OIL") & set(CODE_ALPHABET)


def test_a_private_room_opens_only_with_its_secret_codes() -> None:
    lobby: Lobby[FakeRoom] = Lobby()
    codes = lobby.new_codes(private=True)
    assert codes.join is not None and codes.watch is not None
    room = FakeRoom(codes.room, public=False)
    lobby.add(room, codes)
    assert lobby.find(codes.room, "seat") is None and lobby.find(codes.room, "watch") is None
    assert lobby.find(codes.join.lower(), "seat") is room
    assert lobby.find(codes.join, "watch") is room
    assert lobby.find(codes.watch, "watch") is room
    assert lobby.find(codes.watch, "seat") is None
    assert lobby.get(codes.room) is room  # members act by room code
    lobby.remove(codes.room)
    assert lobby.find(codes.join, "seat") is None and lobby.find(codes.watch, "watch") is None


def test_the_public_list_puts_rooms_with_a_free_seat_first_and_hides_private_ones() -> None:
    lobby: Lobby[FakeRoom] = Lobby()
    full = register(lobby, has_free_seat=False)
    register(lobby, private=True)
    open_room = register(lobby)
    other_game = register(lobby, game_name="gomoku")
    assert [r.code for r in lobby.public_rooms()] == [open_room.code, other_game.code, full.code]
    assert [r.code for r in lobby.public_rooms("gomoku")] == [other_game.code]


def test_quick_match_takes_the_oldest_waiting_room_of_the_game_but_not_ones_own() -> None:
    lobby: Lobby[FakeRoom] = Lobby()
    register(lobby, game_name="connect4")  # not a quick-match room
    mine = register(lobby, quick=True)
    oldest = register(lobby, quick=True)
    register(lobby, quick=True)
    assert lobby.quick_match_room("connect4", exclude={mine.code}) is oldest
    assert lobby.quick_match_room("gomoku", exclude=set()) is None
    lobby.add(FakeRoom("ZZZZZZ", quick=True, has_free_seat=False), RoomCodes("ZZZZZZ", None, None))
    assert lobby.quick_match_room("connect4", exclude=set()) is mine


def test_quick_match_never_seats_a_seeker_where_a_game_has_been_played() -> None:
    """A quick-match room whose seat was freed after its game started (the
    opponent left) is out of the queue: its remaining player asked for no new
    game, and may be leaving too. The seeker gets the next room still waiting."""
    lobby: Lobby[FakeRoom] = Lobby()
    register(lobby, quick=True, status="finished")  # has_free_seat: the opponent left
    waiting = register(lobby, quick=True)
    assert lobby.quick_match_room("connect4", exclude=set()) is waiting
    assert lobby.quick_match_room("connect4", exclude={waiting.code}) is None


def test_a_token_names_its_session_and_nothing_else_does() -> None:
    sessions = SessionRegistry()
    session, token = sessions.open("ann", "human")
    assert session.id == session_id_for(token) and token not in session.id
    assert sessions.resume(token) is session
    assert sessions.resume(token + "x") is None


def test_idle_sessions_without_rooms_are_forgotten_after_the_grace_window() -> None:
    sessions = SessionRegistry()
    idle, _ = sessions.open("ann", "human")
    idle.idle_since = 100.0
    seated, _ = sessions.open("bob", "bot")
    seated.idle_since = 100.0
    seated.rooms.add("K7Q2MX")
    assert sessions.sweep(now=150.0, grace_seconds=60) == []
    assert sessions.sweep(now=161.0, grace_seconds=60) == [idle.id]
    assert sessions.get(seated.id) is seated
