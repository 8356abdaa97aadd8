"""The exact solver's node function, compiled:
:func:`boardroom.shared.engine.negamax.Searcher.negamax` in exact mode, with numba, on uint64
bitboards and a numpy transposition table.

One algorithm, two builds. :mod:`boardroom.shared.engine.negamax` is the readable reference;
:class:`NativeSearcher` is a :class:`~boardroom.shared.engine.negamax.Searcher` whose
``negamax`` runs :func:`_negamax` below instead, so the null-window driver
(``solve``), ``score_move`` and the root logic of :mod:`boardroom.shared.engine.search` are
the same code for both. Step for step (the numbers of negamax.py's docstring):

========================================  ==============================================
``Searcher.negamax`` (pure)               :func:`_negamax` (compiled)
========================================  ==============================================
``kernel.safe_moves`` (2. forced moves)   :func:`_safe_moves`
``kernel.winning_cells``                  :func:`_winning_cells` (Connect Four: constant
                                          shifts, :func:`_winning_cells_c4`)
Connect Four at 12 stones: the opening     :func:`_database_score`, on the database
database's value (``database.lookup``)    packed into ``consts`` (:data:`C_DB_COUNT`)
stone-clock bounds (3.)                   the same lines
``kernel.key`` (mirror / symmetric /      :func:`_key`: the same equivalence classes
plain), ``self.table`` dict               (two words, so no key needs packing);
                                          :func:`_probe`, an open-addressed numpy table
threat count, table move first (5.)       insertion sort, stable, on per-ply rows
``SearchInterrupted`` from the node       a stop flag set at the same node; the caller
                                          raises, nothing is stored on the way out
========================================  ==============================================

Only exact search is compiled (the ``depth`` argument must be the exact depth):
depth-limited search needs the heuristic evaluation and history, and stays pure.
With no limits both builds visit exactly the same nodes (the tests compare counts),
with one difference past the sizes the tests use: where the pure table is a dict
cleared at :data:`~boardroom.shared.engine.negamax.TABLE_MAX_ENTRIES`, this one has a fixed
size and, when the few slots a key may use are taken, overwrites one.

Supported: every board whose bitboard fits 64 bits with its spare row (``width *
(height + 1) <= 64``: tic-tac-toe 3x3 and 4x4, Connect Four, m,n,k boards up to
about 8x7) and that is searched on every cell (under 50 cells). Gomoku's 15x15
board needs 240 bits: it keeps the pure search (:func:`supports` says which).

Deadlines: compiled code cannot read the clock cheaply, so it takes a node cap
and stops at the first node past it (checked every ``CHECK_EVERY`` nodes, as the
pure search checks its limits). :meth:`NativeSearcher.negamax` cuts a search with
a deadline into slices of about :data:`SLICE_SECONDS` of nodes at the measured
speed and, between slices, reads the clock; a slice that stopped is resumed by
searching the same node again, which the table makes cheap (finished subtrees
are cut at once).

Compile time: numba compiles on first use (several seconds) and caches the machine
code on disk. The cache goes to ``$NUMBA_CACHE_DIR`` or, when that is unset (the
package directory may be read-only), ``~/.cache/boardroom/numba``
(``$XDG_CACHE_HOME`` respected); :func:`warm_up` compiles or loads it ahead of
searches and says how long that took.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from dataclasses import dataclass

import numpy as np

from boardroom.shared.engine import native_kernel as compiled
from boardroom.shared.engine import opening_database as database
from boardroom.shared.engine.kernel import (
    SYMMETRY_MAX_CELLS,
    SearchKernel,
    _square_symmetries,
    kernel_for,
)
from boardroom.shared.engine.native_kernel import (
    C_DB_COUNT,
    C_DB_KEYS,
    C_DB_SCORES,
    C_ORDER,
    C_PERMS,
    KEY_MIRROR,
    KEY_PLAIN,
    KEY_SYMMETRIC,
    S_CAP,
    S_GEN,
    S_NODES,
    S_STOP,
    SCRATCH_ROW,
    SCRATCH_RUNS,
    TABLE_BITS,
)
from boardroom.shared.engine.negamax import CHECK_EVERY, EXACT_DEPTH, Searcher, SearchInterrupted
from boardroom.shared.games import GridGame, get_game

SLICE_SECONDS = 0.02
"""Search between two looks at the clock under a deadline: about the pure search's
granularity in time, at a hundred times the nodes."""
FIRST_RATE = 1_000_000.0
"""Nodes per second assumed before one search has been measured: low, so that a
first slice stays short."""

# -- the Python side ---------------------------------------------------------------

BOARD_BITS = 64


def supports(kernel: SearchKernel) -> bool:
    """True if the native solver can search ``kernel``'s game (see the module docstring)."""
    grid = kernel.grid
    return grid.width * grid.stride <= BOARD_BITS and not kernel.neighbourhood_only


