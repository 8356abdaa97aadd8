"""``boardroom bench analysis --check N``: are reviews exact, and do they judge by the value?

Issue 25 asks that every reviewed Connect Four position have an exact value and
that judgements follow the game-theoretic value. This check measures what the
engine does today, against an independent judge: bitbully (the C++ solver, with
its 12-stone opening book, :mod:`boardroom.client.bench.peer_bitbully`).

It plays ``N`` seeded games, a mix (:data:`PAIRINGS`, in turn) of random-move
games and AI matches between levels (:func:`boardroom.client.bench.levels.play_game`),
reviews each with :func:`boardroom.shared.engine.analysis.analyse_game` at the server's
budget, and solves every position of each game with bitbully. Then:

- **values**: for every reviewed position (the position before each move), is
  it marked exact, and does its value agree with bitbully's (an exact value
  whose stone score is bitbully's; an estimate never agrees: it is not a value)?
  An exact value that disagrees is an engine error and is listed.
- **judgements**: for every move, the value for the mover before it and after
  it, by bitbully (after the last move: the game's result, a win being worth
  22 minus the winner's stones, as in the test sets). A move that *lowers* the
  result (win to draw or loss, draw to loss) must be judged ``blunder``; a move
  that *keeps* it must never be ``mistake`` or ``blunder``. Each move that breaks
  either rule is listed (game, ply, our judgement and values, bitbully's values).

The check reads only :class:`~boardroom.shared.engine.analysis.MoveReview` fields
(``judgement``, ``score_before``, ``score_after``, ``exact_before``,
``exact_after``), so it measures whatever rules and values the engine has.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from boardroom.client.bench.levels import play_game
from boardroom.shared.engine.analysis import (
    DEFAULT_SECONDS_PER_POSITION,
    Judgement,
    MoveReview,
    analyse_game,
)
from boardroom.shared.engine.levels import Level
from boardroom.shared.engine.scores import stone_score
from boardroom.shared.games import GridGame, get_game

if TYPE_CHECKING:
    from boardroom.client.bench.peer_bitbully import BitbullySolver

PAIRINGS: tuple[tuple[Level, Level], ...] = (
    (Level.RANDOM, Level.RANDOM),
    (Level.EASY, Level.PERFECT),
    (Level.MEDIUM, Level.MEDIUM),
    (Level.PERFECT, Level.EASY),
    (Level.RANDOM, Level.RANDOM),
    (Level.EASY, Level.MEDIUM),
    (Level.HARD, Level.MEDIUM),
)
"""The games played, in turn: (first player's level, second player's level)."""
MOVE_TIME_CAP = 1.0
"""Seconds a level may spend on a move while the games are played (perfect's own
budget is 3 s); the games only need to be plausible, the review is what is measured."""
HALF = 21
"""Stones each player has on the 7x6 board: a win with the n-th stone scores 22 - n."""
BAD = (Judgement.MISTAKE, Judgement.BLUNDER)


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One position or move where the review and bitbully part ways."""

    game: int
    ply: int
    what: str

    def line(self) -> str:
        return f"    game {self.game}, move {self.ply + 1}: {self.what}"


