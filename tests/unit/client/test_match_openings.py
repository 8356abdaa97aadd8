"""The openings of ``boardroom match`` (client/match/openings.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from connect4_oracle import stone_score

from boardroom.client.match.openings import OpeningsError, builtin_suite, read_suite
from boardroom.shared.games import get_game

CONNECT4 = get_game("connect4")


def test_connect4_suite_is_drawn_four_stone_positions_by_the_independent_solver() -> None:
    suite = builtin_suite(CONNECT4)
    assert len(suite) == 101
    mirrored = set()
    for moves in suite:
        position = CONNECT4.from_moves(moves)
        assert position.ply == 4
        assert not CONNECT4.outcome(position).is_over
        # bitbully's solver, not ours: the value of the position is a draw.
        assert stone_score(moves) == 0, moves
        rows = CONNECT4.board_rows(position)
        key = min(rows, tuple(row[::-1] for row in rows))
        assert key not in mirrored, f"{moves} is the mirror image of another opening"
        mirrored.add(key)


def test_gomoku_suite_is_the_26_renju_openings() -> None:
    gomoku = get_game("gomoku")
    suite = builtin_suite(gomoku)
    assert len(suite) == len(set(suite)) == 26
    direct = [moves for moves in suite if moves.startswith("h8 h9 ")]
    indirect = [moves for moves in suite if moves.startswith("h8 i9 ")]
    assert len(direct) == len(indirect) == 13
    for moves in suite:
        third = moves.split()[2]
        column, row = "abcdefghijklmno".index(third[0]), int(third[1:]) - 1
        assert 5 <= column <= 9 and 5 <= row <= 9, moves  # the central 5x5 square
    # One of each mirror pair: f6 is kept, so its mirror j6 across column h is not.
    assert "h8 h9 f6" in direct and "h8 h9 j6" not in direct


def test_other_boards_start_from_every_first_move() -> None:
    tictactoe = get_game("tictactoe")
    assert builtin_suite(tictactoe) == ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")


def test_a_suite_file(tmp_path: Path) -> None:
    path = tmp_path / "openings.txt"
    path.write_text("# mine\n4453\n\n  3 3 # with spaces\n", encoding="utf-8")
    assert read_suite(CONNECT4, path) == ("4453", "33")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("44\n48\n", "line 2"),
        ("4\n1212121\n", "line 2: the game is already over"),
        ("# nothing\n", "no openings"),
    ],
)
def test_a_bad_suite_file_says_where(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "openings.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OpeningsError, match=words):
        read_suite(CONNECT4, path)


def test_a_missing_suite_file(tmp_path: Path) -> None:
    with pytest.raises(OpeningsError, match="No such file"):
        read_suite(CONNECT4, tmp_path / "missing.txt")