_CONSTS: dict[tuple[str, int], np.ndarray] = {}


def _consts(kernel: SearchKernel, *, with_database: bool = False) -> np.ndarray:
    """The ``consts`` array of ``kernel``'s game (see the layouts in
    :mod:`boardroom.shared.engine.native_kernel`); ``with_database`` appends Connect Four's
    opening database when it can be read (else the array has none, and the
    search goes on through 12 stones)."""
    opening = database.opening_database() if with_database else None
    name = (kernel.game.name, id(opening) if opening is not None else 0)
    cached = _CONSTS.get(name)
    if cached is not None:
        return cached
    if not supports(kernel):
        raise ValueError(f"the native solver does not play {kernel.game.name}")
    grid = kernel.grid
    perms: list[list[int]] = []
    if kernel.gravity:
        mode = KEY_MIRROR
    elif grid.cells <= SYMMETRY_MAX_CELLS:
        mode, perms = KEY_SYMMETRIC, _square_symmetries(grid)
    else:
        mode = KEY_PLAIN
    size = C_PERMS + 64 * max(len(perms), 1)
    consts = np.zeros(size, dtype=np.uint64)
    connect4 = kernel.gravity and (grid.width, grid.height, grid.k) == (7, 6, 4)
    head = [grid.width, grid.height, grid.k, grid.stride, int(kernel.gravity), grid.cells]
    head += [kernel.half, mode, int(connect4), kernel.board, grid.bottom_mask]
    head += [len(kernel.static_order), len(perms)]
    consts[: len(head)] = head
    consts[C_ORDER : C_ORDER + len(kernel.static_order)] = kernel.static_order
    for s, perm in enumerate(perms):
        consts[C_PERMS + 64 * s : C_PERMS + 64 * s + len(perm)] = perm
    if opening is not None:
        consts = _with_database(consts, opening)
    _CONSTS[name] = consts
    return consts


def _with_database(consts: np.ndarray, opening: database.OpeningDatabase) -> np.ndarray:
    """``consts`` with the database packed after it (the layout of ``C_DB_COUNT``):
    its arrays' bytes copied as they are, which on a little-endian machine put
    key ``i`` in the low half of its word for even ``i`` (elsewhere the search
    goes on without the database rather than read it wrong)."""
    if sys.byteorder != "little":
        return consts
    count = len(opening)
    key_words = (count + 1) // 2
    score_words = (count + 7) // 8
    out = np.zeros(len(consts) + key_words + score_words, dtype=np.uint64)
    out[: len(consts)] = consts
    keys_at = len(consts)
    scores_at = keys_at + key_words
    out[keys_at:scores_at].view(np.int32)[:count] = opening.keys
    out[scores_at:].view(np.int8)[:count] = opening.scores
    out[C_DB_COUNT] = count
    out[C_DB_KEYS] = keys_at
    out[C_DB_SCORES] = scores_at
    return out


class _Table:
    """The process's one transposition table. Each search takes a new generation,
    which empties it at no cost; a searcher that outlives the next one's start
    finds its entries gone (only slower, never wrong: keys are checked whole)."""

    def __init__(self) -> None:
        self.slots = np.zeros((1 << TABLE_BITS, 3), dtype=np.uint64)
        self.scratch = np.zeros((SCRATCH_RUNS + 1, SCRATCH_ROW), dtype=np.uint64)
        self.generation = 0

    def new_generation(self) -> int:
        self.generation += 1
        if self.generation >= 1 << 32:
            self.slots[:, 2] = 0
            self.generation = 1
        return self.generation


_table: _Table | None = None
_rate = FIRST_RATE


def _the_table() -> _Table:
    global _table
    if _table is None:
        _table = _Table()
    return _table


