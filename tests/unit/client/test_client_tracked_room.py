"""TrackedRoom: the client's copy of a room, folded from server messages with no socket."""

from __future__ import annotations

from room_states import room_in_play

from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import (
    Clock,
    ClockState,
    DrawDeclined,
    DrawOffered,
    GameOver,
    Moved,
    PlayerStatus,
    RematchOffered,
    ResultInfo,
    RoomState,
    State,
)


def room_state(**changes: object) -> RoomState:
    """A Connect Four room in play, ann against bob, as bob (second) sees it."""
    moves = str(changes.pop("moves", ""))
    return room_in_play("connect4", moves, **{"you": Player.SECOND, **changes})


def test_moves_update_the_move_string_turn_and_last_move() -> None:
    room = TrackedRoom(room_state())
    assert not room.my_turn
    assert room.apply(Moved(room="ABCDEF", ply=0, move="4", side=Player.FIRST))
    assert room.my_turn and room.state.to_move == Player.SECOND
    assert room.apply(Moved(room="ABCDEF", ply=1, move="4", side=Player.SECOND))
    assert room.state.moves == "44" and room.state.ply == 2 and room.last_move == "4"
    assert room.position.ply == 2


def test_a_move_already_in_the_copy_is_ignored() -> None:
    room = TrackedRoom(room_state(moves="44", ply=2))
    assert room.apply(Moved(room="ABCDEF", ply=1, move="4", side=Player.SECOND))
    assert room.state.moves == "44"


def test_a_missed_move_or_one_that_does_not_fit_says_out_of_step() -> None:
    room = TrackedRoom(room_state())
    assert not room.apply(Moved(room="ABCDEF", ply=3, move="4", side=Player.SECOND))
    assert not room.apply(Moved(room="ABCDEF", ply=0, move="9", side=Player.FIRST))
    assert room.state.moves == "" and room.state.ply == 0


def test_a_whole_state_replaces_the_copy() -> None:
    room = TrackedRoom(room_state())
    room.apply(State(room=room_state(moves="4453", ply=4, to_move=Player.FIRST)))
    assert room.state.moves == "4453" and room.last_move == "3" and room.position.ply == 4


def test_clocks_count_down_for_the_running_side_only() -> None:
    clocks = ClockState(first_ms=10_000, second_ms=20_000, running=Player.FIRST)
    room = TrackedRoom(room_state(clock=Clock(kind="per_move", per_move=10), clocks=clocks))
    now = room._clocks_at + 2.5
    assert room.time_left_ms(Player.FIRST, now) == 7_500
    assert room.time_left_ms(Player.SECOND, now) == 20_000
    assert room.time_left_ms(Player.FIRST, room._clocks_at + 60) == 0
    assert TrackedRoom(room_state()).time_left_ms(Player.FIRST) is None


def test_game_over_stops_the_clocks_and_keeps_the_winning_line() -> None:
    clocks = ClockState(first_ms=10_000, second_ms=20_000, running=Player.FIRST)
    room = TrackedRoom(room_state(moves="121212", ply=6, clocks=clocks))
    result = ResultInfo(winner=Player.FIRST, reason="line", line=["a1", "a2", "a3", "a4"])
    assert room.apply(GameOver(room="ABCDEF", result=result, moves="1212121"))
    assert room.state.status == "finished" and room.state.to_move is None
    assert room.state.moves == "1212121" and room.last_move == "1"
    assert room.winning_cells == ["a1", "a2", "a3", "a4"]
    assert room.legal_moves == [] and not room.my_turn
    stopped = room.time_left_ms(Player.FIRST)
    assert stopped is not None and stopped <= 10_000
    assert room.state.clocks is not None and room.state.clocks.running is None


def test_player_status_and_draw_offers_update_the_seats_and_offer() -> None:
    room = TrackedRoom(room_state())
    room.apply(PlayerStatus(room="ABCDEF", side=Player.FIRST, connected=False, gone_until=123.0))
    assert (
        room.seat(Player.FIRST).connected is False and room.seat(Player.FIRST).gone_until == 123.0
    )
    assert room.seat(Player.SECOND).connected is True
    room.apply(DrawOffered(room="ABCDEF", side=Player.FIRST))
    assert room.state.draw_offer == Player.FIRST
    room.apply(DrawDeclined(room="ABCDEF", side=Player.FIRST))
    assert room.state.draw_offer is None


def test_player_status_with_autopilot_marks_the_seat_until_the_player_is_back() -> None:
    room = TrackedRoom(room_state())
    room.apply(PlayerStatus(room="ABCDEF", side=Player.FIRST, connected=False, autopilot="hard"))
    seat = room.seat(Player.FIRST)
    assert (seat.connected, seat.gone_until, seat.autopilot) == (False, None, "hard")
    room.apply(PlayerStatus(room="ABCDEF", side=Player.FIRST, connected=True))
    assert (room.seat(Player.FIRST).connected, room.seat(Player.FIRST).autopilot) == (True, None)


def test_the_engines_moves_for_an_absent_player_are_kept_for_the_game() -> None:
    """The plies that came as ``moved`` with ``autopilot``, and those noted
    otherwise, are the copy's until a new game starts; a state later in the same
    game keeps them."""
    room = TrackedRoom(room_state())
    room.apply(Moved(room="ABCDEF", ply=0, move="4", side=Player.FIRST, autopilot=True))
    room.apply(Moved(room="ABCDEF", ply=1, move="4", side=Player.SECOND))
    room.note_autopilot({3})
    assert room.autopilot_plies == {0, 3}
    room.apply(State(room=room_state(moves="4444")))
    assert room.autopilot_plies == {0, 3}
    room.apply(State(room=room_state(moves="44")))
    assert room.autopilot_plies == {0}  # a copy set back: what is past it is not known
    room.apply(State(room=room_state(game_number=2)))
    assert room.autopilot_plies == set()


def test_a_rematch_offer_is_kept_until_the_next_state() -> None:
    room = TrackedRoom(room_state(moves="1212121", status="finished", to_move=None))
    room.apply(RematchOffered(room="ABCDEF", side=Player.FIRST))
    assert room.state.rematch_offer == Player.FIRST
    room.apply(State(room=room_state(game_number=2)))
    assert room.state.rematch_offer is None


def test_other_side() -> None:
    assert Player.FIRST.other is Player.SECOND and Player.SECOND.other is Player.FIRST
