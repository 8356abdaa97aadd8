"""Printed lines fitted to the terminal's width: broken between words, never in one."""

from __future__ import annotations

import io
import os
import re

import pytest

from boardroom.client.terminal.console import LineConsole
from boardroom.client.terminal.style import Palette
from boardroom.client.terminal.wrap import DEFAULT_WIDTH, output_width, visible_width, wrap_text

STATUS = (
    "Tic-tac-toe, room C9FVBQ (private: join code XTZRUWF6, watch code H7VXUYV8)"
    " | X ann (you) | O (empty seat) | waiting for an opponent"
)
RESULT = (
    "Result: X ann wins: three in a row a1-a2-a3"
    " (game #1: boardroom review 1 --server 127.0.0.1:18777)"
)


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("line", [STATUS, RESULT])
@pytest.mark.parametrize("width", [80, 60, 40])
def test_a_long_line_is_broken_at_spaces_into_pieces_that_fit(line: str, width: int) -> None:
    wrapped = wrap_text(line, width).split("\n")
    assert len(wrapped) > 1
    assert all(visible_width(piece) <= width for piece in wrapped), wrapped
    # The same words in the same order: nothing cut, nothing lost.
    assert words(" ".join(wrapped)) == words(line)
    # Each piece after the first is indented as a continuation.
    assert all(piece.startswith("  ") and piece[2] != " " for piece in wrapped[1:])


def test_at_80_columns_no_word_is_cut_and_a_symbol_stays_with_its_name() -> None:
    assert wrap_text(STATUS, 80).split("\n") == [
        "Tic-tac-toe, room C9FVBQ (private: join code XTZRUWF6, watch code H7VXUYV8)",
        "  | X ann (you) | O (empty seat) | waiting for an opponent",
    ]
    assert wrap_text(RESULT, 80).split("\n") == [
        "Result: X ann wins: three in a row a1-a2-a3 (game #1: boardroom review 1",
        "  --server 127.0.0.1:18777)",
    ]


def test_lines_that_fit_are_left_as_they_are_spacing_and_all() -> None:
    board = " 1  2  3  4  5  6  7\n .  .  . [X] .  .  ."
    assert wrap_text(board, 20) == board
    assert wrap_text("", 80) == ""
    assert wrap_text("a" * 80, 80) == "a" * 80  # exactly the width fits


def test_an_indented_line_keeps_its_indent_and_its_inner_spacing() -> None:
    line = "  new GAME [OPTIONS]  open a room in one line: new connect4 ai=hard clock=5+3"
    wrapped = wrap_text(line, 60).split("\n")
    assert wrapped == [
        "  new GAME [OPTIONS]  open a room in one line: new connect4",
        "    ai=hard clock=5+3",
    ]


def test_a_word_wider_than_the_terminal_is_kept_whole_on_its_own_line() -> None:
    address = "wss://games.example.org/" + "x" * 80 + "/ws"
    assert wrap_text(f"Connected to {address} now.", 80).split("\n") == [
        "Connected to",
        f"  {address}",
        "  now.",
    ]


def test_colour_codes_take_no_room_and_wide_characters_two_columns() -> None:
    palette = Palette(enabled=True)
    coloured = palette.bold(RESULT)
    wrapped = wrap_text(coloured, 80)
    assert re.sub(r"\x1b\[[0-9;]*m", "", wrapped) == wrap_text(RESULT, 80)
    assert wrap_text("漢字 " * 10, 20).split("\n")[0] == "漢字 漢字 漢字 漢字"
    assert visible_width(palette.stone("X")) == 1


def test_the_width_is_the_terminals_and_80_when_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "132")
    assert output_width() == 132
    monkeypatch.delenv("COLUMNS")
    # No terminal to ask (a pipe): shutil answers with the fallback given.
    monkeypatch.setattr("shutil.get_terminal_size", os.terminal_size)
    assert output_width() == DEFAULT_WIDTH


def test_a_line_console_prints_lines_broken_to_the_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    output = io.StringIO()
    LineConsole(output, 0, palette=Palette(enabled=False), echo=False).show(STATUS)
    assert output.getvalue() == wrap_text(STATUS, 80) + "\n"
    assert "oppone\n" not in output.getvalue()
