"""The search kernel: one game's rules reduced to fast functions on raw bitboards.

The search (:mod:`boardroom.shared.engine.negamax`) never touches
:class:`~boardroom.shared.games.Position` objects. It works on two ints, ``cur`` (stones of the side
to move) and ``opp``, and asks the kernel for:

- ``winning_cells(stones, empty)``: where one more stone completes a line. This is
  the hot spot of the whole engine (it runs for every child of every node, to
  order moves by the threats they create), so it is built per geometry as one
  straight-line function with every shift a constant, like the hand-written
  versions in C solvers; :meth:`~boardroom.shared.games.grid.Grid.winning_cells` is the
  readable generic version and the test oracle for it;
- ``playable(occupied)``: the cells a stone may go to;
- ``key(cur, opp)``: a transposition-table key, reduced by the board's symmetries
  where that pays (small square or rectangular boards, Connect Four's mirror);
- ``candidates(moves, occupied)``: the moves to try, in a static centre-first order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from boardroom.shared.games.base import GridGame
from boardroom.shared.games.grid import Grid, iter_bits

WinningCells = Callable[[int, int], int]

SYMMETRY_MAX_CELLS = 36
"""Boards up to 6x6 get symmetry-reduced keys; on larger ones symmetric positions
are too rare after the opening to repay the cost of eight transforms per node."""

NEIGHBOURHOOD_MIN_CELLS = 50
"""On boards of this many cells or more (gomoku), only cells within two steps of a
stone are searched. A far move is seldom the better one in play (though the
evaluation can prefer one: open space holds many empty lines); the pruning trades
that for the depth that a 15x15 board otherwise never reaches."""


def compile_winning_cells(grid: Grid, *, gravity: bool) -> WinningCells:
    """A fast ``winning_cells(stones, empty)`` for ``grid``, equal to
    :meth:`Grid.winning_cells` on every input (the tests check this).

    With gravity the cells above an empty cell are empty too, so a vertical line
    can only be completed from above: only the "behind" run is needed there.
    """
    k = grid.k
    lines = ["def winning_cells(s, empty):", "    r = 0"]
    for d in grid.directions:
        behind = [f"(s << {i * d})" for i in range(1, k)]
        ahead = [f"(s >> {i * d})" for i in range(1, k)]
        if gravity and d == 1:
            lines.append("    r |= " + " & ".join(behind))
            continue
        # b{i}: i own stones in a row behind the cell; f{i}: likewise ahead.
        for i in range(1, k):
            prev_b = f"b{i - 1} & " if i > 1 else ""
            prev_f = f"f{i - 1} & " if i > 1 else ""
            lines.append(f"    b{i} = {prev_b}{behind[i - 1]}")
            lines.append(f"    f{i} = {prev_f}{ahead[i - 1]}")
        terms = [f"b{k - 1}", f"f{k - 1}"]
        terms += [f"(b{a} & f{k - 1 - a})" for a in range(1, k - 1)]
        lines.append("    r |= " + " | ".join(terms))
    lines.append("    return r & empty")
    namespace: dict[str, WinningCells] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - code built above from ints only
    return namespace["winning_cells"]


def _cells_centre_first(grid: Grid) -> list[int]:
    """Single-bit cells sorted by distance from the centre (then left to right, bottom up)."""
    cx, cy = (grid.width - 1) / 2, (grid.height - 1) / 2
    cells = [(c, r) for c in range(grid.width) for r in range(grid.height)]
    cells.sort(key=lambda cr: (abs(cr[0] - cx) + abs(cr[1] - cy), abs(cr[0] - cx), cr))
    return [grid.cell(c, r) for c, r in cells]


def _columns_centre_first(grid: Grid) -> list[int]:
    centre = (grid.width - 1) / 2
    order = sorted(range(grid.width), key=lambda c: (abs(c - centre), c))
    return [grid.column_masks[c] for c in order]


def _square_symmetries(grid: Grid) -> list[list[int]]:
    """For each symmetry of the board, the image bit index of every bit index."""
    w, h, stride = grid.width, grid.height, grid.stride
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda c, r: (c, r),
        lambda c, r: (w - 1 - c, r),
        lambda c, r: (c, h - 1 - r),
        lambda c, r: (w - 1 - c, h - 1 - r),
    ]
    if w == h:
        maps += [
            lambda c, r: (r, c),
            lambda c, r: (h - 1 - r, c),
            lambda c, r: (r, w - 1 - c),
            lambda c, r: (h - 1 - r, w - 1 - c),
        ]
    perms = []
    for transform in maps:
        perm = list(range(w * stride))
        for c in range(w):
            for r in range(h):
                tc, tr = transform(c, r)
                perm[c * stride + r] = tc * stride + tr
        perms.append(perm)
    return perms


class _SymmetricKey:
    """Key of (cur, opp) as the least of its images under the board's symmetries.

    Each symmetry is a permutation of bits, applied a byte at a time through
    precomputed tables, to ``cur`` and ``opp`` packed into one int.
    """

    def __init__(self, grid: Grid) -> None:
        self.shift = grid.width * grid.stride
        total_bits = 2 * self.shift
        chunks = (total_bits + 7) // 8
        self.tables: list[list[list[int]]] = []
        for perm in _square_symmetries(grid):
            full = perm + [p + self.shift for p in perm]
            per_chunk = []
            for j in range(chunks):
                table = []
                for byte in range(256):
                    out = 0
                    for bit in range(8):
                        index = 8 * j + bit
                        if byte >> bit & 1 and index < total_bits:
                            out |= 1 << full[index]
                    table.append(out)
                per_chunk.append(table)
            self.tables.append(per_chunk)

    def __call__(self, cur: int, opp: int) -> int:
        packed = cur | (opp << self.shift)
        best = packed
        for per_chunk in self.tables[1:]:
            image = 0
            rest = packed
            for table in per_chunk:
                image |= table[rest & 255]
                rest >>= 8
            if image < best:
                best = image
        return best


MIRROR_MAX_STONES = 12
"""Connect Four keys are mirror-reduced only up to this many stones: later, mirror
images almost never meet in one search, and the transform cost 13% of the time."""


class _MirrorGravityKey:
    """Connect Four's key, ``cur + occupied`` (unique thanks to the spare bit), made
    symmetric under left-right mirroring (which swaps whole columns) in the opening.

    Keys stay unique: a position's key is its own or its mirror's, and a mirror
    image has the same number of stones, so it never meets a plain key.
    """

    def __init__(self, grid: Grid) -> None:
        self.stride = grid.stride
        self.width = grid.width
        self.group = (1 << grid.stride) - 1

    def __call__(self, cur: int, opp: int) -> int:
        occupied = cur | opp
        key = cur + occupied
        if occupied.bit_count() > MIRROR_MAX_STONES:
            return key
        stride, group, last = self.stride, self.group, self.width - 1
        mirrored = 0
        for c in range(self.width):
            mirrored |= ((key >> (c * stride)) & group) << ((last - c) * stride)
        return key if key <= mirrored else mirrored


@dataclass(frozen=True, eq=False)
class SearchKernel:
    """The search's view of one game. Build with :func:`kernel_for`."""

    game: GridGame
    grid: Grid
    cells: int
    half: int
    """Most stones one player can place: ``ceil(cells / 2)``; scores count down from it."""
    board: int
    gravity: bool
    winning_cells: WinningCells
    key: Callable[[int, int], int]
    static_order: tuple[int, ...]
    """Centre-first: columns (gravity) or cells; earlier is tried first on ties."""
    rank: dict[int, int]
    """Cell or column mask to its place in ``static_order``."""
    neighbourhood_only: bool

    def playable(self, occupied: int) -> int:
        """Cells a stone may go to next."""
        if self.gravity:
            return (occupied + self.grid.bottom_mask) & self.board
        return self.board & ~occupied

    def safe_moves(self, occupied: int, opp_wins: int) -> int:
        """The moves after which the opponent cannot win at once; 0 if there are none.

        ``opp_wins`` are the cells where the opponent would complete a line. One of
        them playable forces the block; two lose whatever we do. On gravity boards
        the cell under an opponent's winning cell is never filled either.
        """
        playable = self.playable(occupied)
        forced = playable & opp_wins
        if forced & (forced - 1):
            return 0
        moves = forced or playable
        if self.gravity:
            moves &= ~(opp_wins >> 1)
        return moves

    def candidates(self, moves: int, occupied: int) -> list[int]:
        """The single-bit moves of ``moves`` worth trying, centre first."""
        if self.gravity:
            return [moves & column for column in self.static_order if moves & column]
        if self.neighbourhood_only and occupied:
            near = moves & self.grid.neighbourhood(occupied, 2)
            if near:
                rank = self.rank
                return sorted(iter_bits(near), key=rank.__getitem__)
        return [cell for cell in self.static_order if moves & cell]


