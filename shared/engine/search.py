"""The engine's public entry points: :func:`search`, :func:`analyze` and :func:`solve`.

They take any registered :class:`~boardroom.shared.games.Game` and a
:class:`~boardroom.shared.games.Position`, and pick the search by the game's capability
(:attr:`GameSpec.search <boardroom.shared.games.spec.GameSpec.search>`): a game whose spec
says :attr:`~boardroom.shared.games.spec.Search.GENERIC` (Othello) is searched by
:mod:`boardroom.shared.engine.generic`, alpha-beta over the :class:`~boardroom.shared.games.Game`
interface with the game's own evaluation, exact only where it reaches the end of
the game. The k-in-a-row games (:attr:`~boardroom.shared.games.spec.Search.BITBOARD`) are
turned into raw bitboards once and searched by
:class:`~boardroom.shared.engine.negamax.Searcher`, as follows:

- exact solves run on :func:`~boardroom.shared.engine.solvers.exact_searcher`: the compiled
  solver where the game allows (``BOARDROOM_ENGINE=python`` forces the pure one),
  the same algorithm either way;
- the root is handled here: an immediate win is taken at once, a lost position
  (two threats against us) still gets a sensible move;
- :func:`search` first tries a full solve when its plan allows, under a share of
  the time; if the clock runs out it deepens iteratively with the evaluation at the
  horizon, keeping the best move of the last finished depth;
- on Connect Four, exact search takes the value of every 12-stone position from
  the opening database (:mod:`boardroom.shared.engine.opening_database`), so with the
  compiled solver every position solves fast: ``perfect`` tries a full solve
  from any position, and :func:`value_search` (hints, reviews) proves every
  value unless a solve outlasts :data:`EXACT_VALUE_CAP`;
- levels with variety score every root move with a full window and pick among
  the near-best with the seeded random generator.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace

from boardroom.shared.engine import generic
from boardroom.shared.engine.book import OpeningBook, packaged_book
from boardroom.shared.engine.evaluation import horizon_value
from boardroom.shared.engine.kernel import SearchKernel, kernel_for
from boardroom.shared.engine.levels import MAX_DEPTH, Level, SearchPlan, plan_search
from boardroom.shared.engine.negamax import EXACT_DEPTH, Searcher, SearchInterrupted
from boardroom.shared.engine.scores import (
    INFINITY,
    SCORE_UNIT,
    Value,
    is_decisive,
    make_value,
    stone_score,
)
from boardroom.shared.engine.solvers import backend, exact_searcher, solves_everywhere
from boardroom.shared.errors import IllegalMoveError, IllegalMoveReason
from boardroom.shared.games.base import Game, GridGame, Move, Position
from boardroom.shared.games.grid import iter_bits

DEFAULT_ANALYSIS_TIME = 3.0
"""Seconds :func:`analyze` spends on a position when not told."""
EXACT_ATTEMPT_MAX_EMPTY = 26
"""Under a clock, the pure solver tries a full solve only with at most this many
empty cells. For scale, in CPython: the empty 4x4 board (16 cells) solves in
0.2 s, and the medium Connect Four test set (15 to 27 cells left, 23 typically)
in 0.2 s per position on average; with many more cells left no solve fits a
move's budget, and the time is better spent deepening."""
NATIVE_GRAVITY_EXACT_MAX_EMPTY = 34
"""The same for the compiled solver on Connect Four without the opening database:
from 8 stones on (34 empty cells), where our own opening book ends, solves take
about 0.5 to 1.5 s compiled (docs/benchmarks.md, "Opening book"), within
``perfect``'s exact share of its move budget; an attempt that runs out falls
back on deepening as before. With the database every position is tried."""
EXACT_VALUE_CAP = 10.0
"""Seconds :func:`value_search` may spend proving one Connect Four position with
the opening database, whatever the caller's budget. Measured (docs/benchmarks.md,
"Opening database"): positions of 0 to 12 stones solve in milliseconds, of 13
to 16 stones in 0.06 s on average and at most 1.2 s (30 random positions of
each count, and 30 from medium-vs-medium games), later ones faster still. A cap
eight times the slowest seen bounds a hint or a review's position on a slow or
busy machine without cutting a normal solve short."""


