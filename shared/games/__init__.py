"""Game rules: get a game by name and play it.

Every game is declared by its own module here (``GAME_SPECS``) and listed by
:mod:`boardroom.shared.games.registry`: the one list of games.

>>> game = get_game("connect4")
>>> position = game.from_moves("4453")
>>> game.format_move(game.legal_moves(position)[0])
'1'
>>> get_game("tictactoe").outcome(get_game("tictactoe").from_moves("a1 b1 a2 b2 a3")).winner
<Player.FIRST: 'first'>
"""

from __future__ import annotations

from boardroom.shared.games.base import (
    DRAW,
    ONGOING,
    Game,
    GridGame,
    Move,
    Outcome,
    Player,
    Position,
    Status,
)
from boardroom.shared.games.endings import Termination
from boardroom.shared.games.registry import (
    choices_text,
    default_game,
    game_specs,
    get_game,
    spec_for,
    spec_of,
)
from boardroom.shared.games.spec import GameSpec

__all__ = [
    "DRAW",
    "ONGOING",
    "Game",
    "GameSpec",
    "GridGame",
    "Move",
    "Outcome",
    "Player",
    "Position",
    "Status",
    "Termination",
    "choices_text",
    "default_game",
    "game_specs",
    "get_game",
    "spec_for",
    "spec_of",
]
