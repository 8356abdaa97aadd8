"""Connect Four: 7 columns by 6 rows, stones fall to the lowest free cell, four in a row wins.

Notation: a move is its column, 1 to 7 from the left; a position is the string of
columns played, as in the standard solver test sets (``"4453"``). Cells in a
winning line are named like grid cells, column letter and row from the bottom
(``d1``), but moves never are.
"""

from __future__ import annotations

import re

from shared.errors import IllegalMoveError, IllegalMoveReason
from shared.games.base import GridGame, Move, Position
from shared.games.grid import Grid

WIDTH = 7
HEIGHT = 6

_SEPARATORS = re.compile(r"[\s,;]+")


class ConnectFour(GridGame):
    """Connect Four on the standard 7 x 6 board."""

    def __init__(self) -> None:
        super().__init__(
            name="connect4", title="Connect Four", grid=Grid(WIDTH, HEIGHT, 4), gravity=True
        )

    def move_bit_in(self, occupied: int, move: Move) -> int:
        grid = self.grid
        # Adding the column's bottom bit to its stones carries into the lowest free cell.
        return (occupied + (1 << (move * grid.stride))) & grid.column_masks[move]

    def move_of_bit(self, bit: int) -> Move:
        return (bit.bit_length() - 1) // self.grid.stride

    def format_move(self, move: Move) -> str:
        return str(move + 1)

    def move_string(self, position: Position) -> str:
        return "".join(self.format_move(move) for move in position.moves)

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

    def _row_label(self, row: int) -> str:
        return " "

    def _column_labels(self) -> list[str]:
        return [str(c + 1) for c in range(WIDTH)]
