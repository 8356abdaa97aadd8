"""The engine autopilot (``RoomOptions.autopilot``): a seat whose grace window runs
out is played by the engine, and its player takes it back by coming back."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardroom.server.core.records import PlayerKind, Termination
from boardroom.server.core.room import (
    ALL,
    ClientId,
    GameFinished,
    MoveMade,
    Output,
    Room,
    RoomOptions,
)
from boardroom.shared.protocol.messages import (
    Clock,
    GameOver,
    MakeMove,
    Moved,
    PlayerStatus,
    Resign,
    State,
)

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
T0 = 1_700_000_000.0
CODE = "K7Q2"
WINDOW_END = T0 + 61  # Bob drops at T0+1, with the default 60 s window


def started_room(**options: Any) -> Room:
    """Ann (first) and Bob (second) seated, Ann has played b2, Bob dropped at T0+1."""
    room = Room(CODE, "tictactoe", options=RoomOptions(**options), rng=random.Random(1), now=T0)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    room.handle(ANN, MakeMove(room=CODE, move="b2"), now=T0)
    room.disconnected(BOB, now=T0 + 1)
    return room


def moved(output: Output) -> list[Moved]:
    return [m for _, m in output.messages if isinstance(m, Moved)]


def test_when_the_window_runs_out_the_engine_takes_the_seat() -> None:
    """At the window's end Bob's seat is the engine's, at the room's level: everyone
    is told, the state shows it, and the engine is asked for Bob's move."""
    room = started_room(autopilot="medium")
    output = room.tick(WINDOW_END + 5)
    assert output.events == ()  # no abandonment
    assert (ALL, PlayerStatus(room=CODE, side="second", connected=False, autopilot="medium")) in (
        output.messages
    )
    seat = room.state_for(ANN, now=WINDOW_END).seats[1]
    assert (seat.name, seat.autopilot, seat.gone_until, seat.connected) == (
        "bob",
        "medium",
        None,
        False,
    )
    (request,) = output.ai_requests
    expected = ("medium", "second", 1, "b2")
    assert (request.level, request.side, request.ply, request.moves) == expected
    assert room.status == "playing" and room.side_of(BOB) == "second"
    assert output.next_deadline is None


def test_the_engines_moves_for_the_absent_player_are_flagged() -> None:
    """The engine's move in Bob's seat is stored and announced with ``autopilot``; Ann's
    are not; the engine is asked again after Ann's next move."""
    room = started_room(autopilot="medium")
    room.tick(WINDOW_END)
    output = room.ai_moved(1, 1, "a1", now=WINDOW_END + 1)
    assert output.events == (MoveMade(CODE, 1, 1, "second", "a1", WINDOW_END + 1, autopilot=True),)
    (announced,) = moved(output)
    assert announced.autopilot
    mine = room.handle(ANN, MakeMove(room=CODE, move="c1"), now=WINDOW_END + 2)
    (made,) = mine.events
    assert isinstance(made, MoveMade) and not made.autopilot
    assert [r.ply for r in mine.ai_requests] == [3]


def test_the_engine_finishes_the_game_and_the_seat_is_then_held_as_any() -> None:
    """The engine plays Bob's side to the end; from then his seat is held a whole
    window, and freed when it ends."""
    room = started_room(autopilot="medium")
    output = room.tick(WINDOW_END)
    now = WINDOW_END
    while room.status == "playing":
        now += 1
        if output.ai_requests:
            (request,) = output.ai_requests
            output = room.ai_failed(request.game_number, request.ply, now=now)  # a random move
        else:
            legal = room.state_for(ANN, now=now).legal
            assert legal
            output = room.handle(ANN, MakeMove(room=CODE, move=legal[0]), now=now)
    assert room.side_of(BOB) == "second"
    seat = room.state_for(ANN, now=now).seats[1]
    assert seat.autopilot is None and seat.gone_until == now + 60
    assert room.tick(now + 61).events == ()
    assert room.side_of(BOB) is None


