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

from boardroom.shared.errors import GameOptionsError, IllegalMoveError, IllegalMoveReason
from boardroom.shared.games.base import GridGame, Move, Position, column_letter, split_move_tokens
from boardroom.shared.games.endings import Termination
from boardroom.shared.games.grid import Grid
from boardroom.shared.games.spec import BoardKind, GameSpec, Search, SizeOption
from boardroom.shared.i18n import N_

MAX_SIDE = 19
"""Largest board side: a Go board, and small enough for bitboard search."""
MAX_K = 7
"""Longest winning line; the evaluation's bit-sliced window counter holds up to 7."""

_CELL = re.compile(r"([a-z])([0-9]{1,2})")
_RUN_OF_CELLS = re.compile(r"(?:[a-z][0-9]{1,2})+")


class MNKGame(GridGame):
    """An m,n,k game; see the module docstring for the notation."""

    def __init__(self, m: int, n: int, k: int, *, name: str, title: str) -> None:
        check_mnk(m, n, k)
        super().__init__(name=name, title=title, grid=Grid(m, n, k), gravity=False)
        stride = n + 1
        # Moves are cells numbered row * m + column; bits are column * stride + row.
        self._bit_of_move = tuple(1 << ((c % m) * stride + c // m) for c in range(m * n))
        self._move_of_bit = {bit: move for move, bit in enumerate(self._bit_of_move)}
        self._all_cells = frozenset(range(m * n))
        self._cell_names = tuple(
            f"{column_letter(c % m)}{c // m + 1}" for c in range(m * n)
        )  # each move's name, made once: games and the server name moves all the time

    def move_bit_in(self, occupied: int, move: Move) -> int:
        return self._bit_of_move[move]

    def move_of_bit(self, bit: int) -> Move:
        return self._move_of_bit[bit]

    def free_moves(self, position: Position) -> list[Move]:
        moves = position.moves
        if len(moves) == position.occupied.bit_count():
            # Each move took the cell it names: the empty cells are the others,
            # taken out of all of them in C, faster than a test a cell on a big board.
            return sorted(self._all_cells.difference(moves))
        return super().free_moves(position)  # stones without their moves

    def format_move(self, move: Move) -> str:
        if 0 <= move < self.grid.cells:
            return self._cell_names[move]
        row, column = divmod(move, self.grid.width)
        return f"{column_letter(column)}{row + 1}"

    def move_string(self, position: Position) -> str:
        return " ".join(map(self.format_move, position.moves))

    def _parse_token(self, text: str) -> Move:
        return self._parse_cell(text, example="b2")

    def _check_placeable(self, position: Position, move: Move, shown: str) -> None:
        if not 0 <= move < self.grid.cells:
            raise IllegalMoveError(
                f"{shown!r} is off the board: {self._cell_ranges()}",
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
        return split_move_tokens(text, _RUN_OF_CELLS, _CELL)


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


_PRESETS: dict[str, tuple[int, int, int, str]] = {
    "tictactoe": (3, 3, 3, N_("Tic-tac-toe")),
    "tictactoe4": (4, 4, 4, N_("Tic-tac-toe 4x4")),
    "gomoku": (15, 15, 5, N_("Gomoku")),
}
"""The m,n,k boards with names of their own: (m, n, k, title)."""


def mnk_name(m: int, n: int, k: int) -> str:
    """The canonical name of the m,n,k game: a preset's name where one matches.

    >>> mnk_name(3, 3, 3), mnk_name(5, 5, 4)
    ('tictactoe', 'mnk-5-5-4')
    """
    for name, (pm, pn, pk, _) in _PRESETS.items():
        if (pm, pn, pk) == (m, n, k):
            return name
    return f"mnk-{m}-{n}-{k}"


def mnk_game(m: int, n: int, k: int) -> MNKGame:
    """The m,n,k board, named as :func:`mnk_name` names it (checked first)."""
    check_mnk(m, n, k)
    name = mnk_name(m, n, k)
    title = _PRESETS[name][3] if name in _PRESETS else N_("{m},{n},{k} game").format(m=m, n=n, k=k)
    return MNKGame(m, n, k, name=name, title=title)


def _preset_spec(name: str, summary: str, order: int, aliases: tuple[str, ...] = ()) -> GameSpec:
    m, n, k, title = _PRESETS[name]
    return GameSpec(
        name=name,
        title=title,
        summary=summary,
        board=BoardKind.CELLS,
        moves_help=N_("a cell such as b2"),
        endings=(Termination.LINE, Termination.FULL_BOARD),
        search=Search.BITBOARD,
        build=lambda: mnk_game(m, n, k),
        aliases=aliases,
        menu_order=order,
        extra={"line": k},
    )


GAME_SPECS = (
    _preset_spec("tictactoe", N_("3x3, three in a row"), 10, aliases=("ttt",)),
    _preset_spec("tictactoe4", N_("4x4, four in a row"), 20),
    _preset_spec("gomoku", N_("15x15, five in a row"), 40),
    GameSpec(
        name="mnk",
        title=N_("m,n,k game"),
        summary=N_("your own board: m columns, n rows, k in a row"),
        board=BoardKind.CELLS,
        moves_help=N_("a cell such as b2"),
        endings=(Termination.LINE, Termination.FULL_BOARD),
        search=Search.BITBOARD,
        build=mnk_game,
        sizes=(
            SizeOption("m", "columns", 2, MAX_SIDE),
            SizeOption("n", "rows", 2, MAX_SIDE),
            SizeOption("k", "line", 2, MAX_K),
        ),
        menu_order=1000,
        warm_up=False,
        extra={"example": "mnk-5-5-4"},
    ),
)
"""The m,n,k games the registry offers: three presets and the family."""
