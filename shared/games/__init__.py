"""Game rules: get a game by name and play it.

>>> game = get_game("connect4")
>>> position = game.from_moves("4453")
>>> game.format_move(game.legal_moves(position)[0])
'1'
>>> get_game("tictactoe").outcome(get_game("tictactoe").from_moves("a1 b1 a2 b2 a3")).winner
<Player.FIRST: 0>
"""

from __future__ import annotations

import functools
import re

from shared.errors import GameOptionsError, UnknownGameError
from shared.games.base import DRAW, ONGOING, Game, GridGame, Move, Outcome, Player, Position, Status
from shared.games.connect4 import ConnectFour
from shared.games.mnk import MNKGame, check_mnk

__all__ = [
    "DRAW",
    "GAME_NAMES",
    "ONGOING",
    "Game",
    "GridGame",
    "Move",
    "Outcome",
    "Player",
    "Position",
    "Status",
    "get_game",
    "mnk_name",
]

_PRESETS: dict[str, tuple[int, int, int, str]] = {
    "tictactoe": (3, 3, 3, "Tic-tac-toe"),
    "tictactoe4": (4, 4, 4, "Tic-tac-toe 4x4"),
    "gomoku": (15, 15, 5, "Gomoku"),
}
GAME_NAMES = ("tictactoe", "tictactoe4", "connect4", "gomoku", "mnk")
"""The game names the server offers; ``mnk`` takes sizes (see :func:`get_game`)."""

_MNK_NAME = re.compile(r"mnk-([0-9]{1,2})-([0-9]{1,2})-([0-9]{1,2})")


def mnk_name(m: int, n: int, k: int) -> str:
    """The canonical name of the m,n,k game: a preset's name where one matches."""
    for name, (pm, pn, pk, _) in _PRESETS.items():
        if (pm, pn, pk) == (m, n, k):
            return name
    return f"mnk-{m}-{n}-{k}"


def get_game(
    name: str, *, m: int | None = None, n: int | None = None, k: int | None = None
) -> Game:
    """The game called ``name``: ``tictactoe``, ``tictactoe4``, ``connect4``, ``gomoku``,
    ``mnk-M-N-K``, or ``mnk`` with ``m``, ``n`` and ``k`` given.

    Games are immutable and cached, so the same name gives the same object.
    Raises :class:`~shared.errors.UnknownGameError` for anything else and
    :class:`~shared.errors.GameOptionsError` for sizes out of range.
    """
    if name == "mnk":
        if m is None or n is None or k is None:
            raise GameOptionsError("game 'mnk' needs its sizes: m (columns), n (rows) and k (line)")
        check_mnk(m, n, k)
        name = mnk_name(m, n, k)
    return _game_by_name(name)


@functools.cache
def _game_by_name(name: str) -> Game:
    if name == "connect4":
        return ConnectFour()
    if name in _PRESETS:
        m, n, k, title = _PRESETS[name]
        return MNKGame(m, n, k, name=name, title=title)
    match = _MNK_NAME.fullmatch(name)
    if match:
        m, n, k = (int(g) for g in match.groups())
        check_mnk(m, n, k)
        canonical = mnk_name(m, n, k)
        if canonical != name:
            return _game_by_name(canonical)
        return MNKGame(m, n, k, name=name, title=f"{m},{n},{k} game")
    raise UnknownGameError(
        f"unknown game {name!r}: choose one of tictactoe, tictactoe4, connect4, gomoku, "
        "or mnk-M-N-K (for example mnk-5-5-4)"
    )
