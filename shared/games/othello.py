"""Othello (Reversi): 8x8, a disc flips every line of the opponent's discs it brackets.

Rules: the game starts with four discs in the centre, White (``O``) on d4 and e5,
Black (``X``) on d5 and e4, and Black moves first: Black is the first player, as
``X`` is in every Boardroom game. A move puts a disc of the mover's colour on an
empty cell from which, in at least one of the eight directions, a line of one or
more of the opponent's discs runs to a disc of the mover's own; every such line
is flipped to the mover's colour. A move that would flip nothing is illegal.
When the side to move has no legal move but the opponent has, the only legal
move is a pass, written ``pass``: an explicit move, so turns keep alternating by
ply (X moves on even plies) and a move string replays the game exactly. The game
ends when neither side can move (usually a full board); the discs are counted,
most discs wins (:attr:`~boardroom.shared.games.endings.Termination.COUNT`), an equal
count is a draw.

Notation: a cell is its column letter and row number, ``a1`` to ``h8``, as on the
m,n,k boards: ``a1`` is the bottom-left corner and rows count upwards, as the
terminal and the browser draw every board. The cell names are the Othello
books' (the first moves are d3, c4, f5 and e6 either way); the books draw row 1
at the top, so their diagrams are this one's mirrored top to bottom. A move
string lists the moves separated by spaces or commas (``"f5 d6 c3"``), or run
together as transcripts write them (``"f5d6c3"``).

Moves as ints: a cell is ``row * 8 + column`` (0-based from a1, as on the m,n,k
boards), 0 to 63; :data:`PASS` (64) is the pass. Positions hold the discs as two
bitboards, Black's (``X``, the first player's) first, one bit a cell with the
same numbering as moves (bit 0 is a1, bit 63 is h8).
"""

from __future__ import annotations

import re

from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games.base import (
    ONGOING,
    Game,
    Move,
    Outcome,
    Player,
    Position,
    Status,
    column_letter,
    split_move_tokens,
)
from boardroom.shared.games.endings import Termination
from boardroom.shared.games.grid import iter_bits
from boardroom.shared.games.othello_evaluation import evaluate
from boardroom.shared.games.spec import BoardKind, GameSpec, Search
from boardroom.shared.i18n import N_

SIZE = 8
CELLS = SIZE * SIZE
PASS: Move = CELLS
"""The pass: the only legal move of a side with no move while the other has one."""
PASS_TEXT = "pass"  # noqa: S105 - the move, not a password
MAX_PLIES = 2 * (CELLS - 4)
"""An upper bound on a game's length: 60 discs to place, and a pass is always
followed by a disc (two passes in a row end the game), so at most 120 plies."""

FULL = (1 << CELLS) - 1
NOT_A_FILE = FULL & ~sum(1 << (row * SIZE) for row in range(SIZE))
NOT_H_FILE = FULL & ~sum(1 << (row * SIZE + SIZE - 1) for row in range(SIZE))

_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, NOT_A_FILE),  # right: a disc shifted off the h file must not wrap onto a
    (-1, NOT_H_FILE),  # left
    (SIZE, FULL),  # up
    (-SIZE, FULL),  # down
    (SIZE + 1, NOT_A_FILE),  # up and right
    (SIZE - 1, NOT_H_FILE),  # up and left
    (-SIZE + 1, NOT_A_FILE),  # down and right
    (-SIZE - 1, NOT_H_FILE),  # down and left
)
"""The eight directions as (bit shift, mask of the cells a step may land on)."""

START = (1 << (4 * SIZE + 3)) | (1 << (3 * SIZE + 4)), (1 << (3 * SIZE + 3)) | (1 << (4 * SIZE + 4))
"""Black (X) on d5 and e4, White (O) on d4 and e5."""

_RUN = re.compile(r"(?:[a-z][0-9]{1,2}|pass)+")
_TOKEN = re.compile(r"[a-z][0-9]{1,2}|pass")


def _shift(bits: int, step: int, mask: int) -> int:
    return ((bits << step) if step > 0 else (bits >> -step)) & mask


def legal_cells(own: int, other: int) -> int:
    """The cells where ``own`` may put a disc (a bitboard): each brackets at
    least one line of ``other``'s discs."""
    empty = FULL & ~(own | other)
    legal = 0
    for step, mask in _DIRECTIONS:
        run = _shift(own, step, mask) & other
        for _ in range(SIZE - 3):  # a line holds at most six of the opponent's discs
            run |= _shift(run, step, mask) & other
        legal |= _shift(run, step, mask) & empty
    return legal


def flipped(own: int, other: int, bit: int) -> int:
    """The discs of ``other`` that a disc of ``own`` put on ``bit`` flips."""
    flips = 0
    for step, mask in _DIRECTIONS:
        line = 0
        cell = _shift(bit, step, mask)
        while cell & other:
            line |= cell
            cell = _shift(cell, step, mask)
        if cell & own:
            flips |= line
    return flips


