"""The room in words: the status line (seats, clocks, whose turn, private codes)
and how a game ended, from each side and for spectators."""

from __future__ import annotations

import time
from typing import Any

import pytest
from room_states import room_in_play

from boardroom.client.terminal.room_text import (
    format_clock,
    rematch_text,
    result_text,
    search_text,
    seat_text,
    status_line,
)
from boardroom.client.tracked_room import TrackedRoom
from boardroom.shared.games import Player
from boardroom.shared.protocol.messages import (
    Clock,
    ClockState,
    Moved,
    ResultInfo,
    SearchInfo,
    SeatInfo,
)

ANN = SeatInfo(side=Player.FIRST, name="ann", kind="human", connected=True)
BOB = SeatInfo(side=Player.SECOND, name="bob", kind="human", connected=True)
AI = SeatInfo(side=Player.SECOND, name="AI (hard)", kind="ai", level="hard", connected=True)


def room(**fields: Any) -> TrackedRoom:
    """A tic-tac-toe room in play, ann (X, you) against bob, with ``fields`` changed."""
    return TrackedRoom(room_in_play(**{"code": "C9FVBQ", "seats": [ANN, BOB], **fields}))


def finished(result: ResultInfo, **fields: Any) -> TrackedRoom:
    return room(status="finished", to_move=None, result=result, **fields)


def test_the_status_line_names_the_room_both_seats_and_whose_move() -> None:
    assert status_line(room()) == ("Tic-tac-toe, room C9FVBQ | X ann (you) | O bob | your move")
    assert status_line(room(moves="b2", ply=1, to_move=Player.SECOND)).endswith("| O to move")


def test_a_private_room_shows_its_codes_to_pass_on_while_it_waits() -> None:
    waiting = room(
        status="waiting",
        to_move=None,
        public=False,
        seats=[ANN, SeatInfo(side=Player.SECOND)],
        join_code="XTZRUWF6",
        watch_code="H7VXUYV8",
    )
    assert status_line(waiting) == (
        "Tic-tac-toe, room C9FVBQ (private: join code XTZRUWF6, watch code H7VXUYV8)"
        " | X ann (you) | O (empty seat) | waiting for an opponent"
    )


def test_a_tournament_room_offers_no_join_code_and_no_rematch() -> None:
    """Its players are seated by the server: only the watch code is worth
    passing on; after the game there is no rematch to offer."""
    codes: dict[str, Any] = {"public": False, "join_code": "XTZRUWF6", "watch_code": "H7VXUYV8"}
    playing = room(tournament=True, **codes)
    assert status_line(playing) == (
        "Tic-tac-toe, room C9FVBQ, tournament game (watch code H7VXUYV8)"
        " | X ann (you) | O bob | your move"
    )
    over = finished(
        ResultInfo(winner=Player.SECOND, reason="resignation"), tournament=True, **codes
    )
    assert status_line(over).endswith("| O bob | game over")
    casual = finished(ResultInfo(winner=Player.SECOND, reason="resignation"), **codes)
    assert status_line(casual).endswith("| game over: rematch or leave")


def test_clocks_show_minutes_and_seconds_and_the_running_one_counts_down() -> None:
    clocked = room(
        clock=Clock(kind="increment", initial=120, increment=2),
        clocks=ClockState(first_ms=119_500, second_ms=61_000, running=Player.FIRST),
        seats=[ANN, AI],
    )
    assert "X ann (you) 1:59" in status_line(clocked)
    assert "O AI (hard) 1:01" in status_line(clocked)
    later = clocked.time_left_ms(Player.FIRST, now=time.monotonic() + 10)
    assert later is not None and format_clock(later) == "1:49"


def test_a_dropped_player_shows_as_gone_with_the_seat_held_for_a_countdown() -> None:
    gone = room(
        seats=[ANN, SeatInfo(side=Player.SECOND, name="bob", kind="human", gone_until=1000.0)]
    )
    assert seat_text(gone, Player.SECOND, wall_now=955.2) == "O bob (gone, seat held 45s)"


def test_a_seat_the_autopilot_plays_shows_as_the_ai_for_its_player() -> None:
    """Bob's window ran out and the engine plays for him at ``medium``: no countdown."""
    away = room(
        seats=[ANN, SeatInfo(side=Player.SECOND, name="bob", kind="human", autopilot="medium")]
    )
    assert seat_text(away, Player.SECOND) == "O AI for bob (medium)"


def test_a_bot_is_labelled_and_a_spectator_sees_no_you() -> None:
    bot = SeatInfo(side=Player.SECOND, name="minimax", kind="bot", connected=True)
    watched = room(seats=[ANN, bot], you=None)
    assert status_line(watched) == "Tic-tac-toe, room C9FVBQ | X ann | O minimax [bot] | X to move"


def test_a_draw_offer_shows_who_offered_and_what_to_answer() -> None:
    assert "you offered a draw" in status_line(room(draw_offer=Player.FIRST))
    assert "O bob offers a draw: accept or decline" in status_line(room(draw_offer=Player.SECOND))