def _exact_attempt_max_empty(kernel: SearchKernel) -> int:
    """Empty cells up to which a full solve is worth trying under a clock."""
    if solves_everywhere(kernel):
        return kernel.cells
    if kernel.gravity and backend(kernel) == "native":
        return NATIVE_GRAVITY_EXACT_MAX_EMPTY
    return EXACT_ATTEMPT_MAX_EMPTY


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The answer of :func:`search`. Small and picklable, for process pools.

    ``score`` is in engine units for the player to move (see
    :mod:`boardroom.shared.engine.scores`); ``value`` says it for people; ``exact`` is True
    when the score is proven; ``pv`` is the expected line of play starting with
    ``move``; ``depth`` is the deepest finished iteration (the remaining plies of
    the game for an exact solve); ``elapsed`` is wall time in seconds.
    :func:`boardroom.shared.engine.explain.summary` says all this in one line for people.
    """

    move: Move
    move_text: str
    score: int
    value: Value
    exact: bool
    pv: tuple[Move, ...]
    nodes: int
    depth: int
    elapsed: float
    book: bool = False
    """The move and its exact value come from the opening book
    (:mod:`boardroom.shared.engine.book`): solved in advance, nothing searched now
    (``nodes`` is 0)."""

    @property
    def nodes_per_second(self) -> float:
        """Positions searched a second (0.0 when no time was measured); what
        :func:`boardroom.shared.engine.explain.summary` and the clients show."""
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


@dataclass(slots=True)
class _Root:
    """The position to search, as the kernel sees it."""

    game: GridGame
    kernel: SearchKernel
    position: Position
    cur: int
    opp: int
    ply: int

    @classmethod
    def of(cls, game: Game, position: Position) -> _Root:
        if not isinstance(game, GridGame):
            raise TypeError(f"the bitboard kernel plays grid games, not {game!r}")
        _check_ongoing(game, position)
        ply = position.ply
        cur, opp = position.stones[ply & 1], position.stones[1 - (ply & 1)]
        return cls(game, kernel_for(game), position, cur, opp, ply)

    @property
    def empty(self) -> int:
        return self.kernel.board & ~(self.cur | self.opp)

    @property
    def remaining(self) -> int:
        return self.kernel.cells - self.ply

    def move_of(self, bit: int) -> Move:
        return self.game.move_of_bit(bit)

    def immediate_win(self) -> int:
        """A cell that wins at once (centre-most), or 0."""
        kernel = self.kernel
        wins = kernel.winning_cells(self.cur, self.empty) & kernel.playable(self.cur | self.opp)
        return kernel.candidates(wins, self.cur | self.opp)[0] if wins else 0

    def win_now_score(self) -> int:
        return (self.kernel.half - self.ply // 2) * SCORE_UNIT

    def loss_next_score(self) -> int:
        return -(self.kernel.half - (self.ply + 1) // 2) * SCORE_UNIT

    def safe_moves(self) -> int:
        """Moves after which the opponent cannot win at once (0 if there are none)."""
        opp_wins = self.kernel.winning_cells(self.opp, self.empty)
        return self.kernel.safe_moves(self.cur | self.opp, opp_wins)

    def ordered(self, moves: int) -> list[int]:
        """``moves`` as bits, most threatening first, then centre first."""
        kernel = self.kernel
        searcher_order: list[tuple[int, int, int]] = []
        for bit in kernel.candidates(moves, self.cur | self.opp):
            threats = kernel.winning_cells(self.cur | bit, self.empty ^ bit)
            searcher_order.append((-threats.bit_count(), len(searcher_order), bit))
        searcher_order.sort()
        return [bit for _, _, bit in searcher_order]

    def value(self, score: int, *, exact: bool) -> Value:
        return make_value(score, exact=exact, cells=self.kernel.cells, ply=self.ply)

    def principal_variation(self, searcher: Searcher, first: int, limit: int) -> tuple[Move, ...]:
        """Follow the table's best moves from ``first`` (at most ``limit`` moves)."""
        kernel = self.kernel
        cur, opp = self.cur, self.opp
        line: list[Move] = []
        bit = first
        while bit and len(line) < limit:
            if not (kernel.playable(cur | opp) & bit) or (cur | opp) & bit:
                break
            line.append(self.move_of(bit))
            cur |= bit
            if kernel.grid.has_line(cur) or not kernel.board & ~(cur | opp):
                break
            cur, opp = opp, cur
            bit = searcher.table_move(cur, opp)
        return tuple(line)