class Othello(Game):
    """Othello on the standard 8x8 board; see the module docstring."""

    def __init__(self) -> None:
        self.name = "othello"
        self.title = "Othello"
        self.width = SIZE
        self.height = SIZE
        self.max_plies = MAX_PLIES

    legal_cells = staticmethod(legal_cells)

    # -- the search path (no checks) ----------------------------------------------

    def new(self) -> Position:
        return Position(START, ())

    def to_move(self, position: Position) -> Player:
        return Player.to_move_at(position.ply)

    def sides(self, position: Position) -> tuple[int, int]:
        """The discs of the player to move and of the other, as bitboards."""
        mover = position.ply & 1
        return position.stones[mover], position.stones[1 - mover]

    def play_unchecked(self, position: Position, move: Move) -> Position:
        moves = (*position.moves, move)
        if move == PASS:
            return Position(position.stones, moves)
        own, other = self.sides(position)
        bit = 1 << move
        flips = flipped(own, other, bit)
        own |= bit | flips
        other &= ~flips
        stones = (own, other) if position.ply & 1 == 0 else (other, own)
        return Position(stones, moves)

    def legal_moves(self, position: Position) -> list[Move]:
        own, other = self.sides(position)
        cells = legal_cells(own, other)
        if cells:
            return [bit.bit_length() - 1 for bit in iter_bits(cells)]
        return [PASS] if legal_cells(other, own) else []

    def outcome(self, position: Position) -> Outcome:
        black, white = position.stones
        if legal_cells(black, white) or legal_cells(white, black):
            return ONGOING
        black_count, white_count = black.bit_count(), white.bit_count()
        if black_count == white_count:
            return Outcome(Status.DRAW, termination=Termination.COUNT)
        winner = Player.FIRST if black_count > white_count else Player.SECOND
        return Outcome(Status.WIN, winner=winner, termination=Termination.COUNT)

    def disc_counts(self, position: Position) -> tuple[int, int]:
        """The discs of Black (X) and White (O)."""
        return position.stones[0].bit_count(), position.stones[1].bit_count()

    # -- notation -------------------------------------------------------------------

    def move_string(self, position: Position) -> str:
        return " ".join(self.format_move(move) for move in position.moves)

    def format_move(self, move: Move) -> str:
        if move == PASS:
            return PASS_TEXT
        row, column = divmod(move, SIZE)
        return f"{column_letter(column)}{row + 1}"

    def board_rows(self, position: Position) -> tuple[str, ...]:
        black, white = position.stones
        rows = []
        for row in reversed(range(SIZE)):
            cells = []
            for column in range(SIZE):
                bit = 1 << (row * SIZE + column)
                cells.append("X" if black & bit else "O" if white & bit else ".")
            rows.append("".join(cells))
        return tuple(rows)

    # -- notation and checks -----------------------------------------------------------

    def _parse_token(self, text: str) -> Move:
        if text.strip().lower() == PASS_TEXT and text.isascii():
            return PASS
        return self._parse_cell(text, example="d3", otherwise=", or pass")

    def _split_moves(self, text: str) -> list[str]:
        return split_move_tokens(text, _RUN, _TOKEN)

    def _check_legal(self, position: Position, move: Move, shown: str) -> None:
        legal = self.legal_moves(position)
        if not legal:
            raise IllegalMoveError(
                f"{shown!r}: the game is over, no more moves can be played",
                move_text=shown,
                reason=IllegalMoveReason.GAME_OVER,
            )
        if move in legal:
            return
        mover = self.to_move(position).symbol
        if move == PASS:
            raise IllegalMoveError(
                f"{mover} cannot pass with a move to play: "
                f"{', '.join(self.format_move(m) for m in legal)}",
                move_text=shown,
                reason=IllegalMoveReason.CANNOT_PASS,
            )
        if not 0 <= move < CELLS:
            raise IllegalMoveError(
                f"{shown!r} is off the board: {self._cell_ranges()}",
                move_text=shown,
                reason=IllegalMoveReason.OFF_BOARD,
            )
        bit = 1 << move
        if position.occupied & bit:
            holder = "X" if position.stones[0] & bit else "O"
            raise IllegalMoveError(
                f"{shown!r} is taken: {holder} already has a disc there; choose an empty cell",
                move_text=shown,
                reason=IllegalMoveReason.OCCUPIED,
            )
        choices = "pass" if legal == [PASS] else ", ".join(self.format_move(m) for m in legal)
        raise IllegalMoveError(
            f"{shown!r} flips nothing: a disc must close a line of the opponent's discs "
            f"with one of {mover}'s; legal now: {choices}",
            move_text=shown,
            reason=IllegalMoveReason.FLIPS_NOTHING,
        )


GAME_SPECS = (
    GameSpec(
        name="othello",
        title=N_("Othello"),
        summary=N_("8x8, flip the discs you bracket, most discs wins"),
        board=BoardKind.CELLS,
        moves_help=N_("a cell such as d3, or pass"),
        endings=(Termination.COUNT,),
        search=Search.GENERIC,
        build=Othello,
        aliases=("reversi",),
        menu_order=50,
        warm_up=False,  # the generic search has nothing to compile or load
        evaluation=evaluate,
    ),
)
"""Othello, as the registry offers it."""
