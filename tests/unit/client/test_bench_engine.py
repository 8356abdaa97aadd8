"""``boardroom bench engine`` on tiny samples: every section prints, answers are right.

The full benchmark takes minutes; here it runs on the first three positions of
each Connect Four set and gives the peer one position per set and half a second.
"""

from __future__ import annotations

import os

import pytest

from boardroom.client.bench.early_set import NAME as EARLY_NAME
from boardroom.client.bench.early_set import PATH as EARLY_PATH
from boardroom.client.bench.early_set import STONES, early_moves
from boardroom.client.bench.engine import bench_peer, main
from boardroom.client.bench.engine_bitbully import EARLY_SET, bench_bitbully
from boardroom.client.bench.engine_run import (
    TEST_SETS,
    Run,
    format_lines,
    read_test_set,
    solve_connect4,
)
from boardroom.shared.engine import solve
from boardroom.shared.engine.kernel import kernel_for
from boardroom.shared.games import GridGame, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver


@pytest.mark.e2e  # the whole benchmark program, every section: seconds
def test_bench_engine_prints_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny run prints the conditions, the four sections, PASS/FAIL marks and a
    summary. Section 3b's fresh process loads the compiled solver from the
    session's numba cache, warm (compiled_solver_ready), as a server's new worker
    does; a cold compile there would cost the suite about 20 s for one line."""
    warm_cache = os.environ["NUMBA_CACHE_DIR"]  # set by the engine, which the fixture loaded
    status = main(
        sample=3, peer_sample=1, peer_budget=0.5, pure_sample=2, early=2, numba_cache=warm_cache
    )
    out = capsys.readouterr().out
    assert status == 0, out
    for text in (
        "python",
        "cores",
        "cpu",
        "1. tic-tac-toe, empty board",
        "549,946",
        "2. 4x4 four-in-a-row",
        "3. Connect Four, standard test sets",
        "3b. compiled (numba) vs pure-Python",
        f"first compile: not measured (numba's cache given: {warm_cache})",
        "cached load, fresh process, that cache:    native solver loaded from cache",
        "Test_L3_R1 end-easy",
        "Test_L2_R1 middle-easy",
        "Test_L2_R2 middle-medium",
        "4. peer: easyAI",
        "5. peer: bitbully",
        "bitbully + book",
        "Early_13_16 early",
        "summary",
        "every answer of the engine was right",
    ):
        assert text in out, f"{text!r} missing from:\n{out}"
    assert "PASS" in out
    assert "WRONG" not in out


def test_bench_rejects_an_empty_sample(capsys: pytest.CaptureFixture[str]) -> None:
    """--sample 0 is refused before anything runs."""
    assert main(sample=0, peer_sample=1) == 2
    assert "--sample" in capsys.readouterr().out


def test_bench_solver_agrees_with_engine_solve_and_the_test_sets() -> None:
    """The benchmark's rebuilt root (for node counts) gives what boardroom.shared.engine.solve
    gives."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    kernel = kernel_for(game)
    for test_set in TEST_SETS[:2]:  # the medium set takes ~0.3 s a position
        for _, moves, expected in read_test_set(test_set, 5):
            position = game.from_moves(moves)
            score, nodes = solve_connect4(kernel, position)
            assert score == expected == solve(game, position), moves
            assert nodes >= 0


def test_peer_section_says_when_easyai_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    """Without easyAI the peer section prints why it is skipped and the run goes on."""
    run = Run(targets=[])
    bench_peer(run, {}, peer_sample=20, peer=None)
    assert "easyAI not installed: peer skipped" in capsys.readouterr().out
    assert [target.verdict for target in run.targets] == ["n/a"]


def test_easyai_adapter_finds_the_sign_of_each_score() -> None:
    """easyAI on the bitboard adapter agrees with the set on win, draw or loss."""
    pytest.importorskip("easyAI")
    from boardroom.client.bench.peer_easyai import solve_bitboard

    for _, moves, expected in read_test_set(TEST_SETS[0], 10):
        result = solve_bitboard(moves, budget_seconds=30)
        assert result.result == (expected > 0) - (expected < 0), moves


def test_easyai_adapter_stops_at_its_budget() -> None:
    """A middle-medium position is far beyond a 0.2 s budget: the solve gives up in time."""
    pytest.importorskip("easyAI")
    from boardroom.client.bench.peer_easyai import solve_bitboard

    _, moves, _ = read_test_set(TEST_SETS[2], 1)[0]
    result = solve_bitboard(moves, budget_seconds=0.2)
    assert not result.finished
    assert result.seconds < 2


def test_line_numbers_are_shown_as_ranges() -> None:
    assert format_lines([1, 2, 3, 5, 7, 8]) == "1-3, 5, 7-8"
    assert format_lines([4]) == "4"
    assert format_lines([]) == "none"


def test_bitbully_section_says_when_bitbully_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    """Without bitbully the section prints why it is skipped and the run goes on."""
    run = Run(targets=[])
    bench_bitbully(run, {}, early=5, peer=None)
    assert "bitbully not installed: peer skipped" in capsys.readouterr().out
    assert [target.verdict for target in run.targets] == ["n/a"]


def test_bitbully_adapter_gives_the_sets_scores() -> None:
    """bitbully, without and with its book, scores a few lines of each standard set
    as the set does (the adapter's column numbering and score scale), and counts nodes."""
    peer_bitbully = pytest.importorskip("boardroom.client.bench.peer_bitbully")
    book = peer_bitbully.book_path()
    assert book is not None, "bitbully-databases is a dependency: its book must be there"
    solvers = [peer_bitbully.BitbullySolver(), peer_bitbully.BitbullySolver(book)]
    assert [solver.with_book for solver in solvers] == [False, True]
    for test_set in TEST_SETS:
        for _, moves, expected in read_test_set(test_set, 3):
            for solver in solvers:
                solved = solver.solve(moves)
                assert solved.score == expected, (test_set.name, moves, solver.with_book)
                assert solved.nodes >= 0 and solved.seconds >= 0
    assert peer_bitbully.board("1").countTokens() == 1
    with pytest.raises(ValueError, match="refused"):
        peer_bitbully.board("1111111")  # a seventh stone in a column of six


def test_early_set_is_the_seeded_positions_and_our_solver_agrees_with_its_scores() -> None:
    """The file data/connect4/Early_13_16 holds the seeded positions of
    boardroom.client.bench.early_set, 13 to 16 stones each, and its scores (bitbully's) are our
    solver's on a few lines."""
    assert EARLY_SET.name == EARLY_NAME == EARLY_PATH.name
    rows = read_test_set(EARLY_SET, None)
    assert [moves for _, moves, _ in rows] == early_moves()
    assert all(STONES[0] <= len(moves) <= STONES[1] for _, moves, _ in rows)
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    kernel = kernel_for(game)
    for _, moves, expected in rows[:3]:
        assert solve_connect4(kernel, game.from_moves(moves))[0] == expected, moves
