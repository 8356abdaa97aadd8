"""Othello's rules (:mod:`boardroom.shared.games.othello`): the start, flips, passes, the end
by count, illegal moves and the notation, checked against published perft counts.

Boards are drawn as pictures, top row (8) first, ``X`` Black (the first player),
``O`` White, as :meth:`~boardroom.shared.games.Game.board_rows` gives them.
"""

from __future__ import annotations

import pickle
import textwrap

import pytest

from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games import Player, Position, Status, Termination, get_game, spec_of
from boardroom.shared.games.othello import PASS, Othello
from boardroom.shared.games.othello_evaluation import CORNERS, evaluate
from boardroom.shared.games.spec import BoardKind, Search

GAME = get_game("othello")

PASS_LINE = "d3 c3 e6 d2 d1 e1 b2 c1"
"""After these eight moves Black (to move) has no legal move and White has: Black
must pass (found by random play; the shortest pass in 30,000 random games)."""
WIPEOUT = "d3 c3 f5 f4 f3 d2 d1 e3 b3"
"""Nine moves after which White has no disc left: neither side can move."""
DRAWN = (
    "d3 c5 f6 e3 f3 g7 c6 f2 e6 c3 b5 f5 g5 g6 g4 g3 e2 f4 b3 a3 h2 h3 h8 e7 d6 f1 b2 b7 "
    "d7 d8 b4 h1 e1 c1 c2 a5 a1 b1 a4 d2 h5 b6 f7 h6 h7 d1 a2 g8 f8 e8 a7 c4 c8 a6 c7 a8 "
    "h4 b8 g1 g2"
)
"""A full board, 32 discs each."""


def board(picture: str) -> tuple[str, ...]:
    return tuple(textwrap.dedent(picture).split())


def position_of(picture: str, *, to_move: Player = Player.FIRST) -> Position:
    """A position drawn as a picture, with ``to_move`` to play (no moves behind it
    but a parity filler: the rules read the side to move from the ply)."""
    black = white = 0
    for row_from_top, line in enumerate(board(picture)):
        row = 7 - row_from_top
        for column, symbol in enumerate(line):
            bit = 1 << (row * 8 + column)
            black |= bit if symbol == "X" else 0
            white |= bit if symbol == "O" else 0
    return Position((black, white), (PASS,) * to_move.number)


def moves_text(position: Position) -> list[str]:
    return [GAME.format_move(move) for move in GAME.legal_moves(position)]


# -- the registry and the start ----------------------------------------------------------


def test_othello_is_registered_with_its_capabilities() -> None:
    spec = spec_of("othello")
    assert spec_of("reversi") is spec and isinstance(GAME, Othello)
    assert spec.board is BoardKind.CELLS and spec.search is Search.GENERIC
    assert spec.endings == (Termination.COUNT,)
    assert spec.moves_help == "a cell such as d3, or pass"
    assert spec.evaluation is evaluate
    assert (GAME.width, GAME.height) == (8, 8)
    assert not hasattr(GAME, "grid")  # no k-in-a-row geometry


def test_the_start_has_four_discs_and_black_moves_first_to_one_of_four_cells() -> None:
    start = GAME.new()
    assert GAME.board_rows(start) == board(
        """
        ........
        ........
        ........
        ...XO...
        ...OX...
        ........
        ........
        ........
        """
    )
    assert GAME.to_move(start) is Player.FIRST
    assert sorted(moves_text(start)) == ["c4", "d3", "e6", "f5"]
    assert GAME.disc_counts(start) == (2, 2)
    assert not GAME.outcome(start).is_over


def test_render_labels_the_board_a1_to_h8_with_row_1_at_the_bottom() -> None:
    lines = GAME.render(GAME.from_moves("d3")).splitlines()
    assert lines[0] == "8 . . . . . . . ."
    assert lines[5] == "3 . . . X . . . ."
    assert lines[-1] == "  a b c d e f g h"


# -- flips -----------------------------------------------------------------------------


