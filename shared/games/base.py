"""The Game interface: value types and the rules common to every Boardroom board.

:class:`Game` is what every game is to the server, the clients and the engine's
generic search: two players taking turns on a ``width`` x ``height`` board of
cells, each holding a stone of one side or none. The k-in-a-row games (a race to
``k`` in a row on a grid, see :mod:`boardroom.shared.games.grid`, with or without gravity)
share one class, :class:`GridGame`, which carries their rules and the bitboard
geometry the compiled search kernel reads; subclasses add their notation. A game
of another kind (Othello, :mod:`boardroom.shared.games.othello`) implements :class:`Game`
itself.

Two paths into the rules:

- validating entry points for anything typed by a person or sent by a client:
  :meth:`Game.parse_move`, :meth:`Game.play`, :meth:`Game.from_moves`. They raise
  :class:`~boardroom.shared.errors.IllegalMoveError` naming the input and the reason;
- an unchecked path for search: :meth:`Game.play_unchecked` and the raw bitboards
  of :class:`Position`. Positions are immutable ints, so "unmake" is simply to
  keep the parent position: nothing is mutated and nothing needs undoing.
"""

from __future__ import annotations

import enum
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games.endings import Termination
from boardroom.shared.games.grid import Grid, iter_bits

Move = int
"""A move as an int: what :meth:`Game.legal_moves` gives and :meth:`Game.play` takes.

Connect Four: the column, 0-based (shown to people 1-based). Grid boards: the
cell ``row * width + column``, 0-based from a1. Use :meth:`Game.format_move` and
:meth:`Game.parse_move` to go to and from the notation people read.
"""


Cell = tuple[int, int]
"""A cell as ``(column, row)``, 0-based, row 0 at the bottom."""


class Player(enum.StrEnum):
    """A side at the board: the one type of a side for the rules, the server, the
    clients and the wire. The first player moves first and plays ``X``.

    A :class:`~enum.StrEnum` whose values are the wire's words, so a message field
    typed ``Player`` is sent and read as ``"first"``/``"second"`` by msgspec with no
    converter (as :class:`~boardroom.shared.protocol.messages.Level` is sent by its
    value). The rules reach a player's stones by :attr:`number`; the store keeps
    that number (0 or 1), converting with :attr:`number` and :meth:`numbered`.
    """

    FIRST = "first"
    """Moves on even plies; shown as ``X``."""
    SECOND = "second"
    """Moves on odd plies; shown as ``O``."""

    @property
    def number(self) -> int:
        """0 for the first player, 1 for the second: where its stones are in
        :attr:`Position.stones`, and how the store keeps a side."""
        return 0 if self is Player.FIRST else 1

    @classmethod
    def numbered(cls, number: int) -> Player:
        """The player of :attr:`number` ``number`` (0 or 1).

        >>> Player.numbered(1), Player.numbered(0).symbol
        (<Player.SECOND: 'second'>, 'X')
        """
        return _SIDES[number]

    @classmethod
    def to_move_at(cls, ply: int) -> Player:
        """The player who makes move ``ply`` (0-based): the first on even plies.

        >>> Player.to_move_at(3)
        <Player.SECOND: 'second'>
        """
        return _SIDES[ply & 1]

    @property
    def other(self) -> Player:
        """The opponent of this player."""
        return Player.SECOND if self is Player.FIRST else Player.FIRST

    @property
    def symbol(self) -> Literal["X", "O"]:
        """The stone letter used in renderings and records."""
        return "X" if self is Player.FIRST else "O"


@dataclass(frozen=True, slots=True)
class Position:
    """A position: both players' stones as bitboards, and the moves that led here.

    ``stones[p.number]`` holds the stones of player ``p``. Positions are small, hashable
    and picklable; ``moves`` is kept so records and move strings need no replay.
    """

    stones: tuple[int, int]
    moves: tuple[Move, ...]

    @property
    def ply(self) -> int:
        """Moves played so far (on the k-in-a-row boards, the stones on the board)."""
        return len(self.moves)

    @property
    def occupied(self) -> int:
        """Bitboard of every stone on the board."""
        return self.stones[0] | self.stones[1]


