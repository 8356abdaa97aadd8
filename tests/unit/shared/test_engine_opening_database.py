"""Connect Four's 12-stone opening database (:mod:`boardroom.shared.engine.opening_database`).

Oracles: bitbully, an independent C++ reader of the same file
(``OpeningBookCore.getBoardValue``) and solver (``BitBullyCore.mtdf``), and our
own solver with the database turned off. Never the database against itself.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from boardroom.shared.engine import opening_database as database
from boardroom.shared.engine import solve
from boardroom.shared.engine.kernel import SearchKernel, kernel_for
from boardroom.shared.engine.native import NativeSearcher
from boardroom.shared.engine.negamax import Searcher
from boardroom.shared.engine.opening_database_check import check_sample
from boardroom.shared.engine.opening_database_check import random_position as random_game_position
from boardroom.shared.games import GridGame, Position, get_game

pytestmark = pytest.mark.usefixtures("compiled_solver_ready")  # runs the compiled solver

bbc = pytest.importorskip("bitbully.bitbully_core")

SAMPLE_FAST = 30
"""Entries solved by our solver in the fast suite, about 0.13 s each."""
SAMPLE_FULL = 200
"""The issue's "few hundred", about 25 s: an e2e test. ``python -m
boardroom.shared.engine.opening_database_check N`` runs thousands (docs/benchmarks.md)."""


def the_database() -> database.OpeningDatabase:
    table = database.opening_database()
    assert table is not None, "bitbully-databases is a dependency: make install"
    return table


def connect4() -> tuple[GridGame, SearchKernel]:
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    return game, kernel_for(game)


def bitbully_board(first: int, second: int) -> object:
    """bitbully's board of a position given as X's and O's bitboards (column-major,
    bottom up, 1 for X and 2 for O, as ``BoardCore.toArray`` gives)."""
    columns = [
        [1 if first >> (c * 7 + r) & 1 else 2 if second >> (c * 7 + r) & 1 else 0 for r in range(6)]
        for c in range(7)
    ]
    board = bbc.BoardCore()
    assert board.setBoard(columns)
    return board


def bitbully_book() -> object:
    return bbc.OpeningBookCore(Path(the_database().path))


def test_every_raw_value_byte_maps_to_bitbullys_value() -> None:
    """For one entry of each distinct raw byte (all 30 of them) and 300 at random,
    the stored stone score is bitbully's ``getBoardValue`` of the decoded board:
    the byte mapping and the key decoding are both right."""
    table = the_database()
    path = Path(table.path)
    raw = path.read_bytes()
    first_of_byte: dict[int, int] = {}
    for index in range(0, len(table), 997):
        first_of_byte.setdefault(
            int.from_bytes(raw[index * 5 + 4 : index * 5 + 5], signed=True), index
        )
    rng = random.Random("bytes")
    indices = list(first_of_byte.values()) + rng.sample(range(len(table)), 300)
    book = bitbully_book()
    for index in indices:
        key = int(table.keys[index])
        byte = int.from_bytes(raw[index * 5 + 4 : index * 5 + 5], signed=True)
        board = bitbully_board(*database.decode_key(key))
        assert (
            book.getBoardValue(board) == database.stone_score_of_byte(byte) == table.scores[index]
        )
    assert len(first_of_byte) >= 29  # wins in 1..29 plies, losses, draws: all sampled


def test_the_byte_mapping_in_words() -> None:
    """ "100 minus distance", in plies from 12 stones: 71 is X winning on ply 41
    with its 21st stone (score 1), 97 on ply 15 with its 8th (14); -70 is O
    winning on ply 42 with its 21st (-1), -88 on ply 24 with its 12th (-10)."""
    assert [database.stone_score_of_byte(b) for b in (71, 97, 0, -70, -88, -98)] == [
        1,
        14,
        0,
        -1,
        -10,
        -15,
    ]


def test_keys_decode_and_encode_back() -> None:
    """A key decodes to 6 X and 6 O stones whose key is the same key."""
    table = the_database()
    for index in random.Random("keys").sample(range(len(table)), 200):
        key = int(table.keys[index])
        first, second = database.decode_key(key)
        assert (first.bit_count(), second.bit_count()) == (6, 6)
        assert database.huffman_key(first, second) == key


def test_a_position_is_found_whether_it_or_its_mirror_is_stored() -> None:
    """Only one of a position and its mirror is stored; lookup finds both, with the
    same value, and bitbully agrees."""
    table = the_database()
    book = bitbully_book()
    mirrored_found = 0
    for index in random.Random("mirror").sample(range(len(table)), 100):
        first, second = database.decode_key(int(table.keys[index]))
        image = database.mirror(first), database.mirror(second)
        if image == (first, second):
            continue
        assert table.lookup(*image) == table.lookup(first, second) == table.scores[index]
        assert book.getBoardValue(bitbully_board(*image)) == table.scores[index]
        mirrored_found += table.score(database.huffman_key(*image)) is None
    assert mirrored_found > 50  # most mirror images are not stored themselves


def test_positions_not_of_twelve_stones_are_not_looked_up() -> None:
    game, _ = connect4()
    position = game.from_moves("4444")
    assert the_database().lookup(position.stones[0], position.stones[1]) is None


def test_a_sample_of_entries_agrees_with_our_solver_without_the_database() -> None:
    """Entries drawn at random, decoded and solved by our solver with the database
    off, have the stored score."""
    checked = list(check_sample(SAMPLE_FAST, seed=25))
    assert len(checked) == SAMPLE_FAST
    assert [c for c in checked if not c.agrees] == []
    assert len({c.stored for c in checked}) > 5


@pytest.mark.e2e
def test_a_few_hundred_entries_agree_with_our_solver_without_the_database() -> None:
    """The same on 200 other entries: wins of every speed, losses and draws."""
    checked = list(check_sample(SAMPLE_FULL, seed=2025))
    assert [c for c in checked if not c.agrees] == []
    assert {c.stored > 0 for c in checked} | {c.stored == 0 for c in checked} == {True, False}
    assert min(c.stored for c in checked) < 0 < max(c.stored for c in checked)


def random_position(game: GridGame, stones: int, rng: random.Random) -> Position:
    """A position of ``stones`` random moves in which the side to move cannot win at once."""
    _, kernel = connect4()
    while True:
        position = random_game_position(stones, rng)
        ply = position.ply
        cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
        occupied = cur | opp
        if not kernel.winning_cells(cur, kernel.board & ~occupied) & kernel.playable(occupied):
            return position


def solved(build: type[Searcher], position: Position, **options: bool) -> tuple[int, int]:
    _, kernel = connect4()
    ply = position.ply
    cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
    searcher = build(kernel, **options)  # type: ignore[arg-type]
    half = kernel.half
    score = searcher.solve(cur, opp, ply, low=-(half - (ply + 1) // 2), high=half - (ply + 2) // 2)
    return score, searcher.nodes


@pytest.mark.parametrize("stones", [0, 5, 8, 10, 11, 12])
def test_both_builds_use_the_database_at_the_same_nodes(stones: int) -> None:
    """With the database, the compiled and the pure solver visit exactly the same
    nodes and find bitbully's score, from the empty board to 12 stones."""
    game, _ = connect4()
    rng = random.Random(f"database {stones}")
    solver = bbc.BitBullyCore()
    for _ in range(2 if stones else 1):
        position = random_position(game, stones, rng)
        native = solved(NativeSearcher, position)
        assert native == solved(Searcher, position)
        board = bitbully_board(position.stones[0], position.stones[1])
        if stones >= 8:  # bitbully without its book is slow before 8 stones
            assert native[0] == solver.mtdf(board, 0)
        else:
            assert native[0] == solve(game, position)