def test_a_move_flips_every_bracketed_line_in_all_eight_directions() -> None:
    position = position_of(
        """
        ........
        .X..X..X
        ..O.O.O.
        ...OOO..
        .XOO.OOX
        ...OOO..
        ..O.O.O.
        .X..X..X
        """
    )
    after = GAME.play(position, GAME.parse_move(position, "e4"))
    assert GAME.board_rows(after) == board(
        """
        ........
        .X..X..X
        ..X.X.X.
        ...XXX..
        .XXXXXXX
        ...XXX..
        ..X.X.X.
        .X..X..X
        """
    )
    assert GAME.disc_counts(after) == (25, 0)


def test_a_line_not_closed_by_the_movers_disc_is_not_flipped() -> None:
    position = position_of(
        """
        ........
        ........
        ........
        ........
        ..OO.OOX
        ........
        ........
        ........
        """
    )
    # Left of e4 the whites run to the empty b4: that line stays; right, g4 closes it.
    after = GAME.play_unchecked(position, GAME.parse_move(position, "e4"))
    assert GAME.board_rows(after)[4] == "..OOXXXX"


def test_white_flips_to_white_and_the_turn_passes_to_black() -> None:
    after = GAME.from_moves("d3 c3")
    assert GAME.board_rows(after)[3:6] == ("...XO...", "...OX...", "..OX....")
    assert GAME.to_move(after) is Player.FIRST


# -- passes ------------------------------------------------------------------------------


def test_a_side_with_no_move_must_pass_and_play_goes_on() -> None:
    position = GAME.from_moves(PASS_LINE)
    assert GAME.to_move(position) is Player.FIRST
    assert GAME.legal_moves(position) == [PASS]
    assert not GAME.outcome(position).is_over
    passed = GAME.play(position, GAME.parse_move(position, "pass"))
    assert passed.stones == position.stones
    assert GAME.to_move(passed) is Player.SECOND
    assert GAME.legal_moves(passed) and PASS not in GAME.legal_moves(passed)
    assert GAME.format_move(PASS) == "pass" and PASS == 64
    assert GAME.last_move_cell(passed) is None
    assert GAME.move_string(passed) == PASS_LINE + " pass"


def test_a_pass_is_refused_while_a_move_remains() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move(GAME.new(), "pass")
    assert caught.value.reason is IllegalMoveReason.CANNOT_PASS
    assert "c4" in str(caught.value)


def test_a_disc_is_refused_when_the_side_must_pass() -> None:
    position = GAME.from_moves(PASS_LINE)
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move(position, "h8")
    assert caught.value.reason is IllegalMoveReason.FLIPS_NOTHING
    assert "legal now: pass" in str(caught.value)


# -- the end -------------------------------------------------------------------------------


def test_the_game_ends_when_neither_side_can_move_and_most_discs_wins() -> None:
    position = GAME.from_moves(WIPEOUT)
    outcome = GAME.outcome(position)
    assert outcome.status is Status.WIN and outcome.winner is Player.FIRST
    assert outcome.termination is Termination.COUNT and outcome.line == ()
    assert GAME.disc_counts(position) == (13, 0)
    assert GAME.legal_moves(position) == []


def test_a_count_ends_with_the_side_that_did_not_move_last_winning() -> None:
    # White to move on a full board where White has more: White wins on count.
    position = position_of(("OOOOOOOO " * 5) + ("XXXXXXXX " * 3), to_move=Player.SECOND)
    outcome = GAME.outcome(position)
    assert (outcome.status, outcome.winner) == (Status.WIN, Player.SECOND)


def test_an_equal_count_is_a_draw() -> None:
    position = GAME.from_moves(DRAWN)
    assert GAME.disc_counts(position) == (32, 32)
    outcome = GAME.outcome(position)
    assert outcome.status is Status.DRAW and outcome.winner is None
    assert outcome.termination is Termination.COUNT
    assert Termination.COUNT.allows(None) and Termination.COUNT.is_draw


def test_a_game_can_end_with_empty_cells_left_when_nobody_can_move() -> None:
    position = position_of(
        """
        .XXXXXXX
        XXXXXXXX
        XXXXXXXX
        XXXXXXXX
        XXXXXXXX
        XXXXXXXX
        XXXXXXXO
        XXXXXXXX
        """
    )
    # a8's lines all run over Black's discs to the edge: nobody can play there.
    assert GAME.legal_moves(position) == []
    assert GAME.outcome(position).winner is Player.FIRST
    assert GAME.disc_counts(position) == (62, 1)


