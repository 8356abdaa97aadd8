"""Bitboard geometry shared by every board in Boardroom.

A board of ``width`` columns and ``height`` rows is stored as Python ints, one bit
per cell, column by column with one spare bit on top of each column::

    bit index = column * (height + 1) + row        (row 0 is the bottom row)

For Connect Four (7 x 6) this is the layout of the standard bitboard solvers: the
spare bit stops a vertical line from wrapping into the next column, and it also
stops the three other directions, because every step that would leave the board
sideways lands on a spare bit or beyond the last column. So a line test is a
handful of shifts and ANDs over the whole board, whatever its size, and the same
ints can later be handed to a compiled kernel unchanged.

The four line directions, as bit offsets (``stride = height + 1``):

    1            up a column (vertical)
    stride       one column right (horizontal)
    stride + 1   up and right (diagonal)
    stride - 1   down and right (anti-diagonal)

:class:`Grid` holds the masks and does the line arithmetic; it knows nothing of
whose turn it is or of gravity. All methods are pure.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


def iter_bits(bits: int) -> Iterator[int]:
    """Yield the single-bit ints set in ``bits``, lowest first.

    >>> list(iter_bits(0b1010))
    [2, 8]
    """
    while bits:
        low = bits & -bits
        yield low
        bits ^= low


@dataclass(frozen=True)
class Grid:
    """Geometry of a ``width`` x ``height`` board where ``k`` in a row wins.

    >>> g = Grid(3, 3, 3)
    >>> g.has_line(g.cell(0, 0) | g.cell(1, 1) | g.cell(2, 2))
    True
    >>> g.winning_cells(g.cell(0, 0) | g.cell(1, 0), empty=g.board_mask) == g.cell(2, 0)
    True
    """

    width: int
    height: int
    k: int
    stride: int = field(init=False)
    cells: int = field(init=False)
    board_mask: int = field(init=False, repr=False)
    bottom_mask: int = field(init=False, repr=False)
    column_masks: tuple[int, ...] = field(init=False, repr=False)
    directions: tuple[int, ...] = field(init=False, repr=False)
    window_starts: tuple[int, ...] = field(init=False, repr=False)
    """Per direction: the cells where a k-long line inside the board can start."""
    line_steps: tuple[tuple[int, tuple[int, ...]], ...] = field(
        init=False, repr=False, compare=False
    )
    """Per direction: its bit offset, and the shifts that find the starts of ``k`` in
    a row by doubling (:meth:`line_starts`), worked out once: the rules test for a
    line after every move (issue 29)."""

    def __post_init__(self) -> None:
        stride = self.height + 1
        column = (1 << self.height) - 1
        column_masks = tuple(column << (c * stride) for c in range(self.width))
        board = 0
        for mask in column_masks:
            board |= mask
        directions = (1, stride, stride + 1, stride - 1)
        starts = []
        for d in directions:
            # A window starting at s is on the board iff all its k cells are.
            on_board = board
            for i in range(1, self.k):
                on_board &= board >> (i * d)
            starts.append(on_board)
        set_ = object.__setattr__  # frozen dataclass: derived fields are set once here
        set_(self, "stride", stride)
        set_(self, "cells", self.width * self.height)
        set_(self, "board_mask", board)
        set_(self, "bottom_mask", sum(1 << (c * stride) for c in range(self.width)))
        set_(self, "column_masks", column_masks)
        set_(self, "directions", directions)
        set_(self, "window_starts", tuple(starts))
        set_(self, "line_steps", tuple((d, _doubling_shifts(self.k, d)) for d in directions))

    # -- cells -------------------------------------------------------------------

    def cell(self, column: int, row: int) -> int:
        """The single-bit int of the cell at ``column``, ``row`` (0-based, row 0 at the bottom)."""
        return 1 << (column * self.stride + row)

    def column_row(self, bit: int) -> tuple[int, int]:
        """The (column, row) of a single-bit int; the inverse of :meth:`cell`."""
        return divmod(bit.bit_length() - 1, self.stride)

    # -- lines -------------------------------------------------------------------

    def has_line(self, stones: int) -> bool:
        """True if ``stones`` hold at least ``k`` in a row in any direction."""
        for _, shifts in self.line_steps:
            runs = stones
            for shift in shifts:
                runs &= runs >> shift
            if runs:
                return True
        return False

    def line_starts(self, stones: int) -> tuple[int, int, int, int]:
        """Per direction, the cells from which ``k`` of ``stones`` run in a row.

        Built by doubling: a run of length 2L is a run of L followed by another.
        """
        found = []
        for _, shifts in self.line_steps:
            runs = stones
            for shift in shifts:
                runs &= runs >> shift
            found.append(runs)
        return found[0], found[1], found[2], found[3]

    def winning_line(self, stones: int) -> tuple[int, ...]:
        """The single-bit cells of one ``k``-line in ``stones`` (empty if none).

        Where the stones run longer than ``k`` (gomoku's overlines) the whole run
        is given, so the line shown to players is the one on the board.
        """
        for d, shifts in self.line_steps:
            starts = stones
            for shift in shifts:
                starts &= starts >> shift
            if starts:
                first = starts & -starts
                line = [first]
                while stones & (line[-1] << d):
                    line.append(line[-1] << d)
                return tuple(line)
        return ()

    def winning_cells(self, stones: int, empty: int) -> int:
        """The cells among ``empty`` where one more stone would make ``k`` in a row.

        For each direction, a cell wins if ``a`` own stones run behind it and
        ``k - 1 - a`` ahead of it, for some ``a``. ``behind[a]`` marks the cells
        with ``a`` stones in a row behind them, ``ahead[b]`` likewise ahead.
        """
        k = self.k
        result = 0
        for d in self.directions:
            behind = [-1]
            ahead = [-1]
            back = fore = -1
            for i in range(1, k):
                back &= stones << (i * d)
                fore &= stones >> (i * d)
                behind.append(back)
                ahead.append(fore)
            for a in range(k):
                result |= behind[a] & ahead[k - 1 - a]
        return result & empty

    def neighbourhood(self, stones: int, radius: int) -> int:
        """The board cells within ``radius`` king steps of any of ``stones``."""
        grown = stones
        for _ in range(radius):
            step = grown
            for d in self.directions:
                step |= (grown << d) | (grown >> d)
            grown = step & self.board_mask
        return grown

    # -- evaluation ----------------------------------------------------------------

    def window_counts(self, own: int, other: int) -> list[int]:
        """How many k-windows hold exactly c of ``own`` stones and none of ``other``.

        Index c runs from 0 to k. Used by the heuristic evaluations ("open lines"):
        a window still free of the opponent is a line one could yet complete.
        The per-window stone count is kept as a bit-sliced binary counter: three
        bitboards (1s, 2s and 4s) added to once per cell of the window.
        """
        k = self.k
        counts = [0] * (k + 1)
        for d, starts in zip(self.directions, self.window_starts, strict=True):
            free = starts
            ones = twos = fours = 0
            for i in range(k):
                shift = i * d
                free &= ~(other >> shift)
                bit = own >> shift
                carry = ones & bit
                ones ^= bit
                carry2 = twos & carry
                twos ^= carry
                fours |= carry2
            if not free:
                continue
            ones &= free
            twos &= free
            fours &= free
            for c in range(k + 1):
                sel = free
                sel &= ones if c & 1 else ~ones
                sel &= twos if c & 2 else ~twos
                sel &= fours if c & 4 else ~fours
                counts[c] += sel.bit_count()
        return counts


def _doubling_shifts(k: int, step: int) -> tuple[int, ...]:
    """The shifts that keep, of a set of cells, those from which ``k`` run in a row
    ``step`` apart: ``runs &= runs >> shift`` for each, doubling the run's length
    while it fits in ``k``, then one shift for the rest.

    >>> _doubling_shifts(4, 1), _doubling_shifts(5, 7), _doubling_shifts(3, 1)
    ((1, 2), (7, 14, 7), (1, 1))
    """
    shifts, length = [], 1
    while length * 2 <= k:
        shifts.append(length * step)
        length *= 2
    if length < k:
        shifts.append((k - length) * step)
    return tuple(shifts)
