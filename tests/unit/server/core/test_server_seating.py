"""A room's seats alone: who sits where, who watches, held seats, with no game.

:class:`Seating` knows nothing of the game, so these tests seat, hold, rename
and refuse without rules, a clock or an output: every check is on the seats.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from refusals import refused_unchanged

from boardroom.server.core.records import PlayerKind, SeatRecord
from boardroom.server.core.room_options import RoomOptions
from boardroom.server.core.room_output import ClientId
from boardroom.server.core.seating import Occupant, Seating
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import PlayerStatus, SeatInfo

ANN, BOB, CAT = ClientId("ann"), ClientId("bob"), ClientId("cat")
T0 = 1_700_000_000.0
CODE = "K7Q2"


def seating(**options: Any) -> Seating:
    return Seating(CODE, RoomOptions(**options))


def person(client: ClientId, player: str | None = None) -> Occupant:
    return Occupant(client=client, name=str(client), kind=PlayerKind.HUMAN, player=player)


def sit(seats: Seating, occupant: Occupant, *, game_over: bool = False) -> str:
    side = seats.choose_side(occupant, None, game_over=game_over)
    seats.sit(side, occupant)
    return side


def test_the_first_occupant_takes_the_creators_seat_and_the_ai_the_other() -> None:
    seats = seating(creator_seat="second")
    assert sit(seats, person(ANN)) == "second"
    assert sit(seats, person(BOB)) == "first"
    assert seats.full
    ai_first = seating(creator_seat="second")
    ai = ai_first.ai_occupant("easy", None)
    assert sit(ai_first, ai) == "first"  # the AI sits opposite the creator
    assert seating(creator_seat="random").choose_side(person(ANN), None, game_over=False) == (
        "first"
    )  # provisionally: the game draws the sides when it starts


def test_a_full_room_refuses_another_seat_and_a_taken_wanted_seat() -> None:
    seats = seating()
    sit(seats, person(ANN))
    message = refused_unchanged(
        seats, ErrorCode.ROOM_FULL, lambda: seats.choose_side(person(BOB), "first", game_over=False)
    )
    assert "seat first" in message
    sit(seats, person(BOB))
    message = refused_unchanged(
        seats, ErrorCode.ROOM_FULL, lambda: seats.choose_side(person(CAT), None, game_over=False)
    )
    assert "watch it instead" in message


def test_sitting_down_stops_watching() -> None:
    seats = seating()
    seats.watch(ANN, "ann")
    assert seats.members == {ANN}
    sit(seats, person(ANN))
    assert seats.spectators == {}
    assert seats.audience() == [ANN]


def test_a_dropped_seat_is_held_for_the_grace_window_and_comes_back() -> None:
    seats = seating(grace_seconds=30)
    sit(seats, person(ANN))
    status = seats.hold(ANN, T0)
    assert status == PlayerStatus(room=CODE, side="first", connected=False, gone_until=T0 + 30)
    assert seats.hold(ANN, T0 + 5) is None  # held already: nothing changes
    assert seats.window_deadlines() == [(T0 + 30, "first")]
    assert seats.gone("first") and ANN in seats.members and seats.audience() == []
    assert seats.reconnect("first") == PlayerStatus(room=CODE, side="first", connected=True)
    assert seats.reconnect("first") is None
    assert seats.window_deadlines() == [] and not seats.gone("first")


def test_a_dropped_spectator_is_not_held_and_an_unknown_client_changes_nothing() -> None:
    seats = seating()
    seats.watch(CAT, "cat")
    assert seats.hold(CAT, T0) is None
    assert seats.stop_watching(CAT) and not seats.stop_watching(CAT)
    assert seats.members == frozenset()


def test_a_pause_gives_held_seats_back_what_was_left_of_their_windows() -> None:
    seats = seating(grace_seconds=60)
    sit(seats, person(ANN))
    sit(seats, person(BOB))
    seats.hold(ANN, T0)  # 60 s window, 20 s of it gone at the pause
    seats.hold(BOB, T0 + 30)  # dropped during the pause: a whole window from the resume
    seats.extend_windows(paused_at=T0 + 20, now=T0 + 100)
    assert seats.window_deadlines() == [(T0 + 140, "first"), (T0 + 160, "second")]


def test_a_restored_seat_gets_its_window_when_the_server_listens_again() -> None:
    seats = seating(grace_seconds=10)
    record = person(ANN).record()
    seats.seats["first"] = Occupant.restored(record, "first")
    assert seats.window_deadlines() == []  # no window runs while the server is down
    seats.start_windows(T0)
    assert seats.window_deadlines() == [(T0 + 10, "first")]


def test_a_stored_seat_no_room_could_have_written_does_not_restore() -> None:
    no_session = SeatRecord("ann", PlayerKind.HUMAN, None, None, None)
    unknown_level = SeatRecord("AI", PlayerKind.AI, "godlike", None, None)
    ai = SeatRecord("AI (easy)", PlayerKind.AI, "easy", None, None)
    with pytest.raises(ValueError, match="needs its session"):
        seating().restore([ai, no_session])
    with pytest.raises(ValueError, match="unknown AI level"):
        seating().restore([unknown_level, ai])
    seats = seating()
    seats.restore([ai, person(ANN).record()])
    assert seats.side_of(ANN) == "second" and seats.gone("second")
    assert seats.ai_sides() == {"first"}


def test_a_tournament_seat_is_its_players_and_an_ai_side_the_ais() -> None:
    seats = seating(tournament=True, reserved_first="p-bob")
    other_session_of_bob = person(CAT, player="p-bob")
    assert sit(seats, other_session_of_bob) == "first"
    message = refused_unchanged(
        seats, ErrorCode.ROOM_FULL, lambda: seats.choose_side(person(ANN), None, game_over=False)
    )
    assert "reserved for the tournament's players" in message
    ai = Occupant(client=None, name="AI (easy)", kind=PlayerKind.AI, level="easy")
    assert seats.choose_side(ai, None, game_over=False) == "second"


def test_a_finished_tournament_game_seats_nobody_again() -> None:
    seats = seating(tournament=True, reserved_first="p-ann", reserved_second="p-bob")
    message = refused_unchanged(
        seats,
        ErrorCode.TOURNAMENT_ROOM,
        lambda: seats.choose_side(person(ANN, player="p-ann"), None, game_over=True),
    )
    assert "next round opens by itself" in message


@pytest.mark.parametrize(
    ("options", "by", "level", "code"),
    [
        ({}, CAT, "easy", ErrorCode.NOT_SEATED),  # only a seated player adds the AI
        ({"tournament": True}, ANN, "easy", ErrorCode.TOURNAMENT_ROOM),
        ({}, ANN, "grandmaster", ErrorCode.BAD_LEVEL),
    ],
)
def test_an_ai_is_refused_to_a_spectator_in_a_tournament_and_at_an_unknown_level(
    options: dict[str, Any], by: ClientId, level: str, code: ErrorCode
) -> None:
    seats = seating(**options)
    seats.seats["first"] = person(ANN)
    seats.watch(CAT, "cat")
    refused_unchanged(seats, code, lambda: seats.ai_occupant(level, by))


def test_names_follow_a_rename_seated_or_watching() -> None:
    seats = seating()
    sit(seats, person(ANN))
    seats.watch(CAT, "cat")
    assert seats.rename(ANN, "Ann B.") == "first"
    assert seats.rename(CAT, "Cat") is None
    assert seats.rename(BOB, "nobody") is None
    assert seats.infos()[0] == SeatInfo(side="first", name="Ann B.", kind="human", connected=True)
    assert seats.member_name(CAT, "chat") == "Cat"
    refused_unchanged(seats, ErrorCode.NOT_SEATED, lambda: seats.member_name(BOB, "chat"))


def test_a_spectator_is_told_it_only_watches() -> None:
    seats = seating()
    seats.watch(CAT, "cat")
    for client, says in ((CAT, "watching"), (BOB, "join it to move")):
        move = functools.partial(seats.require_player, client, "move")
        assert says in refused_unchanged(seats, ErrorCode.NOT_SEATED, move)


def test_an_ai_match_nobody_watches_is_called_off_after_the_grace_window() -> None:
    seats = seating(ai_match=True, grace_seconds=15)
    seats.watch(CAT, "cat")
    seats.stop_watching(CAT)
    seats.note_unwatched(T0, playing=False)
    assert seats.unwatched_until is None  # no game in play: nothing to call off
    seats.note_unwatched(T0, playing=True)
    assert seats.unwatched_until == T0 + 15
    seats.watch(CAT, "cat")
    assert seats.unwatched_until is None


def test_swapping_sides_and_clearing_the_room() -> None:
    seats = seating()
    sit(seats, person(ANN))
    sit(seats, person(BOB))
    seats.swap()
    assert (seats.side_of(ANN), seats.side_of(BOB)) == ("second", "first")
    seats.clear()
    assert seats.members == frozenset() and not seats.full
