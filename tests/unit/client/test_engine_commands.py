"""``boardroom solve`` and ``boardroom analyze`` print how the engine searched."""

from __future__ import annotations

import re

import pytest

from boardroom.client.cli import main
from boardroom.client.commands.engine import UNSOLVABLE_SECONDS
from boardroom.shared.engine import solves_in_time
from boardroom.shared.games import game_specs, get_game
from boardroom.shared.games.spec import Search

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


LATE_OTHELLO = (
    "c4 c5 f6 c3 b5 g7 e3 e6 c2 f3 g3 a5 h8 b3 f4 f2 b4 f5 f7 h3 a3 d2 e2 e1 a6 e7 d7 c1 "
    "c6 g8 f1 g4 d1 b6 b1 d3 g6 b7 f8 a7 c7 h6 a8 b2 g5 g2 a1 d6 h2 h5 a4 d8"
)
"""An Othello game 52 moves in: its end is in reach of a search."""


def test_only_games_whose_solve_ends_in_seconds_are_solved_without_a_limit() -> None:
    """A game searched generically (Othello) is never solved unbounded: its full
    solve from the start would never end; nor a big board early on (gomoku's
    empty board). Tic-tac-toe boards are."""
    for spec in game_specs():
        if spec.search is Search.GENERIC:
            game = get_game(spec.name)
            assert not solves_in_time(game, game.new()), spec.name
    tictactoe, gomoku = get_game("tictactoe"), get_game("gomoku")
    assert solves_in_time(tictactoe, tictactoe.new())
    assert not solves_in_time(gomoku, gomoku.new())


def test_solve_without_a_limit_searches_for_a_while_where_it_cannot_solve(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``solve othello`` with no --time or --level says it searches for a default
    time instead of a full solve that would never end, then answers as a search
    does (here late enough that the search sees the end)."""
    assert main(["solve", "othello", LATE_OTHELLO]) == 0
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert first == (
        "Othello: an exact solve from here could take far too long, so the engine searches "
        f"for up to {UNSOLVABLE_SECONDS:g} s instead (--time sets how long)."
    )
    assert re.search(r"^best move: \w\d   value: ", out, re.MULTILINE), out
    assert re.search(r"^searched .* positions? in .*, depth \d+: ", out, re.MULTILINE), out


def test_solve_with_a_time_limit_says_nothing_of_a_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", "othello", LATE_OTHELLO, "--time", "0.5"]) == 0
    assert "could take far too long" not in capsys.readouterr().out