# -- illegal moves ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("e3", IllegalMoveReason.FLIPS_NOTHING),
        ("a1", IllegalMoveReason.FLIPS_NOTHING),
        ("d4", IllegalMoveReason.OCCUPIED),
        ("i1", IllegalMoveReason.OFF_BOARD),
        ("a9", IllegalMoveReason.OFF_BOARD),
        ("hello", IllegalMoveReason.NOT_A_MOVE),
        ("4", IllegalMoveReason.NOT_A_MOVE),
        ("", IllegalMoveReason.NOT_A_MOVE),
        ("\u212a1", IllegalMoveReason.NOT_A_MOVE),
    ],
)
def test_illegal_moves_are_refused_with_a_reason(text: str, reason: IllegalMoveReason) -> None:
    start = GAME.new()
    with pytest.raises(IllegalMoveError) as caught:
        GAME.parse_move(start, text)
    assert caught.value.reason is reason
    assert caught.value.move_text == text


def test_a_move_after_the_end_is_refused_as_game_over() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.from_moves(WIPEOUT + " a1")
    assert caught.value.reason is IllegalMoveReason.GAME_OVER
    assert "move 10" in str(caught.value)


def test_play_checks_legality_and_names_the_flipless_move() -> None:
    with pytest.raises(IllegalMoveError, match="'e3' flips nothing") as caught:
        GAME.play(GAME.new(), GAME._parse_token("e3"))
    assert caught.value.reason is IllegalMoveReason.FLIPS_NOTHING
    with pytest.raises(IllegalMoveError) as off:
        GAME.play(GAME.new(), 99)
    assert off.value.reason is IllegalMoveReason.OFF_BOARD


# -- notation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", [PASS_LINE + " pass a3", WIPEOUT, DRAWN, PASS_LINE.replace(" ", "") + "pass"]
)
def test_move_strings_round_trip(text: str) -> None:
    position = GAME.from_moves(text)
    again = GAME.from_moves(GAME.move_string(position))
    assert again == position
    assert GAME.move_string(position) == " ".join(GAME.format_move(m) for m in position.moves)


def test_moves_run_together_read_as_transcripts_write_them() -> None:
    assert GAME.from_moves("f5d6c3") == GAME.from_moves("f5, d6; C3")


def test_cells_are_numbered_from_a1_at_the_bottom_left() -> None:
    assert GAME.parse_move(GAME.new(), "d3") == 2 * 8 + 3
    assert GAME.move_cell(2 * 8 + 3) == (3, 2)
    assert GAME.move_cell(PASS) is None
    assert GAME.last_move_cell(GAME.from_moves("d3")) == (3, 2)
    assert CORNERS == 1 | 1 << 7 | 1 << 56 | 1 << 63  # a1 h1 a8 h8, as the evaluation reads them


def test_games_and_positions_pickle() -> None:
    position = GAME.from_moves(PASS_LINE + " pass")
    assert pickle.loads(pickle.dumps(GAME)) is GAME
    assert pickle.loads(pickle.dumps(position)) == position


# -- an independent check: perft ---------------------------------------------------------------

PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092}
"""Leaf counts from the start (a pass counting as a move), as published for
Othello move generators (e.g. the Aartbik/Edax perft tables)."""


def perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(
        perft(GAME.play_unchecked(position, m), depth - 1) for m in GAME.legal_moves(position)
    )


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_counts_from_the_start_match_the_published_numbers(depth: int) -> None:
    assert perft(GAME.new(), depth) == PERFT[depth]


# -- the evaluation -----------------------------------------------------------------------


def test_the_evaluation_prefers_corners_and_mobility_and_is_antisymmetric() -> None:
    corner = position_of(
        """
        X.......
        .O......
        ..O.....
        ...XO...
        ...OX...
        ........
        ........
        ........
        """
    )
    assert evaluate(GAME, corner) > 0
    for text in ("f5", "f5 d6", "f5 d6 c3", DRAWN.rsplit(" ", 10)[0]):
        position = GAME.from_moves(text)
        swapped = Position(position.stones[::-1], position.moves)
        assert evaluate(GAME, position) == -evaluate(GAME, swapped)
