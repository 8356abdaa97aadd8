"""The rules of every game in :mod:`boardroom.shared.games`: lines, draws, turns, gravity,
the end of the game, positions as values, and the registry of game names.

Boards are drawn as pictures (top row first, ``X``, ``O`` and ``.``) and turned
into positions by legal play, so a test shows the board it is about. The referee
at the bottom replays random games with its own coordinate arithmetic and checks
the rules against it move by move.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import pickle
import random
import textwrap

import pytest

from boardroom.shared.errors import (
    BoardroomError,
    GameError,
    GameOptionsError,
    IllegalMoveError,
    IllegalMoveReason,
    UnknownGameError,
)
from boardroom.shared.games import (
    DRAW,
    ONGOING,
    Game,
    Outcome,
    Player,
    Position,
    Status,
    Termination,
    get_game,
)

Cell = tuple[int, int]

GRID_GAMES = ["tictactoe", "tictactoe4", "gomoku", "mnk-5-4-3", "mnk-3-5-3"]
ALL_GAMES = [*GRID_GAMES, "connect4"]
DIRECTIONS: tuple[Cell, ...] = ((0, 1), (1, 0), (1, 1), (1, -1))

CONNECT4_DRAW = "131121131522322527334344544755657666667747"
"""A full Connect Four board without a line for either player::

    X X O X O O O
    X X O X O X O
    O O X O X O X
    O O X O X X X
    X X O X O O O
    X X O X O X O
