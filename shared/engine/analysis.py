"""Post-game analysis: every move of a game judged by the engine, as Lichess does for chess.

A pure core over :func:`~shared.engine.search.search`. The server runs it in an
engine worker, caches what it yields and sends it on; the terminal and bots get
the same reviews. One search per position: the value *before* move ``i`` is the
value of position ``i`` for the mover (the best the mover could get), the value
*after* it is minus the value of position ``i + 1`` for the other player, and
after the last move of a finished game it is the result itself.

Contract
--------
``analyse_game(game, moves, *, seconds_per_position, clock)`` checks its input
at once (an unknown game, an illegal move or a bad budget raise the engine's
typed errors before anything is yielded), then returns an iterator that yields
one :class:`MoveReview` per move, in order, each as soon as it is known: the
first after positions 0 and 1 are searched, each later one after one more
position. No position takes more than ``seconds_per_position`` (plus the
search's few milliseconds of clock granularity). An unfinished game may be
analysed too: its last move is judged against a search of the position it left.
:func:`analyse_position` and :func:`review_move` are the two halves, for a
caller that spreads positions over several workers.

Values: exact or heuristic
--------------------------
A position's value is *exact* (proven) where the engine proves it in the
budget: always on tic-tac-toe 3x3 and 4x4; on Connect Four from the opening
book (:mod:`shared.engine.book`), from the book one move ahead (every reply in
the book, e.g. the opponent's positions in a game of ``perfect``), or from an
exact solve, which the compiled solver manages in the budget from 10 to 15
stones on; a position with one move that does not lose at once is worth what
that move leads to, searched in the rest of the budget. Elsewhere it is the
deepest heuristic search the budget allows, and marked heuristic
(``exact_before`` / ``exact_after``).

Judgements
----------
- ``forced``: the only legal move; not counted in accuracy.
- Both values exact: by what the move did to the game's result. Keeping the
  result at the same speed is ``best``; keeping it but winning later or losing
  sooner by at most :data:`SLOW_MOVES` of the winner's moves is ``good``, by
  more an ``inaccuracy``; a win thrown away for a draw is a ``mistake``; a win
  or a draw turned into a loss is a ``blunder`` (it changes the result badly,
  as a Lichess player expects).
- Otherwise, by the drop in *winning chances* (-1 a loss, 0 even, +1 a win),
  Lichess's scale and thresholds: a drop of :data:`INACCURACY_DROP` (0.1) or
  more is an ``inaccuracy``, :data:`MISTAKE_DROP` (0.2) a ``mistake``,
  :data:`BLUNDER_DROP` (0.3) a ``blunder``; a smaller drop is ``good``, none
  ``best``; and the engine's own best move is always ``best`` (two searches of
  neighbouring positions disagree a little by their horizons: that is not the
  player's fault). An exact value has the chances of its result; a heuristic
  one ``2 / (1 + exp(-0.1 * points)) - 1`` (:func:`winning_chances`), so +10
  points, about three open threes, is 0.46, what Lichess gives three pawns.

Accuracy
--------
Lichess's: each move's accuracy is ``103.1668 * exp(-0.04354 * d) - 3.1669``
(clamped to 0..100, and 100 when nothing is lost) where ``d`` is the drop in
win percentage (``50 + 50 * chances``); a player's accuracy is the plain mean
over their moves that are not forced (100.0 with none). Lichess weights its mean
by the game's volatility; a plain mean is easier to explain to a class. A win
thrown away for a draw costs 50 points of win percentage (accuracy 8.5 for that
move), a win or draw turned to a loss costs the move everything; a slower win
costs nothing, as it changes no result.

>>> from shared.games import get_game
>>> game = get_game("tictactoe")
>>> reviews = list(analyse_game(game, "b2 a2 a1 c3 c1 b1 a3"))
>>> [r.judgement.value for r in reviews][:4]
['best', 'blunder', 'best', 'best']
>>> [point.text for point in turning_points(reviews)]
['move 2 (O): a2 threw away the draw and lost in 3; a1 held the draw']
>>> accuracy(reviews, "X"), round(accuracy(reviews, "O"), 1)
(100.0, 69.5)
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from shared.engine.book import packaged_book
from shared.engine.levels import plan_search
from shared.engine.scores import POINTS, SCORE_UNIT, Result, make_value, stone_score
from shared.engine.search import value_search
from shared.games import Game, GridGame, Position, get_game

__all__ = [
    "BLUNDER_DROP",
    "DEFAULT_SECONDS_PER_POSITION",
    "INACCURACY_DROP",
    "LINE_PLIES",
    "MISTAKE_DROP",
    "SLOW_MOVES",
    "Judgement",
    "MoveReview",
    "PositionValue",
    "TurningPoint",
    "accuracy",
    "analyse_game",
    "analyse_position",
    "move_accuracy",
    "review_move",
    "turning_points",
    "winning_chances",
]

DEFAULT_SECONDS_PER_POSITION = 0.2
"""The search budget of one position: a 42-move Connect Four game takes 1.6 to
2.8 s on one worker, and at most about 8.6 s (43 positions); the issue's target
is 10 s (docs/engine.md, "Game analysis")."""
LINE_PLIES = 6
"""How much of the best line a review keeps: enough to show the idea."""
SLOW_MOVES = 2
"""A win delayed (or a loss hastened) by at most this many of the winner's moves
is still ``good``; more is an ``inaccuracy``."""
INACCURACY_DROP = 0.1
MISTAKE_DROP = 0.2
BLUNDER_DROP = 0.3
"""Drops in winning chances (scale -1..1) from which a move is an inaccuracy, a
mistake, a blunder: Lichess's thresholds (lila, ``Advice.scala``)."""
MIN_SECONDS_AHEAD = 0.01
"""Below this much budget left, a position with one safe move keeps the quick
estimate :func:`~shared.engine.search.search` gave it rather than search on."""
CHANCES_PER_POINT = 0.1
"""The slope of :func:`winning_chances` in evaluation points: on Connect Four,
positions the engine scores +10 after a depth-8 search are won about two times
in three under perfect play, which Lichess's curve says of three pawns."""


