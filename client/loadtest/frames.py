"""The size of what a move puts on the wire, and an echo frame of that size.

The report states the bytes of one ``move`` (client to server) and of one
``moved`` broadcast (server to each client in the room), as the real messages
are encoded mid-game; the echo baseline sends frames of exactly the ``move``
size, so both runs move the same bytes per frame.

>>> len(move_frame("tictactoe")), len(moved_frame("tictactoe"))
(59, 67)
"""

from __future__ import annotations

from boardroom.shared.games import Player, get_game
from boardroom.shared.protocol import encode_message
from boardroom.shared.protocol.messages import MakeMove, Moved

SAMPLE_ROOM = "C9FVBQ"
"""A room code as the server makes them (6 characters)."""
SAMPLE_PLY = 4
SAMPLE_ID = 42
"""A request id of two digits: a client's ids count up from 1 through a session."""


def sample_move(game_name: str) -> str:
    """A move of ``game_name`` in its notation: the middle of the empty board's
    legal moves (``b2`` in tic-tac-toe, ``4`` in Connect Four)."""
    game = get_game(game_name)
    moves = game.legal_moves(game.new())
    return game.format_move(moves[len(moves) // 2])


def move_frame(game_name: str) -> str:
    """A ``move`` message as a client sends it mid-game."""
    message = MakeMove(room=SAMPLE_ROOM, move=sample_move(game_name), ply=SAMPLE_PLY, id=SAMPLE_ID)
    return encode_message(message)


def moved_frame(game_name: str) -> str:
    """The ``moved`` broadcast of that move, as the opponent and spectators get it
    (no clock: the load test's rooms have none)."""
    message = Moved(
        room=SAMPLE_ROOM, ply=SAMPLE_PLY, move=sample_move(game_name), side=Player.FIRST
    )
    return encode_message(message)
