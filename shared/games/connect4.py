"""Connect Four: 7 columns by 6 rows, stones fall to the lowest free cell, four in a row wins.

Notation: a move is its column, 1 to 7 from the left, as the board labels them;
a position is the string of columns played, as in the standard solver test sets
(``"4453"``). A winning line is written for people by its columns too ("up
column 4", "across columns 3 to 6": :meth:`ConnectFour.line_text`); only the
wire names its cells like grid cells (``result.line``: ``d1``, column letter
and row from the bottom), for clients to find them on the board.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games.base import GridGame, Move, Position
from boardroom.shared.games.endings import Termination
from boardroom.shared.games.grid import Grid
from boardroom.shared.games.spec import BoardKind, GameSpec, Search
from boardroom.shared.i18n import N_, _

WIDTH = 7
HEIGHT = 6

_SEPARATORS = re.compile(r"[\s,;]+")
_COLUMN_NAMES = tuple(str(column + 1) for column in range(WIDTH))
"""Each move's name, made once (as :meth:`ConnectFour.format_move` gives it)."""


class ConnectFour(GridGame):
    """Connect Four on the standard 7 x 6 board."""

    def __init__(self) -> None:
        super().__init__(
            name="connect4", title="Connect Four", grid=Grid(WIDTH, HEIGHT, 4), gravity=True
        )
        self._tops = tuple(1 << (c * self.grid.stride + HEIGHT - 1) for c in range(WIDTH))

    def move_bit_in(self, occupied: int, move: Move) -> int:
        grid = self.grid
        # Adding the column's bottom bit to its stones carries into the lowest free cell.
        return (occupied + (1 << (move * grid.stride))) & grid.column_masks[move]

    def move_of_bit(self, bit: int) -> Move:
        return (bit.bit_length() - 1) // self.grid.stride

    def free_moves(self, position: Position) -> list[Move]:
        # A column takes a stone while its top cell is empty.
        occupied = position.occupied
        return [column for column, top in enumerate(self._tops) if not occupied & top]

    def format_move(self, move: Move) -> str:
        return _COLUMN_NAMES[move] if 0 <= move < WIDTH else str(move + 1)

    def move_string(self, position: Position) -> str:
        return "".join(map(self.format_move, position.moves))

    def line_text(self, cell_names: Sequence[str]) -> str:
        """A winning line by the board's column numbers: "up column 4" (a
        vertical line), "across columns 3 to 6" (a horizontal one), "diagonally
        across columns 1 to 4". Names that are not cells are written as given.

        >>> game = ConnectFour()
        >>> game.line_text(["d1", "d2", "d3", "d4"])
        'up column 4'
        >>> game.line_text(["c2", "d2", "e2", "f2"]), game.line_text(["a1", "b2", "c3", "d4"])
        ('across columns 3 to 6', 'diagonally across columns 1 to 4')
        """
        cells = [self.parse_cell_name(name) for name in cell_names]
        known = [cell for cell in cells if cell is not None]
        if not known or len(known) != len(cells):
            return super().line_text(cell_names)
        columns = sorted({column + 1 for column, _ in known})
        rows = {row for _, row in known}
        # In the reader's language: only the terminal says a line in words.
        if len(columns) == 1:
            return _("up column {column}", column=columns[0])
        first, last = columns[0], columns[-1]
        if len(rows) == 1:
            return _("across columns {first} to {last}", first=first, last=last)
        return _("diagonally across columns {first} to {last}", first=first, last=last)

    def _parse_token(self, text: str) -> Move:
        token = text.strip()
        if not token.isdigit() or not token.isascii():
            raise IllegalMoveError(
                f"{text!r} is not a move: name a column by its number, 1 to {WIDTH}",
                move_text=text,
                reason=IllegalMoveReason.NOT_A_MOVE,
            )
        return int(token) - 1

    def _check_placeable(self, position: Position, move: Move, shown: str) -> None:
        if not 0 <= move < WIDTH:
            raise IllegalMoveError(
                f"column {shown!r} is off the board: columns run 1 to {WIDTH}",
                move_text=shown,
                reason=IllegalMoveReason.OFF_BOARD,
            )
        if not self.move_bit_in(position.occupied, move):
            free = [self.format_move(m) for m in self.legal_moves(position)]
            raise IllegalMoveError(
                f"column {shown!r} is full: choose a column with room ({', '.join(free)})",
                move_text=shown,
                reason=IllegalMoveReason.COLUMN_FULL,
            )

    def _split_moves(self, text: str) -> list[str]:
        # Columns are single digits, so "4453" and "4 4 5 3" read the same.
        return list(_SEPARATORS.sub("", text))

    def row_labels(self) -> list[str]:
        # Moves name columns only, so the rows carry no numbers.
        return [""] * HEIGHT

    def column_labels(self) -> list[str]:
        return [str(c + 1) for c in range(WIDTH)]


GAME_SPECS = (
    GameSpec(
        name="connect4",
        title=N_("Connect Four"),
        summary=N_("7 columns by 6 rows, stones fall, four in a row"),
        board=BoardKind.COLUMNS,
        moves_help=N_("a column, 1 to 7"),
        endings=(Termination.LINE, Termination.FULL_BOARD),
        search=Search.BITBOARD,
        build=ConnectFour,
        aliases=("c4", "connectfour"),
        menu_order=30,
        default=True,  # the game people expect of a quick match, as before the registry
        extra={"line": 4},
    ),
)
"""Connect Four, as the registry offers it."""