"""


# -- helpers --------------------------------------------------------------------------


def size(game: Game) -> tuple[int, int, int]:
    return game.grid.width, game.grid.height, game.grid.k


def cell_move(game: Game, cell: Cell) -> int:
    """The move that puts a stone on ``cell`` (the column, under gravity)."""
    column, row = cell
    return column if game.gravity else row * game.grid.width + column


def name_cell(name: str) -> Cell:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def stone_at(game: Game, position: Position, cell: Cell) -> str:
    bit = game.grid.cell(*cell)
    return "X" if position.stones[0] & bit else "O" if position.stones[1] & bit else "."


def is_line(cells: list[Cell] | tuple[Cell, ...], k: int) -> bool:
    """True if ``cells`` are k or more consecutive cells along one direction, in order."""
    if len(cells) < k:
        return False
    step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
    if step not in DIRECTIONS and (-step[0], -step[1]) not in DIRECTIONS:
        return False
    return all((b[0] - a[0], b[1] - a[1]) == step for a, b in itertools.pairwise(cells))


def play_cells(game: Game, cells: list[Cell]) -> Position:
    """The position after stones on ``cells`` in turn, X first, each move validated."""
    position = game.new()
    for cell in cells:
        position = game.play(position, cell_move(game, cell))
    return position


def connect_four_from_picture(picture: str, last: str) -> Position:
    """The Connect Four position drawn in ``picture``, reached by legal play.

    A search finds an order that fills every column from the bottom, X and O in
    turn, with the stone on ``last`` played last; the picture may hold no line
    before that stone.
    """
    game = get_game("connect4")
    rows = textwrap.dedent(picture).strip().splitlines()
    width, height, k = size(game)
    assert len(rows) == height, "picture has the wrong number of rows"
    owner: dict[Cell, str] = {}
    for index, row_text in enumerate(rows):
        symbols = row_text.split()
        assert len(symbols) == width, f"picture row {row_text!r} has the wrong width"
        for column, symbol in enumerate(symbols):
            if symbol != ".":
                owner[(column, height - 1 - index)] = symbol
    final = name_cell(last)
    counts = {s: sum(1 for v in owner.values() if v == s) for s in "XO"}
    assert counts["X"] - counts["O"] == (owner[final] == "X"), "stone counts do not add up"
    for symbol in "XO":
        before = {cell for cell, s in owner.items() if s == symbol and cell != final}
        assert not has_line_by_coordinates(before, k), f"{symbol} has a line already"
    order = _gravity_order(owner, width, final)
    assert order is not None, "no legal order builds this picture"
    return play_cells(game, order)


def _gravity_order(owner: dict[Cell, str], width: int, final: Cell) -> list[Cell] | None:
    total = len(owner)

    @functools.cache
    def search(heights: tuple[int, ...]) -> tuple[Cell, ...] | None:
        ply = sum(heights)
        if ply == total:
            return ()
        symbol = "XO"[ply % 2]
        for column in range(width):
            cell = (column, heights[column])
            if owner.get(cell) != symbol or (cell == final and ply != total - 1):
                continue
            rest = search((*heights[:column], heights[column] + 1, *heights[column + 1 :]))
            if rest is not None:
                return (cell, *rest)
        return None

    found = search((0,) * width)
    return None if found is None else list(found)


def play_moves(game: Game, moves: list[int]) -> Position:
    position = game.new()
    for move in moves:
        position = game.play(position, move)
    return position


def random_game(game: Game, seed: int) -> list[int]:
    """The moves of a game played at random to its end."""
    rng = random.Random(seed)
    position = game.new()
    moves = []
    while legal := game.legal_moves(position):
        move = rng.choice(legal)
        moves.append(move)
        position = game.play_unchecked(position, move)
    return moves


def all_lines(game: Game) -> list[list[Cell]]:
    width, height, k = size(game)
    lines = []
    for dc, dr in DIRECTIONS:
        for column in range(width):
            for row in range(height):
                cells = [(column + i * dc, row + i * dr) for i in range(k)]
                if all(0 <= c < width and 0 <= r < height for c, r in cells):
                    lines.append(cells)
    return lines


def has_line_by_coordinates(cells: set[Cell], k: int) -> bool:
    return any(
        all((c + i * dc, r + i * dr) in cells for i in range(k))
        for c, r in cells
        for dc, dr in DIRECTIONS
    )


# -- the registry ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("tictactoe", (3, 3, 3, False)),
        ("tictactoe4", (4, 4, 4, False)),
        ("gomoku", (15, 15, 5, False)),
        ("connect4", (7, 6, 4, True)),
        ("mnk-5-4-3", (5, 4, 3, False)),
        ("mnk-19-19-7", (19, 19, 7, False)),
        ("mnk-2-2-2", (2, 2, 2, False)),
    ],
)
def test_each_game_has_its_documented_board(name: str, expected: tuple[int, ...]) -> None:
    """Every name gives the board sizes, line length and gravity of the documentation."""
    game = get_game(name)
    assert (*size(game), game.gravity) == expected
    assert game.name == name
    assert game.grid.cells == expected[0] * expected[1]


@pytest.mark.parametrize("name", ALL_GAMES)
def test_get_game_returns_the_same_object_for_the_same_name(name: str) -> None:
    """Games are cached: asking twice gives the very same immutable object."""
    assert get_game(name) is get_game(name)


@pytest.mark.parametrize(
    ("sizes", "preset"),
    [((3, 3, 3), "tictactoe"), ((4, 4, 4), "tictactoe4"), ((15, 15, 5), "gomoku")],
)
def test_mnk_sizes_of_a_preset_give_the_preset(sizes: tuple[int, int, int], preset: str) -> None:
    """``mnk-3-3-3`` and ``get_game("mnk", m=3, n=3, k=3)`` are tic-tac-toe itself."""
    m, n, k = sizes
    assert get_game(f"mnk-{m}-{n}-{k}") is get_game(preset)
    assert get_game("mnk", m=m, n=n, k=k) is get_game(preset)
    assert get_game(preset).name == preset


def test_mnk_keyword_sizes_name_the_same_game_as_the_string() -> None:
    """``get_game("mnk", m=5, n=5, k=4)`` is ``get_game("mnk-5-5-4")``."""
    game = get_game("mnk", m=5, n=5, k=4)
    assert game is get_game("mnk-5-5-4")
    assert game.name == "mnk-5-5-4"


@pytest.mark.parametrize(
    ("m", "n", "k", "culprit"),
    [
        (1, 3, 3, "m=1"),
        (20, 5, 5, "m=20"),
        (0, 3, 3, "m=0"),
        (-3, 3, 3, "m=-3"),
        (3, 1, 2, "n=1"),
        (5, 20, 5, "n=20"),
        (3, 3, 4, "k=4"),
        (3, 3, 1, "k=1"),
        (19, 19, 8, "k=8"),
        ("3", 3, 3, "m='3'"),
        (3, 3.0, 3, "n=3.0"),
    ],
)
def test_bad_mnk_sizes_raise_game_options_error_naming_the_size(
    m: object, n: object, k: object, culprit: str
) -> None:
    """Sizes out of range are a ``GameOptionsError`` (a ``ValueError``) naming the bad one."""
    with pytest.raises(GameOptionsError, match=culprit) as keyword_form:
        get_game("mnk", m=m, n=n, k=k)  # type: ignore[arg-type]
    assert isinstance(keyword_form.value, ValueError)
    if all(isinstance(v, int) and 0 <= v < 100 for v in (m, n, k)):
        with pytest.raises(GameOptionsError, match=culprit):
            get_game(f"mnk-{m}-{n}-{k}")


def test_mnk_without_its_sizes_is_refused_asking_for_them() -> None:
    """``get_game("mnk")`` with a size missing says which sizes it needs."""
    with pytest.raises(GameError, match=r"m \(columns\), n \(rows\) and k"):
        get_game("mnk", m=5, n=5)


@pytest.mark.parametrize("name", ["chess", "", "TicTacToe", "connect5", "mnk-3-3", "mnk-100-3-3"])
def test_unknown_names_raise_unknown_game_error_listing_the_choices(name: str) -> None:
    """An unknown name is a ``LookupError`` whose message quotes it and lists the games."""
    with pytest.raises(UnknownGameError) as info:
        get_game(name)
    message = str(info.value)
    assert isinstance(info.value, LookupError)
    assert repr(name) in message
    for choice in ("tictactoe", "tictactoe4", "connect4", "gomoku", "mnk-M-N-K"):
        assert choice in message


def test_every_game_error_is_also_the_builtin_it_means() -> None:
    """The exception tree of ``boardroom.shared.errors``: one root, and the builtin beside it."""
    assert issubclass(UnknownGameError, GameError) and issubclass(UnknownGameError, LookupError)
    assert issubclass(GameOptionsError, GameError) and issubclass(GameOptionsError, ValueError)
    assert issubclass(IllegalMoveError, GameError) and issubclass(IllegalMoveError, ValueError)
    assert issubclass(GameError, BoardroomError)


# -- lines ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GRID_GAMES)
def test_every_line_on_a_grid_board_wins_for_either_player(name: str) -> None:
    """Each k-line in each direction, edges and corners included, wins when completed.

    The middle stone goes last, so a line is also found when filled from inside.
    The loser's stones are kept off the line and never make one of their own.
    """
    game = get_game(name)
    _, _, k = size(game)
    every_cell = [(c, r) for r in range(game.grid.height) for c in range(game.grid.width)]
    for line in all_lines(game):
        for winner in Player:
            ordered = line[: k // 2] + line[k // 2 + 1 :] + [line[k // 2]]
            loser: list[Cell] = []
            for cell in every_cell:
                if len(loser) == k - 1 + winner.number:
                    break
                if cell not in line and not has_line_by_coordinates({*loser, cell}, k):
                    loser.append(cell)
            first, second = (ordered, loser) if winner is Player.FIRST else (loser, ordered)
            cells = [c for pair in zip(first, second, strict=False) for c in pair]
            cells += first[len(second) :]
            before = play_cells(game, cells[:-1])
            assert game.outcome(before) == ONGOING
            outcome = game.outcome(play_cells(game, cells))
            assert outcome.status is Status.WIN, line
            assert outcome.winner is winner
            assert sorted(outcome.line) == sorted(line)
            assert is_line(outcome.line, k)


@pytest.mark.parametrize(
    ("picture", "last", "line"),
    [
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            O O O . . . .
            X X X X . . .
            """,
            "d1",
            ["a1", "b1", "c1", "d1"],
            id="horizontal-bottom-left",
        ),
        pytest.param(
            """
            . . . X X X X
            . . . O X O X
            . . . X O X O
            . . . X O X O
            O . . O X O X
            O O . O X O X
            """,
            "g6",
            ["d6", "e6", "f6", "g6"],
            id="horizontal-top-right",
        ),
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            X . . . . . .
            X . . . . . .
            X O . . . . .
            X O O . . . .
            """,
            "a4",
            ["a1", "a2", "a3", "a4"],
            id="vertical-bottom-left",
        ),
        pytest.param(
            """
            . . . . . . X
            . . . . . . X
            . . . . . . X
            . . . . . . X
            . . . . . . O
            X O O X O . O
            """,
            "g6",
            ["g3", "g4", "g5", "g6"],
            id="vertical-top-right",
        ),
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            . . . X . . .
            . . X O . . .
            . X O X . . .
            X O X O O . .
            """,
            "d4",
            ["a1", "b2", "c3", "d4"],
            id="diagonal-from-a1",
        ),
        pytest.param(
            """
            . . . . . . X
            . . . . . X O
            . . . . X O O
            . . . X O X X
            . . . X X O O
            O . . O O X X
            """,
            "g6",
            ["d3", "e4", "f5", "g6"],
            id="diagonal-to-g6",
        ),
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            X . . . . . .
            O X . . . . .
            O O X . . . .
            X X O X O . .
            """,
            "a4",
            ["a4", "b3", "c2", "d1"],
            id="anti-diagonal-a4-to-d1",
        ),
        pytest.param(
            """
            . . . X . . .
            . . . O X . .
            . . . X O X .
            . . . O X O X
            . . . X O O X
            X . . O X O O
            """,
            "d6",
            ["d6", "e5", "f4", "g3"],
            id="anti-diagonal-d6-to-g3",
        ),
        pytest.param(
            """
            . . . . . . .
            . . . . . . .
            . . . O . . .
            . . . O . . .
            X . . O . . .
            X X . O . . X
            """,
            "d4",
            ["d1", "d2", "d3", "d4"],
            id="second-player-vertical",
        ),
    ],
)
def test_connect_four_lines_win_in_every_direction_up_to_the_edges(
    picture: str, last: str, line: list[str]
) -> None:
    """Four in a row wins in all four directions, touching the sides, floor and top."""
    game = get_game("connect4")
    position = connect_four_from_picture(picture, last)
    outcome = game.outcome(position)
    assert outcome.status is Status.WIN
    assert outcome.winner is Player.to_move_at(position.ply - 1)
    assert sorted(outcome.line) == sorted(name_cell(cell) for cell in line)
    assert is_line(outcome.line, 4)


def test_connect_four_stones_on_top_of_one_column_and_bottom_of_the_next_are_no_line() -> None:
    """X on a4, a5, a6 and b1 would be four in a row if columns ran on into each other."""
    game = get_game("connect4")
    position = connect_four_from_picture(
        """
        X . . . . . .
        X . . . . . .
        X . . . . . .
        O . . . . . .
        O O . . O . .
        O X X . X . .
        """,
        last="a6",
    )
    assert game.outcome(position) == ONGOING


@pytest.mark.parametrize("name", GRID_GAMES)
def test_grid_stones_at_the_end_of_one_row_and_start_of_the_next_are_no_line(name: str) -> None:
    """k stones running off the right edge of a row onto the next row do not win."""
    game = get_game(name)
    width, height, k = size(game)
    for split in range(1, k):
        x_cells = [(width - split + i, 0) for i in range(split)]
        x_cells += [(i, 1) for i in range(k - split)]
        assert not has_line_by_coordinates(set(x_cells), k)
        o_cells = [(i, height - 1) for i in range(k - 1)]
        cells = [c for pair in zip(x_cells, o_cells, strict=False) for c in pair] + [x_cells[-1]]
        assert game.outcome(play_cells(game, cells)) == ONGOING


@pytest.mark.parametrize("name", GRID_GAMES)
def test_grid_stones_at_the_top_of_one_column_and_foot_of_the_next_are_no_line(
    name: str,
) -> None:
    """k stones running off the top of a column onto the next column do not win."""
    game = get_game(name)
    width, height, k = size(game)
    for split in range(1, k):
        x_cells = [(0, height - split + i) for i in range(split)]
        x_cells += [(1, i) for i in range(k - split)]
        assert not has_line_by_coordinates(set(x_cells), k)
        o_cells = [(width - 1, i) for i in range(k - 1)]
        cells = [c for pair in zip(x_cells, o_cells, strict=False) for c in pair] + [x_cells[-1]]
        assert game.outcome(play_cells(game, cells)) == ONGOING


def test_gomoku_overlines_win_and_show_the_whole_run() -> None:
    """Free-style gomoku: six in a row wins, and all six stones form the winning line."""
    game = get_game("gomoku")
    position = game.from_moves("a1 a15 b1 b15 c1 c15 e1 e15 f1 o15 d1")
    outcome = game.outcome(position)
    assert outcome.status is Status.WIN and outcome.winner is Player.FIRST
    assert outcome.line == tuple((c, 0) for c in range(6))


def test_gomoku_joining_two_runs_into_seven_wins() -> None:
    """Three and three with a gap, filled: a run of seven on a five-in-a-row board wins."""
    game = get_game("gomoku")
    position = game.from_moves("h2 a15 h3 b15 h4 c15 h6 e15 h7 f15 h8 o1 h5")
    outcome = game.outcome(position)
    assert outcome.status is Status.WIN and outcome.winner is Player.FIRST
    assert sorted(outcome.line) == [(7, row) for row in range(1, 8)]


def test_four_in_a_row_does_not_win_gomoku() -> None:
    """Gomoku needs five: four stones in a row leave the game going."""
    game = get_game("gomoku")
    position = game.from_moves("h8 a1 h9 a3 h10 a5 h11")
    assert game.outcome(position) == ONGOING


# -- draws and the end of the game ----------------------------------------------------------


def test_a_full_tic_tac_toe_board_without_a_line_is_a_draw() -> None:
    """X a1 c3 c2 a3 b1, O b2 a2 c1 b3: nobody has three, the board is full, a draw."""
    game = get_game("tictactoe")
    position = game.from_moves("a1 b2 c3 a2 c2 c1 a3 b3 b1")
    assert game.outcome(position) == DRAW
    assert game.outcome(position).is_over
    assert game.outcome(position).winner is None and game.outcome(position).line == ()


def test_a_full_connect_four_board_without_a_line_is_a_draw() -> None:
    """42 stones and no four in a row: ongoing after every move but the last, then a draw."""
    game = get_game("connect4")
    position = game.new()
    for move in CONNECT4_DRAW:
        assert game.outcome(position) == ONGOING
        position = game.play(position, game.parse_move(position, move))
    assert position.ply == game.grid.cells == 42
    assert game.outcome(position) == DRAW


def test_filling_the_last_cell_with_a_line_is_a_win_not_a_draw() -> None:
    """When the ninth stone of tic-tac-toe makes a line, X wins although the board is full."""
    game = get_game("tictactoe")
    position = game.from_moves("a1 b1 c1 a2 b2 c2 b3 a3 c3")
    assert position.ply == 9
    outcome = game.outcome(position)
    assert outcome.status is Status.WIN and outcome.winner is Player.FIRST
    assert sorted(outcome.line) == [(0, 0), (1, 1), (2, 2)]


def ended_positions() -> list[tuple[str, Position]]:
    won_c4 = get_game("connect4").from_moves("4455667")
    drawn_c4 = get_game("connect4").from_moves(CONNECT4_DRAW)
    won_ttt = get_game("tictactoe").from_moves("a1 b1 a2 b2 a3")
    drawn_ttt = get_game("tictactoe").from_moves("a1 b2 c3 a2 c2 c1 a3 b3 b1")
    won_gomoku = get_game("gomoku").from_moves("h8 a1 h9 a2 h10 a3 h11 a4 h12")
    o_wins_ttt4 = get_game("tictactoe4").from_moves("a1 b1 a2 b2 a3 b3 c4 b4")
    return [
        ("connect4", won_c4),
        ("connect4", drawn_c4),
        ("tictactoe", won_ttt),
        ("tictactoe", drawn_ttt),
        ("gomoku", won_gomoku),
        ("tictactoe4", o_wins_ttt4),
    ]


@pytest.mark.parametrize(("name", "position"), ended_positions())
def test_no_move_is_legal_once_the_game_has_ended(name: str, position: Position) -> None:
    """After a win or a draw, ``legal_moves`` is empty, even with empty cells left."""
    game = get_game(name)
    assert game.outcome(position).is_over
    assert game.legal_moves(position) == []


@pytest.mark.parametrize(("name", "position"), ended_positions())
def test_play_refuses_every_move_after_the_end_with_game_over(
    name: str, position: Position
) -> None:
    """``play`` raises ``IllegalMoveError`` with reason GAME_OVER for any move on the board."""
    game = get_game(name)
    moves = range(game.grid.width) if game.gravity else range(game.grid.cells)
    for move in moves:
        with pytest.raises(IllegalMoveError, match="game is over") as info:
            game.play(position, move)
        assert info.value.reason is IllegalMoveReason.GAME_OVER
        assert info.value.move_text == game.format_move(move)


def test_o_can_win_tic_tac_toe_4x4() -> None:
    """The second player's line is a win for ``Player.SECOND``."""
    game = get_game("tictactoe4")
    outcome = game.outcome(game.from_moves("a1 b1 a2 b2 a3 b3 c4 b4"))
    line = ((1, 0), (1, 1), (1, 2), (1, 3))
    assert outcome == Outcome(Status.WIN, Player.SECOND, line, termination=Termination.LINE)


