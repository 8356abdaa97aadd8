"""Post-game analysis: every move of a game judged by the engine, as Lichess does for chess.

A pure core over :func:`~boardroom.shared.engine.search.search`. The server runs it in an
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
A position's value is *exact* (proven) wherever the game allows it:
tic-tac-toe 3x3 and 4x4 always; Connect Four always where the compiled solver
and the opening database are there (:func:`~boardroom.shared.engine.search.value_search`:
the database answers up to 12 stones, a full solve beyond, given up to
:data:`~boardroom.shared.engine.search.EXACT_VALUE_CAP` seconds whatever the review's
budget); gomoku and large m,n,k boards never, where the deepest heuristic
search the budget allows gives an estimate; Othello (and any game searched
generically, :mod:`boardroom.shared.engine.generic`) only in its last moves, where the
search reaches the end of the game within the budget, an estimate from its
evaluation elsewhere. Without the database (or with the
pure solver) Connect Four is exact where the opening book or a solve within
the budget proves it, and an estimate elsewhere. Each value says which it is
(``exact_before`` / ``exact_after``), and the judgements below never compare
an exact value with an estimate's numbers.

Judgements
----------
A move is judged by what it did to the game-theoretic value (the result under
perfect play: win, draw or loss, and how fast) where the values prove it, and
cautiously where they are only estimates. A value is *proven* when it is exact
(or a decisive score: a win or loss the search saw to the end).

- ``forced``: the only legal move; not counted in accuracy.
- Both values proven: a move that lowers the value (a win turned into a draw or
  a loss, a draw into a loss) is a ``blunder`` and a turning point. A move that
  keeps it is never worse than an ``inaccuracy``: the same result at the same
  speed is ``best``; a win fewer than :data:`MUCH_SLOWER` of the winner's moves
  slower (or a loss as much sooner) is ``good``; a win that much slower or more
  (a loss that much sooner) an ``inaccuracy``; the engine's own move is
  ``best``.
- Otherwise the engine's own best move is ``best`` (two searches of
  neighbouring positions disagree a little by their horizons: that is not the
  player's fault).
- One value proven, the other an estimate: a proven value and an estimate are
  on two scales, so they are never compared to call a move bad; only the
  *sides* they are on are (winning, even, losing: a proven result's, or an
  estimate's by its winning chances, even within :data:`EVEN_CHANCES`). What
  the facts prove is at most an ``inaccuracy``: after a proven win, an estimate
  cannot say whether the win was kept; a proven loss after an estimate says the
  move lost (faster than the engine's move, which its search saw no loss in),
  not that the position before was not lost already. So a move to a worse side
  (a proven win, then an even or losing estimate; an estimated advantage, then
  a proven draw or loss) is an ``inaccuracy``, a move that stays on its side
  ``good`` (a proven win, then an estimate of +12: the engine could not prove
  the win again in its time, which is not the player's fault), and a move to a
  better side ``best``.
- Both values estimates (gomoku, large m,n,k boards, a Connect Four position not
  solved in the budget): by the drop in *winning chances* (-1 a loss, 0 even,
  +1 a win), twice Lichess's thresholds, since the engine's estimates are
  noisier than a chess engine's: :data:`INACCURACY_DROP` (0.2) an
  ``inaccuracy``, :data:`MISTAKE_DROP` (0.4) a ``mistake``; a smaller drop is
  ``good``, none ``best``. An estimate never proves a ``blunder``: ``??``
  always means a proven lowering of the value. A proven value has the chances
  of its result; an estimate ``2 / (1 + exp(-0.1 * points)) - 1``
  (:func:`winning_chances`), so +10 points, about three open threes, is 0.46,
  what Lichess gives three pawns.

A review resting on any estimate is marked so (:func:`estimated`): clients say
that its values are estimates.

Accuracy
--------
Lichess's formula on the drop the judgement counts (:attr:`MoveReview.drop`):
each move's accuracy is ``103.1668 * exp(-0.04354 * d) - 3.1669`` (clamped to
0..100, and 100 when nothing is lost) where ``d`` is the drop in win percentage
(``50 + 50 * chances``); a player's accuracy is the plain mean over their moves
that are not forced (100.0 with none). Lichess weights its mean by the game's
volatility; a plain mean is easier to explain to a class. Between proven
values only the result counts: a move that keeps the value scores 100 (a slower
win too: the ``inaccuracy`` mark says it, the accuracy counts results), a win
thrown away for a draw or a draw for a loss 8.5, a win turned into a loss 0;
so a player who never lowered the value has 100, above anyone who did. A move
judged on one proven value and one estimate loses :data:`INACCURACY_DROP` if it
went to a worse side, else nothing.

>>> from boardroom.shared.games import get_game
>>> game = get_game("tictactoe")
>>> reviews = list(analyse_game(game, "b2 a2 a1 c3 c1 b1 a3"))
>>> [r.judgement.value for r in reviews][:4]
['best', 'blunder', 'best', 'best']
>>> [point.text for point in turning_points(reviews)]
['move 2 (O): a2 threw away the draw and lost in 3; a1 held the draw']
>>> accuracy(reviews, "X"), round(accuracy(reviews, "O"), 1), estimated(reviews)
(100.0, 69.5, False)
"""

