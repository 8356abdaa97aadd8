"""``boardroom bench perfect``: does the ``perfect`` level keep the game's value?

For Connect Four positions with known exact values, ``perfect`` plays one move
under its own budget (3 s), and the move is checked by exact solving: it keeps
the value when the position after it is worth exactly the opposite to the
opponent (a win as fast, a loss as slow, a draw still a draw). Sets:

- the standard test sets (``data/connect4``), their file's scores as the values;
- the book's deepest positions (8 stones where perfect is the first player, 7
  where it is the second, from the build's journal,
  ``data/book/connect4.journal``), where ``perfect`` plays the book's move: the
  book checked against fresh exact solves;
- early positions: seeded openings of 8 to 14 stones, random up to the 8th
  stone, then each move one that keeps the value (checked by exact solves, the
  oracle), so that they go on like games between players who know what they
  are doing.

Prints per set: positions, moves that kept the value, where the move came from
(the opening book, an exact solve within the budget, or otherwise a depth-limited
search: the only move that does not lose at once, whose value the search does not
stop to prove, or the deepening fallback when a solve did not fit), and the mean
time of a move. :func:`main` returns 1 if any move lost value.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from boardroom.client.bench.engine_run import DATA_DIR, TEST_SETS, read_test_set
from boardroom.client.conditions import condition_lines
from boardroom.shared.engine import search, solve
from boardroom.shared.games import GridGame, Position, get_game

JOURNAL = DATA_DIR.parent / "book" / "connect4.journal"
"""The opening book's build journal: its deepest positions are checked too."""
BOOK_DEEPEST = ((8, "perfect first"), (7, "perfect second"))
"""The book's deepest level for each side: its last moves before the search's own."""
EARLY_STONES = (8, 14)
"""Stones of the early positions: from where the book ends to the middle game."""


@dataclass(frozen=True, slots=True)
class Checked:
    """One position: did ``perfect``'s move keep the value, how it found it, how
    long; the position and the move, to name it when it did not."""

    kept: bool
    source: str
    seconds: float
    moves: str = ""
    played: str = ""


def check_move(game: GridGame, position: Position, value: int) -> Checked:
    """``perfect``'s move in ``position`` (worth ``value`` stones to the player to
    move) and whether it keeps that value (see the module docstring)."""
    started = time.perf_counter()
    result = search(game, position, level="perfect")
    seconds = time.perf_counter() - started
    source = "book" if result.book else "exact" if result.exact else "depth-limited"
    child = game.play(position, result.move)
    outcome = game.outcome(child)
    if outcome.is_over:  # won at once (the fastest win there is), or a full board's draw
        kept = value == (0 if outcome.winner is None else solve(game, position))
    else:
        kept = -solve(game, child) == value
    return Checked(kept, source, seconds, game.move_string(position), result.move_text)


def early_positions(
    game: GridGame, count: int, seed: int, stones: tuple[int, int] = EARLY_STONES
) -> list[tuple[str, int]]:
    """``count`` seeded openings of ``stones`` (fewest, most) stones (see the
    module docstring), each with its exact value for the player to move."""
    rng = random.Random(seed)
    first = stones[0]
    found: list[tuple[str, int]] = []
    while len(found) < count:
        target = rng.randint(*stones)
        position = _random_opening(game, rng, first)
        if position is None:
            continue
        value = solve(game, position)
        while position is not None and position.ply < target:
            position, value = _value_keeping_move(game, rng, position, value)
        if position is not None:
            found.append((game.move_string(position), value))
    return found


def _random_opening(game: GridGame, rng: random.Random, stones: int) -> Position | None:
    """Random moves up to ``stones`` stones; None if the game ended before."""
    position = game.new()
    while position.ply < stones:
        position = game.play(position, rng.choice(game.legal_moves(position)))
        if game.outcome(position).is_over:
            return None
    return position