# -- refusing moves -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GRID_GAMES)
def test_play_refuses_an_occupied_cell(name: str) -> None:
    """A cell already holding a stone, of either player, is OCCUPIED."""
    game = get_game(name)
    position = game.play(game.play(game.new(), 0), 1)
    for move in (0, 1):
        with pytest.raises(IllegalMoveError) as info:
            game.play(position, move)
        assert info.value.reason is IllegalMoveReason.OCCUPIED


@pytest.mark.parametrize("name", ALL_GAMES)
def test_play_refuses_moves_off_the_board(name: str) -> None:
    """Move numbers below 0 or past the last cell (column) are OFF_BOARD."""
    game = get_game(name)
    end = game.grid.width if game.gravity else game.grid.cells
    for move in (-1, end, end + 100):
        with pytest.raises(IllegalMoveError) as info:
            game.play(game.new(), move)
        assert info.value.reason is IllegalMoveReason.OFF_BOARD


def test_play_refuses_a_full_column() -> None:
    """A seventh stone in a Connect Four column is COLUMN_FULL."""
    game = get_game("connect4")
    position = game.from_moves("444444")
    with pytest.raises(IllegalMoveError) as info:
        game.play(position, 3)
    assert info.value.reason is IllegalMoveReason.COLUMN_FULL