from __future__ import annotations

import enum
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from boardroom.shared.engine.book import packaged_book
from boardroom.shared.engine.explain import value_text
from boardroom.shared.engine.generic import terminal_score, uses_generic_search
from boardroom.shared.engine.levels import plan_search
from boardroom.shared.engine.scores import POINTS, SCORE_UNIT, Result, make_value, stone_score
from boardroom.shared.engine.search import value_search
from boardroom.shared.games import Game, GridGame, Player, Position, get_game
from boardroom.shared.i18n import N_, SOURCE_LANGUAGE, _, use_language

__all__ = [
    "ANALYSIS_VERSION",
    "DEFAULT_SECONDS_PER_POSITION",
    "EVEN_CHANCES",
    "INACCURACY_DROP",
    "LINE_PLIES",
    "MISTAKE_DROP",
    "MUCH_SLOWER",
    "Judgement",
    "MoveReview",
    "PositionValue",
    "TurningPoint",
    "accuracy",
    "analyse_game",
    "analyse_position",
    "estimated",
    "judge",
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
ANALYSIS_VERSION = 2
"""The rules (and engine values) a review is made by. Stored reviews of an older
version are made again when next viewed (:mod:`boardroom.server.store.analyses`), never
shown beside newer ones: raise it when the judgements or the values change.
1: before issue 25 (a win thrown away for a draw a mistake, estimates judged at
Lichess's thresholds); 2: judgements by the game-theoretic value."""
MUCH_SLOWER = 3
"""A win delayed (or a loss hastened) by this many of the winner's moves or more
is a much slower win: an ``inaccuracy``; by fewer, ``good``. (On Connect Four a
win in 17 that becomes a win in 20 is still a win, but a sloppy one.)"""
INACCURACY_DROP = 0.2
MISTAKE_DROP = 0.4
"""Drops in winning chances (scale -1..1) between two estimates from which a
move is an inaccuracy, a mistake: twice Lichess's thresholds (lila,
``Advice.scala``: 0.1, 0.2, and 0.3 for a blunder), since the engine's estimates
are noisier than a chess engine's; an estimate never makes a blunder."""
EVEN_CHANCES = 0.2
"""Between a proven value and an estimate, an estimate whose winning chances lie
within this much of 0 (about 4 points either way) counts as even: neither side
is winning."""
MIN_SECONDS_AHEAD = 0.01
"""Below this much budget left, a position with one safe move keeps the quick
estimate :func:`~boardroom.shared.engine.search.search` gave it rather than search on."""
CHANCES_PER_POINT = 0.1
"""The slope of :func:`winning_chances` in evaluation points: on Connect Four,
positions the engine scores +10 after a depth-8 search are won about two times
in three under perfect play, which Lichess's curve says of three pawns."""


class Judgement(enum.StrEnum):
    """What a move did, from best to worst (see the module docstring)."""

    BEST = "best"
    """As good as the best move (proven: same result, same speed), or the engine's."""
    GOOD = "good"
    """Nearly as good: a slightly slower win, a small drop in an estimate."""
    INACCURACY = "inaccuracy"
    """A much slower win (or faster loss), a drop of 0.2 in estimated winning
    chances, or a worse move that the values cannot prove lowered the result."""
    MISTAKE = "mistake"
    """A drop of 0.4 in estimated winning chances (estimates only)."""
    BLUNDER = "blunder"
    """Proven to lower the value: a win turned into a draw or a loss, a draw into a loss."""
    FORCED = "forced"
    """The only legal move: nothing to judge."""


@dataclass(frozen=True, slots=True)
class PositionValue:
    """What one position is worth to the player to move, as searched.

    ``score`` is in engine units (:mod:`boardroom.shared.engine.scores`); ``best`` and
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
    engine units for the mover (:mod:`boardroom.shared.engine.scores`), ``value_*`` the
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
        return _proven(self.score_before, self.exact_before) and _proven(
            self.score_after, self.exact_after
        )

    @property
    def drop(self) -> float:
        """What the move gave away in winning chances (0..2), as its judgement
        counts it (see the module docstring): 0 for the engine's own best move
        or a move that kept a proven value, the chances of the results for a
        proven lowering; between a proven value and an estimate 0, or
        :data:`INACCURACY_DROP` for a move to a worse side; between estimates,
        the drop in chances."""
        if self.move == self.best or self.judgement in (Judgement.BEST, Judgement.FORCED):
            return 0.0
        if not self.exact and (
            _proven(self.score_before, self.exact_before)
            or _proven(self.score_after, self.exact_after)
        ):
            return INACCURACY_DROP if self.judgement is Judgement.INACCURACY else 0.0
        before = winning_chances(self.score_before, exact=self.exact_before)
        after = winning_chances(self.score_after, exact=self.exact_after)
        return max(0.0, before - after)

    @property
    def lowered(self) -> bool:
        """True if the move is proven to have lowered the game's value (a win to a
        draw or a loss, a draw to a loss): the turning points of a game."""
        was, now = _result(self.score_before), _result(self.score_after)
        return self.exact and _ORDER[now] < _ORDER[was]


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A move that changed the game's course, said for people.

    ``text`` is the whole sentence (``move 9 (X): 5 threw away the win and let
    O win in one; 3 won in 9``); the rest says it as data, for a client that
    words it itself: ``kind`` is one of ``threw_away_win`` (to a draw),
    ``win_to_loss``, ``threw_away_draw``, ``missed_win_in_one`` (the mover
    could have won at once; the value fell), ``estimate_drop`` (a ``mistake``
    between estimates); ``lets_win_in_one`` is True when the move lets the
    opponent win at once; ``best`` the move that would have kept the value.
    """

    ply: int
    text: str
    kind: str = ""
    move: str = ""
    best: str = ""
    lets_win_in_one: bool = False


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