class NativeSearcher(Searcher):
    """A :class:`~boardroom.shared.engine.negamax.Searcher` for exact solves whose node function
    is compiled. Same constructor, same limits (``deadline``, ``max_nodes``, raising
    :class:`~boardroom.shared.engine.negamax.SearchInterrupted`); ``depth`` must be exact.
    Build only for games :func:`supports`. Uses the process's one table: at most one
    live searcher per process is fast (see :class:`_Table`)."""

    def __init__(
        self,
        kernel: SearchKernel,
        *,
        deadline: float | None = None,
        max_nodes: int | None = None,
        opening_database: bool = True,
    ) -> None:
        super().__init__(
            kernel, deadline=deadline, max_nodes=max_nodes, opening_database=opening_database
        )
        self._consts = _consts(kernel)
        # The database is fetched by the first search from 12 stones or fewer: a
        # process that only solves later positions never reads it.
        self._database_wanted = self.uses_database
        self._table = _the_table()
        self._state = np.zeros(4, dtype=np.int64)
        self._state[S_GEN] = self._table.new_generation()

    def negamax(
        self, cur: int, opp: int, opp_wins: int, ply: int, alpha: int, beta: int, depth: int
    ) -> int:
        """:meth:`Searcher.negamax` at exact depth, compiled; interruptible between slices."""
        global _rate
        if depth < EXACT_DEPTH // 2:
            raise ValueError("the native solver searches to the end of the game only")
        if self._database_wanted and ply <= database.PLIES:
            self._consts = _consts(self.kernel, with_database=True)
            self._database_wanted = False
        consts, table, state = self._consts, self._table, self._state
        while True:
            state[S_NODES] = self.nodes
            state[S_STOP] = 0
            state[S_CAP] = self._slice_cap()
            began = time.perf_counter()
            score = compiled.negamax(
                np.uint64(cur), np.uint64(opp), np.uint64(opp_wins),
                np.int64(ply), np.int64(alpha), np.int64(beta),
                consts, table.slots, table.scratch, state,
            )  # fmt: skip
            spent = time.perf_counter() - began
            done = int(state[S_NODES]) - self.nodes
            self.nodes = int(state[S_NODES])
            if done >= 10_000 and spent > 0:
                _rate = done / spent
            if not state[S_STOP]:
                return int(score)
            self._check_limits()  # raises once the clock or the budget is spent

    def _slice_cap(self) -> int:
        """The node count at which the next compiled call stops."""
        cap = 1 << 62
        if self.max_nodes is not None:
            cap = self.max_nodes
        if self.deadline is not None:
            left = max(self.deadline - time.perf_counter(), 0.0)
            step = max(int(_rate * min(left, SLICE_SECONDS)), CHECK_EVERY)
            cap = min(cap, self.nodes + step)
        return cap

    def table_move(self, cur: int, opp: int) -> int:
        bit = compiled.table_move(
            np.uint64(cur), np.uint64(opp), self._consts, self._table.slots,
            np.int64(self._state[S_GEN]),
        )  # fmt: skip
        return int(bit)


# -- warm-up -----------------------------------------------------------------------


def prepare_opening_database() -> str:
    """Read Connect Four's opening database and pack it for the compiled solver now
    rather than on the first solve that needs it; say how long that took, or why
    there is none (cached: later calls cost nothing and say the same)."""
    global _database_ready
    if _database_ready is None:
        began = time.perf_counter()
        game = get_game("connect4")
        assert isinstance(game, GridGame)
        if database.opening_database() is None:
            _database_ready = "no opening database (see the log)"
        else:
            _consts(kernel_for(game), with_database=True)
            seconds = time.perf_counter() - began
            _database_ready = f"Connect Four opening database read in {seconds:.2f} s"
    return _database_ready


_database_ready: str | None = None


@dataclass(frozen=True, slots=True)
class WarmUp:
    """How the compiled solver got ready in this process: ``seconds`` of import,
    compile or cache load and a first tiny solve; ``compiled`` is True if numba had
    to compile (nothing usable in the cache), False if it loaded machine code."""

    seconds: float
    compiled: bool
    cache_dir: str

    def __str__(self) -> str:
        how = "compiled (nothing cached yet)" if self.compiled else "loaded from cache"
        return f"native solver {how} in {self.seconds:.2f} s ({self.cache_dir})"


_warm: WarmUp | None = None


def warm_up(kernel: SearchKernel, *, started: float | None = None) -> WarmUp:
    """Make the compiled solver ready (compile or load it, allocate the table) with a
    small solve on ``kernel``'s game; the first call measures, later ones return
    the first measure. ``started`` is when the import began, if the caller timed it."""
    global _warm
    if _warm is not None:
        return _warm
    began = time.perf_counter() if started is None else started
    searcher = NativeSearcher(kernel)
    game = kernel.game
    position = game.new()
    ply = position.ply
    cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
    # A null-window probe of a full board's worth of moves would be slow; one from
    # a few stones down is enough to run (and so compile) every function.
    opp_wins = kernel.winning_cells(opp, kernel.board & ~(cur | opp))
    searcher.max_nodes = 50_000
    with contextlib.suppress(SearchInterrupted):
        searcher.negamax(cur, opp, opp_wins, ply, -1, 1, EXACT_DEPTH)
    searcher.table_move(cur, opp)
    functions = (compiled.negamax, compiled.table_move)
    was_compiled = any(function.stats.cache_misses for function in functions)
    _warm = WarmUp(time.perf_counter() - began, was_compiled, os.environ["NUMBA_CACHE_DIR"])
    return _warm