# -- turns and gravity ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_GAMES)
def test_players_alternate_starting_with_the_first(name: str) -> None:
    """X moves on even plies and O on odd ones; each stone lands in its mover's bitboard."""
    game = get_game(name)
    position = game.new()
    for ply, move in enumerate(random_game(game, seed=3)):
        mover = game.to_move(position)
        assert mover is (Player.FIRST if ply % 2 == 0 else Player.SECOND)
        child = game.play(position, move)
        added = child.stones[mover.number] & ~position.stones[mover.number]
        assert added.bit_count() == 1
        assert child.stones[mover.other.number] == position.stones[mover.other.number]
        position = child


def test_players_know_their_opponent_and_symbol() -> None:
    """``Player.FIRST`` plays X against ``Player.SECOND``, who plays O."""
    assert Player.FIRST.other is Player.SECOND and Player.SECOND.other is Player.FIRST
    assert (Player.FIRST.symbol, Player.SECOND.symbol) == ("X", "O")


@pytest.mark.parametrize("name", ALL_GAMES)
def test_the_empty_board_is_ongoing_with_every_move_legal(name: str) -> None:
    """A new position: no stones, X to move, every cell (or column) legal in order."""
    game = get_game(name)
    position = game.new()
    assert position.ply == 0 and position.occupied == 0
    assert game.to_move(position) is Player.FIRST
    assert game.outcome(position) == ONGOING
    end = game.grid.width if game.gravity else game.grid.cells
    assert game.legal_moves(position) == list(range(end))


