"""``boardroom bench levels``: matches between playing levels, to show strength is monotone.

Each adjacent pair of levels (random-easy, easy-medium, medium-hard, hard-perfect)
plays a short match on each board. Colours alternate game by game, and every game
has its own seed, so the varied levels (``random``, ``easy``, ``medium``) play a
different game each time. ``hard`` and ``perfect`` do not vary: a match between
them has at most one game per colour on boards they search to the end, and the
table says how many distinct games a match held.

>>> result = play_match("tictactoe", "perfect", "random", games=4, seed=1)
>>> result.losses, result.points_a > result.points_b
(0, True)

The numbers depend on the machine wherever a level stops on the clock
(``perfect`` on Connect Four and gomoku, every level but ``random`` and ``easy``
on gomoku), so :func:`main` prints the conditions beside the table.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from boardroom.client.conditions import condition_lines
from boardroom.shared.engine import Level, parse_level, plan_search, search
from boardroom.shared.games import Game, Player, Position, game_specs, get_game

LADDER = (Level.RANDOM, Level.EASY, Level.MEDIUM, Level.HARD, Level.PERFECT)
"""The levels from weakest to strongest."""

BOARDS = tuple(spec.name for spec in game_specs() if not spec.is_family)
"""The boards :func:`main` plays, in menu order: every single game of the registry,
whichever search plays it. A game on the generic search (Othello) is the one whose
levels most need showing monotone, and costs no more than gomoku once its count is
capped (:data:`LONG_GAME_GAMES`); a family's boards (m,n,k) are left out, as each
size would be a board of its own."""

LONG_GAME_PLIES = 50
"""A board is long if a game of random moves on it lasts this many plies: gomoku's
run to a hundred and more, Othello's to about 60; Connect Four's end by 42."""

LONG_GAME_GAMES = 2
"""Games per pair on a long board: ``medium`` and up spend most of their budget on
every move there, so a pair takes minutes even at this count."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game: the level in each seat, the moves, and the winner (None: draw)."""

    first: Level
    second: Level
    moves: str
    plies: int
    winner: Player | None

    @property
    def winning_level(self) -> Level | None:
        """The level that won, or None for a draw."""
        if self.winner is None:
            return None
        return self.first if self.winner is Player.FIRST else self.second


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A match between ``level_a`` and ``level_b``, counted for ``level_a``.

    ``elapsed`` is the wall time of the whole match in seconds; ``plies`` the moves
    played in all its games.
    """

    game: str
    level_a: Level
    level_b: Level
    wins: int
    draws: int
    losses: int
    plies: int
    elapsed: float
    records: tuple[GameRecord, ...]

    @property
    def games(self) -> int:
        """Games played."""
        return self.wins + self.draws + self.losses

    @property
    def points_a(self) -> float:
        """``level_a``'s points: one a win, half a draw."""
        return self.wins + 0.5 * self.draws

    @property
    def points_b(self) -> float:
        """``level_b``'s points: one a win, half a draw."""
        return self.losses + 0.5 * self.draws

    @property
    def distinct_games(self) -> int:
        """How many games differed in their moves (the same moves with the same
        seats count once)."""
        return len({(r.first, r.moves) for r in self.records})


def capped_time(level: Level, cap: float | None) -> float | None:
    """The time limit to pass for ``level`` so that it spends at most ``cap`` seconds
    on a move: the level's own budget when that is shorter, or None to keep it."""
    plan = plan_search(level, None, None)
    if cap is None or plan.random:
        return None
    if plan.time_limit is None:
        return cap
    return min(cap, plan.time_limit)


def play_game(
    game: Game,
    first: Level,
    second: Level,
    *,
    seed: int | str,
    time_limit: float | None = None,
    start: Position | None = None,
) -> GameRecord:
    """Play one game to the end: ``first`` plays the first player's stones (``X``),
    ``second`` the second player's, from ``start`` (default: the empty board).

    Every move gets its own seed, drawn from a generator seeded with ``seed``, so
    a game replays move for move wherever no level stops on the clock.
    ``time_limit`` caps each move (see :func:`capped_time`). The record's moves
    include those of ``start``.
    """
    rng = random.Random(seed)
    seats = (first, second)
    limits = (capped_time(first, time_limit), capped_time(second, time_limit))
    position = game.new() if start is None else start
    while not game.outcome(position).is_over:
        turn = position.ply % 2
        result = search(
            game, position, level=seats[turn], seed=rng.getrandbits(32), time_limit=limits[turn]
        )
        position = game.play_unchecked(position, result.move)
    return GameRecord(
        first=first,
        second=second,
        moves=game.move_string(position),
        plies=position.ply,
        winner=game.outcome(position).winner,
    )


def is_long(game_name: str) -> bool:
    """True if a game of random moves (seeded: the same answer every run) on the
    board lasts :data:`LONG_GAME_PLIES` plies.

    >>> [is_long(name) for name in BOARDS[:3]]
    [False, False, False]
    """
    game = get_game(game_name)
    position = game.new()
    rng = random.Random(0)
    while position.ply < LONG_GAME_PLIES and not game.outcome(position).is_over:
        position = game.play(position, rng.choice(game.legal_moves(position)))
    return position.ply >= LONG_GAME_PLIES


