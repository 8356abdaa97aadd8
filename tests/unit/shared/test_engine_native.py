"""The compiled exact solver against the pure one it mirrors
(:mod:`boardroom.shared.engine.native`).

Oracles: the Connect Four test sets (exact scores), the pure
:class:`~boardroom.shared.engine.negamax.Searcher` (same algorithm, so the same score *and*
the same number of nodes on every position these tests use), and the rules.
The compiled code is loaded once per session (``tests/conftest.py``).
"""

from __future__ import annotations

import random
import time

import pytest
from repo_paths import REPO_ROOT

from boardroom.shared.engine import opening_database, search, solve_move, solvers
from boardroom.shared.engine.kernel import SearchKernel, kernel_for
from boardroom.shared.engine.native import NativeSearcher, supports
from boardroom.shared.engine.negamax import EXACT_DEPTH, Searcher, SearchInterrupted
from boardroom.shared.games import GridGame, Position, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

DATA = REPO_ROOT / "data" / "connect4"
FIRST_LINES = {"Test_L3_R1": 40, "Test_L2_R1": 40, "Test_L2_R2": 6}
"""The first lines of each set; the pure solver takes up to about 0.3 s on each of
the middle-medium ones, which is what bounds this sample."""


def kernel_of(name: str) -> SearchKernel:
    game = get_game(name)
    assert isinstance(game, GridGame)
    return kernel_for(game)