def test_a_pause_by_the_teacher_says_whose_move_comes_at_the_resume_and_the_held_move() -> None:
    assert status_line(room(paused=True)).endswith(
        "| paused by the teacher (your move when the games resume)"
    )
    assert status_line(room(paused=True, you=None)).endswith(
        "| paused by the teacher (X to move when the games resume)"
    )
    assert status_line(room(paused=True), held="b2").endswith(
        "| paused by the teacher: your move b2 is held"
    )
    waiting = room(paused=True, status="waiting", seats=[ANN, SeatInfo(side=Player.SECOND)])
    assert status_line(waiting).endswith("| waiting for an opponent (games paused by the teacher)")


@pytest.mark.parametrize(
    ("result", "you", "text"),
    [
        (ResultInfo(winner=Player.FIRST, reason="line", line=["a1", "a2", "a3"]), Player.FIRST,
         "You win: three in a row a1-a2-a3"),
        (ResultInfo(winner=Player.FIRST, reason="line", line=["a1", "a2", "a3"]), Player.SECOND,
         "X ann wins: three in a row a1-a2-a3"),
        (ResultInfo(winner=Player.FIRST, reason="line", line=["a1", "a2", "a3"]), None,
         "X ann wins: three in a row a1-a2-a3"),
        (ResultInfo(winner=None, reason="full_board"), Player.FIRST, "Draw: the board is full"),
        (ResultInfo(winner=None, reason="agreement"), Player.FIRST, "Draw by agreement"),
        (ResultInfo(winner=Player.SECOND, reason="timeout"), Player.FIRST, "O bob wins on time"),
        (ResultInfo(winner=Player.SECOND, reason="timeout"), Player.SECOND, "You win on time"),
        (ResultInfo(winner=Player.FIRST, reason="resignation"), Player.FIRST,
         "You win: O bob resigned"),
        (ResultInfo(winner=Player.SECOND, reason="resignation"), Player.FIRST,
         "O bob wins: you resigned"),
        (ResultInfo(winner=Player.FIRST, reason="abandonment"), Player.FIRST,
         "You win: O bob left and did not come back"),
        (ResultInfo(winner=None, reason="abandonment"), Player.FIRST,
         "No result: both players left"),
        (ResultInfo(winner=None, reason="aborted"), Player.FIRST,
         "Aborted before the first move: nobody wins"),
    ],
)  # fmt: skip
def test_every_ending_reads_as_a_sentence_from_where_you_sit(
    result: ResultInfo, you: str | None, text: str
) -> None:
    assert result_text(finished(result, you=you)) == text


@pytest.mark.parametrize(
    ("result", "text"),
    [
        (ResultInfo(winner=Player.FIRST, reason="count"), "You win on count, 3 to 2"),
        (ResultInfo(winner=Player.SECOND, reason="count"), "O bob wins on count, 3 to 2"),
        (ResultInfo(winner=None, reason="count"), "Draw on count, 3 to 2"),
        (ResultInfo(winner=Player.FIRST, reason="no_moves"), "You win: O bob had no move"),
        (ResultInfo(winner=Player.FIRST, reason="checkmate"), "You win (checkmate)"),
        (ResultInfo(winner=None, reason="checkmate"), "No winner (checkmate)"),
    ],
)
def test_endings_by_count_or_no_move_and_newer_endings_read_as_sentences(
    result: ResultInfo, text: str
) -> None:
    """The rules' endings beyond a line (Othello's count, a side with no move) are
    worded from the board; an ending newer than this client shows as it is."""
    assert result_text(finished(result, moves="a1 b1 b2 c1 c3")) == text


def test_a_gomoku_overline_counts_the_stones_in_it() -> None:
    line = ["a1", "b1", "c1", "d1", "e1", "f1"]
    over = finished(ResultInfo(winner=Player.FIRST, reason="line", line=line))
    assert result_text(over) == "You win: six in a row a1-b1-c1-d1-e1-f1"


@pytest.mark.parametrize(
    ("line", "text"),
    [
        (["d1", "d2", "d3", "d4"], "four in a row up column 4"),
        (["c2", "d2", "e2", "f2"], "four in a row across columns 3 to 6"),
        (["a1", "b2", "c3", "d4"], "four in a row diagonally across columns 1 to 4"),
        (["g1", "f2", "e3", "d4"], "four in a row diagonally across columns 4 to 7"),
        (["b1", "c1", "d1", "e1", "f1"], "five in a row across columns 2 to 6"),
    ],
)
def test_a_connect_four_line_is_written_by_the_board_s_column_numbers(
    line: list[str], text: str
) -> None:
    """Connect Four's board labels its columns 1 to 7 and moves are columns: its
    winning line is written by them too, never as grid cells ("d1-d2-d3-d4")."""
    over = finished(
        ResultInfo(winner=Player.FIRST, reason="line", line=line),
        game="connect4",
        title="Connect Four",
    )
    assert result_text(over) == f"You win: {text}"


