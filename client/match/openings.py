"""The openings a match starts its pairs from.

Each pair of games starts from one opening, once with each bot first, so an
opening that favours one side favours both bots once. The built-in suites:

- Connect Four: the 101 positions of four stones whose exact value is a draw
  (``data/connect4.txt``; mirror images counted once), found with the
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
from boardroom.shared.games import Game, Position, get_game
from boardroom.shared.i18n import _


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
    """The built-in openings of ``game``: the package's ``data/<game name>.txt``
    where there is one (see the module docstring), else every first move.

    >>> len(builtin_suite(get_game("connect4"))), len(builtin_suite(get_game("gomoku")))
    (101, 26)
    >>> builtin_suite(get_game("tictactoe"))[:3]
    ('a1', 'b1', 'c1')
    """
    data = files("boardroom.client.match").joinpath("data", f"{game.name}.txt")
    if data.is_file():
        return parse_suite(game, data.read_text("utf-8").splitlines(), source=data.name)
    return tuple(game.format_move(move) for move in game.legal_moves(game.new()))


def renju_openings(game: Game) -> list[str]:
    """The 26 standard three-stone openings of renju on ``game``'s square board
    (module docstring): 13 direct (white above the centre), then 13 indirect
    (white diagonally up and right), black's second stone in row-then-column
    order, one of each pair of mirror images. How ``data/gomoku.txt`` was made."""
    size = len(game.board_rows(game.new()))
    middle = size // 2
    centre = (middle, middle)

    def mirror_column(cell: tuple[int, int]) -> tuple[int, int]:
        return 2 * middle - cell[0], cell[1]  # across the centre's column

    def mirror_diagonal(cell: tuple[int, int]) -> tuple[int, int]:
        return cell[1], cell[0]  # across the diagonal through the centre

    openings: list[str] = []
    near = range(middle - 2, middle + 3)
    for white, mirror in (
        ((middle, middle + 1), mirror_column),
        ((middle + 1, middle + 1), mirror_diagonal),
    ):
        kept: set[tuple[int, int]] = set()
        for row, column in itertools.product(near, near):
            cell = (column, row)
            if cell in (centre, white) or mirror(cell) in kept:
                continue
            kept.add(cell)
            openings.append(" ".join(_cell_name(c) for c in (centre, white, cell)))
    return [game.move_string(game.from_moves(text)) for text in openings]


def _cell_name(cell: tuple[int, int]) -> str:
    return f"{chr(ord('a') + cell[0])}{cell[1] + 1}"


def drawn_openings(game: Game, stones: int) -> list[str]:
    """Every position of ``stones`` moves on ``game`` whose exact value is a
    draw, one of each mirror pair (the move order first in the order of legal
    moves): how ``data/connect4.txt`` was made, with four stones (a minute: one
    exact solve each)."""
    from boardroom.shared.engine import solve

    kept: dict[tuple[str, ...], str] = {}

    def walk(position: Position) -> None:
        if game.outcome(position).is_over:
            return
        if position.ply == stones:
            rows = tuple(game.board_rows(position))
            kept.setdefault(min(rows, tuple(row[::-1] for row in rows)), game.move_string(position))
            return
        for move in game.legal_moves(position):
            walk(game.play_unchecked(position, move))

    walk(game.new())
    return sorted(moves for moves in kept.values() if solve(game, game.from_moves(moves)) == 0)


GENERATORS = {"drawn4": lambda game: drawn_openings(game, 4), "renju": renju_openings}
"""The ways the built-in suites were made, by the name ``main`` takes."""


def main(argv: list[str]) -> int:
    """``python -m boardroom.client.match.openings GAME drawn4|renju``: print a
    suite, one opening a line (a data file's body)."""
    if len(argv) != 2 or argv[1] not in GENERATORS:
        print("usage: python -m boardroom.client.match.openings GAME drawn4|renju", file=sys.stderr)
        return 2
    for moves in GENERATORS[argv[1]](get_game(argv[0])):
        print(moves)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
