"""The teacher's switches alone: the pause, hints, the hidden line, closing's addressing.

:class:`ClassControls` holds state only; what a pause means for seats, clocks
and the AI is the room's (tested in test_server_room.py). Here: the switches
themselves, the held clock, and how a closing room addresses its last messages.
"""

from __future__ import annotations

import pytest

from boardroom.server.core.class_controls import ClassControls, addressed_to_members, hold_clock
from boardroom.server.core.clock import GameClock
from boardroom.server.core.room_draft import Draft, RefusedError
from boardroom.server.core.room_output import ALL, ClientId, Everyone
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import Clock, RoomClosed

ANN, BOB, CAT = ClientId("ann"), ClientId("bob"), ClientId("cat")
T0 = 1_700_000_000.0


def test_a_pause_starts_once_and_ends_once() -> None:
    controls = ClassControls()
    assert controls.pause(T0) and controls.paused
    assert not controls.pause(T0 + 5)  # paused already: it still began at T0
    assert controls.end_pause() == T0 and not controls.paused
    assert controls.end_pause() is None


def test_a_pause_refuses_what_would_change_a_game() -> None:
    controls = ClassControls()
    controls.require_unpaused("move")  # not paused: nothing to refuse
    controls.pause(T0)
    with pytest.raises(RefusedError) as refusal:
        controls.require_unpaused("move")
    assert refusal.value.code is ErrorCode.PAUSED
    assert refusal.value.message == "the teacher paused the games: you can move once they resume"


def test_hints_follow_the_switch_and_never_come_in_an_ai_match() -> None:
    controls = ClassControls(hints=True)
    assert controls.hints_allowed
    assert not controls.switch_hints(True)  # no change
    assert controls.switch_hints(False) and not controls.hints_allowed
    assert not ClassControls(hints=True, ai_match=True).hints_allowed


@pytest.mark.parametrize(
    ("hints", "has_player", "hidden"),
    [(True, True, False), (False, True, True), (False, False, False)],
)
def test_the_ais_line_is_hidden_only_with_hints_off_and_a_player_seated(
    hints: bool, has_player: bool, hidden: bool
) -> None:
    assert ClassControls(hints=hints).line_hidden(has_player=has_player) is hidden


def test_a_held_clock_keeps_the_time_left_and_runs_on_at_the_resume() -> None:
    clock = GameClock.for_clock(Clock(kind="increment", initial=300, increment=2))
    assert clock is not None
    clock.start("first", T0)
    hold_clock(clock, T0 + 10)
    assert clock.running == "first" and clock.since is None
    assert clock.time_left("first", T0 + 1000) == 290  # no time runs while held
    clock.resume(T0 + 1000)
    assert clock.time_left("first", T0 + 1005) == 285


def test_a_closing_room_addresses_its_broadcasts_to_those_it_meant() -> None:
    out = Draft()
    closed = RoomClosed(room="K7Q2", reason="class over")
    out.send(ALL, closed)
    out.send(Everyone(exclude=ANN), closed)
    out.send(CAT, closed)
    assert addressed_to_members(out.messages, frozenset({BOB, ANN})) == [
        (ANN, closed),
        (BOB, closed),
        (BOB, closed),
        (CAT, closed),
    ]
