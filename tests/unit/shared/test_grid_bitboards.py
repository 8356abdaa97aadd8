"""The bitboard line arithmetic of :class:`boardroom.shared.games.grid.Grid`, checked against
plain coordinate oracles, and the compiled ``winning_cells`` of the search kernel,
checked against :meth:`Grid.winning_cells`.

The oracles below never shift a bit: they turn bitboards into sets of
``(column, row)`` cells and walk the board cell by cell. Only ``Grid.cell`` is
trusted, to translate between the two worlds.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardroom.shared.engine.kernel import compile_winning_cells
from boardroom.shared.games.grid import Grid, iter_bits

Cell = tuple[int, int]

# Kept small so that the whole file runs in a few seconds; raise locally to soak.
EXAMPLES = settings(max_examples=60, deadline=None, database=None)

DIRECTIONS: tuple[Cell, ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
"""Up, right, up-right, down-right: the order of ``Grid.directions``."""

GRIDS = [
    pytest.param(Grid(3, 3, 3), id="3x3k3"),
    pytest.param(Grid(4, 4, 4), id="4x4k4"),
    pytest.param(Grid(7, 6, 4), id="7x6k4"),
    pytest.param(Grid(15, 15, 5), id="15x15k5"),
    pytest.param(Grid(5, 4, 3), id="5x4k3"),
    pytest.param(Grid(3, 5, 3), id="3x5k3"),
]
GRAVITY_GRIDS = [
    pytest.param(Grid(7, 6, 4), id="7x6k4"),
    pytest.param(Grid(5, 4, 3), id="5x4k3"),
]


# -- coordinate oracles -------------------------------------------------------------


def board_cells(grid: Grid) -> list[Cell]:
    return [(c, r) for c in range(grid.width) for r in range(grid.height)]


def on_board(grid: Grid, cell: Cell) -> bool:
    return 0 <= cell[0] < grid.width and 0 <= cell[1] < grid.height


def to_bits(grid: Grid, cells: frozenset[Cell] | set[Cell]) -> int:
    bits = 0
    for column, row in cells:
        bits |= grid.cell(column, row)
    return bits


def to_cells(grid: Grid, bits: int) -> set[Cell]:
    return {cell for cell in board_cells(grid) if bits & grid.cell(*cell)}


def windows(grid: Grid) -> Iterator[tuple[int, list[Cell]]]:
    """Every run of ``k`` on-board cells: (direction index, cells from its start)."""
    for index, (dc, dr) in enumerate(DIRECTIONS):
        for column, row in board_cells(grid):
            cells = [(column + i * dc, row + i * dr) for i in range(grid.k)]
            if all(on_board(grid, cell) for cell in cells):
                yield index, cells


@functools.cache
def all_windows(grid: Grid) -> list[list[Cell]]:
    return [cells for _, cells in windows(grid)]


def brute_line_starts(grid: Grid, stones: set[Cell]) -> list[set[Cell]]:
    starts: list[set[Cell]] = [set(), set(), set(), set()]
    for index, cells in windows(grid):
        if all(cell in stones for cell in cells):
            starts[index].add(cells[0])
    return starts


def brute_has_line(grid: Grid, stones: set[Cell]) -> bool:
    return any(
        all((column + i * dc, row + i * dr) in stones for i in range(grid.k))
        for column, row in stones
        for dc, dr in DIRECTIONS
    )


def brute_winning_cells(grid: Grid, stones: set[Cell], empty: set[Cell]) -> set[Cell]:
    """Empty cells that would complete some window whose other cells are all stones."""
    found = set()
    for _, cells in windows(grid):
        missing = [cell for cell in cells if cell not in stones]
        if len(missing) == 1 and missing[0] in empty:
            found.add(missing[0])
    return found


def brute_window_counts(grid: Grid, own: set[Cell], other: set[Cell]) -> list[int]:
    counts = [0] * (grid.k + 1)
    for _, cells in windows(grid):
        if not any(cell in other for cell in cells):
            counts[sum(cell in own for cell in cells)] += 1
    return counts


def brute_neighbourhood(grid: Grid, stones: set[Cell], radius: int) -> set[Cell]:
    return {
        (c, r)
        for c, r in board_cells(grid)
        if any(max(abs(c - sc), abs(r - sr)) <= radius for sc, sr in stones)
    }


def floating_stones(grid: Grid, occupied: set[Cell]) -> set[Cell]:
    """Stones with an empty cell somewhere below them in their column."""
    return {(c, r) for c, r in occupied if any((c, below) not in occupied for below in range(r))}


# -- strategies ---------------------------------------------------------------------


@st.composite
def cell_sets(draw: st.DrawFn, grid: Grid) -> frozenset[Cell]:
    """Cells of ``grid`` at a density of 1/2, 1/4 or 1/8 (plus whatever hypothesis tries)."""
    cells = board_cells(grid)
    mask = -1
    for _ in range(draw(st.integers(1, 3))):
        mask &= draw(st.integers(0, (1 << len(cells)) - 1))
    return frozenset(cell for i, cell in enumerate(cells) if mask >> i & 1)


@st.composite
def near_lines(draw: st.DrawFn, grid: Grid) -> frozenset[Cell]:
    """Stones one move short of lines: a few windows each missing one cell, plus noise."""
    stones = set(draw(cell_sets(grid))) if draw(st.booleans()) else set()
    for _ in range(draw(st.integers(1, 4))):
        cells = draw(st.sampled_from(all_windows(grid)))
        gap = draw(st.integers(0, grid.k - 1))
        stones |= set(cells) - {cells[gap]}
    return frozenset(stones)


def stone_sets(grid: Grid) -> st.SearchStrategy[frozenset[Cell]]:
    return st.one_of(cell_sets(grid), near_lines(grid))


@st.composite
def two_players(draw: st.DrawFn, grid: Grid) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """Disjoint stone sets (own, other) on ``grid``."""
    own = draw(stone_sets(grid))
    return own, draw(cell_sets(grid)) - own


@st.composite
def gravity_positions(draw: st.DrawFn, grid: Grid) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """Disjoint stone sets (own, other) stacked from the bottom of each column."""
    heights = draw(st.lists(st.integers(0, grid.height), min_size=grid.width, max_size=grid.width))
    occupied = frozenset((c, r) for c, height in enumerate(heights) for r in range(height))
    own = occupied & draw(stone_sets(grid))
    return own, occupied - own


# -- geometry -----------------------------------------------------------------------


@pytest.mark.parametrize("grid", GRIDS)
def test_every_cell_maps_to_its_own_bit_and_back(grid: Grid) -> None:
    """``cell`` gives a distinct bit per cell, ``column_row`` inverts it, and the masks agree."""
    bits = [grid.cell(c, r) for c, r in board_cells(grid)]
    assert len(set(bits)) == grid.cells == grid.width * grid.height
    assert all(bit.bit_count() == 1 for bit in bits)
    assert [grid.column_row(bit) for bit in bits] == board_cells(grid)
    assert grid.board_mask == sum(bits)
    assert grid.bottom_mask == to_bits(grid, {(c, 0) for c in range(grid.width)})
    for column, mask in enumerate(grid.column_masks):
        assert mask == to_bits(grid, {(column, r) for r in range(grid.height)})


def test_iter_bits_yields_single_bits_lowest_first() -> None:
    """``iter_bits`` splits an int into its set bits, in increasing order."""
    assert list(iter_bits(0)) == []
    assert list(iter_bits(0b1011_0000_0001)) == [1, 1 << 8, 1 << 9, 1 << 11]
    assert sum(iter_bits(2**300 - 1)) == 2**300 - 1


# -- lines --------------------------------------------------------------------------


@pytest.mark.parametrize("grid", GRIDS)
@EXAMPLES
@given(data=st.data())
def test_has_line_agrees_with_a_cell_by_cell_search(grid: Grid, data: st.DataObject) -> None:
    """``has_line`` is true exactly when some k on-board cells in a row are all stones."""
    stones = data.draw(stone_sets(grid))
    assert grid.has_line(to_bits(grid, stones)) == brute_has_line(grid, set(stones))


@pytest.mark.parametrize("grid", GRIDS)
@EXAMPLES
@given(data=st.data())
def test_line_starts_are_the_first_cells_of_every_line_per_direction(
    grid: Grid, data: st.DataObject
) -> None:
    """``line_starts`` marks, per direction (up, right, up-right, down-right), each line's start."""
    stones = data.draw(stone_sets(grid))
    starts = grid.line_starts(to_bits(grid, stones))
    assert [to_cells(grid, bits) for bits in starts] == brute_line_starts(grid, set(stones))


