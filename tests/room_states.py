"""Room states for tests that need one without a server."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from boardroom.server.core.room import Room, RoomOptions
from boardroom.shared.games import Player, get_game
from boardroom.shared.protocol.messages import Clock, RoomState, SeatInfo

ANN = SeatInfo(side=Player.FIRST, name="ann", kind="human", connected=True)
BOB = SeatInfo(side=Player.SECOND, name="bob", kind="human", connected=True)


def room_in_play(game: str = "tictactoe", moves: str = "", **fields: Any) -> RoomState:
    """A public room ``ABCDEF`` of ``game`` in play after ``moves``, without a clock:
    ann (first, X) against bob, as ann sees it. ``fields`` replace any of its fields
    (a side may be given by its wire word: the state is read back as a client reads
    it, every side a ``Player``)."""
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
        "to_move": Player.to_move_at(ply),
        "you": Player.FIRST,
    }
    state = RoomState(**{**base, **fields})
    return msgspec.json.decode(msgspec.json.encode(state), type=RoomState)


TOURNAMENT_CODE = "T0URN1"
T0 = 1_700_000_000.0


def tournament_room(first: str | None, second: str | None, **options: Any) -> Room:
    """A pure tournament room ``T0URN1`` of tic-tac-toe at ``T0``: private, its
    seats reserved for the sessions ``first`` and ``second``, a seeded random
    source; ``options`` add to its :class:`RoomOptions`. Nobody seated yet."""
    return Room(
        TOURNAMENT_CODE,
        "tictactoe",
        options=RoomOptions(
            public=False,
            join_code="JOINCODE",
            watch_code="WATCHCOD",
            tournament=True,
            reserved_first=first,
            reserved_second=second,
            **options,
        ),
        rng=random.Random(1),
        now=T0,
    )
