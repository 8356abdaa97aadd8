"""What a bot is shown: the game state and the result, built from the room the server sent."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from room_states import room_in_play

from boardroom.client.bots.pipe_bot import turn_line
from boardroom.client.bots.report import describe_result
from boardroom.client.bots.state import game_result, game_state
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import ClockState, ResultInfo, RoomState, SeatInfo

SEATS = [
    SeatInfo(side=Player.FIRST, name="ann", kind="human"),
    SeatInfo(side=Player.SECOND, name="AI (perfect)", kind="ai", level="perfect"),
]


def room(game: str = "tictactoe", moves: str = "", **fields: Any) -> RoomState:
    """A room in play, ann (first) against the AI, seen by ann unless ``you`` says otherwise."""
    return room_in_play(game, moves, **{"seats": SEATS, **fields})


def test_state_names_the_game_the_seat_and_the_opponent() -> None:
    """The bot sees the game, its stone and seat, whose turn it is and who it plays."""
    state = game_state(room(moves="b2 a1"))
    assert (state.game, state.room, state.game_number) == ("tictactoe", "ABCDEF", 1)
    assert (state.you, state.side, state.opponent, state.my_turn) == (
        "X",
        Player.FIRST,
        "AI (perfect)",
        True,
    )
    second = game_state(room(moves="b2 a1", you=Player.SECOND))
    assert (second.you, second.side, second.opponent, second.my_turn) == (
        "O",
        Player.SECOND,
        "ann",
        False,
    )


def test_state_shows_the_autopilot_of_the_opponents_seat_and_the_engines_moves() -> None:
    """While the server's engine plays the opponent's seat, ``opponent_autopilot``
    is its level; ``autopilot_plies`` are the plies given (those played so far)."""
    away = [SEATS[0], SeatInfo(side=Player.SECOND, name="bob", kind="bot", autopilot="easy")]
    state = game_state(room(moves="b2 a1 c3", seats=away), autopilot_plies={5, 1})
    assert (state.opponent, state.opponent_autopilot, state.autopilot_plies) == (
        "bob",
        "easy",
        (1,),
    )
    assert game_state(room(moves="b2 a1")).opponent_autopilot is None
    assert game_state(room(moves="b2 a1")).autopilot_plies == ()


def test_state_lists_moves_legal_moves_and_the_board_top_row_first() -> None:
    """Moves are notation strings; the board reads top row first, a1 at the bottom left."""
    state = game_state(room(moves="b2 a1 c3"))
    assert state.moves == ("b2", "a1", "c3")
    assert state.move_string == "b2 a1 c3"
    assert (state.ply, state.last_move) == (3, "c3")
    assert state.legal_moves == ("b1", "c1", "a2", "c2", "a3", "b3")
    assert state.board == ("..X", ".X.", "O..")
    assert state.board[-1][0] == "O"  # a1
    assert state.render().splitlines()[0] == "3 . . X"


def test_connect_four_state_uses_columns_and_gravity() -> None:
    """In Connect Four moves are columns "1" to "7", and stones sit at the bottom."""
    state = game_state(room("connect4", moves="4453"))
    assert state.moves == ("4", "4", "5", "3")
    assert state.legal_moves == tuple("1234567")
    assert state.board[-2:] == ("...O...", "..OXX..")
    assert len(state.board) == 6


def test_an_empty_board_has_no_last_move() -> None:
    state = game_state(room())
    assert (state.moves, state.move_string, state.last_move, state.ply) == ((), "", None, 0)
    assert len(state.legal_moves) == 9


def test_times_are_seconds_and_none_without_a_clock() -> None:
    assert game_state(room()).time_left is None
    timed = game_state(
        room(clocks=ClockState(first_ms=29_500, second_ms=30_000, running=Player.FIRST)),
        time_left_ms=29_500,
        opponent_time_left_ms=30_000,
    )
    assert (timed.time_left, timed.opponent_time_left) == (29.5, 30.0)


def test_a_finished_game_has_no_legal_moves_and_is_nobodys_turn() -> None:
    state = game_state(
        room(
            moves="a1 a2 b1 b2 c1",
            status="finished",
            to_move=None,
            result=ResultInfo(winner=Player.FIRST, reason="line", line=["a1", "b1", "c1"]),
        )
    )
    assert (state.legal_moves, state.my_turn) == ((), False)


def test_winning_moves_finds_wins_and_threats() -> None:
    """``winning_moves()`` gives the moves that make a line at once; with
    ``opponent=True``, the cells where the opponent would make one."""
    state = game_state(room(moves="a1 b1 a2 b2"))  # X to move: a3 wins, b3 is O's threat
    assert state.winning_moves() == ("a3",)
    assert state.winning_moves(opponent=True) == ("b3",)
    assert game_state(room()).winning_moves() == ()


def test_winning_moves_in_connect_four_count_only_cells_a_stone_can_reach() -> None:
    """With gravity a line needs the stone to land there. After 5 1 1 2 2 3 3, O
    (to move) has 1-2-3 on the bottom row and wins in column 4; X has 1-2-3 on the
    second row, but its cell in column 4 floats over an empty one: no threat yet."""
    state = game_state(room("connect4", moves="5112233", you=Player.SECOND))
    assert state.winning_moves() == ("4",)
    assert state.winning_moves(opponent=True) == ()
    stacked = game_state(room("connect4", moves="273747"))  # X: 2 3 4 below; O: three in 7
    assert stacked.winning_moves() == ("1", "5")
    assert stacked.winning_moves(opponent=True) == ("7",)


def test_state_is_frozen() -> None:
    state = game_state(room())
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.ply = 3  # type: ignore[misc]


def test_a_spectator_has_no_state_to_play() -> None:
    with pytest.raises(ValueError, match="spectator"):
        game_state(room(you=None))


@pytest.mark.parametrize(
    ("winner", "reason", "side", "outcome"),
    [
        (Player.FIRST, "line", Player.FIRST, "win"),
        (Player.FIRST, "resignation", Player.SECOND, "loss"),
        (Player.SECOND, "timeout", Player.FIRST, "loss"),
        (None, "full_board", Player.FIRST, "draw"),
        (None, "agreement", Player.SECOND, "draw"),
        (None, "count", Player.FIRST, "draw"),
        (Player.SECOND, "count", Player.FIRST, "loss"),
        (None, "an_ending_newer_than_this_client", Player.FIRST, "aborted"),
        (None, "aborted", Player.FIRST, "aborted"),
        (None, "abandonment", Player.FIRST, "aborted"),
    ],
)
def test_result_outcome_is_from_the_bots_side(
    winner: Any, reason: str, side: Any, outcome: str
) -> None:
    result = game_result(ResultInfo(winner=winner, reason=reason), ("b2",), side)
    assert result.outcome == outcome
    assert result.winner_symbol == {Player.FIRST: "X", Player.SECOND: "O", None: None}[winner]


def test_results_read_as_words() -> None:
    result = game_result(
        ResultInfo(winner=Player.FIRST, reason="line", line=["a1", "b1", "c1"]),
        ("a1", "a2", "b1", "b2", "c1"),
        Player.FIRST,
    )
    assert describe_result(result) == "win by a line after 5 moves"
    assert result.line == ("a1", "b1", "c1")
    aborted = game_result(ResultInfo(winner=None, reason="aborted"), (), Player.FIRST)
    assert describe_result(aborted) == "aborted before the first move"


def test_turn_line_follows_the_documented_format() -> None:
    """``GAME YOU TIME_MS MOVES LEGAL``, lists comma-separated, ``-`` when empty."""
    state = game_state(room("connect4", moves="445", you=Player.SECOND))
    assert turn_line(state, 29_500) == "connect4 O 29500 4,4,5 1,2,3,4,5,6,7"
    first = game_state(room())
    assert turn_line(first, 30_000) == "tictactoe X 30000 - a1,b1,c1,a2,b2,c2,a3,b3,c3"
    mnk = game_state(room("mnk-5-5-4", moves="c3", you=Player.SECOND))
    assert turn_line(mnk, 0).startswith("mnk-5-5-4 O 0 c3 a1,b1,")