def estimated(reviews: Iterable[MoveReview]) -> bool:
    """True if any judged (not forced) move rests on an estimate: the review's
    clients then say that its values are estimates (the engine cannot solve
    the board), and its judgements are the cautious ones."""
    return any(not r.exact for r in reviews if r.judgement is not Judgement.FORCED)


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
    :func:`~boardroom.shared.engine.search.value_search`: on Connect Four with the opening
    database a full solve, proven whatever ``seconds`` says (up to
    :data:`~boardroom.shared.engine.search.EXACT_VALUE_CAP`); elsewhere :func:`search` at
    the perfect level under the budget (the book, an exact solve where it fits,
    else deepening). If that is not proven and the game has an opening book
    holding every reply, the best of the replies' book values, exact.
    """
    started = time.perf_counter()
    outcome = game.outcome(position)
    if outcome.is_over:
        # The result itself: on a grid the last mover made a line (the player to
        # move lost at once) or filled the board; in Othello the count decides.
        return PositionValue(terminal_score(game, position), True, "", (), 0)
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
        if (
            left >= MIN_SECONDS_AHEAD
            and not uses_generic_search(game)
            and _only_safe_move(game, position, found.move)
        ):
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


def _only_safe_move(game: Game, position: Position, move: int) -> bool:
    """True if every legal move but ``move`` lets the opponent win at once (on a
    k-in-a-row board, where the kernel's search only glances at such positions)."""
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
    cells = game.max_plies
    score_after = -after.score
    value_before = make_value(before.score, exact=before.exact, cells=cells, ply=ply)
    value_after = make_value(score_after, exact=after.exact, cells=cells, ply=ply)
    played_best = move_text == before.best
    judgement = judge(
        before.score,
        before.exact,
        score_after,
        after.exact,
        engines_move=played_best,
        only_move=before.moves == 1,
    )
    return MoveReview(
        ply=ply,
        side=Player.to_move_at(ply).symbol,
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


def judge(
    before: int,
    exact_before: bool,
    after: int,
    exact_after: bool,
    *,
    engines_move: bool = False,
    only_move: bool = False,
) -> Judgement:
    """The judgement of a move from the mover's value ``before`` it and ``after``
    it (engine scores, each proven or not), by the rules of the module
    docstring: ``engines_move`` if the move was the engine's own best move,
    ``only_move`` if it was the only legal one.

    >>> win, draw, loss = 5 * SCORE_UNIT, 0, -5 * SCORE_UNIT
    >>> judge(win, True, draw, True), judge(win, True, win, True)
    (<Judgement.BLUNDER: 'blunder'>, <Judgement.BEST: 'best'>)
    >>> judge(win, True, 3 * POINTS, False)  # was the win kept? unknown
    <Judgement.INACCURACY: 'inaccuracy'>
    """
    if only_move:
        return Judgement.FORCED
    proven_before, proven_after = _proven(before, exact_before), _proven(after, exact_after)
    if proven_before and proven_after:
        was, now = _result(before), _result(after)
        if _ORDER[now] < _ORDER[was]:
            return Judgement.BLUNDER
        if _ORDER[now] > _ORDER[was] or engines_move:
            return Judgement.BEST  # better than proven cannot happen; the engine's keeps it
        delay = stone_score(before) - stone_score(after)  # in the winner's moves
        if delay <= 0:
            return Judgement.BEST
        return Judgement.GOOD if delay < MUCH_SLOWER else Judgement.INACCURACY
    if engines_move:
        return Judgement.BEST
    if proven_before or proven_after:
        # Two scales: compare the sides the values are on, no more (what the facts prove).
        was_side, now_side = _side(before, exact_before), _side(after, exact_after)
        if now_side < was_side:
            return Judgement.INACCURACY
        return Judgement.GOOD if now_side == was_side else Judgement.BEST
    drop = winning_chances(before, exact=exact_before) - winning_chances(after, exact=exact_after)
    return _judge_drop(drop)


def _side(score: int, exact: bool) -> int:
    """The side a value is on for the mover: 1 winning, 0 even (or drawn), -1 losing."""
    chances = winning_chances(score, exact=exact)
    if not _proven(score, exact) and abs(chances) < EVEN_CHANCES:
        return 0
    return (chances > 0) - (chances < 0)


_ORDER = {Result.LOSS: 0, Result.DRAW: 1, Result.WIN: 2}
"""Results from worst to best, for the mover."""


def _proven(score: int, exact: bool) -> bool:
    """True if ``score`` is a proven value: exact, or a win or loss seen to the end."""
    return exact or abs(score) >= SCORE_UNIT  # a decisive score is a proven result


def _judge_drop(drop: float) -> Judgement:
    """The judgement of a move that lost ``drop`` winning chances between estimates."""
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
    :meth:`~boardroom.shared.games.Game.from_moves` reads), in order, each as soon as it
    is known (see the module docstring).

    ``game`` is a :class:`~boardroom.shared.games.Game` or its name. Raises at once, before
    any search: :class:`~boardroom.shared.errors.UnknownGameError` for an unknown name,
    :class:`~boardroom.shared.errors.IllegalMoveError` naming the first illegal move,
    :class:`~boardroom.shared.errors.SearchLimitsError` for a bad budget. ``clock`` is read
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
    """The moves that changed the game's course, each said for people, in order.

    Between proven values these are the blunders, the moves that lowered the
    value, said with the move that would have kept it:
    ``move 7 (X): e3 threw away the win; d3 won in 5``, ``move 5 (X): c1 missed
    a win in one; c2 won at once``, ``move 2 (O): a2 threw away the draw and let
    X win in one; a1 held the draw``. Between estimates, the mistakes (big
    drops): ``move 12 (O): 5 went from +1.20 to -4.50 (estimates); 4 was worth
    +1.20``.
    """
    points = []
    with use_language(SOURCE_LANGUAGE):  # the wire's words: English
        for review in reviews:
            if review.judgement not in (Judgement.MISTAKE, Judgement.BLUNDER):
                continue
            kind, text = turning_point_words(
                ply=review.ply,
                symbol=review.side,
                move=review.move,
                best=review.best,
                value_before=review.value_before,
                value_after=review.value_after,
                exact=review.exact,
            )
            points.append(
                TurningPoint(
                    review.ply,
                    text,
                    kind=kind,
                    move=review.move,
                    best=review.best,
                    lets_win_in_one=review.value_after == "loss in 1",
                )
            )
    return points


def turning_point_words(
    *,
    ply: int,
    symbol: str,
    move: str,
    best: str,
    value_before: str,
    value_after: str,
    exact: bool,
) -> tuple[str, str]:
    """A turning point's kind and its sentence in the language spoken now, from
    its move's review as data (the values in the wire's words, ``win in 5``,
    ``+1.20``; ``symbol`` ``X`` or ``O``): what :func:`turning_points` says in
    English, and a client says from the analysis's JSON in its reader's language.
    The browser words them the same (``server/web/static/words.js``,
    ``turningPointText``; tests/browser/test_browser_review.py checks they match).

    >>> turning_point_words(ply=6, symbol="X", move="e3", best="d3", value_before="win in 5",
    ...     value_after="draw", exact=True)
    ('threw_away_win', 'move 7 (X): e3 threw away the win; d3 won in 5')
    >>> with use_language("es"):
    ...     turning_point_words(ply=6, symbol="X", move="e3", best="d3",
    ...         value_before="win in 5", value_after="draw", exact=True)[1]
    'jugada 7 (X): e3 dejó escapar la victoria; d3 ganaba en 5'
    """
    number = ply + 1
    if not exact:
        return "estimate_drop", _(
            "move {number} ({side}): {move} went from {before} to {after} (estimates); "
            "{best} was worth {before}",
            number=number,
            side=symbol,
            move=move,
            before=value_text(value_before),
            after=value_text(value_after),
            best=best,
        )
    was, now = _result_of(value_before), _result_of(value_after)
    opponent = "O" if symbol == "X" else "X"
    lost = value_after.removeprefix("loss in ")
    won = value_before.removeprefix("win in ")
    # What the move led to: nothing more to say of a draw.
    if now is Result.DRAW:
        led = "draw"
    elif lost == "1":
        led = "one"
    else:
        led = "lost"
    if was is Result.DRAW:
        kind = "threw_away_draw"
    elif won == "1":
        kind = "missed_win_in_one"
    elif now is Result.DRAW:
        kind = "threw_away_win"
    else:
        kind = "win_to_loss"
    words = _TURNING_WORDS.get((kind, led), _TURNING_WORDS["threw_away_win", "draw"])
    return kind, _(
        words,
        number=number,
        side=symbol,
        move=move,
        best=best,
        opponent=opponent,
        lost=lost,
        won=won,
    )


_TURNING_WORDS = {
    ("threw_away_draw", "one"): N_(
        "move {number} ({side}): {move} threw away the draw and let {opponent} win in one; "
        "{best} held the draw"
    ),
    ("threw_away_draw", "lost"): N_(
        "move {number} ({side}): {move} threw away the draw and lost in {lost}; "
        "{best} held the draw"
    ),
    ("threw_away_draw", "draw"): N_(
        "move {number} ({side}): {move} threw away the draw; {best} held the draw"
    ),
    ("missed_win_in_one", "draw"): N_(
        "move {number} ({side}): {move} missed a win in one; {best} won at once"
    ),
    ("missed_win_in_one", "one"): N_(
        "move {number} ({side}): {move} missed a win in one and let {opponent} win in one; "
        "{best} won at once"
    ),
    ("missed_win_in_one", "lost"): N_(
        "move {number} ({side}): {move} missed a win in one and lost in {lost}; {best} won at once"
    ),
    ("threw_away_win", "draw"): N_(
        "move {number} ({side}): {move} threw away the win; {best} won in {won}"
    ),
    ("win_to_loss", "one"): N_(
        "move {number} ({side}): {move} threw away the win and let {opponent} win in one; "
        "{best} won in {won}"
    ),
    ("win_to_loss", "lost"): N_(
        "move {number} ({side}): {move} threw away the win and lost in {lost}; {best} won in {won}"
    ),
}
"""The sentence of each kind of turning point between proven values, by what the
move led to (a draw; the opponent's win in one; a loss in more)."""


def _result_of(value: str) -> Result:
    """The proven result a value in the wire's words stands for (``win in 5``: a win)."""
    if value.startswith("win in "):
        return Result.WIN
    if value.startswith("loss in "):
        return Result.LOSS
    return Result.DRAW