@dataclass(slots=True)
class Tally:
    """What the check counted over all games."""

    positions: int = 0
    exact: int = 0
    agree: int = 0
    estimate_sign_agrees: int = 0
    moves: int = 0
    lowering: int = 0
    lowering_blunders: int = 0
    keeping: int = 0
    keeping_bad: int = 0
    value_errors: list[Disagreement] = field(default_factory=list)
    judgement_errors: list[Disagreement] = field(default_factory=list)

    @property
    def consistent(self) -> bool:
        """True if every exact value agreed and every judgement followed the value."""
        return not self.value_errors and not self.judgement_errors


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def result_value(ply: int, winner_moved: bool) -> int:
    """The value for the mover of a move at ``ply`` (0-based) that ended the game:
    a win with that stone (22 minus the mover's stones then), or 0 for a full
    board's draw."""
    return HALF + 1 - (ply // 2 + 1) if winner_moved else 0


def describe(stones: int) -> str:
    """A stone score for people: ``win (+3)``, ``draw``, ``loss (-2)``."""
    if stones > 0:
        return f"win (+{stones})"
    return "draw" if stones == 0 else f"loss ({stones})"


def check_game(
    number: int,
    moves: str,
    reviews: Sequence[MoveReview],
    judge_values: Sequence[int],
    final_value: int | None,
    tally: Tally,
) -> None:
    """Add one reviewed game to ``tally``.

    ``judge_values[i]`` is bitbully's stone score of the position before move
    ``i`` for its player to move; ``final_value`` is the value of the last move
    for its mover if it ended the game (:func:`result_value`), else None (then
    ``judge_values`` has one more entry, the position after the last move).
    """
    assert len(reviews) == len(moves)
    for index, review in enumerate(reviews):
        judge_before = judge_values[index]
        tally.positions += 1
        ours = stone_score(review.score_before)
        if review.exact_before:
            tally.exact += 1
            if ours == judge_before:
                tally.agree += 1
            else:
                tally.value_errors.append(
                    Disagreement(
                        number,
                        review.ply,
                        f"position before it: ours exact {describe(ours)}, "
                        f"bitbully {describe(judge_before)}",
                    )
                )
        elif _sign(review.score_before) == _sign(judge_before):
            tally.estimate_sign_agrees += 1
        if index + 1 < len(reviews) or final_value is None:
            judge_after = -judge_values[index + 1]
        else:
            judge_after = final_value
        tally.moves += 1
        was, now = _sign(judge_before), _sign(judge_after)
        verdict = review.judgement
        problem = ""
        if now < was:
            tally.lowering += 1
            if verdict is Judgement.BLUNDER:
                tally.lowering_blunders += 1
            else:
                problem = "lowered the value, not called a blunder"
        elif now == was:
            tally.keeping += 1
            if verdict in BAD:
                tally.keeping_bad += 1
                problem = f"kept the value, called a {verdict.value}"
        if problem:
            ours_text = f"ours {verdict.value} {review.value_before} -> {review.value_after}"
            tally.judgement_errors.append(
                Disagreement(
                    number,
                    review.ply,
                    f"{review.side} {review.move} {problem}: {ours_text}; bitbully"
                    f" {describe(judge_before)} -> {describe(judge_after)}",
                )
            )


def play_games(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` seeded games: (label, moves) for each, the pairings in turn."""
    game = get_game("connect4")
    assert isinstance(game, GridGame)
    games: list[tuple[str, str]] = []
    for number in range(count):
        first, second = PAIRINGS[number % len(PAIRINGS)]
        record = play_game(game, first, second, seed=f"{seed}-{number}", time_limit=MOVE_TIME_CAP)
        games.append((f"{first.value} vs {second.value}", record.moves))
    return games


def judge_game(solver: BitbullySolver, moves: str) -> tuple[list[int], int | None]:
    """bitbully's values of the positions of ``moves`` (see :func:`check_game`)."""
    game = get_game("connect4")
    final = game.from_moves(moves)
    over = game.outcome(final)
    count = len(moves) if over.is_over else len(moves) + 1
    values = [solver.solve(moves[:ply]).score for ply in range(count)]
    final_value = None
    if over.is_over:
        final_value = result_value(len(moves) - 1, over.winner is not None)
    return values, final_value


def main(count: int, seed: int = 1, budget: float = DEFAULT_SECONDS_PER_POSITION) -> int:
    """Run the check and print it; 0 if every value and judgement agreed, 1 if
    not, 2 if bitbully is not installed (nothing to judge against)."""
    try:
        from boardroom.client.bench.peer_bitbully import BitbullySolver, book_path, version
    except ImportError:
        print("bitbully not installed: nothing to judge the reviews against")
        return 2
    book = book_path()
    solver = BitbullySolver(book)
    print(
        f"Review exactness: {count} seeded Connect Four games (seed {seed}), reviewed at"
        f" {budget:g} s a position; judge: bitbully {version()}"
        + (" with its 12-stone book" if solver.with_book else " WITHOUT its book (slow)")
    )
    started = time.perf_counter()
    games = play_games(count, seed)
    played = time.perf_counter() - started
    tally = Tally()
    reviewing = 0.0
    for number, (label, moves) in enumerate(games, 1):
        began = time.perf_counter()
        reviews = list(analyse_game("connect4", moves, seconds_per_position=budget))
        reviewing += time.perf_counter() - began
        values, final_value = judge_game(solver, moves)
        before = len(tally.judgement_errors), tally.exact
        check_game(number, moves, reviews, values, final_value, tally)
        print(
            f"  game {number} ({label}, {len(moves)} moves): {moves}; exact"
            f" {tally.exact - before[1]}/{len(moves)},"
            f" {len(tally.judgement_errors) - before[0]} judgement(s) against the value"
        )
    report(tally)
    print(f"  (playing the games: {played:.1f} s; reviewing them: {reviewing:.1f} s)")
    return 0 if tally.consistent else 1


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"


def report(tally: Tally) -> None:
    """Print the figures and every disagreement."""
    print()
    print(f"  reviewed positions:           {tally.positions}")
    print(f"  marked exact:                 {_share(tally.exact, tally.positions)}")
    print(f"  value agrees with bitbully:   {_share(tally.agree, tally.positions)}")
    estimates = tally.positions - tally.exact
    signs = _share(tally.estimate_sign_agrees, estimates)
    print(
        f"  exact values that disagree:   {len(tally.value_errors)}"
        f" (estimates whose sign agrees with bitbully's result: {signs})"
    )
    print(f"  moves:                        {tally.moves}")
    print(
        f"  lowered the value:            {tally.lowering}, called a blunder"
        f" {_share(tally.lowering_blunders, tally.lowering)}"
    )
    print(
        f"  kept the value:               {tally.keeping}, called a mistake or blunder"
        f" {_share(tally.keeping_bad, tally.keeping)}"
    )
    if tally.value_errors:
        print("  exact values against bitbully's:")
        for item in tally.value_errors:
            print(item.line())
    if tally.judgement_errors:
        print("  judgements against the value (ours, then bitbully's values for the mover):")
        for item in tally.judgement_errors:
            print(item.line())
