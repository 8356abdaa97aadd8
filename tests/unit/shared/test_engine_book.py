"""The opening book (boardroom.shared.engine.book): its file format, its lookups (a mirror
image shares its entry), and the search playing its moves."""

from __future__ import annotations

import pytest

from boardroom.shared.engine import search, solve
from boardroom.shared.engine.book import (
    BookEntry,
    BookFormatError,
    OpeningBook,
    book_key,
    packaged_book,
)
from boardroom.shared.engine.scores import SCORE_UNIT
from boardroom.shared.games import GridGame, Position, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver


@pytest.fixture
def connect4() -> GridGame:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    return game


def test_a_book_reads_back_what_it_wrote(connect4: GridGame) -> None:
    entries = [("", BookEntry(3, 1)), ("4", BookEntry(3, -2)), ("44", BookEntry(2, 2))]
    book = OpeningBook.of(connect4, 2, ((connect4.from_moves(m), e) for m, e in entries))

    again = OpeningBook.from_bytes(book.to_bytes(), connect4)

    assert (again.plies, len(again)) == (2, 3)
    assert list(again.items()) == list(book.items())
    for moves, entry in entries:
        assert again.lookup(connect4.from_moves(moves)) == entry
    assert again.lookup(connect4.from_moves("444")) is None


def test_a_mirror_image_shares_the_entry_its_move_mirrored(connect4: GridGame) -> None:
    """Column 1 then 2 is the mirror of 7 then 6: one key; a move stored for the
    one is read mirrored for the other."""
    left, right = connect4.from_moves("12"), connect4.from_moves("76")
    assert book_key(connect4, left)[0] == book_key(connect4, right)[0]
    book = OpeningBook.of(connect4, 2, [(left, BookEntry(0, -1))])

    assert len(book) == 1
    assert book.lookup(left) == BookEntry(0, -1)
    assert book.lookup(right) == BookEntry(6, -1)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"", "BRBOOK1"),
        (b"PK\x03\x04 a zip file", "BRBOOK1"),
        (b"BRBOOK1\n{not json}\n", "header"),
        (b'BRBOOK1\n{"game": "connect4"}\n', "header"),
        (b'BRBOOK1\n{"game": "tictactoe", "plies": 2, "entries": 0}\n', "'tictactoe'"),
        (b'BRBOOK1\n{"game": "connect4", "plies": 2, "entries": 2}\n' + bytes(15), "20 bytes"),
        (b"BRBOOK1\n" + b"x" * 5000, "no end"),
    ],
)
def test_bytes_that_are_no_book_are_refused_with_the_reason(
    connect4: GridGame, data: bytes, words: str
) -> None:
    with pytest.raises(BookFormatError, match=words):
        OpeningBook.from_bytes(data, connect4)


def test_only_gravity_games_have_books() -> None:
    tictactoe = get_game("tictactoe")
    assert isinstance(tictactoe, GridGame)
    with pytest.raises(ValueError, match="only gravity games"):
        OpeningBook(tictactoe, 0, {})


# A middle-game position of the standard test sets (data/connect4/Test_L2_R1), and
# one that is won: the search with a book entry for them plays it without searching.
MIDDLE = "2252576253462244111563365343671351441"


def test_perfect_play_takes_the_books_move_without_searching(connect4: GridGame) -> None:
    position = connect4.from_moves(MIDDLE)
    searched = search(connect4, position, level="perfect", book=OpeningBook(connect4, 0, {}))
    assert searched.exact and searched.nodes > 0
    book = OpeningBook.of(connect4, 40, [(position, BookEntry(searched.move, -1))])

    played = search(connect4, position, level="perfect", book=book)

    assert (played.move, played.exact, played.nodes) == (searched.move, True, 0)
    assert played.score == -1 * SCORE_UNIT == searched.score
    assert solve(connect4, position) == -1  # the file's score: the book agrees


def test_a_book_move_into_an_immediate_loss_is_not_followed(connect4: GridGame) -> None:
    """A damaged book: after "43556" the first player threatens g1 (c1 is taken),
    and the book says column a, which lets that win through. The search ignores
    the book and blocks."""
    position = connect4.from_moves("43556")
    bad = OpeningBook.of(connect4, 10, [(position, BookEntry(0, 5))])

    played = search(connect4, position, level="perfect", book=bad, time_limit=1.0)

    assert played.move == 6 and played.nodes > 0  # column g, found by searching


def test_levels_below_perfect_never_read_the_book(connect4: GridGame) -> None:
    position = connect4.from_moves(MIDDLE)
    book = OpeningBook.of(connect4, 40, [(position, BookEntry(0, 9))])
    hard = search(connect4, position, level="hard", book=book, seed=1)
    assert hard.nodes > 0


def _lines_of_the_book(
    game: GridGame, book: OpeningBook, position: Position, seen: dict[int, str]
) -> None:
    """Walk every line of ``book`` from ``position`` (perfect to move): perfect
    plays the book's move, the opponent each of its replies. Each position
    perfect meets goes in ``seen`` (its key: its moves), once; checks as it goes."""
    key, _ = book_key(game, position)
    if key in seen:
        return
    entry = book.lookup(position)
    assert entry is not None, f"{game.move_string(position)}: a reply the book does not cover"
    seen[key] = game.move_string(position)
    after = game.play(position, entry.move)
    if game.outcome(after).is_over:
        # Won at once (a weak reply let it): a win's score, by the stones left.
        assert entry.score == (game.grid.cells + 1 - position.ply) // 2, seen[key]
        return
    replies = [game.play(after, reply) for reply in game.legal_moves(after)]
    if replies[0].ply > book.plies:
        return  # the deepest level: the search solves from here on
    # The value the book's move keeps is what the opponent's best reply leaves,
    # by the book's own entries one level down, each solved on its own.
    below = [book.lookup(reply) for reply in replies]
    assert all(found is not None for found in below), seen[key]
    assert entry.score == min(found.score for found in below if found is not None), seen[key]
    for reply in replies:
        _lines_of_the_book(game, book, reply, seen)


@pytest.mark.parametrize("side", ["first", "second"])
def test_the_shipped_book_keeps_the_value_on_every_line_for_either_side(
    connect4: GridGame, side: str
) -> None:
    """The packaged book answers every position where perfect may be to move up to
    its depth, as the first player or the second, whatever the opponent played;
    and each of its moves keeps the position's value: the book's score for the
    position is the worst the opponent can leave it after that move, by the
    book's entries one level down (solved separately, so they check the move)."""
    book = packaged_book(connect4)
    assert book is not None and book.plies == 8
    starts = [connect4.new()]
    if side == "second":
        starts = [connect4.play(connect4.new(), move) for move in connect4.legal_moves(starts[0])]
    seen: dict[int, str] = {}
    for start in starts:
        _lines_of_the_book(connect4, book, start, seen)
    # Distinct positions (mirror images are one): 746 as the first player (0 to 8
    # stones), 734 as the second (1 to 7); together the whole book.
    assert len(seen) == {"first": 746, "second": 734}[side]
