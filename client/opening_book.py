"""Building the opening book (``boardroom book build``): solve, once, every early
position where the ``perfect`` level may be to move.

Which positions: from the start position (the empty board), those where perfect
is to move when it plays first, then those where it is to move when it plays
second, with at most ``plies`` stones, against any reply of the opponent. Perfect's
own moves are the book's: at each position it plays the move the book keeps, so
only the opponent branches (seven ways a move on Connect Four). Level by level:
the positions of one level are solved (exact score and a move that keeps it,
:func:`~boardroom.shared.engine.search.solve_move`), then each is played on by its book move
and every reply, giving the next level.

Resumable: every solved position is appended to a journal at once and flushed,
one line ``MOVES COLUMN SCORE`` (the move string, ``-`` for the empty board; the
move's column from 0, as played in that position; its exact stone score), so
an interrupted build (Ctrl-C, a reboot) starts again where it stopped:
positions in the journal are not solved again. The book file
(:mod:`boardroom.shared.engine.book`) is written from the journal at the end, or from
the journal alone with ``solve=False``.

Solves run in a process pool (``workers`` processes): each is independent, and
they take from milliseconds (late positions) to minutes (the first stones).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from boardroom.shared.engine.book import BookEntry, OpeningBook, book_key
from boardroom.shared.engine.scores import stone_score
from boardroom.shared.engine.search import solve_move
from boardroom.shared.games import GridGame, Player, Position, get_game

__all__ = ["BuildReport", "book_positions", "build_book", "read_journal", "write_book"]


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build did: positions in the book, solved by this run, found in the
    journal, and the seconds it took."""

    entries: int
    solved: int
    from_journal: int
    seconds: float


def read_journal(path: Path, game: GridGame, plies: int) -> OpeningBook:
    """The book of the journal at ``path`` (an empty book if there is none yet).
    A last line cut short by an interruption is ignored; any other bad line
    raises ``ValueError`` naming it."""
    book = OpeningBook(game, plies, {})
    if not path.exists():
        return book
    lines = path.read_text(encoding="ascii").split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            moves, column, score = line.split()
            position = game.from_moves(moves if moves != "-" else "")
            book.with_entry(position, BookEntry(int(column), int(score)))
        except ValueError as error:
            if number == len(lines):  # the line being written when the build stopped
                break
            raise ValueError(f"{path}, line {number}: {line!r} is not a journal line") from error
    return book


def book_positions(
    game: GridGame, book: OpeningBook, start: Position, plies: int, side: Player = Player.FIRST
) -> Iterator[list[Position]]:
    """The levels of positions the book must hold for ``perfect`` playing ``side``
    (see the module docstring), one list per level, each position once (mirror
    images count once). A level is asked for only once the book holds every
    position of the level before it: the next level follows the book's moves.
    ``side``: who ``perfect`` is, the side to move at ``start`` or the other one."""
    if side not in tuple(Player):
        raise ValueError(f"side {side!r}: first or second")
    if side == Player.FIRST:
        starts = [start]
    else:
        starts = [game.play(start, move) for move in game.legal_moves(start)]
    levels: dict[int, list[Position]] = {}
    for position in starts:
        if _open(game, position) and position.ply <= plies:
            levels.setdefault(position.ply, []).append(position)
    while levels:
        positions = _unique(game, levels.pop(min(levels)))
        yield positions
        for position in positions:
            entry = book.lookup(position)
            if entry is None:
                raise LookupError(f"the book has no move for {game.move_string(position)!r} yet")
            answered = game.play(position, entry.move)
            if not _open(game, answered):
                continue
            for reply in game.legal_moves(answered):
                child = game.play(answered, reply)
                if _open(game, child) and child.ply <= plies:
                    levels.setdefault(child.ply, []).append(child)


def build_book(
    game_name: str,
    *,
    plies: int,
    journal: Path,
    workers: int = 1,
    start: str = "",
    solve: bool = True,
    sides: Sequence[Player] = tuple(Player),
    report: Callable[[str], None] = print,
) -> tuple[OpeningBook, BuildReport]:
    """Build (or carry on building) the book of ``game_name`` up to ``plies``
    stones from the position ``start`` (a move string), for ``perfect`` playing
    each of ``sides`` in turn (the first side's first: they are what "perfect wins
    from the first move" needs), journalling at ``journal``; see the module
    docstring. With ``solve=False``, solve nothing: the book is what the journal
    holds (``LookupError`` if it is not complete)."""
    started = time.monotonic()
    game = get_game(game_name)
    if not isinstance(game, GridGame) or not game.gravity:
        raise ValueError(f"{game_name} has no opening book: only Connect Four does")
    book = read_journal(journal, game, plies)
    from_journal = len(book)
    solved = 0
    with (
        journal.open("a", encoding="ascii") as log,
        ProcessPoolExecutor(max_workers=workers) as pool,
    ):
        levels = (
            (side, positions)
            for side in sides
            for positions in book_positions(game, book, game.from_moves(start), plies, side)
        )
        for side, positions in levels:
            todo = [p for p in positions if book_key(game, p)[0] not in book]
            report(
                f"perfect {side}, {positions[0].ply} stones: {len(positions)} positions, "
                f"{len(todo)} to solve ({time.monotonic() - started:.0f} s so far)"
            )
            if todo and not solve:
                raise LookupError(
                    f"the journal lacks {len(todo)} positions of {positions[0].ply} stones"
                )
            for position, entry in _solve_all(pool, game, todo):
                book.with_entry(position, entry)
                moves = game.move_string(position) or "-"
                log.write(f"{moves} {entry.move} {entry.score}\n")
                log.flush()
                solved += 1
    seconds = time.monotonic() - started
    return book, BuildReport(len(book), solved, from_journal, seconds)


def write_book(book: OpeningBook, path: Path) -> int:
    """Write ``book`` to ``path`` whole or not at all (a temporary file renamed);
    returns its size in bytes."""
    data = book.to_bytes()
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
    return len(data)


def _solve_all(
    pool: ProcessPoolExecutor, game: GridGame, positions: Iterable[Position]
) -> Iterator[tuple[Position, BookEntry]]:
    """Each position with its entry, in the order the solves finish."""
    pending: dict[Future[tuple[int, int]], Position] = {
        pool.submit(_solve, game.name, game.move_string(p)): p for p in positions
    }
    while pending:
        done, _ = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            move, score = future.result()
            yield pending.pop(future), BookEntry(move, score)


def _solve(game_name: str, moves: str) -> tuple[int, int]:
    """In a worker: the move that keeps the value of ``moves`` and its stone score,
    by exact solving without any book (the book is what is being built)."""
    game = get_game(game_name)
    assert isinstance(game, GridGame)
    result = solve_move(game, game.from_moves(moves), book=OpeningBook(game, 0, {}))
    return result.move, stone_score(result.score)


def _open(game: GridGame, position: Position) -> bool:
    return not game.outcome(position).is_over


def _unique(game: GridGame, positions: list[Position]) -> list[Position]:
    """``positions`` with one of each key (a position or its mirror image), in order."""
    seen: dict[int, Position] = {}
    for position in positions:
        seen.setdefault(book_key(game, position)[0], position)
    return list(seen.values())