_KERNELS: dict[str, SearchKernel] = {}


def kernel_for(game: GridGame) -> SearchKernel:
    """The (cached) search kernel of ``game``."""
    kernel = _KERNELS.get(game.name)
    if kernel is None:
        kernel = _KERNELS[game.name] = _build_kernel(game)
    return kernel


def _plain_key(shift: int) -> Callable[[int, int], int]:
    def key(cur: int, opp: int) -> int:
        return cur | (opp << shift)

    return key


def _build_kernel(game: GridGame) -> SearchKernel:
    grid = game.grid
    key: Callable[[int, int], int]
    if game.gravity:
        order = _columns_centre_first(grid)
        key = _MirrorGravityKey(grid)
    else:
        order = _cells_centre_first(grid)
        if grid.cells <= SYMMETRY_MAX_CELLS:
            key = _SymmetricKey(grid)
        else:
            key = _plain_key(grid.width * grid.stride)
    return SearchKernel(
        game=game,
        grid=grid,
        cells=grid.cells,
        half=(grid.cells + 1) // 2,
        board=grid.board_mask,
        gravity=game.gravity,
        winning_cells=compile_winning_cells(grid, gravity=game.gravity),
        key=key,
        static_order=tuple(order),
        rank={bit: i for i, bit in enumerate(order)},
        neighbourhood_only=not game.gravity and grid.cells >= NEIGHBOURHOOD_MIN_CELLS,
    )
