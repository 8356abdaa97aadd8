"""Board diagrams for the terminal: coordinates, the last move and the winning line.

The layout follows :meth:`shared.games.Game.render`, for every game alike: the
top row first (:meth:`~shared.games.Game.board_rows`), rows numbered from 1 at
the bottom (``a1`` is bottom-left), column letters underneath, as the game labels
them (:meth:`~shared.games.Game.row_labels`, :meth:`~shared.games.Game.column_labels`):
Connect Four has no row numbers and its columns are labelled 1 to 7, the numbers
its moves use; Othello is labelled a1 to h8. Each cell is three characters wide
so that a mark can sit around a stone without shifting the columns::

    >>> from shared.games import get_game
    >>> game = get_game("tictactoe")
    >>> print(render_board(game, game.from_moves("b2 a1"), palette=Palette(enabled=False)))
    3  .  .  .
    2  .  X  .
    1 [O] .  .
       a  b  c

Without colour the last move is in brackets and, once a game is won, the cells of
the winning line are; with colour they are highlighted instead (reverse video for
the last move, green for the line) and no brackets are drawn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from client.terminal.style import Palette
from shared.games import Game, Position

Cell = tuple[int, int]
"""A board cell as (column, row), 0-based, row 0 at the bottom."""

_CELL_NAME = re.compile(r"([a-z])([0-9]{1,2})")


def parse_cell(name: str) -> Cell | None:
    """The (column, row) of a grid cell name such as ``"e1"``, or None if it is not one.

    >>> parse_cell("e1"), parse_cell("c10"), parse_cell("4")
    ((4, 0), (2, 9), None)
    """
    match = _CELL_NAME.fullmatch(name.strip().lower())
    if match is None:
        return None
    return ord(match.group(1)) - ord("a"), int(match.group(2)) - 1


def last_move_cell(game: Game, position: Position) -> Cell | None:
    """The cell where the last stone landed (for Connect Four, the top of its
    column); None before the first move or after a pass."""
    return game.last_move_cell(position)


def render_board(
    game: Game,
    position: Position,
    *,
    palette: Palette,
    winning_line: Iterable[str] = (),
) -> str:
    """The diagram of ``position``, top row first, with coordinates.

    ``winning_line`` names the cells of a winning line (as ``result.line`` does,
    ``"d1"`` even in Connect Four); they are highlighted, or bracketed without
    colour. Otherwise the last move is.
    """
    line = {cell for cell in map(parse_cell, winning_line) if cell is not None}
    last = last_move_cell(game, position)
    # Without colour, brackets mark one thing only: the line once there is one.
    bracketed = line if line else ({last} if last is not None else set())

    row_labels = game.row_labels()
    label_width = max(len(label) for label in row_labels)
    lines = []
    for row, symbols in zip(reversed(range(game.height)), game.board_rows(position), strict=True):
        cells = [
            _cell(symbol, (column, row), line, last, bracketed, palette)
            for column, symbol in enumerate(symbols)
        ]
        lines.append((_margin(row_labels[row], label_width) + "".join(cells)).rstrip())
    column_labels = "".join(label.center(3) for label in game.column_labels())
    lines.append((_margin("", label_width) + column_labels).rstrip())
    return "\n".join(lines)


def _cell(
    symbol: str,
    cell: Cell,
    line: set[Cell],
    last: Cell | None,
    bracketed: set[Cell],
    palette: Palette,
) -> str:
    if palette.enabled:
        text = f" {palette.stone(symbol)} "
        if cell in line:
            return palette.winning(f" {symbol} ")
        if cell == last:
            return palette.last_move(f" {symbol} ")
        return text
    if cell in bracketed:
        return f"[{symbol}]"
    return f" {symbol} "


def _margin(label: str, width: int) -> str:
    """The row label column: the label right-aligned, then a space; nothing at all
    for boards without row labels."""
    return label.rjust(width) + " " if width else ""