@pytest.mark.parametrize(
    ("moves", "winner", "text"),
    [
        ("d3 c3 f5 f4 f3 d2 d1 e3 b3", Player.FIRST, "You win on count, 13 to 0"),
        (
            "d3 c5 f6 e3 f3 g7 c6 f2 e6 c3 b5 f5 g5 g6 g4 g3 e2 f4 b3 a3 h2 h3 h8 e7 d6 f1 "
            "b2 b7 d7 d8 b4 h1 e1 c1 c2 a5 a1 b1 a4 d2 h5 b6 f7 h6 h7 d1 a2 g8 f8 e8 a7 c4 "
            "c8 a6 c7 a8 h4 b8 g1 g2",
            None,
            "Draw on count, 32 to 32",
        ),
    ],
)
def test_an_othello_count_says_the_discs(moves: str, winner: str | None, text: str) -> None:
    over = finished(
        ResultInfo(winner=winner, reason="count"),  # type: ignore[arg-type]
        game="othello",
        title="Othello",
        moves=moves,
        ply=len(moves.split()),
    )
    assert result_text(over) == text


def test_no_result_yet_is_an_empty_text_and_a_finished_room_says_what_next() -> None:
    assert result_text(room()) == ""
    over = finished(ResultInfo(winner=None, reason="full_board"))
    assert status_line(over).endswith("| game over: rematch or leave")


def test_a_rematch_request_names_who_asked_and_what_the_other_may_type() -> None:
    over = ResultInfo(winner=None, reason="full_board")
    assert status_line(finished(over, rematch_offer=Player.FIRST)).endswith(
        "| game over: you asked for a rematch, waiting for bob"
    )
    assert status_line(finished(over, rematch_offer=Player.SECOND)).endswith(
        "| game over: bob asks for a rematch: rematch (r) or leave"
    )
    assert status_line(finished(over, rematch_offer=Player.SECOND, you=None)).endswith(
        "| game over: bob asks for a rematch"
    )
    assert rematch_text(finished(over, you=None), Player.FIRST) == "ann asks for a rematch."


def test_a_finished_games_players_stay_named_after_they_leave_their_seats() -> None:
    """Bob wins and leaves (a bot leaves at once): the result and the status line
    still name him, from the server's ``game_players``, marked as gone."""
    left = finished(
        ResultInfo(winner=Player.SECOND, reason="line", line=["b1", "b2", "b3"]),
        seats=[ANN, SeatInfo(side=Player.SECOND)],
        game_players={Player.FIRST: "ann", Player.SECOND: "bob"},
    )
    assert result_text(left) == "O bob wins: three in a row b1-b2-b3"
    assert seat_text(left, Player.SECOND) == "O bob (left)"
    assert rematch_text(left, Player.FIRST) == "You asked for a rematch; waiting for bob."
    # While a game is on, an empty seat is empty whatever the last game's players.
    waiting = room(
        status="waiting",
        to_move=None,
        seats=[ANN, SeatInfo(side=Player.SECOND)],
        game_players={Player.FIRST: "ann", Player.SECOND: "bob"},
    )
    assert seat_text(waiting, Player.SECOND) == "O (empty seat)"


def test_clock_readings_round_down_and_grow_hours() -> None:
    assert [format_clock(ms) for ms in (0, 999, 59_999, 60_000, 3_600_000, -5)] == [
        "0:00",
        "0:00",
        "0:59",
        "1:00",
        "1:00:00",
        "0:00",
    ]


def test_why_says_the_line_is_not_shown_while_hints_are_off() -> None:
    """The server sends only the AI's own move while hints are off: ``why`` says
    the line is not shown rather than pass that move off as the whole line."""
    search = SearchInfo(
        summary="searched 812 positions in 3 ms, depth 7: proven draw",
        nodes=812,
        depth=7,
        elapsed_ms=3,
        nodes_per_second=270_666,
        exact=True,
        value="draw",
        pv=["a1"],
        line_hidden=True,
    )
    moved = Moved(room="C9FVBQ", ply=1, move="a1", side=Player.SECOND, search=search)
    text = search_text(room(seats=[ANN, AI]), moved)
    assert text.splitlines()[1].startswith("  expected line: not shown while hints are off (")


def test_while_saving_is_paused_the_clocks_stand_and_the_status_line_says_so() -> None:
    """The state the server sends while it cannot save (``saving_paused``,
    ``clocks.running`` null): the shown clock does not run down, the line says why."""
    held = room(
        clock=Clock(kind="per_move", per_move=60),
        clocks=ClockState(first_ms=41_000, second_ms=60_000, running=None),
        saving_paused=True,
    )
    assert status_line(held).endswith(
        "| X ann (you) 0:41 | O bob 1:00 | your move (saving is paused: the clocks are stopped)"
    )
    later = held.time_left_ms(Player.FIRST, now=time.monotonic() + 30)
    assert later is not None and format_clock(later) == "0:41"