class Status(enum.Enum):
    """Where a game stands."""

    ONGOING = "ongoing"
    """Moves remain and nobody has won."""
    WIN = "win"
    """Somebody won by the rules; see :attr:`Outcome.winner` and :attr:`Outcome.termination`."""
    DRAW = "draw"
    """Nobody won by the rules (a full board, an equal count)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a position, as a value.

    ``termination`` says how the rules ended the game (one of
    :meth:`Termination.of_rules`: a line, a count, a side with no move, a full
    board); None while it goes on. ``line`` lists the (column, row) cells of the
    winning line, 0-based with row 0 at the bottom; empty unless the game was won
    by :attr:`Termination.LINE`.
    """

    status: Status
    winner: Player | None = None
    line: tuple[Cell, ...] = ()
    termination: Termination | None = None

    @property
    def is_over(self) -> bool:
        """True once the game has ended (win or draw)."""
        return self.status is not Status.ONGOING


_SIDES = (Player.FIRST, Player.SECOND)
"""The players by :attr:`Player.number`."""
_EMPTY = Position((0, 0), ())
"""A k-in-a-row board before its first move."""
_FEW_CHANGES = 4
"""Up to this many cells changed, :meth:`GridGame.board_rows_after` rewrites their
rows one cell at a time; beyond, it rewrites the board as one list of cells."""

ONGOING = Outcome(Status.ONGOING)
DRAW = Outcome(Status.DRAW, termination=Termination.FULL_BOARD)
"""A full board with no line: the draw of every k-in-a-row game."""


