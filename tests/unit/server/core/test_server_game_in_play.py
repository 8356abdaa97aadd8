"""A room's game alone: moves, endings, draws and rematches, with no seats.

:class:`GameInPlay` is told which side acts; these tests play tic-tac-toe
through it and read what it wrote into a :class:`Draft`, so the rules of the
game are checked without anyone sitting down.
"""

from __future__ import annotations

from typing import Any

import pytest
from refusals import refused_unchanged

from boardroom.server.core.game_in_play import GameInPlay
from boardroom.server.core.records import PlayerKind, SeatRecord, Termination
from boardroom.server.core.room_draft import Draft
from boardroom.server.core.room_options import RoomOptions
from boardroom.server.core.room_output import (
    ALL,
    ClientId,
    Everyone,
    GameFinished,
    GameStarted,
    MoveMade,
)
from boardroom.shared.games import Player, get_game
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import (
    Clock,
    DrawDeclined,
    DrawOffered,
    GameOver,
    MakeMove,
    Moved,
    RematchOffered,
    ResultInfo,
)

ANN, BOB = ClientId("ann"), ClientId("bob")
T0 = 1_700_000_000.0
CODE = "K7Q2"
SEATS = (
    SeatRecord("ann", PlayerKind.HUMAN, None, ANN, None),
    SeatRecord("bob", PlayerKind.HUMAN, None, BOB, None),
)


def started(**options: Any) -> tuple[GameInPlay, Draft]:
    play = GameInPlay.new(CODE, get_game("tictactoe"), RoomOptions(**options))
    out = Draft()
    play.start(SEATS, T0, out, paused=False)
    return play, out


def moves(play: GameInPlay, texts: str, out: Draft) -> bool:
    """Play ``texts`` for whoever is to move; whether the game goes on."""
    goes_on = True
    for text in texts.split():
        side = play.to_move
        move = play.require_turn(side, MakeMove(room=CODE, move=text))
        goes_on = play.play(side, move, T0 + 1, out, None, None)
    return goes_on


def test_a_game_starts_with_its_record_and_the_first_side_to_move() -> None:
    play, out = started()
    assert (play.status, play.number, play.to_move) == ("playing", 1, Player.FIRST)
    assert out.events == [GameStarted(CODE, "tictactoe", 1, SEATS, at=T0)]
    assert play.players == {Player.FIRST: "ann", Player.SECOND: "bob"}


def test_a_line_ends_the_game_with_its_winner_and_cells() -> None:
    play, out = started()
    assert moves(play, "a1 b1 a2 b2", out)
    assert not moves(play, "a3", out)
    line = ("a1", "a2", "a3")
    assert out.events[-1] == GameFinished(
        CODE, 1, Player.FIRST, Termination.LINE, at=T0 + 1, line=line
    )
    result = ResultInfo(winner=Player.FIRST, reason="line", line=list(line))
    assert out.messages[-1] == (ALL, GameOver(room=CODE, result=result, moves=play.moves))
    assert isinstance(out.messages[-2][1], Moved)


def test_a_full_board_is_a_draw() -> None:
    play, out = started()
    assert not moves(play, "a1 b2 c3 b1 b3 a3 c1 c2 a2", out)
    finished = out.events[-1]
    assert isinstance(finished, GameFinished)
    assert (finished.winner, finished.reason, finished.line) == (None, Termination.FULL_BOARD, ())


def test_a_move_out_of_turn_at_an_old_ply_or_illegal_is_refused() -> None:
    play, out = started()
    moves(play, "b2", out)
    stale = MakeMove(room=CODE, move="a1", ply=0)
    refused_unchanged(play, ErrorCode.STALE_MOVE, lambda: play.require_turn(Player.SECOND, stale))
    refused_unchanged(
        play,
        ErrorCode.NOT_YOUR_TURN,
        lambda: play.require_turn(Player.FIRST, MakeMove(room=CODE, move="a1")),
    )
    refused_unchanged(
        play,
        ErrorCode.ILLEGAL_MOVE,
        lambda: play.require_turn(Player.SECOND, MakeMove(room=CODE, move="b2")),
    )


def test_conceding_before_the_first_move_aborts_but_not_in_a_tournament() -> None:
    play, out = started()
    play.concede(Player.FIRST, Termination.RESIGNATION, T0, out, None, None)
    assert play.result == ResultInfo(winner=None, reason="aborted", line=[])
    tournament, out = started(tournament=True, reserved_first="p1", reserved_second="p2")
    tournament.concede(Player.FIRST, Termination.RESIGNATION, T0, out, None, None)
    assert tournament.result == ResultInfo(winner=Player.SECOND, reason="resignation", line=[])