@pytest.mark.parametrize("grid", GRIDS)
def test_every_single_line_on_the_board_is_found(grid: Grid) -> None:
    """Each k-window of the board, alone on an empty board, is a line; one cell less is not."""
    for index, cells in windows(grid):
        line = to_bits(grid, set(cells))
        assert grid.has_line(line), cells
        assert to_cells(grid, grid.line_starts(line)[index]) == {cells[0]}
        for missing in cells:
            assert not grid.has_line(line & ~grid.cell(*missing)), (cells, missing)


@pytest.mark.parametrize("grid", GRIDS)
def test_lines_do_not_wrap_across_board_edges(grid: Grid) -> None:
    """Runs that leave one edge and come back on the other side are not lines.

    Each shape is k cells that would be consecutive in a row-major or column-major
    numbering of the board, or on a diagonal taken modulo the board's sides.
    """
    w, h, k = grid.width, grid.height, grid.k
    row_major = [(i % w, i // w) for i in range(w * h)]
    column_major = [(i // h, i % h) for i in range(w * h)]
    shapes = []
    for order in (row_major, column_major):
        shapes += [order[i : i + k] for i in range(len(order) - k + 1)]
    for column, row in board_cells(grid):
        shapes.append([((column + i) % w, (row + i) % h) for i in range(k)])
        shapes.append([((column + i) % w, (row - i) % h) for i in range(k)])
    wrapping = [set(shape) for shape in shapes if not brute_has_line(grid, set(shape))]
    assert len(wrapping) >= 2 * grid.height  # some shapes do cross an edge
    for stones in wrapping:
        assert not grid.has_line(to_bits(grid, stones)), sorted(stones)


@pytest.mark.parametrize("grid", GRIDS)
@EXAMPLES
@given(data=st.data())
def test_winning_line_is_a_maximal_run_of_stones(grid: Grid, data: st.DataObject) -> None:
    """``winning_line`` gives k or more collinear, consecutive stones, the whole run, or ()."""
    stones = set(data.draw(stone_sets(grid)))
    line = grid.winning_line(to_bits(grid, stones))
    if not brute_has_line(grid, stones):
        assert line == ()
        return
    assert all(bit.bit_count() == 1 for bit in line)
    cells = [grid.column_row(bit) for bit in line]
    assert len(cells) >= grid.k
    assert set(cells) <= stones
    step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
    assert step in DIRECTIONS
    for before, after in itertools.pairwise(cells):
        assert (after[0] - before[0], after[1] - before[1]) == step
    ends = [
        (cells[0][0] - step[0], cells[0][1] - step[1]),
        (cells[-1][0] + step[0], cells[-1][1] + step[1]),
    ]
    assert not any(on_board(grid, end) and end in stones for end in ends)


def test_winning_line_gives_the_whole_overline() -> None:
    """Six in a row on a five-in-a-row board is reported as all six cells."""
    grid = Grid(15, 15, 5)
    run = [(3 + i, 7) for i in range(6)]
    line = grid.winning_line(to_bits(grid, set(run)))
    assert [grid.column_row(bit) for bit in line] == run


# -- winning cells --------------------------------------------------------------------


@pytest.mark.parametrize("grid", GRIDS)
@EXAMPLES
@given(data=st.data())
def test_winning_cells_are_the_empty_cells_that_complete_a_line(
    grid: Grid, data: st.DataObject
) -> None:
    """``Grid.winning_cells`` matches a window-by-window search for one missing stone."""
    own, other = data.draw(two_players(grid))
    empty = set(board_cells(grid)) - own - other
    found = grid.winning_cells(to_bits(grid, own), to_bits(grid, empty))
    assert to_cells(grid, found) == brute_winning_cells(grid, set(own), empty)
    assert found & ~grid.board_mask == 0


@pytest.mark.parametrize("grid", GRIDS)
@EXAMPLES
@given(data=st.data())
def test_compiled_winning_cells_equal_the_generic_ones(grid: Grid, data: st.DataObject) -> None:
    """The kernel's straight-line ``winning_cells`` equals ``Grid.winning_cells`` (no gravity)."""
    compiled = compile_winning_cells(grid, gravity=False)
    own, other = data.draw(two_players(grid))
    stones = to_bits(grid, own)
    empty = grid.board_mask & ~stones & ~to_bits(grid, other)
    assert compiled(stones, empty) == grid.winning_cells(stones, empty)


@pytest.mark.parametrize("grid", GRIDS)
@EXAMPLES
@given(data=st.data())
def test_compiled_winning_cells_equal_the_generic_ones_for_any_empty_mask(
    grid: Grid, data: st.DataObject
) -> None:
    """Without gravity the two agree even when ``empty`` is any subset of the board."""
    compiled = compile_winning_cells(grid, gravity=False)
    stones = to_bits(grid, data.draw(stone_sets(grid)))
    empty = to_bits(grid, data.draw(cell_sets(grid)))
    assert compiled(stones, empty) == grid.winning_cells(stones, empty)


@pytest.mark.parametrize("grid", GRAVITY_GRIDS)
@EXAMPLES
@given(data=st.data())
def test_compiled_gravity_winning_cells_equal_the_generic_ones_on_stacked_boards(
    grid: Grid, data: st.DataObject
) -> None:
    """With gravity the kernel equals ``Grid.winning_cells`` whenever no stone floats."""
    compiled = compile_winning_cells(grid, gravity=True)
    own, other = data.draw(gravity_positions(grid))
    occupied = set(own | other)
    assert not floating_stones(grid, occupied)  # the kernel's precondition
    stones = to_bits(grid, own)
    empty = grid.board_mask & ~to_bits(grid, occupied)
    assert compiled(stones, empty) == grid.winning_cells(stones, empty)
    assert to_cells(grid, compiled(stones, empty)) == brute_winning_cells(
        grid, set(own), to_cells(grid, empty)
    )


def test_winning_cells_agree_with_the_search_on_every_tic_tac_toe_board() -> None:
    """On 3x3, every set of stones: generic, compiled and cell-by-cell answers all agree."""
    grid = Grid(3, 3, 3)
    compiled = compile_winning_cells(grid, gravity=False)
    cells = board_cells(grid)
    for subset in range(1 << len(cells)):
        own = {cell for i, cell in enumerate(cells) if subset >> i & 1}
        stones = to_bits(grid, own)
        empty = grid.board_mask & ~stones
        found = grid.winning_cells(stones, empty)
        assert compiled(stones, empty) == found, sorted(own)
        assert to_cells(grid, found) == brute_winning_cells(grid, own, set(cells) - own)
        assert grid.has_line(stones) == brute_has_line(grid, own), sorted(own)


def test_compiled_gravity_winning_cells_assume_no_floating_stones() -> None:
    """The gravity kernel only looks down a column, so it misses a gap under floating stones.

    This documents why the equality above is only claimed for stacked boards.
    """
    grid = Grid(7, 6, 4)
    stones = to_bits(grid, {(0, 1), (0, 2), (0, 3)})  # a1 empty, a2-a4 floating
    empty = grid.board_mask & ~stones
    assert grid.winning_cells(stones, empty) == grid.cell(0, 0) | grid.cell(0, 4)
    assert compile_winning_cells(grid, gravity=True)(stones, empty) == grid.cell(0, 4)


# -- neighbourhood and windows -----------------------------------------------------------


@pytest.mark.parametrize("grid", GRIDS)
@pytest.mark.parametrize("radius", [0, 1, 2])
@settings(max_examples=25, deadline=None, database=None)
@given(data=st.data())
def test_neighbourhood_is_every_cell_within_king_steps(
    grid: Grid, radius: int, data: st.DataObject
) -> None:
    """``neighbourhood(stones, r)`` is the board cells at most r king steps from a stone."""
    stones = set(data.draw(cell_sets(grid)))
    found = grid.neighbourhood(to_bits(grid, stones), radius)
    assert to_cells(grid, found) == brute_neighbourhood(grid, stones, radius)
    assert found & ~grid.board_mask == 0


@pytest.mark.parametrize("grid", GRIDS)
@EXAMPLES
@given(data=st.data())
def test_window_counts_agree_with_counting_window_by_window(
    grid: Grid, data: st.DataObject
) -> None:
    """For c >= 1, ``window_counts()[c]`` counts the opponent-free windows with c own stones."""
    own, other = data.draw(two_players(grid))
    counts = grid.window_counts(to_bits(grid, own), to_bits(grid, other))
    assert len(counts) == grid.k + 1
    assert counts[1:] == brute_window_counts(grid, set(own), set(other))[1:]


@pytest.mark.parametrize("grid", GRIDS)
def test_window_counts_count_the_empty_windows_too(grid: Grid) -> None:
    """On an empty board every window holds zero stones, so index 0 counts all of them."""
    assert grid.window_counts(0, 0)[0] == sum(1 for _ in windows(grid))