def search(
    game: Game,
    position: Position,
    *,
    level: Level | str | None = None,
    depth: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    book: OpeningBook | None = None,
) -> SearchResult:
    """The engine's move in ``position``.

    ``level`` picks a playing strength (:class:`~boardroom.shared.engine.levels.Level`);
    ``depth`` (plies) and ``time_limit`` (seconds) override it or, alone, bound a
    plain best-move search. With none of them, play perfectly within the perfect
    level's budget. The search returns within ``time_limit`` plus a few
    milliseconds. ``seed`` makes the varied levels reproducible.

    Perfect play (the ``perfect`` level, or no level nor limits) takes the
    opening book's move where the book has the position (:mod:`boardroom.shared.engine.book`):
    ``book``, or the one shipped for the game when None (an empty
    :class:`~boardroom.shared.engine.book.OpeningBook` turns it off).

    Raises :class:`~boardroom.shared.errors.SearchLimitsError` for a bad level or limit and
    :class:`~boardroom.shared.errors.IllegalMoveError` if the game is already over.
    """
    return _run(game, position, plan_search(level, depth, time_limit), seed=seed, book=book)


def _run(
    game: Game,
    position: Position,
    plan: SearchPlan,
    *,
    seed: int | None,
    book: OpeningBook | None = None,
) -> SearchResult:
    """Carry out ``plan`` on ``position`` (see :func:`search`)."""
    if generic.uses_generic_search(game):
        return _run_generic(game, position, plan, seed=seed)
    started = time.perf_counter()
    root = _Root.of(game, position)
    rng = random.Random(seed)
    deadline = started + plan.time_limit if plan.time_limit is not None else None

    def result(
        bit: int, score: int, *, exact: bool, pv: tuple[Move, ...], nodes: int, depth: int
    ) -> SearchResult:
        move = root.move_of(bit)
        return SearchResult(
            move=move,
            move_text=game.format_move(move),
            score=score,
            value=root.value(score, exact=exact),
            exact=exact,
            pv=pv or (move,),
            nodes=nodes,
            depth=depth,
            elapsed=time.perf_counter() - started,
        )

    kernel = root.kernel
    if plan.random:
        bit = rng.choice(list(iter_bits(kernel.playable(root.cur | root.opp))))
        return result(bit, 0, exact=False, pv=(), nodes=0, depth=0)

    win = root.immediate_win()
    if win:
        return result(win, root.win_now_score(), exact=True, pv=(), nodes=1, depth=1)
    safe = root.safe_moves()
    if not safe:
        # Lost next move whatever we do: block one of the threats, as a person would.
        opp_wins = kernel.winning_cells(root.opp, root.empty)
        playable = kernel.playable(root.cur | root.opp)
        bit = root.ordered(playable & opp_wins or playable)[0]
        return result(bit, root.loss_next_score(), exact=True, pv=(), nodes=1, depth=1)
    if plan.exact_share > 0 and plan.margin == 0:
        entry = _book_move(root, book, safe)
        if entry is not None:
            bit, score = entry
            found = result(bit, score, exact=True, pv=(), nodes=0, depth=root.remaining)
            return replace(found, book=True)

    order = root.ordered(safe)
    proving = plan.exact_share > 0 and (plan.prove or solves_everywhere(kernel))
    if len(order) == 1 and plan.margin == 0 and plan.exact_share < 1 and not proving:
        # Only one move does not lose at once; still say what it is worth, briefly.
        # Not where every position solves fast: a hint or `why` must not show a
        # guess where the value can be proven (the move is the same either way).
        plan = SearchPlan(
            depth=min(plan.depth, 4), time_limit=plan.time_limit, margin=0, exact_share=0
        )

    nodes = 0
    solvable = (
        plan.time_limit is None or plan.prove or root.remaining <= _exact_attempt_max_empty(kernel)
    )
    if plan.exact_share > 0 and plan.margin == 0 and solvable:
        exact_deadline = None
        if plan.time_limit is not None:
            exact_deadline = started + plan.time_limit * plan.exact_share
        solver = exact_searcher(kernel, deadline=exact_deadline)
        try:
            bit, score = _solve_best_move(root, solver, order)
        except SearchInterrupted:
            nodes += solver.nodes
        else:
            pv = root.principal_variation(solver, bit, root.remaining)
            return result(
                bit, score, exact=True, pv=pv, nodes=nodes + solver.nodes, depth=root.remaining
            )

    deepener = Searcher(kernel, deadline=deadline)
    best_bit, best_score, reached, exact = order[0], 0, 0, False
    scores: dict[int, int] = {}
    for iteration in range(1, min(plan.depth, root.remaining) + 1):
        deepener.leaf_evaluations = 0
        try:
            line = _search_root(root, deepener, order, iteration, full_window=plan.margin > 0)
        except SearchInterrupted as stop:
            partial = stop.args[1] if len(stop.args) > 1 else None
            if partial is not None:  # moves finished at this depth beat the old best
                best_bit, best_score = partial
            break
        scores = line
        best_bit = max(order, key=lambda b: (scores[b], -order.index(b)))
        best_score = scores[best_bit]
        reached = iteration
        exact = deepener.leaf_evaluations == 0 or is_decisive(best_score)
        if exact:
            break
        order = sorted(order, key=lambda b: -scores[b])

    nodes += deepener.nodes
    if plan.margin > 0 and scores and not exact:
        # Variety draws on the last finished depth only: an interrupted deeper pass
        # may have scored its best move on another scale than the rest.
        top = max(scores.values())
        near_best = [b for b in order if scores[b] >= top - plan.margin]
        chosen = rng.choice(near_best)
        if chosen != best_bit:
            best_bit, best_score = chosen, scores[chosen]
    pv = root.principal_variation(deepener, best_bit, max(reached, 1))
    return result(best_bit, best_score, exact=exact, pv=pv, nodes=nodes, depth=reached)


