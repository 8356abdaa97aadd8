"""Move notation: naming cells and columns, move strings, renderings, and the
errors a person sees for anything the rules refuse.

Grid boards name a cell by column letter and row number, ``a1`` bottom-left;
Connect Four names a column, 1 to 7. Every refusal is an ``IllegalMoveError``
whose message quotes the input and says what would have been accepted.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

import pytest

from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games import Game, Player, Position, get_game

GRID_GAMES = ["tictactoe", "tictactoe4", "gomoku", "mnk-5-3-3", "mnk-3-5-3", "mnk-19-19-5"]
ALL_GAMES = [*GRID_GAMES, "connect4"]

TICTACTOE_RANGES = "columns a-c, rows 1-3"
CONNECT4_RANGE = "1 to 7"


def random_game(game: Game, seed: int) -> Position:
    """A position reached by random play to the end of the game."""
    rng = random.Random(seed)
    position = game.new()
    while legal := game.legal_moves(position):
        position = game.play_unchecked(position, rng.choice(legal))
    return position


def refusal(call: Callable[[], object], reason: IllegalMoveReason, text: str) -> str:
    """Run ``call``, check it refuses ``text`` for ``reason``, and give the message."""
    with pytest.raises(IllegalMoveError) as info:
        call()
    error = info.value
    assert error.reason is reason
    assert error.move_text == text
    message = str(error)
    assert repr(text) in message, "the message quotes the input"
    return message


# -- naming cells and columns -------------------------------------------------------------


@pytest.mark.parametrize("name", GRID_GAMES)
def test_every_grid_cell_is_named_by_column_letter_and_row_number(name: str) -> None:
    """Move ``row * width + column`` is written letter-then-number, a1 bottom-left."""
    game = get_game(name)
    width, height = game.grid.width, game.grid.height
    for row in range(height):
        for column in range(width):
            move = row * width + column
            text = "abcdefghijklmnopqrs"[column] + str(row + 1)
            assert game.format_move(move) == text
            assert game.parse_move(game.new(), text) == move
            assert game.parse_move(game.new(), text.upper()) == move


def test_every_connect_four_column_is_named_by_its_number_from_one() -> None:
    """Columns 0 to 6 are written ``1`` to ``7`` and read back."""
    game = get_game("connect4")
    for column in range(7):
        assert game.format_move(column) == str(column + 1)
        assert game.parse_move(game.new(), str(column + 1)) == column
        assert game.parse_move(game.new(), f" {column + 1} ") == column


@pytest.mark.parametrize(
    ("name", "text", "cell"),
    [
        ("tictactoe", "a1", (0, 0)),
        ("tictactoe", "c1", (2, 0)),
        ("tictactoe", "a3", (0, 2)),
        ("tictactoe", "c3", (2, 2)),
        ("mnk-5-3-3", "e1", (4, 0)),
        ("mnk-5-3-3", "a3", (0, 2)),
        ("mnk-3-5-3", "c5", (2, 4)),
        ("gomoku", "o15", (14, 14)),
        ("gomoku", "h8", (7, 7)),
    ],
)
def test_a_named_cell_holds_the_stone_played_there(
    name: str, text: str, cell: tuple[int, int]
) -> None:
    """The stone of ``text`` lands on (column, row) counted from the bottom-left."""
    game = get_game(name)
    position = game.play(game.new(), game.parse_move(game.new(), text))
    assert position.stones[Player.FIRST.number] == game.grid.cell(*cell)


# -- move strings ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_GAMES)
def test_move_strings_round_trip_through_from_moves(name: str) -> None:
    """``from_moves(move_string(p)) == p`` for whole random games, and strings are canonical."""
    game = get_game(name)
    for seed in range(8 if name != "gomoku" else 2):
        position = random_game(game, seed)
        text = game.move_string(position)
        again = game.from_moves(text)
        assert again == position
        assert game.move_string(again) == text


def test_grid_move_strings_are_cells_separated_by_spaces() -> None:
    """The canonical tic-tac-toe move string: cells joined by single spaces."""
    game = get_game("tictactoe")
    position = game.play(game.play(game.new(), 4), 0)
    assert game.move_string(position) == "b2 a1"


def test_connect_four_move_strings_are_the_columns_run_together() -> None:
    """The canonical Connect Four move string: column digits, no separators."""
    game = get_game("connect4")
    position = game.new()
    for move in (3, 3, 4, 2):
        position = game.play(position, move)
    assert game.move_string(position) == "4453"
    assert game.from_moves("4453") == position


@pytest.mark.parametrize(
    "text",
    ["b2 a1 c3", "b2,a1,c3", "b2;a1;c3", "b2a1c3", "B2 A1 C3", "B2A1C3", "  b2 ,a1\tc3\n"],
)
def test_grid_move_strings_accept_spaces_commas_semicolons_or_nothing(text: str) -> None:
    """Cells may be separated by whitespace, commas or semicolons, or run together, any case."""
    game = get_game("tictactoe")
    assert game.move_string(game.from_moves(text)) == "b2 a1 c3"


def test_two_digit_rows_run_together_on_large_boards() -> None:
    """On gomoku ``h10a1o15`` reads as h10, a1, o15."""
    game = get_game("gomoku")
    assert game.move_string(game.from_moves("h10a1o15")) == "h10 a1 o15"


@pytest.mark.parametrize("text", ["4453", "4 4 5 3", "4,4,5,3", " 44 53 ", "4;4;5;3"])
def test_connect_four_move_strings_accept_digits_with_or_without_separators(text: str) -> None:
    """Connect Four columns are single digits, so separators are optional."""
    game = get_game("connect4")
    assert game.move_string(game.from_moves(text)) == "4453"


@pytest.mark.parametrize("name", ALL_GAMES)
@pytest.mark.parametrize("text", ["", "   "])
def test_an_empty_move_string_is_the_starting_position(name: str, text: str) -> None:
    """No moves: the empty board, whose move string is empty."""
    game = get_game(name)
    assert game.from_moves(text) == game.new()
    assert game.move_string(game.new()) == ""


# -- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["", "zz", "0", "8", "\u0663", "b", "2b", "b 2", "b-2", "11", "\u00e91"]
)
def test_text_that_is_no_cell_is_not_a_move(text: str) -> None:
    """Anything but a letter and a number is NOT_A_MOVE, with the form and the ranges."""
    game = get_game("tictactoe")
    message = refusal(lambda: game.parse_move(game.new(), text), IllegalMoveReason.NOT_A_MOVE, text)
    assert "column letter and row number" in message
    assert TICTACTOE_RANGES in message


@pytest.mark.parametrize(
    "text", ["", "zz", "x9", "\u0663", "\u00b2", "4.0", "+4", "-1", "d", "four"]
)
def test_text_that_is_no_column_number_is_not_a_move(text: str) -> None:
    """In Connect Four anything but ASCII digits is NOT_A_MOVE, with the columns accepted."""
    game = get_game("connect4")
    message = refusal(lambda: game.parse_move(game.new(), text), IllegalMoveReason.NOT_A_MOVE, text)
    assert CONNECT4_RANGE in message


@pytest.mark.parametrize("text", ["d1", "a4", "a0", "x9", "z99", "D1"])
def test_cells_beyond_the_board_are_off_board(text: str) -> None:
    """A well-formed cell outside the 3x3 board is OFF_BOARD, with the ranges."""
    game = get_game("tictactoe")
    message = refusal(lambda: game.parse_move(game.new(), text), IllegalMoveReason.OFF_BOARD, text)
    assert TICTACTOE_RANGES in message


def test_off_board_ranges_follow_the_board_size() -> None:
    """On a 5x3 board the message gives columns a-e and rows 1-3."""
    game = get_game("mnk-5-3-3")
    message = refusal(lambda: game.parse_move(game.new(), "f1"), IllegalMoveReason.OFF_BOARD, "f1")
    assert "columns a-e, rows 1-3" in message


@pytest.mark.parametrize("text", ["0", "8", "9", "10", "00"])
def test_column_numbers_beyond_the_board_are_off_board(text: str) -> None:
    """Connect Four columns outside 1 to 7 are OFF_BOARD, with the range."""
    game = get_game("connect4")
    message = refusal(lambda: game.parse_move(game.new(), text), IllegalMoveReason.OFF_BOARD, text)
    assert CONNECT4_RANGE in message


@pytest.mark.parametrize(("text", "holder"), [("b2", "X"), ("a1", "O"), ("A1", "O")])
def test_an_occupied_cell_is_refused_naming_who_holds_it(text: str, holder: str) -> None:
    """A cell with a stone is OCCUPIED; the message says whose stone and asks for an empty cell."""
    game = get_game("tictactoe")
    position = game.from_moves("b2 a1")
    message = refusal(lambda: game.parse_move(position, text), IllegalMoveReason.OCCUPIED, text)
    assert f"{holder} already has a stone there" in message
    assert "empty cell" in message


def test_a_full_column_is_refused_listing_the_columns_with_room() -> None:
    """A full Connect Four column is COLUMN_FULL; the message lists the playable columns."""
    game = get_game("connect4")
    position = game.from_moves("444444")
    message = refusal(lambda: game.parse_move(position, "4"), IllegalMoveReason.COLUMN_FULL, "4")
    assert "(1, 2, 3, 5, 6, 7)" in message


@pytest.mark.parametrize(
    ("name", "moves", "text"),
    [
        ("tictactoe", "a1 b1 a2 b2 a3", "c3"),
        ("tictactoe", "a1 b1 a2 b2 a3", "a1"),
        ("connect4", "4455667", "1"),
        ("connect4", "131121131522322527334344544755657666667747", "4"),
    ],
)
def test_moves_after_the_end_are_refused_as_game_over(name: str, moves: str, text: str) -> None:
    """Once the game is won or drawn, any cell or column is refused with GAME_OVER."""
    game = get_game(name)
    position = game.from_moves(moves)
    message = refusal(lambda: game.parse_move(position, text), IllegalMoveReason.GAME_OVER, text)
    assert "game is over" in message


@pytest.mark.parametrize(
    ("name", "text", "number", "bad", "reason"),
    [
        ("tictactoe", "a1 b2 a1", 3, "a1", IllegalMoveReason.OCCUPIED),
        ("tictactoe", "a1,zz", 2, "zz", IllegalMoveReason.NOT_A_MOVE),
        ("tictactoe", "b2 d4 a1", 2, "d4", IllegalMoveReason.OFF_BOARD),
        ("tictactoe", "a1 b1 a2 b2 a3 c3", 6, "c3", IllegalMoveReason.GAME_OVER),
        ("connect4", "4444444", 7, "4", IllegalMoveReason.COLUMN_FULL),
        ("connect4", "4480", 3, "8", IllegalMoveReason.OFF_BOARD),
        ("connect4", "44x", 3, "x", IllegalMoveReason.NOT_A_MOVE),
        ("connect4", "44556672", 8, "2", IllegalMoveReason.GAME_OVER),
    ],
)
def test_move_strings_name_the_bad_move_and_its_number(
    name: str, text: str, number: int, bad: str, reason: IllegalMoveReason
) -> None:
    """``from_moves`` stops at the first bad move and says which one, in which string."""
    game = get_game(name)
    message = refusal(lambda: game.from_moves(text), reason, bad)
    assert message.startswith(f"move {number} of {text!r}: ")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        pytest.param("tictactoe", "a\u0663", id="arabic-indic-three"),
        pytest.param("tictactoe", "b\uff12", id="full-width-two"),
        pytest.param("gomoku", "h\u0661\u0660", id="arabic-indic-ten"),
        pytest.param("gomoku", "\u212a1", id="kelvin-sign-k"),
    ],
)
def test_grid_cells_with_non_ascii_characters_are_not_moves(name: str, text: str) -> None:
    """Only ASCII letters and digits name a cell: Arabic-Indic or full-width digits do not."""
    game = get_game(name)
    refusal(lambda: game.parse_move(game.new(), text), IllegalMoveReason.NOT_A_MOVE, text)


# -- renderings ----------------------------------------------------------------------------------


def test_tic_tac_toe_renders_top_row_first_with_letters_and_row_numbers() -> None:
    """a1 is drawn bottom-left, c3 top-right, with row numbers left and letters below."""
    game = get_game("tictactoe")
    assert game.render(game.from_moves("a1 b2 c3")) == "3 . . X\n2 . O .\n1 X . .\n  a b c"


def test_connect_four_renders_stacked_stones_over_column_numbers() -> None:
    """Connect Four shows its six rows over the column numbers 1 to 7."""
    game = get_game("connect4")
    expected = "\n".join(
        [
            "  . . . . . . .",
            "  . . . . . . .",
            "  . . . . . . .",
            "  . . . . . . .",
            "  . . . O . . .",
            "  . . O X X . .",
            "  1 2 3 4 5 6 7",
        ]
    )
    assert game.render(game.from_moves("4453")) == expected


def test_gomoku_renders_two_digit_row_numbers_aligned() -> None:
    """Rows 1 to 15 are right-aligned, the columns run a to o, corners are where named."""
    game = get_game("gomoku")
    lines = game.render(game.from_moves("a1 o15 h8")).splitlines()
    assert len(lines) == 16
    assert lines[0] == "15 " + " ".join(["."] * 14 + ["O"])
    assert lines[7] == " 8 " + " ".join(["."] * 7 + ["X"] + ["."] * 7)
    assert lines[14] == " 1 " + " ".join(["X"] + ["."] * 14)
    assert lines[15] == "   " + " ".join("abcdefghijklmno")


@pytest.mark.parametrize("name", ALL_GAMES)
def test_renderings_show_every_stone_and_nothing_else(name: str) -> None:
    """A rendering holds one X per first-player stone and one O per second-player stone."""
    game = get_game(name)
    position = random_game(game, seed=1)
    label = len(str(game.grid.height)) + 1
    board = "\n".join(line[label:] for line in game.render(position).splitlines()[:-1])
    assert board.count("X") == position.stones[0].bit_count()
    assert board.count("O") == position.stones[1].bit_count()
    assert board.count(".") == game.grid.cells - position.ply


def test_illegal_move_errors_survive_pickling_with_their_reason() -> None:
    """Engine workers send errors back across a process boundary intact."""
    game = get_game("connect4")
    with pytest.raises(IllegalMoveError) as caught:
        game.from_moves("4444444")
    copy = pickle.loads(pickle.dumps(caught.value))
    assert type(copy) is IllegalMoveError
    assert str(copy) == str(caught.value)
    assert copy.reason is IllegalMoveReason.COLUMN_FULL
    assert copy.move_text == "4"
