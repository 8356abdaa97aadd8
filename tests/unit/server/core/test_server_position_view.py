"""The room's view of a position (server/core/board_view.py, issue 29): made once a
position, drawn from the last one's, it says what the rules say; a move named as
the legal list names it is taken without the rules' parser, any other spelling
goes through it, and a room's copy shares the view."""

from __future__ import annotations

import copy
import random

import pytest

from boardroom.server.core.board_view import PositionView, board_rows, legal_moves
from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import ClientId, Room, RoomOptions
from boardroom.server.core.state_copy import deep_copy
from boardroom.shared.games import get_game
from boardroom.shared.protocol.errors import ErrorCode
from boardroom.shared.protocol.messages import Error, MakeMove, Moved

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
T0 = 1_700_000_000.0
CODE = "K7Q2"


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "gomoku", "othello"])
def test_each_view_drawn_from_the_last_says_what_the_rules_say(name: str) -> None:
    game, rng = get_game(name), random.Random(name)
    for _ in range(3):
        position = game.new()
        view = PositionView.of(game, position)
        while True:
            assert view == PositionView.of(game, position)
            assert list(view.board) == board_rows(game, position)
            assert list(view.legal) == legal_moves(game, position)
            assert view.outcome == game.outcome(position)
            for move, name_ in zip(view.moves, view.legal, strict=True):
                assert view.legal_move_named(name_) == move
            if not view.moves:
                break
            position = game.play_unchecked(position, rng.choice(view.moves))
            view = view.after(position)
        assert view.legal == () and view.outcome.is_over
        assert view.after(game.new()) == PositionView.of(game, game.new())  # the next game


def test_a_name_that_is_no_legal_move_is_left_to_the_rules() -> None:
    game = get_game("tictactoe")
    view = PositionView.of(game, game.from_moves("b2"))
    assert view.legal_move_named("a1") == 0
    assert view.legal_move_named("b2") is None  # taken
    assert view.legal_move_named("B2") is None  # another spelling: the parser reads it
    assert view.legal_move_named("z9") is None


def started(game: str) -> Room:
    room = Room(CODE, game, options=RoomOptions(), rng=random.Random(1), now=T0)
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    return room


def test_another_spelling_of_a_legal_move_is_played_and_a_taken_cell_refused() -> None:
    room = started("tictactoe")
    output = room.handle(ANN, MakeMove(room=CODE, move=" B2 ", ply=0), now=T0)
    (moved,) = [m for m in output.to(BOB) if isinstance(m, Moved)]
    assert moved.move == "b2" and moved.board == ["...", ".X.", "..."]
    refused = room.handle(BOB, MakeMove(room=CODE, move="b2", ply=1), now=T0)
    (error,) = [m for m in refused.to(BOB) if isinstance(m, Error)]
    assert error.code == ErrorCode.ILLEGAL_MOVE and "taken" in error.message


def test_a_copied_room_shares_the_view_and_plays_on_as_the_original() -> None:
    room = started("connect4")
    room.handle(ANN, MakeMove(room=CODE, move="4", ply=0), now=T0)
    view = room._table.play.view
    assert copy.deepcopy(view) is view
    assert deep_copy(room._table, {id(room.game): room.game}).play.view is view
    snapshot = room.snapshot()
    played = room.handle(BOB, MakeMove(room=CODE, move="4", ply=1), now=T0)
    room.rollback(snapshot)
    again = room.handle(BOB, MakeMove(room=CODE, move="4", ply=1), now=T0)
    assert again == played
