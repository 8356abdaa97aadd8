"""The opening book (shared.engine.book): its file format, its lookups (a mirror
image shares its entry), and the search playing its moves."""

from __future__ import annotations

import pytest

from shared.engine import search, solve
from shared.engine.book import BookEntry, BookFormatError, OpeningBook, book_key
from shared.engine.scores import SCORE_UNIT
from shared.games import GridGame, get_game


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