def _run_generic(
    game: Game, position: Position, plan: SearchPlan, *, seed: int | None
) -> SearchResult:
    """Carry out ``plan`` with the generic search (:mod:`boardroom.shared.engine.generic`)."""
    started = time.perf_counter()
    _check_ongoing(game, position)
    deadline = started + plan.time_limit if plan.time_limit is not None else None
    found = generic.search_position(
        game, position, plan, rng=random.Random(seed), deadline=deadline
    )
    return SearchResult(
        move=found.move,
        move_text=game.format_move(found.move),
        score=found.score,
        value=make_value(found.score, exact=found.exact, cells=game.max_plies, ply=position.ply),
        exact=found.exact,
        pv=found.pv or (found.move,),
        nodes=found.nodes,
        depth=found.depth,
        elapsed=time.perf_counter() - started,
    )


def quick_move(game: Game, position: Position) -> Move:
    """A sensible move found without searching, for when no search can run (the
    server's fallback when its engine workers fail): centre first on a
    k-in-a-row board (the kernel's static order), the move to the position the
    game's evaluation likes best otherwise (Othello). Raises
    :class:`IllegalMoveError` if the game is over.

    >>> from boardroom.shared.games import get_game
    >>> game = get_game("tictactoe")
    >>> game.format_move(quick_move(game, game.from_moves("b2")))
    'b1'
    >>> othello = get_game("othello")
    >>> othello.format_move(quick_move(othello, othello.from_moves("d3 c3 e6 d2 d1 e1 b2 c1")))
    'pass'
    """
    _check_ongoing(game, position)
    if generic.uses_generic_search(game):
        searcher = generic.GenericSearcher(game, evaluation=generic.evaluation_of(game))
        return searcher.ordered_moves(position, game.legal_moves(position))[0]
    root = _Root.of(game, position)
    occupied = root.cur | root.opp
    return root.move_of(root.kernel.candidates(root.kernel.playable(occupied), occupied)[0])


def _check_ongoing(game: Game, position: Position) -> None:
    """Raise :class:`IllegalMoveError` if the game is over: nothing to search."""
    if game.outcome(position).is_over:
        raise IllegalMoveError(
            "the game is over: there is no move to search for",
            move_text="",
            reason=IllegalMoveReason.GAME_OVER,
        )


def _book_move(root: _Root, book: OpeningBook | None, safe: int) -> tuple[int, int] | None:
    """The opening book's (bit, exact score) for the root, if the book (``book``,
    else the game's own) has it and its move is one that does not lose at once:
    a damaged book is never followed into a loss."""
    game = root.game
    if book is None:
        book = packaged_book(game)
    if book is None or not game.gravity:
        return None
    entry = book.lookup(root.position)
    if entry is None or entry.move not in game.legal_moves(root.position):
        return None
    bit = game.move_bit_in(root.cur | root.opp, entry.move)
    if not bit & safe:
        return None
    return bit, entry.score * SCORE_UNIT


