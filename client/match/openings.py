"""The openings a match starts its pairs from.

Each pair of games starts from one opening, once with each bot first, so an
opening that favours one side favours both bots once. The built-in suites:

- Connect Four: the 101 positions of four stones whose exact value is a draw
  (``data/connect4-4-stones.txt``; mirror images counted once), found with the
  engine's exact solver and its opening database.
- Gomoku: the 26 standard three-stone openings of renju: black in the centre,
  white beside it (*direct*, 13 openings) or diagonally (*indirect*, 13), black's
  second stone anywhere in the central 5x5 square, one of each mirror pair.
- Every other board (tic-tac-toe, m,n,k, Othello): every first move.

``--openings FILE`` reads a suite of one's own: one opening a line, as a move
string (``4453``, ``h8 i9 j8``); blank lines and ``#`` comments are skipped.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path

from boardroom.shared.errors import GameError
from boardroom.shared.games import Game, get_game
from boardroom.shared.i18n import _

CONNECT4_SUITE = "connect4-4-stones.txt"
"""The Connect Four suite's file in ``data/``."""


class OpeningsError(ValueError):
    """A suite that cannot be used; the message says which line and why, for people."""


def parse_suite(game: Game, lines: Iterable[str], *, source: str) -> tuple[str, ...]:
    """The openings of ``lines`` as move strings of ``game``, each checked: a
    legal sequence that leaves the game unfinished. ``source`` names the file in
    errors."""
    openings: list[str] = []
    for number, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            position = game.from_moves(text)
        except GameError as error:
            raise OpeningsError(
                _("{source}, line {line}: {error}", source=source, line=number, error=error)
            ) from None
        if game.outcome(position).is_over:
            raise OpeningsError(
                _(
                    "{source}, line {line}: the game is already over after {moves}",
                    source=source,
                    line=number,
                    moves=text,
                )
            )
        openings.append(game.move_string(position))
    if not openings:
        raise OpeningsError(_("{source}: no openings in it", source=source))
    return tuple(openings)


def read_suite(game: Game, path: Path) -> tuple[str, ...]:
    """The openings of the file at ``path`` (``--openings FILE``)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        raise OpeningsError(_("{source}: {error}", source=path, error=reason)) from None
    return parse_suite(game, text.splitlines(), source=str(path))


def builtin_suite(game: Game) -> tuple[str, ...]:
    """The built-in openings of ``game`` (see the module docstring).

    >>> len(builtin_suite(get_game("connect4"))), len(builtin_suite(get_game("gomoku")))
    (101, 26)
    >>> builtin_suite(get_game("tictactoe"))[:3]
    ('a1', 'b1', 'c1')
    """
    if game.name == "connect4":
        text = files("boardroom.client.match").joinpath("data", CONNECT4_SUITE).read_text("utf-8")
        return parse_suite(game, text.splitlines(), source=CONNECT4_SUITE)
    if game.name == "gomoku":
        return renju_openings(game)
    return tuple(game.format_move(move) for move in game.legal_moves(game.new()))


def renju_openings(game: Game) -> tuple[str, ...]:
    """The 26 standard three-stone openings on a 15x15 board (module docstring):
    13 direct (white at h9), then 13 indirect (white at i9), black's second stone
    in row-then-column order, one of each pair of mirror images."""
    centre = (7, 7)  # h8, as (column, row) from a1
    openings: list[str] = []
    for white, mirror in (((7, 8), _mirror_column), ((8, 8), _mirror_diagonal)):
        kept: set[tuple[int, int]] = set()
        for row, column in itertools.product(range(5, 10), range(5, 10)):
            cell = (column, row)
            if cell in (centre, white) or mirror(cell) in kept:
                continue
            kept.add(cell)
            openings.append(" ".join(_cell_name(c) for c in (centre, white, cell)))
    return tuple(game.move_string(game.from_moves(text)) for text in openings)


def _mirror_column(cell: tuple[int, int]) -> tuple[int, int]:
    """The mirror image across column h (which holds the direct opening's stones)."""
    return 14 - cell[0], cell[1]


def _mirror_diagonal(cell: tuple[int, int]) -> tuple[int, int]:
    """The mirror image across the diagonal through h8 and i9."""
    return cell[1], cell[0]


def _cell_name(cell: tuple[int, int]) -> str:
    return f"{'abcdefghijklmno'[cell[0]]}{cell[1] + 1}"


def drawn_connect4_openings(stones: int = 4) -> list[str]:
    """Every Connect Four position of ``stones`` stones whose exact value is a
    draw, one of each mirror pair (the move order first in column order): how
    the built-in suite was made (a few seconds to a minute: one exact solve each)."""
    from boardroom.shared.engine import solve

    game = get_game("connect4")
    kept: dict[tuple[str, ...], str] = {}
    for columns in itertools.product("1234567", repeat=stones):
        moves = "".join(columns)
        try:
            position = game.from_moves(moves)
        except GameError:
            continue
        if game.outcome(position).is_over:
            continue
        rows = game.board_rows(position)
        kept.setdefault(min(rows, tuple(row[::-1] for row in rows)), moves)
    return sorted(moves for moves in kept.values() if solve(game, game.from_moves(moves)) == 0)


def main(argv: list[str]) -> int:
    """``python -m boardroom.client.match.openings connect4``: print the drawn
    four-stone positions, one a line (the data file's body)."""
    if argv != ["connect4"]:
        print("usage: python -m boardroom.client.match.openings connect4", file=sys.stderr)
        return 2
    for moves in drawn_connect4_openings():
        print(moves)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
