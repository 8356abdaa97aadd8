"""``boardroom bench perfect``'s pieces: the early openings it builds are what it
says (their values exact, their stones in range), its check of a move, and its
table, whose columns line up."""

from __future__ import annotations

import pytest

from boardroom.client.bench.perfect import (
    COLUMNS,
    Checked,
    check_move,
    early_positions,
    report,
    set_names,
    table_line,
)
from boardroom.shared.engine import solve
from boardroom.shared.games import GridGame, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver


def test_early_openings_have_their_exact_values_and_are_reproducible() -> None:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    # From 14 stones (the bench's own start, 8, makes each solve take seconds).
    openings = early_positions(game, 2, seed=7, stones=(14, 16))

    assert openings == early_positions(game, 2, seed=7, stones=(14, 16))
    for moves, value in openings:
        position = game.from_moves(moves)
        assert 14 <= position.ply <= 16
        assert not game.outcome(position).is_over
        assert solve(game, position) == value


def test_a_move_of_perfect_is_checked_against_the_files_value() -> None:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    position = game.from_moves("2252576253462244111563365343671351441")  # Test_L2_R1: -1
    assert check_move(game, position, -1).kept
    assert not check_move(game, position, 3).kept  # a value the position does not have


def test_the_tables_columns_line_up_whatever_the_names_and_counts() -> None:
    """Every row ends each of its cells where the heading above it ends (the
    numbers right-aligned), for the longest set name and for counts of one to four
    digits; a move that lost value is said on a line of its own under its row."""
    names = set_names()
    width = max(len(name) for name in [*names, COLUMNS[0]])
    header = table_line(COLUMNS, width)
    ends = [header.index(heading) + len(heading) for heading in COLUMNS[1:]]
    lost = Checked(kept=False, source="exact", seconds=1.5, moves="4453", played="3")
    rows = []
    for count, name in zip((1, 20, 170, 1000, 7, 30), names, strict=False):
        checked = [Checked(kept=True, source="book", seconds=0.01)] * (count - 1) + [lost]
        rows.append(report(name, checked, width))
    lines = [line for row in rows for line in row.splitlines() if "lost value" not in line]
    assert len(lines) == len(rows) == len(names)
    for line in lines:
        assert len(line) == len(header), (line, header)
        assert line[:width].rstrip() in names, line
        for end in ends:
            assert line[end - 1] != " ", (end, line)
            assert end == len(line) or line[end] == " ", (end, line)
    said = "    lost value: 4453 (played 3, exact, 1.50 s)"
    assert all(row.splitlines()[1] == said for row in rows)
