"""The teacher's inputs to the room state machine: pause, resume, rename, remove, close.

Pure: inputs in, outputs out, no socket (the end-to-end side is in
``test_classroom_api.py``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardroom.server.core.records import PlayerKind, Termination
from boardroom.server.core.room import ClientId, GameFinished, MoveMade, Output, Room, RoomOptions
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    AcceptDraw,
    ChatLine,
    Clock,
    Error,
    GameOver,
    GetState,
    Leave,
    Left,
    MakeMove,
    Moved,
    OfferDraw,
    Resign,
    RoomClosed,
    SendChat,
    State,
)

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
CAT = ClientId("cat-session")
T0 = 1_700_000_000.0
CODE = "K7Q2"
FISCHER = Clock(kind="increment", initial=300, increment=2)
PER_MOVE = Clock(kind="per_move", per_move=30)


def new_room(*, paused: bool = False, **options: Any) -> Room:
    return Room(
        CODE,
        "tictactoe",
        options=RoomOptions(**options),
        rng=random.Random(1),
        now=T0,
        paused=paused,
    )


def started_room(**options: Any) -> Room:
    """Ann (first) against Bob (second), game 1 started at T0; Cat watches."""
    room = new_room(**options)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    room.watch(CAT, "cat", now=T0)
    return room


def move(room: Room, client: ClientId, text: str, now: float) -> Output:
    return room.handle(client, MakeMove(room=CODE, move=text, id=1), now=now)


def states(output: Output, client: ClientId) -> list[State]:
    return [m for m in output.to(client) if isinstance(m, State)]


def error_code(output: Output, client: ClientId) -> str:
    (error,) = output.to(client)
    assert isinstance(error, Error), error
    return error.code


# -- pause and resume --------------------------------------------------------------------


def test_a_pause_holds_the_clock_and_the_resume_runs_it_on_from_there() -> None:
    """Bob had thought 5 s when the pause came: 90 s later his clock still shows
    295 s, running for nobody; after the resume it runs from 295 s again."""
    room = started_room(clock=FISCHER)
    move(room, ANN, "b2", T0 + 3)
    paused = room.pause(T0 + 8)
    for client in (ANN, BOB, CAT):
        (state,) = states(paused, client)
        assert state.room.paused is True and state.room.to_move == "second"
        assert state.room.clocks is not None and state.room.clocks.running is None
    assert paused.next_deadline is None and paused.events == ()
    held = room.state_for(BOB, now=T0 + 98).clocks
    assert held is not None and held.second_ms == 295_000

    resumed = room.resume(T0 + 98)
    (state,) = states(resumed, BOB)
    assert state.room.paused is False and state.room.clocks is not None
    assert (state.room.clocks.second_ms, state.room.clocks.running) == (295_000, "second")
    assert resumed.next_deadline == pytest.approx(T0 + 98 + 295)
    made = move(room, BOB, "a1", T0 + 100)
    (recorded,) = [e for e in made.events if isinstance(e, MoveMade)]
    assert recorded.clock_ms == 293_000  # 5 s before the pause, 2 s after it


def test_a_per_move_clock_keeps_what_was_left_of_the_move_across_a_pause() -> None:
    room = started_room(clock=PER_MOVE)
    room.pause(T0 + 10)
    room.resume(T0 + 500)
    assert room.next_deadline == pytest.approx(T0 + 500 + 20)


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (MakeMove(room=CODE, move="a1", id=7), "you can move once they resume"),
        (Resign(room=CODE, id=7), "you can resign once they resume"),
        (OfferDraw(room=CODE, id=7), "you can offer a draw once they resume"),
        (AcceptDraw(room=CODE, id=7), "you can accept a draw once they resume"),
        (Leave(room=CODE, id=7), "you can leave this game once they resume"),
    ],
    ids=["move", "resign", "offer_draw", "accept_draw", "leave"],
)
def test_what_would_change_a_game_is_refused_as_paused(request_: Any, words: str) -> None:
    """A move, a resignation, a draw offer or answer, or leaving (which resigns)
    gets ``paused``, echoing the id, and the game stays as it was."""
    room = started_room()
    room.handle(BOB, OfferDraw(room=CODE), now=T0)
    room.pause(T0 + 1)
    output = room.handle(ANN, request_, now=T0 + 2)
    (error,) = output.to(ANN)
    assert isinstance(error, Error) and (error.code, error.id) == (ErrorCode.PAUSED, 7)
    assert "the teacher paused the games" in error.message and words in error.message
    assert output.events == () and room.status == "playing" and room.moves == ""
    assert room.side_of(ANN) == "first"


def test_chat_state_and_watching_still_work_in_a_pause() -> None:
    room = started_room()
    room.pause(T0 + 1)
    chat = room.handle(CAT, SendChat(room=CODE, text="hello"), now=T0 + 2)
    assert ChatLine(room=CODE, name="cat", text="hello") in chat.to(ANN)
    (state,) = states(room.handle(ANN, GetState(room=CODE), now=T0 + 3), ANN)
    assert state.room.paused is True
    assert room.handle(CAT, Leave(room=CODE, id=2), now=T0 + 4).to(CAT) == [Left(room=CODE, id=2)]


def test_nobody_loses_a_seat_in_a_pause() -> None:
    """Bob dropped 30 s before the pause, Ann drops during it. No window ends
    in the pause; at the resume Bob has the 30 s he had left and Ann a whole
    window."""
    room = started_room(clock=FISCHER, grace_seconds=60)
    move(room, ANN, "b2", T0 + 1)
    room.disconnected(BOB, now=T0 + 10)
    room.pause(T0 + 40)
    room.disconnected(ANN, now=T0 + 50)
    assert room.tick(T0 + 10_000).events == ()
    assert room.side_of(BOB) == "second" and room.status == "playing"

    room.resume(T0 + 10_000)
    seats = room.state_for(None, now=T0 + 10_000).seats
    assert seats[1].gone_until == pytest.approx(T0 + 10_000 + 30)  # Bob: what was left
    assert seats[0].gone_until == pytest.approx(T0 + 10_000 + 60)  # Ann: a whole window


def test_an_ai_answer_that_comes_in_a_pause_is_played_at_the_resume() -> None:
    """The search is not wasted: the answer is kept, nothing is asked again,
    and the AI plays it once everyone has the resumed state."""
    room = new_room()
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.add_ai("easy", now=T0)
    (request,) = move(room, ANN, "b2", T0 + 1).ai_requests
    room.pause(T0 + 2)
    answered = room.ai_moved(request.game_number, request.ply, "a1", now=T0 + 3)
    assert answered.messages == () and answered.events == () and answered.ai_requests == ()
    assert room.moves == "b2"

    resumed = room.resume(T0 + 60)
    kinds = [type(message) for message in resumed.to(ANN)]
    assert kinds == [State, Moved]
    assert room.moves == "b2 a1" and resumed.ai_requests == ()


def test_the_ai_is_not_asked_in_a_pause_and_is_asked_at_the_resume() -> None:
    room = new_room(paused=True, creator_seat="second")
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    started = room.add_ai("easy", now=T0)
    assert room.status == "playing" and started.ai_requests == ()  # the AI moves first
    (request,) = room.resume(T0 + 5).ai_requests
    assert (request.ply, request.side) == (0, "first")


def test_a_room_opened_in_a_pause_starts_its_game_paused() -> None:
    """Both seats taken: the game starts (it is stored), its clock held, nothing timed."""
    room = new_room(paused=True, clock=FISCHER)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    started = room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0 + 1)
    assert room.status == "playing" and started.events  # GameStarted
    (state,) = states(started, ANN)
    assert state.room.paused is True and state.room.clocks is not None
    assert state.room.clocks.running is None and started.next_deadline is None
    assert error_code(move(room, ANN, "b2", T0 + 2), ANN) == ErrorCode.PAUSED

    room.resume(T0 + 100)
    assert room.next_deadline == pytest.approx(T0 + 100 + 300)


def test_pausing_twice_or_resuming_a_running_room_changes_nothing() -> None:
    room = started_room()
    assert room.resume(T0 + 1).messages == ()
    room.pause(T0 + 2)
    assert room.pause(T0 + 3).messages == ()
    assert room.paused


# -- rename, remove, close ----------------------------------------------------------------


def test_a_renamed_player_is_shown_to_everyone_under_the_new_name() -> None:
    room = started_room()
    output = room.rename(BOB, "Robert", now=T0 + 1)
    for client in (ANN, BOB, CAT):
        (state,) = states(output, client)
        assert state.room.seats[1].name == "Robert"
    assert room.summary().players == ["ann", "Robert"]
    room.rename(CAT, "Catherine", now=T0 + 2)
    chat = room.handle(CAT, SendChat(room=CODE, text="hi"), now=T0 + 3)
    assert ChatLine(room=CODE, name="Catherine", text="hi") in chat.to(ANN)


def test_a_removed_player_resigns_the_game_and_frees_the_seat_even_in_a_pause() -> None:
    room = started_room()
    move(room, ANN, "b2", T0 + 1)
    room.pause(T0 + 2)
    output = room.remove(BOB, now=T0 + 3)
    assert output.events == (GameFinished(CODE, 1, "first", Termination.RESIGNATION, T0 + 3),)
    assert output.to(BOB) == []  # its connection is being closed
    (over,) = [m for m in output.to(ANN) if isinstance(m, GameOver)]
    assert over.result.winner == "first"
    assert room.side_of(BOB) is None and room.has_free_seat


def test_closing_a_room_aborts_its_game_and_tells_every_member() -> None:
    """The game ends with no result, whatever the moves; each connected member
    gets game_over then room_closed; the room is left empty for the server to drop."""
    room = started_room()
    move(room, ANN, "b2", T0 + 1)
    room.disconnected(BOB, now=T0 + 2)  # held, not connected: told nothing
    output = room.close("closed by the teacher", now=T0 + 3)
    assert output.events == (GameFinished(CODE, 1, None, Termination.ABORTED, T0 + 3),)
    closed = RoomClosed(room=CODE, reason="closed by the teacher")
    for client in (ANN, CAT):
        over, last = output.to(client)
        assert isinstance(over, GameOver) and over.result.reason == "aborted"
        assert last == closed
    assert output.to(BOB) == [] and room.is_empty and output.next_deadline is None