def test_connect_four_stones_stack_from_the_bottom_of_a_column() -> None:
    """Three stones in column 4 fill d1, d2, d3 in turn: X, O, X."""
    game = get_game("connect4")
    position = game.new()
    for _ in range(3):
        position = game.play(position, 3)
    column = [stone_at(game, position, (3, row)) for row in range(6)]
    assert column == ["X", "O", "X", ".", ".", "."]
    assert position.occupied == sum(game.grid.cell(3, row) for row in range(3))


def test_a_full_connect_four_column_leaves_the_legal_moves() -> None:
    """Once column 4 holds six stones only the other six columns can be played."""
    game = get_game("connect4")
    position = game.from_moves("444444")
    assert game.legal_moves(position) == [0, 1, 2, 4, 5, 6]
    assert stone_at(game, position, (3, 5)) == "O"


# -- positions as values --------------------------------------------------------------------


def test_positions_are_immutable() -> None:
    """Fields cannot be set, and playing a move leaves the parent position untouched."""
    game = get_game("tictactoe")
    parent = game.from_moves("b2")
    snapshot = (parent.stones, parent.moves)
    child = game.play(parent, 0)
    assert (parent.stones, parent.moves) == snapshot
    assert child.moves == (4, 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        parent.moves = ()  # type: ignore[misc]


@pytest.mark.parametrize("name", ALL_GAMES)
def test_positions_from_the_same_moves_are_equal_and_hash_alike(name: str) -> None:
    """Positions are values: the same moves give equal positions that work as dict keys."""
    game = get_game(name)
    text = game.move_string(play_moves(game, random_game(game, seed=5)[:6]))
    first, second = game.from_moves(text), game.from_moves(text)
    assert first == second and first is not second
    assert hash(first) == hash(second)
    assert {first: "seen"}[second] == "seen"
    assert first != game.new()


@pytest.mark.parametrize("name", ALL_GAMES)
def test_positions_outcomes_and_games_survive_pickling(name: str) -> None:
    """Pickling keeps positions and outcomes equal, and brings back the cached game."""
    game = get_game(name)
    position = play_moves(game, random_game(game, seed=11))
    assert pickle.loads(pickle.dumps(position)) == position
    assert pickle.loads(pickle.dumps(game.outcome(position))) == game.outcome(position)
    assert pickle.loads(pickle.dumps(game)) is game


# -- a referee written here -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "games"),
    [
        ("tictactoe", 60),
        ("tictactoe4", 40),
        ("mnk-5-4-3", 40),
        ("mnk-3-5-3", 40),
        ("connect4", 80),
        ("gomoku", 4),
    ],
)
def test_random_games_agree_with_a_referee_counting_by_coordinates(name: str, games: int) -> None:
    """Move by move, the outcome and the legal moves match a plain referee's.

    The referee keeps a dict of stones by (column, row), drops Connect Four stones
    onto the column's height, looks for a run of k through the last stone, and calls
    a full board without one a draw.
    """
    game = get_game(name)
    width, height, k = size(game)
    directions_seen = set()
    for seed in range(games):
        board: dict[Cell, Player] = {}
        position = game.new()
        for move in random_game(game, seed):
            mover = game.to_move(position)
            if game.gravity:
                cell = (move, sum(1 for c, _ in board if c == move))
            else:
                cell = (move % width, move // width)
            board[cell] = mover
            position = game.play(position, move)
            assert stone_at(game, position, cell) == mover.symbol

            runs = []
            for dc, dr in DIRECTIONS:
                run = [cell]
                for sign in (1, -1):
                    c, r = cell[0] + sign * dc, cell[1] + sign * dr
                    while board.get((c, r)) is mover:
                        run.append((c, r))
                        c, r = c + sign * dc, r + sign * dr
                if len(run) >= k:
                    runs.append(sorted(run))
            outcome = game.outcome(position)
            if runs:
                assert outcome.status is Status.WIN and outcome.winner is mover
                assert sorted(outcome.line) in runs
                (c0, r0), (c1, r1) = sorted(outcome.line)[:2]
                directions_seen.add((c1 - c0, r1 - r0))
                assert game.legal_moves(position) == []
            elif len(board) == width * height:
                assert outcome == DRAW
            else:
                assert outcome == ONGOING
                if game.gravity:
                    legal = [c for c in range(width) if (c, height - 1) not in board]
                else:
                    legal = sorted(
                        r * width + c
                        for c in range(width)
                        for r in range(height)
                        if (c, r) not in board
                    )
                assert game.legal_moves(position) == legal
        assert game.outcome(position).is_over
    if name != "gomoku":
        assert len(directions_seen) == 4, "the random games should win every way"


# -- a winning line in words -----------------------------------------------------------


@pytest.mark.parametrize("name", ALL_GAMES)
def test_every_game_names_each_cell_of_a_line_and_reads_the_name_back(name: str) -> None:
    """``result.line`` names cells as grid cells in every game (the wire's form):
    each name reads back as its cell, and nothing else reads as a cell."""
    game = get_game(name)
    for column in range(game.grid.width):
        for row in range(game.grid.height):
            assert game.parse_cell_name(game.cell_name((column, row))) == (column, row)
    for not_a_cell in ("4", "", "d", "1d", "d0", "dd1", "d1 d2", "\u212a1"):
        assert game.parse_cell_name(not_a_cell) is None, not_a_cell


def test_a_line_is_written_in_the_notation_of_the_game_s_board() -> None:
    """Grids write a line by its cells, as their moves; Connect Four by the
    column numbers its board shows and its moves use, whatever the direction
    of the line, from the outcome itself."""
    assert get_game("tictactoe").line_text(["a1", "b2", "c3"]) == "a1-b2-c3"
    connect4 = get_game("connect4")
    position = connect4.from_moves("1213141")  # X up column 1
    names = [connect4.cell_name(cell) for cell in connect4.outcome(position).line]
    assert connect4.line_text(names) == "up column 1"
    position = connect4.from_moves("4455667")  # X along the floor, columns 4 to 7
    names = [connect4.cell_name(cell) for cell in connect4.outcome(position).line]
    assert connect4.line_text(names) == "across columns 4 to 7"
    position = connect4.from_moves("12233434474")  # X on a1 b2 c3 d4
    names = [connect4.cell_name(cell) for cell in connect4.outcome(position).line]
    assert connect4.line_text(names) == "diagonally across columns 1 to 4"
    # What is not a cell name is written as given, never dropped.
    assert connect4.line_text(["d1", "x"]) == "d1-x"