class Game(ABC):
    """The rules of one game. Instances are immutable and shared; get them by name
    from :func:`boardroom.shared.games.get_game`.
    """

    name: str
    """Short name, as used on the wire and in the CLI (``connect4``, ``mnk-5-5-4``)."""
    title: str
    """Name for people (``Connect Four``)."""
    width: int
    """Columns of the board, for renderers: :meth:`board_rows` has this many cells a row."""
    height: int
    """Rows of the board: :meth:`board_rows` has this many strings."""
    max_plies: int
    """The most plies a game can last: the scale of the engine's exact scores (a
    faster win scores higher) and of "win in N"."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Games cross process boundaries by name: the worker rebuilds it from the registry.
        from boardroom.shared.games import get_game

        return get_game, (self.name,)

    @abstractmethod
    def new(self) -> Position:
        """The empty starting position."""

    def from_moves(self, text: str) -> Position:
        """The position reached by the moves in ``text``, checking each one.

        Raises :class:`~boardroom.shared.errors.IllegalMoveError` naming the first bad move
        and its place in the string.
        """
        position = self.new()
        for number, token in enumerate(self._split_moves(text), start=1):
            try:
                move = self.parse_move(position, token)
            except IllegalMoveError as error:
                raise IllegalMoveError(
                    f"move {number} of {text!r}: {error}",
                    move_text=error.move_text,
                    reason=error.reason,
                ) from None
            position = self.play_unchecked(position, move)
        return position

    @abstractmethod
    def move_string(self, position: Position) -> str:
        """The moves of ``position`` as a string that :meth:`from_moves` reads back."""

    @abstractmethod
    def legal_moves(self, position: Position) -> list[Move]:
        """Every legal move, in a stable order; empty once the game is over."""

    def play(self, position: Position, move: Move) -> Position:
        """The position after ``move``, which is checked for legality first."""
        self._check_legal(position, move, self.format_move(move))
        return self.play_unchecked(position, move)

    @abstractmethod
    def play_unchecked(self, position: Position, move: Move) -> Position:
        """The position after ``move``, which the caller guarantees is legal."""

    @abstractmethod
    def outcome(self, position: Position) -> Outcome:
        """Ongoing, a win (with the winner and the line) or a draw."""

    def outcome_and_legal_moves(self, position: Position) -> tuple[Outcome, list[Move]]:
        """:meth:`outcome` and :meth:`legal_moves` at once, for a caller that needs
        both (the server's room shows each position with both): a game may work
        the outcome out once for the two."""
        outcome = self.outcome(position)
        return outcome, [] if outcome.is_over else self.legal_moves(position)

    @abstractmethod
    def to_move(self, position: Position) -> Player:
        """The player whose turn it is."""

    def parse_move(self, position: Position, text: str) -> Move:
        """The move that ``text`` names, checked for legality in ``position``."""
        move = self._parse_token(text)
        self._check_legal(position, move, text)
        return move

    @abstractmethod
    def format_move(self, move: Move) -> str:
        """The notation of ``move`` (``"4"``, ``"b2"``)."""

    def cell_name(self, cell: Cell) -> str:
        """The name of a ``(column, row)`` cell (0-based, row 0 at the bottom) in a
        winning line as the wire gives it (``result.line``): a grid cell name,
        ``"d1"``, in every game. People read lines as :meth:`line_text` writes them."""
        column, row = cell
        return f"{column_letter(column)}{row + 1}"

    def parse_cell_name(self, name: str) -> Cell | None:
        """The ``(column, row)`` that :meth:`cell_name` named; None for anything else.

        >>> from boardroom.shared.games import get_game
        >>> game = get_game("connect4")
        >>> game.parse_cell_name("d1"), game.parse_cell_name("c10"), game.parse_cell_name("4")
        ((3, 0), (2, 9), None)
        """
        match = _CELL_NAME.fullmatch(name.strip().lower()) if name.isascii() else None
        if match is None:
            return None
        return ord(match.group(1)) - ord("a"), int(match.group(2)) - 1

    def line_text(self, cell_names: Sequence[str]) -> str:
        """A winning line for people, in the notation of the game's board: the
        names of its cells (``result.line``) on a grid, ``"a1-b2-c3"``. A game
        whose board names things otherwise (Connect Four: columns) says so here."""
        return "-".join(cell_names)

    def position_key(self, position: Position) -> object:
        """What the future of ``position`` depends on, for the generic search's
        transposition table: the stones and the side to move (not the moves
        that led there)."""
        return position.stones, self.to_move(position)

    def last_move_cell(self, position: Position) -> Cell | None:
        """The ``(column, row)`` cell where the last move put a stone (0-based,
        row 0 at the bottom), for renderers to mark; None before the first move
        or for a move that put no stone (a pass)."""
        if not position.moves:
            return None
        return self.move_cell(position.moves[-1])

    def move_cell(self, move: Move) -> Cell | None:
        """The ``(column, row)`` a move names on a board of cells numbered
        ``row * width + column`` (the m,n,k boards, Othello); None if it names none."""
        if not 0 <= move < self.width * self.height:
            return None
        row, column = divmod(move, self.width)
        return column, row

    def column_labels(self) -> list[str]:
        """The labels under the board's columns, left to right: ``a``, ``b``, ..."""
        return [column_letter(c) for c in range(self.width)]

    def row_labels(self) -> list[str]:
        """The labels of the board's rows, bottom first: ``1``, ``2``, ...; empty
        strings for a board whose moves name no rows (Connect Four)."""
        return [str(row + 1) for row in range(self.height)]

    def render(self, position: Position) -> str:
        """A text diagram of the board with coordinates, top row first."""
        labels = self.row_labels()
        label_width = len(str(self.height))
        lines = [
            label.rjust(label_width) + " " + " ".join(cells)
            for label, cells in zip(reversed(labels), self.board_rows(position), strict=True)
        ]
        lines.append(" " * (label_width + 1) + " ".join(self.column_labels()))
        return "\n".join(lines)

    @abstractmethod
    def board_rows(self, position: Position) -> tuple[str, ...]:
        """The board, top row first, one string per row of ``X``, ``O`` and ``.``."""

    def board_rows_after(
        self, rows: tuple[str, ...], before: Position, position: Position
    ) -> tuple[str, ...]:
        """:meth:`board_rows` of ``position``, given ``rows``, those of ``before``: a
        game showing each position in turn (the server's room) passes the last
        one's, and a game that can change only the cells that changed does (a
        k-in-a-row board: one stone a move). Any two positions of the game may be
        given; the rows are the same as :meth:`board_rows` gives."""
        return self.board_rows(position)

    # -- notation and legality hooks, for the validating entry points above ---------------

    @abstractmethod
    def _parse_token(self, text: str) -> Move:
        """The move one token names, checked for form and board range only."""

    @abstractmethod
    def _split_moves(self, text: str) -> list[str]:
        """The tokens of a move string."""

    def _parse_cell(self, text: str, *, example: str, otherwise: str = "") -> Move:
        """The cell ``row * width + column`` that ``text`` names by column letter
        and row number (``b2``; the boards whose moves name cells), checked for
        form and board range only; ``example`` and ``otherwise`` (", or pass")
        complete the message that refuses anything else."""
        token = text.strip()
        # ASCII first: lower() would turn the Kelvin sign into "k".
        match = _CELL_TOKEN.fullmatch(token.lower()) if token.isascii() else None
        if match is None:
            raise IllegalMoveError(
                f"{text!r} is not a move: name a cell by column letter and row number, "
                f"like {example} ({self._cell_ranges()}){otherwise}",
                move_text=text,
                reason=IllegalMoveReason.NOT_A_MOVE,
            )
        column = ord(match.group(1)) - ord("a")
        row = int(match.group(2)) - 1
        if not (0 <= column < self.width and 0 <= row < self.height):
            raise IllegalMoveError(
                f"{text!r} is off the board: {self._cell_ranges()}",
                move_text=text,
                reason=IllegalMoveReason.OFF_BOARD,
            )
        return row * self.width + column

    def _cell_ranges(self) -> str:
        """The board's cells for people: ``columns a-c, rows 1-3``."""
        return f"columns a-{column_letter(self.width - 1)}, rows 1-{self.height}"

    @abstractmethod
    def _check_legal(self, position: Position, move: Move, shown: str) -> None:
        """Raise :class:`IllegalMoveError` (naming ``shown``) unless ``move`` is
        legal in ``position``."""


class GridGame(Game):
    """Rules shared by every k-in-a-row board: stones on a :class:`Grid`, ``k`` in
    a row wins, one stone a move, so a game lasts at most one ply a cell.

    Subclasses provide the notation (:meth:`format_move`, :meth:`_parse_token`,
    :meth:`_split_moves`) and whether moves name cells or columns.
    """

    grid: Grid
    """Board geometry and line arithmetic."""
    gravity: bool
    """True if stones fall to the lowest free cell of a column (Connect Four)."""

    def __init__(self, *, name: str, title: str, grid: Grid, gravity: bool) -> None:
        self.name = name
        self.title = title
        self.grid = grid
        self.gravity = gravity
        self.width = grid.width
        self.height = grid.height
        self.max_plies = grid.cells
        # The last mover holds (ply + 1) // 2 stones, so no line can stand before
        # ply 2k - 1: the outcome of the opening plies needs no line test.
        self._first_line_ply = min(2 * grid.k - 1, grid.cells)
        # Where each bit's cell is in :meth:`board_rows`' rows joined, top row first
        # (-1 for the spare bit on top of each column).
        spots = [-1] * (grid.width * grid.stride)
        for column in range(grid.width):
            for row in range(grid.height):
                spots[column * grid.stride + row] = (grid.height - 1 - row) * grid.width + column
        self._spot_of_bit: tuple[int, ...] = tuple(spots)
        self._empty_rows = ("." * grid.width,) * grid.height

    # -- search path ---------------------------------------------------------------

    @abstractmethod
    def move_bit_in(self, occupied: int, move: Move) -> int:
        """The bit that ``move`` sets given the ``occupied`` cells (no legality check)."""

    @abstractmethod
    def move_of_bit(self, bit: int) -> Move:
        """The move that set ``bit``; the inverse of :meth:`move_bit_in`."""

    def last_move_cell(self, position: Position) -> Cell | None:
        if not position.moves:
            return None
        # The stone of the last move is the one bit that its parent position lacks
        # (in Connect Four a move names a column, not the cell it fills).
        parent_occupied = 0
        for move in position.moves[:-1]:
            parent_occupied |= self.move_bit_in(parent_occupied, move)
        return self.grid.column_row(self.move_bit_in(parent_occupied, position.moves[-1]))

    def playable_cells(self, occupied: int) -> int:
        """Bitboard of the cells a stone may go to next (ignoring whether the game is over)."""
        grid = self.grid
        if self.gravity:
            return (occupied + grid.bottom_mask) & grid.board_mask
        return grid.board_mask & ~occupied

    # -- the interface ---------------------------------------------------------------

    def new(self) -> Position:
        return Position((0, 0), ())

    def to_move(self, position: Position) -> Player:
        return _SIDES[len(position.moves) & 1]

    def play_unchecked(self, position: Position, move: Move) -> Position:
        first, second = position.stones
        moves = position.moves
        bit = self.move_bit_in(first | second, move)
        if len(moves) & 1:
            second |= bit
        else:
            first |= bit
        return Position((first, second), (*moves, move))

    def legal_moves(self, position: Position) -> list[Move]:
        if self.outcome(position).is_over:
            return []
        return self.free_moves(position)

    def outcome_and_legal_moves(self, position: Position) -> tuple[Outcome, list[Move]]:
        outcome = self.outcome(position)
        return outcome, [] if outcome.is_over else self.free_moves(position)

    def free_moves(self, position: Position) -> list[Move]:
        """The moves that fit on the board in ``position``, in order (ignoring
        whether the game is over): :meth:`legal_moves` of a game going on."""
        playable = self.playable_cells(position.occupied)
        return sorted(self.move_of_bit(bit) for bit in iter_bits(playable))

    def outcome(self, position: Position) -> Outcome:
        ply = len(position.moves)
        if ply < self._first_line_ply:
            return ONGOING
        # Only the player who moved last can have just made a line.
        mover = (ply - 1) & 1
        grid = self.grid
        line = grid.winning_line(position.stones[mover])
        if line:
            cells = tuple(grid.column_row(bit) for bit in line)
            return Outcome(Status.WIN, _SIDES[mover], cells, Termination.LINE)
        if ply == grid.cells:
            return DRAW
        return ONGOING

    def board_rows(self, position: Position) -> tuple[str, ...]:
        return self.board_rows_after(self._empty_rows, _EMPTY, position)

    def board_rows_after(
        self, rows: tuple[str, ...], before: Position, position: Position
    ) -> tuple[str, ...]:
        # Only the cells whose stone changed are written: one a move from the
        # previous position's rows (the room's next board), every stone from an
        # empty board's.
        first, second = position.stones
        changed = (before.stones[0] ^ first) | (before.stones[1] ^ second)
        if not changed:
            return rows
        spots = self._spot_of_bit
        width = self.width
        if changed.bit_count() <= _FEW_CHANGES:
            shown = list(rows)
            while changed:
                low = changed & -changed
                changed ^= low
                row, column = divmod(spots[low.bit_length() - 1], width)
                mark = "X" if first & low else "O" if second & low else "."
                line = shown[row]
                shown[row] = line[:column] + mark + line[column + 1 :]
            return tuple(shown)
        cells = list("".join(rows))
        while changed:
            low = changed & -changed
            changed ^= low
            cells[spots[low.bit_length() - 1]] = (
                "X" if first & low else "O" if second & low else "."
            )
        text = "".join(cells)
        return tuple([text[start : start + width] for start in range(0, len(text), width)])

    # -- checks ------------------------------------------------------------------------

    def _check_legal(self, position: Position, move: Move, shown: str) -> None:
        if self.outcome(position).is_over:
            raise IllegalMoveError(
                f"{shown!r}: the game is over, no more moves can be played",
                move_text=shown,
                reason=IllegalMoveReason.GAME_OVER,
            )
        self._check_placeable(position, move, shown)

    @abstractmethod
    def _check_placeable(self, position: Position, move: Move, shown: str) -> None:
        """Raise :class:`IllegalMoveError` unless ``move`` fits on the board now."""


def split_move_tokens(text: str, run: re.Pattern[str], token: re.Pattern[str]) -> list[str]:
    """The tokens of a move string: chunks between spaces, commas or semicolons,
    each chunk that is a ``run`` of moves written together split into its
    ``token`` matches (``"b2a1"``: ``b2``, ``a1``); any other chunk as it is, for the
    rules to refuse by name."""
    tokens: list[str] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if not chunk:
            continue
        if chunk.isascii() and run.fullmatch(chunk.lower()):
            tokens.extend(m.group(0) for m in token.finditer(chunk.lower()))
        else:
            tokens.append(chunk)
    return tokens


_SEPARATORS = re.compile(r"[\s,;]+")
_CELL_TOKEN = re.compile(r"([a-z])([0-9]{1,2})")
"""A cell as a move names it (range checked apart, to say "off the board")."""

_CELL_NAME = re.compile(r"([a-z])([1-9][0-9]?)")
"""A grid cell's name: a column letter and a row number from 1."""


def column_letter(column: int) -> str:
    """The letter naming a 0-based column: a, b, ... z (boards are at most 26 wide)."""
    return chr(ord("a") + column)
