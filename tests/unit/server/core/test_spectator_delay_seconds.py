"""Spectators who see a tournament game some seconds late
(boardroom.server.core.spectator_delay, the delay by seconds).

Pure room tests, the time passed in: a tournament room of tic-tac-toe whose
spectators are held 10 seconds, a late spectator (Eve) and a live one (the
teacher). Each move reaches Eve once it is 10 seconds old: the room asks for a
tick then (``next_deadline``) and sends it on that tick.
"""

from __future__ import annotations

import random

import pytest
from room_states import tournament_room

from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import ClientId, Output, Room, RoomOptions
from boardroom.server.core.room_output import GameStarted, MoveMade
from boardroom.server.recorder import options_from_json, options_to_json
from boardroom.shared.protocol.messages import GameOver, MakeMove, Moved, Resign, State

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
EVE = ClientId("eve-session")
TEACHER = ClientId("teacher-session")
T0 = 1_700_000_000.0
LATE = 10.0


def late_room(events: list[object] | None = None) -> Room:
    """The room, its game started, Eve late and the teacher live; ``events``
    gets what the seating persisted (the game's start)."""
    room = tournament_room(ANN, BOB, spectator_delay_seconds=LATE)
    for client, name in ((ANN, "ann"), (BOB, "bob")):
        seated = room.seat(client, name, PlayerKind.HUMAN, now=T0)
        if events is not None:
            events.extend(seated.events)
    room.watch(EVE, "eve", now=T0)
    room.watch(TEACHER, "teacher", now=T0, live=True)
    return room


def move(room: Room, text: str, at: float) -> Output:
    ply = len(room.moves.split())
    player = ANN if ply % 2 == 0 else BOB
    return room.handle(player, MakeMove(room="T0URN1", move=text, ply=ply), now=at)


def moved(output: Output, client: ClientId) -> list[tuple[int, str]]:
    return [(m.ply, m.move) for m in output.to(client) if isinstance(m, Moved)]


def test_each_move_reaches_a_late_spectator_ten_seconds_after_it_was_made() -> None:
    """Moves at 1, 2 and 3 s: the players and the teacher get each at once, Eve
    none; the room asks for a tick at 11 s, when Eve gets the first (its board,
    no clocks or search); at 13 s the next two, in order; then no more ticks."""
    room = late_room()
    outputs = [move(room, "b2", T0 + 1), move(room, "a1", T0 + 2), move(room, "c3", T0 + 3)]
    for output, (ply, text) in zip(outputs, [(0, "b2"), (1, "a1"), (2, "c3")], strict=True):
        assert moved(output, EVE) == []
        assert moved(output, TEACHER) == moved(output, ANN) == [(ply, text)]
    assert room.next_deadline == T0 + 1 + LATE

    early = room.tick(T0 + 10.9)
    assert moved(early, EVE) == []
    first = room.tick(T0 + 11)
    assert moved(first, EVE) == [(0, "b2")]
    assert moved(first, TEACHER) == []
    (shown,) = [m for m in first.to(EVE) if isinstance(m, Moved)]
    assert shown.board == ["...", ".X.", "..."]
    assert shown.clocks is None and shown.search is None
    assert room.next_deadline == T0 + 2 + LATE

    both = room.tick(T0 + 13.5)
    assert moved(both, EVE) == [(1, "a1"), (2, "c3")]
    assert room.next_deadline is None


def test_a_late_spectators_state_shows_what_they_were_shown() -> None:
    """Eve's state, and the state of a spectator who comes in later, hold the
    moves shown so far, with ``delayed_seconds`` (no ``delayed``); the teacher's
    the game now."""
    room = late_room()
    move(room, "b2", T0 + 1)
    move(room, "a1", T0 + 2)
    room.tick(T0 + 11)
    late = room.state_for(EVE, now=T0 + 11)
    assert (late.moves, late.ply, late.delayed_seconds, late.delayed) == ("b2", 1, LATE, 0)
    live = room.state_for(TEACHER, now=T0 + 11)
    assert (live.moves, live.delayed_seconds) == ("b2 a1", 0)

    cleo = ClientId("cleo-session")
    out = room.watch(cleo, "cleo", now=T0 + 12.5)
    messages = out.to(cleo)
    assert isinstance(messages[0], State) and messages[0].room.moves == "b2"
    assert [(m.ply, m.move) for m in messages if isinstance(m, Moved)] == [(1, "a1")]
    assert room.state_for(cleo, now=T0 + 12.5).moves == "b2 a1"


def test_at_the_end_the_moves_held_back_come_before_game_over() -> None:
    """Bob resigns 5 s after the last move: Eve gets the two moves she has not
    seen, in order, then ``game_over``; no tick is asked for after."""
    room = late_room()
    move(room, "b2", T0 + 1)
    move(room, "a1", T0 + 2)
    out = room.handle(BOB, Resign(room="T0URN1"), now=T0 + 7)
    messages = out.to(EVE)
    assert [(m.ply, m.move) for m in messages if isinstance(m, Moved)] == [(0, "b2"), (1, "a1")]
    over = [i for i, m in enumerate(messages) if isinstance(m, GameOver)]
    assert over and all(i < over[0] for i, m in enumerate(messages) if isinstance(m, Moved)), (
        messages
    )
    assert room.next_deadline is None
    assert room.state_for(EVE, now=T0 + 7).moves == "b2 a1"


def test_a_restored_room_times_its_moves_from_the_records() -> None:
    """After a restart (at 5 s) a spectator who comes in at 12 s has been shown
    the move made at 1 s; the one made at 4 s reaches them at 14 s, as the
    records time it."""
    events: list[object] = []
    room = late_room(events)
    outputs = [move(room, "b2", T0 + 1), move(room, "a1", T0 + 4)]
    events += [e for out in outputs for e in out.events]
    started = next(e for e in events if isinstance(e, GameStarted))
    moves = [e for e in events if isinstance(e, MoveMade)]
    restored = Room.restore(
        options=room.options, started=started, moves=moves, rng=random.Random(2)
    )
    restored.resume_after_restart(T0 + 5)
    out = restored.watch(EVE, "eve", now=T0 + 12)
    shown = [m for m in out.to(EVE) if isinstance(m, State | Moved)]
    assert isinstance(shown[0], State) and shown[0].room.moves == ""
    assert [(m.ply, m.move) for m in shown if isinstance(m, Moved)] == [(0, "b2")]
    assert restored.next_deadline is not None and restored.next_deadline <= T0 + 4 + LATE
    assert moved(restored.tick(T0 + 14), EVE) == [(1, "a1")]


def test_a_delay_by_seconds_is_checked_and_kept_with_the_rooms_options() -> None:
    """0 to 300 seconds, in a tournament room only, and not with plies as well;
    a restored room keeps it (the store keeps room options); a room delayed by
    plies stores no seconds."""
    with pytest.raises(ValueError, match="give 0 to 300 seconds"):
        RoomOptions(tournament=True, spectator_delay_seconds=301)
    with pytest.raises(ValueError, match="only a tournament room"):
        RoomOptions(spectator_delay_seconds=5)
    with pytest.raises(ValueError, match="not both"):
        RoomOptions(tournament=True, spectator_delay=2, spectator_delay_seconds=5)
    options = RoomOptions(tournament=True, spectator_delay_seconds=7.5)
    assert options_from_json(options_to_json(options)).spectator_delay_seconds == 7.5
    plies = options_to_json(RoomOptions(tournament=True, spectator_delay=2))
    assert "spectator_delay_seconds" not in plies