def solved(build: type[Searcher], kernel: SearchKernel, position: Position) -> tuple[int, int]:
    """(stone score, nodes) of a position where the side to move has no win at once."""
    ply = position.ply
    cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
    half = kernel.half
    searcher = build(kernel)
    score = searcher.solve(cur, opp, ply, low=-(half - (ply + 1) // 2), high=half - (ply + 2) // 2)
    return score, searcher.nodes


def no_win_now(kernel: SearchKernel, position: Position) -> bool:
    ply = position.ply
    cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
    occupied = cur | opp
    return not kernel.winning_cells(cur, kernel.board & ~occupied) & kernel.playable(occupied)


def first_lines() -> list[tuple[str, str, int]]:
    """The first lines of each set whose side to move cannot win at once: the
    others are scored without a search (the solver's own precondition)."""
    kernel = kernel_of("connect4")
    rows = []
    for name, count in FIRST_LINES.items():
        lines = [line.split() for line in (DATA / name).read_text().splitlines() if line.strip()]
        rows += [
            (name, moves, int(score))
            for moves, score in lines[:count]
            if no_win_now(kernel, kernel.game.from_moves(moves))
        ]
    return rows


@pytest.mark.parametrize(("test_set", "moves", "score"), first_lines())
def test_native_solver_gives_the_published_score_in_the_same_nodes_as_the_pure_one(
    test_set: str, moves: str, score: int
) -> None:
    """On the first lines of each Connect Four set, the compiled solver's score is the
    set's, and it searched exactly as many nodes as the pure solver."""
    kernel = kernel_of("connect4")
    position = kernel.game.from_moves(moves)
    native = solved(NativeSearcher, kernel, position)
    assert native[0] == score
    assert native == solved(Searcher, kernel, position)


@pytest.mark.parametrize(
    ("name", "plies"),
    [
        ("tictactoe", range(0, 6)),
        ("tictactoe4", range(2, 10)),
        ("mnk-5-4-3", range(4, 10)),
        ("mnk-4-5-4", range(4, 12)),
        ("connect4", range(18, 30)),
    ],
)
def test_native_solver_matches_the_pure_one_on_random_positions(name: str, plies: range) -> None:
    """Same score and same node count on random positions of every supported board
    (symmetric keys on the small squares, plain ones on 4x5, Connect Four's mirror)."""
    kernel = kernel_of(name)
    game = kernel.game
    rng = random.Random(f"native {name}")
    checked = 0
    while checked < 12:
        position = game.new()
        for _ in range(rng.choice(plies)):
            if game.outcome(position).is_over:
                break
            position = game.play_unchecked(position, rng.choice(game.legal_moves(position)))
        if game.outcome(position).is_over or not no_win_now(kernel, position):
            continue
        assert solved(NativeSearcher, kernel, position) == solved(Searcher, kernel, position)
        checked += 1


def test_a_node_budget_interrupts_both_solvers_at_the_same_node() -> None:
    """With ``max_nodes``, the empty Connect Four board (far too big to solve without
    the opening database) stops both builds with SearchInterrupted, at the first
    check past the budget."""
    kernel = kernel_of("connect4")
    counts = []
    for build in (NativeSearcher, Searcher):
        searcher = build(kernel, max_nodes=20_000, opening_database=False)
        with pytest.raises(SearchInterrupted):
            searcher.solve(0, 0, 0, low=-21, high=21)
        counts.append(searcher.nodes)
    assert counts[0] == counts[1]
    assert 20_000 < counts[0] <= 20_000 + 256


def test_a_deadline_interrupts_the_native_solver_between_slices() -> None:
    """A deadline already near stops a solve that would take minutes (the empty
    board without the opening database), by raising SearchInterrupted, like the
    pure search's clock checks."""
    kernel = kernel_of("connect4")
    searcher = NativeSearcher(kernel, deadline=time.perf_counter() + 0.05, opening_database=False)
    with pytest.raises(SearchInterrupted):
        searcher.solve(0, 0, 0, low=-21, high=21)
    assert searcher.nodes > 0


def test_an_interrupted_native_solve_leaves_a_usable_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """``search`` with a clock too short for the solve falls back on deepening and
    still plays a legal move, as it does with the pure solver (the opening
    database off, or the solve would fit)."""
    monkeypatch.setenv(opening_database.DATABASE_ENV, "off")
    game = get_game("connect4")
    position = game.from_moves("4444")  # 38 cells left: no solve fits 0.1 s
    kernel = kernel_of("connect4")
    searcher = NativeSearcher(kernel, max_nodes=1000, opening_database=False)
    with pytest.raises(SearchInterrupted):
        searcher.solve(position.stones[0], position.stones[1], 4, low=-20, high=20)
    result = search(game, game.from_moves("44444"), time_limit=0.1)
    assert result.move in game.legal_moves(game.from_moves("44444"))


def test_native_solver_refuses_depth_limited_search() -> None:
    """Only exact search is compiled: a depth-limited call is an error, not a wrong answer."""
    searcher = NativeSearcher(kernel_of("connect4"))
    with pytest.raises(ValueError, match="end of the game"):
        searcher.negamax(0, 0, 0, 0, -1, 1, EXACT_DEPTH // 4)


def test_boards_past_64_bits_keep_the_pure_solver() -> None:
    """Gomoku's 15x15 board does not fit a 64-bit word: it is not supported natively,
    and the engine gives it the pure solver."""
    gomoku = kernel_of("gomoku")
    assert not supports(gomoku)
    assert type(solvers.exact_searcher(gomoku)) is Searcher
    assert type(solvers.exact_searcher(kernel_of("connect4"))) is NativeSearcher


def test_boardroom_engine_python_forces_the_pure_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """``BOARDROOM_ENGINE=python`` gives the pure solver for every game, and the
    engine's answers (move, score, nodes, line) are the same as with the native one."""
    game = get_game("connect4")
    position = game.from_moves("5554224333234511764415115")  # Test_L2_R1, line 1
    native = solve_move(game, position)
    monkeypatch.setenv(solvers.ENGINE_ENV, "python")
    kernel = kernel_of("connect4")
    assert solvers.backend(kernel) == "python"
    assert type(solvers.exact_searcher(kernel)) is Searcher
    pure = solve_move(game, position)
    assert (pure.move, pure.score, pure.nodes, pure.pv) == (
        native.move,
        native.score,
        native.nodes,
        native.pv,
    )
