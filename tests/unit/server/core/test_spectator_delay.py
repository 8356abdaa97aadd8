"""Spectators who see a tournament game late (boardroom.server.core.spectator_delay).

Pure room tests: a tournament room of tic-tac-toe with a delay of 2 plies, a
late spectator (Eve, in by the watch code) and a live one (the teacher, in by
the join code), as the server's adapter marks them.
"""

from __future__ import annotations

from typing import Any

import pytest
from room_states import tournament_room

from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import ClientId, Output, Room, RoomOptions
from boardroom.server.recorder import options_from_json, options_to_json
from boardroom.shared.protocol.messages import GameOver, MakeMove, Moved, Resign, State

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
EVE = ClientId("eve-session")
TEACHER = ClientId("teacher-session")
T0 = 1_700_000_000.0


def delayed_room(delay: int = 2, **options: Any) -> Room:
    room = tournament_room(ANN, BOB, spectator_delay=delay, **options)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    room.watch(EVE, "eve", now=T0)
    room.watch(TEACHER, "teacher", now=T0, live=True)
    return room


def play(room: Room, *moves: str) -> list[Output]:
    outputs = []
    for number, text in enumerate(moves):
        player = ANN if number % 2 == 0 else BOB
        ply = len(room.moves.split())
        outputs.append(room.handle(player, MakeMove(room="T0URN1", move=text, ply=ply), now=T0))
    return outputs


def moved_plies(outputs: list[Output], client: ClientId) -> list[tuple[int, str]]:
    return [(m.ply, m.move) for out in outputs for m in out.to(client) if isinstance(m, Moved)]


def test_a_late_spectator_gets_each_move_two_plies_after_it_is_made() -> None:
    """Eve gets nothing for the first two moves, then the move of two plies
    before each new one; the teacher and the players get every move at once."""
    room = delayed_room()
    outputs = play(room, "b2", "a1", "c3", "a3")
    assert moved_plies(outputs, EVE) == [(0, "b2"), (1, "a1")]
    live = [(0, "b2"), (1, "a1"), (2, "c3"), (3, "a3")]
    assert moved_plies(outputs, TEACHER) == live
    assert moved_plies(outputs, ANN) == live and moved_plies(outputs, BOB) == live
    late = [m for out in outputs for m in out.to(EVE) if isinstance(m, Moved)]
    # The board after the move shown, and nothing that tells the position now.
    assert late[0].board == ["...", ".X.", "..."]
    assert all(m.clocks is None and m.search is None for m in late)


def test_a_late_spectators_state_shows_the_position_two_plies_ago() -> None:
    """Eve's state holds the game as it stood two plies ago, with ``delayed``;
    the teacher's and the players' show it now, without."""
    room = delayed_room()
    play(room, "b2", "a1", "c3")
    late = room.state_for(EVE, now=T0)
    assert (late.moves, late.ply, late.to_move, late.delayed) == ("b2", 1, "second", 2)
    assert late.board == ["...", ".X.", "..."]
    assert late.legal is not None and "a1" in late.legal
    for client in (TEACHER, ANN, BOB):
        now = room.state_for(client, now=T0)
        assert (now.moves, now.ply, now.delayed) == ("b2 a1 c3", 3, 0)


def test_at_the_end_the_held_back_moves_come_before_game_over() -> None:
    """Ann wins with her third stone: Eve gets the two moves she had not seen,
    in order, then ``game_over``, and her state is the whole game."""
    room = delayed_room()
    *_, last = play(room, "a1", "b1", "a2", "b2", "a3")
    messages = last.to(EVE)
    assert [type(m) for m in messages[-3:]] == [Moved, Moved, GameOver]
    assert [m.ply for m in messages if isinstance(m, Moved)] == [2, 3, 4]
    state = room.state_for(EVE, now=T0)
    assert (state.moves, state.delayed) == ("a1 b1 a2 b2 a3", 0)


def test_a_resignation_shows_the_late_spectator_the_rest_of_the_game() -> None:
    """The game ends with no move (Bob resigns): Eve gets the two moves held
    back, then ``game_over``."""
    room = delayed_room()
    play(room, "b2", "a1", "c3")
    out = room.handle(BOB, Resign(room="T0URN1"), now=T0)
    messages = out.to(EVE)
    assert [(m.ply, m.move) for m in messages if isinstance(m, Moved)] == [(1, "a1"), (2, "c3")]
    assert isinstance(messages[-1], GameOver)
    assert not [m for m in out.to(TEACHER) if isinstance(m, Moved)]


def test_watching_again_without_live_makes_a_live_spectator_late() -> None:
    """``live`` is said on each watch: the same session coming in by the watch
    code sees the game late."""
    room = delayed_room()
    play(room, "b2", "a1", "c3")
    out = room.watch(TEACHER, "teacher", now=T0)
    (state,) = [m for m in out.to(TEACHER) if isinstance(m, State)]
    assert state.room.delayed == 2


def test_no_delay_and_a_casual_room_show_everyone_the_game_live() -> None:
    """With a delay of 0 Eve sees every move at once; a casual room refuses a
    delay at all (only tournaments have one)."""
    room = delayed_room(delay=0)
    outputs = play(room, "b2", "a1")
    assert moved_plies(outputs, EVE) == [(0, "b2"), (1, "a1")]
    assert room.state_for(EVE, now=T0).delayed == 0
    with pytest.raises(ValueError, match="only a tournament room"):
        RoomOptions(spectator_delay=2)
    with pytest.raises(ValueError, match="give 0 to 20 plies"):
        RoomOptions(tournament=True, spectator_delay=21)


def test_the_delay_is_kept_with_the_rooms_options() -> None:
    """A restored tournament room keeps its delay (the store keeps room options)."""
    options = RoomOptions(tournament=True, spectator_delay=3)
    assert options_from_json(options_to_json(options)).spectator_delay == 3
