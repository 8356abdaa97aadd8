"""``boardroom solve`` and ``boardroom analyze`` print how the engine searched."""

from __future__ import annotations

import re

import pytest

from boardroom.client.cli import main

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver


def test_solve_prints_the_search_in_one_line_and_the_line_it_expects(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An exact solve: the positions, the depth, the proven value, then the line of
    play starting with the best move."""
    assert main(["solve", "tictactoe", "b2 a1"]) == 0
    out = capsys.readouterr().out
    best = re.search(r"^best move: (\w\d)   value: draw$", out, re.MULTILINE)
    assert best is not None, out
    assert re.search(r"^searched \d+ positions in .*, depth 7: proven draw$", out, re.MULTILINE)
    line = re.search(r"^  expected line: (\w\d)[ \w\d]* \(.* positions a second\)$", out, re.M)
    assert line is not None and line.group(1) == best.group(1)


def test_solve_at_the_random_level_says_there_was_no_search(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "tictactoe", "", "--level", "random"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("no search: a move at random")
    assert "expected line" not in out


def test_analyze_lists_every_move_then_the_engines_pick_and_its_search(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every legal move with its value, then the engine's own search of the position."""
    assert main(["analyze", "tictactoe", "b2 a1 c1 a3", "--time", "1"]) == 0
    out = capsys.readouterr().out
    assert len(re.findall(r"^  \w\d  ", out, re.MULTILINE)) == 5
    pick = re.search(r"^the engine's pick: (\w\d)   value: (.+)$", out, re.MULTILINE)
    assert pick is not None, out
    assert re.search(r"^searched .* positions? in .*, depth \d+: ", out, re.MULTILINE)
    assert f"  expected line: {pick.group(1)}" in out