def test_coming_back_takes_the_seat_back_between_moves() -> None:
    """Bob comes back while the engine searches his move: the seat is his again at
    once (everyone is told, and gets the state), the engine's late answer is
    dropped, and Bob plays his own move."""
    room = started_room(autopilot="hard")
    (request,) = room.tick(WINDOW_END).ai_requests
    back = room.reconnected(BOB, now=WINDOW_END + 1)
    assert back.to(ANN)[0] == PlayerStatus(room=CODE, side="second", connected=True)
    states = [m for m in back.to(ANN) + back.to(BOB) if isinstance(m, State)]
    assert len(states) == 2 and all(s.room.seats[1].autopilot is None for s in states)
    late = room.ai_moved(request.game_number, request.ply, "a1", now=WINDOW_END + 2)
    assert late.events == () and late.ai_requests == ()
    mine = room.handle(BOB, MakeMove(room=CODE, move="c3"), now=WINDOW_END + 3)
    (made,) = mine.events
    assert isinstance(made, MoveMade) and (made.move_text, made.autopilot) == ("c3", False)


def test_dropping_again_after_the_handback_starts_a_new_window() -> None:
    room = started_room(autopilot="easy")
    room.tick(WINDOW_END)
    room.reconnected(BOB, now=WINDOW_END + 1)
    output = room.disconnected(BOB, now=WINDOW_END + 2)
    assert output.messages == (
        (ALL, PlayerStatus(room=CODE, side="second", connected=False, gone_until=WINDOW_END + 62)),
    )


def test_the_engine_plays_within_the_seats_clock() -> None:
    """The engine is asked with what is left on Bob's clock, and his clock runs."""
    room = started_room(autopilot="medium", clock=Clock(kind="increment", initial=300, increment=2))
    (request,) = room.tick(WINDOW_END).ai_requests
    assert request.clock_left == pytest.approx(300 - (WINDOW_END - T0))


def test_without_autopilot_the_window_ends_in_abandonment_as_before() -> None:
    room = started_room()
    output = room.tick(WINDOW_END)
    assert output.events == (GameFinished(CODE, 1, "first", Termination.ABANDONMENT, WINDOW_END),)
    assert output.ai_requests == () and room.side_of(BOB) is None


def test_with_nobody_waiting_the_window_ends_as_before() -> None:
    """Both gone: no opponent waits for the engine's moves, so nobody wins."""
    room = started_room(autopilot="medium")
    room.disconnected(ANN, now=T0 + 2)
    output = room.tick(WINDOW_END)
    assert output.events == (GameFinished(CODE, 1, None, Termination.ABANDONMENT, WINDOW_END),)
    assert output.ai_requests == ()


def test_a_window_ending_with_no_game_in_play_frees_the_seat() -> None:
    room = Room(
        CODE, "tictactoe", options=RoomOptions(autopilot="medium"), rng=random.Random(1), now=T0
    )
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.disconnected(ANN, now=T0)
    assert room.tick(T0 + 60).ai_requests == () and room.is_empty


def test_an_unknown_autopilot_level_is_refused() -> None:
    with pytest.raises(ValueError, match="autopilot"):
        RoomOptions(autopilot="grandmaster")  # type: ignore[arg-type]


def test_a_game_that_ends_otherwise_releases_the_seat_from_the_autopilot() -> None:
    """Ann resigns while the engine plays for Bob: the game is over, and the seat
    is held for Bob a whole window from then, no longer the engine's."""
    room = started_room(autopilot="medium")
    room.tick(WINDOW_END)
    output = room.handle(ANN, Resign(room=CODE), now=WINDOW_END + 1)
    assert any(isinstance(m, GameOver) for m in output.to(ANN))
    seat = room.state_for(ANN, now=WINDOW_END + 1).seats[1]
    assert (seat.autopilot, seat.gone_until) == (None, WINDOW_END + 61)
