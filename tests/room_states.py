"""Room states for tests that need one without a server."""

from __future__ import annotations

from typing import Any

from boardroom.shared.games import get_game
from boardroom.shared.protocol.messages import Clock, RoomState, SeatInfo

ANN = SeatInfo(side="first", name="ann", kind="human", connected=True)
BOB = SeatInfo(side="second", name="bob", kind="human", connected=True)


def room_in_play(game: str = "tictactoe", moves: str = "", **fields: Any) -> RoomState:
    """A public room ``ABCDEF`` of ``game`` in play after ``moves``, without a clock:
    ann (first, X) against bob, as ann sees it. ``fields`` replace any of its fields."""
    rules = get_game(game)
    ply = rules.from_moves(moves).ply
    base: dict[str, Any] = {
        "code": "ABCDEF",
        "game": rules.name,
        "title": rules.title,
        "status": "playing",
        "public": True,
        "clock": Clock(),
        "seats": [ANN, BOB],
        "moves": moves,
        "ply": ply,
        "to_move": "first" if ply % 2 == 0 else "second",
        "you": "first",
    }
    return RoomState(**{**base, **fields})
