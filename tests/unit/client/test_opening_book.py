"""Building the opening book (boardroom.client.opening_book, ``boardroom book``): every
entry keeps the position's exact value, a build carries on from its journal,
and the book file reads back. Built from late positions of the standard test
sets, where exact solves take milliseconds (real solves, in a real process pool)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardroom.client.cli import main
from boardroom.client.opening_book import build_book, read_journal
from boardroom.shared.engine import solve
from boardroom.shared.engine.book import OpeningBook
from boardroom.shared.games import GridGame, get_game

pytestmark = [
    pytest.mark.e2e,  # solves in worker processes
    pytest.mark.usefixtures("compiled_solver_ready"),
]

START = "7422341735647741166133573473242566"
"""A position of data/connect4/Test_L3_R1 (34 stones, score 1 for the player to move)."""


@pytest.fixture
def connect4() -> GridGame:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    return game


def quiet(line: str) -> None:
    """A report callback that keeps the build's progress lines out of the output."""


def test_every_entry_keeps_the_exact_value_and_both_sides_are_covered(
    tmp_path: Path, connect4: GridGame
) -> None:
    book, report = build_book(
        "connect4", plies=38, journal=tmp_path / "j", workers=2, start=START, report=quiet
    )

    assert report.entries == len(book) == report.solved > 0 and report.from_journal == 0
    stones = set()
    for line in (tmp_path / "j").read_text().splitlines():
        position = connect4.from_moves(line.split()[0])
        entry = book.lookup(position)
        assert entry is not None
        stones.add(position.ply)
        assert solve(connect4, position) == entry.score
        child = connect4.play(position, entry.move)
        if connect4.outcome(child).is_over:
            assert entry.score > 0  # a winning move
        else:
            assert -solve(connect4, child) == entry.score
    # perfect to move with 34 (playing first from here) and 35 stones (second)
    assert stones == {34, 35, 36, 37, 38}


def test_a_build_carries_on_from_its_journal(tmp_path: Path, connect4: GridGame) -> None:
    """Two stones deeper with the same journal: only the new positions are solved,
    and the book is the one a fresh build makes."""
    journal = tmp_path / "j"
    shallow, _ = build_book("connect4", plies=36, journal=journal, start=START, report=quiet)
    deeper, report = build_book(
        "connect4", plies=38, journal=journal, workers=2, start=START, report=quiet
    )
    fresh, _ = build_book("connect4", plies=38, journal=tmp_path / "k", start=START, report=quiet)

    assert report.from_journal == len(shallow) and report.solved == len(deeper) - len(shallow)
    assert list(deeper.items()) == list(fresh.items())


def test_a_journal_cut_short_is_read_and_a_bad_line_is_refused(
    tmp_path: Path, connect4: GridGame
) -> None:
    journal = tmp_path / "j"
    build_book("connect4", plies=36, journal=journal, start=START, report=quiet)
    whole = journal.read_text()
    journal.write_text(whole + "74223417356477411661335734732425661 3")  # cut mid-line

    assert len(read_journal(journal, connect4, 36)) == whole.count("\n")

    journal.write_text("not a journal line\n" + whole)
    with pytest.raises(ValueError, match="line 1"):
        read_journal(journal, connect4, 36)


def test_writing_a_book_from_an_incomplete_journal_solves_nothing_and_says_so(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "j"
    build_book("connect4", plies=35, journal=journal, start=START, report=quiet)
    with pytest.raises(LookupError, match="lacks"):
        build_book("connect4", plies=37, journal=journal, start=START, solve=False, report=quiet)


def test_the_command_builds_writes_and_shows_a_book(
    tmp_path: Path, connect4: GridGame, capsys: pytest.CaptureFixture[str]
) -> None:
    out, journal = tmp_path / "c4.book", tmp_path / "c4.journal"
    argv = ["book", "build", "--plies", "37", "--journal", str(journal), "--out", str(out)]

    assert main([*argv, "--start", START, "--workers", "1"]) == 0
    assert main(["book", "info", str(out)]) == 0

    printed = capsys.readouterr().out
    book = OpeningBook.from_bytes(out.read_bytes(), connect4)
    assert f"{len(book)} positions in the book" in printed
    assert f"up to 37 stones, {len(book)} positions" in printed
    assert book.plies == 37


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["book", "build", "--plies", "-1", "--journal", "j"], "--plies"),
        (["book", "build", "--plies", "4", "--journal", "j", "--game", "tictactoe"], "only"),
        (["book", "info", "missing.book"], "missing.book"),
    ],
)
def test_bad_requests_are_refused_with_the_reason(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    words: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) in (1, 2)
    assert words in capsys.readouterr().err


def test_a_build_for_one_side_holds_that_sides_positions_only(
    tmp_path: Path, connect4: GridGame
) -> None:
    """Perfect as the side to move at the start (34 stones): its positions have
    34, 36 and 38 stones; as the other side, 35 and 37."""
    first, _ = build_book(
        "connect4", plies=38, journal=tmp_path / "f", start=START, sides=("first",), report=quiet
    )
    second, _ = build_book(
        "connect4", plies=38, journal=tmp_path / "s", start=START, sides=("second",), report=quiet
    )

    def stones(journal: Path) -> set[int]:
        return {len(line.split()[0]) for line in journal.read_text().splitlines()}

    assert stones(tmp_path / "f") == {34, 36, 38} and stones(tmp_path / "s") == {35, 37}
    assert len(first) + len(second) == len(
        build_book("connect4", plies=38, journal=tmp_path / "b", start=START, report=quiet)[0]
    )