def _search_root(
    root: _Root, searcher: Searcher, order: list[int], depth: int, *, full_window: bool
) -> dict[int, int]:
    """Scores of the root moves at ``depth``. With ``full_window`` every score is
    exact for that depth; otherwise only the best is, the rest are upper bounds.

    On interruption, re-raises :class:`SearchInterrupted` carrying the best
    (bit, score) among the moves finished at this depth, if any beat the first.
    """
    scores: dict[int, int] = {}
    alpha = -INFINITY
    best: tuple[int, int] | None = None
    for bit in order:
        low = -INFINITY if full_window else alpha
        try:
            score = searcher.score_move(root.cur, root.opp, root.ply, bit, low, INFINITY, depth)
        except SearchInterrupted:
            raise SearchInterrupted("deadline", best if len(scores) > 1 else None) from None
        scores[bit] = score
        if score > alpha:
            alpha = score
            best = (bit, score)
    return scores


def _solve_best_move(root: _Root, solver: Searcher, order: list[int]) -> tuple[int, int]:
    """The exact score of the root and a move that keeps it (null-window tests)."""
    kernel = root.kernel
    low = -(kernel.half - (root.ply + 1) // 2)
    high = kernel.half - (root.ply + 2) // 2
    value = solver.solve(root.cur, root.opp, root.ply, low=low, high=high) * SCORE_UNIT
    for bit in order[:-1]:
        score = solver.score_move(root.cur, root.opp, root.ply, bit, value - 1, value, EXACT_DEPTH)
        if score >= value:
            return bit, value
    return order[-1], value


def solves_in_time(game: Game, position: Position) -> bool:
    """Whether :func:`solve_move` on ``position`` (ongoing) is expected to end in
    seconds: a game of the bitboard kernel where its solver solves every position
    (Connect Four with its opening database, compiled) or where few enough cells
    are left (as many as :func:`search` tries a full solve with under a clock).
    Never a game searched generically (Othello): its full solve ends in time only
    in the last moves, which a search under a time limit proves as well.

    >>> from boardroom.shared.games import get_game
    >>> tictactoe, othello = get_game("tictactoe"), get_game("othello")
    >>> solves_in_time(tictactoe, tictactoe.new()), solves_in_time(othello, othello.new())
    (True, False)
    """
    if generic.uses_generic_search(game):
        return False
    root = _Root.of(game, position)
    return root.remaining <= _exact_attempt_max_empty(root.kernel)


def solve_move(game: Game, position: Position, *, book: OpeningBook | None = None) -> SearchResult:
    """The best move by exact solving, with its proven value, however long it takes.

    Like :func:`solve`, fast for tic-tac-toe boards and Connect Four past the
    opening; :func:`search` with a time limit is the bounded alternative. The
    opening book answers where it has the position, as in :func:`search`.
    """
    plan = SearchPlan(depth=MAX_DEPTH, time_limit=None, margin=0, exact_share=1.0)
    return _run(game, position, plan, seed=None, book=book)


def solve(game: Game, position: Position) -> int:
    """The exact stone score of ``position`` for the player to move.

    0 is a draw; a positive score is a win, one more than the stones the winner
    still has in hand when the line is made (Connect Four: 22 minus the winner's
    stone count, the scale of the standard test sets); negative, a loss. Runs
    until solved: fast for tic-tac-toe boards and Connect Four past the opening,
    far too slow for an empty Connect Four or gomoku board.

    A game searched generically (Othello) is solved by plain alpha-beta to the
    end of every line: a win scores ``max_plies // 2 + 1`` minus the winner's
    moves, so fast only in the last dozen moves or so.
    """
    if generic.uses_generic_search(game):
        _check_ongoing(game, position)
        return stone_score(generic.solve_position(game, position))
    root = _Root.of(game, position)
    if root.immediate_win():
        return stone_score(root.win_now_score())
    kernel = root.kernel
    return exact_searcher(kernel).solve(
        root.cur,
        root.opp,
        root.ply,
        low=-(kernel.half - (root.ply + 1) // 2),
        high=kernel.half - (root.ply + 2) // 2,
    )


def value_search(game: Game, position: Position, *, time_limit: float) -> SearchResult:
    """The value of ``position`` and a best move, for hints and reviews.

    Where every position solves fast (Connect Four with the opening database and
    the compiled solver, :func:`~boardroom.shared.engine.solvers.solves_everywhere`), a full
    solve proves it, given :data:`EXACT_VALUE_CAP` seconds if ``time_limit`` is
    less; only a solve that outlasts that leaves an estimate (``exact`` False).
    Elsewhere :func:`search` at the ``perfect`` level within ``time_limit``:
    tic-tac-toe boards solve in time, gomoku and large m,n,k boards are estimates,
    as are games searched generically (Othello) until their last moves.
    """
    if generic.uses_generic_search(game):
        return search(game, position, level="perfect", time_limit=time_limit)
    root = _Root.of(game, position)
    if not solves_everywhere(root.kernel):
        return search(game, position, level="perfect", time_limit=time_limit)
    plan = SearchPlan(
        depth=MAX_DEPTH,
        time_limit=max(time_limit, EXACT_VALUE_CAP),
        margin=0,
        exact_share=0.9,
        prove=True,
    )
    return _run(game, position, plan, seed=None)


def analyze(
    game: Game, position: Position, *, time_limit: float | None = None
) -> list[tuple[Move, Value]]:
    """The value of every legal move, best first, for hints and post-game review.

    Moves are searched most promising first, each with an equal share of what is
    left of ``time_limit`` (default :data:`DEFAULT_ANALYSIS_TIME` seconds) by
    :func:`search`, or :func:`value_search` where it proves every value (Connect
    Four with the opening database: each move may take up to
    :data:`EXACT_VALUE_CAP`, typically a few milliseconds); elsewhere proven
    (``win in 3``, ``draw``) where a full solve fits, otherwise the heuristic
    value of the deepest finished search. Once the
    time is spent, the remaining moves (on a big board, the far-off ones) get the
    static value at the horizon, so the call returns within ``time_limit`` plus
    one search's clock granularity (except where values are proven).
    """
    total = DEFAULT_ANALYSIS_TIME if time_limit is None else time_limit
    plan_search(None, None, total)  # validates the limit
    started = time.perf_counter()
    deadline = started + total
    if generic.uses_generic_search(game):
        return _analyze_generic(game, position, deadline)
    root = _Root.of(game, position)
    game = root.game
    proving = solves_everywhere(root.kernel)
    occupied = root.cur | root.opp
    promising = [root.move_of(bit) for bit in root.ordered(root.kernel.playable(occupied))]
    moves = promising + sorted(set(game.legal_moves(position)) - set(promising))
    values: list[tuple[Move, Value]] = []
    for index, move in enumerate(moves):
        child = game.play_unchecked(position, move)
        outcome = game.outcome(child)
        if outcome.is_over:
            score = root.win_now_score() if outcome.winner is not None else 0
            values.append((move, root.value(score, exact=True)))
            continue
        left = deadline - time.perf_counter()
        if left > 0 or proving:
            share = max(left, 0.0) / (len(moves) - index)
            if proving:
                reply = value_search(game, child, time_limit=share)
            else:
                reply = search(game, child, time_limit=share)
            values.append((move, root.value(-reply.score, exact=reply.exact)))
        else:
            score = -horizon_value(game, child)
            values.append((move, root.value(score, exact=is_decisive(score))))
    values.sort(key=lambda mv: -mv[1].score)
    return values


def _analyze_generic(game: Game, position: Position, deadline: float) -> list[tuple[Move, Value]]:
    """:func:`analyze` for a game searched generically: the same shares of the
    time, the moves in the generic search's order, the game's evaluation for
    those the time does not reach."""
    _check_ongoing(game, position)
    evaluation = generic.evaluation_of(game)
    searcher = generic.GenericSearcher(game, evaluation=evaluation)
    moves = searcher.ordered_moves(position, game.legal_moves(position))

    def value(score: int, *, exact: bool) -> Value:
        return make_value(score, exact=exact, cells=game.max_plies, ply=position.ply)

    values: list[tuple[Move, Value]] = []
    for index, move in enumerate(moves):
        child = game.play_unchecked(position, move)
        if game.outcome(child).is_over:
            values.append((move, value(-generic.terminal_score(game, child), exact=True)))
            continue
        left = deadline - time.perf_counter()
        if left > 0:
            reply = search(game, child, time_limit=left / (len(moves) - index))
            values.append((move, value(-reply.score, exact=reply.exact)))
        else:
            score = -generic.static_score(game, child, evaluation)
            values.append((move, value(score, exact=False)))
    values.sort(key=lambda mv: -mv[1].score)
    return values
