"""The room says the position as a client draws it: ``board``, ``board_kind`` and
``legal`` in every ``state`` and ``moved`` (docs/protocol.md, "The board"), from
the rules, so that no client keeps a copy of them."""

from __future__ import annotations

import random

from boardroom.server.core.records import PlayerKind
from boardroom.server.core.room import ClientId, Room, RoomOptions
from boardroom.shared.protocol.messages import MakeMove, Moved, Resign

ANN = ClientId("ann-session")
BOB = ClientId("bob-session")
T0 = 1_700_000_000.0
CODE = "K7Q2"


def started(game: str) -> Room:
    room = Room(CODE, game, options=RoomOptions(), rng=random.Random(1), now=T0)
    assert room.state_for(ANN, now=T0).legal is None  # nobody seated: nothing to play
    room.seat(ANN, "ann", PlayerKind.HUMAN, now=T0)
    room.seat(BOB, "bob", PlayerKind.HUMAN, now=T0)
    return room


def test_a_state_says_the_board_its_kind_and_the_moves_the_side_to_move_has() -> None:
    room = started("connect4")
    state = room.state_for(ANN, now=T0)
    assert state.board == ["......."] * 6 and state.board_kind == "columns"
    assert state.legal == ["1", "2", "3", "4", "5", "6", "7"]
    for mover, column in [(ANN, "4"), (BOB, "4"), (ANN, "4"), (BOB, "4"), (ANN, "4")]:
        room.handle(mover, MakeMove(room=CODE, move=column), now=T0)
    output = room.handle(BOB, MakeMove(room=CODE, move="4"), now=T0)
    (moved,) = [message for message in output.to(ANN) if isinstance(message, Moved)]
    # Column 4 is full: the rules took it off the legal moves, not the client.
    assert moved.board == ["...O...", "...X...", "...O...", "...X...", "...O...", "...X..."]
    assert moved.legal == ["1", "2", "3", "5", "6", "7"]
    assert room.state_for(BOB, now=T0).board == moved.board
    assert room.state_for(BOB, now=T0).legal == moved.legal


def test_a_grid_game_names_its_free_cells_and_a_finished_game_offers_none() -> None:
    room = started("tictactoe")
    room.handle(ANN, MakeMove(room=CODE, move="b2"), now=T0)
    state = room.state_for(BOB, now=T0)
    assert state.board == ["...", ".X.", "..."] and state.board_kind == "cells"
    assert state.legal is not None and "b2" not in state.legal and len(state.legal) == 8
    room.handle(BOB, Resign(room=CODE), now=T0)
    finished = room.state_for(BOB, now=T0)
    assert finished.status == "finished" and finished.legal is None
    assert finished.board == ["...", ".X.", "..."]  # the last position stays drawn
