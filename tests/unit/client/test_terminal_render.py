"""Board diagrams: coordinates as in the games' own rendering, the last move and
the winning line marked with brackets in plain text and with colour on a terminal."""

from __future__ import annotations

import re

from client.terminal.render import last_move_cell, parse_cell, render_board
from client.terminal.style import Palette, colour_wanted
from shared.games import get_game

PLAIN = Palette(enabled=False)
COLOUR = Palette(enabled=True)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_a_plain_board_has_row_numbers_column_letters_and_the_last_move_in_brackets() -> None:
    """a1 is bottom-left; the last move (O on a1) is bracketed; columns stay aligned."""
    game = get_game("tictactoe")
    assert render_board(game, game.from_moves("b2 a1"), palette=PLAIN).splitlines() == [
        "3  .  .  .",
        "2  .  X  .",
        "1 [O] .  .",
        "   a  b  c",
    ]


def test_a_won_board_brackets_the_whole_winning_line_instead_of_the_last_move() -> None:
    """Once there is a line, the brackets show it: it includes the winning move."""
    game = get_game("tictactoe")
    board = render_board(
        game, game.from_moves("a1 b1 a2 b2 a3"), palette=PLAIN, winning_line=["a1", "a2", "a3"]
    )
    assert board.splitlines()[:3] == ["3 [X] .  .", "2 [X] O  .", "1 [X] O  ."]


def test_connect_four_labels_columns_1_to_7_and_marks_the_top_of_the_last_column() -> None:
    """No row numbers (moves name columns); the last stone is the one that fell last."""
    game = get_game("connect4")
    lines = render_board(game, game.from_moves("4453"), palette=PLAIN).splitlines()
    assert lines[-1] == " 1  2  3  4  5  6  7"
    assert lines[-2] == " .  . [O] X  X  .  ."
    assert lines[-3] == " .  .  .  O  .  .  ."


def test_connect_four_winning_lines_are_named_as_grid_cells() -> None:
    """result.line names Connect Four cells like grid cells: d1-d4 is column 4."""
    game = get_game("connect4")
    board = render_board(
        game, game.from_moves("4343434"), palette=PLAIN, winning_line=["d1", "d2", "d3", "d4"]
    )
    assert [line[9:12] for line in board.splitlines()[2:6]] == ["[X]"] * 4


def test_two_digit_rows_are_right_aligned_on_big_boards() -> None:
    """Gomoku's fifteen rows: every row's first cell starts in the same column."""
    game = get_game("gomoku")
    lines = render_board(game, game.from_moves("h8"), palette=PLAIN).splitlines()
    assert lines[0].startswith("15  .")
    assert lines[14].startswith(" 1  .")
    assert lines[7] == " 8  .  .  .  .  .  .  . [X] .  .  .  .  .  .  ."
    assert lines[-1].startswith("    a  b  c")


def test_with_colour_there_are_no_brackets_and_the_marks_are_highlighted() -> None:
    """Reverse video for the last move, the winning line on green; the text under the
    codes is the plain layout without brackets."""
    game = get_game("tictactoe")
    position = game.from_moves("a1 b1 a2 b2 a3")
    coloured = render_board(game, position, palette=COLOUR, winning_line=["a1", "a2", "a3"])
    assert "[" not in ANSI.sub("", coloured)
    assert "\x1b[1;30;42m X \x1b[0m" in coloured
    last = render_board(game, game.from_moves("b2"), palette=COLOUR)
    assert "\x1b[7;1m X \x1b[0m" in last
    assert ANSI.sub("", last).splitlines()[1] == "2  .  X  ."


def test_an_empty_board_marks_nothing() -> None:
    game = get_game("tictactoe")
    assert last_move_cell(game, game.new()) is None
    assert "[" not in render_board(game, game.new(), palette=PLAIN)


def test_cell_names_parse_to_columns_and_rows_from_the_bottom_left() -> None:
    assert parse_cell("a1") == (0, 0)
    assert parse_cell("O15") == (14, 14)
    assert parse_cell("7") is None
    assert parse_cell("") is None


class _Terminal:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_colour_only_on_a_terminal_without_no_color_or_a_dumb_term() -> None:
    """https://no-color.org: any non-empty NO_COLOR turns colour off."""
    tty, pipe = _Terminal(True), _Terminal(False)
    assert colour_wanted(tty, {"TERM": "xterm"})  # type: ignore[arg-type]
    assert not colour_wanted(pipe, {"TERM": "xterm"})  # type: ignore[arg-type]
    assert not colour_wanted(tty, {"TERM": "xterm", "NO_COLOR": "1"})  # type: ignore[arg-type]
    assert colour_wanted(tty, {"TERM": "xterm", "NO_COLOR": ""})  # type: ignore[arg-type]
    assert not colour_wanted(tty, {"TERM": "dumb"})  # type: ignore[arg-type]


def test_othello_is_drawn_a1_to_h8_with_the_last_disc_in_brackets() -> None:
    """Othello is no grid game: the board comes from its rows and labels alone."""
    game = get_game("othello")
    assert render_board(game, game.from_moves("d3 c3"), palette=PLAIN).splitlines() == [
        "8  .  .  .  .  .  .  .  .",
        "7  .  .  .  .  .  .  .  .",
        "6  .  .  .  .  .  .  .  .",
        "5  .  .  .  X  O  .  .  .",
        "4  .  .  .  O  X  .  .  .",
        "3  .  . [O] X  .  .  .  .",
        "2  .  .  .  .  .  .  .  .",
        "1  .  .  .  .  .  .  .  .",
        "   a  b  c  d  e  f  g  h",
    ]


def test_after_a_pass_no_disc_is_marked_as_the_last_move() -> None:
    game = get_game("othello")
    position = game.from_moves("d3 c3 e6 d2 d1 e1 b2 c1 pass")
    assert last_move_cell(game, position) is None
    assert "[" not in render_board(game, position, palette=PLAIN)
    coloured = render_board(game, position, palette=COLOUR)
    assert ANSI.sub("", coloured).splitlines()[-1] == "   a  b  c  d  e  f  g  h"
