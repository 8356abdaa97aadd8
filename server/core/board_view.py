"""A position as a client draws it: the board's rows, its kind and the legal moves.

The wire carries these (``state.room.board``, ``board_kind`` and ``legal``; the
same in ``moved``; ``boards`` per ply in a game's review) so that no client keeps
a copy of the rules: the browser draws the rows and offers only the legal moves,
whatever the game (docs/protocol.md, "The board").

>>> from boardroom.shared.games import get_game
>>> game = get_game("tictactoe")
>>> position = game.from_moves("b2 a1")
>>> board_rows(game, position)
['...', '.X.', 'O..']
>>> legal_moves(game, position)[:3], board_kind(game)
(['b1', 'c1', 'a2'], 'cells')
"""

from __future__ import annotations

from boardroom.shared.games import Game, Move, Position, spec_for
from boardroom.shared.protocol.messages import BoardKind


def board_rows(game: Game, position: Position) -> list[str]:
    """The board, top row first: one string per row of ``X``, ``O`` and ``.``."""
    return list(game.board_rows(position))


def legal_moves(game: Game, position: Position) -> list[str]:
    """Every legal move in ``position``, in the game's notation (empty once it is over)."""
    names = _MOVE_NAMES.get(game.name)
    if names is None:
        names = _MOVE_NAMES[game.name] = {}
    shown = []
    for move in game.legal_moves(position):
        name = names.get(move)
        if name is None:
            name = names[move] = game.format_move(move)
        shown.append(name)
    return shown


_MOVE_NAMES: dict[str, dict[Move, str]] = {}
"""Per game, each move's notation once named: a move's name is the same in every
position (``format_move`` takes the move alone), and every move played names the
legal moves after it (``moved.legal``: eight for tic-tac-toe's first), so they are
named once a game kind rather than on every move (issue 29). Bounded by the
games' boards."""


def board_kind(game: Game) -> BoardKind:
    """How ``game``'s board looks and how its moves name places (``cells``, ``columns``)."""
    # The registry's BoardKind values are the wire's (a protocol test holds them together).
    return spec_for(game).board.value