def _value_keeping_move(
    game: GridGame, rng: random.Random, position: Position, value: int
) -> tuple[Position | None, int]:
    """A random move of ``position`` (worth ``value``) that keeps the value and
    leaves the game open, with the new position's value; None if there is none."""
    moves = game.legal_moves(position)
    rng.shuffle(moves)
    for move in moves:
        child = game.play(position, move)
        if not game.outcome(child).is_over and -solve(game, child) == value:
            return child, -value
    return None, value


COLUMNS = ("set", "positions", "kept the value", "book", "exact", "depth-limited", "mean time")
"""The table's headings (as docs/benchmarks.md's table has them)."""


def table_line(cells: Sequence[str], name_width: int) -> str:
    """One line of the table: the set's name left-aligned in ``name_width``
    columns, every other cell right-aligned under its heading (a wider cell
    pushes the rest of its line along, never into the next column's place).

    >>> print(table_line(COLUMNS, 8)); print(table_line(("early", "20", "20 (100%)",
    ...     "0", "14", "6", "0.32 s"), 8))
    set       positions  kept the value  book  exact  depth-limited  mean time
    early            20       20 (100%)     0     14              6     0.32 s
    """
    first, *rest = cells
    parts = [first.ljust(name_width)]
    parts += [cell.rjust(len(heading)) for cell, heading in zip(rest, COLUMNS[1:], strict=True)]
    return "  ".join(parts).rstrip()


def report(name: str, checked: Sequence[Checked], name_width: int) -> str:
    """The set's line of the table, then a line for each move that lost value."""
    kept = sum(c.kept for c in checked)
    sources = {s: sum(c.source == s for c in checked) for s in ("book", "exact", "depth-limited")}
    mean = statistics.fmean(c.seconds for c in checked) if checked else 0.0
    share = 100 * kept / len(checked) if checked else 0.0
    cells = (
        name,
        str(len(checked)),
        f"{kept} ({share:.0f}%)",
        str(sources["book"]),
        str(sources["exact"]),
        str(sources["depth-limited"]),
        f"{mean:.2f} s",
    )
    lines = [table_line(cells, name_width)]
    lines += [
        f"    lost value: {c.moves} (played {c.played}, {c.source}, {c.seconds:.2f} s)"
        for c in checked
        if not c.kept
    ]
    return "\n".join(lines)


def set_names() -> list[str]:
    """The names of the sets, in the order they are run."""
    names = [f"{test_set.name} {test_set.label}" for test_set in TEST_SETS]
    names += [f"book, {stones} stones ({side})" for stones, side in BOOK_DEEPEST]
    return [*names, f"early {EARLY_STONES[0]}-{EARLY_STONES[1]} stones"]


def main(sample: int = 20, early: int = 20, seed: int = 1) -> int:
    """Run the bench (``sample`` positions of each test set, ``early`` early
    ones); 1 if ``perfect`` lost value anywhere, else 0."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    for line in condition_lines():
        print(line)
    print("The perfect level: does its move keep the position's exact value?")
    names = iter(set_names())
    # Every name is known before the first row: the table is printed as it is measured.
    width = max(len(name) for name in [*set_names(), COLUMNS[0]])
    print(table_line(COLUMNS, width))
    lost = 0
    for test_set in TEST_SETS:
        rows = read_test_set(test_set, sample)
        checked = [check_move(game, game.from_moves(m), score) for _, m, score in rows]
        lost += sum(not c.kept for c in checked)
        print(report(next(names), checked, width), flush=True)
    book_lines = [line.split() for line in JOURNAL.read_text().splitlines()]
    for stones, _ in BOOK_DEEPEST:
        deepest = [(moves, int(score)) for moves, _, score in book_lines if len(moves) == stones]
        checked = [check_move(game, game.from_moves(m), value) for m, value in deepest[:sample]]
        lost += sum(not c.kept for c in checked)
        print(report(next(names), checked, width), flush=True)
    openings = early_positions(game, early, seed)
    checked = [check_move(game, game.from_moves(m), value) for m, value in openings]
    lost += sum(not c.kept for c in checked)
    print(report(next(names), checked, width))
    print("PASS: every move kept the value" if not lost else f"FAIL: {lost} moves lost value")
    return 1 if lost else 0
