"""Tournament rooms: reserved seats, the AI in its side, no rematch, no aborts.

Pure room tests (no socket), in the style of test_server_room.py.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from room_states import tournament_room as reserved_room

from boardroom.server.core.records import PlayerKind, Termination
from boardroom.server.core.room import ClientId, GameFinished, GameStarted, Room, RoomOptions
from boardroom.server.recorder import options_from_json, options_to_json
from boardroom.shared.protocol.codec import encode_message
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import AddAi, Error, Leave, MakeMove, Rematch, Resign, State

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
EVE = ClientId("eve-session")
T0 = 1_700_000_000.0
CODE = "T0URN1"


def tournament_room(first: str | None = ANN, second: str | None = BOB, **options: Any) -> Room:
    return reserved_room(first, second, **options)


def error_of(output: Any, client: ClientId) -> Error:
    (error,) = [m for m in output.to(client) if isinstance(m, Error)]
    return error


def test_a_reserved_player_sits_in_their_own_side_whoever_comes_first() -> None:
    """Bob, reserved second, sits second though he comes first; the game starts
    with Ann first, as the pairing says."""
    room = tournament_room()
    room.seat(BOB, "bob", PlayerKind.BOT, now=T0)
    assert room.side_of(BOB) == "second" and room.status == "waiting"
    output = room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0 + 1)
    (started,) = output.events
    assert isinstance(started, GameStarted)
    assert [s.name for s in started.seats] == ["ann", "bob"]  # first, second


def test_anyone_else_is_refused_room_full_saying_the_seats_are_reserved() -> None:
    """Eve has the join code but no reservation: room_full, and nothing changes;
    she may still watch."""
    room = tournament_room()
    output = room.seat(EVE, "eve", PlayerKind.HUMAN, now=T0, request_id=3)
    error = error_of(output, EVE)
    assert (error.code, error.id) == (ErrorCode.ROOM_FULL, 3)
    assert "reserved for the tournament's players" in error.message
    assert room.is_taken("first") is False and room.is_taken("second") is False
    watched = room.watch(EVE, "eve", now=T0)
    assert isinstance(watched.to(EVE)[0], State)


def test_the_state_says_tournament_and_a_casual_room_sends_no_such_field() -> None:
    """Players and spectators see ``tournament: true``; a casual room's state
    leaves the field out on the wire (it is false)."""
    room = tournament_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    assert room.state_for(ANN, now=T0).tournament is True
    assert room.state_for(None, now=T0).tournament is True
    assert '"tournament":true' in encode_message(State(room=room.state_for(ANN, now=T0)))
    casual = Room("C4SUAL", "tictactoe", options=RoomOptions(), rng=random.Random(1), now=T0)
    casual.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    state = casual.state_for(ANN, now=T0)
    assert state.tournament is False
    assert "tournament" not in encode_message(State(room=state))


def test_the_ai_takes_the_side_reserved_for_nobody() -> None:
    """With the first side left to the AI, the server seats it there, even
    before the student; the student then starts the game in the second seat."""
    room = tournament_room(first=None, second=BOB)
    room.add_ai("easy", now=T0)
    assert room.state_for(None, now=T0).seats[0].kind == "ai"
    output = room.seat(BOB, "bob", PlayerKind.BOT, now=T0 + 1)
    assert room.status == "playing" and room.side_of(BOB) == "second"
    assert output.ai_requests and output.ai_requests[0].side == "first"


def test_a_second_ai_has_no_side_left() -> None:
    """No free side reserved for nobody: the server's own add_ai fails loudly."""
    room = tournament_room(first=None, second=BOB)
    room.add_ai("easy", now=T0)
    with pytest.raises(ValueError, match="reserved"):
        room.add_ai("easy", now=T0)


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (Rematch(room=CODE, id=7), "no rematch: the next round opens by itself"),
        (AddAi(room=CODE, level="easy", id=7), "seats a tournament game's players itself"),
    ],
    ids=["rematch", "add_ai"],
)
def test_rematch_and_add_ai_are_refused_with_tournament_room(request_: Any, words: str) -> None:
    room = tournament_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    room.handle(ANN, Resign(room=CODE), now=T0 + 1)
    output = room.handle(ANN, request_, now=T0 + 2)
    error = error_of(output, ANN)
    assert (error.code, error.id) == (ErrorCode.TOURNAMENT_ROOM, 7)
    assert words in error.message
    assert output.events == () and room.game_number == 1


def test_resigning_before_the_first_move_loses_instead_of_aborting() -> None:
    room = tournament_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    output = room.handle(ANN, Resign(room=CODE), now=T0 + 1)
    assert output.events == (GameFinished(CODE, 1, "second", Termination.RESIGNATION, T0 + 1),)


def test_a_dropped_player_loses_by_abandonment_even_before_the_first_move() -> None:
    room = tournament_room(grace_seconds=10)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    room.disconnected(BOB, now=T0 + 1)
    output = room.tick(T0 + 11)
    assert output.events == (GameFinished(CODE, 1, "first", Termination.ABANDONMENT, T0 + 11),)


def test_both_gone_before_the_first_move_gives_nobody_the_win() -> None:
    room = tournament_room(grace_seconds=10)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    room.disconnected(BOB, now=T0 + 1)
    room.disconnected(ANN, now=T0 + 2)
    output = room.tick(T0 + 11)
    assert output.events == (GameFinished(CODE, 1, None, Termination.ABANDONMENT, T0 + 11),)


def test_nobody_sits_down_again_once_the_game_is_over() -> None:
    """Ann leaves after the game, and may not come back to start another."""
    room = tournament_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    room.handle(ANN, MakeMove(room=CODE, move="b2"), now=T0 + 1)
    room.handle(BOB, Resign(room=CODE), now=T0 + 2)
    room.handle(ANN, Leave(room=CODE), now=T0 + 3)
    output = room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0 + 4)
    assert error_of(output, ANN).code == ErrorCode.TOURNAMENT_ROOM
    assert output.events == () and room.game_number == 1


def test_the_room_is_kept_while_it_waits_and_let_go_once_over_or_closed() -> None:
    """Empty but waiting for its players: kept. Closed, or over and left: empty."""
    room = tournament_room(first=None, second=None)
    assert not room.is_empty
    room.add_ai("random", now=T0)
    assert not room.is_empty
    closed = tournament_room()
    closed.close("cancelled", now=T0)
    assert closed.is_empty
    over = tournament_room()
    over.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    over.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    over.handle(ANN, Resign(room=CODE), now=T0 + 1)
    over.handle(ANN, Leave(room=CODE), now=T0 + 2)
    over.handle(BOB, Leave(room=CODE), now=T0 + 2)
    assert over.is_empty


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"reserved_first": ANN}, "only a tournament room reserves"),
        ({"tournament": True, "reserved_first": ANN, "reserved_second": ANN}, "both seats"),
    ],
)
def test_options_that_do_not_fit_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        RoomOptions(**options)


def test_the_stored_options_keep_the_tournament_but_not_the_sessions() -> None:
    """A restored tournament room is still one; reserved sessions never reach a record."""
    options = RoomOptions(tournament=True, reserved_first=ANN, reserved_second=BOB)
    stored = options_to_json(options)
    assert stored["tournament"] is True and ANN not in str(stored) and BOB not in str(stored)
    assert options_from_json(stored).tournament is True
    assert "tournament" not in options_to_json(RoomOptions())