def test_a_move_lapses_the_opponents_draw_offer() -> None:
    play, out = started()
    play.offer_draw(Player.FIRST, to_ai=False, now=T0, out=out, client=ANN, request_id=None)
    assert play.draw_offer == Player.FIRST
    moves(play, "b2", out)  # first moves: its own offer stands
    assert play.draw_offer == Player.FIRST
    moves(play, "a1", out)  # second moves instead of answering
    assert play.draw_offer is None
    assert (ALL, DrawDeclined(room=CODE, side=Player.FIRST)) in out.messages


def test_the_ai_declines_a_draw_at_once_and_crossing_offers_agree() -> None:
    play, out = started()
    play.offer_draw(Player.FIRST, to_ai=True, now=T0, out=out, client=ANN, request_id=7)
    assert play.draw_offer is None
    assert out.messages[-3:] == [
        (ANN, DrawOffered(room=CODE, side=Player.FIRST, id=7)),
        (Everyone(exclude=ANN), DrawOffered(room=CODE, side=Player.FIRST)),
        (ALL, DrawDeclined(room=CODE, side=Player.FIRST)),
    ]
    play.offer_draw(Player.FIRST, to_ai=False, now=T0, out=out, client=ANN, request_id=None)
    play.offer_draw(Player.SECOND, to_ai=False, now=T0, out=out, client=BOB, request_id=None)
    assert play.result == ResultInfo(winner=None, reason="agreement", line=[])


def test_a_rematch_needs_both_sides_and_none_in_a_tournament() -> None:
    play, out = started()
    refused_unchanged(
        play,
        ErrorCode.GAME_IN_PROGRESS,
        lambda: play.ask_rematch(
            Player.FIRST, agreeing=set(), seats_full=True, out=out, client=ANN, request_id=None
        ),
    )
    play.concede(Player.FIRST, Termination.RESIGNATION, T0, out, None, None)
    asked = play.ask_rematch(
        Player.FIRST, agreeing=set(), seats_full=True, out=out, client=ANN, request_id=None
    )
    assert not asked and play.rematch_offer == Player.FIRST
    assert out.messages[-1] == (Everyone(exclude=ANN), RematchOffered(room=CODE, side=Player.FIRST))
    assert play.ask_rematch(
        Player.SECOND, agreeing=set(), seats_full=True, out=out, client=BOB, request_id=None
    )
    play.start(SEATS, T0 + 5, out, paused=False)
    assert play.number == 2 and play.rematch == frozenset()
    tournament, out = started(tournament=True, reserved_first="p1", reserved_second="p2")
    refused_unchanged(
        tournament,
        ErrorCode.TOURNAMENT_ROOM,
        lambda: tournament.ask_rematch(
            Player.FIRST, agreeing=set(), seats_full=True, out=out, client=ANN, request_id=None
        ),
    )


def test_a_game_over_by_its_last_stored_move_gets_its_end_back() -> None:
    """The crash came after the winning move was stored, before its result."""
    play = GameInPlay.new(CODE, get_game("tictactoe"), RoomOptions())
    start = GameStarted(CODE, "tictactoe", 3, SEATS, at=T0)
    sides: tuple[Player, Player] = (Player.FIRST, Player.SECOND)
    texts = ["a1", "b1", "a2", "b2", "a3"]
    stored = [
        MoveMade(CODE, 3, ply, sides[ply % 2], text, T0 + ply, None)
        for ply, text in enumerate(texts)
    ]
    play.replay(start, stored, None)
    assert play.status == "finished" and play.number == 3
    assert play.unrecorded_finish == GameFinished(
        CODE, 3, Player.FIRST, Termination.LINE, at=T0 + 4, line=("a1", "a2", "a3")
    )


def test_a_game_in_play_is_replayed_with_its_clock_held() -> None:
    options = RoomOptions(clock=Clock(kind="per_move", per_move=30))
    play = GameInPlay.new(CODE, get_game("tictactoe"), options)
    start = GameStarted(CODE, "tictactoe", 1, SEATS, at=T0)
    play.replay(start, [MoveMade(CODE, 1, 0, Player.FIRST, "b2", T0 + 1, None)], None)
    assert play.status == "playing" and play.to_move == Player.SECOND
    assert (
        play.clock is not None and play.clock.running == Player.SECOND and play.clock.since is None
    )
    assert play.flag_deadline() is None  # held: no flag falls until the room resumes it
    with pytest.raises(ValueError, match="expected game 1, ply 0"):
        GameInPlay.new(CODE, get_game("tictactoe"), RoomOptions()).replay(
            start, [MoveMade(CODE, 1, 1, Player.SECOND, "b2", T0, None)], None
        )