class Judgement(enum.StrEnum):
    """What a move did, from best to worst (see the module docstring)."""

    BEST = "best"
    """As good as the best move (exact: same result, same speed)."""
    GOOD = "good"
    """Nearly as good: a slightly slower win, a small drop in the evaluation."""
    INACCURACY = "inaccuracy"
    """A much slower win, or a drop of 0.1 in winning chances."""
    MISTAKE = "mistake"
    """A win thrown away for a draw, or a drop of 0.2 in winning chances."""
    BLUNDER = "blunder"
    """A win or a draw turned into a loss, or a drop of 0.3 in winning chances."""
    FORCED = "forced"
    """The only legal move: nothing to judge."""


@dataclass(frozen=True, slots=True)
class PositionValue:
    """What one position is worth to the player to move, as searched.

    ``score`` is in engine units (:mod:`shared.engine.scores`); ``best`` and
    ``line`` are the engine's move and line (empty once the game is over);
    ``moves`` counts the legal moves; ``seconds`` is the time the search took.
    """

    score: int
    exact: bool
    best: str
    line: tuple[str, ...]
    moves: int
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move judged. Plain values only, for msgspec/JSON and pickling.

    ``ply`` counts from 0 (the move's number for people is ``ply + 1``);
    ``side`` is ``"X"`` or ``"O"``; moves are in the game's notation. Scores are
    engine units for the mover (:mod:`shared.engine.scores`), ``value_*`` the
    same said for people (``win in 3``, ``draw``, ``+1.25``), ``exact_*`` True
    where proven. ``best`` is the engine's move in the position before, and
    ``line`` its expected line (up to :data:`LINE_PLIES` plies, starting with
    ``best``), empty when the move played was ``best``. ``seconds``: time spent
    searching the position before the move.
    """

    ply: int
    side: str
    move: str
    best: str
    line: tuple[str, ...]
    score_before: int
    score_after: int
    value_before: str
    value_after: str
    exact_before: bool
    exact_after: bool
    judgement: Judgement
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        """True if both values are proven: the judgement is about results."""
        return self.exact_before and self.exact_after

    @property
    def drop(self) -> float:
        """What the move gave away in winning chances (0..2): 0 for the engine's
        own best move (see the module docstring) or a move that lost nothing."""
        if self.move == self.best:
            return 0.0
        before = winning_chances(self.score_before, exact=self.exact_before)
        after = winning_chances(self.score_after, exact=self.exact_after)
        return max(0.0, before - after)


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A move that changed the game's result, said for people."""

    ply: int
    text: str


def winning_chances(score: int, *, exact: bool) -> float:
    """The mover's chances in -1..1: 1 a win, -1 a loss, 0 a draw or even.

    >>> winning_chances(3 * SCORE_UNIT, exact=True), winning_chances(0, exact=True)
    (1.0, 0.0)
    >>> round(winning_chances(10 * POINTS, exact=False), 2)
    0.46
    """
    if exact or abs(score) >= SCORE_UNIT:
        return float((score > 0) - (score < 0))
    return 2 / (1 + math.exp(-CHANCES_PER_POINT * score / POINTS)) - 1


def move_accuracy(drop: float) -> float:
    """Lichess's accuracy (0..100) of a move that lost ``drop`` winning chances.

    >>> [round(move_accuracy(d), 1) for d in (0.0, 0.1, 0.3, 1.0, 2.0)]
    [100.0, 79.8, 50.5, 8.5, 0.0]
    """
    if drop <= 0:
        return 100.0
    win_percent_lost = 50 * drop
    raw = 103.1668 * math.exp(-0.04354 * win_percent_lost) - 3.1669
    return max(0.0, min(100.0, raw))


def accuracy(reviews: Iterable[MoveReview], side: str) -> float:
    """The mean :func:`move_accuracy` of ``side``'s (``"X"`` or ``"O"``) moves that
    were not forced; 100.0 if there are none."""
    judged = [
        move_accuracy(r.drop)
        for r in reviews
        if r.side == side and r.judgement is not Judgement.FORCED
    ]
    return sum(judged) / len(judged) if judged else 100.0


def analyse_position(game: Game, position: Position, *, seconds: float) -> PositionValue:
    """The value of ``position`` for the player to move, searched within ``seconds``.

    A finished position's value is its result. Otherwise
    :func:`~shared.engine.search.value_search`: on Connect Four with the opening
    database a full solve, proven whatever ``seconds`` says (up to
    :data:`~shared.engine.search.EXACT_VALUE_CAP`); elsewhere :func:`search` at
    the perfect level under the budget (the book, an exact solve where it fits,
    else deepening). If that is not proven and the game has an opening book
    holding every reply, the best of the replies' book values, exact.
    """
    started = time.perf_counter()
    outcome = game.outcome(position)
    if outcome.is_over:
        # The last mover made a line (the player to move lost at once) or filled the board.
        score = 0 if outcome.winner is None else _loss_now(game, position)
        return PositionValue(score, True, "", (), 0)
    found = value_search(game, position, time_limit=seconds)
    legal = len(game.legal_moves(position))
    if not found.exact:
        ahead = _book_ahead(game, position)
        if ahead is not None:
            move, score = ahead
            text = game.format_move(move)
            elapsed = time.perf_counter() - started
            return PositionValue(score, True, text, (text,), legal, elapsed)
        left = seconds - (time.perf_counter() - started)
        if left >= MIN_SECONDS_AHEAD and _only_safe_move(game, position, found.move):
            # search() only glances at a position with one move that does not lose
            # at once (a player needs no more); a review wants its value, which
            # is the value of the position that move leads to.
            child = analyse_position(game, game.play_unchecked(position, found.move), seconds=left)
            if child.exact:
                line = (found.move_text, *child.line)[:LINE_PLIES]
                elapsed = time.perf_counter() - started
                return PositionValue(-child.score, True, found.move_text, line, legal, elapsed)
    line = tuple(game.format_move(move) for move in found.pv[:LINE_PLIES])
    elapsed = time.perf_counter() - started
    return PositionValue(found.score, found.exact, found.move_text, line, legal, elapsed)


def _loss_now(game: Game, position: Position) -> int:
    """The score, for the player to move, of a position the opponent has just won:
    the negative of the win the opponent's last stone made."""
    half = (game.grid.cells + 1) // 2
    return -(half - (position.ply - 1) // 2) * SCORE_UNIT


def _only_safe_move(game: Game, position: Position, move: int) -> bool:
    """True if every legal move but ``move`` lets the opponent win at once."""
    for other in game.legal_moves(position):
        if other == move:
            continue
        child = game.play_unchecked(position, other)
        if game.outcome(child).is_over:
            return False
        if not any(
            game.outcome(game.play_unchecked(child, reply)).winner is not None
            for reply in game.legal_moves(child)
        ):
            return False
    return True


def _book_ahead(game: Game, position: Position) -> tuple[int, int] | None:
    """The best (move, exact score) from the book's values of every reply, or
    None unless the book holds them all (or the game has no book)."""
    if not isinstance(game, GridGame):
        return None
    book = packaged_book(game)
    if book is None:
        return None
    best: tuple[int, int] | None = None
    for move in game.legal_moves(position):
        child = game.play_unchecked(position, move)
        if game.outcome(child).is_over:
            return None  # an immediate win or a full board: search already knew
        entry = book.lookup(child)
        if entry is None:
            return None
        score = -entry.score * SCORE_UNIT
        if best is None or score > best[1]:
            best = (move, score)
    return best


def review_move(
    game: Game, position: Position, move_text: str, before: PositionValue, after: PositionValue
) -> MoveReview:
    """Judge the move ``move_text`` played in ``position``, given the value of
    ``position`` (``before``) and of the position it led to (``after``, for the
    other player)."""
    ply = position.ply
    cells = game.grid.cells
    score_after = -after.score
    value_before = make_value(before.score, exact=before.exact, cells=cells, ply=ply)
    value_after = make_value(score_after, exact=after.exact, cells=cells, ply=ply)
    played_best = move_text == before.best
    if before.moves == 1:
        judgement = Judgement.FORCED
    elif before.exact and after.exact:
        judgement = _judge_results(before.score, score_after)
    elif played_best:
        judgement = Judgement.BEST
    else:
        drop = winning_chances(before.score, exact=before.exact) - winning_chances(
            score_after, exact=after.exact
        )
        judgement = _judge_drop(drop)
        if before.exact or after.exact:
            judgement = min(judgement, _worst_across(before.score, score_after), key=_RANK.index)
    return MoveReview(
        ply=ply,
        side="XO"[ply & 1],
        move=move_text,
        best=before.best,
        line=() if played_best else before.line,
        score_before=before.score,
        score_after=score_after,
        value_before=str(value_before),
        value_after=str(value_after),
        exact_before=before.exact,
        exact_after=after.exact,
        judgement=judgement,
        seconds=round(before.seconds, 4),
    )


def _judge_results(before: int, after: int) -> Judgement:
    """The judgement of a move between two exact scores (see the module docstring)."""
    was, now = _result(before), _result(after)
    if was is now:
        delay = stone_score(before) - stone_score(after)
        if delay <= 0:
            return Judgement.BEST
        return Judgement.GOOD if delay <= SLOW_MOVES else Judgement.INACCURACY
    if now is Result.LOSS:
        return Judgement.BLUNDER
    if was is Result.WIN:
        return Judgement.MISTAKE
    return Judgement.BEST  # a better result than the search proved: cannot happen


_RANK = list(Judgement)
"""Judgements from best to worst (``forced`` last: never the outcome of a cap)."""


def _worst_across(before: int, after: int) -> Judgement:
    """The worst judgement a move between one proven value and one estimate may
    get: what the exact rules give for the sides (ahead, even, behind) the two
    values are on. A proven win against an estimate of +5 cannot say whether the
    win was kept, only that the move kept the upper hand: at most an inaccuracy;
    a proven draw or loss after an estimated advantage is a change of side."""
    was, now = _result(before), _result(after)
    if was is now:
        return Judgement.INACCURACY
    return _judge_results(before, after)


def _judge_drop(drop: float) -> Judgement:
    """The judgement of a move that lost ``drop`` winning chances."""
    if drop >= BLUNDER_DROP:
        return Judgement.BLUNDER
    if drop >= MISTAKE_DROP:
        return Judgement.MISTAKE
    if drop >= INACCURACY_DROP:
        return Judgement.INACCURACY
    return Judgement.GOOD if drop > 0 else Judgement.BEST


def _result(score: int) -> Result:
    return Result.WIN if score > 0 else Result.LOSS if score < 0 else Result.DRAW


def analyse_game(
    game: Game | str,
    moves: str,
    *,
    seconds_per_position: float = DEFAULT_SECONDS_PER_POSITION,
    clock: Callable[[], float] = time.perf_counter,
) -> Iterator[MoveReview]:
    """Review every move of the game played as ``moves`` (a move string that
    :meth:`~shared.games.Game.from_moves` reads), in order, each as soon as it
    is known (see the module docstring).

    ``game`` is a :class:`~shared.games.Game` or its name. Raises at once, before
    any search: :class:`~shared.errors.UnknownGameError` for an unknown name,
    :class:`~shared.errors.IllegalMoveError` naming the first illegal move,
    :class:`~shared.errors.SearchLimitsError` for a bad budget. ``clock`` is read
    once before and once after each position's search, and times
    :attr:`MoveReview.seconds`.
    """
    if isinstance(game, str):
        game = get_game(game)
    final = game.from_moves(moves)
    plan_search(None, None, seconds_per_position)  # validates the budget
    return _reviews(game, final.moves, seconds_per_position, clock)


def _reviews(
    game: Game, played: Sequence[int], seconds: float, clock: Callable[[], float]
) -> Iterator[MoveReview]:
    def value_of(position: Position) -> PositionValue:
        started = clock()
        found = analyse_position(game, position, seconds=seconds)
        return PositionValue(
            found.score, found.exact, found.best, found.line, found.moves, clock() - started
        )

    position = game.new()
    before = value_of(position) if played else None
    for move in played:
        assert before is not None
        after_position = game.play_unchecked(position, move)
        after = value_of(after_position)
        yield review_move(game, position, game.format_move(move), before, after)
        position, before = after_position, after


def turning_points(reviews: Iterable[MoveReview]) -> list[TurningPoint]:
    """The mistakes and blunders, each said for people, in order.

    Between exact values these are the moves that changed the game's result:
    ``move 7 (X): e3 threw away the win; d3 won in 5``. Between estimates, the
    big drops: ``move 12 (O): 5 went from +1.20 to -4.50; 4 was worth +1.20``.
    """
    points = []
    for review in reviews:
        if review.judgement not in (Judgement.MISTAKE, Judgement.BLUNDER):
            continue
        head = f"move {review.ply + 1} ({review.side}): {review.move}"
        points.append(TurningPoint(review.ply, f"{head} {_what_it_did(review)}"))
    return points


def _what_it_did(review: MoveReview) -> str:
    before, after, best = review.value_before, review.value_after, review.best
    if review.exact:
        was, now = _result(review.score_before), _result(review.score_after)
        won, lost = before.removeprefix("win in "), after.removeprefix("loss in ")
        if was is Result.WIN and now is Result.DRAW:
            return f"threw away the win; {best} won in {won}"
        if was is Result.WIN:
            return f"threw away the win and lost in {lost}; {best} won in {won}"
        return f"threw away the draw and lost in {lost}; {best} held the draw"
    return f"went from {before} to {after}; {best} was worth {before}"
