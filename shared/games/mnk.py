"""m,n,k games: ``m`` columns by ``n`` rows, ``k`` (or more) in a row wins, no gravity.

Presets: ``tictactoe`` (3,3,3), ``tictactoe4`` (4,4,4) and ``gomoku`` (15,15,5,
free-style: lines longer than five also win). Any other size is named
``mnk-M-N-K``.

Notation: a cell is its column letter and row number, ``a1`` being the bottom-left
corner as White sees a chessboard; rows count upwards. A move string lists cells
separated by spaces or commas (``"b2 a1 c3"``), or run together (``"b2a1c3"``).
"""

from __future__ import annotations

import re

from shared.errors import GameOptionsError, IllegalMoveError, IllegalMoveReason
from shared.games.base import GridGame, Move, Position, column_letter
from shared.games.grid import Grid

MAX_SIDE = 19
"""Largest board side: a Go board, and small enough for bitboard search."""
MAX_K = 7
"""Longest winning line; the evaluation's bit-sliced window counter holds up to 7."""

_CELL = re.compile(r"([a-z])([0-9]{1,2})")
_RUN_OF_CELLS = re.compile(r"(?:[a-z][0-9]{1,2})+")
_SEPARATORS = re.compile(r"[\s,;]+")


class MNKGame(GridGame):
    """An m,n,k game; see the module docstring for the notation."""

    def __init__(self, m: int, n: int, k: int, *, name: str, title: str) -> None:
        check_mnk(m, n, k)
        super().__init__(name=name, title=title, grid=Grid(m, n, k), gravity=False)
        stride = n + 1
        # Moves are cells numbered row * m + column; bits are column * stride + row.
        self._bit_of_move = tuple(1 << ((c % m) * stride + c // m) for c in range(m * n))
        self._move_of_bit = {bit: move for move, bit in enumerate(self._bit_of_move)}

    def move_bit_in(self, occupied: int, move: Move) -> int:
        return self._bit_of_move[move]

    def move_of_bit(self, bit: int) -> Move:
        return self._move_of_bit[bit]

    def format_move(self, move: Move) -> str:
        row, column = divmod(move, self.grid.width)
        return f"{column_letter(column)}{row + 1}"

    def move_string(self, position: Position) -> str:
        return " ".join(self.format_move(move) for move in position.moves)

    def _parse_token(self, text: str) -> Move:
        grid = self.grid
        token = text.strip()
        # ASCII first: lower() would turn the Kelvin sign into "k".
        match = _CELL.fullmatch(token.lower()) if token.isascii() else None
        if match is None:
            raise IllegalMoveError(
                f"{text!r} is not a move: name a cell by column letter and row number, "
                f"like b2 ({self._ranges()})",
                move_text=text,
                reason=IllegalMoveReason.NOT_A_MOVE,
            )
        column = ord(match.group(1)) - ord("a")
        row = int(match.group(2)) - 1
        if not (0 <= column < grid.width and 0 <= row < grid.height):
            raise IllegalMoveError(
                f"{text!r} is off the board: {self._ranges()}",
                move_text=text,
                reason=IllegalMoveReason.OFF_BOARD,
            )
        return row * grid.width + column

    def _check_placeable(self, position: Position, move: Move, shown: str) -> None:
        if not 0 <= move < self.grid.cells:
            raise IllegalMoveError(
                f"{shown!r} is off the board: {self._ranges()}",
                move_text=shown,
                reason=IllegalMoveReason.OFF_BOARD,
            )
        bit = self._bit_of_move[move]
        if position.occupied & bit:
            holder = "X" if position.stones[0] & bit else "O"
            raise IllegalMoveError(
                f"{shown!r} is taken: {holder} already has a stone there; choose an empty cell",
                move_text=shown,
                reason=IllegalMoveReason.OCCUPIED,
            )

    def _split_moves(self, text: str) -> list[str]:
        tokens: list[str] = []
        for chunk in _SEPARATORS.split(text.strip()):
            if not chunk:
                continue
            if chunk.isascii() and _RUN_OF_CELLS.fullmatch(chunk.lower()):
                tokens.extend(m.group(0) for m in _CELL.finditer(chunk.lower()))
            else:
                tokens.append(chunk)
        return tokens

    def _ranges(self) -> str:
        grid = self.grid
        return f"columns a-{column_letter(grid.width - 1)}, rows 1-{grid.height}"


def check_mnk(m: int, n: int, k: int) -> None:
    """Raise :class:`GameOptionsError` unless m, n, k make a playable board."""
    for label, value in (("m", m), ("n", n)):
        if not isinstance(value, int) or not 2 <= value <= MAX_SIDE:
            raise GameOptionsError(f"{label}={value!r}: board sides run from 2 to {MAX_SIDE}")
    if not isinstance(k, int) or not 2 <= k <= min(MAX_K, max(m, n)):
        raise GameOptionsError(
            f"k={k!r}: the winning line must be 2 to {min(MAX_K, max(m, n))} long "
            f"on a {m}x{n} board"
        )