def test_the_empty_board_is_a_first_player_win_with_the_last_stone() -> None:
    """The known value of Connect Four: X wins with its 21st stone (score 1)."""
    game, _ = connect4()
    assert solve(game, game.new()) == 1


def test_without_the_file_the_engine_searches_as_before(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A missing file: no database, one clear warning however often it is asked,
    and solves still right (by searching through 12 stones)."""
    monkeypatch.setenv(database.DATABASE_ENV, str(tmp_path / "missing.dat"))
    game, _ = connect4()
    position = random_position(game, 11, random.Random("missing"))
    with caplog.at_level(logging.WARNING, logger=database.__name__):
        assert database.opening_database() is None
        assert database.opening_database() is None
        database_off = solved(NativeSearcher, position)
    warnings = [r for r in caplog.records if "opening database" in r.getMessage()]
    assert len(warnings) == 1
    assert "missing.dat" in warnings[0].getMessage()
    monkeypatch.delenv(database.DATABASE_ENV)
    with_database = solved(NativeSearcher, position)
    assert database_off[0] == with_database[0]
    assert database_off[1] > with_database[1]


def test_a_damaged_file_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A file of the wrong size or with keys out of order is not used."""
    short = tmp_path / "short.dat"
    short.write_bytes(b"\x00" * 7)
    unordered = tmp_path / "unordered.dat"
    unordered.write_bytes(b"\x00\x00\x00\x02\x00" + b"\x00\x00\x00\x01\x00")
    for path in (short, unordered):
        with pytest.raises(database.OpeningDatabaseError):
            database.load(path)
        monkeypatch.setenv(database.DATABASE_ENV, str(path))
        assert database.opening_database() is None


def test_off_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    stored = database.decode_key(int(the_database().keys[0]))
    assert database.lookup(*stored) is not None
    monkeypatch.setenv(database.DATABASE_ENV, "off")
    assert database.opening_database() is None
    assert database.lookup(*stored) is None


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_levels_below_perfect_are_not_affected(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth-limited search never asks the database: the same move, score and
    nodes with it and without it, from a position that reaches 12 stones (a
    clock of a minute, so that only the level's depth stops the search)."""
    from boardroom.shared.engine import search

    game, _ = connect4()
    position = random_position(game, 9, random.Random(level))
    with_database = search(game, position, level=level, seed=7, time_limit=60)
    monkeypatch.setenv(database.DATABASE_ENV, "off")
    without = search(game, position, level=level, seed=7, time_limit=60)
    assert (with_database.move, with_database.score, with_database.nodes) == (
        without.move,
        without.score,
        without.nodes,
    )
