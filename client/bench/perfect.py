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

from client.bench.engine import DATA_DIR, TEST_SETS, read_test_set
from client.conditions import condition_lines
from shared.engine import search, solve
from shared.games import GridGame, Position, get_game

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


def report(name: str, checked: Sequence[Checked]) -> str:
    kept = sum(c.kept for c in checked)
    sources = {s: sum(c.source == s for c in checked) for s in ("book", "exact", "depth-limited")}
    mean = statistics.fmean(c.seconds for c in checked) if checked else 0.0
    share = 100 * kept / len(checked) if checked else 0.0
    lines = [
        f"  {name:<22} {len(checked):>4} positions  kept {kept:>4} ({share:5.1f}%)  "
        f"book {sources['book']}, exact {sources['exact']}, "
        f"depth-limited {sources['depth-limited']}  "
        f"mean {mean:.2f} s"
    ]
    lines += [
        f"    lost value: {c.moves} (played {c.played}, {c.source}, {c.seconds:.2f} s)"
        for c in checked
        if not c.kept
    ]
    return "\n".join(lines)


def main(sample: int = 20, early: int = 20, seed: int = 1) -> int:
    """Run the bench (``sample`` positions of each test set, ``early`` early
    ones); 1 if ``perfect`` lost value anywhere, else 0."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    for line in condition_lines():
        print(line)
    print("The perfect level: does its move keep the position's exact value?")
    lost = 0
    for test_set in TEST_SETS:
        rows = read_test_set(test_set, sample)
        checked = [check_move(game, game.from_moves(m), score) for _, m, score in rows]
        lost += sum(not c.kept for c in checked)
        print(report(f"{test_set.name} {test_set.label}", checked))
    book_lines = [line.split() for line in JOURNAL.read_text().splitlines()]
    for stones, side in BOOK_DEEPEST:
        deepest = [(moves, int(score)) for moves, _, score in book_lines if len(moves) == stones]
        checked = [check_move(game, game.from_moves(m), value) for m, value in deepest[:sample]]
        lost += sum(not c.kept for c in checked)
        print(report(f"book, {stones} stones ({side})", checked))
    openings = early_positions(game, early, seed)
    checked = [check_move(game, game.from_moves(m), value) for m, value in openings]
    lost += sum(not c.kept for c in checked)
    print(report(f"early {EARLY_STONES[0]}-{EARLY_STONES[1]} stones", checked))
    print("PASS: every move kept the value" if not lost else f"FAIL: {lost} moves lost value")
    return 1 if lost else 0