def play_match(
    game_name: str,
    level_a: Level | str,
    level_b: Level | str,
    games: int,
    seed: int,
    *,
    time_limit: float | None = None,
) -> MatchResult:
    """Play ``games`` games between two levels and count them for ``level_a``.

    ``level_a`` moves first in the even-numbered games, ``level_b`` in the odd
    ones; game ``i`` is seeded with ``"{seed}/{i}"``, so each differs. Two equal
    levels may meet: each game is then counted for the seat of ``level_a``.
    ``time_limit`` caps the seconds of every move (a level's own budget still
    applies when it is shorter).
    """
    game = get_game(game_name)
    a, b = parse_level(level_a), parse_level(level_b)
    if games < 1:
        raise ValueError(f"games={games!r}: play at least one game")
    started = time.perf_counter()
    records: list[GameRecord] = []
    wins = draws = losses = plies = 0
    for index in range(games):
        a_seat = Player.FIRST if index % 2 == 0 else Player.SECOND
        first, second = (a, b) if a_seat is Player.FIRST else (b, a)
        record = play_game(game, first, second, seed=f"{seed}/{index}", time_limit=time_limit)
        records.append(record)
        plies += record.plies
        if record.winner is None:
            draws += 1
        elif record.winner is a_seat:
            wins += 1
        else:
            losses += 1
    return MatchResult(
        game=game.name,
        level_a=a,
        level_b=b,
        wins=wins,
        draws=draws,
        losses=losses,
        plies=plies,
        elapsed=time.perf_counter() - started,
        records=tuple(records),
    )


def adjacent_pairs() -> list[tuple[Level, Level]]:
    """(stronger, weaker) for each step of :data:`LADDER`."""
    return [(LADDER[i + 1], LADDER[i]) for i in range(len(LADDER) - 1)]


def conditions(time_limit: float | None) -> list[str]:
    """Lines describing the machine and the budgets, printed above the tables."""
    budgets = ", ".join(f"{level.value} {_budget(level, time_limit)}" for level in LADDER[1:])
    return condition_lines(
        [
            ("seconds per move", budgets),
            ("method", "one game at a time in this process; colours alternate"),
            ("points", "a win 1, a draw 1/2; the stronger level of each pair comes first"),
        ]
    )


def _budget(level: Level, time_limit: float | None) -> str:
    limit = capped_time(level, time_limit)
    if limit is None:
        limit = plan_search(level, None, None).time_limit
    return "none" if limit is None else f"{limit:g}"


def format_row(result: MatchResult) -> str:
    """One line of the table: the match counted for the stronger level."""
    per_move = result.elapsed / result.plies if result.plies else 0.0
    pair = f"{result.level_a.value} vs {result.level_b.value}"
    return (
        f"  {pair:<18} {result.wins:>4} {result.draws:>5} {result.losses:>5}"
        f"  {result.points_a:>5g} - {result.points_b:<5g} {result.distinct_games:>8}"
        f" {per_move:>8.3f}"
    )


TABLE_HEADER = (
    f"  {'stronger vs weaker':<18} {'won':>4} {'drawn':>5} {'lost':>5}"
    f"  {'points':^13} {'distinct':>8} {'s/move':>8}"
)


def main(
    games: int = 10,
    time_limit: float | None = None,
    *,
    boards: Sequence[str] = BOARDS,
    seed: int = 2024,
) -> int:
    """Print the adjacent-pair table for each board, then whether every level
    scored at least as many points as the one below it.

    A verdict on a few games, not a test: two levels of nearly equal strength
    (``hard`` and ``perfect`` on Connect Four) may swap places from run to run.
    """
    print("boardroom bench levels: matches between adjacent playing levels")
    for line in conditions(time_limit):
        print(f"  {line}")
    started = time.perf_counter()
    inversions: list[str] = []
    for board in boards:
        count = min(games, LONG_GAME_GAMES) if is_long(board) else games
        print()
        print(f"{board}: {count} games per pair")
        print(TABLE_HEADER)
        for stronger, weaker in adjacent_pairs():
            result = play_match(board, stronger, weaker, count, seed, time_limit=time_limit)
            print(format_row(result), flush=True)
            if result.points_a < result.points_b:
                inversions.append(f"{board}: {stronger.value} below {weaker.value}")
    print()
    print(f"total {time.perf_counter() - started:.0f} s")
    if inversions:
        print("not monotone in this run: " + "; ".join(inversions))
    else:
        print("monotone: every level scored at least as many points as the level below it")
    return 0


def run_from_args(args: argparse.Namespace) -> int:
    """The handler of ``boardroom bench levels`` (``--games``, ``--time-limit``)."""
    if args.games < 1:
        print("boardroom bench levels: --games must be 1 or more", file=sys.stderr)
        return 2
    if args.time_limit is not None and args.time_limit <= 0:
        print("boardroom bench levels: --time-limit must be more than 0", file=sys.stderr)
        return 2
    return main(games=args.games, time_limit=args.time_limit)


if __name__ == "__main__":
    sys.exit(main())
